"""Column sums of the estimator's terms over axis 0 without materialising the terms: the compiled
kernels behind :func:`reference.hu._ephi_kernel.standard_column_sums`.

Each column block (at most 64 columns, one per thread at least) goes through a row-block buffer that stays
in L1/L2: the terms of a block of rows (:func:`reference.hu._ephi_curve._terms_any`, or the curve passes
:func:`reference.hu._ephi_curve._curve_easy` and :func:`reference.hu._ephi_curve._curve_fill` at once),
then :func:`_add_rows` adds them row after row, the order of ``np.add.reduce`` over axis 0 of a C-ordered
array, so the sums are, bit for bit, those of ``np.add.reduce(terms, axis=0)``, serial or threaded.

References
----------
.. [1] L. Hu, S. Ni, H. Xiao and D. Wang, ``002_6c597657f27a60c9.txt``: [002 eq. (4)] (the robust mean
       ``s/m sum_i E[phi(x_i/s + |x_i/s|/sqrt(beta) Z)]``, a column sum per coordinate of the gradient).
"""

from __future__ import annotations

import numpy as np

from ._ephi_curve import _curve_easy, _curve_fill, _leading_w, _terms_any
from ._ephi_numba import HAVE_NUMBA, _jit, _jit_parallel, numba

__all__ = []


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
            bad += _terms_any(
                flat[i * d + j0 : i * d + j1], s, root, limit, u_lo, iw, npc, mid, scale, use_w, coef, buf[k : k + w]
            )
        _add_rows(buf, i0, i1, w, j0, sums)
    return bad


@_jit
def _colsum_serial(flat, d, s, root, limit, u_lo, iw, npc, mid, scale, use_w, coef, width, buf_size):
    """:func:`_colsum_par` in one thread: the same column blocks, each summed the same way (same bits)."""
    sums = np.empty(d)
    buf = np.empty(buf_size)
    bad = 0
    for j0 in range(0, d, width):
        bad += _colsum_block(
            flat, d, s, root, limit, u_lo, iw, npc, mid, scale, use_w, coef, j0, min(d, j0 + width), buf, sums
        )
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
            nbad, nrow = _curve_easy(flat[i * d + j0 : i * d + j1], s, root, limit, buf[k : k + w])
            bad += nbad
            nh += nrow
        if bad:
            return bad  # the caller raises
        if nh > 0:
            _curve_fill(
                buf[: (i1 - i0) * w], nh, flat, i0 * d + j0, d, w, s, root, u_lo, iw, top, kw, coef, kbuf, tbuf, idx
            )
        _add_rows(buf, i0, i1, w, j0, sums)
    return 0


@_jit
def _colsum_block(flat, d, s, root, limit, u_lo, iw, npc, mid, scale, use_w, coef, j0, j1, buf, sums):
    """Column sums over axis 0 of the terms of columns ``j0:j1``; returns the number of non-finite entries."""
    if npc > 0:
        return _colsum_block_curve(flat, d, s, root, limit, u_lo, iw, npc, mid, scale, use_w, coef, j0, j1, buf, sums)
    return _colsum_block_kernel(flat, d, s, root, limit, u_lo, iw, npc, mid, scale, use_w, coef, j0, j1, buf, sums)


if HAVE_NUMBA:

    @_jit_parallel
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
    _colsum_par = None
