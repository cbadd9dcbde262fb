"""Check (f): each call's actual privacy, from the law it really sampled, within the budget the proof composes.

The proof of a composed algorithm states, for every privacy draw, the sensitivity it establishes for the draw's
data and the per-call budget ``(epsilon_step, delta_step)`` its composition theorem adds up.  A caller supplies
both as a function ``proof_step(call) -> ProofStep | None`` computed from the paper's own formulas, independently
of the code under audit.  This check reads, for each recorded call, the law the sampler actually consumed
(``call.law``) and computes the call's privacy at the *proof's* sensitivity:

==================  =============================================================================================
primitive           actual per-call privacy at the proof's sensitivity ``Delta``
==================  =============================================================================================
laplace             ``epsilon = Delta / scale`` (l1)
gaussian            ``delta(epsilon_step)`` of ``N(0, sigma^2)`` at l2 sensitivity ``Delta``, exact (Balle & Wang
                    2018, Thm. 8), compared with ``delta_step``
categorical         the weight ``c`` of the scores in the sampled log-weights, recovered by least squares from
                    ``law["log_weights"]`` against ``data``; ``epsilon = 2 |c| Delta`` (``|c| Delta`` one-sided);
                    if ``log_weights - c data`` is not constant to a relative 1e-9 the sampled law is not the
                    declared score law (refuted)
report_noisy_max    ``epsilon = 2 Delta / scale`` (``Delta / scale`` one-sided)
peeling             per step: one selection round, ``epsilon = 2 Delta / scale``; the release of one selected
                    coordinate costs ``Delta / scale``, less
==================  =============================================================================================

A call whose actual privacy exceeds the proof's per-call budget by more than a relative :data:`TOLERANCE`
(1e-9: the float64 rounding of a budget computed by another formula, a per-call epsilon ``1 + 1e-9`` times too
large costs at most that factor) refutes the proof's premise for this implementation: the transcript the proof
composes is not the one the code draws.  The check is deterministic on the sampled paths, so it adds no error
to the audit's ``1 - confidence``.  It covers the **proof premise**: a refutation shows that the composition
in the paper does not apply to the code as run, not by itself that the released output leaks.

References
----------
.. [1] C. Dwork and A. Roth, "The algorithmic foundations of differential privacy", 2014 (Laplace Thm. 3.6,
   report-noisy-max Claim 3.9, exponential mechanism Thm. 3.10).
.. [2] B. Balle and Y.-X. Wang, "Improving the Gaussian mechanism for differential privacy: analytical
   calibration and optimal denoising", ICML 2018, Thm. 8.
.. [3] [002 Alg. 4], [002 Lemma 10] (Peeling: ``s`` noisy-max rounds and one Laplace release).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .check_result import NO_VIOLATION, PROOF_PREMISE, REFUTED, VACUOUS, GrayBoxCheck
from .runs import PathRun

__all__ = [
    "TOLERANCE",
    "LINEARITY_TOLERANCE",
    "CALIBRATED_PRIMITIVES",
    "ProofStep",
    "CallCalibration",
    "call_calibration",
    "recovered_weight",
    "calibration_check",
]

#: Relative excess of a call's actual privacy over the proof's per-call budget read as rounding.
TOLERANCE = 1e-9
#: Relative size of ``log_weights - c * data`` around its mean above which the sampled log-weights are not an
#: affine function of the recorded scores.
LINEARITY_TOLERANCE = 1e-9
#: The primitives whose per-call privacy this check computes from their recorded law.
CALIBRATED_PRIMITIVES = ("laplace", "gaussian", "categorical", "report_noisy_max", "peeling")

_NORMS = {"laplace": "l1", "gaussian": "l2", "categorical": "linf", "report_noisy_max": "linf", "peeling": "linf"}


@dataclass(frozen=True)
class ProofStep:
    """What the proof establishes for one privacy draw, computed from the paper's formulas.

    Parameters
    ----------
    sensitivity : float
        The sensitivity the proof establishes for the call's data, ``> 0`` (finite).
    norm : str
        Its norm: ``"l1"`` for Laplace, ``"l2"`` for Gaussian, ``"linf"`` for selections and Peeling.
    epsilon_step : float
        The per-call epsilon the proof composes, ``>= 0`` (for Peeling: the epsilon of one selection round).
    delta_step : float, default 0
        The per-call delta the proof composes (Gaussian calls), in ``[0, 1)``.
    one_sided : bool, default False
        The proof uses the one-sided bound of a selection (scores that move in one direction): ``c Delta``
        instead of ``2 c Delta``.
    source : str, default ""
        Where the proof states it, as a citation tag.

    Raises
    ------
    TypeError
        If a number is not a real number or ``one_sided`` not a bool.
    ValueError
        If ``sensitivity`` is not finite and positive, ``epsilon_step`` negative or not finite, ``delta_step``
        not in ``[0, 1)`` or ``norm`` unknown.

    References
    ----------
    .. [1] C. Dwork and A. Roth, 2014, Thm. 3.16 and 3.20 (the per-call budgets a composition adds up).

    Examples
    --------
    >>> ProofStep(0.1, "linf", 0.5, source="[002 Alg. 1 step 6]").epsilon_step
    0.5
    """

    sensitivity: float
    norm: str
    epsilon_step: float
    delta_step: float = 0.0
    one_sided: bool = False
    source: str = ""

    def __post_init__(self) -> None:
        for name in ("sensitivity", "epsilon_step", "delta_step"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float, np.floating, np.integer)):
                raise TypeError(f"{name} must be a real number, got {value!r} of type {type(value).__name__}")
        if not (math.isfinite(self.sensitivity) and self.sensitivity > 0.0):
            raise ValueError(f"sensitivity must be finite and > 0, got {self.sensitivity!r}")
        if not (math.isfinite(self.epsilon_step) and self.epsilon_step >= 0.0):
            raise ValueError(f"epsilon_step must be finite and >= 0, got {self.epsilon_step!r}")
        if not 0.0 <= self.delta_step < 1.0:
            raise ValueError(f"delta_step must lie in [0, 1), got {self.delta_step!r}")
        if self.norm not in ("l1", "l2", "linf"):
            raise ValueError(f"norm must be one of ('l1', 'l2', 'linf'), got {self.norm!r}")
        if not isinstance(self.one_sided, bool):
            raise TypeError(f"one_sided must be a bool, got {self.one_sided!r}")
        if not isinstance(self.source, str):
            raise TypeError(f"source must be a string, got {self.source!r}")


@dataclass(frozen=True)
class CallCalibration:
    """One call's actual privacy at the proof's sensitivity against the proof's per-call budget.

    Parameters
    ----------
    quantity : str
        ``"epsilon"`` (compared with ``epsilon_step``) or ``"delta"`` (Gaussian: ``delta(epsilon_step)``).
    actual : float
        The call's privacy computed from the law it sampled.
    budget : float
        The proof's per-call budget of the same quantity.
    detail : dict
        The numbers behind ``actual`` (the scale, the recovered weight, ...).
    law_matches : bool, default True
        False when the sampled law is not the declared score law (categorical log-weights not affine in the
        scores).

    Examples
    --------
    >>> CallCalibration("epsilon", 2.0, 1.0, {}).exceeds
    True
    """

    quantity: str
    actual: float
    budget: float
    detail: dict
    law_matches: bool = True

    @property
    def ratio(self) -> float:
        """``actual / budget`` (``inf`` over a zero budget, 0 for ``0 / 0``)."""
        if self.actual == 0.0:
            return 0.0
        return math.inf if self.budget == 0.0 else self.actual / self.budget

    @property
    def exceeds(self) -> bool:
        """Whether the actual privacy exceeds the budget by more than :data:`TOLERANCE`, or the law mismatches."""
        return (not self.law_matches) or not self.actual <= self.budget * (1.0 + TOLERANCE)


def recovered_weight(log_weights: Any, scores: Any) -> tuple[float, float, bool]:
    """The weight ``c`` with ``log_weights = c * scores + constant``, by least squares, and whether it fits.

    Entries where either array is not finite are left out (a log-weight of ``-inf`` is a probability that
    underflowed).

    Parameters
    ----------
    log_weights, scores : array_like, same shape
        What the sampler consumed, and the call's recorded data.

    Returns
    -------
    weight : float
        ``c`` (0 when the scores are constant: the law does not depend on them).
    residual : float
        ``max |log_weights - c * scores - mean|`` relative to ``max(|log_weights|, |c * scores|, 1e-300)``.
    affine : bool
        Whether ``residual <= LINEARITY_TOLERANCE``.

    Raises
    ------
    ValueError
        If the shapes differ.

    Examples
    --------
    >>> c, r, ok = recovered_weight([0.5, 1.5, -0.5], [1.0, 3.0, -1.0])
    >>> round(c, 12), ok
    (0.5, True)
    >>> recovered_weight([0.0, 1.0, 0.0], [0.0, 1.0, 2.0])[2]
    False
    """
    lw = np.asarray(log_weights, dtype=np.float64).ravel()
    u = np.asarray(scores, dtype=np.float64).ravel()
    if lw.shape != u.shape:
        raise ValueError(f"log_weights and scores must have the same shape, got {lw.shape} and {u.shape}")
    keep = np.isfinite(lw) & np.isfinite(u)
    lw, u = lw[keep], u[keep]
    if lw.size == 0:
        return 0.0, 0.0, True
    uc = u - u.mean()
    spread = float(np.dot(uc, uc))
    weight = 0.0 if spread == 0.0 else float(np.dot(uc, lw - lw.mean()) / spread)
    rest = lw - weight * u
    scale = max(float(np.max(np.abs(lw))), float(np.max(np.abs(weight * u))), 1e-300)
    residual = float(np.max(np.abs(rest - rest.mean()))) / scale
    return weight, residual, residual <= LINEARITY_TOLERANCE


def call_calibration(call: Any, step: ProofStep) -> CallCalibration | None:
    """The actual per-call privacy of ``call`` at ``step``'s sensitivity (``None``: no rule for its primitive).

    Parameters
    ----------
    call : PrimitiveCall
        A recorded call (:class:`reference.mechanisms.recorder.PrimitiveCall`).
    step : ProofStep
        What the proof establishes for it.

    Returns
    -------
    CallCalibration or None

    Raises
    ------
    ValueError
        If the proof's norm is not the one the primitive's law is calibrated in (Laplace l1, Gaussian l2,
        selections and Peeling linf).

    References
    ----------
    .. [1] C. Dwork and A. Roth, 2014, Thm. 3.6, Claim 3.9, Thm. 3.10; B. Balle and Y.-X. Wang, ICML 2018,
       Thm. 8; [002 Lemma 10].

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> call = SimpleNamespace(primitive="laplace", law={"scale": 2.0}, data=np.zeros(1))
    >>> call_calibration(call, ProofStep(1.0, "l1", 0.5)).actual
    0.5
    """
    primitive = call.primitive
    if primitive not in CALIBRATED_PRIMITIVES:
        return None
    if step.norm != _NORMS[primitive]:
        raise ValueError(
            f"the proof states the sensitivity of a {primitive} call in {step.norm!r}; its law is calibrated "
            f"in {_NORMS[primitive]!r}"
        )
    delta_u = float(step.sensitivity)
    factor = 1.0 if step.one_sided else 2.0
    if primitive == "laplace":
        scale = float(call.law["scale"])
        return CallCalibration("epsilon", _over(delta_u, scale), step.epsilon_step, {"scale": scale})
    if primitive == "gaussian":
        from reference.mechanisms.gaussian import gaussian_exact_delta

        sigma = float(call.law["sigma"])
        if step.epsilon_step == 0.0 or sigma == 0.0:
            actual = 1.0 if sigma == 0.0 else 0.0
        else:
            actual = gaussian_exact_delta(step.epsilon_step, sigma, delta_u)
        detail = {"sigma": sigma, "epsilon_step": step.epsilon_step}
        return CallCalibration("delta", actual, step.delta_step, detail)
    if primitive in ("report_noisy_max", "peeling"):
        scale = float(call.law["scale"])
        detail = {"scale": scale}
        if primitive == "peeling":
            detail["release_epsilon_per_coordinate"] = _over(delta_u, scale)
        return CallCalibration("epsilon", _over(factor * delta_u, scale), step.epsilon_step, detail)
    weight, residual, affine = recovered_weight(call.law["log_weights"], call.data)
    detail = {"weight": weight, "residual": residual, "declared_weight": call.public.get("weight")}
    return CallCalibration("epsilon", factor * abs(weight) * delta_u, step.epsilon_step, detail, affine)


def _over(numerator: float, denominator: float) -> float:
    return math.inf if denominator == 0.0 else numerator / denominator


def calibration_check(
    runs: Sequence[tuple[str, int, PathRun]], proof_step: Callable[[Any], ProofStep | None]
) -> GrayBoxCheck:
    """Verdict of check (f) over every recorded call of every path (both directions).

    Parameters
    ----------
    runs : sequence of (direction, path, PathRun)
        The audit's paths; the recorded calls (on the dataset the path was sampled on) are checked.
    proof_step : callable
        ``proof_step(call) -> ProofStep | None``; ``None`` for a call the proof does not compose (it is
        counted as uncovered).

    Returns
    -------
    GrayBoxCheck
        ``refuted`` naming the call of largest ratio (its direction, path, index, primitive, site, the actual
        and budgeted privacy) when a call exceeds its budget or samples another law than its declared scores;
        ``no violation found`` with the largest ratio otherwise; ``vacuous`` when no call has both a proof step
        and a calibration rule.

    Raises
    ------
    TypeError
        If ``proof_step`` is not callable or returns something other than a :class:`ProofStep` or ``None``.

    References
    ----------
    .. [1] C. Dwork and A. Roth, 2014, Thm. 3.16 (the per-call budgets a composition adds up).
    """
    if not callable(proof_step):
        raise TypeError(f"proof_step must be callable, got {proof_step!r}")
    worst: dict | None = None
    checked = uncovered = 0
    for direction, path, run in runs:
        for call in run.recorded:
            step = proof_step(call)
            if step is not None and not isinstance(step, ProofStep):
                raise TypeError(f"proof_step must return a ProofStep or None, got {step!r}")
            found = None if step is None else call_calibration(call, step)
            if found is None:
                uncovered += 1
                continue
            checked += 1
            key = (not found.law_matches, found.ratio)
            if worst is None or key > worst["key"]:
                worst = {
                    "key": key,
                    "direction": direction,
                    "path": path,
                    "index": call.index,
                    "primitive": call.primitive,
                    "site": call.site,
                    "quantity": found.quantity,
                    "actual": found.actual,
                    "budget": found.budget,
                    "ratio": found.ratio,
                    "law_matches": found.law_matches,
                    "proof_sensitivity": float(step.sensitivity),  # type: ignore[union-attr]
                    "declared_sensitivity": float(call.sensitivity),
                    "proof_source": step.source,  # type: ignore[union-attr]
                    "exceeds": found.exceeds,
                    **{f"law_{k}": v for k, v in found.detail.items()},
                }
    if worst is None:
        return GrayBoxCheck(
            "calibration",
            VACUOUS,
            f"no call has both a proof step and a calibration rule ({uncovered} calls uncovered)",
            PROOF_PREMISE,
            {"checked": 0, "uncovered": uncovered},
        )
    worst.pop("key")
    witness = {**worst, "checked": checked, "uncovered": uncovered, "tolerance": TOLERANCE}
    where = f"call {worst['index']} ({worst['primitive']}) at {worst['site'] or '?'}"
    numbers = (
        f"actual per-call {worst['quantity']} {worst['actual']:.6g} at the proof's sensitivity "
        f"{worst['proof_sensitivity']:.6g} vs the proof's budget {worst['budget']:.6g} (ratio {worst['ratio']:.6g}; "
        f"{worst['direction']}, path {worst['path']}; {checked} calls checked, {uncovered} uncovered)"
    )
    if not worst["law_matches"]:
        summary = (
            f"{where}: the sampled log-weights are not an affine function of the recorded scores (relative residual "
            f"{worst.get('law_residual', float('nan')):.3g} > {LINEARITY_TOLERANCE:g}): the sampled law is not the "
            f"declared score law; {numbers}"
        )
        return GrayBoxCheck("calibration", REFUTED, summary, PROOF_PREMISE, witness)
    if worst["exceeds"]:
        return GrayBoxCheck("calibration", REFUTED, f"{where}: {numbers}", PROOF_PREMISE, witness)
    return GrayBoxCheck("calibration", NO_VIOLATION, f"largest at {where}: {numbers}", PROOF_PREMISE, witness)
