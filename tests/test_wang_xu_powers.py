"""``s^theta`` by + - * / and bit operations (:mod:`reference.wang_xu._powers`) against mpmath (50 digits).

The stated bound is ``|pow_unit(s) - s^theta| <= 8 u s^theta + 2^-1075`` on ``[0, 1]`` for theta in
``(1, 2]`` (proof in the module docstring); the compiled loop and the numpy twin give the same bits on any
CPU (IEEE and integer operations only, in the same order, no fused multiply-add on either side).
Reference values: ``mpmath.power`` at 50 significant digits.
"""

import math

import mpmath
import numpy as np
import pytest

# private: _powers, _score_kernel, _pow_np, _Q0, _LG1, _LG2, _LG3, _LG4, _LG5, _LG6, _LG7, _Q: the power's
#   polynomials and constants are tested against mpmath
from reference.wang_xu import _powers as P
from reference.wang_xu import _score_kernel as SK

U = 2.0**-53
TINY = mpmath.ldexp(
    1, -1075
)  # (not a float64: 2.0 ** -1075 is 0) half the smallest subnormal: the rounding of a subnormal result
THETAS = [1.01, 1.1, 1.3, 1.5, 1.7, 1.99, 2.0]


def _edges():
    sub_min, norm_min = 5e-324, 2.0**-1022
    return np.array(
        [
            0.0,
            sub_min,
            2 * sub_min,
            1e-320,
            1e-310,
            np.nextafter(norm_min, 0.0),
            norm_min,
            np.nextafter(norm_min, 1.0),
            1e-300,
            1e-200,
            1e-100,
            1e-20,
            1e-8,
            0.25,
            0.5,
            math.sqrt(0.5),
            np.nextafter(math.sqrt(0.5), 0.0),
            np.nextafter(math.sqrt(0.5), 1.0),
            np.nextafter(0.5, 0.0),
            np.nextafter(0.5, 1.0),
            1.0 - 2.0**-53,
            1.0 - 2.0**-52,
            1.0,
        ]
    )


def _points(n_grid, n_rand, seed):
    rng = np.random.default_rng(seed)
    return np.concatenate(
        [np.linspace(0.0, 1.0, n_grid), rng.random(n_rand), np.exp2(rng.uniform(-1074.0, 0.0, n_rand)), _edges()]
    )


def _exact(s, theta):
    """s^theta to 50 digits (mpmath.power), as mpf values."""
    mpmath.mp.dps = 50
    th = mpmath.mpf(theta)
    return [mpmath.power(mpmath.mpf(float(v)), th) if v > 0 else mpmath.mpf(0) for v in s]


def _excess(got, exact):
    """``|got - exact| - (8 u exact + 2^-1075)`` in units of ``u exact`` where positive (a violation), and
    the largest relative error in ``u`` over normal results."""
    worst_rel, bad = 0.0, 0
    for g, e in zip(got, exact):
        err = abs(mpmath.mpf(float(g)) - e)
        if err > P.POW_REL_ERROR * e + TINY:
            bad += 1
        if e > 2.0**-1022:
            worst_rel = max(worst_rel, float(err / e) / U)
    return bad, worst_rel


@pytest.mark.parametrize("theta", THETAS)
def test_pow_unit_within_stated_bound_of_mpmath(theta):
    s = _points(2001, 1000, [3, int(theta * 100)])
    got = P.pow_unit_numpy(s, theta)
    assert np.array_equal(got.view(np.int64), P.pow_unit_compiled(s, theta).view(np.int64))
    bad, worst = _excess(got, _exact(s, theta))
    assert bad == 0
    assert worst <= 4.0  # measured 1.65 to 2.49 u (bound 8 u)
    assert got[0] == 0.0 and got[-1] == 1.0
    assert np.all(np.isfinite(got)) and np.all(got >= 0.0) and np.all(got <= 1.0)


@pytest.mark.slow
@pytest.mark.parametrize("theta", THETAS)
def test_pow_unit_within_stated_bound_of_mpmath_dense(theta):
    s = _points(200_001, 20_000, [4, int(theta * 100)])
    bad, worst = _excess(P.pow_unit_numpy(s, theta), _exact(s, theta))
    assert bad == 0 and worst <= 4.0


def test_pow_unit_monotone_and_exact_at_powers_of_two_for_theta_2():
    # theta = 2: s^2 of 2^-j is a power of two, which the algorithm must hit exactly (f = 0, P(0) = 1)
    s = np.exp2(-np.arange(0, 500, dtype=np.float64))
    assert np.array_equal(P.pow_unit_numpy(s, 2.0), s * s)
    grid = np.linspace(0.0, 1.0, 100_001)
    for theta in (1.01, 1.3, 1.99):
        assert np.all(np.diff(P.pow_unit_numpy(grid, theta)) >= 0.0)


