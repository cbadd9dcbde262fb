"""Per-record psi terms of the exponential-mechanism scores of [000 Alg. 1-2], compiled: one pass per entry.

The score of a net point ``w`` is ``-k eps / log(theta) * sum_i psi(iota |y_i - <x_i, w>|)``
([000 eq. (2)], [000 Alg. 1 step 2], [000 Alg. 2 step 2]); the log-weights (the sum over records,
fused) are :func:`reference.wang_xu._score_kernel.log_weights`.

Per-record terms (:func:`psi_terms`, used to rescore one replaced record in ``O(outputs x d)``):
after the inner products (:func:`dot_products`, the residual of every path here), one compiled
pass per entry computes psi by the operations of :func:`reference.wang_xu.truncation._psi_nonneg`,
calling the C library's ``log1p`` (and ``pow``), then the two roundings ``(psi / log theta) * (-k eps)``.

What equals the numpy evaluation, under the reproducibility contract (``docs/reproducibility.md``):
psi's argument ``t`` (IEEE operations in the same order) and everything after psi (the scaling, the signs,
the sums of :func:`psi_column_sums` in numpy's order) are the same bits on every CPU; psi itself goes through
``log1p``/``pow``, which numpy evaluates with its own SIMD loops on CPUs with AVX-512 (Intel SVML) and the
kernels with the C library, so the two psi values of one ``t`` agree within ``2 B(t)`` with ``B`` =
:func:`reference.wang_xu.truncation.psi_evaluation_error_bound` (measured on an AVX-512 CPU: at most 1 ulp
at ``theta = 2``, 65 ulps at ``theta = 1.01``, about ``1e6`` ulps at ``theta = 1 + 1e-6``, where the formula
itself is that ill-conditioned), and are the same bits where both call the same library (on a CPU without
AVX-512, or on the baseline path).

:mod:`reference.wang_xu._risk_kernel` inlines :func:`_psi` into its own kernel: numba's on-disk cache does
not follow an edit of this file into that kernel, so after an edit of :func:`_psi` clear the cache
(``find . -name "*.nbi" -o -name "*.nbc" | xargs rm -f``).

References
----------
.. [1] D. Wang and J. Xu, ``000_e64de114947d2122.txt``: [000 eq. (2)], [000 eq. (6)],
       [000 eq. (16)], [000 Alg. 1 step 2], [000 Alg. 2 step 2], [000 Lemma 10].
"""

from __future__ import annotations

import math

import numpy as np

try:  # pragma: no cover - exercised by whichever environment runs the tests
    import numba

    #: True when the kernel is compiled (numba importable and NUMBA_DISABLE_JIT unset).
    HAVE_NUMBA = not numba.config.DISABLE_JIT
except ImportError:  # pragma: no cover
    numba = None  # type: ignore[assignment]  # the optional-import idiom: None when numba is not installed
    HAVE_NUMBA = False

__all__ = ["HAVE_NUMBA", "dot_products", "psi_terms", "psi_column_sums", "psi_of_residuals"]

_LOG2 = math.log(2.0)

if HAVE_NUMBA:
    _jit = numba.njit(cache=True, nogil=True, error_model="numpy")
else:  # pragma: no cover

    def _jit(fn):
        return fn


@_jit
def _psi(t, theta, log_theta):
    """psi of [000 eq. (6)] (``theta = 2``) or [000 eq. (16)] at ``t >= 0``: the operations of
    :func:`reference.wang_xu.truncation._psi_nonneg`, one branch per entry (NaN propagates)."""
    s = 1.0 if t >= 1.0 else t  # np.minimum(t, 1): NaN stays NaN
    if s >= 1.0:
        return log_theta  # log2 - log1p(0) = log2; the theta < 2 branch sets it
    if theta == 2.0:
        if s < 0.5:
            return -math.log1p(s * (0.5 * s - 1.0))
        b = 1.0 - s
        return _LOG2 - math.log1p(b * b)
    out = -math.log1p(s**theta / theta - s)
    return log_theta if out > log_theta else out  # np.minimum(out, log theta): NaN stays NaN


@_jit
def _term(r, yi, si, iota, theta, log_theta, neg_k_eps):
    """One record's log-weight contribution ``(psi(iota |y - r| s) / log theta) * (-k eps)``."""
    t = (iota * abs(yi - r)) * si  # overflow gives +inf, psi(inf) = log theta
    return (_psi(t, theta, log_theta) / log_theta) * neg_k_eps


@_jit
def _terms_loop(R, ys, s, iota, theta, log_theta, neg_k_eps, out):
    n, k = R.shape
    for i in range(n):
        yi = ys[i]
        si = s[i]
        for j in range(k):
            out[i, j] = _term(R[i, j], yi, si, iota, theta, log_theta, neg_k_eps)


def dot_products(Xs, W):
    """``<x_i, w_j>`` as an (n, k) array, added as every scorer here adds them: ``x_i0 w_j0``, then
    ``+ x_ic w_jc`` for ``c = 1..d-1``, each product and sum rounded (no fused multiply-add).

    One definition of the residual for the terms, the log-weights and the numpy fallbacks.  A BLAS
    product may fuse a multiply-add, which is sometimes less accurate: on a record ``(1e300, -1e300)``
    and ``w = (0.1, 0.1)`` the exact inner product is 0 and so is this sum, but a fused multiply-add
    leaves the rounding error of ``1e300 * 0.1`` (2^-60 after scaling, ``t ~ 2^937``), i.e. psi =
    log theta instead of 0.
    """
    Xs = np.asarray(Xs, dtype=np.float64)
    W = np.asarray(W, dtype=np.float64)
    r = Xs[:, 0, None] * W[:, 0]
    for c in range(1, Xs.shape[1]):
        r += Xs[:, c, None] * W[:, c]
    return r


