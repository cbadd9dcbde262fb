"""``s^theta`` for ``s in [0, 1]`` and ``theta in (1, 2]`` with ``+ - * /`` and bit operations only.

The exponential-mechanism kernel of [000 Alg. 1-2] needs ``q(s) = 1 - s + s^theta / theta``
([000 eq. (16)]) for every (record, net point) pair.  The C library's ``pow`` costs one call per pair
and stops LLVM from vectorising the loop (this numba has no SVML); :func:`pow_unit` is written so the
loop vectorises (selects, integer adds and shifts on the int64 view of the float64, a division and
two Horner polynomials), and :func:`pow_unit_numpy` performs the same operations in the same order with
numpy (the same bits; no fused multiply-add on either side).

Algorithm (``u = 2^-53``)
-------------------------
1. Subnormal ``s`` is multiplied by ``2^54`` (exact) and ``k`` lowered by 54.
2. ``s = 2^k m`` with ``m in [sqrt(1/2), sqrt(2))``: integer operations on the bits (musl's ``log``
   reduction): ``t = bits(s) - bits(sqrt(1/2)) + 2^62``, ``k = (t >> 52) - 1024``,
   ``bits(m) = bits(s) - (t & 0x7ff << 52) + 2^62``; ``k`` becomes a float by the ``2^52`` trick.
   Both are exact.
3. ``log m = 2 atanh z``, ``z = F / (2 + F)``, ``F = m - 1`` (exact, Sterbenz), ``|z| <= 0.17158``:
   ``L = 2 z + z R(z^2)`` with fdlibm's ``e_log.c`` polynomial ``R = Lg1 w + ... + Lg7 w^7``
   (``|R(z^2) - (2 atanh z - 2 z) / z| <= 2^-58.45`` on that range, checked against mpmath in the tests).
4. ``y = theta log2 s = theta k + theta log2 m`` in two parts: ``A = theta_hi k`` exact (``theta_hi`` is
   ``theta`` cut to 41 significant bits, ``|k| <= 1076 < 2^11``), ``B = theta_lo k + c L`` with
   ``c = theta / log 2`` correctly rounded.  ``N`` = the integer nearest ``A + B`` (by adding and
   subtracting ``1.5 2^52``), ``f = (A - N) + B`` with ``A - N`` exact, ``|f| <= 1/2 + 2.4e-13``.
5. ``2^f = 1 + f Q(f)``, ``Q`` of degree 10, a Chebyshev fit (mpmath ``chebyfit``, 50 digits) of
   ``(2^x - 1) / x`` on ``[-1/2 - 1e-12, 1/2 + 1e-12]``; ``P(0) = 1`` exactly, so ``1^theta = 1``.
6. ``s^theta = 2^f 2^(N' + 540) 2^-540``, ``N' = max(N, -1100)``, the first factor built from bits
   (``(N' + 540 + 1023) << 52``, a normal number), the first product exact, the second rounding only
   when the result is subnormal.  ``N < -1100`` means ``s^theta < 2^-1099.5``, which rounds to 0 (as
   it must); ``s = 0`` gives 0 by a final select.

Error bound (proof note)
------------------------
Claim: for ``s in [0, 1]`` and ``theta in (1, 2]``, ``|pow_unit(s) - s^theta| <= POW_REL_ERROR s^theta
+ 2^-1075`` with ``POW_REL_ERROR = 8 u``; the absolute term is only the rounding of a subnormal result.

Write ``gamma_2 = 2u / (1 - 2u)``.  (a) ``D = fl(2 + F)``, ``z' = fl(F / D)``: ``|z' - z| <= gamma_2 |z|``.
``2 atanh`` has slope ``2 / (1 - z^2) <= 2.061``: ``|2 atanh z' - log m| <= 2.061 gamma_2 0.17158 <=
0.708 u``.  (b) The polynomial: ``|z'| 2^-58.45 <= 0.004 u``.  (c) Its evaluation: ``w = fl(z'^2)``
and the Horner sum of positive terms with ``w <= 0.02944`` err by at most ``4 u R <= 4 u 0.0203``,
times ``|z'|``: ``0.014 u``; the product ``z' R`` rounds by ``u 0.1716 0.0203 <= 0.004 u``; the sum
``2 z' + z' R`` by ``u |L| <= 0.347 u`` (``|log m| <= log(2) / 2``).  So ``|L - log m| <= 1.08 u``.
(d) ``G = fl(c L)``: ``c <= 2 / log 2 <= 2.886``; ``|G - theta log2 m| <= 2.886 1.08 u`` (from ``L``)
``+ u 2.886 0.3466`` (from ``c``) ``+ u 1.0001`` (the product's rounding, ``|G| <= 1``) ``<= 5.12 u``.
(e) ``theta_lo k`` is at most ``2^-40 1076 < 1e-9`` and rounds by ``< 1e-9 u``; ``B = fl(theta_lo k + G)``
rounds by ``u |B| <= 1.0001 u``; ``f = fl((A - N) + B)`` by ``u |f| <= 0.5001 u``.  Hence
``|f - (y - N)| <= 6.63 u`` and ``2^f`` carries a relative error of at most ``log(2) 6.63 u (1 + 1e-15)
<= 4.60 u``.  (f) ``P``: fit error ``|P / 2^x - 1| <= 0.18 u`` (1.26e-17 before and 1.97e-17 after
rounding the coefficients to float64; measured against mpmath on 1,001 points, not proven);
evaluating ``Q`` by Horner (decreasing coefficients, ``|x| <= 1/2``) errs by at most ``1.15 u``
absolute, ``f Q`` then by ``0.5 1.15 u + u |f Q|``, ``1 + f Q`` by ``u |P|``: relative to ``P >= 0.707``
at most ``(0.575 + 0.293 + 0.707) / 0.707 u <= 2.23 u`` at ``f = -1/2`` and ``(0.575 + 0.414 + 1.415) /
1.415 u <= 1.70 u`` at ``f = 1/2``.  (g) The scaling is exact unless the result is subnormal
(one rounding, ``<= 2^-1075``).  Total: ``(1 + 4.60 u)(1 + 0.18 u)(1 + 2.23 u) - 1 <= 7.02 u < 8 u``.
The tests measure the largest error against mpmath (50 digits) on dense grids, random points and the
edge cases for theta = 1.01, 1.1, 1.3, 1.5, 1.7, 1.99, 2 (1.65 to 2.49 ``u`` on 4,000 points per theta,
well inside ``8 u``: the proof adds worst cases that do not meet) and show that a perturbed
coefficient, a dropped ``theta_lo`` or an output off by ``9 u`` breaks the bound.

References
----------
.. [1] D. Wang and J. Xu, ``000_e64de114947d2122.txt``: [000 eq. (16)], [000 Alg. 1-2].
.. [2] fdlibm ``e_log.c`` (Sun Microsystems, 1993): the coefficients ``Lg1..Lg7`` and their error bound.
.. [3] musl ``src/math/log.c``: the exponent/mantissa split about ``sqrt(1/2)``.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

try:  # pragma: no cover - exercised by whichever environment runs the tests
    import numba
    from llvmlite import ir as _ir
    from numba.core import types as _types
    from numba.extending import intrinsic as _intrinsic

    HAVE_NUMBA = not numba.config.DISABLE_JIT
except ImportError:  # pragma: no cover
    numba = None
    HAVE_NUMBA = False

__all__ = ["POW_REL_ERROR", "pow_constants", "pow_unit", "pow_unit_numpy", "pow_unit_compiled"]

#: Relative error bound of :func:`pow_unit` (plus ``2^-1075`` absolute for a subnormal result).
POW_REL_ERROR = 8.0 * 2.0 ** -53

_LN2 = Fraction("0.69314718055994530941723212145817656807550013436026")   # 50 digits
_OFF = 0x3FE6A09E667F3BCD                      # bits of sqrt(1/2) (rounded down)
_BIAS = 1 << 62                                # keeps bits(s) - _OFF positive (logical shift = arithmetic)
_HIGH = 0x7FF << 52                           # exponent field (t < 2^63: bit 63 is clear)
_TWO52 = 0x4330000000000000                    # bits of 2^52
_SHIFT = 6755399441055744.0                    # 1.5 2^52: x + _SHIFT - _SHIFT rounds x to an integer
_SHIFT_SCALE = _SHIFT + 540.0                  # exact (ulp 1 at 1.5 2^52)
_SHIFT_BITS = 0x4338000000000000               # bits of _SHIFT
_SUB = 2.0 ** -1022
_TWO54 = 2.0 ** 54
_TWO_M540 = 2.0 ** -540
_NMIN = -1100.0

# fdlibm e_log.c: R(w) = Lg1 w + ... + Lg7 w^7, |R(z^2) - (log((1+z)/(1-z)) - 2z)/z| <= 2^-58.45, |z| <= 0.1716
_LG1 = 6.666666666666735130e-01
_LG2 = 3.999999999940941908e-01
_LG3 = 2.857142874366239149e-01
_LG4 = 2.222219843214978396e-01
_LG5 = 1.818357216161805012e-01
_LG6 = 1.531383769920937332e-01
_LG7 = 1.479819860511658591e-01

# (2^x - 1)/x on [-1/2 - 1e-12, 1/2 + 1e-12], mpmath.chebyfit at 50 digits, degree 10, highest first;
# max fit error 1.26e-17 (before rounding to float64)
_Q = (float.fromhex("0x1.e9d3fe39521c2p-32"), float.fromhex("0x1.e6063f7217c1cp-28"),
      float.fromhex("0x1.b524fae627834p-24"), float.fromhex("0x1.62bfd47773353p-20"),
      float.fromhex("0x1.ffcbfc670dcd4p-17"), float.fromhex("0x1.430913096fd9fp-13"),
      float.fromhex("0x1.5d87fe78a5276p-10"), float.fromhex("0x1.3b2ab6fba1ddap-7"),
      float.fromhex("0x1.c6b08d704a0c2p-5"), float.fromhex("0x1.ebfbdff82c598p-3"),
      float.fromhex("0x1.62e42fefa39efp-1"))
(_Q10, _Q9, _Q8, _Q7, _Q6, _Q5, _Q4, _Q3, _Q2, _Q1, _Q0) = _Q


def pow_constants(theta):
    """``(theta_hi, theta_lo, c)`` of step 4: ``theta`` cut to 41 bits, the rest, ``theta / log 2`` rounded once.

    Raises ``ValueError`` unless ``1 < theta <= 2`` (the range of [000 Alg. 2]; ``theta = 1`` would be ``s``).
    """
    if isinstance(theta, (bool, np.bool_)) or not isinstance(theta, (int, float, np.integer, np.floating)):
        raise TypeError(f"theta must be a real number, got {theta!r}")
    theta = float(theta)
    if not 1.0 < theta <= 2.0:
        raise ValueError(f"theta must lie in (1, 2], got {theta!r}")
    # clear the low 12 of 52 fraction bits: 41 significant bits, so theta_hi k is exact for |k| < 2^11
    hi = float((np.float64(theta).view(np.int64) & np.int64(~0xFFF)).view(np.float64))
    return hi, theta - hi, float(Fraction(theta) / _LN2)


if HAVE_NUMBA:
    @_intrinsic
    def _f2i(typingctx, x):
        """The bits of a float64 as an int64 (LLVM bitcast; vectorises)."""
        if x != _types.float64:
            return None

        def codegen(context, builder, signature, args):
            return builder.bitcast(args[0], _ir.IntType(64))
        return _types.int64(_types.float64), codegen

    @_intrinsic
    def _i2f(typingctx, x):
        """The float64 with the bits of an int64 (LLVM bitcast; vectorises)."""
        if x != _types.int64:
            return None

        def codegen(context, builder, signature, args):
            return builder.bitcast(args[0], _ir.DoubleType())
        return _types.float64(_types.int64), codegen

    @numba.njit(cache=True, nogil=True, error_model="numpy")
    def pow_unit(s, theta_hi, theta_lo, c):
        """``s^theta`` for ``s in [0, 1]`` (scalar, inlined into vectorised loops); see the module notes."""
        sub = s < _SUB
        s2 = s * _TWO54 if sub else s
        ix = _f2i(s2)
        tt = ix - _OFF + _BIAS
        kb = (tt >> 52) & 0xFFF
        kf = (_i2f(kb | _TWO52) - 4503599627370496.0) - 1024.0      # 2^52 + k + 1024 - 2^52 - 1024, exact
        kf = kf - 54.0 if sub else kf
        m = _i2f(ix - (tt & _HIGH) + _BIAS)
        F = m - 1.0
        z = F / (2.0 + F)
        w = z * z
        R = w * (_LG1 + w * (_LG2 + w * (_LG3 + w * (_LG4 + w * (_LG5 + w * (_LG6 + w * _LG7))))))
        L = 2.0 * z + z * R
        A = theta_hi * kf
        B = theta_lo * kf + c * L
        kx = (A + B) + _SHIFT
        N = kx - _SHIFT
        f = (A - N) + B
        Qf = _Q0 + f * (_Q1 + f * (_Q2 + f * (_Q3 + f * (_Q4 + f * (_Q5 + f * (_Q6 + f * (_Q7 + f * (
            _Q8 + f * (_Q9 + f * _Q10)))))))))
        p = 1.0 + f * Qf
        Nc = N if N > _NMIN else _NMIN
        scale = _i2f(((_f2i(Nc + _SHIFT_SCALE) - _SHIFT_BITS) + 1023) << 52)
        out = (p * scale) * _TWO_M540
        return out if s > 0.0 else 0.0

    @numba.njit(cache=True, nogil=True, error_model="numpy")
    def _pow_loop(s, theta_hi, theta_lo, c, out):
        for i in range(s.shape[0]):
            out[i] = pow_unit(s[i], theta_hi, theta_lo, c)
else:  # pragma: no cover
    pow_unit = None
    _pow_loop = None


def pow_unit_numpy(s, theta):
    """``s^theta`` (elementwise, ``s`` in ``[0, 1]``) by the operations of :func:`pow_unit`, in numpy.

    Examples
    --------
    >>> import numpy as np
    >>> pow_unit_numpy(np.array([0.0, 0.25, 1.0]), 1.5).tolist()
    [0.0, 0.125, 1.0]
    """
    s = _check_unit(s)
    return _pow_np(s, *pow_constants(theta))


def _check_unit(s):
    s = np.asarray(s)
    if s.dtype.kind not in "fiu":
        raise TypeError(f"s must be a real float array, got dtype {s.dtype}")
    s = s.astype(np.float64, copy=False)
    if s.size and not (np.all(s >= 0.0) and np.all(s <= 1.0)):
        bad = s[~((s >= 0.0) & (s <= 1.0))].ravel()[0]
        raise ValueError(f"s must lie in [0, 1], got {bad!r}")
    return s


def _pow_np(s, theta_hi, theta_lo, c):
    """The body of :func:`pow_unit_numpy` on a float64 array already in [0, 1] (no checks)."""
    sub = s < _SUB
    s2 = np.where(sub, s * _TWO54, s)
    ix = s2.view(np.int64)
    tt = ix - np.int64(_OFF) + np.int64(_BIAS)
    kb = (tt >> 52) & 0xFFF
    kf = ((kb | np.int64(_TWO52)).view(np.float64) - 4503599627370496.0) - 1024.0
    kf = np.where(sub, kf - 54.0, kf)
    m = (ix - (tt & np.int64(_HIGH)) + np.int64(_BIAS)).view(np.float64)
    F = m - 1.0
    z = F / (2.0 + F)
    w = z * z
    R = w * (_LG1 + w * (_LG2 + w * (_LG3 + w * (_LG4 + w * (_LG5 + w * (_LG6 + w * _LG7))))))
    L = 2.0 * z + z * R
    A = theta_hi * kf
    B = theta_lo * kf + c * L
    kx = (A + B) + _SHIFT
    N = kx - _SHIFT
    f = (A - N) + B
    Qf = _Q0 + f * (_Q1 + f * (_Q2 + f * (_Q3 + f * (_Q4 + f * (_Q5 + f * (_Q6 + f * (_Q7 + f * (
        _Q8 + f * (_Q9 + f * _Q10)))))))))
    p = 1.0 + f * Qf
    Nc = np.where(N > _NMIN, N, _NMIN)
    scale = ((((Nc + _SHIFT_SCALE).view(np.int64) - np.int64(_SHIFT_BITS)) + 1023) << 52).view(np.float64)
    with np.errstate(under="ignore"):
        out = (p * scale) * _TWO_M540
    return np.where(s > 0.0, out, 0.0)


def pow_unit_compiled(s, theta):
    """:func:`pow_unit` over a float64 array (compiled loop; :func:`pow_unit_numpy` without numba)."""
    s = np.ascontiguousarray(_check_unit(s))
    if not HAVE_NUMBA:  # pragma: no cover
        return pow_unit_numpy(s, theta)
    th, tl, c = pow_constants(theta)
    flat = s.ravel()
    out = np.empty(flat.shape)
    _pow_loop(flat, th, tl, c, out)
    return out.reshape(s.shape)
