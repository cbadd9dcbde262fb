"""The estimator's terms from the curve table of ``beta``: the compiled passes of :func:`_terms_any`.

The estimator's terms ``E[phi(a + b Z)]`` with ``a = x/s``, ``b = |a|/sqrt(beta)`` lie on one curve per
``beta``; where ``|U| < 9`` they are read from the piecewise polynomials of that curve
(:func:`reference.hu._ephi_curve_fit.curve_table`) instead of the per-entry special functions of
:mod:`reference.hu._ephi_regions`: one look-up and a degree-9 polynomial whatever the region.  The loops
evaluate them in passes over blocks of entries (:func:`_curve_easy`, then :func:`_curve_fill`) so that
the divisions and the piece index run in vector instructions and no branch depends on the data.

The packed table (:data:`CURVE_ROW` numbers a piece: the coefficients, the low part of the constant term,
the piece's centre and scale) and its pieces (:data:`CURVE_WIDTH`, :data:`CURVE_DEGREE`,
:data:`CURVE_PAD`) are defined here, beside the kernel that reads them: numba freezes these constants
into the compiled code.

References
----------
.. [1] L. Hu, S. Ni, H. Xiao and D. Wang, ``002_6c597657f27a60c9.txt``: [002 eq. (4)] (the estimator's
       terms).
.. [2] G. Estrin, "Organization of computer systems: the fixed plus variable structure computer", 1960
       (the evaluation scheme of :func:`_curve_poly`).
"""

from __future__ import annotations

import math

import numpy as np

from ._ephi_loops import _terms_loop
from ._ephi_numba import HAVE_NUMBA, _jit, _jit_inline, _jit_parallel, _to_i32, numba
from ._ephi_regions import _easy
from ._ephi_special import _B, _R

__all__ = ["CURVE_WIDTH", "CURVE_DEGREE", "CURVE_PAD", "CURVE_BETA_MIN", "CURVE_BETA_MAX", "CURVE_ROW"]

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
        b = aa if root == 1.0 else aa / root  # |a| / 1.0 is |a|: the same bits
        val = _easy(a, b)
        # b = 0 with a != 0 only where |a|/root underflows (|a| < 5e-320): a^3 is 0, phi(a) = a exactly
        val = val if b != 0.0 else (-aa if a < 0.0 else aa)
        lim = limit if xi > 0.0 else -limit
        lim = lim if math.isfinite(xi) else math.nan
        bad += 0 if math.isfinite(xi) else 1
        val = val if (aa <= 1e300 and b <= 1e300) else lim  # False for inf and NaN as well
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
    uc = u if u < top else top  # NaN -> the last piece (then discarded)
    uc = uc if uc > 0.0 else 0.0
    kf = math.floor(uc)
    xv = w if kf < kw else aa
    return _to_i32(kf * CURVE_ROW), (-xv if a < 0.0 else xv)  # double -> int32 vectorises (AVX2)


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
            _curve_pieces(
                flat[base + r * d : base + r * d + w],
                s,
                root,
                u_lo,
                iw,
                top,
                kw,
                kbuf[r * w : (r + 1) * w],
                tbuf[r * w : (r + 1) * w],
            )
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
        if bad == 0 and nh > 0:  # else the caller raises, or nothing to do
            _curve_fill(out[i0:i1], nh, x, i0, i1 - i0, i1 - i0, s, root, u_lo, iw, top, kw, coef, kbuf, tbuf, idx)
    return bad


@_jit
def _terms_any(x, s, root, limit, u_lo, iw, npc, mid, scale, use_w, coef, out):
    """:func:`_terms_loop_curve` when there is a curve table (``npc > 0``), else :func:`_terms_loop`."""
    if npc > 0:
        return _terms_loop_curve(x, s, root, limit, u_lo, iw, npc, mid, scale, use_w, coef, out)
    return _terms_loop(x, s, root, limit, out)


if HAVE_NUMBA:

    @_jit_parallel
    def _terms_par(x, s, root, limit, u_lo, iw, npc, mid, scale, use_w, coef, out, chunk):
        n = x.size
        nchunks = (n + chunk - 1) // chunk
        bad = 0
        for k in numba.prange(nchunks):
            lo = k * chunk
            hi = min(n, lo + chunk)
            bad += _terms_any(x[lo:hi], s, root, limit, u_lo, iw, npc, mid, scale, use_w, coef, out[lo:hi])
        return bad
else:  # pragma: no cover
    _terms_par = None
