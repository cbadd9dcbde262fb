"""Element-wise kernel for ``E[phi(a + b Z)]``, ``Z ~ N(0, 1)`` (002, eqs. (2), (4), (5)).

One scalar function, :func:`ephi`, defines the value; the array loops run the same scalar code in
passes over a block (a branch-free pass for the common region, a branch-free pass for the ``b < 1``
band when a quarter of the block or more is in it, then the remaining entries one by one), each
element through the same IEEE operations, so a batch call gives, bit for bit, the values of the
scalar calls (no reduction, no product whose order depends on the shape of the batch).  The kernel is compiled with numba when
numba is importable (no ``fastmath``: IEEE operations in source order, no FMA contraction) and
otherwise runs as plain Python with the same special functions, hence the same bits, only slower.
The special functions are scipy's ``erf`` (through ``scipy.special.cython_special``), the C
library's ``exp``, ``expm1`` and ``pow``, and tables of polynomial pieces computed in mpmath for
``erfcx(x/sqrt 2)``, ``J_2`` and ``J_3`` (``reference/hu/_mills_table.py``, written by
``python -m proofs_checks.formulas.mills_table``).

Why numba pays: the value needs up to a few special-function calls or table look-ups and a few
dozen operations per entry, behind branches.  As numpy expressions that is tens of passes over the
array with temporaries (the previous implementation: 0.7-6 us per entry); compiled, with the
common pass vectorised, it is about 2 ns per entry in the common region and 25-30 ns in the band
(CPU time; see ``docs/catoni.md``).

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

The estimator's terms (:func:`standard_terms`, :func:`standard_column_sums`) have
``b = |a|/sqrt(beta)``: they lie on one curve per ``beta``, and where ``|U| < 9`` they are read from
piecewise polynomials of that curve (:func:`curve_table`; fitted in extended precision through
values of :func:`ephi`, cached per ``beta``) instead of the per-entry special functions: the
``b >= 1`` series costs an ``erf``, an ``exp`` and up to 19 terms, the band two table look-ups, the
curve one look-up and a degree-9 polynomial whatever the region.  Measured against mpmath the
curve's error is below 3.2e-16 (``tests/test_catoni_curve.py`` checks 6e-16 at 9 values of ``beta``
from 1e-8 to 1e8).  The array loops evaluate it in passes over blocks (:func:`_curve_easy`,
:func:`_curve_fill`) so that the divisions and the piece index run in vector instructions and no
branch depends on the data.  The tables use ``numpy.longdouble`` (80-bit on x86-64) for the fit; on a
platform where it is float64 the fit is less accurate (the test would say so).
"""

from __future__ import annotations

import math
import threading

import numpy as np
from scipy import special

from . import _mills_table

try:  # pragma: no cover - exercised by whichever environment runs the tests
    import numba
    from llvmlite import binding as llvm_binding
    from numba.extending import get_cython_function_address

    #: True when the kernel is compiled (numba importable and NUMBA_DISABLE_JIT unset).
    HAVE_NUMBA = not numba.config.DISABLE_JIT
except ImportError:  # pragma: no cover
    numba = None
    HAVE_NUMBA = False

__all__ = ["HAVE_NUMBA", "PHI_BOUND", "ephi", "ephi_array", "standard_terms", "standard_column_sums",
           "curve_table", "INNER", "WIDE_B"]

#: sup |phi| = 2 sqrt(2)/3.
PHI_BOUND = 2.0 * math.sqrt(2.0) / 3.0
_R = math.sqrt(2.0)
_B = PHI_BOUND
_INV_SQRT2PI = 1.0 / math.sqrt(2.0 * math.pi)
#: |U| beyond which the Gaussian is entirely inside (U >= INNER) or beyond (U <= -INNER) the window.
INNER = 9.0
#: b at or above which the erf Taylor series is used.
WIDE_B = 1.0
#: The j-th term of the b >= 1 series is _SERIES_C[j] * s**j * He_{2j-1}(t) with s = r^2/b^2 = 2/b^2 and
#: _SERIES_C[j] = mu_{2j} / ((2j)! r^{2j}) = 4 r / ((2j)! (2j+1)(2j+3)); _SERIES_STOP[j] * s**j bounds
#: phi(t) times that term over all t (Cramer's inequality), and the sum stops below 1e-20.
_NSERIES = 24
_SERIES_C = np.array([0.0] + [4.0 * _R / (math.factorial(2 * j) * (2 * j + 1) * (2 * j + 3)) for j in range(1, _NSERIES + 1)])
_SERIES_STOP = np.array([0.0] + [_SERIES_C[j] * math.sqrt(math.factorial(2 * j - 1)) * 1.0865 * _INV_SQRT2PI
                                 for j in range(1, _NSERIES + 1)])
#: Terms of the narrow-interval Hermite series (enough for h (|c| + h) <= 1 to 1e-20).
_NARROW_TERMS = 14
_FACT_ODD = np.array([1.0 / math.factorial(2 * j + 1) for j in range(_NARROW_TERMS)])


# --------------------------------------------------------------------------- special functions

if HAVE_NUMBA:
    # a named external symbol (not a ctypes pointer) so that the compiled code can be cached
    llvm_binding.add_symbol("heavytail_dp_erf",
                            get_cython_function_address("scipy.special.cython_special", "__pyx_fuse_1erf"))
    _erf = numba.types.ExternalFunction("heavytail_dp_erf", numba.types.float64(numba.types.float64))
    _jit = numba.njit(cache=True, nogil=True, error_model="numpy")
    # inlined at numba's level, so that the loops calling them can be vectorised
    _jit_inline = numba.njit(cache=True, nogil=True, error_model="numpy", inline="always")
    _to_i32 = numba.int32