def psi_terms(R, ys, s, iota, theta, neg_k_eps):
    """``(psi(iota |ys_i - R_ik| s_i) / log theta) * neg_k_eps`` as an (n, k) array (R: (n, k) float64).

    The operations of the numpy evaluation (``_psi_nonneg``, then the two roundings), one thread.  The
    arguments and the two roundings are the numpy evaluation's bits on every CPU; psi goes through the C
    library's ``log1p``/``pow``, so each entry is within the bound of
    :func:`reference.wang_xu.truncation.psi_evaluation_error_bound` (twice it, scaled by ``|neg_k_eps| /
    log theta``, plus the two roundings) of numpy's, the same bits where numpy calls the same library.
    """
    R = np.ascontiguousarray(R, dtype=np.float64)
    out = np.empty(R.shape)
    _terms_loop(
        R,
        np.ascontiguousarray(ys, dtype=np.float64),
        np.ascontiguousarray(s, dtype=np.float64),
        float(iota),
        float(theta),
        math.log(theta),
        float(neg_k_eps),
        out,
    )
    return out


@_jit
def _psi_sums_loop(x, y, c, w, iota, theta, log_theta, out):
    n = x.shape[0]
    k = w.shape[0]
    for i in range(n):
        xi = x[i]
        yi = y[i]
        ci = c[i]
        for j in range(k):
            a = iota * abs(yi - xi * w[j]) - ci
            v = _psi(abs(a), theta, log_theta)
            v = -v if a < 0.0 else v  # psi is odd: np.where(arg < 0, -psi(|arg|), psi(|arg|))
            if i == 0:
                out[j] = v  # numpy's sum starts from the first row
            else:
                out[j] += v  # then adds row after row (axis 0 of a C-ordered array)


def psi_column_sums(x, y, w, iota, theta, shift=None):
    """``sum_i psi(iota |y_i - x_i w_j| - c_i)`` for every scalar net point ``w_j`` (d = 1), as a (k,) array.

    The operations of the numpy evaluation ``psi(iota * np.abs(y[:, None] - x[:, None] * w) - c[:, None],
    theta).sum(axis=0)`` of :func:`reference.wang_xu.truncation.psi` (``c = shift``, default 0), without
    forming the ``(n, k)`` matrix: the terms of [000 eq. (2)] (and of the shifted sum of [000 Lemma 10]),
    one compiled pass, one thread.  The arguments, the signs and the sum (row after row, numpy's order) are
    IEEE operations, the same bits on every CPU; each psi term, through the C library's ``log1p``/``pow``,
    is within ``2 B`` of numpy's (:func:`reference.wang_xu.truncation.psi_evaluation_error_bound`).  So the
    result is, bit for bit, numpy's ``sum(axis=0)`` of the kernel's own terms, and equals numpy's whole
    evaluation where both call the same library.  Arguments must be finite (no NaN check here).
    """
    x = np.ascontiguousarray(x, dtype=np.float64).ravel()
    y = np.ascontiguousarray(y, dtype=np.float64).ravel()
    w = np.ascontiguousarray(w, dtype=np.float64).ravel()
    c = np.zeros(x.size) if shift is None else np.ascontiguousarray(shift, dtype=np.float64).ravel()
    if not (x.size == y.size == c.size) or x.size == 0:
        raise ValueError(f"x, y and shift must have one equal, positive length, got {x.size}, {y.size}, {c.size}")
    theta = float(theta)
    out = np.empty(w.size)
    _psi_sums_loop(x, y, c, w, float(iota), theta, math.log(theta), out)
    return out


@_jit
def _psi_residual_loop(x, y, w, iota, theta, log_theta, out):
    n = x.shape[0]
    k = w.shape[0]
    for i in range(n):
        xi = x[i]
        yi = y[i]
        for j in range(k):
            out[i, j] = _psi(iota * abs(yi - xi * w[j]), theta, log_theta)


def psi_of_residuals(x, y, w, iota, theta):
    """The ``(n, k)`` matrix ``psi(iota |y_i - x_i w_j|)`` (d = 1, scalar net points ``w_j``), one compiled pass.

    The operations of ``psi(iota * np.abs(y[:, None] - x[:, None] * w[None, :]), theta)`` of
    :func:`reference.wang_xu.truncation.psi` (the terms of [000 eq. (2)]): the arguments are the same bits on
    every CPU, each psi value (the C library's ``log1p``/``pow``) within ``2 B`` of numpy's
    (:func:`reference.wang_xu.truncation.psi_evaluation_error_bound`).  The caller sums it as before, so the
    summation order is numpy's.  Arguments must be finite.
    """
    x = np.ascontiguousarray(x, dtype=np.float64).ravel()
    y = np.ascontiguousarray(y, dtype=np.float64).ravel()
    w = np.ascontiguousarray(w, dtype=np.float64).ravel()
    if x.size != y.size:
        raise ValueError(f"x and y must have equal lengths, got {x.size} and {y.size}")
    theta = float(theta)
    out = np.empty((x.size, w.size))
    _psi_residual_loop(x, y, w, float(iota), theta, math.log(theta), out)
    return out
