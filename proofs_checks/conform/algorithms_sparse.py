"""Whole-algorithm conformance of [002 Alg. 3], [002 Alg. 5], [004 Alg. 1], its noisy-GD base learner and 004's
Boosting [004 App. E]: continuous outputs, two-sample tests.

[002 Alg. 3] and [002 Alg. 5] release an s-sparse point whose nonzero values carry Laplace noise from Peeling
([002 Alg. 4]); [004 Alg. 1] (private grid search) releases one of K noisy candidates (output perturbation) or
0, chosen by GEM ([004 App. D.1]).  None of these output laws has a finite enumeration.  The kit runs the port's algorithm and the reference's on the
same tiny instance (:data:`SPARSE_INSTANCES`), each with its own seeded generator, and tests that the two
samples come from one law (:func:`two_sample_test`): a chi-square test of homogeneity of the support patterns
and a two-sample Kolmogorov-Smirnov test per coordinate, Bonferroni at family-wise level :data:`.lawtests.ALPHA`.

The instances put Peeling's noise scale well below the unit l2 ball's radius (``n = 400`` records, ``eps = 2``,
not 1, where ``sqrt(eps) = eps`` would hide a Peeling slip), so a noise scale 2x off or ``eps`` inside Peeling's
square root moves every coordinate's law; :func:`slip_power` measures the power against each of :data:`SLIPS`.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
from scipy import optimize, stats

from reference.arora.data import make_problem, sample_records
from reference.arora.learners import NoisyGD, OutputPerturbation, noisy_gd, noisy_gd_rho, output_perturbation
from reference.arora.model_selection import boosting, private_grid_search
from reference.hu import sparse as SP

from .lawtests import ALPHA
from .sequential_two_sample import sample_distances, sequential_two_sample_test

__all__ = [
    "SPARSE_INSTANCES",
    "SPARSE_CHECKS",
    "SLIPS",
    "reference_draws",
    "two_sample_test",
    "slip_power",
    "slip_distance",
    "EARLY_PASS_DISTANCE",
]


def _records(n, d, seed):
    """Uniform features, a sparse linear response with uniform noise: draws and IEEE arithmetic only (portable)."""
    gen = np.random.default_rng(seed)
    X = gen.uniform(-1.0, 1.0, size=(n, d))
    y = 0.6 * X[:, 0] - 0.3 * X[:, 1] + gen.uniform(-0.5, 0.5, n)
    return np.column_stack([X, y])


_W1 = np.array([0.2, 0.0, 0.0, 0.0])

#: The instance of each algorithm (keyword arguments of the port function, ``size`` and ``rng`` aside).
SPARSE_INSTANCES: dict[str, dict[str, Any]] = {
    "sparse_linear_regression": {
        "data": _records(400, 4, 20261128),
        "w1": _W1,
        "K": 1.0,
        "T": 2,
        "eta0": 0.5,
        "s": 2,
        "epsilon": 2.0,
        "delta": 1e-3,
    },
    "sparse_optimization": {
        "data": _records(100, 4, 20261129),
        "loss": "squared",
        "w1": _W1,
        "s": 2,
        "beta": 1.0,
        "k": 1.0,
        "T": 2,
        "eta": 0.5,
        "epsilon": 2.0,
        "delta": 1e-3,
        "variant": "standard",
        "gradient_at": "current",
    },
    # 2,000 records of 004's squared-loss GLM with w* = (0.5, -0.5), from 004's generator (not bit-portable across
    # CPUs, which a two-sample test against the reference on the same machine does not need); the base learner
    # is output perturbation
    "private_grid_search": {
        "data": sample_records(make_problem("squared", [0.5, -0.5]), 2000, rng=20261130),
        "loss": "squared",
        "x_bound": 1.0,
        "y_bound": 2.0,
        "K": 3,
        # at n = 200, eps = 2 the candidates' noise fills the balls they are projected on and a port spending
        # half the budget was rejected in 2 of 9 runs of 5,000; here in every one
        "epsilon": 8.0,
        "delta": 1e-5,
        "beta": 0.1,
        "variant": "standard",
    },
    # Boosting [004 App. E]: m = 2 models by output perturbation on disjoint chunks of 600 records, selected by
    # report-noisy-max on the last chunk.  The first and last chunks come from w* = (0.5, -0.5), the second from
    # (0.1, -0.1), so the two models are told apart and the output is a mixture whose weights are the selection's
    # law; eps = 16 keeps the models' own noise below the gap of their validation scores (about 0.15) and
    # sigma_tilde = 0.1 puts the selection's Laplace noise at that gap, so the reading of Lap(sigma_tilde) (scale
    # 0.1 or 0.071) moves the weights.  At eps = 4 with three models of one law the reading was not separated.
    "boosting": {
        "data": np.vstack(
            [
                sample_records(make_problem("squared", w), 600, rng=20261131 + k)
                for k, w in enumerate([[0.5, -0.5], [0.1, -0.1], [0.5, -0.5]])
            ]
        ),
        "loss": "squared",
        "x_bound": 1.0,
        "y_bound": 2.0,
        "B": 1.0,
        "m": 2,
        "epsilon": 16.0,
        "delta": 1e-5,
        "sigma_tilde": 0.1,
        "variant": "printed",
    },
    # the noisy projected gradient descent base learner of [004 Alg. 1]: 300 records, 10 steps
    "noisy_gd": {
        "data": sample_records(make_problem("squared", [0.5, -0.5]), 300, rng=20261132),
        "loss": "squared",
        "x_bound": 1.0,
        "y_bound": 2.0,
        "B": 1.0,
        "epsilon": 2.0,
        "delta": 1e-5,
        "steps": 10,
    },
    # the output-perturbation base learner of [004 Alg. 1] on its own: 300 records, lam = 0.5 (sigma = 0.19)
    "output_perturbation": {
        "data": sample_records(make_problem("squared", [0.5, -0.5]), 300, rng=20261133),
        "loss": "squared",
        "x_bound": 1.0,
        "y_bound": 2.0,
        "B": 1.0,
        "lam": 0.5,
        "epsilon": 2.0,
        "delta": 1e-5,
    },
    # [004 Alg. 1] with noisy GD as the base learner: the private_grid_search instance's law, 10 steps per guess
    "private_grid_search_noisy_gd": {
        "data": sample_records(make_problem("squared", [0.5, -0.5]), 2000, rng=20261130),
        "loss": "squared",
        "x_bound": 1.0,
        "y_bound": 2.0,
        "K": 3,
        "epsilon": 8.0,
        "delta": 1e-5,
        "beta": 0.1,
        "steps": 10,
        "variant": "standard",
    },
}


def _quarter_rho_epsilon(epsilon, delta):
    """The epsilon whose zCDP budget is a quarter of ``epsilon``'s: the noisy-GD noise 2x (a sensitivity 2x off)."""
    target = noisy_gd_rho(epsilon, delta) / 4.0
    return optimize.brentq(lambda e: noisy_gd_rho(e, delta) - target, 1e-9, epsilon, xtol=1e-15, rtol=1e-15)