else:  # pragma: no cover
    def _erf(x):
        return float(special.erf(x))

    def _jit(fn):
        return fn

    _jit_inline = _jit
    _to_i32 = int


_MILLS = np.array(_mills_table.COEFFS)
_MILLS_INV_W = 1.0 / _mills_table.WIDTH
_MILLS_MAX = _mills_table.X_MAX
_MILLS_DEG = _mills_table.DEGREE
_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)


@_jit
def _erfcx_half(x):
    """``erfcx(x / sqrt 2) = 2 Q(x) exp(x^2/2)`` for ``x >= 0`` (``inf`` gives 0).

    Chebyshev pieces on ``[0, 16)`` (``reference/hu/_mills_table.py``, from mpmath), Clenshaw's
    recurrence; beyond, the asymptotic series of the Mills ratio (``Q(16) < 1e-57``).
    """
    if x < _MILLS_MAX:
        k = int(x * _MILLS_INV_W)
        t = 2.0 * (x * _MILLS_INV_W - k) - 1.0
        t2 = 2.0 * t
        b1 = 0.0
        b2 = 0.0
        for j in range(_MILLS_DEG, 0, -1):
            b0 = _MILLS[k, j] + t2 * b1 - b2
            b2 = b1
            b1 = b0
        return _MILLS[k, 0] + t * b1 - b2
    y = 1.0 / (x * x)
    return _SQRT_2_OVER_PI / x * (1.0 - y * (1.0 - 3.0 * y * (1.0 - 5.0 * y * (1.0 - 7.0 * y * (1.0 - 9.0 * y)))))


@_jit
def _erfcx_half_pair(x, y):
    """``(_erfcx_half(x), _erfcx_half(y))`` with the two Clenshaw recurrences interleaved (the
    same operations on each, so the same bits; the two dependency chains overlap)."""
    if x >= _MILLS_MAX or y >= _MILLS_MAX:
        return _erfcx_half(x), _erfcx_half(y)
    kx = int(x * _MILLS_INV_W)
    ky = int(y * _MILLS_INV_W)
    tx = 2.0 * (x * _MILLS_INV_W - kx) - 1.0
    ty = 2.0 * (y * _MILLS_INV_W - ky) - 1.0
    tx2 = 2.0 * tx
    ty2 = 2.0 * ty
    bx1 = 0.0
    bx2 = 0.0
    by1 = 0.0
    by2 = 0.0
    for j in range(_MILLS_DEG, 0, -1):
        bx0 = _MILLS[kx, j] + tx2 * bx1 - bx2
        by0 = _MILLS[ky, j] + ty2 * by1 - by2
        bx2 = bx1
        bx1 = bx0
        by2 = by1
        by1 = by0
    return _MILLS[kx, 0] + tx * bx1 - bx2, _MILLS[ky, 0] + ty * by1 - by2


_JTAB = np.array(_mills_table.J_COEFFS)
_J_LO = _mills_table.J_LO
_J_HI = _mills_table.J_HI
_J_INV_W = 1.0 / _mills_table.J_WIDTH
_J_DEG = _mills_table.J_DEGREE
#: 2a/b below which the moments band keeps the expm1 formulation: J_k(U) - J_k(V) loses relative
#: accuracy as V - U = 2a/b -> 0 (about 1.3e-16 / (2a/b) relative in E), harmless absolutely but not for tiny a.
_DELTA_MIN = 0.25


@_jit
def _j23(x):
    """``(J_2(x), J_3(x))``, ``J_k(x) = E[(Z - x)_+^k]``, for ``x >= -1`` (0 beyond 9.5, where
    ``J_2 < 3e-23``): Horner's rule on the mpmath pieces of ``reference/hu/_mills_table.py``."""
    if x >= _J_HI:
        return 0.0, 0.0
    u = (x - _J_LO) * _J_INV_W
    k = int(u)
    t = 2.0 * (u - k) - 1.0
    p2 = _JTAB[k, _J_DEG]
    p3 = _JTAB[k, 2 * _J_DEG + 1]
    for j in range(_J_DEG - 1, -1, -1):
        p2 = p2 * t + _JTAB[k, j]
        p3 = p3 * t + _JTAB[k, _J_DEG + 1 + j]
    return p2, p3


_J_UMAX = _JTAB.shape[0] - 0.5
_JFLAT = np.ascontiguousarray(_JTAB).ravel()
assert _J_DEG == 9 and _JTAB.shape[1] == 20, "_j23_safe is written out for degree 9"


