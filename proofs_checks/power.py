"""Power of the checks: every claim against the deliberately broken implementations it must catch.

A claim lists its mutants (:class:`~proofs_checks.model.Mutant`): the claim's check built
by its factory with one argument broken on purpose (a noise scale x0.5, a sensitivity
x2, a dropped factor, the other reading of a formula, a net that does not refine).
:func:`claim_power` runs the claim and each mutant with the claim's own context (the
same profile, seed and confidence) and reports which mutants the check detects.

The smallest error caught is the detected mutant whose factor is closest to 1 (on the
log scale); the largest error missed is the undetected mutant farthest from 1.  Mutants
without a factor (a dropped factor, another reading) are listed by name.

References
----------
.. [1] R. A. DeMillo, R. J. Lipton and F. G. Sayward, "Hints on test data selection: help for
       the practicing programmer", Computer 11(4), 1978 (mutation analysis).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field, replace

from .model import CheckContext, Claim
from .runner import run_claim

__all__ = ["MutantOutcome", "ClaimPower", "claim_power", "power_summary"]


@dataclass
class MutantOutcome:
    """One mutant's run: its verdict and whether that verdict counts as detecting it."""

    name: str
    factor: float | None
    verdict: str
    detected: bool
    observed: float | None = None
    not_a_violation: str = ""
    out_of_reach: str = ""


@dataclass
class ClaimPower:
    """A claim's verdict beside its mutants'; ``detects``/``misses`` say it in words."""

    id: str
    kind: str
    verdict: str
    mutants: list = field(default_factory=list)
    detects: str = ""
    misses: str = ""

    def as_dict(self):
        return asdict(self)


def _distance(factor):
    return abs(math.log(factor)) if factor is not None and factor > 0 else math.inf


def _describe(outcomes):
    """``(detects, misses)`` in words from the mutant outcomes."""
    if not outcomes:
        return "no mutants declared", "no mutants declared"
    caught = [m for m in outcomes if m.detected]
    # A mutant that provably still satisfies the claim is no miss: no sound check could catch it.
    equivalent = [m for m in outcomes if not m.detected and m.not_a_violation]
    missed = [m for m in outcomes if not m.detected and not m.not_a_violation]
    scaled_caught = sorted((m for m in caught if m.factor is not None), key=lambda m: _distance(m.factor))
    scaled_missed = sorted((m for m in missed if m.factor is not None), key=lambda m: -_distance(m.factor))
    if scaled_caught:
        detects = scaled_caught[0].name
        others = [m.name for m in caught if m.factor is None]
        if others:
            detects += "; also " + ", ".join(others)
    else:
        detects = ", ".join(m.name for m in caught) or "none of its mutants"
    if scaled_missed:
        misses = scaled_missed[0].name
        others = [m.name for m in missed if m.factor is None]
        if others:
            misses += "; also " + ", ".join(others)
    else:
        misses = ", ".join(m.name for m in missed) or "nothing among its mutants"
    if equivalent:
        misses += "; not violations (no sound check can catch them): " + ", ".join(m.name for m in equivalent)
    return detects, misses


def claim_power(claim: Claim, ctx: CheckContext, *, baseline=None) -> ClaimPower:
    """Run ``claim`` and each of its mutants with the claim's context; return a :class:`ClaimPower`.

    ``baseline`` is an already computed :class:`~proofs_checks.model.Result` of the claim
    (saves rerunning it).  A mutant whose check raises gets verdict ``"error"`` and is not
    counted as detected.
    """
    base = baseline if baseline is not None else run_claim(claim, ctx)
    outcomes = []
    for mutant in claim.mutants:
        res = run_claim(replace(claim, check=mutant.check, mutants=()), ctx)
        outcomes.append(
            MutantOutcome(
                mutant.name,
                mutant.factor,
                res.verdict,
                res.verdict in mutant.detected_by,
                res.observed,
                mutant.proof_at(ctx.profile, ctx.seed),
                mutant.out_of_reach,
            )
        )
    detects, misses = _describe(outcomes)
    if not outcomes:
        misses = _why_no_mutants(claim, base.verdict)
    return ClaimPower(claim.id, claim.kind, base.verdict, outcomes, detects, misses)


def _why_no_mutants(claim, verdict):
    """Why a claim declares no mutants, in words (the ``misses`` field of :class:`ClaimPower`)."""
    if getattr(claim, "scope", "") == "self-test":
        return "no mutants declared: a self-test of the checkers, whose broken variants are what it runs"
    if verdict == "refuted":
        return "no mutants declared: the statement is refuted, and a broken implementation of it would be too"
    if verdict == "vacuous":
        return "no mutants declared: vacuous, no implementation could break its bound"
    return "no mutants declared"


def power_summary(powers) -> dict:
    """Counts for the report: claims with mutants, mutants detected, claims detecting every mutant."""
    with_mutants = [p for p in powers if p.mutants]
    return {
        "claims": len(powers),
        "claims_with_mutants": len(with_mutants),
        "mutants": sum(len(p.mutants) for p in with_mutants),
        "mutants_detected": sum(m.detected for p in with_mutants for m in p.mutants),
        "mutants_not_violations": sum(
            bool(m.not_a_violation) and not m.detected for p in with_mutants for m in p.mutants
        ),
        "claims_detecting_all": sum(all(m.detected for m in p.mutants) for p in with_mutants),
    }
