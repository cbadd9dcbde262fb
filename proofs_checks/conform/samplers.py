"""The port's samplers against the exact laws of the reference: distributional tests of stated power.

Each sampler is run on one fixed instance with ``size`` draws from a seeded generator and tested
at family-wise level :data:`ALPHA` (Bonferroni over the tests of that sampler):

* finite outputs (report-noisy-max, exponential mechanism, GEM, Peeling's ordered support): a two-sided
  binomial z-test per outcome of exact probability ``>= 1e-3`` plus a chi-square test over all outcomes
  (expected counts under 5 pooled);
* Laplace noise (the Laplace mechanism, Peeling's released values): the exact scale test
  ``2 sum|noise| / b ~ chi2(2k)`` (uniformly most powerful for the scale) and a Kolmogorov-Smirnov test
  of ``|noise|/b`` against Exp(1) (the shape).

:func:`stated_power` gives the power of these tests at a size (normal approximation), and
``tests/test_conform_kit.py`` measures it by simulation.
"""

from __future__ import annotations

import math
from typing import Collection, Mapping, Optional, Union

import numpy as np
from scipy import stats

from reference import mechanisms as M

from . import sequential
from .algorithms import ALGORITHM_CHECKS, ALGORITHM_INSTANCES
from .algorithms_sparse import SPARSE_CHECKS, SPARSE_INSTANCES
from .functions import sampler_functions
from .lawtests import ALPHA, counts_test, laplace_noise_test

__all__ = [
    "ALPHA",
    "SIZES",
    "INSTANCES",
    "SAMPLER_CHECKS",
    "run_samplers",
    "counts_test",
    "laplace_noise_test",
    "stated_power",
]

#: Draws per sampler: ``default`` (the documented power) and ``small`` (the fast test suite).
#: ``algorithm``: runs of a whole algorithm with a finite output law (:mod:`.algorithms`); ``continuous``: runs of
#: [002 Alg. 3, 5] and as many of the reference's (:mod:`.algorithms_sparse`).
SIZES = {
    "default": {"finite": 4_000_000, "laplace": 20_000, "algorithm": 200_000, "continuous": 20_000},
    "small": {"finite": 200_000, "laplace": 5_000, "algorithm": 20_000, "continuous": 5_000},
}

#: The fixed instances (also the inputs of the golden laws); the whole algorithms' are :mod:`.algorithms`'.
INSTANCES = {
    "laplace_mechanism": {"value": np.array([0.5, -2.0, 10.0]), "sensitivity": 1.5, "epsilon": 0.7},
    "report_noisy_max": {"scores": np.array([0.0, 1.0, 2.5, -1.0, 0.3]), "scale": 1.0},
    # scores near 1e6 (exp of eps u / (2 Delta) overflows: a port must subtract the maximum or sample by
    # Gumbel-max) and eps, Delta != 1 (where eps, sqrt(eps) and eps^2, or Delta and 1/Delta, coincide)
    "exponential_sample": {
        "scores": 1e6 + np.array([0.0, 1.0, 2.5, -1.0, 0.3]),
        "epsilon": 0.7,
        "sensitivity": 1.5,
    },
    "gem_sample": {
        "sensitivities": np.array([0.1, 0.2, 0.4, 0.8, 1.6]),
        "scores": np.array([1.0, 0.7, 0.65, 0.9, 0.2]),
        "epsilon": 0.7,
        "beta": 0.1,
    },
    "peeling": {"v": np.array([0.9, -0.2, 0.5, 0.05, -0.7]), "s": 2, "epsilon": 0.5, "delta": 1e-3, "lam": 0.1},
    **ALGORITHM_INSTANCES,
    **SPARSE_INSTANCES,
}

_CHUNK = 500_000


def _chunked(draw, n):
    out, done = [], 0
    while done < n:
        m = min(_CHUNK, n - done)
        out.append(draw(m))
        done += m
    return out


def _finite(fn_name, draw, probs, n):
    if sequential.ENABLED.get():
        ok, msg, detail = sequential.sequential_counts_test(draw, probs, n)
        return ok, (f"{fn_name}: {msg}" if msg else None), detail
    parts = _chunked(draw, n)
    idx = np.concatenate([np.asarray(p).ravel() for p in parts]).astype(np.int64)
    k = probs.size
    if idx.min() < 0 or idx.max() >= k:
        bad = int(idx[(idx < 0) | (idx >= k)][0])
        return False, f"{fn_name} returned the outcome {bad}, outside the output set 0..{k - 1}", {}
    ok, msg, detail = counts_test(np.bincount(idx, minlength=k), probs)
    return ok, (f"{fn_name}: {msg}" if msg else None), detail


