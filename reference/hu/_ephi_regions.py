"""The value of ``E[phi(a + b Z)]``, ``Z ~ N(0, 1)``, region by region: the scalar kernel :func:`ephi`.

One scalar function, :func:`ephi`, defines the value of :mod:`reference.hu._ephi_kernel`; it is written as
two parts, :func:`_easy` (the short expressions, without branches, so that the array loops of
:mod:`reference.hu._ephi_loops` vectorise it) and :func:`_hard` (the special functions).

The regions (``a >= 0`` by oddness, ``b > 0``; ``r = sqrt 2``, ``B = 2 sqrt(2)/3``,
``U = (r - a)/b``, ``V = (r + a)/b``):

* ``U >= 9`` (the Gaussian lies inside the window): ``E = a - a (a^2 + 3 b^2)/6``, the polynomial
  part of identity (5); the dropped correction is below ``b^2 J_2(9) < 1e-21``.
* ``U <= -9`` (it lies beyond ``r``): ``E = B``; the difference is below ``2 B Q(9) < 3e-19``.
* ``b >= 1`` (wide noise): integrating by parts,
  ``E = 1/2 int_{-r}^{r} (1 - x^2/2) erf((a - x)/(sqrt 2 b)) dx``, and the Taylor series of the
  ``erf`` about ``x = 0`` gives
  ``E = B erf(t/sqrt 2) - phi(t) sum_{j>=1} He_{2j-1}(t) mu_{2j} / ((2j)! b^{2j})`` with
  ``t = a/b`` and ``mu_{2j} = 4 r^{2j+1}/((2j+1)(2j+3))``; the terms are cut once Cramer's bound
  ``|He_n(t)| <= 1.0865 sqrt(n!) exp(t^2/4)`` puts the rest below 1e-20 (at most 19 terms).
* otherwise (``b < 1``, ``|U| < 9``), with ``J_k(x) = E[(Z - x)_+^k]`` (tables of polynomial
  pieces computed in mpmath, no exponential): identity (5) rearranged so that nothing cancels,
  ``E = a - a (a^2 + 3b^2)/6 + b^2/6 [3r (J_2(U) - J_2(V)) + b (J_3(U) - J_3(V))]`` for
  ``U >= 1`` (every term >= 0) and ``E = B - b^2/6 [3r (J_2(-U) + J_2(V)) - b (J_3(-U) - J_3(V))]``
  for ``U < 1`` (``E`` near ``B``).  Where ``2a/b < 0.25`` the differences ``J_k(U) - J_k(V)``
  would cost relative accuracy as ``a -> 0``, and the previous non-negative decomposition is used:
  ``E = B P(-V <= Z <= -U) + int_{-V}^{U} p(a + b z) phi(z) dz`` with exact truncated Gaussian
  moments (the end-point density differences through ``expm1``) and Gaussian tail masses
  ``Q(x) = exp(-x^2/2) erfcx(x/sqrt 2)/2`` taken on the side where they do not cancel; an
  interval mass that is narrow uses the Hermite series
  ``int_{c-h}^{c+h} phi = 2 phi(c) sum_j He_{2j}(c) h^{2j+1}/(2j+1)!``.

References
----------
.. [1] L. Hu, S. Ni, H. Xiao and D. Wang, ``002_6c597657f27a60c9.txt``: [002 eq. (2)] (phi), [002 eq. (4)]
       (the estimator's terms ``E[phi(a + b Z)]``), [002 eq. (5)] (identity (5) and its polynomial part).
.. [2] H. Cramer, "Mathematical methods of statistics", 1946: ``|He_n(t)| <= 1.0865 sqrt(n!) exp(t^2/4)``.
"""

from __future__ import annotations

import math

import numpy as np

from ._ephi_numba import _erf, _jit, _jit_inline
from ._ephi_special import _B, _INV_SQRT2PI, _R, _erfcx_half_pair, _j23_safe

__all__ = ["ephi", "INNER", "WIDE_B"]

#: |U| beyond which the Gaussian is entirely inside (U >= INNER) or beyond (U <= -INNER) the window.
INNER = 9.0
#: b at or above which the erf Taylor series is used.
WIDE_B = 1.0
#: The j-th term of the b >= 1 series is _SERIES_C[j] * s**j * He_{2j-1}(t) with s = r^2/b^2 = 2/b^2 and
#: _SERIES_C[j] = mu_{2j} / ((2j)! r^{2j}) = 4 r / ((2j)! (2j+1)(2j+3)); _SERIES_STOP[j] * s**j bounds
#: phi(t) times that term over all t (Cramer's inequality), and the sum stops below 1e-20.
_NSERIES = 24
_SERIES_C = np.array(
    [0.0] + [4.0 * _R / (math.factorial(2 * j) * (2 * j + 1) * (2 * j + 3)) for j in range(1, _NSERIES + 1)]
)
_SERIES_STOP = np.array(
    [0.0]
    + [_SERIES_C[j] * math.sqrt(math.factorial(2 * j - 1)) * 1.0865 * _INV_SQRT2PI for j in range(1, _NSERIES + 1)]
)
#: Terms of the narrow-interval Hermite series (enough for h (|c| + h) <= 1 to 1e-20).
_NARROW_TERMS = 14
_FACT_ODD = np.array([1.0 / math.factorial(2 * j + 1) for j in range(_NARROW_TERMS)])

