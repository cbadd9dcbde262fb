"""Paper 000's golden quantities in 60-digit arithmetic, from the printed formulas (no float64 code of ``reference``).

The float64 values of psi, the truncated risk, the l1 loss and the log-weights depend on the CPU: numpy's
AVX-512 ``log1p`` and ``log`` and the BLAS product of ``l1_loss`` round differently from the C library
(``docs/reproducibility.md``).  The golden files therefore ship these values correctly rounded: each is
computed here exactly from the float64 inputs (residuals as exact sums of exact products, psi through
mpmath's ``log1p``) at 60 significant digits and rounded once to float64, so regenerating the files gives
the same bits on every machine, and a port is held to the exact value, not to one machine's rounding.

References
----------
.. [1] D. Wang and J. Xu, ``000_e64de114947d2122.txt``: [000 eq. (2)] (truncated risk), [000 eq. (6)] and
       [000 eq. (16)] (psi), [000 Alg. 1 step 2] and [000 Alg. 2 step 2] (the exponential mechanism's weights).
"""

from __future__ import annotations

import math

import mpmath
import numpy as np

__all__ = [
    "DIGITS",
    "psi",
    "residuals",
    "truncated_empirical_risk",
    "l1_loss",
    "log_weights",
    "log_prob",
    "to_float64",
    "to_strings",
    "PROVENANCE",
    "net_points",
    "theorem1_parameters",
    "theorem2_parameters",
    "exponent_factor",
]

#: Provenance of every value of this module.
PROVENANCE = (
    "mpmath, 60 digits, from the printed formulas at the float64 inputs (proofs_checks/golden/wang_xu_mp.py); "
    "nets: the grid points enumerated with exact integer indices and the ball membership decided at 60 digits"
)

#: Significant digits of every evaluation here (float64 needs 17; the margin covers the cancellations of psi).
DIGITS = 60


def _mp(x):
    return mpmath.mpf(float(x))


def psi(x, theta):
    """psi of [000 eq. (6)] (``theta = 2``) / [000 eq. (16)] at one float ``x``: an mpf (odd, ``log theta`` for
    ``|x| >= 1``)."""
    with mpmath.workdps(DIGITS):
        th = _mp(theta)
        if math.isinf(x):
            t = mpmath.mpf(1)
        else:
            t = min(abs(_mp(x)), mpmath.mpf(1))
        # log1p keeps the digits of 1 - t + t^theta/theta when t is subnormal (log of the sum would round to 0)
        v = -mpmath.log1p(t**th / th - t)
        return -v if x < 0 else v


def residuals(W, X, y):
    """``y_i - <x_i, w_k>`` exactly (mpf), shape (n, K) as nested lists: every product and sum of float64 is
    representable in 60 digits except at the extremes of the exponent range, where 60 digits are still far
    below float64's rounding."""
    W = np.atleast_2d(np.asarray(W, dtype=np.float64))
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    with mpmath.workdps(DIGITS):
        return [
            [_mp(y[i]) - mpmath.fsum(_mp(a) * _mp(b) for a, b in zip(X[i], w)) for w in W] for i in range(X.shape[0])
        ]


def _psi_mp(t, th):
    s = min(t, mpmath.mpf(1))
    return -mpmath.log1p(s**th / th - s)


def truncated_empirical_risk(W, X, y, iota, theta):
    """[000 eq. (2)]: ``(1/(n iota)) sum_i psi(iota |y_i - <x_i, w>|)`` for each row ``w`` of ``W`` (list of mpf)."""
    R = residuals(W, X, y)
    with mpmath.workdps(DIGITS):
        io, th = _mp(iota), _mp(theta)
        n = len(R)
        return [mpmath.fsum(_psi_mp(io * abs(R[i][k]), th) for i in range(n)) / (n * io) for k in range(len(R[0]))]


def l1_loss(W, X, y):
    """``(1/n) sum_i |y_i - <x_i, w>|`` for each row ``w`` of ``W`` (list of mpf)."""
    R = residuals(W, X, y)
    with mpmath.workdps(DIGITS):
        n = len(R)
        return [mpmath.fsum(abs(R[i][k]) for i in range(n)) / n for k in range(len(R[0]))]


def log_weights(W, X, y, k_eps, iota, theta):
    """The exponential mechanism's log-weights ``-(k eps / log theta) sum_i psi(iota |y_i - <x_i, w>|)``
    ([000 Alg. 1 step 2], [000 Alg. 2 step 2]); ``k_eps`` is the float64 multiplier ``exponent_factor`` returns."""
    R = residuals(W, X, y)
    with mpmath.workdps(DIGITS):
        io, th = _mp(iota), _mp(theta)
        n = len(R)
        scale = -_mp(k_eps) / mpmath.log(th)
        return [scale * mpmath.fsum(_psi_mp(io * abs(R[i][k]), th) for i in range(n)) for k in range(len(R[0]))]


def log_prob(log_w):
    """``log P(w) = lw(w) - log sum_v exp(lw(v))`` of mpf log-weights (list of mpf)."""
    with mpmath.workdps(DIGITS):
        top = max(log_w)
        log_z = top + mpmath.log(mpmath.fsum(mpmath.exp(v - top) for v in log_w))
        return [v - log_z for v in log_w]


