"""reference.hu.catoni: phi, printed C-hat, robust expected_phi, robust mean / gradient (002, eqs. (2)-(5))."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.hu.catoni import PHI_BOUND, c_hat, expected_phi, phi, robust_gradient, robust_mean

R2 = math.sqrt(2.0)
finite = st.floats(allow_nan=False, allow_infinity=False, width=64)
nonneg = st.floats(min_value=0.0, allow_nan=False, allow_infinity=False, width=64)

# Reference values: mpmath split quadrature, 36 digits (proofs_checks.formulas.catoni.expected_phi_mp),
# cross-checked against identity (5) in mpmath at adaptive precision; printed to 20 digits.
MP_REFERENCE = [
    (0.3, 0.2, 0.28950000002049826194),
    (0.5, 1e-10, 0.47916666666666666666),
    (1.5, 0.7, 0.83700985254330786362),
    (100.0, 30.0, 0.94199784208752760967),
    (1e-05, 100000.0, 7.5225277804863005524e-11),
    (-2.0, 3.0, -0.45795864607313433394),
    (1e-300, 1e-05, 9.9999999995000002506e-301),
    (1e-300, 1e300, 7.5225277806367502862e-601),
    (1.41, 0.001, 0.94279579500079763568),
    (1e300, 1e-300, 0.94280904158206336587),
    (5e-324, 5e-324, 4.9406564584124654418e-324),
]


# ----------------------------------------------------------------------------- phi


def test_phi_values_and_bound():
    assert phi(0.0) == 0.0
    assert phi(0.5) == pytest.approx(0.5 - 0.125 / 6, abs=1e-16)
    assert phi(10.0) == PHI_BOUND and phi(-1e300) == -PHI_BOUND
    # sqrt 2 - sqrt(2)^3 / 6 with the cube by pow (FUNCTION_ULPS = 4 ulps of 2.83, /6: 3e-16) and three roundings
    # against 2 sqrt(2) / 3 rounded twice: 5e-16
    assert phi(R2) == pytest.approx(PHI_BOUND, abs=5e-16)
    x = np.linspace(-5, 5, 1001)
    assert np.all(np.abs(phi(x)) <= PHI_BOUND)
    assert np.all(np.diff(phi(x)) >= 0)


@given(finite)
def test_phi_bounded_and_odd_over_the_float_range(x):
    v = phi(x)
    assert math.isfinite(v) and abs(v) <= PHI_BOUND
    assert phi(-x) == -v


@pytest.mark.parametrize("bad", [np.nan, np.inf, [1.0, np.inf]])
def test_phi_rejects_non_finite(bad):
    with pytest.raises(ValueError, match="x must be finite"):
        phi(bad)


# ----------------------------------------------------------------------------- expected_phi


@pytest.mark.parametrize("a,b,ref", MP_REFERENCE)
def test_expected_phi_matches_mpmath_reference(a, b, ref):
    v = expected_phi(a, b)
    assert abs(v - ref) <= 1e-15
    if abs(ref) > 1e-300:
        assert abs(v - ref) <= 1e-13 * abs(ref)


def test_expected_phi_b_zero_and_subnormal_b_give_phi():
    from tests._two_routes import FUNCTION_GAP, U, assert_within, within

    a = np.array([-3.0, -R2, -0.7, 0.0, 1e-310, 0.3, R2, 1.0, 2.0, 1e300])
    a = np.concatenate([a, np.random.default_rng(0).uniform(-1.5, 1.5, 2000)])
    want = phi(a)
    # b = 0 is phi's formula a - a^3/6 in the kernel, but the cube is the C library's pow there and numpy's
    # power in phi, its own SIMD loop on AVX-512 CPUs (0.3% of these points differ by an ulp on such a CPU):
    # the cubes FUNCTION_GAP apart, then one rounding of a^3/6 and one of the difference on each side
    cube = np.minimum(np.abs(a), R2) ** 3 / 6
    gap = (FUNCTION_GAP + 2 * U) * cube + 2 * U * np.abs(want)
    got = expected_phi(a, 0.0)
    assert_within(got, want, gap)
    assert not within(got * (1 + 1e-12), want, gap)[np.abs(a) > 1e-3].any()
    # subnormal b: the kernel's a - a (a^2 + 3 b^2)/6 with b^2 = 0, a (a a) against pow: gamma_2 + FUNCTION_GAP
    # of the cube, the same roundings after it: at most 8u relative on [0, sqrt 2], so 1e-15 holds
    np.testing.assert_allclose(expected_phi(a, 5e-324), want, rtol=1e-15, atol=0)
    np.testing.assert_allclose(expected_phi(a, 1e-300), want, rtol=1e-15, atol=0)


def test_expected_phi_vectorised_and_broadcast():
    a = np.linspace(-3, 3, 7)[:, None]
    b = np.array([0.0, 0.5, 2.0])[None, :]
    out = expected_phi(a, b)
    assert out.shape == (7, 3)
    for i in range(7):
        for j in range(3):
            assert out[i, j] == expected_phi(float(a[i, 0]), float(b[0, j]))
    assert np.ndim(expected_phi(0.3, 0.2)) == 0


def test_expected_phi_large_b_limit_and_large_a():
    # b -> infinity at fixed a: E phi -> 0 like a/b; a -> infinity at fixed b: -> B
    assert abs(expected_phi(1.0, 1e300)) < 1e-299
    assert expected_phi(1.7e308, 1.0) == PHI_BOUND
    assert expected_phi(-1.7e308, 1.7e308) == pytest.approx(-PHI_BOUND * math.erf(1 / R2), abs=1e-15)


@given(finite, nonneg)
@settings(max_examples=300)
def test_expected_phi_finite_bounded_odd_everywhere(a, b):
    v = expected_phi(a, b)
    assert math.isfinite(v)
    assert abs(v) <= PHI_BOUND
    assert expected_phi(-a, b) == -v
    if a != 0:
        assert v == 0 or math.copysign(1, v) == math.copysign(1, a)


@given(st.floats(-50, 50), st.floats(0, 50))
@settings(max_examples=150)
def test_expected_phi_against_closed_form_in_mpmath(a, b):
    from proofs_checks.formulas.catoni import expected_phi_closed_mp, phi_mp

    ref = phi_mp(a) if b == 0 else expected_phi_closed_mp(a, b)
    assert abs(expected_phi(a, b) - float(ref)) <= 1e-14


@pytest.mark.parametrize(
    "a,b,match",
    [
        (np.nan, 1.0, "a must be finite"),
        (1.0, np.inf, "b must be finite"),
        (1.0, -1e-300, "b must be >= 0"),
        ([1.0, 2.0], [1.0, 2.0, 3.0], "must broadcast"),
    ],
)
def test_expected_phi_and_c_hat_bad_input(a, b, match):
    for fn in (expected_phi, c_hat):
        with pytest.raises(ValueError, match=match):
            fn(a, b)


# ----------------------------------------------------------------------------- printed C-hat


def test_c_hat_identity_holds_in_the_moderate_region():
    a = np.linspace(-3, 3, 25)[:, None]
    b = np.array([1e-3, 0.1, 0.5, 1.0, 2.0, 5.0])[None, :]
    lhs = a * (1 - b**2 / 2) - a**3 / 6 + c_hat(a, b)
    np.testing.assert_allclose(lhs, expected_phi(a, b), atol=1e-12, rtol=0)


def test_c_hat_as_printed_fails_in_float64_where_expected():
    # b = 0: the printed form divides by zero (inf * 0 inside T4, T5); kept as printed
    assert math.isnan(c_hat(0.5, 0.0))
    # tiny b: V^2 overflows, (2 + V^2) * exp(-V^2/2) = inf * 0
    assert math.isnan(c_hat(0.5, 1e-200))
    # large b: the cubic polynomial and C-hat cancel catastrophically
    a, b = 1.0, 1e6
    plugged = a * (1 - b**2 / 2) - a**3 / 6 + c_hat(a, b)
    exact = expected_phi(a, b)  # 7.5225e-07 (mpmath reference agrees to 1e-16)
    assert abs(plugged - exact) > 1e-12 and abs(plugged - exact) > 0.5 * abs(exact)


# ----------------------------------------------------------------------------- estimator


def test_robust_mean_standard_close_to_mean_for_light_data():
    rng = np.random.default_rng(3)
    x = rng.normal(1.0, 1.0, size=20000)
    est = robust_mean(x, 50.0, 1.0)
    assert abs(est - 1.0) < 0.05


def test_robust_mean_printed_equals_standard_in_the_moderate_region():
    x = np.array([[0.3, -1.2, 2.0], [0.01, 0.5, -0.7]])
    np.testing.assert_allclose(
        robust_mean(x, 2.0, 1.5, variant="printed", axis=1),
        robust_mean(x, 2.0, 1.5, variant="standard", axis=1),
        atol=1e-12,
    )


def test_robust_mean_overflowing_ratio_uses_the_exact_limit():
    v = robust_mean([1.7e308], 1e-300, 2.0)
    assert v == pytest.approx(1e-300 * PHI_BOUND * math.erf(1.0), rel=1e-14)
    assert math.isfinite(robust_mean([1e300, -1e300], 1.0, 1e-300))


def test_robust_gradient_variants_shapes_and_printed_nan_at_zero():
    g = np.array([[0.1, 2.0, 0.0], [0.3, -1.0, 0.5]])
    std = robust_gradient(g, 5.0, 1.0)
    assert std.shape == (3,)
    np.testing.assert_array_equal(std, robust_mean(g, 5.0, 1.0, axis=0))
    printed = robust_gradient(g, 5.0, 1.0, variant="printed")
    np.testing.assert_allclose(printed[:2], std[:2], atol=1e-12)
    assert math.isnan(printed[2])  # a zero gradient entry gives b = 0 in C-hat


@pytest.mark.parametrize(
    "call,exc,match",
    [
        (lambda: robust_mean([1.0], 0.0, 1.0), ValueError, "s must be"),
        (lambda: robust_mean([1.0], 1.0, -1.0), ValueError, "beta must be"),
        (lambda: robust_mean([1.0], 1.0, 1.0, variant="paper"), ValueError, "variant must be"),
        (lambda: robust_mean([1.0, np.nan], 1.0, 1.0), ValueError, "x must be finite"),
        (lambda: robust_mean([], 1.0, 1.0), ValueError, "x must not be empty"),
        (lambda: robust_mean([[1.0]], 1.0, 1.0, axis=2), ValueError, "axis must lie"),
        (lambda: robust_mean([1.0], 1.0, 1.0, axis=0.5), TypeError, "axis must be an integer"),
        (lambda: robust_gradient([1.0, 2.0], 1.0, 1.0), ValueError, "2-dimensional"),
        (lambda: robust_gradient([[1.0]], 1.0, 1.0, variant="x"), ValueError, "variant must be"),
        (lambda: robust_gradient([[1.0]], True, 1.0), TypeError, "s must be a real number"),
    ],
)
def test_estimator_bad_input(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


extreme = st.one_of(
    finite, st.sampled_from([0.0, 5e-324, -5e-324, 1e-300, 1.7976931348623157e308, -1.7976931348623157e308, R2, -R2])
)


@given(
    st.lists(extreme, min_size=2, max_size=6),
    extreme,
    st.sampled_from([1e-300, 1e-3, 1.0, 1e3, 1e300]),
    st.sampled_from([1e-300, 1e-3, 1.0, 1e3, 1e300]),
)
@settings(max_examples=200)
def test_standard_gradient_no_nan_and_sensitivity_bound(column, replacement, s, beta):
    g = np.array(column)[:, None]
    g2 = g.copy()
    g2[0, 0] = replacement
    m = g.shape[0]
    v1 = robust_gradient(g, s, beta)
    v2 = robust_gradient(g2, s, beta)
    assert np.all(np.isfinite(v1)) and np.all(np.isfinite(v2))
    assert np.all(np.abs(v1) <= s * PHI_BOUND * (1 + 1e-15))
    bound = 4 * math.sqrt(2) * s / (3 * m)
    assert np.all(np.abs(v1 - v2) <= bound * (1 + 1e-9))
