"""Every Catoni claim check gives the expected verdict and rejects a deliberately wrong variant."""

import inspect

import mpmath as mp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from proofs_checks.claim_sets import catoni as C
from proofs_checks.formulas import catoni as F
from proofs_checks.model import CheckContext
from proofs_checks.registry import Registry
from proofs_checks.report import to_jsonable
from proofs_checks.runner import run_claim
from reference.hu.catoni import PHI_BOUND, expected_phi, phi, robust_gradient

CTX = CheckContext(profile="quick", seed=1)

EXPECTED = {
    "catoni.phi.bound": "confirmed",
    "catoni.phi.sandwich": "confirmed",
    "catoni.identity5.math": "confirmed",
    "catoni.identity5.float64": "refuted",
    "catoni.expected-phi.accuracy": "confirmed",
    "catoni.sensitivity.printed": "refuted",
    "catoni.sensitivity.standard": "confirmed",
    "catoni.lemma4": "confirmed",
}


def _registry():
    reg = Registry()
    C.register(reg)
    return reg


def test_every_catoni_claim_is_expected():
    assert sorted(c.id for c in _registry().claims) == sorted(EXPECTED)


@pytest.mark.parametrize("claim_id", sorted(EXPECTED))
def test_registered_catoni_claims(claim_id, tmp_path):
    ctx = CheckContext(profile="quick", seed=1, out_dir=tmp_path)
    res = run_claim(_registry().claim(claim_id), ctx)
    assert res.verdict == EXPECTED[claim_id], res.evidence
    assert res.method and res.reading and res.direction is not None and res.bound is not None
    # confirmed within float64 rounding (the standard sensitivity attains its bound), refuted beyond it
    assert (res.margin > -1e-9) == (res.verdict == "confirmed")
    for fig in res.figures:
        assert (tmp_path / fig).exists()


def test_float64_claim_writes_the_accuracy_map(tmp_path):
    res = C.float64_accuracy_check(target="c-hat", companion=("e", expected_phi, "expected-phi"))(
        CheckContext(profile="quick", seed=1, out_dir=tmp_path, claim_id="x.y")
    )
    assert res.figures == ["x_y_accuracy_map.png"] and (tmp_path / res.figures[0]).exists()
    assert res.evidence["accurate_region"]["box"]["max_abs_a"] >= 10
    # judged on b > 0 and finite values only (a refutation must not rest on NaN at b = 0): a finite error of
    # about B = 0.943 (value 0 vs -B)
    assert res.verdict == "refuted" and 0.5 < res.observed < 1.0 and np.isfinite(res.observed)
    assert res.bound == F.TOLERANCE and res.direction == "at_most"
    assert res.evidence["non_finite_at_b_zero_not_judged"] > 0 and res.evidence["worst_finite_point"]["b"] > 0


def _phi_bad_bound(x):
    return np.clip(np.asarray(x, float), -2.0, 2.0) - np.clip(np.asarray(x, float), -R, R) ** 3 / 6 * 0


R = np.sqrt(2.0)


@pytest.mark.parametrize(
    "claim_id, broken",
    [
        (
            "catoni.phi.bound",
            C.phi_bound_check(phi_fn=lambda x: np.where(np.abs(x) <= R, x - x**3 / 6, np.sign(x) * 1.0)),
        ),
        ("catoni.phi.bound", C.phi_bound_check(phi_fn=lambda x: phi(x) * (1 + 1e-12))),
        ("catoni.phi.sandwich", C.sandwich_check(phi_fn=lambda u: u)),  # identity breaks (16)
        ("catoni.phi.sandwich", C.sandwich_check(phi_fn=lambda u: F.phi_mp(u) * 1.01)),  # 1% too large near the kinks
        ("catoni.identity5.math", C.identity5_math_check(signs=(-1, 1, 1, 1, 1))),  # flipped T1
        ("catoni.identity5.math", C.identity5_math_check(signs=(1, -1, 1, 1, 1))),  # flipped T2
        ("catoni.identity5.math", C.identity5_math_check(signs=(1, 1, -1, 1, 1))),  # flipped T3
        ("catoni.identity5.math", C.identity5_math_check(signs=(1, 1, 1, -1, 1))),  # flipped T4
        ("catoni.identity5.math", C.identity5_math_check(signs=(1, 1, 1, 1, -1))),  # flipped T5
        (
            "catoni.expected-phi.accuracy",
            C.float64_accuracy_check(fn=lambda a, b: expected_phi(a, b) * (1 + 1e-9)),
        ),  # 1e-9 relative error
        ("catoni.sensitivity.standard", C.sensitivity_check("standard", sensitivity_factor=0.5)),  # halved sensitivity
        ("catoni.lemma4", C.lemma4_check(bound_factor=0.1, reps=300)),  # bound 10x too tight
    ],
)
def test_checks_reject_broken_variants(claim_id, broken):
    res = broken(CTX.for_claim(claim_id))
    assert res.verdict == "refuted"
    assert res.margin is not None and res.margin < 0 and res.method and res.reading


def test_sensitivity_check_rejects_an_unbounded_estimator():
    def unbounded(g, s, beta, variant="standard"):
        return np.mean(g, axis=0)  # the plain mean: sensitivity unbounded

    check = C.sensitivity_check("standard", gradient_fn=unbounded)
    assert check(CTX.for_claim("catoni.sensitivity.standard")).verdict == "refuted"


def test_sensitivity_standard_attains_the_bound_and_printed_reports_nan_at_zero():
    res = C.sensitivity_check("standard")(CTX.for_claim("catoni.sensitivity.standard"))
    assert (
        0.99 <= res.observed <= 1 + 1e-9
        and res.bound == 1.0
        and res.evidence["skipped_non_finite_pairs_cannot_run"] == 0
    )
    ev = C.sensitivity_check("printed")(CTX.for_claim("catoni.sensitivity.printed")).evidence
    ex = ev["smallest_non_finite_example"]
    assert min(abs(ex["x"]), abs(ex["x_prime"])) <= 5e-324  # zero or subnormal entry: b underflows to 0


def test_lemma4_bound_formula():
    # tau/(2s)(1/beta+1) + s/n(beta/2 + log(2/zeta)) at tau=1, s=2, beta=1, n=10, zeta=2/e: 0.5 + 0.2*1.5
    assert C.lemma4_bound(1.0, 2.0, 1.0, 10, 2 / np.e) == pytest.approx(0.5 + 0.2 * 1.5)


def test_checks_are_reproducible():
    ctx = CheckContext(seed=7, claim_id="catoni.test")
    for make in (lambda: C.sensitivity_check("printed"), lambda: C.lemma4_check(reps=100)):
        a = make()(ctx).evidence
        b = make()(ctx).evidence
        assert to_jsonable(a) == to_jsonable(b)  # NaN evidence compares as the string "nan"


def test_robust_gradient_used_by_the_claim_is_the_reference():
    assert inspect.signature(C.sensitivity_check).parameters["gradient_fn"].default is robust_gradient
    assert PHI_BOUND == pytest.approx(2 * np.sqrt(2) / 3)


@given(st.floats(-1e6, 1e6, allow_nan=False))
@settings(max_examples=200)
def test_sandwich_inequality_16_hypothesis(u):
    # appendix (16) of 002 at 50 digits for the printed phi
    with mp.workdps(50):
        x = mp.mpf(u)
        v = F.phi_mp(x)
        assert -mp.log(1 - x + x * x / 2) <= v + mp.mpf(10) ** -45
        assert v <= mp.log(1 + x + x * x / 2) + mp.mpf(10) ** -45
