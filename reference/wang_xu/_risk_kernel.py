"""Compiled column sums of the truncated empirical risk of [000 eq. (2)], the operations of the numpy path.

:func:`reference.wang_xu.l1_regression.truncated_empirical_risk` forms the ``(n, K)`` matrix of
``psi((iota |ys_i - <xs_i, w_k>|) s_i)`` on the records scaled by powers of two (``_scaled``) and sums it over
the records.  :func:`risk_column_sums` computes the same sums in one compiled pass without the matrix: the
inner product added coordinate after coordinate as :func:`reference.wang_xu._score_kernel.dot_products` (no
fused multiply-add), psi by :func:`reference.wang_xu._score_kernel._psi` (the operations of
``truncation._psi_nonneg``), and the sum row after row from 0.0, which is how numpy reduces axis 0 of a C-ordered
``(n, K)`` array with ``K >= 2`` (with ``K = 1`` numpy sums pairwise: the caller keeps numpy there).

Under the reproducibility contract (``docs/reproducibility.md``) the arguments of psi and the summation are IEEE
operations in numpy's order, the same bits on every CPU, so the sums are, bit for bit, numpy's ``sum(axis=0)`` of
the kernel's own psi terms.  Each term goes through the C library's ``log1p``/``pow`` where numpy, on CPUs with
AVX-512, runs its own SIMD loops: a term is within ``2 B`` of numpy's
(:func:`reference.wang_xu.truncation.psi_evaluation_error_bound`), and the sums equal numpy's bit for bit only
where both call the same library (a CPU without AVX-512, the baseline path).

References
----------
.. [1] D. Wang and J. Xu, ``000_e64de114947d2122.txt``: [000 eq. (2)], psi of [000 eq. (6)] / [000 eq. (16)].
"""

from __future__ import annotations

import math

import numpy as np

from ._score_kernel import HAVE_NUMBA, _jit, _psi

__all__ = ["HAVE_NUMBA", "risk_column_sums"]


@_jit
def _risk_sums_loop(Xs, ys, s, W, iota, theta, log_theta, out):
    n, d = Xs.shape
    k = W.shape[0]
    for i in range(n):
        yi = ys[i]
        si = s[i]
        for j in range(k):
            r = Xs[i, 0] * W[j, 0]
            for c in range(1, d):
                r += Xs[i, c] * W[j, c]
            v = _psi((iota * abs(yi - r)) * si, theta, log_theta)
            out[j] += v  # row after row, from numpy's starting value 0.0 (set below), so -0.0 terms sum to +0.0


def risk_column_sums(Xs, ys, s, W, iota, theta):
    """``sum_i psi((iota |ys_i - <Xs_i, W_j>|) s_i)`` for each row ``W_j`` of ``W`` (K, d), as a (K,) array.

    The operations of ``_psi_block(W, Xs, ys, s, iota, theta).sum(axis=0)`` of
    :mod:`reference.wang_xu.l1_regression` for ``K >= 2``: the same arguments and summation bit for bit, each psi
    term within ``2 B`` of numpy's (module docstring); arguments as there (finite, validated by the caller).
    """
    Xs = np.ascontiguousarray(Xs, dtype=np.float64)
    W = np.ascontiguousarray(W, dtype=np.float64)
    if Xs.ndim != 2 or W.ndim != 2 or W.shape[1] != Xs.shape[1] or Xs.shape[0] == 0:
        raise ValueError(f"Xs must be (n >= 1, d) and W (K, d), got {Xs.shape} and {W.shape}")
    out = np.zeros(W.shape[0])  # numpy's reduction starts from 0.0: a column of -0.0 terms sums to +0.0
    theta = float(theta)
    _risk_sums_loop(
        Xs,
        np.ascontiguousarray(ys, dtype=np.float64),
        np.ascontiguousarray(s, dtype=np.float64),
        W,
        float(iota),
        theta,
        math.log(theta),
        out,
    )
    return out
