"""Fused kernel for the exponential-mechanism scores of [000 Alg. 1-2]: psi, scaling and the sum over records.

The score of a net point ``w`` is ``-k eps / log(theta) * sum_i psi(iota |y_i - <x_i, w>|)``
([000 eq. (2)], [000 Alg. 1 step 2], [000 Alg. 2 step 2]).  The numpy evaluation of
:mod:`reference.wang_xu.l1_regression` spends almost all of its time in elementwise passes over
the ``(records, points)`` matrix: ``|y - r|``, the scaling, ``min(t, 1)``, a ``log1p`` over every
entry and a second ``log1p`` over the gathered entries below 1/2, the divisions and the sum.  Here
the residual matrix ``Xs @ W.T`` still comes from the same BLAS product (so the same bits), and one
compiled pass per entry does the rest:

* one ``log1p`` per entry, chosen by the branch of ``psi`` (the numpy code evaluates both
  branches' logarithms where ``s < 1/2``), and none where ``t >= 1`` (``psi = log theta`` there;
  the numpy code's ``log2 - log1p(0)`` is the same value);
* the per-record terms ``(psi / log theta) * (-k eps)`` with the same two roundings;
* for the log-weights, the sum over records row after row, the order in which ``np.sum(axis=0)``
  adds the rows of a C-ordered matrix, without materialising the terms; parallel over blocks of
  net points (each column's sum is computed by one thread, so the result does not depend on the
  number of threads).

The special functions are the C library's ``log1p`` and ``pow``, the functions numpy's ``log1p``
and ``power`` call for float64 on this platform, so every entry has the bits of the numpy
evaluation (``tests/test_wang_xu_score_kernel.py`` compares them with ``np.array_equal``).
Without numba the numpy evaluation is used.

References
----------
.. [1] D. Wang and J. Xu, ``000_e64de114947d2122.txt``: [000 eq. (2)], [000 eq. (6)],
       [000 eq. (16)], [000 Alg. 1 step 2], [000 Alg. 2 step 2].
"""

from __future__ import annotations

import math

import numpy as np

try:  # pragma: no cover - exercised by whichever environment runs the tests
    import numba

    #: True when the kernel is compiled (numba importable and NUMBA_DISABLE_JIT unset).
    HAVE_NUMBA = not numba.config.DISABLE_JIT
except ImportError:  # pragma: no cover
    numba = None
    HAVE_NUMBA = False

__all__ = ["HAVE_NUMBA", "psi_terms", "psi_log_weights"]

_LOG2 = math.log(2.0)

if HAVE_NUMBA:
    _jit = numba.njit(cache=True, nogil=True, error_model="numpy")
    _jit_par = numba.njit(parallel=True, cache=True, nogil=True, error_model="numpy")
    _prange = numba.prange
else:  # pragma: no cover
    def _jit(fn):
        return fn

    _jit_par = _jit
    _prange = range


@_jit
def _psi(t, theta, log_theta):
    """psi of [000 eq. (6)] (``theta = 2``) or [000 eq. (16)] at ``t >= 0``: the operations of
    :func:`reference.wang_xu.truncation._psi_nonneg`, one branch per entry (NaN propagates)."""
    s = 1.0 if t >= 1.0 else t                    # np.minimum(t, 1): NaN stays NaN
    if s >= 1.0:
        return log_theta                           # log2 - log1p(0) = log2; the theta < 2 branch sets it
    if theta == 2.0:
        if s < 0.5:
            return -math.log1p(s * (0.5 * s - 1.0))
        b = 1.0 - s
        return _LOG2 - math.log1p(b * b)
    out = -math.log1p(s ** theta / theta - s)
    return log_theta if out > log_theta else out  # np.minimum(out, log theta): NaN stays NaN


@_jit
def _term(r, yi, si, iota, theta, log_theta, neg_k_eps):
    """One record's log-weight contribution ``(psi(iota |y - r| s) / log theta) * (-k eps)``."""
    t = (iota * abs(yi - r)) * si                 # overflow gives +inf, psi(inf) = log theta
    return (_psi(t, theta, log_theta) / log_theta) * neg_k_eps


@_jit_par
def _terms_par(R, ys, s, iota, theta, log_theta, neg_k_eps, out):
    n, k = R.shape
    for i in _prange(n):
        yi = ys[i]
        si = s[i]
        for j in range(k):
            out[i, j] = _term(R[i, j], yi, si, iota, theta, log_theta, neg_k_eps)


@_jit_par
def _colsum_par(R, ys, s, iota, theta, log_theta, neg_k_eps, width, out):
    n, k = R.shape
    nblocks = (k + width - 1) // width
    for blk in _prange(nblocks):
        j0 = blk * width
        j1 = min(k, j0 + width)
        for j in range(j0, j1):                   # row 0 starts the sums, as np.add.reduce does
            out[j] = _term(R[0, j], ys[0], s[0], iota, theta, log_theta, neg_k_eps)
        for i in range(1, n):
            yi = ys[i]
            si = s[i]
            for j in range(j0, j1):
                out[j] = out[j] + _term(R[i, j], yi, si, iota, theta, log_theta, neg_k_eps)


def _threads():
    return numba.get_num_threads() if HAVE_NUMBA else 1


def psi_terms(R, ys, s, iota, theta, neg_k_eps):
    """``(psi(iota |ys_i - R_ik| s_i) / log theta) * neg_k_eps`` as an (n, k) array (R: (n, k) float64)."""
    R = np.ascontiguousarray(R, dtype=np.float64)
    out = np.empty(R.shape)
    _terms_par(R, np.ascontiguousarray(ys, dtype=np.float64), np.ascontiguousarray(s, dtype=np.float64),
               float(iota), float(theta), math.log(theta), float(neg_k_eps), out)
    return out


def psi_log_weights(R, ys, s, iota, theta, neg_k_eps):
    """Column sums over records of :func:`psi_terms`, added row after row (``np.sum(axis=0)``'s order)."""
    R = np.ascontiguousarray(R, dtype=np.float64)
    n, k = R.shape
    out = np.empty(k)
    if n == 0:
        out[:] = 0.0
        return out
    # column blocks: several per thread for balance, wide enough that the row loop vectorises
    width = max(16, min(512, -(-k // (4 * _threads()))))
    _colsum_par(R, np.ascontiguousarray(ys, dtype=np.float64), np.ascontiguousarray(s, dtype=np.float64),
                float(iota), float(theta), math.log(theta), float(neg_k_eps), width, out)
    return out
