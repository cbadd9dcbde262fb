"""Check (b): each call's measured input distance on the pair, in its norm, at most its declared sensitivity.

Distances are computed in float64 as the arrays are (no rescaling of the inputs); a NaN or an infinite
coordinate makes the distance infinite, and so does a change of shape.  A distance above the declared
sensitivity by a relative :data:`ROUNDING_SLACK` (1e-9) or less is the rounding of the query itself (a mean of
``n`` records moved by one differs by ``1/n`` plus a few units in the last place), not an over-spend: a bound that
holds to within ``1 + 1e-9`` costs at most a factor ``1 + 1e-9`` in epsilon.

References
----------
.. [1] C. Dwork, F. McSherry, K. Nissim and A. Smith, "Calibrating noise to sensitivity in private data
   analysis", TCC 2006 (the sensitivity the noise is calibrated to).
.. [2] T. Cebere, D. Erb, D. Desfontaines, A. Bellet and J. Fitzsimons, "Re:cord-play", PETS 2026.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

from .check_result import NO_VIOLATION, PROOF_PREMISE, REFUTED, VACUOUS, GrayBoxCheck
from .runs import PathRun

__all__ = ["NORMS", "ROUNDING_SLACK", "measured_distance", "sensitivity_ratio", "worst_call", "sensitivity_check"]

NORMS = ("l1", "l2", "linf")

#: Relative excess of a measured distance over its declared sensitivity read as float64 rounding.
ROUNDING_SLACK = 1e-9


def exceeds(measured: float, declared: float) -> bool:
    """Whether ``measured`` exceeds ``declared`` by more than the rounding slack (NaN declared: always).

    Examples
    --------
    >>> exceeds(0.10000000000000003, 0.1), exceeds(0.2, 0.1), exceeds(np.inf, np.inf)
    (False, True, False)
    """
    return not measured <= declared * (1.0 + ROUNDING_SLACK)


def measured_distance(a: ArrayLike, b: ArrayLike, norm: str) -> float:
    """``||a - b||`` in ``norm``, infinite for NaN, infinity or different shapes.

    Parameters
    ----------
    a, b : array_like
        The data-dependent inputs of one call on the two datasets.
    norm : {"l1", "l2", "linf"}
        The norm of the declared sensitivity.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If ``norm`` is not one of :data:`NORMS`.

    Examples
    --------
    >>> measured_distance([0.0, 3.0], [4.0, 0.0], "l2")
    5.0
    >>> measured_distance([1e308], [-1e308], "l1"), measured_distance([np.nan], [np.nan], "linf")
    (inf, inf)
    """
    if norm not in NORMS:
        raise ValueError(f"norm must be one of {NORMS}, got {norm!r}")
    x = np.asarray(a, dtype=np.float64)
    y = np.asarray(b, dtype=np.float64)
    if x.shape != y.shape:
        return math.inf
    with np.errstate(over="ignore", invalid="ignore"):
        diff = np.abs(x - y).ravel()
    if diff.size == 0:
        return 0.0
    if not np.all(np.isfinite(diff)):
        return math.inf
    if norm == "l1":
        return float(np.sum(diff))
    if norm == "linf":
        return float(np.max(diff))
    top = float(np.max(diff))
    if top == 0.0:
        return 0.0
    return top * math.sqrt(float(np.sum((diff / top) ** 2)))  # scaled so 1e300-sized inputs do not overflow


def sensitivity_ratio(measured: float, declared: float) -> float:
    """``measured / declared`` with ``0/0 = 0``, ``x/0 = inf`` and ``inf/inf = 1`` (a bound that holds, barely).

    Examples
    --------
    >>> sensitivity_ratio(2.0, 1.0), sensitivity_ratio(0.0, 0.0), sensitivity_ratio(np.inf, np.inf)
    (2.0, 0.0, 1.0)
    """
    declared = float(declared)
    if math.isnan(declared):
        return math.inf
    if measured == 0.0:
        return 0.0
    if declared == 0.0:
        return math.inf
    if math.isinf(measured) and math.isinf(declared):
        return 1.0
    return measured / declared


def worst_call(recorded: Sequence, replayed: Sequence) -> dict | None:
    """The call of largest measured/declared ratio among those both runs made (``None`` when there is none)."""
    worst = None
    for rec, rep in zip(recorded, replayed):
        measured = measured_distance(rec.data, rep.data, rec.norm)
        ratio = sensitivity_ratio(measured, rec.sensitivity)
        if worst is None or ratio > worst["ratio"]:
            worst = {
                "index": rec.index,
                "site": rec.site,
                "primitive": rec.primitive,
                "norm": rec.norm,
                "measured": measured,
                "declared": float(rec.sensitivity),
                "ratio": ratio,
            }
    return worst


def sensitivity_check(runs: Sequence[tuple[str, int, PathRun]]) -> GrayBoxCheck:
    """Verdict of check (b) over every call of every path (both directions).

    Parameters
    ----------
    runs : sequence of (direction, path, PathRun)

    Returns
    -------
    GrayBoxCheck
        ``refuted`` naming the call of largest ratio when some measured distance exceeds its declared
        sensitivity (by more than :data:`ROUNDING_SLACK`); ``no violation found`` with the largest ratio otherwise;
        ``vacuous`` when no call was made on both runs.
    """
    worst = None
    for direction, path, run in runs:
        found = worst_call(run.recorded, run.replayed)
        if found is not None and (worst is None or found["ratio"] > worst["ratio"]):
            worst = {"direction": direction, "path": path, **found}
    if worst is None:
        return GrayBoxCheck("sensitivity", VACUOUS, "no call was made on both runs", PROOF_PREMISE, {})
    where = f"call {worst['index']} ({worst['primitive']}) at {worst['site'] or '?'}"
    numbers = (
        f"measured {worst['norm']} distance {worst['measured']:.6g} vs declared sensitivity {worst['declared']:.6g} "
        f"(ratio {worst['ratio']:.6g}; {worst['direction']}, path {worst['path']})"
    )
    if exceeds(worst["measured"], worst["declared"]):
        return GrayBoxCheck("sensitivity", REFUTED, f"{where}: {numbers}", PROOF_PREMISE, worst)
    return GrayBoxCheck("sensitivity", NO_VIOLATION, f"largest at {where}: {numbers}", PROOF_PREMISE, worst)
