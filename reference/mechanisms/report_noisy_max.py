"""Report-noisy-max with Laplace noise, with its exact selection distribution.

References
----------
.. [1] C. Dwork and A. Roth, "The algorithmic foundations of differential privacy",
       Section 3.3, Claim 3.9 (2014).
.. [2] Arora et al., Appendix E, Boosting step 3 (``004_2b354816f00c2aef.txt``).
.. [3] Hu, Ni, Xiao and Wang, Algorithm 4 (Peeling) step 5 (``002_6c597657f27a60c9.txt``).
"""

from __future__ import annotations

import math

import numpy as np
from scipy import integrate

from ..validation import as_generator, check_epsilon, check_integer, check_positive, check_scores

__all__ = ["report_noisy_max_scale", "report_noisy_max", "report_noisy_max_log_prob",
           "ReportNoisyMax"]

#: Half-width, in noise scales, of the window outside which the integrand of
#: :func:`report_noisy_max_log_prob` is dropped (relative mass below exp(-60)).
_TAIL_SCALES = 60.0


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
    """Return ``argmax_j (scores_j + Lap(scale))``; ``size`` independent draws in one call."""
    u = check_scores(scores)
    b = check_positive("scale", scale)
    gen = as_generator(rng)
    n = 1 if size is None else check_integer("size", size, minimum=0)
    out = np.empty(n, dtype=np.int64)
    chunk = max(1, int(2**22 // u.size))
    for start in range(0, n, chunk):
        stop = min(n, start + chunk)
        out[start:stop] = np.argmax(u + gen.laplace(0.0, b, size=(stop - start, u.size)), axis=1)
    return int(out[0]) if size is None else out


def _log_laplace_cdf(t):
    """log P[Lap(1) <= t], accurate in both tails."""
    t = np.asarray(t, dtype=np.float64)
    return np.where(t < 0, t - math.log(2.0), np.log1p(-0.5 * np.exp(-np.abs(t))))


def report_noisy_max_log_prob(scores, scale):
    """Exact log P[report-noisy-max selects j], j = 0..k-1, by one-dimensional quadrature.

    ``P[j] = int f(x - u_j) prod_{i != j} F(x - u_i) dx`` with ``f, F`` the
    Laplace(scale) density and CDF.  The integrand is log-concave, so it is
    integrated in log space around its mode, with the breakpoints ``u_i`` passed
    to the adaptive quadrature (relative tolerance 1e-11).  The result is
    renormalised; the renormalisation factor (which should be 1) is checked in
    the tests to be within 1e-9.

    Ties between scores need no special care: they have probability zero.
    """
    u = check_scores(scores)
    b = check_positive("scale", scale)
    k = u.size
    if k == 1:
        return np.zeros(1)
    z = (u - u.max()) / b          # work in units of the noise scale
    lo, hi = z.min() - _TAIL_SCALES, _TAIL_SCALES
    logp = np.empty(k)
    for j in range(k):
        others = np.delete(z, j)

        def log_integrand(x, zj=z[j], others=others):
            return -abs(x - zj) - math.log(2.0) + float(np.sum(_log_laplace_cdf(x - others)))

        # log-concave: locate the mode among the breakpoints' neighbourhood.
        grid = np.unique(np.clip(np.concatenate([z, [z[j] + 1e-9]]), lo, hi))
        vals = np.array([log_integrand(x) for x in grid])
        ref = vals.max()
        pts = grid[(grid > lo) & (grid < hi)]
        val, _ = integrate.quad(lambda x: math.exp(log_integrand(x) - ref), lo, hi,
                                points=pts if pts.size <= 200 else None,
                                limit=max(100, 4 * pts.size), epsabs=0.0, epsrel=1e-11)
        logp[j] = ref + math.log(val) if val > 0 else -np.inf
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
        return np.arange(logp.size), logp

    def sample(self, data, size, rng=None):
        return report_noisy_max(data, self.scale, size, rng)
