"""Estimated cost of each claim at the quick profile, for scheduling only (never for a verdict).

:func:`proofs_checks.runner.longest_first` starts the claims longest first, so that a long claim does not
start last and leave one worker busy while the others idle.  The table is static (measured, kept in the
repository), never the run's own timings: the schedule, like the results, does not depend on the machine.
The full profile uses the same order (its costs scale roughly with the quick ones).

How measured: the seconds of each claim (all its run seeds) in one quick ``verify`` on 2 workers on the idle
machine (2 cores, load average 2.1, 2026-11-23, default seed; mean of two runs), after the speed-ups of the
checks of 000, 002 and 004, of the rates, the auditor and the primitives.  Claims below 0.2 s are left out and cost
:data:`DEFAULT_SECONDS`.  Regenerate after a check changes its cost by much (a stale entry only makes the schedule worse, never a result different).
"""

from __future__ import annotations

__all__ = ["DEFAULT_SECONDS", "QUICK_SECONDS", "estimated_seconds"]

#: Cost of a claim missing from the table (most claims take 0.01-0.2 s).
DEFAULT_SECONDS = 0.1

#: Seconds of each claim (all its default run seeds) at the quick profile, on an idle 2-core machine.
QUICK_SECONDS = {
    'rates.hu.thm7.dimension': 6.9,
    'rates.hu.thm8.dimension': 5.4,
    'rates.hu.thm7.sparsity': 5.0,
    'catoni.expected-phi.accuracy': 3.6,
    'proofs.002.kl-identity-18': 3.2,
    'catoni.identity5.float64': 2.8,
    'audit.calibration.power': 2.6,
    'audit.hu-2.standard': 2.6,
    'audit.hu-2.printed': 2.5,
    'audit.hu-2.lemma2': 2.5,
    'rates.hu.thm7': 2.3,
    'rates.hu.thm5.dimension': 2.1,
    'catoni.identity5.math': 1.9,
    'audit.gem.standard': 1.8,
    'wang-xu.alg2.rate.printed': 1.8,
    'audit.hu-5.standard': 1.8,
    'rates.hu.thm3': 1.8,
    'wang-xu.alg2.rate.standard': 1.7,
    'audit.arora-boosting.calibrated': 1.7,
    'audit.hu-1.standard': 1.6,
    'wang-xu.lemma9.concentration': 1.6,
    'rates.hu.thm3.dimension': 1.5,
    'audit.hu-1.printed': 1.5,
    'hu.thm1.privacy.printed': 1.4,
    'catoni.phi.sandwich': 1.3,
    'audit.calibration.verdicts': 1.3,
    'audit.wang-xu-1.standard': 1.2,
    'audit.wang-xu-2.calibrated': 1.2,
    'audit.wang-xu-2.standard': 1.1,
    'audit.wang-xu-1.calibrated': 1.1,
    'rates.hu.thm5': 1.1,
    'audit.wang-xu-1.printed': 1.1,
    'rates.hu.thm8.sparsity.balanced-k': 1.0,
    'audit.wang-xu-2.printed': 1.0,
    'wang-xu.alg2.error-split': 0.9,
    'rates.hu.thm8.sparsity.proof-k': 0.9,
    'proofs.002.lemma2.exact-rr.printed': 0.9,
    'hu.thm1.privacy.standard.diameter': 0.9,
    'wang-xu.alg2.rate.dimension.standard': 0.9,
    'rates.hu.thm8.sparsity': 0.9,
    'audit.exponential.standard': 0.8,
    'wang-xu.alg2.rate.dimension.printed': 0.8,
    'arora.lemma-e.concentration': 0.7,
    'hu.thm1.privacy.standard': 0.6,
    'wang-xu.alg1.rate.printed': 0.6,
    'rates.hu.thm8': 0.6,
    'proofs.002.lemma2.exact-rr.standard': 0.6,
    'catoni.phi.bound': 0.5,
    'arora.thm1.privacy.gem-step.printed': 0.5,
    'wang-xu.alg1.rate.standard': 0.5,
    'rates.hu.thm2.dimension': 0.5,
    'wang-xu.lemma8.concentration': 0.5,
    'wang-xu.alg2.rate.calibrated': 0.5,
    'hu.thm6.privacy': 0.4,
    'audit.arora-grid-search.printed': 0.4,
    'rates.hu.thm2': 0.4,
    'arora.boosting.privacy': 0.4,
    'hu.thm8.privacy.printed': 0.4,
    'wang-xu.alg2.privacy.standard': 0.4,
    'hu.thm9.packing-separation': 0.4,
    'arora.thm1.privacy.gem-step': 0.4,
    'wang-xu.alg1.rate.calibrated': 0.4,
    'arora.boosting.privacy.standard': 0.4,
    'wang-xu.alg2.privacy.calibrated': 0.4,
    'arora.boosting.privacy.calibrated': 0.4,
    'wang-xu.alg2.privacy.printed': 0.4,
    'primitives.report-noisy-max.privacy': 0.3,
    'audit.arora-grid-search.standard': 0.3,
    'wang-xu.alg1.rate.dimension.standard': 0.3,
    'arora.learners.noisy-gd.gradient-sensitivity': 0.3,
    'wang-xu.alg1.rate.dimension.printed': 0.3,
    'wang-xu.alg2.em-utility.printed': 0.3,
    'wang-xu.alg2.privacy.calibrated.add-remove': 0.3,
    'wang-xu.alg2.em-utility.standard': 0.3,
    'arora.learners.output-perturbation.sensitivity.squared': 0.3,
    'wang-xu.alg1.error-split': 0.3,
    'proofs.sensitivity.clipped-mean': 0.3,
    'arora.thm1.excess-risk.printed': 0.3,
    'catoni.sensitivity.printed': 0.3,
    'arora.lemma-d4.output-perturbation.standard': 0.3,
    'hu.thm4.privacy.printed': 0.3,
    'wang-xu.alg2.privacy.printed.add-remove': 0.3,
    'wang-xu.lemma10.concentration': 0.3,
    'wang-xu.lemma7.concentration': 0.3,
    'wang-xu.lemma5.concentration': 0.3,
    'wang-xu.alg2.privacy.standard.add-remove': 0.2,
    'arora.thm1.excess-risk': 0.2,
    'wang-xu.lemma2.covering-number': 0.2,
    'hu.thm4.privacy.standard': 0.2,
    'hu.thm8.privacy.printed-indices': 0.2,
    'hu.thm4.privacy.lemma2': 0.2,
    'arora.gem.utility': 0.2,
    'hu.thm8.privacy.proof-lambda': 0.2,
    'wang-xu.alg1.privacy.printed': 0.2,
    'wang-xu.lemma4.concentration': 0.2,
    'wang-xu.sensitivity.eq16.proof': 0.2,
    'audit.arora-boosting.printed': 0.2,
    'audit.arora-boosting.standard': 0.2,
    'arora.gem.privacy': 0.2,
    'wang-xu.alg1.privacy.calibrated.add-remove': 0.2,
    'wang-xu.alg1.privacy.standard.add-remove': 0.2,
    'catoni.lemma4': 0.2,
}


def estimated_seconds(claim_id: str, profile: str = "quick") -> float:
    """Estimated seconds of ``claim_id`` (:data:`QUICK_SECONDS`, or :data:`DEFAULT_SECONDS` when missing).

    >>> estimated_seconds("no.such.claim")
    0.1
    """
    return QUICK_SECONDS.get(claim_id, DEFAULT_SECONDS)