@_jit_inline
def _j23_safe(x):
    """:func:`_j23` without branches (the same operations, so the same bits, for ``x < 9.5``; 0 at or
    beyond): the piece index is clamped so that any input, even NaN, reads inside the table, and the
    result selected.  Used where the compiler should vectorise."""
    u = (x - _J_LO) * _J_INV_W
    uc = u if u < _J_UMAX else _J_UMAX      # also NaN -> the last piece
    uc = uc if uc > 0.0 else 0.0
    k = int(uc)
    t = 2.0 * (u - k) - 1.0
    # Horner's rule written out (degree 9), the same operations as the loop of _j23: a loop here
    # would keep the compiler from vectorising the loop that calls this function
    c = k * 20
    p2 = _JFLAT[c + 9]
    p3 = _JFLAT[c + 19]
    p2 = p2 * t + _JFLAT[c + 8]
    p3 = p3 * t + _JFLAT[c + 18]
    p2 = p2 * t + _JFLAT[c + 7]
    p3 = p3 * t + _JFLAT[c + 17]
    p2 = p2 * t + _JFLAT[c + 6]
    p3 = p3 * t + _JFLAT[c + 16]
    p2 = p2 * t + _JFLAT[c + 5]
    p3 = p3 * t + _JFLAT[c + 15]
    p2 = p2 * t + _JFLAT[c + 4]
    p3 = p3 * t + _JFLAT[c + 14]
    p2 = p2 * t + _JFLAT[c + 3]
    p3 = p3 * t + _JFLAT[c + 13]
    p2 = p2 * t + _JFLAT[c + 2]
    p3 = p3 * t + _JFLAT[c + 12]
    p2 = p2 * t + _JFLAT[c + 1]
    p3 = p3 * t + _JFLAT[c + 11]
    p2 = p2 * t + _JFLAT[c + 0]
    p3 = p3 * t + _JFLAT[c + 10]
    zero = x >= _J_HI
    return (0.0 if zero else p2), (0.0 if zero else p3)


# --------------------------------------------------------------------------- regions

@_jit
def _phi_abs(aa):
    """phi(aa) for aa >= 0: the operations of :func:`reference.hu.catoni.phi`, whose cube is numpy's power.

    Here the cube is the C library's ``pow``: where numpy runs its own SIMD power (AVX-512 CPUs) the two differ
    in the last bit of the cube on about 0.3% of the inputs, so they are equal within the bound of
    ``tests/test_catoni.py``, not bit for bit.
    """
    if aa <= _R:
        return aa - aa ** 3.0 / 6.0
    return _B


@_jit
def _wide(a, b):
    """b >= 1: B erf(t/sqrt 2) - phi(t) sum_j He_{2j-1}(t) C_j s^j, t = a/b, s = 2/b^2."""
    t = a / b
    s = 2.0 / (b * b)
    he_prev = 1.0          # He_0
    he = t                 # He_1
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
    he_prev = 1.0                                  # He_0(c)
    he = center                                    # He_1(c)
    h2 = half * half
    hp = half
    total = _FACT_ODD[0] * hp * he_prev
    for j in range(1, _NARROW_TERMS):
        n = 2 * j - 1
        he_even = center * he - n * he_prev        # He_{2j}
        he_odd = center * he_even - (n + 1) * he   # He_{2j+1}
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
    up = (_R - a) / b           # divisions, not a reciprocal: 1/b overflows for subnormal b
    v = (_R + a) / b
    bb = b * b
    high = up >= 1.0
    x = up if high else -up
    j2x, j3x = _j23_safe(x)     # branch-free (both forms computed, one selected): it vectorises
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
    lo = -(_R + a) * inv_b                  # L = -V
    ratio = a * inv_b
    c = 2.0 * _R * ratio * inv_b            # (L^2 - U^2)/2 >= 0
    eu = math.exp(-0.5 * up * up)
    p_up = _INV_SQRT2PI * eu
    if c < 1.0:
        em = math.expm1(-c)                 # p_lo/p_up - 1, with relative accuracy as a -> 0
        e_lo = eu + eu * em                 # exp(-L^2/2)
    else:
        em = 0.0
        e_lo = eu * math.exp(-c)
    p_lo = _INV_SQRT2PI * e_lo
    v = -lo
    f_u, f_v = _erfcx_half_pair(abs(up), v)
    q_v = 0.5 * e_lo * f_v if e_lo > 0.0 else 0.0                    # Q(V)
    if up >= 0.0:
        q_u = 0.5 * eu * f_u                                          # Q(U)
        m0 = (1.0 - q_u) - q_v                                        # P(L <= Z <= U)
        half = ratio
        cen = -_R * inv_b
        if half * (abs(cen) + half) <= 1.0:
            tails = _narrow_mass(cen, half)
        else:
            tails = q_u - q_v                                         # P(-V <= Z <= -U)
    else:
        q_w = 0.5 * eu * f_u                                          # Q(-U) = Phi(U)
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
    window = ((a - a ** 3.0 / 6.0) * m0 + (1.0 - a * a / 2.0) * b * m1
              - 0.5 * a * b * b * m2 - b * b * b / 6.0 * m3)
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
    nb = INNER * b           # no division on the common path: U >= 9 iff r - a >= 9 b
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


# --------------------------------------------------------------------------- array loops

@_jit
def _ephi_loop(a, b, out):
    for i in range(a.size):
        out[i] = _easy(a[i], b[i])
    if _band_share(out) >= 0.25:
        for i in range(a.size):                           # branch-free, so that it vectorises
            val = _band_signed(a[i], b[i])
            out[i] = val if (math.isnan(out[i]) and _is_band(abs(a[i]), b[i])) else out[i]
    for i in range(a.size):
        if math.isnan(out[i]):
            out[i] = _hard(a[i], b[i])


@_jit
def _band_share(out):
    """Share of entries left (NaN) after the common pass: above 1/4 the band formula is run over the
    whole block without branches (vectorised) before the remaining entries go one by one."""
    n = 0
    for i in range(out.size):
        n += 1 if math.isnan(out[i]) else 0
    return n / out.size if out.size else 0.0