class _NoisyGDNoise2x(NoisyGD):
    """Noisy GD whose noise is 2x the calibrated one (a quarter of each run's zCDP budget): a slipped learner."""

    def fit(self, data, B, epsilon, delta, size, rng=None):
        return super().fit(data, B, _quarter_rho_epsilon(epsilon, delta), delta, size, rng)


def _run_reference(name, inst, size, rng, lam_factor=1.0, **change):
    i = {**inst, **change}
    if name == "output_perturbation":
        return output_perturbation(
            i.pop("data"), i.pop("loss"), i.pop("B"), i.pop("epsilon"), i.pop("delta"), **i, size=size, rng=rng
        )
    if name == "private_grid_search_noisy_gd":
        kind = _NoisyGDNoise2x if i.pop("noise_2x", False) else NoisyGD
        learner = kind(i.pop("loss"), i.pop("x_bound"), i.pop("y_bound"), steps=i.pop("steps"))
        return private_grid_search(i.pop("data"), learner, **i, size=size, rng=rng)
    if name == "private_grid_search":
        learner = OutputPerturbation(i.pop("loss"), i.pop("x_bound"), i.pop("y_bound"))
        return private_grid_search(i.pop("data"), learner, **i, size=size, rng=rng)
    if name == "boosting":
        learner = OutputPerturbation(i.pop("loss"), i.pop("x_bound"), i.pop("y_bound"))
        return boosting(i.pop("data"), learner, i.pop("B"), i.pop("m"), **i, size=size, rng=rng)
    if name == "noisy_gd":
        if i.pop("noise_2x", False):
            i["epsilon"] = _quarter_rho_epsilon(i["epsilon"], i["delta"])
        return noisy_gd(
            i.pop("data"), i.pop("loss"), i.pop("B"), i.pop("epsilon"), i.pop("delta"), **i, size=size, rng=rng
        )
    if name == "sparse_linear_regression":
        m = len(SP.data_split(i["data"].shape[0], i["T"])[0])
        lam = lam_factor * SP.iht_lambda(i["K"], i["eta0"], i["s"], m)
        return SP.heavy_tailed_sparse_linear_regression(**i, rng=rng, size=size, lam=lam)
    m = len(SP.data_split(i["data"].shape[0], i["T"])[0])
    lam = lam_factor * SP.sparse_opt_lambda(i["k"], i["eta"], m)
    return SP.heavy_tailed_sparse_optimization(**i, rng=rng, size=size, lam=lam)


