"""High-precision references for ``E[phi(a + b Z)]`` ([002 eq. (2)], [002 eq. (5)]) in mpmath.

Reference
---------
:func:`expected_phi_mp` integrates numerically with mpmath (``dps >= 40``).  For ``a >= 0``
(the value is odd in ``a``) it uses

``E phi(a + bZ) = B * P(-a - r <= bZ <= a - r) + int_0^r p(x) n(x; a, b) (-expm1(-2 a x / b^2)) dx``

(``r = sqrt 2``, ``B = 2 sqrt(2)/3``, ``p(x) = x - x^3/6``, ``n(.; a, b)`` the ``N(a, b^2)``
density): the tails of ``phi`` are constant, and folding the odd window integrand onto
``[0, r]`` leaves a non-negative integrand, so neither part cancels and tiny values keep their
relative accuracy.  The window integral is split at the kinks ``0`` and ``r`` and at
``a + k b``, ``k in {0, +-1, +-2, +-4, +-8}``, where the Gaussian mass sits, and cut at
``a +- 60 b`` (beyond which the integrand is below ``e^-1800``).  A single ``quad`` of
``phi(x) n(x; a, b)`` over the real line misses the spike for small ``b`` and returns about 0
(:func:`naive_expected_phi_mp` shows it; a test checks the reference does not).

:func:`expected_phi_closed_mp` evaluates identity [002 eq. (5)] with the printed ``C-hat`` (the explicit
form in [002 App. A]) in mpmath at a precision raised by the number of digits the cancellation
costs; the two references are cross-checked (claim ``catoni.identity5.math``).

References
----------
.. [1] L. Hu, S. Ni, H. Xiao and D. Wang, ``002_6c597657f27a60c9.txt``: [002 eq. (2)], [002 eq. (5)],
       [002 App. A] (the explicit ``C-hat``).
.. [2] F. Johansson and others, mpmath (``mp.quad``: tanh-sinh and Gauss-Legendre quadrature).
"""

from __future__ import annotations

import mpmath as mp

__all__ = ["DPS", "phi_mp", "expected_phi_mp", "naive_expected_phi_mp", "c_hat_mp", "expected_phi_closed_mp"]

#: Working precision of the quadrature reference (digits).
DPS = 36


def _consts():
    r = mp.sqrt(2)
    return r, 2 * r / 3


def phi_mp(u):
    """phi of [002 eq. (2)] in mpmath."""
    u = mp.mpf(u)
    r, big_b = _consts()
    if u > r:
        return big_b
    if u < -r:
        return -big_b
    return u - u**3 / 6


#: Split points (in standard deviations from the mean) where the Gaussian mass sits.
_SPLITS = (-8, -4, 0, 4, 8)
#: Window cut (standard deviations): the integrand is below exp(-800) beyond.
_CUT = 40


def _npdf(x, mean, sd):
    return mp.exp(-(((x - mean) / sd) ** 2) / 2) / (sd * mp.sqrt(2 * mp.pi))


def _quad_scaled(f, pts):
    """``mp.quad`` of ``f`` over the split points, made relative.

    mpmath stops refining when the estimated error is below ``eps`` in absolute terms, so an
    integrand of size 1e-300 would be accepted at the first level.  The integrand is divided by
    its largest value at the split points and midpoints before integrating.
    """
    probes = list(pts) + [(u + v) / 2 for u, v in zip(pts[:-1], pts[1:])]
    scale = max(abs(f(p)) for p in probes)
    if scale == 0:
        scale = mp.mpf(1)
    return scale * mp.quad(lambda t: f(t) / scale, pts, method="gauss-legendre")


def _interval_mass(center, half):
    """P(center - half <= Z <= center + half), Z ~ N(0, 1), in mpmath, without cancellation.

    Intervals lying entirely beyond 1e6 standard deviations get 0 (their mass is below
    ``exp(-5e11)``; mpmath's erfc cannot take such arguments).
    """
    if half == 0:
        return mp.mpf(0)
    lo, hi = center - half, center + half
    cut = mp.mpf(10) ** 6
    if hi < -cut or lo > cut:
        return mp.mpf(0)
    if half <= mp.mpf(1) / 2:
        return half * _quad_scaled(lambda t: mp.npdf(center + half * t), [-1, 0, 1])
    lo, hi = max(lo, -cut), min(hi, cut)
    if hi <= 0:
        return mp.ncdf(hi) - mp.ncdf(lo)
    if lo >= 0:
        return mp.ncdf(-lo) - mp.ncdf(-hi)
    return (mp.erf(hi / mp.sqrt(2)) - mp.erf(lo / mp.sqrt(2))) / 2