@_jit
def _terms_loop(x, s, root, limit, out):
    """Per-sample E[phi(x/s + |x/s|/root Z)]; the limit where an argument exceeds 1e300 or overflows.

    Returns the number of non-finite entries of ``x`` (their outputs are NaN).
    """
    bad = 0
    for i in range(x.size):                               # branch-free, so that it vectorises
        xi = x[i]
        a = xi / s
        aa = abs(a)
        b = aa if root == 1.0 else aa / root              # |a| / 1.0 is |a|: the same bits
        val = _easy(a, b)
        lim = limit if xi > 0.0 else -limit
        lim = lim if math.isfinite(xi) else math.nan
        bad += 0 if math.isfinite(xi) else 1
        out[i] = val if (aa <= 1e300 and b <= 1e300) else lim    # False for inf and NaN as well
    if bad:
        return bad
    if _band_share(out) >= 0.25:
        for i in range(x.size):                           # branch-free, so that it vectorises
            a = x[i] / s
            aa = abs(a)
            b = aa if root == 1.0 else aa / root
            val = _band_signed(a, b)
            out[i] = val if (math.isnan(out[i]) and _is_band(aa, b)) else out[i]
    for i in range(x.size):
        if math.isnan(out[i]):
            a = x[i] / s
            out[i] = _hard(a, abs(a) if root == 1.0 else abs(a) / root)
    return 0


if HAVE_NUMBA:
    @numba.njit(parallel=True, cache=True, nogil=True, error_model="numpy")
    def _ephi_par(a, b, out, chunk):
        n = a.size
        nchunks = (n + chunk - 1) // chunk
        for k in numba.prange(nchunks):
            lo = k * chunk
            hi = min(n, lo + chunk)
            _ephi_loop(a[lo:hi], b[lo:hi], out[lo:hi])

    @numba.njit(parallel=True, cache=True, nogil=True, error_model="numpy")
    def _terms_par(x, s, root, limit, u_lo, iw, npc, mid, scale, use_w, coef, out, chunk):
        n = x.size
        nchunks = (n + chunk - 1) // chunk
        bad = 0
        for k in numba.prange(nchunks):
            lo = k * chunk
            hi = min(n, lo + chunk)
            bad += _terms_any(x[lo:hi], s, root, limit, u_lo, iw, npc, mid, scale, use_w, coef, out[lo:hi])
        return bad

    @numba.njit(parallel=True, cache=True, nogil=True, error_model="numpy")
    def _colsum_par(flat, d, s, root, limit, u_lo, iw, npc, mid, scale, use_w, coef, width, buf_size):
        nblocks = (d + width - 1) // width
        sums = np.empty(d)
        bad = 0
        for k in numba.prange(nblocks):
            j0 = k * width
            j1 = min(d, j0 + width)
            buf = np.empty(buf_size)
            bad += _colsum_block(flat, d, s, root, limit, u_lo, iw, npc, mid, scale, use_w, coef, j0, j1, buf, sums)
        return sums, bad
else:  # pragma: no cover
    _ephi_par = None
    _terms_par = None
    _colsum_par = None

@_jit
def _colsum_block_kernel(flat, d, s, root, limit, u_lo, iw, npc, mid, scale, use_w, coef, j0, j1, buf, sums):
    """Without a curve table: column sums of the terms of columns ``j0:j1`` of the C-ordered ``(m, d)`` array ``flat``
    (raveled), row after row (the order of ``np.add.reduce`` over axis 0), through a row-block
    buffer.  Returns the number of non-finite entries."""
    m = flat.size // d
    w = j1 - j0
    rows = buf.size // w
    bad = 0
    for i0 in range(0, m, rows):
        i1 = min(m, i0 + rows)
        for i in range(i0, i1):
            k = (i - i0) * w
            bad += _terms_any(flat[i * d + j0:i * d + j1], s, root, limit, u_lo, iw, npc, mid, scale, use_w, coef,
                              buf[k:k + w])
        _add_rows(buf, i0, i1, w, j0, sums)
    return bad


@_jit
def _colsum_serial(flat, d, s, root, limit, u_lo, iw, npc, mid, scale, use_w, coef, width, buf_size):
    """:func:`_colsum_par` in one thread: the same column blocks, each summed the same way (same bits)."""
    sums = np.empty(d)
    buf = np.empty(buf_size)
    bad = 0
    for j0 in range(0, d, width):
        bad += _colsum_block(flat, d, s, root, limit, u_lo, iw, npc, mid, scale, use_w, coef, j0, min(d, j0 + width),
                             buf, sums)
    return sums, bad


@_jit
def _add_rows(buf, i0, i1, w, j0, sums):
    """Add the rows ``i0:i1`` held in ``buf`` to ``sums[j0:j0 + w]`` one after the other (row 0 starts
    the sums), the order of ``np.add.reduce`` over axis 0, so the column sums keep its bits."""
    for i in range(i0, i1):
        k = (i - i0) * w
        if i == 0:
            for j in range(w):
                sums[j0 + j] = buf[k + j]
        else:
            for j in range(w):
                sums[j0 + j] = sums[j0 + j] + buf[k + j]


