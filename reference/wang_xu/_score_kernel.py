"""The log-weights of the exponential mechanism of [000 Alg. 1-2], fused: residuals, psi as a logarithm,
the sum over records; with the ``s^theta`` it inlines, its numpy twin and its error bound.

The score of a net point ``w`` is ``-k eps / log(theta) * sum_i psi(iota |y_i - <x_i, w>|)``
([000 eq. (2)], [000 Alg. 1 step 2], [000 Alg. 2 step 2]).  Two evaluations exist: the log-weights
(here) and the per-record terms (:mod:`reference.wang_xu._psi_kernel`: :func:`psi_terms`,
:func:`psi_column_sums`, :func:`psi_of_residuals`, :func:`dot_products`, all importable from here).

Log-weights (:func:`log_weights`, the scorer of every law and sampler): psi is a logarithm,
``psi(t) = -log q(s)`` with ``s = min(t, 1)`` and ``q(s) = 1 - s + s^theta / theta``
([000 eq. (6)], [000 eq. (16)]), so ``sum_i psi_i = -log prod_i q_i``.  ``q`` decreases on
``[0, 1]`` from 1 to ``1/theta >= 1/2``, so a product of at most ``BLOCK_RECORDS = 1000`` factors stays
above ``2^-1000`` (normal; no underflow) and one ``log`` per block of records and net point replaces
one ``log1p`` per (record, net point) pair.  The residual ``y_i - <x_i, w>`` is fused too (the
``(records, points)`` matrix is never formed): ``x_i0 w_0``, then ``+ x_ik w_k`` for ``k = 1..d-1``,
vectorised over a block of net points kept in L1 cache; ``theta = 2`` needs only ``+ - *``,
``theta = 1.5`` takes ``s^1.5 = s sqrt(s)`` (correctly rounded, vectorised), other ``theta``
:func:`reference.wang_xu._powers.pow_unit` (``+ - * /`` and bit operations, vectorised, relative error
at most ``8 u``; the C library's ``pow`` stopped the loop from vectorising).  No NaN or infinity can
come out: ``s = t if t < 1 else 1`` maps an infinite ``t`` (overflow) and a NaN residual (``inf - inf``
from net points near ``1.7e308``) to ``s = 1``, ``q >= 1/2``, and the block product is normal.

Accuracy of the log-weights (against exact arithmetic on the same inputs, ``u = 2^-53``; stated by
:func:`log_weight_error_bound`): each ``q_i`` carries a relative error of at most a few ``u``
(``theta = 2``: ``1 - s``, ``s s`` and the sum; ``theta = 1.5`` adds ``s sqrt(s)`` and ``1/theta``;
other ``theta`` add ``1/theta`` and the ``8 u`` of ``pow_unit``),
the product ``u`` per factor, each block's ``log`` ``u`` times its value (a ``log`` within about half an
ulp; the contract's ``FUNCTION_ULPS = 4`` would make it ``8 u``, see :func:`log_weight_error_bound`), and
the block logarithms are
added with Neumaier's compensated sum, so ``|dS| <= c n u + 3 u S`` (``c = 5``, ``8`` or ``15``,
``S = sum_i psi_i <= n log theta``) plus the residuals' own rounding, and
``|d log-weight| <= k eps |dS| / log theta + 3 u |log-weight|``: ``O(n u)``, whatever the residuals.
The law ``P(w) = exp(lw(w)) / Z`` moves by a relative ``2 max_w |d lw(w)|`` at most.  Where every
residual is tiny (``q`` rounds to 1) the relative accuracy of ``S`` is lost but not this absolute
bound, which is what the law (and privacy) depends on, so no compensated product is needed.  The
per-pair summation it replaces had ``(n - 1) u sum_i |term_i|``, i.e. ``O(n^2 u)``.
``tests/test_wang_xu_score_kernel.py`` checks the bound and the law against mpmath (50 digits).

Without numba, :func:`log_weights_numpy` performs the same operations in the same order (blocks
of records, the residual column by column, ``np.multiply.reduce`` row after row): the same block
products of ``q`` and the same compensated sum and scaling, bit for bit on every CPU; only the one ``log``
per block is numpy's (``np.log``) instead of the C library's, each within ``FUNCTION_ULPS`` ulps, so the
log-weights agree within about ``(4 FUNCTION_ULPS + 6) u |log-weight|`` (``tests/_psi_kernel_bounds.py``
derives the bound) and are the same bits where both logs are the C library's.
The kernels run on one thread: on a shared machine a two-thread parallel region waited for a
descheduled thread and timed 10 to 25x slower than one thread (load 2 on 2 cores).

References
----------
.. [1] D. Wang and J. Xu, ``000_e64de114947d2122.txt``: [000 eq. (2)], [000 eq. (6)],
       [000 eq. (16)], [000 Alg. 1 step 2], [000 Alg. 2 step 2].
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

# the per-record terms, importable from here as before (_psi: the compiled psi _risk_kernel inlines)
from ._psi_kernel import _psi, dot_products, psi_column_sums, psi_of_residuals, psi_terms  # noqa: F401

try:  # pragma: no cover - exercised by whichever environment runs the tests
    import numba

    #: True when the kernel is compiled (numba importable and NUMBA_DISABLE_JIT unset).
    HAVE_NUMBA = not numba.config.DISABLE_JIT
except ImportError:  # pragma: no cover
    numba = None  # type: ignore[assignment]  # the optional-import idiom: None when numba is not installed
    HAVE_NUMBA = False

__all__ = [
    "HAVE_NUMBA",
    "BLOCK_RECORDS",
    "POW_REL_ERROR",
    "pow_constants",
    "pow_unit",
    "psi_terms",
    "psi_column_sums",
    "psi_of_residuals",
    "log_weights",
    "log_weights_numpy",
    "log_weight_error_bound",
    "dot_products",
]

# ---- s^theta by + - * / and bit operations: algorithm, error bound and proof in _powers.py ----------
# (here, beside the kernel that inlines it, because numba's on-disk cache does not notice changes to
# functions or constants of another file: the kernel kept the old pow_unit after an edit of _powers.py)

#: Relative error bound of :func:`pow_unit` (plus ``2^-1075`` absolute for a subnormal result).
POW_REL_ERROR = 8.0 * 2.0**-53

_LN2 = Fraction("0.69314718055994530941723212145817656807550013436026")  # 50 digits
_OFF = 0x3FE6A09E667F3BCD  # bits of sqrt(1/2), rounded to nearest (up by 5e-17)
_BIAS = 1 << 62  # keeps bits(s) - _OFF positive (logical shift = arithmetic)
_HIGH = 0x7FF << 52  # exponent field (t < 2^63: bit 63 is clear)
_TWO52 = 0x4330000000000000  # bits of 2^52
_SHIFT = 6755399441055744.0  # 1.5 2^52: x + _SHIFT - _SHIFT rounds x to an integer
_SHIFT_SCALE = _SHIFT + 540.0  # exact (ulp 1 at 1.5 2^52)
_SHIFT_BITS = 0x4338000000000000  # bits of _SHIFT
_SUB = 2.0**-1022
_TWO54 = 2.0**54
_TWO_M540 = 2.0**-540
_NMIN = -1100.0

# fdlibm e_log.c: R(w) = Lg1 w + ... + Lg7 w^7, |R(z^2) - (log((1+z)/(1-z)) - 2z)/z| <= 2^-58.45, |z| <= 0.1716
_LG1 = 6.666666666666735130e-01
_LG2 = 3.999999999940941908e-01
_LG3 = 2.857142874366239149e-01
_LG4 = 2.222219843214978396e-01
_LG5 = 1.818357216161805012e-01
_LG6 = 1.531383769920937332e-01
_LG7 = 1.479819860511658591e-01

# (2^x - 1)/x on [-1/2 - 1e-12, 1/2 + 1e-12], mpmath.chebyfit at 50 digits, degree 10, highest first;
# max fit error 1.26e-17 (before rounding to float64)
_Q = (
    float.fromhex("0x1.e9d3fe39521c2p-32"),
    float.fromhex("0x1.e6063f7217c1cp-28"),
    float.fromhex("0x1.b524fae627834p-24"),
    float.fromhex("0x1.62bfd47773353p-20"),
    float.fromhex("0x1.ffcbfc670dcd4p-17"),
    float.fromhex("0x1.430913096fd9fp-13"),
    float.fromhex("0x1.5d87fe78a5276p-10"),
    float.fromhex("0x1.3b2ab6fba1ddap-7"),
    float.fromhex("0x1.c6b08d704a0c2p-5"),
    float.fromhex("0x1.ebfbdff82c598p-3"),
    float.fromhex("0x1.62e42fefa39efp-1"),
)
(_Q10, _Q9, _Q8, _Q7, _Q6, _Q5, _Q4, _Q3, _Q2, _Q1, _Q0) = _Q


def pow_constants(theta):
    """``(theta_hi, theta_lo, c)`` of step 4 in :mod:`reference.wang_xu._powers`: ``theta`` cut to 41
    bits, the rest, and ``theta / log 2`` rounded once (from a 50-digit ``log 2``).

    Raises ``ValueError`` unless ``1 < theta <= 2`` (the range of [000 Alg. 2]; ``theta = 1`` would be ``s``).
    """
    if isinstance(theta, (bool, np.bool_)) or not isinstance(theta, (int, float, np.integer, np.floating)):
        raise TypeError(f"theta must be a real number, got {theta!r}")
    theta = float(theta)
    if not 1.0 < theta <= 2.0:
        raise ValueError(f"theta must lie in (1, 2], got {theta!r}")
    # clear the low 12 of 52 fraction bits: 41 significant bits, so theta_hi k is exact for |k| < 2^11
    hi = float((np.float64(theta).view(np.int64) & np.int64(~0xFFF)).view(np.float64))
    return hi, theta - hi, float(Fraction(theta) / _LN2)


def _pow_core(m, kf, theta_hi, theta_lo, c):
    """Steps 3-5 of :mod:`reference.wang_xu._powers`: ``(2^f, N)`` with ``s^theta = 2^f 2^N``, from the reduced
    mantissa ``m`` and the exponent ``kf``.  Arithmetic only, so the same code runs on scalars inside the
    compiled :func:`pow_unit` and on arrays in :func:`_pow_np` (same operations in the same order, same bits)."""
    F = m - 1.0
    z = F / (2.0 + F)
    w = z * z
    w2 = w * w
    w4 = w2 * w2
    R = w * ((_LG1 + w * _LG2) + w2 * (_LG3 + w * _LG4) + w4 * ((_LG5 + w * _LG6) + w2 * _LG7))
    L = 2.0 * z + z * R
    A = theta_hi * kf
    B = theta_lo * kf + c * L
    kx = (A + B) + _SHIFT
    N = kx - _SHIFT
    f = (A - N) + B
    f2 = f * f
    f4 = f2 * f2
    # Horner for the three leading terms (their rounding dominates), Estrin below (shorter chains)
    T = ((_Q3 + f * _Q4) + f2 * (_Q5 + f * _Q6)) + f4 * ((_Q7 + f * _Q8) + f2 * (_Q9 + f * _Q10))
    Qf = _Q0 + f * (_Q1 + f * (_Q2 + f * T))
    return 1.0 + f * Qf, N


if HAVE_NUMBA:
    from llvmlite import ir as _ir
    from numba.core import types as _types
    from numba.extending import intrinsic as _intrinsic

    @_intrinsic
    def _f2i(typingctx, x):
        """The bits of a float64 as an int64 (LLVM bitcast; vectorises)."""
        if x != _types.float64:
            return None

        def codegen(context, builder, signature, args):
            return builder.bitcast(args[0], _ir.IntType(64))

        return _types.int64(_types.float64), codegen

    @_intrinsic
    def _i2f(typingctx, x):
        """The float64 with the bits of an int64 (LLVM bitcast; vectorises)."""
        if x != _types.int64:
            return None

        def codegen(context, builder, signature, args):
            return builder.bitcast(args[0], _ir.DoubleType())

        return _types.float64(_types.int64), codegen

    _pow_core_nb = numba.njit(cache=True, nogil=True, error_model="numpy", inline="always")(_pow_core)

    @numba.njit(cache=True, nogil=True, error_model="numpy")
    def pow_unit(s, theta_hi, theta_lo, c):
        """``s^theta`` for ``s in [0, 1]`` (scalar, inlined into vectorised loops); see :mod:`._powers`."""
        sub = s < _SUB
        s2 = s * _TWO54 if sub else s
        ix = _f2i(s2)
        tt = ix - _OFF + _BIAS
        kb = (tt >> 52) & 0xFFF
        kf = (_i2f(kb | _TWO52) - 4503599627370496.0) - 1024.0  # 2^52 + k + 1024 - 2^52 - 1024, exact
        kf = kf - 54.0 if sub else kf
        m = _i2f(ix - (tt & _HIGH) + _BIAS)
        p, N = _pow_core_nb(m, kf, theta_hi, theta_lo, c)
        Nc = N if N > _NMIN else _NMIN
        scale = _i2f(((_f2i(Nc + _SHIFT_SCALE) - _SHIFT_BITS) + 1023) << 52)
        out = (p * scale) * _TWO_M540
        return out if s > 0.0 else 0.0

    @numba.njit(cache=True, nogil=True, error_model="numpy")
    def _pow_loop(s, theta_hi, theta_lo, c, out):
        for i in range(s.shape[0]):
            out[i] = pow_unit(s[i], theta_hi, theta_lo, c)
else:  # pragma: no cover
    # no compiled kernels without numba: the names stay importable and callers test HAVE_NUMBA first
    pow_unit = None  # type: ignore[assignment]
    _pow_loop = None  # type: ignore[assignment]


def _pow_np(s, theta_hi, theta_lo, c):
    """:func:`pow_unit` in numpy (same operations, same bits) on a float64 array in [0, 1] (no checks)."""
    sub = s < _SUB
    s2 = np.where(sub, s * _TWO54, s)
    ix = s2.view(np.int64)
    tt = ix - np.int64(_OFF) + np.int64(_BIAS)
    kb = (tt >> 52) & 0xFFF
    kf = ((kb | np.int64(_TWO52)).view(np.float64) - 4503599627370496.0) - 1024.0
    kf = np.where(sub, kf - 54.0, kf)
    m = (ix - (tt & np.int64(_HIGH)) + np.int64(_BIAS)).view(np.float64)
    p, N = _pow_core(m, kf, theta_hi, theta_lo, c)
    Nc = np.where(N > _NMIN, N, _NMIN)
    scale = ((((Nc + _SHIFT_SCALE).view(np.int64) - np.int64(_SHIFT_BITS)) + 1023) << 52).view(np.float64)
    with np.errstate(under="ignore"):
        out = (p * scale) * _TWO_M540
    return np.where(s > 0.0, out, 0.0)


#: Records per block of the product of ``q``: ``q >= 1/theta >= 1/2`` (to within 5 ulps), so
#: ``prod >= 2^-1000 (1 - 1e-12)``, above the smallest normal ``2^-1022`` (no underflow, no precision loss).
BLOCK_RECORDS = 1000

#: Net points per column block of :func:`log_weights`: the block's weights, products, sums,
#: compensations and residuals (``(4 + d) x 256`` floats) stay in a 32 KB L1 cache for ``d <= 12``.
_WIDTH = 256

if HAVE_NUMBA:
    _jit = numba.njit(cache=True, nogil=True, error_model="numpy")
else:  # pragma: no cover

    def _jit(fn):
        return fn


def _theta_mode(theta):
    """0: ``theta = 2`` (``s s / 2``); 1: ``theta = 1.5`` (``s sqrt(s)``); 2: any other (``pow``)."""
    return 0 if theta == 2.0 else (1 if theta == 1.5 else 2)


@_jit
def _log_prod_q(Xs, ys, s, WT, iota, theta_hi, theta_lo, c_theta, inv_theta, mode, block, width, out):
    """``out[j] = sum over record blocks of log prod_i q(min(iota |y_i - <x_i, w_j>| s_i, 1))``.

    ``theta_hi, theta_lo, c_theta``: :func:`reference.wang_xu._powers.pow_constants` (mode 2 only).
    """
    n, d = Xs.shape
    k = WT.shape[1]
    acc = np.empty(width)
    lsum = np.empty(width)
    comp = np.empty(width)
    r = np.empty(width)
    pw = np.empty(width)
    W = np.empty((d, width))
    for j0 in range(0, k, width):
        m = min(k, j0 + width) - j0
        for c in range(d):
            for j in range(m):
                W[c, j] = WT[c, j0 + j]
        for j in range(m):
            acc[j] = 1.0
            lsum[j] = 0.0
            comp[j] = 0.0
        cnt = 0
        for i in range(n):
            yi = ys[i]
            si = s[i]
            x0 = Xs[i, 0]
            for j in range(m):
                r[j] = x0 * W[0, j]
            for c in range(1, d):
                xc = Xs[i, c]
                for j in range(m):
                    r[j] += xc * W[c, j]
            # s = t if t < 1 else 1: an infinite t and a NaN residual give s = 1 (psi = log theta)
            if mode == 0:
                for j in range(m):
                    t = (iota * abs(yi - r[j])) * si
                    sv = t if t < 1.0 else 1.0
                    acc[j] *= (1.0 - sv) + 0.5 * (sv * sv)
            elif mode == 1:
                for j in range(m):
                    t = (iota * abs(yi - r[j])) * si
                    sv = t if t < 1.0 else 1.0
                    acc[j] *= (1.0 - sv) + (sv * math.sqrt(sv)) * inv_theta
            else:
                # three loops, the same operations: fused into one, LLVM reloaded the ~30 constants of
                # pow_unit every iteration and the kernel took 12.5 ns a pair against 5.5 for pow_unit alone
                for j in range(m):
                    t = (iota * abs(yi - r[j])) * si
                    r[j] = t if t < 1.0 else 1.0
                for j in range(m):
                    pw[j] = pow_unit(r[j], theta_hi, theta_lo, c_theta)
                for j in range(m):
                    acc[j] *= (1.0 - r[j]) + pw[j] * inv_theta
            cnt += 1
            if cnt == block or i == n - 1:
                # Neumaier's compensated sum of the block logarithms: with n = 10^6 identical-block
                # records the plain sum drifted by 5e-9 (|S| ~ 4.5e5, 1,000 blocks rounding alike)
                for j in range(m):
                    x = math.log(acc[j])
                    tot = lsum[j] + x
                    if abs(lsum[j]) >= abs(x):
                        comp[j] += (lsum[j] - tot) + x
                    else:
                        comp[j] += (x - tot) + lsum[j]
                    lsum[j] = tot
                    acc[j] = 1.0
                cnt = 0
        for j in range(m):
            out[j0 + j] = lsum[j] + comp[j]


def _finish(log_prod, theta, neg_k_eps):
    # S = -sum log prod q >= 0; the log-weight is (S / log theta) * (-k eps), as each term was scaled
    return (-log_prod / math.log(theta)) * neg_k_eps


def log_weights(Xs, ys, s, W, iota, theta, neg_k_eps, *, block=BLOCK_RECORDS):
    """Log-weights ``(S(w) / log theta) * neg_k_eps``, ``S(w) = -log prod_i q_i(w)``, of the net points ``W`` (k, d).

    ``Xs`` (n, d), ``ys`` (n,) and ``s`` (n,) are the records scaled by powers of two
    (``l1_regression._scaled``).  The compiled kernel when numba is present, else
    :func:`log_weights_numpy` (the same block products, a ``log`` per block that may differ in its last bits;
    see the module docstring).  ``block`` (records per logarithm) must stay at most
    ``BLOCK_RECORDS`` for the no-underflow guarantee; it is a parameter only so the tests can show
    what a larger block breaks.

    Examples
    --------
    >>> import numpy as np
    >>> lw = log_weights(np.array([[1.0]]), np.array([1.0]), np.ones(1), np.array([[0.0], [1.0]]), 1.0, 2.0, -1.0)
    >>> bool(abs(lw[0] + 1.0) < 1e-15), float(lw[1])      # psi(1) = log 2 -> -1; psi(0) = 0
    (True, -0.0)
    """
    Xs = np.ascontiguousarray(Xs, dtype=np.float64)
    W = np.asarray(W, dtype=np.float64)
    if not HAVE_NUMBA:  # pragma: no cover
        return log_weights_numpy(Xs, ys, s, W, iota, theta, neg_k_eps, block=block)
    theta = float(theta)
    mode = _theta_mode(theta)
    th, tl, c = pow_constants(theta) if mode == 2 else (0.0, 0.0, 0.0)
    out = np.empty(W.shape[0])
    _log_prod_q(
        Xs,
        np.ascontiguousarray(ys, dtype=np.float64),
        np.ascontiguousarray(s, dtype=np.float64),
        np.ascontiguousarray(W.T),
        float(iota),
        th,
        tl,
        c,
        1.0 / theta,
        mode,
        int(block),
        _WIDTH,
        out,
    )
    return _finish(out, theta, neg_k_eps)


def log_weights_numpy(Xs, ys, s, W, iota, theta, neg_k_eps, *, block=BLOCK_RECORDS):
    """The numpy evaluation of :func:`log_weights`: the same operations in the same order.

    Its block products, compensated sum and scaling are the kernel's bits on every CPU; its block logarithms
    are ``np.log`` (numpy's AVX-512F routine on CPUs with AVX-512, the C library's elsewhere), each within
    ``FUNCTION_ULPS`` ulps, so the result may differ from the kernel's in the last bits (module docstring).

    Vectorised over a block of at most ``block`` records and all net points; a loop over record
    blocks and over the ``d`` coordinates only.
    """
    Xs = np.asarray(Xs, dtype=np.float64)
    ys = np.asarray(ys, dtype=np.float64)
    s = np.asarray(s, dtype=np.float64)
    W = np.asarray(W, dtype=np.float64)
    theta = float(theta)
    inv_theta = 1.0 / theta
    mode = _theta_mode(theta)
    consts = pow_constants(theta) if mode == 2 else None
    n, d = Xs.shape
    total = np.zeros(W.shape[0])
    comp = np.zeros(W.shape[0])
    with np.errstate(over="ignore", invalid="ignore"):
        for i0 in range(0, n, block):
            i1 = min(n, i0 + block)
            r = Xs[i0:i1, 0, None] * W[:, 0]
            for c in range(1, d):
                r += Xs[i0:i1, c, None] * W[:, c]
            t = (iota * np.abs(ys[i0:i1, None] - r)) * s[i0:i1, None]
            sv = np.where(t < 1.0, t, 1.0)  # inf and NaN -> 1, as in the kernel
            if mode == 0:
                q = (1.0 - sv) + 0.5 * (sv * sv)
            elif mode == 1:
                q = (1.0 - sv) + (sv * np.sqrt(sv)) * inv_theta
            else:
                q = (1.0 - sv) + _pow_np(sv, *consts) * inv_theta
            x = np.log(np.multiply.reduce(q, axis=0))
            tot = total + x
            comp += np.where(np.abs(total) >= np.abs(x), (total - tot) + x, (x - tot) + total)
            total = tot
    return _finish(total + comp, theta, neg_k_eps)


def log_weight_error_bound(Xs, ys, s, W, iota, theta, neg_k_eps, lw):
    """First-order bound on ``|lw - exact|`` for the log-weights ``lw`` of :func:`log_weights` (k,).

    ``exact`` is the log-weight in exact arithmetic on the same records and net points.  With
    ``u = 2^-53``, ``c = 5`` (``theta = 2``: the two roundings of ``t``, the two of ``q`` and the
    product), ``8`` (``theta = 1.5``: ``s sqrt(s)`` and ``1/theta`` add three) or ``15`` (other
    ``theta``: ``1/theta`` and its product add two, ``pow_unit`` its relative ``8 u``, which moves ``q``
    by at most ``8 u q`` since ``0 <= s^theta / theta <= q``) and ``S = -log prod q``::

        |d lw| <= 1.01 [ (k eps / log theta) (c n u + 3 u S + sum_i e_i) + 3 u |lw| ],
        e_i = 0 if t_i - dt_i >= 1 else min(dt_i, log theta),
        dt_i = iota s_i g_(d+1) (|ys_i| + sum_c |Xs_ic w_c|),

    ``g_m = m u / (1 - m u)``, ``t_i`` the computed ``iota |y_i - <x_i, w>|``: ``u S`` for the block
    logarithms, ``2 u S`` for their compensated sum.
    The block logarithms are counted at ``u`` times their value, which assumes a ``log`` within about half
    an ulp; at the contract's ``FUNCTION_ULPS = 4`` ulps that term would be ``2 FUNCTION_ULPS u S``, which
    this bound does not add (the errors measured against mpmath in ``tests/test_wang_xu_score_kernel.py``
    stay inside it).
    The last sum is the rounding of the residuals themselves (psi has slope at most 1 and range
    ``log theta``), which any float64 evaluation has (the BLAS product had it too); the other terms
    are ``O(n u)`` whatever the residuals.  The law moves by a relative ``2 max |d lw|`` plus the
    normalisation's own rounding.  Memory ``O(n k)`` (a diagnostic for the tests and the docs).
    """
    u = 2.0**-53
    Xs = np.asarray(Xs, dtype=np.float64)
    W = np.atleast_2d(np.asarray(W, dtype=np.float64))
    lw = np.asarray(lw, dtype=np.float64)
    n, d = Xs.shape
    k_eps = abs(float(neg_k_eps))
    log_theta = math.log(float(theta))
    mode = _theta_mode(float(theta))
    c = (5.0, 8.0, 7.0 + POW_REL_ERROR / u)[mode]
    S = np.abs(lw) * log_theta / k_eps
    g = (d + 1) * u / (1.0 - (d + 1) * u)
    si = np.asarray(s, dtype=np.float64)[:, None]
    ys = np.asarray(ys, dtype=np.float64)[:, None]
    with np.errstate(over="ignore", invalid="ignore"):
        dt = (iota * g) * si * (np.abs(ys) + np.abs(Xs) @ np.abs(W).T)
        t = (iota * np.abs(ys - dot_products(Xs, W))) * si
        # psi is log theta on both sides where even t - dt >= 1 (no error); else at most min(dt, log theta)
        resid = np.where(t - dt >= 1.0, 0.0, np.minimum(dt, log_theta)).sum(axis=0)
    return 1.01 * ((k_eps / log_theta) * (c * n * u + 3.0 * u * S + resid) + 3.0 * u * np.abs(lw))
