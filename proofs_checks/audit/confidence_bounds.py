"""Clopper-Pearson bounds of the statistical audit's estimation split, its epsilon bound and its p-value.

See :mod:`~proofs_checks.audit.statistical` (steps 3 and 4) for how they are used.

References
----------
.. [1] C. J. Clopper and E. S. Pearson, "The use of confidence or fiducial limits illustrated in
       the case of the binomial", Biometrika 26 (1934).
"""

from __future__ import annotations

import math

from statsmodels.stats.proportion import proportion_confint

from ._cp_bound import _cp_eps_vector, clopper_pearson_epsilon_vector

__all__ = ["clopper_pearson_bounds", "clopper_pearson_epsilon", "clopper_pearson_epsilon_vector", "dp_p_value"]


def clopper_pearson_bounds(k, n, k2, n2, confidence):
    """One-sided exact bounds ``(p_low, q_high)``, each at error ``(1 - confidence)/2``.

    ``p_low`` bounds ``P(S)`` from below from ``k`` of ``n``; ``q_high`` bounds
    ``P'(S)`` from above from ``k2`` of ``n2``.  Computed with statsmodels'
    two-sided Clopper-Pearson interval at level ``alpha = 1 - confidence``,
    whose lower (upper) end is the one-sided bound at error ``alpha/2``.
    """
    alpha = 1.0 - confidence
    p_low = proportion_confint(int(k), int(n), alpha=alpha, method="beta")[0]
    q_high = proportion_confint(int(k2), int(n2), alpha=alpha, method="beta")[1]
    return float(p_low), float(q_high)


def _eps_from_bounds(p_low, q_high, delta):
    if p_low - delta <= 0:
        return 0.0
    if q_high <= 0:
        return math.inf
    return max(0.0, math.log(p_low - delta) - math.log(q_high))


def clopper_pearson_epsilon(k, n, k2, n2, delta, confidence):
    """``max(0, log((p_low - delta)/q_high))`` with the bounds of :func:`clopper_pearson_bounds`."""
    return _eps_from_bounds(*clopper_pearson_bounds(k, n, k2, n2, confidence), delta)


def dp_p_value(k, n, k2, n2, epsilon, delta):
    """p-value of H0 "(epsilon, delta)-DP" for the event with counts ``k/n`` and ``k2/n2``.

    The smallest ``alpha`` at which the Clopper-Pearson bound with error
    ``alpha/2`` on each side exceeds ``epsilon``; 1 when no alpha < 1 does.
    """

    def exceeds(alpha):
        return _cp_eps_vector(k, n, k2, n2, delta, alpha / 2.0)[()] > epsilon

    if not exceeds(1.0 - 1e-15):
        return 1.0
    lo, hi = -700.0, math.log(1.0 - 1e-15)  # log alpha; exceeds(hi) is True
    if exceeds(math.exp(lo)):
        return 0.0
    for _ in range(80):
        mid = 0.5 * (lo + hi)
        if exceeds(math.exp(mid)):
            hi = mid
        else:
            lo = mid
    return float(math.exp(hi))