@_jit
def _colsum_block_curve(flat, d, s, root, limit, u_lo, iw, npc, mid, scale, use_w, coef, j0, j1, buf, sums):
    """:func:`_colsum_block_kernel` with the curve table: each row block (columns ``j0:j1``) goes
    through :func:`_curve_easy` row by row into ``buf``, then through :func:`_curve_fill` at once,
    then is added row after row (the order of ``np.add.reduce`` over axis 0)."""
    m = flat.size // d
    w = j1 - j0
    rows = buf.size // w
    kw = _leading_w(use_w)
    top = npc - 0.5
    kbuf = np.empty(buf.size, dtype=np.int32)
    tbuf = np.empty(buf.size)
    idx = np.empty(buf.size, dtype=np.int64)
    bad = 0
    for i0 in range(0, m, rows):
        i1 = min(m, i0 + rows)
        nh = 0
        for i in range(i0, i1):
            k = (i - i0) * w
            nbad, nrow = _curve_easy(flat[i * d + j0:i * d + j1], s, root, limit, buf[k:k + w])
            bad += nbad
            nh += nrow
        if bad:
            return bad                                    # the caller raises
        if nh > 0:
            _curve_fill(buf[:(i1 - i0) * w], nh, flat, i0 * d + j0, d, w, s, root, u_lo, iw, top, kw, coef,
                        kbuf, tbuf, idx)
        _add_rows(buf, i0, i1, w, j0, sums)
    return 0


@_jit
def _colsum_block(flat, d, s, root, limit, u_lo, iw, npc, mid, scale, use_w, coef, j0, j1, buf, sums):
    """Column sums over axis 0 of the terms of columns ``j0:j1``; returns the number of non-finite entries."""
    if npc > 0:
        return _colsum_block_curve(flat, d, s, root, limit, u_lo, iw, npc, mid, scale, use_w, coef, j0, j1, buf,
                                   sums)
    return _colsum_block_kernel(flat, d, s, root, limit, u_lo, iw, npc, mid, scale, use_w, coef, j0, j1, buf, sums)


# --------------------------------------------------------------------------- the estimator's curve

#: Pieces of the curve tables: width in U (a power of two) and polynomial degree; each piece is
#: fitted over its interval widened by CURVE_PAD on both sides, so that an entry whose rounded U
#: falls into the neighbouring piece is still inside the fitted range.
CURVE_WIDTH = 0.25
CURVE_DEGREE = 9
CURVE_PAD = 0.03125
#: beta range of the curve tables (outside it the per-entry kernel is used; see curve_table).
CURVE_BETA_MIN = 1e-8
CURVE_BETA_MAX = 1e8
#: Numbers per piece in the packed table: CURVE_DEGREE + 1 coefficients, the low part of the
#: constant term, the centre and the scale of the piece's variable.
CURVE_ROW = CURVE_DEGREE + 4


def _cheb_to_monomial(cheb):
    """Monomial coefficients of ``sum_j cheb[k, j] T_j(t)`` per row ``k`` (extended precision in, the
    constant term out as a double-double ``hi`` (column 0), ``lo`` (last column), the others rounded once)."""
    deg = cheb.shape[1] - 1
    T = [[1], [0, 1]]
    for j in range(2, deg + 1):
        up = [0] + [2 * c for c in T[j - 1]]
        T.append([u - (T[j - 2][i] if i < len(T[j - 2]) else 0) for i, u in enumerate(up)])
    M = np.zeros((deg + 1, deg + 1), dtype=np.longdouble)     # integers below 2^11: exact
    for j, row in enumerate(T):
        M[j, :len(row)] = row
    mono = np.einsum("kj,ji->ki", cheb, M)                    # in extended precision (64-bit mantissa)
    out = np.empty((cheb.shape[0], deg + 2))
    hi = mono[:, 0].astype(np.float64)
    out[:, 0] = hi
    out[:, 1:deg + 1] = mono[:, 1:].astype(np.float64)
    # the constant term dominates the value: its rounding would be the largest single error
    out[:, deg + 1] = (mono[:, 0] - hi.astype(np.longdouble)).astype(np.float64)
    return out


def _lstsq_chebyshev(t, v, deg):
    """Least-squares Chebyshev coefficients (degree ``deg``) of the rows of ``v`` at the rows of ``t``.

    Normal equations (the Chebyshev Vandermonde at near-Chebyshev points has condition about 1.4),
    formed and solved in extended precision: in float64 the sums ``V^T v`` of about 50 values near 1
    would put some 3e-16 of rounding into the constant term.
    """
    tl = t.astype(np.longdouble)
    T = np.empty(t.shape + (deg + 1,), dtype=np.longdouble)
    T[..., 0] = 1
    T[..., 1] = tl
    for j in range(2, deg + 1):
        T[..., j] = 2 * tl * T[..., j - 1] - T[..., j - 2]
    A = np.einsum("pni,pnj->pij", T, T)
    y = np.einsum("pni,pn->pi", T, v.astype(np.longdouble))
    n = deg + 1
    for i in range(n):                          # Gaussian elimination (symmetric positive definite)
        for r in range(i + 1, n):
            f = A[:, r, i] / A[:, i, i]
            A[:, r, i:] -= f[:, None] * A[:, i, i:]
            y[:, r] -= f * y[:, i]
    c = np.empty_like(y)
    for i in range(n - 1, -1, -1):
        c[:, i] = (y[:, i] - np.sum(A[:, i, i + 1:] * c[:, i + 1:], axis=1)) / A[:, i, i]
    return c


