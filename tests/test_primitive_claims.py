"""Every primitive check confirms the correct mechanism and rejects a deliberately broken one."""

import pytest

from proofs_checks.claim_sets import primitives as P
from proofs_checks.claims import CheckContext, default_registry, run_claim
from reference.mechanisms import advanced_composition_split

CTX = CheckContext(profile="quick", seed=1)


def test_registered_primitive_claims_have_expected_verdicts():
    reg = default_registry()
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
    for cid, verdict in expected.items():
        assert run_claim(reg.claim(cid), CTX).verdict == verdict, cid


@pytest.mark.parametrize("broken", [
    P.exponential_privacy_check(weight_factor=1.0),          # exp(eps u / Delta)
    P.report_noisy_max_privacy_check(scale_factor=1.0),      # monotone-only scale on general scores
    P.gem_privacy_check(weight_scale=2.0),                   # GEM run at twice its budget
    P.gem_utility_check(bound_factor=0.5),                   # utility bound 8x too tight
    P.laplace_privacy_check(scale_factor=0.7),               # noise scale 30% too small
    P.gaussian_calibration_check(sigma_factor=0.7),          # sigma 30% too small
    P.composition_split_check(split=lambda e, d, t: (2 * advanced_composition_split(e, d, t).epsilon_step, d / t)),
])
def test_checks_reject_broken_variants(broken):
    assert broken(CTX).verdict == "refuted"


def test_results_are_reproducible():
    a = P.exponential_privacy_check()(CheckContext(seed=7)).evidence
    b = P.exponential_privacy_check()(CheckContext(seed=7)).evidence
    assert a == b
