"""The curve tables of the estimator's terms: piecewise polynomials of ``a -> E[phi(a + (a/sqrt(beta)) Z)]``
fitted through the scalar kernel, one table per ``beta`` (:func:`curve_table`).

The estimator's terms (:func:`reference.hu._ephi_kernel.standard_terms`,
:func:`reference.hu._ephi_kernel.standard_column_sums`) have ``b = |a|/sqrt(beta)``: they lie on one curve
per ``beta``, and where ``|U| < 9`` the compiled passes of :mod:`reference.hu._ephi_curve` read them from
piecewise polynomials of that curve (fitted in extended precision through values of
:func:`reference.hu._ephi_regions.ephi`, cached per ``beta``) instead of the per-entry special functions:
the ``b >= 1`` series costs an ``erf``, an ``exp`` and up to 19 terms, the band two table look-ups, the
curve one look-up and a degree-9 polynomial whatever the region.  Measured against mpmath the curve's
error is below 3.2e-16 (``tests/test_catoni_curve.py`` checks 6e-16 at 9 values of ``beta`` from 1e-8 to
1e8).  The tables use ``numpy.longdouble`` (80-bit on x86-64) for the fit; on a platform where it is
float64 the fit is less accurate (the test would say so).  This module is plain numpy (nothing of it is
compiled): the layout of the packed table it writes is fixed by :mod:`reference.hu._ephi_curve`.

References
----------
.. [1] L. Hu, S. Ni, H. Xiao and D. Wang, ``002_6c597657f27a60c9.txt``: [002 eq. (4)] (the estimator's
       terms).
.. [2] J. C. Mason and D. C. Handscomb, "Chebyshev polynomials", Chapman & Hall/CRC, 2003, Ch. 6
       (least-squares fits at Chebyshev points).
"""

from __future__ import annotations

import math
import threading

import numpy as np

from ._ephi_curve import CURVE_BETA_MAX, CURVE_BETA_MIN, CURVE_DEGREE, CURVE_PAD, CURVE_WIDTH
from ._ephi_loops import ephi_array
from ._ephi_regions import INNER
from ._ephi_special import _R

__all__ = ["curve_table"]


def _cheb_to_monomial(cheb):
    """Monomial coefficients of ``sum_j cheb[k, j] T_j(t)`` per row ``k`` (extended precision in, the
    constant term out as a double-double ``hi`` (column 0), ``lo`` (last column), the others rounded once)."""
    deg = cheb.shape[1] - 1
    T = [[1], [0, 1]]
    for j in range(2, deg + 1):
        up = [0] + [2 * c for c in T[j - 1]]
        T.append([u - (T[j - 2][i] if i < len(T[j - 2]) else 0) for i, u in enumerate(up)])
    M = np.zeros((deg + 1, deg + 1), dtype=np.longdouble)  # integers below 2^11: exact
    for j, row in enumerate(T):
        M[j, : len(row)] = row
    mono = np.einsum("kj,ji->ki", cheb, M)  # in extended precision (64-bit mantissa)
    out = np.empty((cheb.shape[0], deg + 2))
    hi = mono[:, 0].astype(np.float64)
    out[:, 0] = hi
    out[:, 1 : deg + 1] = mono[:, 1:].astype(np.float64)
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
    for i in range(n):  # Gaussian elimination (symmetric positive definite)
        for r in range(i + 1, n):
            f = A[:, r, i] / A[:, i, i]
            A[:, r, i:] -= f[:, None] * A[:, i, i:]
            y[:, r] -= f * y[:, i]
    c = np.empty_like(y)
    for i in range(n - 1, -1, -1):
        c[:, i] = (y[:, i] - np.sum(A[:, i, i + 1 :] * c[:, i + 1 :], axis=1)) / A[:, i, i]
    return c


def _curve_table_uncached(beta):
    root = math.sqrt(beta)
    c = 1.0 / root
    u_lo = max(-INNER - 0.25, -root)  # U = -root is a = infinity (beta <= 81)
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
        w0 = max(0.0, 1.0 + c * u0)  # w = r/a = 1 + c U
        w1 = 1.0 + c * u1
        if w0 <= 0.0 or w1 / w0 > 1.125:  # a spans a wide (or unbounded) range: w as variable
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
        arr.flags.writeable = False  # shared by every call with this beta
    return u_lo, 1.0 / CURVE_WIDTH, npc, mid, scale, use_w, coef


_CURVE_CACHE: dict[float, tuple] = {}  # beta -> _curve_table_uncached(beta)
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
    (degree 12 on width 1/2 before the third speed pass, docs/benchmarks.md): 13 numbers a piece instead of 16,
    21 operations instead of 27, at most 3.1e-16 against mpmath instead of 1.8e-16 on the same kind
    of points (degree 8 on width 1/4 or 1/8 measured 6e-15 and 1.6e-15: too few).  The error against mpmath
    is checked in ``tests/test_catoni_curve.py``.  Cached per ``beta`` (64 entries).
    """
    beta = float(beta)
    if not CURVE_BETA_MIN <= beta <= CURVE_BETA_MAX:
        return None
    tab = _CURVE_CACHE.get(beta)
    if tab is None:
        tab = _curve_table_uncached(beta)  # deterministic: a race only builds it twice
        with _CURVE_LOCK:
            if len(_CURVE_CACHE) >= 64:
                _CURVE_CACHE.pop(next(iter(_CURVE_CACHE)))
            tab = _CURVE_CACHE.setdefault(beta, tab)
    return tab