def _curve_table_uncached(beta):
    root = math.sqrt(beta)
    c = 1.0 / root
    u_lo = max(-INNER - 0.25, -root)        # U = -root is a = infinity (beta <= 81)
    u_hi = INNER + 0.25
    npc = int(math.ceil((u_hi - u_lo) / CURVE_WIDTH))
    deg = CURVE_DEGREE
    nodes = 4 * (deg + 1)
    tn = np.cos(np.pi * (np.arange(nodes) + 0.5) / nodes)
    mid = np.empty(npc)
    scale = np.empty(npc)
    use_w = np.zeros(npc)
    xs = np.empty((npc, nodes))
    for k in range(npc):
        u0 = u_lo + k * CURVE_WIDTH - CURVE_PAD
        u1 = u_lo + (k + 1) * CURVE_WIDTH + CURVE_PAD
        w0 = max(0.0, 1.0 + c * u0)             # w = r/a = 1 + c U
        w1 = 1.0 + c * u1
        if w0 <= 0.0 or w1 / w0 > 1.125:        # a spans a wide (or unbounded) range: w as variable
            use_w[k] = 1.0
            lo, hi = w0, w1
        else:
            lo, hi = _R / w1, _R / w0
        mid[k] = 0.5 * (lo + hi)
        scale[k] = 2.0 / (hi - lo)
        xs[k] = mid[k] + tn / scale[k]
    xs = np.where(use_w[:, None] == 1.0, np.maximum(xs, 1e-300), xs)
    a = np.where(use_w[:, None] == 1.0, _R / xs, xs)
    # the entries' own operations: b = |a| / root, the local variable from the rounded a
    b = a if root == 1.0 else a / root
    x = np.where(use_w[:, None] == 1.0, _R / a, a)
    t = (x - mid[:, None]) * scale[:, None]
    vals = ephi_array(a.ravel(), b.ravel()).reshape(a.shape)
    mono = _cheb_to_monomial(_lstsq_chebyshev(t, vals, deg))
    # one row of CURVE_ROW numbers a piece: the coefficients, the low part of the constant term, then
    # the piece's centre and scale, so that every read of an entry is at one offset of one array
    coef = np.concatenate([mono, mid[:, None], scale[:, None]], axis=1).ravel()
    # the kernel selects w or a by piece index (_leading_w): the w pieces must come first
    assert np.all(np.diff(use_w) <= 0.0), "the pieces using w are not a prefix"
    for arr in (mid, scale, use_w, coef):
        arr.flags.writeable = False          # shared by every call with this beta
    return u_lo, 1.0 / CURVE_WIDTH, npc, mid, scale, use_w, coef


_CURVE_CACHE = {}
_CURVE_LOCK = threading.Lock()


def curve_table(beta):
    """Piecewise polynomials of ``f(a) = E[phi(a + (a/sqrt(beta)) Z)]``, ``a > 0``, where the kernel is not a
    short expression (``|U| < 9``), or ``None`` outside ``[CURVE_BETA_MIN, CURVE_BETA_MAX]``.

    The estimator's terms lie on one curve per ``beta`` (``b = |a|/sqrt(beta)``): with
    ``c = 1/sqrt(beta)``, ``U = (r - a)/b = (r/a - 1)/c``, so ``|U| < 9`` is the interval
    ``U in (-min(9, sqrt(beta)), 9)``, ``a = r/(1 + c U)``.  It is cut into pieces of width 1/4 in
    ``U``; on each the value is a polynomial of degree 9 in ``t``, an affine image of ``a`` (or of
    ``w = r/a`` where ``a`` spans more than a factor 1.125, up to ``a = infinity``), fitted by least
    squares through 40 values of :func:`ephi` at Chebyshev points (40 per piece, 1,500 to 3,000 per
    ``beta``; the fit averages their last-ulp errors) and converted to monomials exactly.  ``t`` is
    computed from ``a`` with one subtraction of nearby numbers and one product, so the rounding of
    ``U`` only chooses the piece (the pieces overlap by 1/32 in ``U``).  Degree 9 on width 1/4
    (since issue 17's third pass; degree 12 on width 1/2 before): 13 numbers a piece instead of 16,
    21 operations instead of 27, at most 3.1e-16 against mpmath instead of 1.8e-16 on the same kind
    of points (degree 8 on width 1/4 or 1/8 measured 6e-15 and 1.6e-15: too few).  The error against mpmath
    is checked in ``tests/test_catoni_curve.py``.  Cached per ``beta`` (64 entries).
    """
    beta = float(beta)
    if not CURVE_BETA_MIN <= beta <= CURVE_BETA_MAX:
        return None
    tab = _CURVE_CACHE.get(beta)
    if tab is None:
        tab = _curve_table_uncached(beta)        # deterministic: a race only builds it twice
        with _CURVE_LOCK:
            if len(_CURVE_CACHE) >= 64:
                _CURVE_CACHE.pop(next(iter(_CURVE_CACHE)))
            tab = _CURVE_CACHE.setdefault(beta, tab)
    return tab


assert CURVE_DEGREE == 9 and CURVE_ROW == 13, "_curve_fill is written out for degree 9 (13 numbers a piece)"


@_jit_inline
def _curve_easy(x, s, root, limit, out):
    """First pass over entries, without branches (it vectorises): the value where it is a short
    expression (the limit beyond 1e300, ``phi(a) = a`` where ``b`` underflowed to 0), NaN where it
    comes from the curve table (or where ``x`` is not finite).  Returns (non-finite entries, NaN entries)."""
    bad = 0
    nh = 0
    for i in range(x.size):
        xi = x[i]
        a = xi / s
        aa = abs(a)
        b = aa if root == 1.0 else aa / root              # |a| / 1.0 is |a|: the same bits
        val = _easy(a, b)
        # b = 0 with a != 0 only where |a|/root underflows (|a| < 5e-320): a^3 is 0, phi(a) = a exactly
        val = val if b != 0.0 else (-aa if a < 0.0 else aa)
        lim = limit if xi > 0.0 else -limit
        lim = lim if math.isfinite(xi) else math.nan
        bad += 0 if math.isfinite(xi) else 1
        val = val if (aa <= 1e300 and b <= 1e300) else lim    # False for inf and NaN as well
        nh += 1 if math.isnan(val) else 0
        out[i] = val
    return bad, nh


