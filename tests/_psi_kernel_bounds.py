"""The comparisons of the compiled psi kernels with numpy's evaluation that the reproducibility contract allows.

``docs/reproducibility.md``: IEEE ``+ - * /``, comparisons and numpy's sums in their fixed order give the same
bits on every CPU; ``log1p``, ``pow`` and ``log`` do not (the kernels call the C library, numpy on AVX-512 its
own or Intel's SIMD loops).  So a kernel is compared with numpy in two parts:

* its psi values: within ``2 B(t)`` of numpy's, ``B`` =
  :func:`reference.wang_xu.truncation.psi_evaluation_error_bound` (two evaluations, each within ``B`` of the
  exact psi of the same ``t``), on arguments ``t`` both compute with the same IEEE operations (same bits);
* everything after psi (scaling, signs, sums in numpy's order): bit for bit, against the same operations applied
  in numpy to the kernel's own psi values (:func:`kernel_psi`).

The ``violations`` helpers return the entries a comparison rejects, so a test can show the same comparison
failing on a broken evaluation (power).
"""

from __future__ import annotations

import numpy as np

from reference.floating import FUNCTION_ULPS, UNIT_ROUNDOFF

# private: _score_kernel: the compiled kernel's per-term error bounds are the subject
from reference.wang_xu import _score_kernel as SK
from reference.wang_xu.truncation import psi_evaluation_error_bound

U = UNIT_ROUNDOFF
ETA = 2.0**-1074
G2 = 2.0 * U / (1.0 - 2.0 * U)
MARGIN = 1.0 + 2.0**-40  # covers the roundings of the bounds' own evaluation


def bits(a):
    return np.asarray(a, dtype=np.float64).view(np.int64)


def bits_equal(a, b):
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return a.shape == b.shape and np.array_equal(bits(a), bits(b))


def kernel_psi(t, theta):
    """The compiled ``_psi`` at every ``t >= 0`` (any shape), through :func:`SK.psi_of_residuals` with ``x = 0``,
    ``w = 0`` and ``iota = 1``: its argument ``1 * |t - 0 * 0|`` is ``t`` exactly, so these are the kernel's bits."""
    t = np.asarray(t, dtype=np.float64)
    flat = np.ascontiguousarray(t.ravel())
    return SK.psi_of_residuals(np.zeros(flat.size), flat, np.zeros(1), 1.0, theta)[:, 0].reshape(t.shape)


