"""``s^theta`` for ``s in [0, 1]`` and ``theta in (1, 2]`` with ``+ - * /`` and bit operations only.

The exponential-mechanism kernel of [000 Alg. 1-2] needs ``q(s) = 1 - s + s^theta / theta``
([000 eq. (16)]) for every (record, net point) pair.  The C library's ``pow`` costs one call per pair
and stops LLVM from vectorising the loop (this numba has no SVML); :func:`pow_unit` is written so the
loop vectorises (selects, integer adds and shifts on the int64 view of the float64, a division and
two Horner polynomials), and :func:`pow_unit_numpy` performs the same operations in the same order with
numpy (the same bits; no fused multiply-add on either side).  The code and its constants live in
:mod:`reference.wang_xu._score_kernel`, beside the kernel that inlines :func:`pow_unit`: numba's on-disk
cache does not notice edits to another file, and the kernel kept a stale ``pow_unit`` when it lived here.
This module holds the algorithm, the error bound with its proof, and the checked array entry points.

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
and the Estrin sum of positive terms with ``w <= 0.02944`` (at most 6 roundings on any path) err by
at most ``6.01 u R <= 6.01 u 0.0203``, times ``|z'|``: ``0.021 u``; the product ``z' R`` rounds by
``u 0.1716 0.0203 <= 0.004 u``; the sum ``2 z' + z' R`` by ``u |L| <= 0.347 u``
(``|log m| <= log(2) / 2``).  So ``|L - log m| <= 1.09 u``.
(d) ``G = fl(c L)``: ``c <= 2 / log 2 <= 2.886``; ``|G - theta log2 m| <= 2.886 1.09 u`` (from ``L``)
``+ u 2.886 0.3466`` (from ``c``) ``+ u 1.0001`` (the product's rounding, ``|G| <= 1``) ``<= 5.15 u``.
(e) ``theta_lo k`` is at most ``2^-40 1076 < 1e-9`` and rounds by ``< 1e-9 u``; ``B = fl(theta_lo k + G)``
rounds by ``u |B| <= 1.0001 u``; ``f = fl((A - N) + B)`` by ``u |f| <= 0.5001 u``.  Hence
``|f - (y - N)| <= 6.66 u`` and ``2^f`` carries a relative error of at most ``log(2) 6.66 u (1 + 1e-15)
<= 4.62 u``.  (f) ``P``: fit error ``|P / 2^x - 1| <= 0.18 u`` (1.26e-17 before and 1.97e-17 after
rounding the coefficients to float64; measured against mpmath on 1,001 points, not proven);
evaluating ``Q`` (decreasing coefficients, ``|x| <= 1/2``; the Estrin tail ``T <= 0.0112`` errs by at
most ``6.01 u T``, damped by ``|f|^3 <= 1/8``; the three Horner steps above it as in Horner's bound)
errs by at most ``1.16 u`` absolute, ``f Q`` then by ``0.5 1.16 u + u |f Q|``, ``1 + f Q`` by ``u |P|``:
relative to ``P >= 0.707`` at most ``(0.58 + 0.293 + 0.707) / 0.707 u <= 2.24 u`` at ``f = -1/2`` and
``(0.58 + 0.414 + 1.415) / 1.415 u <= 1.71 u`` at ``f = 1/2``.  (g) The scaling is exact unless the
result is subnormal (one rounding, ``<= 2^-1075``).  Total: ``(1 + 4.62 u)(1 + 0.18 u)(1 + 2.24 u) - 1
<= 7.05 u < 8 u``.
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

import numpy as np

from ._score_kernel import (  # noqa: F401  (_LG1.._LG7, _Q, _Q0: re-exported for the tests)
    _LG1,
    _LG2,
    _LG3,
    _LG4,
    _LG5,
    _LG6,
    _LG7,
    _Q,
    _Q0,
    HAVE_NUMBA,
    POW_REL_ERROR,
    _pow_loop,
    _pow_np,
    pow_constants,
    pow_unit,
)

__all__ = ["POW_REL_ERROR", "pow_constants", "pow_unit", "pow_unit_numpy", "pow_unit_compiled"]


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