@_jit_inline
def _curve_piece(xi, s, root, u_lo, iw, top, kw):
    """The piece of the entry ``xi`` as its offset ``CURVE_ROW k`` in the packed table, and the piece's
    variable (``w = r/a`` in the first ``kw`` pieces, else ``|a|``) with the sign of ``a``."""
    a = xi / s
    aa = abs(a)
    w = _R / aa
    # the piece only: U = (r/a - 1) sqrt(beta) up to a few ulps (the pieces overlap by CURVE_PAD)
    u = ((w - 1.0) * root - u_lo) * iw
    uc = u if u < top else top                            # NaN -> the last piece (then discarded)
    uc = uc if uc > 0.0 else 0.0
    kf = math.floor(uc)
    xv = w if kf < kw else aa
    return _to_i32(kf * CURVE_ROW), (-xv if a < 0.0 else xv)   # double -> int32 vectorises (AVX2)


@_jit_inline
def _curve_pieces(x, s, root, u_lo, iw, top, kw, kbuf, tbuf):
    """:func:`_curve_piece` of every entry (no branches: it vectorises)."""
    for i in range(x.size):
        c, tv = _curve_piece(x[i], s, root, u_lo, iw, top, kw)
        kbuf[i] = c
        tbuf[i] = tv


@_jit_inline
def _curve_poly(coef, c, tv):
    """The table's value at the signed variable ``tv`` of an entry in the piece at offset ``c``."""
    t = (abs(tv) - coef[c + 11]) * coef[c + 12]
    # Estrin's scheme (short dependency chains), the constant term coef[c] (+ coef[c + 10], its
    # low part) added last: it dominates the value, so the result is rounded about once
    t2 = t * t
    t4 = t2 * t2
    q0 = coef[c + 10] + coef[c + 1] * t
    q2 = coef[c + 2] + coef[c + 3] * t
    q4 = coef[c + 4] + coef[c + 5] * t
    q6 = coef[c + 6] + coef[c + 7] * t
    q8 = coef[c + 8] + coef[c + 9] * t
    r0 = q0 + q2 * t2
    r4 = q4 + q6 * t2 + q8 * t4
    val = coef[c] + (r0 + r4 * t4)
    val = val if val <= _B else _B
    val = val if val >= 0.0 else 0.0
    return -val if tv < 0.0 else val