def to_float64(values):
    """mpf values rounded once to float64 (round to nearest: correctly rounded), as an array."""
    return np.array([float(v) for v in values], dtype=np.float64)


def to_strings(values, digits=25):
    """Decimal strings of ``digits`` significant digits (the golden files' ``mp_reference``)."""
    return [mpmath.nstr(v, digits, min_fixed=1, max_fixed=0) for v in values]


def net_points(kind, radius, zeta, dim):
    """The zeta-net of [000 Def. 4] the golden cases use, enumerated exactly: the grid ``k h`` (``k`` integer)
    restricted to the ball, ``h = 2 zeta / (d + sqrt d)`` for the l1 ball, ``zeta / sqrt d`` for the l2 ball
    (each the largest spacing whose cells have l2 radius covering zeta: the reference's construction), as rows
    of mpf in lexicographic order of ``k``.

    Examples
    --------
    >>> [[float(v) for v in row] for row in net_points("l1", 1.0, 1.0, 1)]
    [[-1.0], [0.0], [1.0]]
    """
    from itertools import product

    with mpmath.workdps(DIGITS):
        R, z, d = _mp(radius), _mp(zeta), int(dim)
        if kind == "l1":
            h = 2 * z / (d + mpmath.sqrt(d))
        elif kind == "l2":
            h = z / mpmath.sqrt(d)
        else:
            raise ValueError(f"kind must be 'l1' or 'l2', got {kind!r}")
        half = int(mpmath.floor(R / h))
        rows = []
        for k in product(range(-half, half + 1), repeat=d):
            norm = sum(abs(i) for i in k) * h if kind == "l1" else mpmath.sqrt(sum(i * i for i in k)) * h
            if norm <= R:
                rows.append([i * h for i in k])
        return rows


def theorem1_parameters(n, d, epsilon, eta, tau, assumption=1):
    """[000 Thm. 1] with its O-constants 1: ``zeta = 1/n``; under [000 Assumption 1] ([000 eq. (7)])
    ``iota = sqrt(d log n log(1/eta) / (n eps tau^2))`` and rate ``tau sqrt(d log n log(1/eta) / (n eps))``;
    under [000 Assumption 2] ([000 eq. (8)]) ``iota = sqrt(log n log(1/eta) / (tau^2 n eps))`` and rate
    ``tau sqrt(d^2 log n log(1/eta) / (n eps))``."""
    with mpmath.workdps(DIGITS):
        n_, d_, e, tau = int(n), int(d), _mp(epsilon), _mp(tau)
        logs = mpmath.log(n_) * mpmath.log(1 / _mp(eta))
        if assumption == 1:
            iota, rate = mpmath.sqrt(d_ * logs / (n_ * e * tau**2)), tau * mpmath.sqrt(d_ * logs / (n_ * e))
        else:
            iota, rate = mpmath.sqrt(logs / (tau**2 * n_ * e)), tau * mpmath.sqrt(d_**2 * logs / (n_ * e))
        return {"zeta": mpmath.mpf(1) / n_, "iota": iota, "rate": rate}


def theorem2_parameters(n, d, epsilon, eta, tau, theta, assumption=3):
    """[000 Thm. 2] as printed, O-constants 1: ``zeta = 1/n``; under [000 Assumption 3] ([000 eq. (18)])
    ``iota = (1/tau) (d log(1/eta) / (n eps))^(1/theta)`` and rate ``tau (d log n log(1/eta) / (n eps))^p``;
    under [000 Assumption 4] ([000 eq. (19)]) ``iota = (1/tau) (log n log(1/eta) / (n eps))^p`` and rate
    ``tau d (log n log(1/eta) / (n eps))^p``, ``p = (theta - 1)/theta``."""
    with mpmath.workdps(DIGITS):
        n_, d_, e, tau, th = int(n), int(d), _mp(epsilon), _mp(tau), _mp(theta)
        p, le, ln = (th - 1) / th, mpmath.log(1 / _mp(eta)), mpmath.log(n_)
        if assumption == 3:
            iota, rate = (d_ * le / (n_ * e)) ** (1 / th) / tau, tau * (d_ * ln * le / (n_ * e)) ** p
        else:
            iota, rate = (ln * le / (n_ * e)) ** p / tau, tau * d_ * (ln * le / (n_ * e)) ** p
        return {"zeta": mpmath.mpf(1) / n_, "iota": iota, "rate": rate}


def exponent_factor(epsilon, variant="printed"):
    """The multiplier ``k eps`` of the log-weights of [000 Alg. 1 step 2] / [000 Alg. 2 step 2]: ``k = 1`` as
    printed, ``1/4`` with the stated sensitivity [000 Def. 2], ``1/2`` calibrated."""
    k = {"printed": mpmath.mpf(1), "standard": mpmath.mpf(1) / 4, "calibrated": mpmath.mpf(1) / 2}[variant]
    with mpmath.workdps(DIGITS):
        return k * _mp(epsilon)
