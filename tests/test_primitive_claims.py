"""Every primitive check confirms the correct mechanism and rejects a deliberately broken one."""

import pytest

from proofs_checks.claim_sets import primitives as P
from proofs_checks.model import CheckContext
from proofs_checks.registry import Registry
from proofs_checks.runner import run_claim
from reference.mechanisms import advanced_composition_split

CTX = CheckContext(profile="quick", seed=1)


def test_registered_primitive_claims_have_expected_verdicts():
    reg = Registry()
    P.register(reg)
    expected = {
        "primitives.exponential.privacy": "confirmed",
        "primitives.laplace.privacy": "confirmed",
        "primitives.laplace.density-as-printed": "refuted",
        "primitives.gaussian.classic-calibration": "confirmed",
        "primitives.report-noisy-max.privacy": "confirmed",
        "primitives.gem.privacy": "confirmed",
        "primitives.gem.utility": "confirmed",
        "primitives.composition.lemma2": "confirmed",
    }
    assert sorted(c.id for c in reg.claims) == sorted(expected)
    for cid, verdict in expected.items():
        res = run_claim(reg.claim(cid), CTX)
        assert res.verdict == verdict, cid
        assert res.method and res.reading and res.bound is not None
        assert (res.margin > -1e-9) == (verdict == "confirmed")  # exact checks: within float64 rounding


@pytest.mark.parametrize(
    "claim_id, broken",
    [
        ("primitives.exponential.privacy", P.exponential_privacy_check(weight_factor=1.0)),  # exp(eps u / Delta)
        (
            "primitives.report-noisy-max.privacy",
            P.report_noisy_max_privacy_check(scale_factor=1.0),
        ),  # monotone-only scale on general scores
        ("primitives.gem.privacy", P.gem_privacy_check(weight_scale=2.0)),  # twice its budget
        ("primitives.gem.utility", P.gem_utility_check(bound_factor=0.5)),  # bound 8x too tight
        ("primitives.laplace.privacy", P.laplace_privacy_check(scale_factor=0.7)),  # scale 30% too small
        ("primitives.gaussian.classic-calibration", P.gaussian_calibration_check(sigma_factor=0.7)),  # sigma 30% small
        (
            "primitives.composition.lemma2",
            P.composition_split_check(
                split=lambda e, d, t: (2 * advanced_composition_split(e, d, t).epsilon_step, d / t)
            ),
        ),
    ],
)
def test_checks_reject_broken_variants(claim_id, broken):
    res = broken(CTX.for_claim(claim_id))
    assert res.verdict == "refuted" and res.observed > res.bound


def test_results_are_reproducible():
    ctx = CheckContext(seed=7, claim_id="primitives.exponential.privacy")
    a = P.exponential_privacy_check()(ctx)
    b = P.exponential_privacy_check()(ctx)
    assert a.evidence == b.evidence and a.observed == b.observed
