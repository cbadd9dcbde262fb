"""Estimated cost of each claim at the quick profile, for scheduling only (never for a verdict).

:func:`proofs_checks.runner.longest_first` starts the claims longest first, so that a long claim does not
start last and leave one worker busy while the others idle.  The table is static (measured, kept in the
repository), never the run's own timings: the schedule, like the results, does not depend on the machine.
The full profile uses the same order (its costs scale roughly with the quick ones).

How measured: the wall seconds of each claim (all its run seeds) in one quick ``verify`` on 2 workers
(2 cores, load average about 3, 2026-11-23, seed 20261121), scaled by the measured CPU ratio for the six claims
made cheaper since (lemma 9, calibration verdicts and hu.thm1.privacy.printed now one seed; the sandwich and the
GEM-step searches).  Claims below 0.2 s are left out and cost :data:`DEFAULT_SECONDS`.  Regenerate after
a check changes its cost by much (a stale entry only makes the schedule worse, never a result different).
"""

from __future__ import annotations

__all__ = ["DEFAULT_SECONDS", "QUICK_SECONDS", "estimated_seconds"]

#: Cost of a claim missing from the table (most claims take 0.01-0.2 s).
DEFAULT_SECONDS = 0.1

#: Seconds of each claim (all its default run seeds) at the quick profile, on a loaded 2-core machine.
QUICK_SECONDS = {
    'arora.boosting.privacy.calibrated': 24.2,
    'wang-xu.alg2.rate.printed': 24.0,
    'wang-xu.alg2.rate.standard': 23.8,
    'catoni.identity5.float64': 22.7,
    'catoni.expected-phi.accuracy': 22.6,
    'arora.boosting.privacy.standard': 22.4,
    'arora.boosting.privacy': 21.7,
    'rates.hu.thm7.dimension': 17.0,
    'hu.thm6.privacy': 16.3,
    'audit.calibration.power': 15.8,
    'wang-xu.alg2.rate.calibrated': 13.0,
    'arora.thm1.privacy.gem-step': 12.5,
    'arora.thm1.privacy.gem-step.printed': 12.4,
    'audit.calibration.verdicts': 12.3,
    'hu.thm8.privacy.standard': 11.0,
    'hu.thm8.privacy.printed-indices': 10.7,
    'rates.hu.thm8.dimension': 10.7,
    'wang-xu.alg2.error-split': 10.7,
    'hu.thm8.privacy.proof-lambda': 10.4,
    'audit.hu-2.lemma2': 10.4,
    'catoni.identity5.math': 10.4,
    'wang-xu.lemma8.concentration': 10.3,
    'wang-xu.lemma7.concentration': 10.1,
    'audit.hu-2.printed': 10.0,
    'arora.gem.privacy': 9.6,
    'audit.hu-2.standard': 9.6,
    'hu.thm8.privacy.printed': 9.3,
    'rates.hu.thm3': 9.2,
    'rates.hu.thm7.sparsity': 9.1,
    'rates.hu.thm5.dimension': 8.4,
    'wang-xu.alg2.rate.dimension.standard': 7.6,
    'wang-xu.alg1.rate.standard': 7.6,
    'hu.thm1.privacy.printed': 7.5,
    'wang-xu.lemma9.concentration': 7.5,
    'audit.hu-4.standard': 7.4,
    'primitives.report-noisy-max.privacy': 7.4,
    'wang-xu.alg1.rate.printed': 7.3,
    'arora.gem.utility': 7.3,
    'proofs.002.kl-identity-18': 7.3,
    'catoni.phi.sandwich': 7.1,
    'audit.gem.standard': 7.1,
    'wang-xu.alg2.rate.dimension.printed': 7.0,
    'rates.hu.thm3.dimension': 6.3,
    'rates.hu.thm5': 6.0,
    'wang-xu.alg1.rate.calibrated': 5.9,
    'arora.lemma-e.concentration': 5.9,
    'audit.hu-1.standard': 5.8,
    'audit.hu-5.standard': 5.8,
    'wang-xu.lemma10.concentration': 5.7,
    'audit.wang-xu-2.standard': 5.6,
    'arora.thm1.excess-risk': 5.6,
    'audit.wang-xu-1.standard': 5.4,
    'rates.hu.thm7': 5.4,
    'arora.thm1.excess-risk.printed': 5.3,
    'audit.wang-xu-1.calibrated': 5.3,
    'audit.hu-1.printed': 5.3,
    'audit.wang-xu-2.printed': 5.0,
    'audit.peeling.standard': 4.3,
    'wang-xu.lemma5.concentration': 4.3,
    'wang-xu.lemma4.concentration': 4.2,
    'proofs.002.lemma2.exact-rr.printed': 4.1,
    'audit.wang-xu-2.calibrated': 4.0,
    'audit.exponential.standard': 4.0,
    'audit.arora-boosting.calibrated': 3.8,
    'audit.arora-boosting.printed': 3.6,
    'audit.arora-boosting.standard': 3.5,
    'audit.hu-3.standard': 3.1,
    'proofs.002.lemma2.exact-rr.standard': 3.1,
    'audit.wang-xu-1.printed': 3.0,
    'hu.thm1.privacy.standard': 2.6,
    'arora.boosting.excess-risk': 2.5,
    'wang-xu.alg1.error-split': 2.5,
    'hu.thm1.privacy.standard.diameter': 2.4,
    'audit.report-noisy-max.standard': 2.1,
    'rates.hu.thm8.sparsity': 2.1,
    'rates.hu.thm8.sparsity.balanced-k': 2.0,
    'rates.hu.thm8.sparsity.proof-k': 1.9,
    'arora.learners.output-perturbation.sensitivity.squared': 1.9,
    'wang-xu.alg1.rate.dimension.printed': 1.8,
    'arora.lemma-d4.output-perturbation.standard': 1.8,
    'rates.hu.thm2.dimension': 1.7,
    'wang-xu.alg1.rate.dimension.standard': 1.5,
    'catoni.phi.bound': 1.5,
    'arora.learners.noisy-gd.gradient-sensitivity': 1.3,
    'wang-xu.lemma2.covering-number': 1.2,
    'rates.hu.thm8': 1.2,
    'rates.hu.thm2': 1.1,
    'wang-xu.alg2.em-utility.printed': 1.1,
    'catoni.sensitivity.printed': 1.1,
    'audit.arora-output-perturbation.standard': 1.1,
    'hu.thm4.privacy.lemma2': 1.0,
    'wang-xu.alg2.em-utility.standard': 1.0,
    'hu.thm4.privacy.standard': 0.9,
    'hu.thm4.privacy.printed': 0.9,
    'audit.arora-grid-search.printed': 0.9,
    'wang-xu.alg2.privacy.printed': 0.9,
    'hu.thm9.packing-separation': 0.8,
    'wang-xu.alg2.privacy.calibrated.add-remove': 0.8,
    'audit.arora-grid-search.standard': 0.8,
    'wang-xu.alg2.privacy.calibrated': 0.7,
    'proofs.sensitivity.clipped-mean': 0.7,
    'audit.arora-noisy-gd.standard': 0.7,
    'wang-xu.alg2.privacy.standard': 0.6,
    'arora.learners.output-perturbation.sensitivity.logistic': 0.6,
    'arora.lemma-d4.noisy-gd.standard': 0.6,
    'wang-xu.alg1.em-utility.printed': 0.5,
    'wang-xu.alg2.privacy.standard.add-remove': 0.5,
    'wang-xu.alg1.em-utility.standard': 0.5,
    'arora.lemma-d4.noisy-gd': 0.5,
    'wang-xu.alg2.privacy.printed.add-remove': 0.5,
    'wang-xu.alg1.privacy.printed': 0.4,
    'catoni.lemma4': 0.4,
    'wang-xu.alg1.privacy.calibrated': 0.4,
    'primitives.gem.utility': 0.4,
    'catoni.sensitivity.standard': 0.4,
    'wang-xu.sensitivity.eq16.text': 0.3,
    'audit.gaussian.standard': 0.3,
    'wang-xu.alg1.privacy.calibrated.add-remove': 0.3,
    'proofs.sensitivity.robust-mean': 0.3,
    'wang-xu.alg1.privacy.standard': 0.3,
    'wang-xu.sensitivity.eq16.proof': 0.3,
    'arora.boosting.subgaussian': 0.3,
    'wang-xu.alg1.privacy.standard.add-remove': 0.3,
    'audit.laplace.standard': 0.2,
}


def estimated_seconds(claim_id: str, profile: str = "quick") -> float:
    """Estimated seconds of ``claim_id`` (:data:`QUICK_SECONDS`, or :data:`DEFAULT_SECONDS` when missing).

    >>> estimated_seconds("no.such.claim")
    0.1
    """
    return QUICK_SECONDS.get(claim_id, DEFAULT_SECONDS)

