"""psi of Wang & Xu eqs. (6) and (16): values, range, oddness, monotonicity, (3)/(15), bad input."""

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference.wang_xu.truncation import (
    check_theta,
    psi,
    psi_bound,
    psi_evaluation_error_bound,
    psi_lower_envelope,
    psi_upper_envelope,
)

floats = st.floats(allow_nan=False, allow_infinity=True)
thetas = st.sampled_from([2.0, 1.999, 1.9, 1.5, 1.1, 1.01, 1.0 + 1e-6])
EPS = np.finfo(float).eps


@pytest.mark.parametrize("theta", [2.0, 1.5, 1.1])
@pytest.mark.parametrize(
    "x", [0.0, 1e-300, 1e-8, 0.1, 0.3, 0.49, 0.5, 0.51, 0.9, 0.999999, 1.0, 1.5, 1e300, -0.3, -2.0]
)
def test_psi_matches_mpmath(x, theta):
    # reference: mpmath at 50 digits of the printed formula; the tolerance is the stated error of any float64
    # evaluation by the printed operations (docs/reproducibility.md), not this CPU's last bits
    mpmath.mp.dps = 50
    t = min(abs(mpmath.mpf(x)), mpmath.mpf(1))
    # log1p: at t = 1e-300 the log of 1 - t + ... would round to 0 at 50 digits
    exact = -mpmath.log1p(t ** mpmath.mpf(theta) / theta - t) * (1 if x >= 0 else -1)
    bound = float(psi_evaluation_error_bound(abs(x), theta))
    assert abs(mpmath.mpf(float(psi(x, theta))) - exact) <= bound


def test_eq6_is_theta_two_and_exact_at_the_kink():
    # psi's value at and beyond the kink is math.log(theta) itself (truncation._psi_nonneg), the function this
    # compares with: the same C-library call, so the same bits on any CPU
    assert float(psi(1.0)) == math.log(2.0)
    assert float(psi(1.0, 1.5)) == math.log(1.5)
    assert float(psi(5e-324)) == 5e-324  # relative accuracy down to subnormals
    assert float(psi(np.inf)) == math.log(2.0) and float(psi(-np.inf, 1.5)) == -math.log(1.5)


@given(x=floats, theta=thetas)
def test_psi_finite_bounded_odd_on_all_floats(x, theta):
    v = float(psi(x, theta))
    assert math.isfinite(v)
    assert abs(v) <= psi_bound(theta)
    assert float(psi(-x, theta)) == -v


@given(a=floats, b=floats, theta=thetas)
def test_psi_non_decreasing(a, b, theta):
    lo, hi = min(a, b), max(a, b)
    drop = float(psi(lo, theta)) - float(psi(hi, theta))
    if theta == 2.0:
        assert drop <= 0.0  # exactly monotone in float64 for eq. (6)
    else:
        assert drop <= 4 * EPS  # up to rounding of the log argument


def test_psi_eq6_exactly_monotone_ulp_by_ulp():
    for c in (1e-3, 0.25, 0.5, 0.9, 1.0):
        x = c + np.arange(-5000, 5001) * np.spacing(c)
        assert np.all(np.diff(psi(x)) >= 0)


@given(x=st.floats(allow_nan=False, allow_infinity=False), theta=thetas)
def test_psi_within_envelopes_3_and_15(x, theta):
    v = float(psi(x, theta))
    lo, up = float(psi_lower_envelope(x, theta)), float(psi_upper_envelope(x, theta))
    assert math.isfinite(lo) and math.isfinite(up)
    tol = 8 * EPS
    assert lo <= v + tol * max(1.0, abs(lo))
    assert v <= up + tol * max(1.0, abs(up))


@pytest.mark.parametrize("theta", [1.0, 0.5, 2.0000001, 3.0, float("nan"), float("inf"), -1.5])
def test_theta_outside_range_rejected(theta):
    with pytest.raises(ValueError, match="theta"):
        psi(0.5, theta)
    with pytest.raises(ValueError, match="theta"):
        check_theta(theta)


def test_bad_types_and_nan_rejected():
    with pytest.raises(TypeError, match="theta"):
        psi(0.5, "2")
    with pytest.raises(TypeError, match="theta"):
        psi(0.5, True)
    with pytest.raises(ValueError, match="NaN"):
        psi([0.1, float("nan")])


# ---- the evaluation error of psi (psi_evaluation_error_bound) against mpmath ----------------------------

BOUND_THETAS = [2.0, 1.5, 1.3, 1.01, 1.0 + 1e-6, 1.999]

#: Adversarial arguments: zero, subnormals, the smallest normal, tiny and huge values, both sides of the
#: theta = 2 branch point 1/2 and of the truncation point 1, infinity.
ADVERSARIAL_T = np.array(
    [
        0.0,
        5e-324,
        1e-310,
        2.2250738585072014e-308,
        1e-300,
        1e-100,
        1e-16,
        1e-8,
        1e-3,
        0.1,
        np.nextafter(0.5, 0.0),
        0.5,
        np.nextafter(0.5, 1.0),
        0.75,
        0.999,
        1.0 - 2.0**-53,
        1.0,
        1.0 + 2.0**-52,
        2.0,
        1e300,
        np.inf,
    ]
)


def _mp_psi_exact(t, theta):
    """psi at the float64 ``t`` and ``theta`` (mpmath, 50 digits), as mpf; log1p keeps tiny ``t`` exact."""
    mpmath.mp.dps = 50
    th = mpmath.mpf(float(theta))
    out = []
    for x in np.abs(np.asarray(t, dtype=float)).ravel():
        x = mpmath.mpf(float(x))
        out.append(mpmath.log(th) if x >= 1 else -mpmath.log1p(x**th / th - x))
    return out


