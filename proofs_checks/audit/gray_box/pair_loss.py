"""Check (d): the privacy loss of the whole transcript on the audited pair, from sampled paths.

Along a path sampled on ``D`` the transcript's log-likelihood ratio is the sum over its calls of
``log p(output | law on D) - log p(output | law on D')``: the replay on ``D'`` computes each call's law from the
outputs before it, exactly as the adaptive composition's proof conditions on them, and every primitive's law is
known (its registered ``log_prob``, evaluated on the law each run recorded, not on the declaration).  A path
whose replay diverged has loss ``+inf`` (the transcript with its public arguments cannot occur on ``D'``).

Then ``delta_pair(eps) = E_D[(1 - exp(eps - L))_+]`` (the hockey-stick divergence of the two transcript laws) is
the mean of a variable in ``[0, 1]``, bounded from below by :func:`~.bounds.mean_lower_bound`.  The claim is
refuted when the bound at the claimed epsilon exceeds the claimed delta in either direction (paths on ``D`` and
paths on ``D'``, each at error ``(1 - confidence) / 2``).  The epsilon the pair certifies at the claimed delta is
read off a grid fixed before the run (``0 .. max(4 eps, 1)``, 101 points), Bonferroni over the grid.

References
----------
.. [1] C. Dwork and A. Roth, "The algorithmic foundations of differential privacy", Found. Trends TCS 9 (2014),
   Sect. 3.5 (privacy loss random variable; adaptive composition).
.. [2] B. Balle, G. Barthe and M. Gaboardi, "Privacy amplification by subsampling", NeurIPS 2018, Thm. 1
   (``delta(eps)`` as the hockey-stick divergence ``E_P[(1 - exp(eps - L))_+]``).
.. [3] T. Cebere, D. Erb, D. Desfontaines, A. Bellet and J. Fitzsimons, "Re:cord-play", PETS 2026.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np

from .bounds import mean_lower_bound
from .check_result import NO_VIOLATION, REFUTED, TRANSCRIPT, VACUOUS, GrayBoxCheck
from .runs import PathRun

__all__ = [
    "EPSILON_GRID_POINTS",
    "call_log_ratio",
    "transcript_log_ratio",
    "delta_terms",
    "losses_of",
    "pair_loss_check",
]

#: Points of the grid on which the certified epsilon is read.
EPSILON_GRID_POINTS = 101


def call_log_ratio(recorded, replayed) -> float:
    """``log p(output | recorded law) - log p(output | replayed law)`` of one call (``inf`` when impossible on
    the replay).

    Raises
    ------
    ValueError
        If the recorded output has probability 0 or NaN under its own recorded law (the law is not what drew it).
    """
    from reference.mechanisms.recorder import primitive_law

    law = primitive_law(recorded.primitive)
    on_recorded = float(law.log_prob(recorded.law, recorded.output))
    if not on_recorded > -math.inf:  # -inf or NaN
        raise ValueError(
            f"call {recorded.index} ({recorded.primitive}) at {recorded.site or '?'}: the recorded output has "
            f"log-probability {on_recorded} under its own recorded law"
        )
    on_replayed = float(law.log_prob(replayed.law, recorded.output))
    if math.isnan(on_replayed):
        raise ValueError(
            f"call {recorded.index} ({recorded.primitive}) at {recorded.site or '?'}: log-probability NaN under the "
            "replayed law"
        )
    return on_recorded - on_replayed


def transcript_log_ratio(run: PathRun) -> float:
    """The log-likelihood ratio of a path's whole transcript (``inf`` for a replay that diverged)."""
    if run.divergence is not None or not run.complete:
        return math.inf
    return float(sum(call_log_ratio(rec, rep) for rec, rep in zip(run.recorded, run.replayed)))