def reference_draws(name: str, size: int, rng: Any, lam_factor: float = 1.0, **change: Any) -> np.ndarray:
    """``size`` runs of the reference's algorithm ``name`` on its instance (Peeling's ``lambda`` times a factor).

    Parameters
    ----------
    name : str
        A key of :data:`SPARSE_INSTANCES`.
    size : int
        Runs.
    rng : numpy.random.Generator or seed
        Their randomness.
    lam_factor : float
        Multiplies Peeling's noise parameter (1: the algorithm; 2: a port with the noise 2x off).
    **change
        Instance entries to replace (``epsilon=1.0``: a port spending half the budget).

    Returns
    -------
    numpy.ndarray
        One output per row.

    Examples
    --------
    >>> reference_draws("sparse_linear_regression", 3, 0).shape
    (3, 4)
    """
    return np.asarray(_run_reference(name, SPARSE_INSTANCES[name], size, rng, lam_factor, **change), dtype=np.float64)


def two_sample_test(port: np.ndarray, reference: np.ndarray, alpha: float = ALPHA) -> tuple[bool, str | None, dict]:
    """``(ok, message, detail)``: do two samples of s-sparse points come from one law?

    A chi-square test of homogeneity of the support patterns (patterns seen under 5 times in both pooled) and a
    two-sample KS test of each coordinate, Bonferroni over the ``1 + d`` tests at family-wise level ``alpha``.

    Examples
    --------
    >>> gen = np.random.default_rng(0)
    >>> a = np.where(gen.random((4000, 2)) < 0.5, gen.laplace(0, 1, (4000, 2)), 0.0)
    >>> b = np.where(gen.random((4000, 2)) < 0.5, gen.laplace(0, 1, (4000, 2)), 0.0)
    >>> c = np.where(gen.random((4000, 2)) < 0.5, gen.laplace(0, 2, (4000, 2)), 0.0)
    >>> two_sample_test(a, b)[0], two_sample_test(a, c)[0]
    (True, False)
    """
    port, reference = np.asarray(port, dtype=np.float64), np.asarray(reference, dtype=np.float64)
    d = port.shape[1]
    level = alpha / (d + 1)
    weights = 2 ** np.arange(d)
    codes = np.concatenate([(port != 0) @ weights, (reference != 0) @ weights]).astype(np.int64)
    table = np.stack([np.bincount(c, minlength=2**d) for c in (codes[: len(port)], codes[len(port) :])])
    table = table[:, table.sum(axis=0) > 0]
    rare = table.sum(axis=0) < 10
    if rare.any():
        table = np.column_stack([table[:, ~rare], table[:, rare].sum(axis=1)])
    chi2 = stats.chi2_contingency(table) if table.shape[1] > 1 else None
    p_support = float(chi2.pvalue) if chi2 is not None else 1.0
    ks = [stats.ks_2samp(port[:, j], reference[:, j], method="asymp") for j in range(d)]
    p_ks = [float(r.pvalue) for r in ks]
    detail = {
        "draws": len(port),
        "reference_draws": len(reference),
        "level_per_test": level,
        "support_p_value": p_support,
        "ks_p_values": p_ks,
    }
    if p_support < level:
        return (
            False,
            (
                f"support patterns: chi-square homogeneity p = {p_support:.3g} < {level:.3g} "
                f"(frequencies {np.round(table[0] / table[0].sum(), 4).tolist()} vs the reference's "
                f"{np.round(table[1] / table[1].sum(), 4).tolist()}; {len(port)} and {len(reference)} runs)"
            ),
            detail,
        )
    j = int(np.argmin(p_ks))
    if p_ks[j] < level:
        spread = [float(np.mean(np.abs(x[:, j]))) for x in (port, reference)]
        return (
            False,
            (
                f"coordinate {j}: two-sample KS statistic {ks[j].statistic:.4f}, p = {p_ks[j]:.3g} < {level:.3g} "
                f"(mean |w_{j}| {spread[0]:.4g} vs the reference's {spread[1]:.4g}; {len(port)} and "
                f"{len(reference)} runs)"
            ),
            detail,
        )
    return True, None, detail