#: 2a/b below which the moments band keeps the expm1 formulation: J_k(U) - J_k(V) loses relative
#: accuracy as V - U = 2a/b -> 0 (about 1.3e-16 / (2a/b) relative in E), harmless absolutely but not for tiny a.
_DELTA_MIN = 0.25


@_jit
def _phi_abs(aa):
    """phi(aa) for aa >= 0: the operations of :func:`reference.hu.catoni.phi`, whose cube is numpy's power.

    Here the cube is the C library's ``pow``: where numpy runs its own SIMD power (AVX-512 CPUs) the two differ
    in the last bit of the cube on about 0.3% of the inputs, so they are equal within the bound of
    ``tests/test_catoni.py``, not bit for bit.
    """
    if aa <= _R:
        return aa - aa**3.0 / 6.0
    return _B


@_jit
def _wide(a, b):
    """b >= 1: B erf(t/sqrt 2) - phi(t) sum_j He_{2j-1}(t) C_j s^j, t = a/b, s = 2/b^2."""
    t = a / b
    s = 2.0 / (b * b)
    he_prev = 1.0  # He_0
    he = t  # He_1
    total = 0.0
    sj = 1.0
    for j in range(1, _NSERIES + 1):
        sj = sj * s
        if _SERIES_STOP[j] * sj < 1e-20:
            break
        total = total + _SERIES_C[j] * sj * he
        # He_{2j} and He_{2j+1} from He_{2j-1}, He_{2j-2}
        n = 2 * j - 1
        he_even = t * he - n * he_prev
        he_prev = he_even
        he = t * he_even - (n + 1) * he
    return _B * _erf(t / _R) - _INV_SQRT2PI * math.exp(-0.5 * t * t) * total


@_jit
def _narrow_mass(center, half):
    """P(center - half <= Z <= center + half) by the Hermite series (half (|center| + half) <= 1)."""
    he_prev = 1.0  # He_0(c)
    he = center  # He_1(c)
    h2 = half * half
    hp = half
    total = _FACT_ODD[0] * hp * he_prev
    for j in range(1, _NARROW_TERMS):
        n = 2 * j - 1
        he_even = center * he - n * he_prev  # He_{2j}
        he_odd = center * he_even - (n + 1) * he  # He_{2j+1}
        hp = hp * h2
        total = total + _FACT_ODD[j] * hp * he_even
        he_prev = he_even
        he = he_odd
    return 2.0 * _INV_SQRT2PI * math.exp(-0.5 * center * center) * total


@_jit_inline
def _band(a, b):
    """0 < b < 1, |U| < 9, 2a/b >= 0.25: identity (5) rearranged so that nothing cancels.

    With ``J_k(x) = E[(Z - x)_+^k]`` and ``V = (r + a)/b``,
    ``E = a - a (a^2 + 3 b^2)/6 + b^2/6 [3r (J_2(U) - J_2(V)) + b (J_3(U) - J_3(V))]`` (all terms
    >= 0 for ``U >= 1``) and, the same identity written from ``B``,
    ``E = B - b^2/6 [3r (J_2(-U) + J_2(V)) - b (J_3(-U) - J_3(V))]`` (used for ``U < 1``, where
    ``E`` is near ``B``).  ``J_2, J_3`` come from tables: no exponential, no ``erfc``.
    """
    up = (_R - a) / b  # divisions, not a reciprocal: 1/b overflows for subnormal b
    v = (_R + a) / b
    bb = b * b
    high = up >= 1.0
    x = up if high else -up
    j2x, j3x = _j23_safe(x)  # branch-free (both forms computed, one selected): it vectorises
    j2v, j3v = _j23_safe(v)
    poly = a - a * (a * a + 3.0 * bb) / 6.0
    from_poly = poly + bb / 6.0 * (3.0 * _R * (j2x - j2v) + b * (j3x - j3v))
    from_b = _B - bb / 6.0 * (3.0 * _R * (j2x + j2v) - b * (j3x - j3v))
    return from_poly if high else from_b


