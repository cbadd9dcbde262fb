"""Element-wise kernel for ``E[phi(a + b Z)]``, ``Z ~ N(0, 1)`` (002, eqs. (2), (4), (5)): the entry points.

One scalar function, :func:`ephi`, defines the value; the array loops run the same scalar code in
passes over a block, each element through the same IEEE operations, so a batch call gives, bit for bit,
the values of the scalar calls (no reduction, no product whose order depends on the shape of the
batch).  The kernel is compiled with numba when numba is importable (no ``fastmath``: IEEE operations in
source order, no FMA contraction) and otherwise runs as plain Python with the same special functions,
hence the same bits, only slower.

Why numba pays: the value needs up to a few special-function calls or table look-ups and a few
dozen operations per entry, behind branches.  As numpy expressions that is tens of passes over the
array with temporaries (the previous implementation: 0.7-6 us per entry); compiled, with the
common pass vectorised, it is about 2 ns per entry in the common region and 25-30 ns in the band
(CPU time; see ``docs/catoni.md``).

Layout (one subject a module; every name below is importable from here as before):

* :mod:`reference.hu._ephi_numba`: numba, the compiler options, the external ``erf``, and the files
  compiled together (:data:`reference.hu._ephi_numba.KERNEL_FILES`, cached under one stamp).
* :mod:`reference.hu._ephi_special`: ``PHI_BOUND`` and the tables of ``erfcx(x/sqrt 2)``, ``J_2``, ``J_3``.
* :mod:`reference.hu._ephi_regions`: the regions of the value and the scalar kernel :func:`ephi`.
* :mod:`reference.hu._ephi_loops`: the array loops, :func:`ephi_array`, the terms without a curve table.
* :mod:`reference.hu._ephi_curve`: the terms read from a curve table (compiled passes, table layout).
* :mod:`reference.hu._ephi_curve_fit`: the curve tables themselves (:func:`curve_table`, numpy).
* :mod:`reference.hu._ephi_colsum`: column sums of the terms without materialising them.
* here: :func:`standard_terms` and :func:`standard_column_sums`, the estimator's entry points.

References
----------
.. [1] L. Hu, S. Ni, H. Xiao and D. Wang, ``002_6c597657f27a60c9.txt``: [002 eq. (2)] (phi),
       [002 eq. (4)] (the smoothed Catoni estimator's terms), [002 eq. (5)] (identity (5)).
"""

from __future__ import annotations

import math

import numpy as np

from ._ephi_colsum import _colsum_par, _colsum_serial
from ._ephi_curve import (
    CURVE_BETA_MAX,
    CURVE_BETA_MIN,
    CURVE_DEGREE,
    CURVE_PAD,
    CURVE_ROW,
    CURVE_WIDTH,
    _terms_any,
    _terms_par,
)
from ._ephi_curve_fit import curve_table
from ._ephi_loops import _CHUNK, _PARALLEL_MIN, ephi_array
from ._ephi_numba import HAVE_NUMBA, KERNEL_FILES, KERNEL_GROUP, numba
from ._ephi_regions import INNER, WIDE_B, ephi
from ._ephi_special import _R, PHI_BOUND, _erfcx_half, _erfcx_half_pair, _j23, _j23_safe  # noqa: F401 (tests)

__all__ = [
    "HAVE_NUMBA",
    "PHI_BOUND",
    "ephi",
    "ephi_array",
    "standard_terms",
    "standard_column_sums",
    "curve_table",
    "INNER",
    "WIDE_B",
    "CURVE_WIDTH",
    "CURVE_DEGREE",
    "CURVE_PAD",
    "CURVE_BETA_MIN",
    "CURVE_BETA_MAX",
    "CURVE_ROW",
    "KERNEL_FILES",
    "KERNEL_GROUP",
]


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