def _check_laplace(port, n, rng):
    inst = INSTANCES["laplace_mechanism"]
    per = max(n // inst["value"].size, 1)
    out = np.asarray(port.laplace_mechanism(inst["value"], inst["sensitivity"], inst["epsilon"], per, rng))
    if out.shape != (per, inst["value"].size):
        return False, f"laplace_mechanism: expected draws of shape {(per, inst['value'].size)}, got {out.shape}", {}
    ok, msg, detail = laplace_noise_test(out - inst["value"], M.laplace_scale(inst["sensitivity"], inst["epsilon"]))
    return (
        ok,
        (
            f"laplace_mechanism (value {inst['value'].tolist()}, sensitivity {inst['sensitivity']}, "
            f"epsilon {inst['epsilon']}): {msg}"
            if msg
            else None
        ),
        detail,
    )


def _check_peeling(port, n, rng):
    i = INSTANCES["peeling"]
    v, s, d = i["v"], i["s"], i["v"].size
    seqs, logp = M.peeling_support_log_prob(v, s, i["epsilon"], i["delta"], i["lam"])
    codes = (seqs * d ** np.arange(s - 1, -1, -1)).sum(axis=1)
    order = np.argsort(codes)
    noise = []

    def draw(m):
        values, selected = port.peeling(v, s, i["epsilon"], i["delta"], i["lam"], m, rng)
        values, selected = np.asarray(values), np.asarray(selected, dtype=np.int64)
        noise.append(np.take_along_axis(values, selected, axis=1)[:2000] - v[selected[:2000]])
        c = (selected * d ** np.arange(s - 1, -1, -1)).sum(axis=1)
        pos = np.searchsorted(codes[order], c)
        pos = np.minimum(pos, codes.size - 1)
        hit = codes[order][pos] == c
        return np.where(hit, order[pos], -1)

    ok, msg, detail = _finite("peeling (ordered support)", draw, np.exp(logp), n)
    if not ok:
        return ok, msg, detail
    b = M.peeling_scale(s, i["epsilon"], i["delta"], i["lam"])
    ok, msg, d2 = laplace_noise_test(np.concatenate(noise), b)
    detail.update({"values_" + k: val for k, val in d2.items()})
    return ok, (f"peeling (released values v_S + Lap(b), [002 Alg. 4 steps 7-8]): {msg}" if msg else None), detail


def _check_rnm(port, n, rng):
    i = INSTANCES["report_noisy_max"]
    probs = np.exp(M.report_noisy_max_log_prob(i["scores"], i["scale"]))
    return _finite("report_noisy_max", lambda m: port.report_noisy_max(i["scores"], i["scale"], m, rng), probs, n)


def _check_exp(port, n, rng):
    i = INSTANCES["exponential_sample"]
    probs = np.exp(M.exponential_log_prob(i["scores"], i["epsilon"], i["sensitivity"]))
    return _finite(
        "exponential_sample",
        lambda m: port.exponential_sample(i["scores"], i["epsilon"], i["sensitivity"], m, rng),
        probs,
        n,
    )


def _check_gem(port, n, rng):
    i = INSTANCES["gem_sample"]
    probs = np.exp(M.gem_log_prob(i["sensitivities"], i["scores"], i["epsilon"], i["beta"]))
    return _finite(
        "gem_sample",
        lambda m: port.gem_sample(i["sensitivities"], i["scores"], i["epsilon"], i["beta"], m, rng),
        probs,
        n,
    )


#: ``{sampler: (size kind, check)}``: the test of each sampler declared in :mod:`.functions` (``kind =
#: "sampler"``); ``check(port, draws, rng) -> (ok, message, detail)``.  A check's position here numbers its seed
#: stream, so a new one goes at the end (the other samplers keep their draws).
SAMPLER_CHECKS = {
    "laplace_mechanism": ("laplace", _check_laplace),
    "report_noisy_max": ("finite", _check_rnm),
    "exponential_sample": ("finite", _check_exp),
    "gem_sample": ("finite", _check_gem),
    "peeling": ("finite", _check_peeling),
    **ALGORITHM_CHECKS,
    **SPARSE_CHECKS,
}


def run_samplers(
    port: object,
    *,
    size: Union[str, Mapping[str, int]] = "default",
    seed: int = 0,
    only: Optional[Collection[str]] = None,
    sequential_stopping: bool = True,
) -> list[dict]:
    """One record per declared sampler: ``passed``, ``failed`` (statistic and p-value) or ``skipped``.

    Parameters
    ----------
    port : module or object
        The port; a sampler it does not provide is ``skipped``.
    size : {"default", "small"} or mapping
        Draws per test: ``SIZES[size]`` or ``{"finite": n, "laplace": n}``.
    seed : int
        Seed of the draws (each sampler has its own stream).
    only : collection of str, optional
        Run only these samplers.
    sequential_stopping : bool, default True
        Stop the counts tests early when clearly wrong or clearly right (:mod:`proofs_checks.conform.sequential`); False draws all.

    Returns
    -------
    list of dict
        ``kind`` (``"sampler"``), ``function``, ``case``, ``status``, ``message`` and ``detail``.

    Raises
    ------
    ValueError
        If a declared sampler has no check in :data:`SAMPLER_CHECKS`.

    Examples
    --------
    >>> import types
    >>> [r["status"] for r in run_samplers(types.ModuleType("empty"), only={"peeling"})]
    ['skipped']
    """
    sizes = SIZES[size] if isinstance(size, str) else size
    streams = {name: k for k, name in enumerate(SAMPLER_CHECKS)}
    records = []
    for function in sampler_functions():
        name = function.name
        if only and name not in only:
            continue
        if name not in SAMPLER_CHECKS:
            raise ValueError(f"the sampler {name!r} is declared but SAMPLER_CHECKS has no check for it")
        kind, check = SAMPLER_CHECKS[name]
        k = streams[name]
        rec = {"kind": "sampler", "function": name, "case": f"{name}/law"}
        if not callable(getattr(port, name, None)):
            records.append(dict(rec, status="skipped", message="not provided by the port"))
            continue
        rng = np.random.default_rng(np.random.SeedSequence([int(seed), 15, k]))
        token = sequential.ENABLED.set(bool(sequential_stopping))
        try:
            ok, msg, detail = check(port, sizes.get(kind, SIZES["small"][kind]), rng)
        except Exception as exc:
            records.append(dict(rec, status="failed", message=f"{name} raised {type(exc).__name__}: {exc}"))
            continue
        finally:
            sequential.ENABLED.reset(token)
        records.append(
            dict(rec, status="passed" if ok else "failed", **({"message": msg} if msg else {}), detail=detail)
        )
    return records


def stated_power(
    n_finite: int = SIZES["default"]["finite"],
    n_laplace: int = SIZES["default"]["laplace"],
    *,
    p: float = 1e-3,
    rel: float = 0.1,
    outcomes: int = 20,
    alpha: float = ALPHA,
    sequential_stopping: bool = True,
) -> dict:
    """Normal-approximation power of the tests at the given sizes.

    With ``sequential_stopping`` (the kit's default, :mod:`proofs_checks.conform.sequential`) the outcome power is a lower bound:
    the power of the final look alone (at ``SPENDING[-1] * alpha``) minus what the early passes may give up
    (``FUTILITY`` per interim look); an early rejection only adds power.

    ``outcome``: one outcome of probability ``p`` off by ``rel`` (relative), among ``outcomes`` z-tests;
    ``laplace_scale``: the noise scale off by ``rel``.

    Parameters
    ----------
    n_finite : int
        Draws of a finite-output sampler's test.
    n_laplace : int
        Draws of the Laplace sampler's test.
    p : float
        Probability of the outcome that is off.
    rel : float
        Relative error of that outcome's probability, and of the Laplace scale.
    outcomes : int
        Number of outcomes tested (the z-tests share the error ``alpha`` with the overall test, Bonferroni).
    alpha : float
        Error of each sampler's test: its chance of failing a correct sampler.
    sequential_stopping : bool, default True
        State the power of the sequential test (:mod:`proofs_checks.conform.sequential`) rather than of one test on all draws.

    Returns
    -------
    dict
        ``outcome_probability`` and ``laplace_scale`` (the two powers), with the inputs.

    Examples
    --------
    >>> power = stated_power()
    >>> power["outcome_probability"] > 0.95, power["laplace_scale"] > 0.999
    (True, True)
    """
    final_alpha = alpha * sequential.SPENDING[-1] if sequential_stopping else alpha
    level = final_alpha / (outcomes + 1)
    zc = stats.norm.isf(level / 2.0)
    p1 = p * (1.0 + rel)
    sd0, sd1 = math.sqrt(n_finite * p * (1 - p)), math.sqrt(n_finite * p1 * (1 - p1))
    shift = n_finite * (p1 - p)
    power_outcome = stats.norm.sf((zc * sd0 - shift) / sd1) + stats.norm.cdf((-zc * sd0 - shift) / sd1)
    if sequential_stopping:
        power_outcome = max(0.0, power_outcome - (len(sequential.LOOKS) - 1) * sequential.FUTILITY)
    zl = stats.norm.isf(alpha / 4.0)
    power_scale = stats.norm.cdf(abs(rel) * math.sqrt(n_laplace) / (1.0 + rel) - zl)
    return {
        "outcome_probability": float(power_outcome),
        "laplace_scale": float(power_scale),
        "n_finite": n_finite,
        "n_laplace": n_laplace,
        "p": p,
        "rel": rel,
        "outcomes": outcomes,
    }