class _WrongShape(Exception):
    """A port's runs of the wrong shape (ends the check with a failure naming the shape)."""


def _check(name: str, index: int) -> Callable:
    def check(port, n, rng):
        inst = SPARSE_INSTANCES[name]
        d = inst["data"].shape[1] - 1
        # the reference's own draws: a stream of their own, derived from the port's generator's first draw so
        # that the kit's seed fixes both samples
        ref_rng = np.random.default_rng(np.random.SeedSequence([int(rng.integers(2**63)), 18, index]))

        def draw_port(m):
            draws = np.asarray(getattr(port, name)(**inst, size=m, rng=rng), dtype=np.float64)
            if draws.shape != (m, d):
                raise _WrongShape(f"{name}: expected {m} outputs of dimension {d}, got shape {draws.shape}")
            return draws

        try:
            ok, msg, detail = sequential_two_sample_test(
                draw_port, lambda m: reference_draws(name, m, ref_rng), n, two_sample_test, EARLY_PASS_DISTANCE[name]
            )
        except _WrongShape as exc:
            return False, str(exc), {}
        return ok, (f"{name}: whole-algorithm law (two-sample against the reference), {msg}" if msg else None), detail

    check.__name__ = f"_check_{name}"
    return check


#: ``{algorithm: (size kind, check)}``, merged into :data:`.samplers.SAMPLER_CHECKS`.
SPARSE_CHECKS = {name: ("continuous", _check(name, k)) for k, name in enumerate(SPARSE_INSTANCES)}

#: The slips each instance is built to catch: ``{algorithm: {slip: changes to the reference's call}}``
#: (``lam_factor``: Peeling's lambda times it; other keys replace instance entries).
SLIPS: dict[str, dict[str, dict[str, Any]]] = {
    "sparse_linear_regression": {
        "noise 2x (lambda 2x) [002 Alg. 3 step 6]": {"lam_factor": 2.0},
        "eps inside Peeling's square root [002 Alg. 4]": {"lam_factor": float(np.sqrt(2.0))},
    },
    "sparse_optimization": {
        "noise 2x (lambda 2x) [002 Alg. 5 step 7]": {"lam_factor": 2.0},
        "eps inside Peeling's square root [002 Alg. 4]": {"lam_factor": float(np.sqrt(2.0))},
    },
    "private_grid_search": {"half the budget (noise and GEM) [004 Alg. 1]": {"epsilon": 4.0}},
    "boosting": {
        "the standard reading Lap(variance sigma_tilde^2) for the printed scale [004 App. E]": {"variant": "standard"},
        "selection noise 2x (Laplace scale 2 sigma_tilde) [004 App. E]": {"sigma_tilde": 0.2},
        "base learners at the whole budget, not eps/2 [004 App. E step 2]": {"epsilon": 32.0},
    },
    "noisy_gd": {
        "noise 2x (sensitivity 2x: a quarter of the zCDP budget) [004 Alg. 1]": {"noise_2x": True},
        "half the budget [004 Alg. 1]": {"epsilon": 1.0},
    },
    "output_perturbation": {
        # sigma is proportional to 1/eps: half the budget and the noise 2x are one slip
        "half the budget: noise 2x [004 Lemma D.4]": {"epsilon": 1.0},
        "sensitivity G/(n lam), replace-one's factor 2 dropped: noise half [004 Lemma D.4]": {"epsilon": 4.0},
    },
    "private_grid_search_noisy_gd": {
        "half the budget (noise and GEM) [004 Alg. 1]": {"epsilon": 4.0},
        "candidates' noise 2x (a quarter of each run's zCDP budget) [004 Alg. 1 step 4]": {"noise_2x": True},
    },
}