def _outside(a, b, bound):
    """Entries with ``|a - b| > bound``; a non-finite value counts unless both are the same (it would make a
    bound that scales with ``|a|`` infinite)."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        inside = np.isfinite(a) & np.isfinite(b) & (np.abs(a - b) <= bound)
    return ~(inside | (a == b))


def psi_violations(a, b, t, theta):
    """Entries where two psi evaluations at the same ``t`` differ by more than ``2 B(t)``."""
    return _outside(a, b, 2.0 * psi_evaluation_error_bound(t, theta))


def scaled_term_bound(Ta, Tb, t, theta, log_theta, neg_k_eps):
    """Bound on ``|Ta - Tb|`` for ``T = fl(fl(P / L) * m)`` of two psi evaluations ``P`` at the same ``t``.

    ``L = log_theta`` and ``m = neg_k_eps`` are the same floats on both sides.  With ``x = P / L`` (exact),
    ``fl(fl(x) m) = x m (1 + d1)(1 + d2) + e``, ``|d| <= u``, ``|e| <= (|m| + 1) eta / 2`` (underflow), so
    ``|T - x m| <= g_2 |x m| + (|m| + 1) eta / 2`` and ``|x m| <= (|T| + (|m| + 1) eta) / (1 - g_2)``::

        |Ta - Tb| <= (|m| / L) |Pa - Pb| + g_2 / (1 - g_2) (|Ta| + |Tb|) + 2 (|m| + 1) eta,

    with ``|Pa - Pb| <= 2 B(t)``.  (Where ``Pa`` and ``Pb`` are the same float, so are ``Ta`` and ``Tb``.)
    """
    m = abs(float(neg_k_eps))
    B = psi_evaluation_error_bound(t, theta)
    return ((m / log_theta) * 2.0 * B + G2 / (1.0 - G2) * (np.abs(Ta) + np.abs(Tb)) + 2.0 * (m + 1.0) * ETA) * MARGIN


def scaled_term_violations(Ta, Tb, t, theta, log_theta, neg_k_eps):
    with np.errstate(invalid="ignore"):
        return _outside(Ta, Tb, scaled_term_bound(Ta, Tb, t, theta, log_theta, neg_k_eps))


def log_weights_bound(lw_a, lw_b, n, block, log_theta, neg_k_eps, function_ulps=FUNCTION_ULPS):
    """Bound on ``|lw_a - lw_b|`` for two evaluations of :func:`SK.log_weights` that differ only in their ``log``.

    Proof note.  The compiled kernel and :func:`SK.log_weights_numpy` form the same block products ``P_b`` of
    ``q`` (IEEE operations in the same order), then take ``x_b = log P_b`` (``math.log`` against ``np.log``,
    each within ``F = function_ulps`` ulps), add the ``nb = ceil(n / block)`` values by Neumaier's compensated
    sum and scale ``fl(fl(-S / L) m)``: the same IEEE operations.  Every computed ``q = fl(fl(1 - s) + c')`` is
    at most 1: ``fl(1 - s) <= 1 - s + u/2``, ``c' <= c (1 + 10 u)`` and ``s - c >= s (theta - 1) / theta``, so the
    sum stays below ``1 + u`` (for ``theta - 1 >= 2^-40``, every theta here) and rounds to at most 1.  So
    ``P_b <= 1``, ``log P_b <= 0`` and ``sum_b |log P_b| = S* = -sum_b log P_b`` (exact).  Then

    * ``|x_b - x'_b| <= 2 F ulp(log P_b) <= 2 F (2u |log P_b| + eta)``: at most ``4 F u S* + 2 nb F eta`` in all;
    * each compensated sum is within ``u |sum| + g_(nb)^2 sum |x|`` of its exact sum (Ogita, Rump and Oishi
      2005, Prop. 4.5: Neumaier's branch makes each error term exact, as TwoSum does), and
      ``|sum x| <= sum |x| <= (1 + 2Fu) S* + nb F eta``;
    * the scaling adds ``g_2 / (1 - g_2) (|lw_a| + |lw_b|)`` (as in :func:`scaled_term_bound`).

    ``S*`` is recovered from either output: ``|lw| >= (|m| / L) S* (1 - 2Fu - u - g_nb^2)(1 - g_2)`` minus
    subnormal terms.
    """
    m = abs(float(neg_k_eps))
    F = float(function_ulps)
    nb = -(-int(n) // int(block))
    g_nb = nb * U / (1.0 - nb * U)
    lo = np.minimum(np.abs(lw_a), np.abs(lw_b))
    S = (lo + 2.0 * (m + 1.0) * ETA) * (log_theta / m) / (
        (1.0 - 2.0 * F * U - U - g_nb**2) * (1.0 - G2)
    ) + 2.0 * nb * F * ETA
    sum_abs = (1.0 + 2.0 * F * U) * S + nb * F * ETA
    dS = 4.0 * F * U * S + 2.0 * nb * F * ETA + 2.0 * (U + g_nb**2) * sum_abs
    return ((m / log_theta) * dS + G2 / (1.0 - G2) * (np.abs(lw_a) + np.abs(lw_b)) + 4.0 * (m + 1.0) * ETA) * MARGIN


def log_weights_violations(lw_a, lw_b, n, block, log_theta, neg_k_eps):
    with np.errstate(invalid="ignore"):
        return _outside(lw_a, lw_b, log_weights_bound(lw_a, lw_b, n, block, log_theta, neg_k_eps))


def broken_psi_swapped(t, theta):
    """A broken psi: for ``theta = 2`` the small- and large-argument formulas exchanged (the large one cancels
    to an absolute error of order ``u`` at small ``t``); for ``theta < 2`` the truncation at ``t = 1`` left out
    (the formula continued beyond 1, where it decreases again)."""
    t = np.asarray(t, dtype=np.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        if theta == 2.0:
            s = np.minimum(t, 1.0)
            return np.where(s < 0.5, np.log(2.0) - np.log1p((1.0 - s) ** 2), -np.log1p(s * (0.5 * s - 1.0)))
        tt = np.minimum(t, 1e300)
        return np.where(tt < 1e300, -np.log1p(np.power(tt, theta) / theta - tt), np.log(theta))
