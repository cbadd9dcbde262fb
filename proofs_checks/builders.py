"""Builders for the three recurring shapes of check.

1. **Exact privacy over neighbouring datasets** (:class:`PrivacyTally`,
   :func:`exact_privacy_check`): exact output laws of a dataset and of its neighbours;
   the largest pure privacy loss over epsilon (or hockey-stick divergence at epsilon
   over delta) must be at most 1.
2. **Adversarial search for the largest value against a stated bound**
   (:class:`WorstCase`, :func:`max_search_check`): the largest value found must be at
   most the bound (or, for a bound meant to be attained, reach it).
3. **Coverage by simulation** (:func:`coverage_check`): the fraction of simulations in
   which a bound holds, with a Clopper-Pearson interval, against the nominal probability.

Each builder returns a check ``check(ctx) -> Result`` whose ``observed``, ``bound``,
``direction``, ``method`` and ``reading`` fields are filled in, so the report can show
every verdict as "observed against bound", and whose ``evidence_kind`` names the evidence
record its keys follow (``exact_privacy``, ``bound_search``, ``coverage``; see
:mod:`proofs_checks.evidence`).
"""

from __future__ import annotations

import math
from typing import Any, Callable, Iterable

import numpy as np

from .audit.exact import hockey_stick_delta, max_privacy_loss
from .model import Result
from .verdicts import CONFIDENCE, ROUNDING_ATOL, ROUNDING_RTOL, clopper_pearson, compare, coverage_verdict

__all__ = [
    "compare_result",
    "WorstCase",
    "PrivacyTally",
    "exact_privacy_check",
    "max_search_check",
    "coverage_check",
    "with_power_note",
]


def compare_result(
    observed: float,
    bound: float,
    direction: str = "at_most",
    *,
    method: str,
    reading: str = "",
    evidence: dict | None = None,
    rtol: float = ROUNDING_RTOL,
    atol: float = ROUNDING_ATOL,
    figures=None,
    evidence_kind: str | None = None,
) -> Result:
    """A :class:`~proofs_checks.model.Result` of :func:`compare`, with observed, bound and margin filled in.

    ``evidence_kind`` names the evidence record (:mod:`proofs_checks.evidence`); ``None`` leaves it to the
    claim's kind.
    """
    return Result(
        compare(observed, bound, direction, rtol=rtol, atol=atol),
        observed=observed,
        bound=bound,
        direction=direction,
        method=method,
        reading=reading,
        evidence=dict(evidence or {}),
        figures=list(figures or []),
        evidence_kind=evidence_kind,
    )


class WorstCase:
    """The largest value seen so far and where it was found."""

    def __init__(self, initial: float = -math.inf):
        self.value = initial
        self.where: Any = None
        self.count = 0

    def update(self, value: float, where: Any = None) -> bool:
        """Record ``value``; return True (and keep ``where``) when it is a new maximum."""
        self.count += 1
        value = float(value)
        if math.isnan(value):
            raise ValueError(f"NaN value at {where!r}")
        if value > self.value:
            self.value, self.where = value, where
            return True
        return False

    def update_many(self, values, where_of: Callable[[int], Any]) -> None:
        """Record an array of values; ``where_of(i)`` describes the i-th (called only for the maximum)."""
        values = np.asarray(values, dtype=float)
        if values.size == 0:
            return
        if np.isnan(values).any():
            raise ValueError("NaN among the values")
        i = int(np.argmax(values))
        self.count += values.size - 1
        self.update(values[i], where_of(i))


def _pure_loss_rows(logp: np.ndarray, logq: np.ndarray) -> np.ndarray:
    """:func:`max_privacy_loss` of ``logp`` (M,) against every row of ``logq`` (B, M), vectorised."""
    if np.isnan(logp).any() or np.isnan(logq).any() or (logp == np.inf).any() or (logq == np.inf).any():
        raise ValueError("log-probabilities must not be NaN or +inf")
    p_zero, q_zero = np.isneginf(logp)[None, :], np.isneginf(logq)
    both = ~p_zero & ~q_zero
    with np.errstate(invalid="ignore"):
        gaps = np.where(both, np.abs(logq - logp[None, :]), 0.0)
    loss = gaps.max(axis=1)
    return np.where((p_zero != q_zero).any(axis=1), math.inf, loss)


