"""Cost of the gray-box audit on the reference algorithms' entry points (the table of docs/auditor.md).

Run: ``python -m proofs_checks.benchmarks.gray_box_cost [--paths 50] [--budget 200] [--only NAME ...]``.

For each entry point: one :func:`~proofs_checks.audit.search_neighbours` of ``budget`` replays from the dataset,
then :func:`~proofs_checks.audit.gray_box_audit` on the pair it found (``paths`` per direction, every check), with
the seconds of each, the worst measured / declared sensitivity ratio and the checks' verdicts.  Sizes: ``n = 500``
records (002 and 000: Student-t(3) features and response, ``d = 10``; 004: its bounded squared-loss problem);
Peeling alone takes the query vector itself as its data (50 coordinates).
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np

from proofs_checks.audit import gray_box_audit, search_neighbours
from reference.arora.data import make_problem, sample_records
from reference.arora.learners import OutputPerturbation, noisy_gd, output_perturbation
from reference.arora.model_selection import boosting, private_grid_search
from reference.hu.frank_wolfe import heavy_tailed_dp_fw, heavy_tailed_private_lasso
from reference.hu.sparse import heavy_tailed_sparse_linear_regression, heavy_tailed_sparse_optimization
from reference.mechanisms import peeling
from reference.wang_xu.l1_regression import algorithm1, algorithm2

__all__ = ["entry_points", "measure", "main"]


def entry_points(n: int = 500, d: int = 10) -> dict:
    """``{name: (algorithm(data, rng), data, claimed delta)}``, each claiming epsilon = 1."""
    rng = np.random.default_rng(0)
    heavy = np.column_stack([rng.standard_t(3, size=(n, d)), rng.standard_t(3, size=n)])
    bounded = sample_records(make_problem("squared", [0.5, -0.5]), n, rng=0)
    net = np.linspace(-1.0, 1.0, 41)[:, None]
    learner = OutputPerturbation("squared", 1.0, 2.0)
    w0 = np.zeros(d)
    return {
        "DP-FW [002 Alg. 1], T = 10": (
            lambda x, r: heavy_tailed_dp_fw(x, "squared", w0, s=5.0, T=10, beta=1.0, epsilon=1.0, rng=r),
            heavy,
            0.0,
        ),
        "private LASSO [002 Alg. 2], T = 10": (
            lambda x, r: heavy_tailed_private_lasso(x, w0, K=2.0, T=10, epsilon=1.0, delta=1e-5, rng=r),
            heavy,
            1e-5,
        ),
        "DP-IHT [002 Alg. 3], T = 5, s = 5": (
            lambda x, r: heavy_tailed_sparse_linear_regression(
                x, w0, K=2.0, T=5, eta0=0.5, s=5, epsilon=1.0, delta=1e-5, rng=r
            ),
            heavy,
            1e-5,
        ),
        "[002 Alg. 5], T = 5, s = 5": (
            lambda x, r: heavy_tailed_sparse_optimization(
                x, "squared", w0, s=5, beta=1.0, k=5.0, T=5, eta=0.5, epsilon=1.0, delta=1e-5, rng=r
            ),
            heavy,
            1e-5,
        ),
        "Peeling [002 Alg. 4], s = 5 of 50": (
            lambda x, r: peeling(x[:, 0], 5, 1.0, 1e-5, 0.5, rng=r),
            heavy[:50],
            1e-5,
        ),
        "Boosting [004 App. E], m = 5": (
            lambda x, r: boosting(x, learner, 1.0, 5, 1.0, 1e-5, sigma_tilde=0.5, rng=r),
            bounded,
            1e-5,
        ),
        "Private Grid Search [004 Alg. 1], K = 5": (
            lambda x, r: private_grid_search(x, learner, 5, 1.0, 1e-5, 0.1, rng=r),
            bounded,
            1e-5,
        ),
        "output perturbation [004]": (
            lambda x, r: output_perturbation(x, "squared", 1.0, 0.5, 1e-5, x_bound=1.0, y_bound=2.0, rng=r),
            bounded,
            1e-5,
        ),
        "noisy GD [004], 10 steps": (
            lambda x, r: noisy_gd(x, "squared", 1.0, 0.5, 1e-5, x_bound=1.0, y_bound=2.0, steps=10, rng=r),
            bounded,
            1e-5,
        ),
        "Wang & Xu [000 Alg. 1], 41-point net": (
            lambda x, r: algorithm1(x[:, :1], x[:, -1], net, epsilon=1.0, iota=1.0, rng=r),
            heavy,
            0.0,
        ),
        "Wang & Xu [000 Alg. 2], 41-point net": (
            lambda x, r: algorithm2(x[:, :1], x[:, -1], net, epsilon=1.0, iota=1.0, theta=1.5, rng=r),
            heavy,
            0.0,
        ),
    }


def measure(algorithm, data, delta: float, paths: int = 50, budget: int = 200) -> dict:
    """Seconds of one neighbour search and of the audit on its pair, with what they found."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # extreme candidates overflow inside the algorithms
        start = time.perf_counter()
        found = search_neighbours(algorithm, data, budget=budget, seed=0)
        searched = time.perf_counter() - start
        start = time.perf_counter()
        result = gray_box_audit(algorithm, data, found.D_prime, epsilon=1.0, delta=delta, paths=paths, seed=0)
        audited = time.perf_counter() - start
    return {
        "calls": result.calls,
        "search_seconds": searched,
        "replays": found.evaluations,
        "rejected": found.rejected,
        "ratio": found.ratio,
        "change": found.change,
        "call": found.call,
        "seconds_per_path": audited / (2 * paths),
        "verdict": result.verdict,
        "checks": {check.name: check.verdict for check in result.checks},
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--paths", type=int, default=50)
    parser.add_argument("--budget", type=int, default=200)
    parser.add_argument("--only", nargs="*", default=[], help="names containing any of these")
    args = parser.parse_args(argv)
    for name, (algorithm, data, delta) in entry_points().items():
        if args.only and not any(part in name for part in args.only):
            continue
        m = measure(algorithm, data, delta, args.paths, args.budget)
        print(
            f"{name}: {m['calls']} calls, {m['seconds_per_path']:.4f} s/path, search {m['search_seconds']:.2f} s "
            f"({m['replays']} replays, {m['rejected']} rejected, ratio {m['ratio']:.3g}, {m['change']}), "
            f"{m['verdict']} {m['checks']}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
