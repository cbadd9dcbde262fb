"""Constants and special functions of the kernel of ``E[phi(a + b Z)]`` (:mod:`reference.hu._ephi_kernel`).

``erfcx(x/sqrt 2)`` (the Mills ratio, for the Gaussian tail masses ``Q(x) = exp(-x^2/2) erfcx(x/sqrt 2)/2``)
and ``J_k(x) = E[(Z - x)_+^k]`` for ``k = 2, 3`` (the truncated moments of the band formula) from tables
of polynomial pieces computed in mpmath (``reference/hu/_mills_table.py``, written by
``python -m proofs_checks.formulas.mills_table``): no exponential, no ``erfc``.  The other special
functions of the kernel are scipy's ``erf`` (through ``scipy.special.cython_special``,
:mod:`reference.hu._ephi_numba`) and the C library's ``exp``, ``expm1`` and ``pow``.

References
----------
.. [1] L. Hu, S. Ni, H. Xiao and D. Wang, ``002_6c597657f27a60c9.txt``: [002 eq. (2)] (phi and its bound
       ``B = 2 sqrt(2)/3``), [002 eq. (5)] (the identity whose Gaussian terms these functions evaluate).
"""

from __future__ import annotations

import math

import numpy as np

from . import _mills_table
from ._ephi_numba import _jit, _jit_inline

__all__ = ["PHI_BOUND"]

#: sup |phi| = 2 sqrt(2)/3.
PHI_BOUND = 2.0 * math.sqrt(2.0) / 3.0
_R = math.sqrt(2.0)
_B = PHI_BOUND
_INV_SQRT2PI = 1.0 / math.sqrt(2.0 * math.pi)

# the tables of _mills_table.py: numba freezes them into the compiled code (a file of the kernel group)
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
    uc = u if u < _J_UMAX else _J_UMAX  # also NaN -> the last piece
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