@pytest.mark.parametrize("mutant", ["theta_lo dropped", "Q0 off by 2^-44", "output off by 9u"])
def test_bound_check_catches_mutants(mutant, monkeypatch):
    # power of the check above: each deliberately broken variant leaves the 8 u bound somewhere on the points
    theta = 1.3
    s = _points(2001, 1000, [3, 130])
    if mutant == "theta_lo dropped":  # theta k rounded: relative error up to 1076 * 7e-13 log 2
        hi, _, c = P.pow_constants(theta)
        got = P._pow_np(s, hi, 0.0, c)
    elif mutant == "Q0 off by 2^-44":  # the linear coefficient log 2 of 2^f perturbed (error <= 2e-14)
        monkeypatch.setattr(SK, "_Q0", SK._Q0 * (1.0 + 2.0**-44))  # the numpy twin reads it there
        got = P.pow_unit_numpy(s, theta)
    else:
        got = P.pow_unit_numpy(s, theta) * (1.0 + 9 * U)
    bad, _ = _excess(got, _exact(s, theta))
    assert bad > 0


def test_polynomials_within_their_stated_approximation_errors():
    # fdlibm's R(w) against (2 atanh z - 2 z) / z (claimed 2^-58.45 for |z| <= 0.1716), and 1 + x Q(x)
    # against 2^x (0.2 u relative on [-1/2 - 1e-12, 1/2 + 1e-12]); coefficients exact as float64 values
    mpmath.mp.dps = 50
    lg = [mpmath.mpf(c) for c in (P._LG1, P._LG2, P._LG3, P._LG4, P._LG5, P._LG6, P._LG7)]
    worst = 0
    for z in np.linspace(1e-6, 0.17158, 1001):
        z = mpmath.mpf(float(z))
        w = z * z
        r = mpmath.fsum(c * w ** (i + 1) for i, c in enumerate(lg))
        worst = max(worst, abs(r - (2 * mpmath.atanh(z) - 2 * z) / z))
    assert worst <= mpmath.mpf(2) ** mpmath.mpf(-58.45)
    q = [mpmath.mpf(c) for c in reversed(P._Q)]  # Q0 first
    worst = 0
    for x in np.linspace(-0.5 - 1e-12, 0.5 + 1e-12, 1001):
        x = mpmath.mpf(float(x))
        p = 1 + x * mpmath.fsum(c * x**i for i, c in enumerate(q))
        worst = max(worst, abs(p / mpmath.power(2, x) - 1))
    assert worst <= 0.2 * U  # measured 0.18 u (1.97e-17), coefficients rounded to float64


def test_pow_constants_split_theta_exactly():
    for theta in THETAS:
        hi, lo, c = P.pow_constants(theta)
        assert hi + lo == theta and (np.float64(hi).view(np.int64) & 0xFFF) == 0
        assert abs(lo) < 2.0**-40
        # theta_hi k exact for every exponent the algorithm meets (|k| <= 1076)
        k = np.arange(-1076, 1, dtype=np.float64)
        assert np.all(np.abs(np.fmod(hi * k, 2.0**-40)) == 0.0)
        mpmath.mp.dps = 50
        assert abs(mpmath.mpf(c) - mpmath.mpf(theta) / mpmath.log(2)) <= U * c


@pytest.mark.parametrize(
    "s, theta, exc, word",
    [
        (np.array([0.5, -0.1]), 1.3, ValueError, "-0.1"),
        (np.array([1.5]), 1.3, ValueError, "1.5"),
        (np.array([np.nan]), 1.3, ValueError, "nan"),
        (np.array([0.5]), 1.0, ValueError, "theta"),
        (np.array([0.5]), 2.5, ValueError, "theta"),
        (np.array([0.5]), "1.3", TypeError, "theta"),
        (np.array([0.5]), True, TypeError, "theta"),
        (np.array(["a"]), 1.3, TypeError, "s"),
    ],
)
def test_bad_input_raises_naming_the_parameter(s, theta, exc, word):
    with pytest.raises(exc, match=word):
        P.pow_unit_numpy(s, theta)
    with pytest.raises(exc, match=word):
        P.pow_unit_compiled(s, theta)


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    s=st.floats(min_value=0.0, max_value=1.0, allow_subnormal=True),
    theta=st.floats(min_value=1.0, max_value=2.0, exclude_min=True),
)
def test_pow_unit_within_bound_over_the_float_range(s, theta):
    """Hypothesis over every float64 in [0, 1] (subnormals included) and theta in (1, 2]: finite, in [0, 1],
    within the stated 8 u s^theta + 2^-1075 of mpmath (50 digits), and the compiled loop equals the numpy twin."""
    got = P.pow_unit_numpy(np.array([s]), theta)
    assert np.isfinite(got).all() and 0.0 <= got[0] <= 1.0
    exact = _exact([s], theta)[0]
    assert abs(mpmath.mpf(float(got[0])) - exact) <= 8 * U * exact + TINY
    assert np.array_equal(P.pow_unit_compiled(np.array([s]), theta).view(np.int64), got.view(np.int64))
