"""The robust gradient (002 Algorithm 1 step 4, variant ``standard``) against ``np.mean``.

Run ``python -m proofs_checks.benchmarks.robust_gradient [--rows 100000] [--cols 100] [--repeat 7]
[--json]``.  For each scenario the same float64 array goes through ``np.mean(G, axis=0)``,
``robust_mean(G, s, beta, axis=0)`` and ``robust_gradient(G, s, beta)``; the calls are interleaved
and each is timed ``--repeat`` times, and the report gives the ratio of the best robust time to the
best ``np.mean`` time measured in the same run (never absolute seconds: they depend on the machine
and its load), in wall time and in CPU time summed over threads (the work, which a busy machine
distorts less), with the load average before and after.  Also reported: the share of entries in each region of the kernel
(:mod:`reference.hu._ephi_kernel`).  The estimator reads every ``|U| < 9`` entry
(``band`` and ``series`` below) from the curve table of ``beta`` (one look-up and a degree-9
polynomial), so the cost is set by the share of ``poly`` entries; the regions of ``expected_phi``:

- ``poly``: ``|U| >= 9`` (a polynomial or the constant ``B``; no special function),
- ``band`` (key ``moments``): ``b < 1``, ``|U| < 9`` (two look-ups in the ``J_2``, ``J_3`` tables; for
  ``2a/b < 1/4`` two exponentials and two ``erfcx`` evaluations),
- ``series``: ``b >= 1``, ``|U| < 9`` (``erf``, an exponential and up to 19 Hermite terms).

Scenarios (``a = g/s``, ``b = |a|/sqrt(beta)``): the scale ``s`` of Theorem 2 of 002 at
``n = 1e5``, ``eps = 1`` with unit-variance Student t gradients (``tau = 1``); Student t with 3
degrees of freedom (heavy tails, as in the experiments of 002) at three scales ``s``; and a worst
case where every entry falls in the ``moments`` region.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time

import numpy as np

from reference.hu import _ephi_kernel as K
from reference.hu.catoni import robust_gradient, robust_mean

__all__ = ["THEOREM2_S", "SCENARIOS", "regions", "run", "format_report", "main"]

#: s of Theorem 2 at n = 1e5, eps = 1, d = 100, |V| = 200, alpha = tau = 1, zeta = 0.05, beta = 1
#: (``reference.hu.parameters.theorem2_parameters``); the gradients then have unit variance.
THEOREM2_S = 18.22617176957997

SCENARIOS = (
    ("Theorem 2 setting: s=18.2 (n=1e5, eps=1, tau=1), G = t3/sqrt(3) (unit variance)", "t3unit", THEOREM2_S, 1.0),
    ("t3, s=50, beta=1 (s well above the typical gradient)", "t3", 50.0, 1.0),
    ("t3, s=5, beta=1", "t3", 5.0, 1.0),
    ("t3, s=1, beta=1 (s at the typical gradient)", "t3", 1.0, 1.0),
    ("worst case: |a| uniform in [0.16, 1), beta=1 (all in the moments region)", "band", 1.0, 1.0),
)


def _data(kind, rows, cols, seed):
    rng = np.random.default_rng(seed)
    if kind == "t3":
        return rng.standard_t(3.0, size=(rows, cols))
    if kind == "t3unit":
        return rng.standard_t(3.0, size=(rows, cols)) / math.sqrt(3.0)
    return rng.choice([-1.0, 1.0], (rows, cols)) * rng.uniform(0.16, 1.0, (rows, cols))


def regions(G, s, beta):
    """Share of entries in each region of the kernel."""
    a = np.abs(G / s)
    b = a / math.sqrt(beta)
    with np.errstate(all="ignore"):
        d = math.sqrt(2.0) - a
        poly = (b == 0) | (np.abs(d) >= K.INNER * b)
    series = ~poly & (b >= K.WIDE_B)
    moments = ~poly & ~series
    n = G.size
    return {"poly": float(poly.sum() / n), "moments": float(moments.sum() / n), "series": float(series.sum() / n)}


def _timed(fn):
    """(wall seconds, CPU seconds of the process over all its threads) of one call."""
    c0 = time.process_time()
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0, time.process_time() - c0


def run(rows=100_000, cols=100, repeat=7, seed=0):
    # compile (or load the cached kernel) outside the timings
    robust_gradient(np.ones((4, 3)), 1.0, 1.0)
    robust_gradient(np.ones((K._PARALLEL_MIN, 2)), 1.0, 1.0)
    out = {
        "rows": rows,
        "cols": cols,
        "repeat": repeat,
        "threads": K.numba.get_num_threads() if K.HAVE_NUMBA else 1,
        "cpu_count": os.cpu_count(),
        "compiled": K.HAVE_NUMBA,
        "load_average_before": _load(),
        "scenarios": [],
    }
    for name, kind, s, beta in SCENARIOS:
        G = _data(kind, rows, cols, seed)
        t_mean = []
        t_rm = []
        t_rg = []
        for _ in range(repeat):  # interleaved, so that load changes hit all three alike
            t_mean.append(_timed(lambda: np.mean(G, axis=0)))
            t_rm.append(_timed(lambda: robust_mean(G, s, beta, axis=0)))
            t_rg.append(_timed(lambda: robust_gradient(G, s, beta)))
        wall = [min(t[0] for t in ts) for ts in (t_mean, t_rm, t_rg)]
        cpu = [min(t[1] for t in ts) for ts in (t_mean, t_rm, t_rg)]
        out["scenarios"].append(
            {
                "name": name,
                "s": s,
                "beta": beta,
                "regions": regions(G, s, beta),
                "robust_mean_over_np_mean": wall[1] / wall[0],
                "robust_gradient_over_np_mean": wall[2] / wall[0],
                # CPU time over all threads: the work, insensitive to waiting for a busy machine's cores
                "robust_mean_over_np_mean_cpu": cpu[1] / cpu[0] if cpu[0] > 0 else None,
                "robust_gradient_over_np_mean_cpu": cpu[2] / cpu[0] if cpu[0] > 0 else None,
            }
        )
    out["load_average_after"] = _load()
    return out


def _load():
    """1-minute load average (other jobs on the machine distort the ratios; it is reported)."""
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:  # pragma: no cover - not on every platform
        return None


def format_report(res):
    lines = [
        f"array ({res['rows']}, {res['cols']}) float64, {res['threads']} threads, best of {res['repeat']};"
        f" ratios to np.mean(G, axis=0) measured in the same run",
        f"load average before/after: {res['load_average_before']} / {res['load_average_after']}"
        f" on {res['cpu_count']} cores",
        "",
    ]
    lines.append(
        f"{'scenario':<84} {'poly':>6} {'band':>6} {'series':>7} {'robust_mean':>12} {'robust_grad':>12}"
        f" {'(CPU time)':>11}"
    )
    for sc in res["scenarios"]:
        r = sc["regions"]
        cpu = sc["robust_gradient_over_np_mean_cpu"]
        lines.append(
            f"{sc['name']:<84} {r['poly']:>6.1%} {r['moments']:>6.1%} {r['series']:>7.1%} "
            f"{sc['robust_mean_over_np_mean']:>11.1f}x {sc['robust_gradient_over_np_mean']:>11.1f}x"
            f" {cpu:>10.1f}x"
            if cpu
            else ""
        )
    lines += [
        "",
        "robust_*: wall-time ratios; (CPU time): robust_gradient's CPU time over all its threads divided"
        " by np.mean's (the work; on an idle machine with 2 cores the wall ratio is about half of it).",
    ]
    return "\n".join(lines)


def main(argv=None):
    p = argparse.ArgumentParser(description="robust_mean / robust_gradient time as a ratio to np.mean")
    p.add_argument("--rows", type=int, default=100_000)
    p.add_argument("--cols", type=int, default=100)
    p.add_argument("--repeat", type=int, default=7)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    if args.rows < 1 or args.cols < 1 or args.repeat < 1:
        p.error("--rows, --cols and --repeat must be >= 1")
    res = run(args.rows, args.cols, args.repeat, args.seed)
    print(json.dumps(res, indent=2) if args.json else format_report(res))
    return 0


if __name__ == "__main__":
    sys.exit(main())
