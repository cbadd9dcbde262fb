import math

import numpy as np
import pytest

from proofs_checks.audit.calibration import (
    ExponentialArgmax,
    GaussianCount,
    RandomizedResponse,
    calibration_suite,
    oracle_bound,
)
from proofs_checks.audit.exact import privacy_profile
from proofs_checks.audit.statistical import statistical_audit
from proofs_checks.claim_sets.audit_calibration import (
    exact_calibration_check,
    power_calibration_check,
    verdict_calibration_check,
)
from proofs_checks.model import CheckContext

RUN = CheckContext(profile="quick", seed=11)


def test_suite_has_correct_and_violating_cases():
    suite = calibration_suite()
    assert len(suite) >= 6
    assert any(c.correct for c in suite) and any(not c.correct for c in suite)
    for c in suite:
        assert (c.true_epsilon() <= c.claimed_epsilon) == c.correct, c.name


def test_analytic_values():
    # hand computations: log((e^1 + 2)... see ExponentialArgmax docstring
    want = 1 + math.log((1 + 2 * math.e) / (math.e + 2))
    assert ExponentialArgmax(1.0).analytic_loss() == pytest.approx(want, abs=1e-14)
    assert RandomizedResponse(1.0).true_epsilon() == pytest.approx(1.0, abs=1e-14)
    g = GaussianCount(2.0)
    eps = g.true_epsilon(1e-3)
    assert g.delta_at(eps) == pytest.approx(1e-3, rel=1e-10)


def test_exact_audit_matches_analytic():
    for c in calibration_suite():
        if hasattr(c.mechanism, "log_prob"):
            D, Dp = c.pair()
            got = privacy_profile(c.mechanism.log_prob(D)[1], c.mechanism.log_prob(Dp)[1], c.claimed_delta)[0]
            assert abs(got - c.true_epsilon()) <= 1e-9


def test_oracle_below_truth_and_increasing_in_samples():
    for c in calibration_suite():
        lo, hi = oracle_bound(c, 10_000, 0.95), oracle_bound(c, 10**7, 0.95)
        assert 0 <= lo <= hi <= c.true_epsilon() + 1e-12


def test_verdicts_small():
    # Fast version of the verdict claim at 10^5 calls: violating cases refuted, correct ones not.
    for i, c in enumerate(calibration_suite()):
        r = statistical_audit(
            c.mechanism,
            [c.pair()],
            c.claimed_epsilon,
            c.claimed_delta,
            samples=100_000,
            seed=100 + i,
            statistic="estimate",
        )
        assert (r.verdict == "refuted") == (not c.correct), (c.name, r.epsilon_lower)


def test_exact_claim_rejects_broken_suite():
    assert exact_calibration_check()(RUN.for_claim("audit.calibration.exact")).verdict == "confirmed"

    class Lying(ExponentialArgmax):
        def true_epsilon(self, delta=0.0):
            return super().true_epsilon(delta) + 1e-6

    def broken_suite():
        return [
            c.__class__(c.name, Lying(c.mechanism.c), c.claimed_epsilon, c.claimed_delta, c.correct, c.description)
            for c in calibration_suite()
            if isinstance(c.mechanism, ExponentialArgmax)
        ]

    assert exact_calibration_check(suite=broken_suite)(RUN.for_claim("audit.calibration.exact")).verdict == "refuted"


def _small_suite():
    return [c for c in calibration_suite() if c.name in ("rr-correct", "rr-violating")]


def test_verdict_claim_rejects_overconfident_auditor():
    def overconfident(*args, **kw):
        r = statistical_audit(*args, **kw)
        r.epsilon_lower *= 1.5
        r.verdict = "refuted" if r.epsilon_lower > args[2] else "not refuted"
        return r

    check = verdict_calibration_check(suite=_small_suite)
    assert check(RUN.for_claim("audit.calibration.verdicts")).verdict == "confirmed"
    assert (
        verdict_calibration_check(suite=_small_suite, audit=overconfident)(
            RUN.for_claim("audit.calibration.verdicts")
        ).verdict
        == "refuted"
    )


def test_power_claim_rejects_weak_auditor():
    def weak(*args, **kw):
        r = statistical_audit(*args, **kw)
        r.epsilon_lower *= 0.5
        return r

    kw = dict(suite=_small_suite, samples=100_000, seeds=1)
    assert power_calibration_check(**kw)(RUN.for_claim("audit.calibration.power")).verdict == "confirmed"
    assert power_calibration_check(audit=weak, **kw)(RUN.for_claim("audit.calibration.power")).verdict == "refuted"


@pytest.mark.slow
def test_power_at_one_million_calls():
    """Mean over 5 seeds of epsilon_lower / oracle >= 0.9 for every case, exact-LR and black-box statistics."""
    for c in calibration_suite():
        oracle = oracle_bound(c, 1_000_000, 0.95)
        for statistic in ("auto", "estimate"):
            vals = [
                statistical_audit(
                    c.mechanism,
                    [c.pair()],
                    c.claimed_epsilon,
                    c.claimed_delta,
                    samples=1_000_000,
                    seed=s,
                    statistic=statistic,
                ).epsilon_lower
                for s in range(5)
            ]
            assert np.mean(vals) >= 0.9 * oracle, (c.name, statistic, np.mean(vals), oracle)


@pytest.mark.slow
def test_false_refutation_rate_on_correct_mechanism():
    """200 audits of a correct mechanism whose claim is tight refute at most at rate 1 - confidence."""
    c = [c for c in calibration_suite() if c.name == "laplace-correct"][0]
    refuted = sum(
        statistical_audit(c.mechanism, [c.pair()], 1.0, samples=20_000, seed=s, confidence=0.9).verdict == "refuted"
        for s in range(200)
    )
    # Binomial(200, 0.1): 30 or more refutations has probability < 2.5% (scipy.stats.binom.sf(29, 200, .1))
    assert refuted < 30
