"""Identity (18) of 002 and the Gaussian KL formula at high precision."""

import math

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from proofs_checks.claim_sets import proof_identities as PI
from proofs_checks.formulas import kl_identity as K
from proofs_checks.model import CheckContext
from proofs_checks.registry import Registry
from proofs_checks.runner import run_claim

CTX = CheckContext(profile="quick", seed=3, claim_id="proofs.002.kl-identity-18")


def test_registered_claim_is_confirmed():
    reg = Registry()
    PI.register(reg)
    res = run_claim(reg.claim("proofs.002.kl-identity-18"), CTX)
    assert res.verdict == "confirmed" and res.bound == K.HIGH_PRECISION_TOL
    assert res.observed == max(res.evidence["max_rel_error_per_line"].values()) < 1e-25


@pytest.mark.parametrize(
    "wrong", [lambda b: -b / 2, lambda b: b, lambda b: mpmath.mpf(b) / 2 * (1 + mpmath.mpf("1e-20"))]
)
def test_check_rejects_wrong_closed_form(wrong):
    assert PI.kl_identity_check(closed_form=wrong, betas=[1e-6, 3.0])(CTX).verdict == "refuted"


def test_each_line_matches_definition_at_extreme_beta():
    # KL(N(0,1/b)||N(1,1/b)) = b/2 exactly (equal variances, unit mean shift).
    for beta in (1e-12, 1.0, 1e12):
        lines = K.identity18_lines(beta)
        for name, value in lines.items():
            assert abs(value / (mpmath.mpf(beta) / 2) - 1) < 1e-25, (beta, name)


def test_quadrature_does_not_miss_narrow_mass():
    # A single quad over the real line returns ~0 for tiny variances; the split one must not.
    # Reference: closed form 0.5*(log(v2/v1) + (v1 + dmu^2)/v2 - 1), mpmath 40 digits.
    got = K.gaussian_kl_quad(5.0, 1e-20, -1.0, 3.0)
    ref = K.gaussian_kl_closed_form(5.0, 1e-20, -1.0, 3.0)
    assert abs(got / ref - 1) < 1e-25


@settings(max_examples=8)
@given(mu1=st.floats(-1e6, 1e6), mu2=st.floats(-1e6, 1e6), lv1=st.floats(-40, 40), lv2=st.floats(-40, 40))
def test_gaussian_kl_quad_matches_closed_form(mu1, mu2, lv1, lv2):
    v1, v2 = math.exp(lv1), math.exp(lv2)
    got = K.gaussian_kl_quad(mu1, v1, mu2, v2)
    ref = K.gaussian_kl_closed_form(mu1, v1, mu2, v2)
    # KL can be exactly 0 (identical laws): compare absolutely against the scale of the terms.
    scale = 1 + abs(mpmath.log(v2 / v1)) + (v1 + (mu1 - mu2) ** 2) / v2
    assert abs(got - ref) <= 1e-25 * scale


@pytest.mark.parametrize(
    "bad, exc",
    [
        (dict(beta=0.0), ValueError),
        (dict(beta=-1.0), ValueError),
        (dict(beta=float("nan")), ValueError),
        (dict(beta="x"), TypeError),
    ],
)
def test_bad_input_raises(bad, exc):
    with pytest.raises(exc, match="beta"):
        K.identity18_lines(**bad)


def test_bad_variance_and_dps_raise():
    with pytest.raises(ValueError, match="var1"):
        K.gaussian_kl_quad(0, 0, 1, 1)
    with pytest.raises(ValueError, match="dps"):
        K.gaussian_kl_closed_form(0, 1, 1, 1, dps=5)