#: The smallest slip the sequential test's early pass must exclude, per algorithm
#: (:mod:`.sequential_two_sample`): the smallest :func:`slip_distance` of its :data:`SLIPS` (20,000 runs, seed 0)
#: less that estimate's margin ``2 e(20,000) = 0.026``, rounded down to 0.01.  Measured: sparse linear regression
#: 0.242 and 0.106; sparse optimisation 0.106 and 0.059; private grid search 0.183; Boosting 0.063, 0.104, 0.121;
#: noisy GD 0.170, 0.165; output perturbation 0.167, 0.166; grid search with noisy GD 0.167, 0.167.
EARLY_PASS_DISTANCE = {
    "sparse_linear_regression": 0.08,
    "sparse_optimization": 0.03,
    "private_grid_search": 0.15,
    "boosting": 0.03,
    "noisy_gd": 0.13,
    "output_perturbation": 0.14,
    "private_grid_search_noisy_gd": 0.14,
}


def slip_power(name: str, slip: str, draws: int, runs: int = 10, seed: int = 0) -> dict[str, float]:
    """The measured power of the two-sample test of ``name`` against one of its :data:`SLIPS`.

    Each of ``runs`` seeded slipped ports (the reference called with the slip's changes) is tested against fresh reference draws; the fraction rejected is the power.

    Examples
    --------
    >>> slip_power("sparse_linear_regression", "noise 2x (lambda 2x) [002 Alg. 3 step 6]", 2_000, runs=2)["power"]
    1.0
    """
    change = dict(SLIPS[name][slip])
    seeds = np.random.SeedSequence([int(seed), 19]).spawn(2 * runs)
    rejected = 0
    for r in range(runs):
        slipped = reference_draws(name, draws, np.random.default_rng(seeds[2 * r]), **change)
        exact = reference_draws(name, draws, np.random.default_rng(seeds[2 * r + 1]))
        rejected += not two_sample_test(slipped, exact)[0]
    return {"power": rejected / runs, "draws": draws, "runs": runs, "alpha": ALPHA}


def slip_distance(name: str, slip: str, draws: int = 20_000, seed: int = 0) -> float:
    """How far one of :data:`SLIPS` moves the law: the largest distance of
    :func:`.sequential_two_sample.sample_distances` between ``draws`` slipped runs and as many correct ones.

    A slip at least :data:`.sequential_two_sample.MIN_DISTANCE` away is protected by the early pass of the
    sequential test (each interim look gives up at most ``FUTILITY`` of the power against it); the estimate's own
    error is at most ``2 e(draws)`` with probability ``1 - FUTILITY`` (:func:`.sequential_two_sample.dkw_margin`).

    Examples
    --------
    >>> d = slip_distance("output_perturbation", "half the budget: noise 2x [004 Lemma D.4]", 2_000)
    >>> 0.1 < d < 0.5
    True
    """
    change = dict(SLIPS[name][slip])
    a, b = np.random.SeedSequence([int(seed), 23]).spawn(2)
    slipped = reference_draws(name, draws, np.random.default_rng(a), **change)
    exact = reference_draws(name, draws, np.random.default_rng(b))
    return float(np.max(sample_distances(slipped, exact)))