@_jit_inline
def _curve_fill(out, nh, flat, base, d, w, s, root, u_lo, iw, top, kw, coef, kbuf, tbuf, idx):
    """Second pass: the ``nh`` entries left NaN by :func:`_curve_easy` in ``out`` (rows of ``w``
    entries; the entry ``p`` is ``flat[base + (p // w) d + p % w]``) from the table, signed, in [-B, B].

    No branch depends on the data.  Where a quarter of the entries or more need the table, the pieces of
    every entry are computed in a vectorised pass, then the polynomial runs over every entry and the
    result is selected; otherwise the entries are listed (a store at every entry, the count advanced
    by 0 or 1) and evaluated one by one (a long dependency chain each: about 27 ns an entry against
    7.5 ns for the dense passes over every entry, hence the switch at a quarter).  The table
    reads are scalar loads (numba does not vectorise gathers here; a copy into a structure of arrays
    for a vectorised polynomial measured slower).  The dense path keeps the piece pass apart from
    the polynomial because one chain per entry (two divisions, the piece, the reads, the polynomial)
    left the out-of-order window too few entries to overlap (12.9 ns an entry in one loop, one thread).
    """
    n = out.size
    if 4 * nh >= n:
        for r in range(n // w):
            _curve_pieces(flat[base + r * d:base + r * d + w], s, root, u_lo, iw, top, kw,
                          kbuf[r * w:(r + 1) * w], tbuf[r * w:(r + 1) * w])
        for p in range(n):
            c = kbuf[p]
            hard = math.isnan(out[p])
            # the other entries evaluate at the piece's centre (t = 0): garbage far outside the
            # piece would make the clamps to [0, B] mispredicted branches
            val = _curve_poly(coef, c, tbuf[p] if hard else coef[c + 11])
            out[p] = val if hard else out[p]
        return
    # the list: each entry's place in out and its x (copied, so that no division finds it again)
    nh = 0
    for r in range(n // w):
        for j in range(w):
            p = r * w + j
            idx[nh] = p
            tbuf[nh] = flat[base + r * d + j]
            nh += 1 if math.isnan(out[p]) else 0
    for q in range(nh):
        c, tv = _curve_piece(tbuf[q], s, root, u_lo, iw, top, kw)
        out[idx[q]] = _curve_poly(coef, c, tv)


@_jit_inline
def _leading_w(use_w):
    """Number of pieces using ``w = r/a`` as variable (a prefix of the pieces, see :func:`curve_table`)."""
    kw = 0
    for k in range(use_w.size):
        kw += 1 if (use_w[k] == 1.0 and kw == k) else 0
    return float(kw)


#: Entries per pass of the curve loops (the scratch arrays stay in L1/L2).
_CURVE_BLOCK = 4096


@_jit
def _terms_loop_curve(x, s, root, limit, u_lo, iw, npc, mid, scale, use_w, coef, out):
    """:func:`_terms_loop` with the curve table instead of the per-entry kernel where ``|U| < 9``,
    in passes over blocks of entries (:func:`_curve_easy`, :func:`_curve_fill`)."""
    kw = _leading_w(use_w)
    top = npc - 0.5
    nb = min(x.size, _CURVE_BLOCK)
    kbuf = np.empty(nb, dtype=np.int32)
    tbuf = np.empty(nb)
    idx = np.empty(nb, dtype=np.int64)
    bad = 0
    for i0 in range(0, x.size, nb):
        i1 = min(x.size, i0 + nb)
        nbad, nh = _curve_easy(x[i0:i1], s, root, limit, out[i0:i1])
        bad += nbad
        if bad == 0 and nh > 0:                           # else the caller raises, or nothing to do
            _curve_fill(out[i0:i1], nh, x, i0, i1 - i0, i1 - i0, s, root, u_lo, iw, top, kw, coef, kbuf, tbuf, idx)
    return bad


@_jit
def _terms_any(x, s, root, limit, u_lo, iw, npc, mid, scale, use_w, coef, out):
    """:func:`_terms_loop_curve` when there is a curve table (``npc > 0``), else :func:`_terms_loop`."""
    if npc > 0:
        return _terms_loop_curve(x, s, root, limit, u_lo, iw, npc, mid, scale, use_w, coef, out)
    return _terms_loop(x, s, root, limit, out)


#: Entries below which the serial loop is used (thread start-up costs more than it saves).
_PARALLEL_MIN = 1 << 14
_CHUNK = 1 << 13


def ephi_array(a, b):
    """:func:`ephi` on two 1-d float64 arrays of equal length (no checks)."""
    a = np.ascontiguousarray(a, dtype=np.float64)
    b = np.ascontiguousarray(b, dtype=np.float64)
    out = np.empty(a.shape)
    if HAVE_NUMBA and a.size >= _PARALLEL_MIN:
        _ephi_par(a, b, out, _CHUNK)
    else:
        _ephi_loop(a, b, out)
    return out


_NO_TABLE_ARRAY = np.zeros(1)
# read-only like the tables' arrays, so both cases share one compiled specialisation of each kernel
# (numba types a read-only array apart from a writable one: with a writable placeholder every kernel
# compiled twice, about 25 s of CPU more in a process with an empty numba cache)
_NO_TABLE_ARRAY.flags.writeable = False


def _table_args(beta):
    """The curve table of ``beta`` as kernel arguments (``npc = 0``: none, the per-entry kernel)."""
    tab = curve_table(beta)
    if tab is None:
        z = _NO_TABLE_ARRAY
        return 0.0, 1.0, 0, z, z, z, z
    return tab


def standard_terms(x, s, beta):
    """Per-sample ``E[phi(a + bZ)]``, ``a = x/s``, ``b = |a|/sqrt(beta)``, for a float64 array ``x``.

    Returns ``(terms, n_bad)`` with ``n_bad`` the number of non-finite entries of ``x`` (the caller
    raises).  Where ``|a|`` or ``b`` exceeds 1e300 or overflows, the limit
    ``sign(x) B erf(sqrt(beta/2))`` is used (see :func:`reference.hu.catoni.robust_mean`).  Where
    ``|U| < 9`` the value comes from the curve table of ``beta`` (:func:`curve_table`) when there
    is one, else from :func:`ephi`; elsewhere it is :func:`ephi`'s short expression.
    """
    root = math.sqrt(beta)
    limit = PHI_BOUND * math.erf(root / _R)
    tab = _table_args(beta)
    flat = np.ascontiguousarray(x, dtype=np.float64).ravel()
    out = np.empty(flat.shape)
    if HAVE_NUMBA and flat.size >= _PARALLEL_MIN:
        bad = _terms_par(flat, float(s), root, limit, *tab, out, _CHUNK)
    else:
        bad = _terms_any(flat, float(s), root, limit, *tab, out)
    return out.reshape(np.shape(x)), int(bad)


def standard_column_sums(x, s, beta):
    """Column sums over axis 0 of the per-sample terms of a C-contiguous 2-d float64 ``x``.

    The same values, added in the same order, as ``np.add.reduce(standard_terms(x)[0], axis=0)``
    (row after row), without materialising the terms.  Returns ``(sums, n_bad)``.
    """
    root = math.sqrt(beta)
    limit = PHI_BOUND * math.erf(root / _R)
    tab = _table_args(beta)
    m, d = x.shape
    # column blocks: one per thread at least, at most 64 columns; the row-block buffer stays in L1/L2
    threads = numba.get_num_threads() if HAVE_NUMBA else 1
    width = max(1, min(64, -(-d // max(1, threads))))
    buf_size = width * max(1, 4096 // width)
    if HAVE_NUMBA and x.size >= _PARALLEL_MIN:
        sums, bad = _colsum_par(x.reshape(-1), d, float(s), root, limit, *tab, width, buf_size)
    else:
        # Below _PARALLEL_MIN entries the thread start-up costs more than the work (a (4, 8) array: 88 us of CPU
        # in parallel against 7.5 us serial on 2 loaded cores; (64, 64): 6.6 ms against 0.09 ms), as for the
        # other kernels.  Each column is summed row after row in either path, so the bits do not depend on it.
        sums, bad = _colsum_serial(x.reshape(-1), d, float(s), root, limit, *tab, width, buf_size)
    return sums, int(bad)
