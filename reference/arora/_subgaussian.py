"""The sub-Gaussian condition of the Boosting theorem of 004 ([004 App. E], condition 2): closed forms and a
Monte Carlo estimate of ``sup_u E exp(<A, u>^2 / gamma^2)``.

References
----------
.. [1] R. Arora, R. Bassily, C. Guzman, M. Menart and E. Ullah, ``004_2b354816f00c2aef.txt``: [004 App. E]
       (condition 2 of its theorem: ``sup_{||u|| = 1} E exp(<A, u>^2 / gamma^2) <= 2`` for the output ``A``).
"""

from __future__ import annotations

import math

import numpy as np
from scipy import optimize

from ..validation import as_generator, check_finite_array, check_positive

__all__ = ["subgaussian_mgf", "gaussian_output_subgaussian_constant", "bounded_output_subgaussian_constant",
           "subgaussian_mgf_estimate"]


def subgaussian_mgf(mean, sigma, gamma):
    """``E exp((mean + sigma Z)^2 / gamma^2)`` for ``Z ~ N(0, 1)``, in closed form (``inf`` if
    ``gamma^2 <= 2 sigma^2``).

    ``= (1 - 2 sigma^2/gamma^2)^{-1/2} exp(mean^2 / (gamma^2 - 2 sigma^2))``.
    """
    s = check_positive("sigma", sigma)
    g = check_positive("gamma", gamma)
    mu = np.asarray(mean, dtype=np.float64)
    rs = s / g                                   # ratios keep 1e300 / subnormal inputs finite
    if 2 * rs * rs >= 1:
        return np.full(mu.shape, np.inf)[()]
    with np.errstate(over="ignore"):
        rm = mu / g
        return (np.exp(-0.5 * math.log1p(-2 * rs * rs) + rm * rm / (1 - 2 * rs * rs)))[()]


def gaussian_output_subgaussian_constant(mean_bound, sigma):
    """Smallest ``gamma`` with ``sup_{||u||=1} E exp(<A, u>^2/gamma^2) <= 2`` for ``A = w + N(0, sigma^2 I)``,
    ``||w|| <= mean_bound``.

    Condition 2 of the theorem of [004 App. E] for output perturbation: ``<A, u> ~ N(<w, u>, sigma^2)``
    and the sup over ``u`` puts ``|<w, u>| = mean_bound``; the MGF is increasing in the mean,
    decreasing in ``gamma``, so the root of ``mgf = 2`` is found by ``brentq`` in log space.
    """
    mb = float(mean_bound)
    if not math.isfinite(mb) or mb < 0:
        raise ValueError(f"mean_bound must be finite and >= 0, got {mean_bound!r}")
    s = check_positive("sigma", sigma)
    # gamma is homogeneous: gamma(c mb, c s) = c gamma(mb, s); solve at scale c = max(mb, s) so
    # that 1e300 and subnormal inputs neither overflow nor divide by zero
    c = max(mb, s)
    mb, s = mb / c, s / c

    def f(g):
        gap = (g - math.sqrt(2) * s) * (g + math.sqrt(2) * s)
        return -0.5 * math.log1p(-2 * (s / g) ** 2) + mb * mb / gap - math.log(2.0)

    # at both lower end points f >= 0: the first term blows up at sqrt(2) s, the second
    # is >= log 2 at mb / sqrt(log 2)
    lo = max(math.sqrt(2) * s * (1 + 1e-9), mb / math.sqrt(math.log(2.0)) * (1 - 1e-9))
    hi = 2.0 * max(lo, 1.0) + 10.0
    while f(hi) > 0:
        hi *= 2
    root = lo if f(lo) <= 0 else optimize.brentq(f, lo, hi, xtol=1e-15, rtol=1e-14)
    if not math.isfinite(c * root):
        raise ValueError(f"gamma for mean_bound={mean_bound!r}, sigma={sigma!r} exceeds the float64 range")
    return c * root


def bounded_output_subgaussian_constant(norm_bound):
    """``gamma = R / sqrt(log 2)`` for outputs with ``||A|| <= R`` (e.g. noisy projected GD, ``R = B``).

    ``<A, u>^2 <= R^2`` for unit ``u``, so ``E exp(<A, u>^2/gamma^2) <= exp(R^2/gamma^2) = 2``.
    """
    return check_positive("norm_bound", norm_bound) / math.sqrt(math.log(2.0))


def subgaussian_mgf_estimate(samples, gamma, *, directions=64, rng=None):
    """Monte Carlo estimate of ``sup_u E exp(<A, u>^2 / gamma^2)`` from output draws (rows).

    Checks condition 2 of the theorem of [004 App. E] for any learner: directions are the
    coordinate axes, the mean direction and ``directions`` random unit vectors; the mean of
    ``exp`` is formed in log space, so huge draws give ``inf`` rather than ``NaN``.
    Returns ``(estimate, direction)``.
    """
    A = check_finite_array("samples", samples, ndim=2)
    g = check_positive("gamma", gamma)
    gen = as_generator(rng)
    d = A.shape[1]
    # scale first so that 1e300 entries overflow neither the mean direction nor the dot products
    amax = float(np.max(np.abs(A))) or 1.0
    As = A / amax
    U = np.vstack([np.eye(d), As.mean(axis=0, keepdims=True), gen.normal(size=(directions, d))])
    nrm = np.linalg.norm(U, axis=1)
    U = U[nrm > 0] / nrm[nrm > 0, None]
    proj = As @ U.T
    with np.errstate(over="ignore"):
        expo = (proj * (amax / g)) ** 2                      # (n, dirs), may be inf
        top = expo.max(axis=0)
        logm = top + np.log(np.mean(np.exp(expo - np.where(np.isfinite(top), top, 0.0)), axis=0))
    logm = np.where(np.isfinite(top), logm, np.inf)
    k = int(np.argmax(logm))
    return float(np.exp(logm[k])) if logm[k] < 709 else math.inf, U[k]