def expected_phi_mp(a, b, dps=DPS):
    """``E[phi(a + b Z)]`` by split mpmath quadrature (see the module docstring).

    Parameters
    ----------
    a, b : float or mpf
        ``b >= 0``.
    dps : int
        Working decimal digits (>= 30).

    Returns
    -------
    mpf
    """
    with mp.workdps(dps):
        a = mp.mpf(a)
        b = mp.mpf(b)
        if b < 0:
            raise ValueError(f"b must be >= 0, got {b}")
        if b == 0:
            return phi_mp(a)
        if a < 0:
            return -expected_phi_mp(-a, b, dps)
        r, big_b = _consts()
        tails = big_b * _interval_mass(-r / b, a / b)
        window = mp.mpf(0)
        if a == 0:
            return tails

        two_a_over_b2 = 2 * a / b**2
        big = mp.mpf(3 * mp.mp.dps)  # -expm1(-t) == 1 to working precision beyond t = big
        norm = 1 / mp.sqrt(2 * mp.pi)

        def fold(x):  # p(x) [n(x; a) - n(x; -a)] / n(x; a)
            t = two_a_over_b2 * x
            return (x - x**3 / 6) * (1 if t > big else -mp.expm1(-t))

        if b < 1:
            # z-space (x = a + b z): the Gaussian spike is resolved for every small b
            zl = max(-a / b, -_CUT)
            zu = min((r - a) / b, _CUT)
            if zl < zu:
                pts = sorted({zl, zu} | {mp.mpf(k) for k in _SPLITS if zl < k < zu})
                window = _quad_scaled(lambda z: fold(a + b * z) * mp.exp(-z * z / 2) * norm, pts)
        else:
            lo = max(mp.mpf(0), a - _CUT * b)
            hi = min(r, a + _CUT * b)
            if lo < hi:
                pts = sorted({lo, hi} | {a + k * b for k in _SPLITS if lo < a + k * b < hi})
                window = _quad_scaled(lambda x: fold(x) * mp.exp(-(((x - a) / b) ** 2) / 2) * norm / b, pts)
        return tails + window


def naive_expected_phi_mp(a, b, dps=DPS):
    """A single ``mp.quad`` of ``phi(x) n(x; a, b)`` over the real line: what NOT to do.

    For small ``b`` the quadrature nodes miss the Gaussian spike and the result is about 0.
    """
    with mp.workdps(dps):
        a = mp.mpf(a)
        b = mp.mpf(b)
        return mp.quad(lambda x: phi_mp(x) * _npdf(x, a, b), [-mp.inf, mp.inf])


def _ncdf(x):
    """Normal CDF in mpmath, also for |x| beyond what ``mp.erfc`` accepts (asymptotic series)."""
    if abs(x) < mp.mpf(10) ** 10:
        return mp.ncdf(x)
    # |x| >= 1e10: the tail is below exp(-5e19), zero at any precision used here
    return mp.mpf(0) if x < 0 else mp.mpf(1)


def _gauss_exp(v):
    """exp(-v^2/2), returning 0 beyond |v| = 1e10 (below exp(-5e19))."""
    return mp.exp(-v * v / 2) if abs(v) < mp.mpf(10) ** 10 else mp.mpf(0)


def c_hat_mp(a, b, signs=(1, 1, 1, 1, 1)):
    """Printed ``C-hat(a, b)`` = T1 + ... + T5 [002 App. A] in the current mpmath precision (``b > 0``).

    ``signs`` multiplies each term (a test flips one to show the checks reject it).
    """
    a = mp.mpf(a)
    b = mp.mpf(b)
    r, big_b = _consts()
    v_minus = (r - a) / b
    v_plus = (r + a) / b
    f_minus = _ncdf(-v_minus)
    f_plus = _ncdf(-v_plus)
    e_minus = _gauss_exp(v_minus)
    e_plus = _gauss_exp(v_plus)
    s2pi = mp.sqrt(2 * mp.pi)
    t = (
        big_b * (f_minus - f_plus),
        -(a - a**3 / 6) * (f_minus + f_plus),
        b / s2pi * (1 - a**2 / 2) * (e_plus - e_minus),
        a * b**2 / 2 * (f_plus + f_minus + (v_plus * e_plus + v_minus * e_minus) / s2pi),
        b**3 / (6 * s2pi) * ((2 + v_minus**2) * e_minus - (2 + v_plus**2) * e_plus),
    )
    return sum(sgn * term for sgn, term in zip(signs, t))


def expected_phi_closed_mp(a, b, dps=DPS, signs=(1, 1, 1, 1, 1), _retries=3):
    """Identity (5) with the printed C-hat, in mpmath with enough digits to survive cancellation.

    The polynomial part ``a(1 - b^2/2) - a^3/6`` and ``C-hat`` cancel down to a value of size at
    most ``B``; the precision is raised by the digits between the largest term
    (``max(|a|, |a|^3, |a| b^2, b^3)``) and a lower estimate of the result, then the evaluation is
    repeated with 20 more digits and must agree.
    """
    a = mp.mpf(a)
    b = mp.mpf(b)
    if b == 0:
        raise ValueError("identity (5) is stated for b > 0")
    with mp.workdps(30):
        aa = abs(a) if a != 0 else mp.mpf(1)
        largest = max(aa, aa**3, aa * b**2, b**3, mp.mpf(1))  # size of the terms that cancel (T2, T4, T5)
        smallest = min(aa, mp.mpf(1)) / (10 * max(b, mp.mpf(1)))  # lower estimate of |result|
        extra = max(0, int(mp.log10(largest / smallest))) + 10
    with mp.workdps(dps + extra):
        first = a * (1 - b**2 / 2) - a**3 / 6 + c_hat_mp(a, b, signs)
    with mp.workdps(dps + extra + 20):
        second = a * (1 - b**2 / 2) - a**3 / 6 + c_hat_mp(a, b, signs)
    with mp.workdps(dps):
        if second != 0 and abs(first - second) > abs(second) * mp.mpf(10) ** (-dps + 5):
            if _retries == 0:
                raise ArithmeticError(f"closed form did not converge at a={a}, b={b}")
            return expected_phi_closed_mp(a, b, dps + extra + 40, signs, _retries - 1)
        return +second