class PrivacyTally:
    """Worst privacy ratio over neighbouring pairs of exact output laws.

    For pure DP (``delta == 0``) the ratio is the privacy loss over epsilon; for
    (epsilon, delta) it is the larger hockey-stick divergence of the two directions
    over delta.  The claim holds when the worst ratio is at most 1.
    """

    def __init__(self):
        self.worst = WorstCase(0.0)
        self.pairs = 0

    @staticmethod
    def ratio(logp, logq, epsilon: float, delta: float = 0.0) -> float:
        """Privacy loss over epsilon (``delta == 0``) or the larger hockey-stick divergence over delta."""
        if delta == 0:
            loss = max_privacy_loss(logp, logq)
            if epsilon > 0:
                return loss / epsilon
            return 0.0 if loss == 0 else math.inf
        return max(hockey_stick_delta(logp, logq, epsilon), hockey_stick_delta(logq, logp, epsilon)) / delta

    def add(self, logp, logq, epsilon: float, delta: float = 0.0, where: Any = None) -> float:
        """Add one pair; return its ratio."""
        self.pairs += 1
        ratio = self.ratio(logp, logq, epsilon, delta)
        self.worst.update(ratio, where)
        return ratio

    def add_rows(
        self, lp: np.ndarray, epsilon: float, delta: float = 0.0, where_of: Callable[[int], Any] | None = None
    ) -> "PrivacyTally":
        """Row 0 of ``lp`` (B, M) against each other row; ``where_of(j)`` describes neighbour ``j``.

        Pure DP is computed for all rows at once (the largest ``|log p - log q|`` is exact in any
        order, so the values equal :func:`max_privacy_loss` row by row); (epsilon, delta) goes row
        by row through :func:`hockey_stick_delta`.
        """
        lp = np.asarray(lp, dtype=float)
        if lp.ndim != 2 or lp.shape[0] < 2:
            raise ValueError(f"lp must have shape (B >= 2, M), got {lp.shape}")
        if delta == 0:
            ratios = _pure_loss_rows(lp[0], lp[1:])
            ratios = ratios / epsilon if epsilon > 0 else np.where(ratios == 0, 0.0, math.inf)
        else:
            ratios = np.array([self.ratio(lp[0], q, epsilon, delta) for q in lp[1:]])
        self.pairs += ratios.size
        i = int(np.argmax(ratios))
        self.worst.count += ratios.size
        if ratios[i] > self.worst.value:
            self.worst.value = float(ratios[i])
            self.worst.where = where_of(i) if where_of is not None else None
        return self

    def result(
        self,
        *,
        method: str,
        reading: str,
        evidence: dict | None = None,
        quantity: str | None = None,
        rtol: float = ROUNDING_RTOL,
        atol: float = ROUNDING_ATOL,
    ) -> Result:
        ev = {
            "neighbour_pairs": self.pairs,
            "worst_at": self.worst.where,
            "observed_is": quantity or "largest privacy loss / epsilon (hockey-stick delta / delta for approximate DP)",
        }
        ev.update(evidence or {})
        return Result(
            compare(self.worst.value, 1.0, "at_most", rtol=rtol, atol=atol),
            observed=self.worst.value,
            bound=1.0,
            direction="at_most",
            method=method,
            reading=reading,
            evidence=ev,
            evidence_kind="exact_privacy",
        )


def exact_privacy_check(
    instances: Callable[[Any], Iterable[tuple]], *, method: str, reading: str, evidence: dict | None = None
) -> Callable:
    """Check factory: exact privacy over the neighbouring pairs that ``instances(ctx)`` yields.

    ``instances(ctx)`` yields ``(logp, logq, epsilon, delta, where)`` (outputs listed in the
    same order on both sides).
    """

    def check(ctx):
        tally = PrivacyTally()
        for logp, logq, eps, delta, where in instances(ctx):
            tally.add(logp, logq, eps, delta, where)
        return tally.result(method=method, reading=reading, evidence=evidence)

    return check


def max_search_check(
    search: Callable[[Any], tuple],
    bound: float,
    *,
    method: str,
    reading: str,
    direction: str = "at_most",
    evidence: dict | None = None,
    rtol: float = ROUNDING_RTOL,
    atol: float = ROUNDING_ATOL,
) -> Callable:
    """Check factory: the largest value an adversarial ``search(ctx) -> (largest, where, evaluations)`` finds.

    ``direction="at_most"``: confirmed when the largest value is within ``bound``;
    ``"equal"``: confirmed when it attains the bound (a tight bound).
    """

    def check(ctx):
        largest, where, evaluations = search(ctx)
        ev = {"worst_at": where, "evaluations": evaluations}
        ev.update(evidence or {})
        return Result(
            compare(largest, bound, direction, rtol=rtol, atol=atol),
            observed=largest,
            bound=bound,
            direction=direction,
            method=method,
            reading=reading,
            evidence=ev,
            evidence_kind="bound_search",
        )

    return check


def coverage_check(
    simulate: Callable[[Any], np.ndarray],
    nominal: float,
    *,
    method: str,
    reading: str,
    confidence: float = CONFIDENCE,
    confirm: str = "unless_refuted",
    evidence: dict | None = None,
) -> Callable:
    """Check factory: ``simulate(ctx)`` returns one boolean per simulation (the bound held).

    Refuted when the upper Clopper-Pearson limit of the coverage is below ``nominal``
    (see :func:`proofs_checks.verdicts.coverage_verdict`).
    """

    def check(ctx):
        held = np.asarray(simulate(ctx), dtype=bool).ravel()
        if held.size == 0:
            raise ValueError("simulate returned no simulations")
        k, n = int(held.sum()), int(held.size)
        lo, hi = clopper_pearson(k, n, confidence)
        ev = {"covered": k, "simulations": n, "clopper_pearson": [lo, hi], "confidence": confidence}
        ev.update(evidence or {})
        return Result(
            coverage_verdict(k, n, nominal, confidence, confirm=confirm),
            observed=k / n,
            bound=nominal,
            direction="at_least",
            method=method,
            reading=reading,
            evidence=ev,
            evidence_kind="coverage",
        )

    return check


def with_power_note(check, note):
    """``check`` whose Result carries ``evidence["power"] = note``; ``check`` itself when ``note`` is None.

    The note says what the claim's mutants show the check misses, and why (measured), for example
    where a mutant is out of reach for any sound check because the mechanism with the
    broken constant is still private.  ``__wrapped__`` is the bare check.
    """
    if note is None:
        return check

    def noted(ctx):
        res = check(ctx)
        res.evidence = {**res.evidence, "power": note}
        return res

    noted.__wrapped__ = check
    return noted
