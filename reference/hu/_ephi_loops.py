"""The array loops of the kernel of ``E[phi(a + b Z)]``: :func:`ephi_array` and the per-sample terms without a
curve table.

The loops run the scalar code of :mod:`reference.hu._ephi_regions` in passes over a block (a branch-free
pass for the common region, a branch-free pass for the ``b < 1`` band when a quarter of the block or more
is in it, then the remaining entries one by one), each element through the same IEEE operations, so a
batch call gives, bit for bit, the values of the scalar calls (no reduction, no product whose order
depends on the shape of the batch).  Arrays of at least ``_PARALLEL_MIN`` entries are cut into chunks of
``_CHUNK`` entries run on numba's threads (each element's operations do not depend on the chunk).

References
----------
.. [1] L. Hu, S. Ni, H. Xiao and D. Wang, ``002_6c597657f27a60c9.txt``: [002 eq. (4)] (the estimator's
       terms ``E[phi(x/s + |x/s|/sqrt(beta) Z)]``).
"""

from __future__ import annotations

import math

import numpy as np

from ._ephi_numba import HAVE_NUMBA, _jit, _jit_parallel, numba
from ._ephi_regions import _band_signed, _easy, _hard, _is_band

__all__ = ["ephi_array"]

#: Entries below which the serial loop is used (thread start-up costs more than it saves).
_PARALLEL_MIN = 1 << 14
_CHUNK = 1 << 13


@_jit
def _ephi_loop(a, b, out):
    for i in range(a.size):
        out[i] = _easy(a[i], b[i])
    if _band_share(out) >= 0.25:
        for i in range(a.size):  # branch-free, so that it vectorises
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
    for i in range(x.size):  # branch-free, so that it vectorises
        xi = x[i]
        a = xi / s
        aa = abs(a)
        b = aa if root == 1.0 else aa / root  # |a| / 1.0 is |a|: the same bits
        val = _easy(a, b)
        lim = limit if xi > 0.0 else -limit
        lim = lim if math.isfinite(xi) else math.nan
        bad += 0 if math.isfinite(xi) else 1
        out[i] = val if (aa <= 1e300 and b <= 1e300) else lim  # False for inf and NaN as well
    if bad:
        return bad
    if _band_share(out) >= 0.25:
        for i in range(x.size):  # branch-free, so that it vectorises
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

    @_jit_parallel
    def _ephi_par(a, b, out, chunk):
        n = a.size
        nchunks = (n + chunk - 1) // chunk
        for k in numba.prange(nchunks):
            lo = k * chunk
            hi = min(n, lo + chunk)
            _ephi_loop(a[lo:hi], b[lo:hi], out[lo:hi])
else:  # pragma: no cover
    _ephi_par = None


def ephi_array(a, b):
    """:func:`reference.hu._ephi_regions.ephi` on two 1-d float64 arrays of equal length (no checks)."""
    a = np.ascontiguousarray(a, dtype=np.float64)
    b = np.ascontiguousarray(b, dtype=np.float64)
    out = np.empty(a.shape)
    if HAVE_NUMBA and a.size >= _PARALLEL_MIN:
        _ephi_par(a, b, out, _CHUNK)
    else:
        _ephi_loop(a, b, out)
    return out
