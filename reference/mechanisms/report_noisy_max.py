"""Report-noisy-max with Laplace noise, with its exact selection distribution.

Scores have shape ``(..., K)``: one vector of ``K`` scores per row, the leading
axes a batch of independent inputs (a single vector is a batch of one).

References
----------
.. [1] C. Dwork and A. Roth, "The algorithmic foundations of differential privacy",
       Section 3.3, Claim 3.9 (2014).
.. [2] Arora et al., the Boosting step 3 of [004 App. E].
.. [3] Hu, Ni, Xiao and Wang, Peeling step 5 of [002 Alg. 4].
"""

from __future__ import annotations

import math
import warnings

import numpy as np
from scipy import integrate

from ..validation import as_generator, check_epsilon, check_positive
from ._batch import argmax_of_noisy_rows, check_candidate_array, flat_batch

__all__ = ["report_noisy_max_scale", "report_noisy_max", "report_noisy_max_log_prob",
           "ReportNoisyMax"]

#: Half-width, in noise scales, of the window outside which the integrand of
#: :func:`report_noisy_max_log_prob` is dropped (relative mass below exp(-60)).
_TAIL_SCALES = 60.0
#: Distance, in noise scales, from every score beyond which each Laplace CDF
#: factor equals its pure-exponential form to a relative exp(-40): there the
#: integrand is integrated in closed form.
_FLAT_SCALES = 40.0
#: Candidates further than this many noise scales below the best one win with
#: probability below exp(-1e12); they are reported as log-probability -inf and
#: their CDF factors (1 to within exp(-1e12)) are dropped from the others' integrands.
_NEGLIGIBLE_SCALES = 1e12


def report_noisy_max_scale(sensitivity, epsilon, *, monotone=False):
    """Laplace scale for an epsilon-DP report-noisy-max.

    ``2*Delta/epsilon`` for general scores (each score may move by +-Delta
    independently); ``Delta/epsilon`` suffices when neighbouring datasets move
    all scores in the same direction (monotone, e.g. counting queries;
    Dwork & Roth Claim 3.9).
    """
    d = check_positive("sensitivity", sensitivity)
    eps = check_epsilon(epsilon)
    return (1.0 if monotone else 2.0) * d / eps


def report_noisy_max(scores, scale, size=None, rng=None):
    """Return ``argmax_j (scores_j + Lap(scale))`` for every row of ``scores`` (vectorised).

    Parameters
    ----------
    scores : array_like, shape (..., K)
        One score vector per row.
    scale : float
        Laplace noise scale, > 0 (see :func:`report_noisy_max_scale`).
    size : int or None
        ``None``: one draw per row (a Python ``int`` for a single score vector).
        An int: ``size`` independent draws per row, shape ``(size, ...)``.
    rng : numpy.random.Generator, int or None

    Returns
    -------
    int or numpy.ndarray of int

    Notes
    -----
    One ``Lap(scale)`` variable per (draw, candidate), drawn in C order of
    ``(size, ..., K)`` and chunked without changing the stream.

    References
    ----------
    .. [1] [004 App. E] (Boosting step 3), [002 Alg. 4] (step 5).
    """
    b = check_positive("scale", scale)
    u = check_candidate_array("scores", scores)
    gen = as_generator(rng)
    out = argmax_of_noisy_rows(u, size, lambda chunk: chunk + gen.laplace(0.0, b, size=chunk.shape))
    return int(out) if out.ndim == 0 else out


def _log_laplace_cdf(t):
    """log P[Lap(1) <= t], accurate in both tails."""
    t = np.asarray(t, dtype=np.float64)
    return np.where(t < 0, t - math.log(2.0), np.log1p(-0.5 * np.exp(-np.abs(t))))


def _clusters(points, gap):
    """Group sorted points into runs whose consecutive distances are <= ``gap``."""
    runs, current = [], [points[0]]
    for p in points[1:]:
        if p - current[-1] <= gap:
            current.append(p)
        else:
            runs.append(current)
            current = [p]
    runs.append(current)
    return runs


def _log_integral_exponential(x0, x1, slope, value_at_x0):
    """log of int_{x0}^{x1} exp(value_at_x0 + slope (x - x0)) dx, for x1 > x0."""
    length = x1 - x0
    if slope == 0:
        return value_at_x0 + math.log(length)
    if slope > 0:  # dominated by the right end
        return value_at_x0 + slope * length + math.log(-math.expm1(-slope * length)) - math.log(slope)
    return value_at_x0 + math.log(-math.expm1(slope * length)) - math.log(-slope)