@_jit_inline
def _band_signed(a, b):
    """:func:`_band` at ``|a|``, clamped to ``[0, B]`` and given the sign of ``a``, without branches."""
    val = _band(abs(a), b)
    val = val if val <= _B else _B
    val = val if val >= 0.0 else 0.0
    return -val if a < 0.0 else val


@_jit_inline
def _is_band(aa, b):
    """Whether ``_hard`` uses the band formula (given ``|U| < 9``)."""
    return b > 0.0 and b < WIDE_B and 2.0 * aa >= _DELTA_MIN * b


@_jit
def _middle(a, b, up):
    """0 < b < 1, |U| < 9: tails plus the window integral by truncated Gaussian moments."""
    inv_b = 1.0 / b
    lo = -(_R + a) * inv_b  # L = -V
    ratio = a * inv_b
    c = 2.0 * _R * ratio * inv_b  # (L^2 - U^2)/2 >= 0
    eu = math.exp(-0.5 * up * up)
    p_up = _INV_SQRT2PI * eu
    if c < 1.0:
        em = math.expm1(-c)  # p_lo/p_up - 1, with relative accuracy as a -> 0
        e_lo = eu + eu * em  # exp(-L^2/2)
    else:
        em = 0.0
        e_lo = eu * math.exp(-c)
    p_lo = _INV_SQRT2PI * e_lo
    v = -lo
    f_u, f_v = _erfcx_half_pair(abs(up), v)
    q_v = 0.5 * e_lo * f_v if e_lo > 0.0 else 0.0  # Q(V)
    if up >= 0.0:
        q_u = 0.5 * eu * f_u  # Q(U)
        m0 = (1.0 - q_u) - q_v  # P(L <= Z <= U)
        half = ratio
        cen = -_R * inv_b
        if half * (abs(cen) + half) <= 1.0:
            tails = _narrow_mass(cen, half)
        else:
            tails = q_u - q_v  # P(-V <= Z <= -U)
    else:
        q_w = 0.5 * eu * f_u  # Q(-U) = Phi(U)
        m0 = q_w - q_v
        tails = (1.0 - q_w) - q_v
    if tails < 0.0:
        tails = 0.0
    if m0 < 0.0:
        m0 = 0.0
    lp = lo * p_lo if p_lo > 0.0 else 0.0
    l2p = lo * lo * p_lo if p_lo > 0.0 else 0.0
    upp = up * p_up
    u2p = up * up * p_up
    if c < 1.0:
        m1 = p_up * em
        m3 = 2.0 * m1 + p_up * (lo * lo * em + 2.0 * c)
    else:
        m1 = p_lo - p_up
        m3 = 2.0 * m1 + (l2p - u2p)
    m2 = m0 + lp - upp
    window = (a - a**3.0 / 6.0) * m0 + (1.0 - a * a / 2.0) * b * m1 - 0.5 * a * b * b * m2 - b * b * b / 6.0 * m3
    if window < 0.0:
        window = 0.0
    return _B * tails + window


@_jit_inline
def _easy(a, b):
    """The value where it is a short expression (``b > 0``, ``|U| >= 9``), NaN elsewhere.

    Kept apart from :func:`_hard` so that the loops run this part alone over a block first, and
    written without branches (every value computed, then selected) so that the compiler can turn
    that loop into vector instructions: the same IEEE operations on each element either way, so the
    same bits as a scalar call.
    """
    aa = abs(a)
    d = _R - aa
    nb = INNER * b  # no division on the common path: U >= 9 iff r - a >= 9 b
    inside = d >= nb
    beyond = -d >= nb
    poly = aa - aa * (aa * aa + 3.0 * (b * b)) / 6.0
    val = poly if inside else _B
    val = val if val <= _B else _B
    val = -val if a < 0.0 else val
    return val if (inside or beyond) and b != 0.0 else math.nan


@_jit
def _hard(a, b):
    """The value for ``b = 0`` (phi) and ``|U| < 9`` (the erf series for ``b >= 1``, else the moments)."""
    aa = abs(a)
    if _is_band(aa, b):
        return _band_signed(a, b)
    if b == 0.0:
        val = _phi_abs(aa)
    elif b >= WIDE_B:
        val = _wide(aa, b)
    else:
        val = _middle(aa, b, (_R - aa) / b)
    if val > _B:
        val = _B
    if val < 0.0:
        val = 0.0
    if a < 0.0:
        return -val
    return val


@_jit
def ephi(a, b):
    """E[phi(a + b Z)] for finite ``a`` and finite ``b >= 0`` (no checks); in [-B, B], odd in ``a``."""
    val = _easy(a, b)
    if math.isnan(val):
        val = _hard(a, b)
    return val