def _abs_errors(values, exact, signs=None):
    signs = np.ones(len(exact)) if signs is None else signs
    return np.array([float(abs(mpmath.mpf(float(v)) - s * e)) for v, s, e in zip(np.ravel(values), signs, exact)])


def _bound_sample(theta, n):
    """``n`` arguments where the error concentrates: uniform on [0, 1], log-uniform down to 1e-20, near 1/2,
    and within 1e-16..1e-1 below 1."""
    rng = np.random.default_rng([23, int(round(theta * 1000))])
    m = n // 4
    return np.concatenate(
        [
            rng.uniform(0.0, 1.0, m),
            10.0 ** rng.uniform(-20.0, 0.0, m),
            rng.uniform(0.45, 0.55, m),
            1.0 - 10.0 ** rng.uniform(-16.0, -1.0, m),
        ]
    )


@pytest.mark.parametrize("theta", BOUND_THETAS)
def test_psi_within_its_evaluation_error_bound_of_mpmath_at_adversarial_points(theta):
    # reference: mpmath, 50 digits; both signs (psi is odd, the sign is exact)
    t = np.concatenate([ADVERSARIAL_T, -ADVERSARIAL_T])
    exact = _mp_psi_exact(t, theta)
    bound = psi_evaluation_error_bound(t, theta)
    err = _abs_errors(psi(t, theta), exact, np.sign(t) + (t == 0))
    assert np.all(np.isfinite(bound)) and np.all(bound > 0.0)
    assert np.all(err <= bound), (t[err > bound], err[err > bound], bound[err > bound])
    assert np.array_equal(bound[: ADVERSARIAL_T.size], bound[ADVERSARIAL_T.size :])  # a bound on |t|


@pytest.mark.parametrize("theta", BOUND_THETAS)
def test_psi_evaluation_error_bound_holds_and_is_not_vacuous(theta):
    # reference: mpmath, 50 digits, on 8,000 arguments per theta.  Measured (AVX-512 numpy and the baseline
    # path alike): the largest error is 0.19 to 0.22 of the bound for every theta, including 1 + 1e-6 where
    # the bound is ~5e6 ulps of psi (the conditioning of the formula); required here: at least 1/64.
    t = _bound_sample(theta, 8000)
    ratio = _abs_errors(psi(t, theta), _mp_psi_exact(t, theta)) / psi_evaluation_error_bound(t, theta)
    assert ratio.max() <= 1.0
    assert ratio.max() >= 1.0 / 64.0, ratio.max()


@pytest.mark.parametrize("theta", BOUND_THETAS)
def test_psi_evaluation_error_bound_rejects_broken_evaluations(theta):
    # power of the comparison above: a value off by 1e-12 relative, or from the wrong branch, leaves the bound
    mpmath.mp.dps = 50
    t = np.array([1e-12, 1e-6, 1e-3, 0.1, 0.3, 0.6, 0.9])
    exact = _mp_psi_exact(t, theta)
    bound = psi_evaluation_error_bound(t, theta)
    good = psi(t, theta)
    assert np.all(_abs_errors(good, exact) <= bound)
    rel = bound / good
    reject = lambda values: _abs_errors(values, exact) > bound  # noqa: E731
    if theta >= 1.01:
        # bound / psi at most 3.3e-15 (theta >= 1.3, 1.999) and 9.2e-14 (theta = 1.01): 1e-12 is caught everywhere
        assert rel.max() < 1e-13
        assert np.all(reject(good * (1.0 + 1e-12))) and np.all(reject(good * (1.0 - 1e-12)))
    else:
        # theta = 1 + 1e-6: bound / psi is 3.5e-11 (t = 1e-12) to 9.0e-10 (t = 0.9), the conditioning of the
        # formula, so a 1e-12 change is below the bound at every point; 2e-9 is caught everywhere
        assert rel.min() > 3e-11 and rel.max() < 1e-9
        assert not np.any(reject(good * (1.0 + 1e-12)))
        assert np.all(reject(good * (1.0 + 2e-9))) and np.all(reject(good * (1.0 - 2e-9)))
    # the wrong branch: theta = 2's large-argument formula log 2 - log1p((1 - s)^2) at small s cancels to
    # an absolute error of order u; theta < 2 with the theta = 2 formula is off by O(psi)
    s = np.minimum(t, 1.0)
    if theta == 2.0:
        swapped = np.where(s < 0.5, math.log(2.0) - np.log1p((1.0 - s) ** 2), -np.log1p(s * (0.5 * s - 1.0)))
        assert np.all((_abs_errors(swapped, exact) > bound)[s < 1e-3])
    else:
        swapped = psi(t, 2.0)
        assert np.all((_abs_errors(swapped, exact) > bound)[t >= 1e-3])


def test_psi_evaluation_error_bound_arguments():
    with pytest.raises(ValueError, match="function_ulps"):
        psi_evaluation_error_bound(0.5, 2.0, function_ulps=-1.0)
    with pytest.raises(ValueError, match="NaN"):
        psi_evaluation_error_bound([0.5, float("nan")], 1.5)
    with pytest.raises(ValueError, match="theta"):
        psi_evaluation_error_bound(0.5, 1.0)
    # more ulps per function, a larger bound; the shape follows t
    t = np.linspace(0.0, 1.5, 12).reshape(3, 4)
    assert psi_evaluation_error_bound(t, 1.5).shape == (3, 4)
    assert np.all(psi_evaluation_error_bound(t, 1.5, 8.0) > psi_evaluation_error_bound(t, 1.5, 4.0))