def _log_prob_one(z, j):
    """log P[candidate j wins] for scores ``z`` in noise-scale units (max z = 0)."""
    zj = z[j]
    others = np.delete(z, j)

    def log_integrand(x):
        return -abs(x - zj) - math.log(2.0) + float(np.sum(_log_laplace_cdf(x - others)))

    # The log-integrand carries an absolute rounding error of about |z| * 1e-16,
    # i.e. a relative error of that size in the integrand: ask quad for no more.
    reach = abs(float(z.min()))
    epsrel = max(1e-11, 1e-14 * reach)
    coarse = reach > 1e3
    pieces = []
    runs = _clusters(np.unique(z), 2 * _FLAT_SCALES)
    for r, run in enumerate(runs):
        a = run[0] - (_TAIL_SCALES if r == 0 else _FLAT_SCALES)
        b = run[-1] + (_TAIL_SCALES if r == len(runs) - 1 else _FLAT_SCALES)
        pts = np.array(run)
        ref = max(log_integrand(x) for x in (a, b, *run))
        with warnings.catch_warnings():
            if coarse:
                # The log-probability (about -|gap|) keeps its relative accuracy there.
                warnings.simplefilter("ignore", integrate.IntegrationWarning)
            val, _ = integrate.quad(lambda x: math.exp(log_integrand(x) - ref), a, b,
                                    points=pts if pts.size <= 200 else None,
                                    limit=max(100, 4 * pts.size), epsabs=0.0, epsrel=epsrel)
        if val > 0:
            pieces.append(ref + math.log(val))
        if r + 1 < len(runs):
            # Between clusters every factor is exponential in x up to a relative exp(-40):
            # F(t) = e^t/2 for the scores above, 1 for those below, f likewise.
            x0, x1 = b, runs[r + 1][0] - _FLAT_SCALES
            above = int(np.sum(others > x0))
            slope = above + (1.0 if zj > x0 else -1.0)
            pieces.append(_log_integral_exponential(x0, x1, slope, log_integrand(x0)))
    return float(np.logaddexp.reduce(pieces)) if pieces else -np.inf


def report_noisy_max_log_prob(scores, scale):
    """Exact log P[report-noisy-max selects j], j = 0..K-1, for every row of ``scores``.

    ``scores`` has shape ``(..., K)``; the result has the same shape (each row
    is computed by one-dimensional quadrature, one row at a time).

    ``P[j] = int f(x - u_j) prod_{i != j} F(x - u_i) dx`` with ``f, F`` the
    Laplace(scale) density and CDF.  Scores are grouped into clusters (runs
    whose gaps are at most 80 noise scales); on each cluster the log-concave
    integrand is integrated adaptively in log space with the scores as
    breakpoints (relative tolerance 1e-11, or ``1e-14 * gap`` where the gap
    in noise scales makes float64 rounding larger); between clusters every factor is a
    pure exponential up to a relative ``exp(-40)`` and is integrated in closed
    form.  The result is renormalised; the tests check the factor is 1 to 1e-9
    and compare with the closed form for two candidates up to gaps of 1e5.

    A score more than 1e12 noise scales below the maximum gets log-probability
    ``-inf`` (its true value is below ``-1e12``).
    Ties need no special care: they have probability zero.

    References
    ----------
    .. [1] Dwork and Roth (2014), Claim 3.9; [004 App. E]; [002 Alg. 4].
    """
    u = check_candidate_array("scores", scores)
    b = check_positive("scale", scale)
    rows, _ = flat_batch(u)
    logp = np.array([_log_prob_row(row, b) for row in rows])
    return logp.reshape(u.shape)


def _log_prob_row(u, b):
    """:func:`report_noisy_max_log_prob` for one score vector ``u`` (K,) and scale ``b``."""
    k = u.size
    if k == 1:
        return np.zeros(1)
    with np.errstate(over="ignore"):
        z = (u / 2 - u.max() / 2) / b * 2.0   # noise-scale units; -inf when the gap overflows
    finite = z >= -_NEGLIGIBLE_SCALES
    logp = np.full(k, -np.inf)
    zf = z[finite]
    idx = np.flatnonzero(finite)
    if zf.size == 1:
        logp[idx] = 0.0
        return logp
    with np.errstate(over="ignore"):  # sums near -1.8e308 overflow to -inf: probability 0, honestly
        for pos, j in enumerate(idx):
            logp[j] = _log_prob_one(zf, pos)
    m = np.max(logp)
    return logp - (m + math.log(np.sum(np.exp(logp - m))))




class ReportNoisyMax:
    """Mechanism-protocol adapter; ``data`` is the score vector."""

    finite_output = True

    def __init__(self, scale):
        self.scale = check_positive("scale", scale)

    @classmethod
    def from_privacy(cls, sensitivity, epsilon, *, monotone=False):
        return cls(report_noisy_max_scale(sensitivity, epsilon, monotone=monotone))

    def log_prob(self, data):
        logp = report_noisy_max_log_prob(data, self.scale)
        return np.arange(logp.shape[-1]), logp

    def sample(self, data, size, rng=None):
        return report_noisy_max(data, self.scale, size, rng)
