"""psi of Wang & Xu eqs. (6) and (16): values, range, oddness, monotonicity, (3)/(15), bad input."""

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference.wang_xu.truncation import check_theta, psi, psi_bound, psi_lower_envelope, psi_upper_envelope

floats = st.floats(allow_nan=False, allow_infinity=True)
thetas = st.sampled_from([2.0, 1.999, 1.9, 1.5, 1.1, 1.01, 1.0 + 1e-6])
EPS = np.finfo(float).eps


def _mp_psi(x, theta):
    """Reference psi in mpmath at 50 digits (eq. (6) / (16) as printed)."""
    mpmath.mp.dps = 50
    x = mpmath.mpf(x)
    t = abs(x)
    v = mpmath.log(theta) if t >= 1 else -mpmath.log(1 - t + t ** mpmath.mpf(theta) / theta)
    return float(v if x >= 0 else -v)


@pytest.mark.parametrize("theta", [2.0, 1.5, 1.1])
@pytest.mark.parametrize("x", [0.0, 1e-300, 1e-8, 0.1, 0.3, 0.49, 0.5, 0.51, 0.9, 0.999999, 1.0, 1.5, 1e300, -0.3, -2.0])
def test_psi_matches_mpmath(x, theta):
    # reference: mpmath at 50 digits of the printed formula
    assert psi(x, theta) == pytest.approx(_mp_psi(x, theta), rel=4e-15, abs=4e-16)


def test_eq6_is_theta_two_and_exact_at_the_kink():
    # psi's value at and beyond the kink is math.log(theta) itself (truncation._psi_nonneg), the function this
    # compares with: the same C-library call, so the same bits on any CPU
    assert float(psi(1.0)) == math.log(2.0)
    assert float(psi(1.0, 1.5)) == math.log(1.5)
    assert float(psi(5e-324)) == 5e-324          # relative accuracy down to subnormals
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
        assert drop <= 0.0                        # exactly monotone in float64 for eq. (6)
    else:
        assert drop <= 4 * EPS                    # up to rounding of the log argument


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