def delta_terms(losses: np.ndarray, epsilons: np.ndarray) -> np.ndarray:
    """``(1 - exp(eps - L))_+`` for every loss (rows) and epsilon (columns).

    Examples
    --------
    >>> delta_terms(np.array([0.0, np.log(4.0), np.inf]), np.array([0.0])).round(3).ravel()
    array([0.  , 0.75, 1.  ])
    """
    losses = np.asarray(losses, dtype=np.float64)[:, None]
    with np.errstate(invalid="ignore", over="ignore"):
        terms = -np.expm1(np.asarray(epsilons, dtype=np.float64)[None, :] - losses)
    return np.where(losses > epsilons[None, :], np.clip(terms, 0.0, 1.0), 0.0)


def _direction(losses, epsilon, delta, alpha, bound, rng):
    grid = np.linspace(0.0, max(4.0 * epsilon, 1.0), EPSILON_GRID_POINTS)
    at_claim = delta_terms(losses, np.array([epsilon]))[:, 0]
    lower = mean_lower_bound(at_claim, alpha, bound, rng)
    grid_lower = mean_lower_bound(delta_terms(losses, grid), alpha / grid.size, bound, rng)
    certified = grid[grid_lower > delta]
    finite = losses[np.isfinite(losses)]
    return {
        "paths": int(losses.size),
        "delta_estimate": float(at_claim.mean()),
        "delta_lower": float(lower),
        "epsilon_certified": float(certified.max()) if certified.size else 0.0,
        "diverged_paths": int(np.sum(np.isinf(losses))),
        "loss_mean": float(finite.mean()) if finite.size else math.nan,
        "loss_max": float(losses.max()),
    }


def pair_loss_check(
    losses: Mapping[str, np.ndarray],
    *,
    epsilon: float,
    delta: float,
    confidence: float,
    bound: str,
    rng: np.random.Generator,
) -> GrayBoxCheck:
    """Verdict of check (d) from the transcripts' losses of each direction.

    Parameters
    ----------
    losses : mapping
        ``{"D->D'": losses of the paths on D, "D'->D": losses of the paths on D'}`` (one or both).
    epsilon, delta : float
        The claim.
    confidence : float
        Level of the whole check (each direction at error ``(1 - confidence) / len(losses)``).
    bound : str
        The method of :func:`~.bounds.mean_lower_bound`.
    rng : numpy.random.Generator
        Draws of the ``clopper-pearson`` bound.

    Returns
    -------
    GrayBoxCheck
    """
    alpha = (1.0 - confidence) / max(len(losses), 1)
    results = {}
    for name, values in losses.items():
        values = np.asarray(values, dtype=np.float64)
        if values.size >= 2:
            results[name] = _direction(values, epsilon, delta, alpha, bound, rng)
    if not results:
        return GrayBoxCheck("pair_loss", VACUOUS, "fewer than 2 paths: no bound", TRANSCRIPT, {})
    worst_name = max(results, key=lambda k: results[k]["delta_lower"])
    worst = results[worst_name]
    certified = max(r["epsilon_certified"] for r in results.values())
    witness = {"bound": bound, "confidence": confidence, "epsilon": epsilon, "delta": delta, "directions": results}
    numbers = (
        f"delta_pair({epsilon:g}) >= {worst['delta_lower']:.4g} (estimate {worst['delta_estimate']:.4g}, {bound} "
        f"bound at error {alpha:.3g}, {worst['paths']} paths {worst_name}); the pair certifies epsilon >= "
        f"{certified:.4g} at delta {delta:g}"
    )
    if worst["delta_lower"] > delta:
        return GrayBoxCheck("pair_loss", REFUTED, f"{numbers} > claimed delta", TRANSCRIPT, witness)
    return GrayBoxCheck("pair_loss", NO_VIOLATION, numbers, TRANSCRIPT, witness)


def losses_of(runs: Sequence[PathRun]) -> np.ndarray:
    """The transcript losses of paths (one float each)."""
    return np.array([transcript_log_ratio(run) for run in runs], dtype=np.float64)
