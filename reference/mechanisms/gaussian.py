"""The Gaussian mechanism with its classic calibration.

References
----------
.. [1] C. Dwork and A. Roth, "The algorithmic foundations of differential privacy",
       Theorem 3.22 (2014).
.. [2] B. Balle and Y.-X. Wang, "Improving the Gaussian mechanism for differential privacy:
       analytical calibration and optimal denoising", ICML 2018, Theorem 8.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
from scipy.special import log_ndtr

from ..validation import (as_generator, check_delta, check_epsilon, check_finite_array,
                          check_integer, check_positive)

__all__ = ["gaussian_sigma", "gaussian_mechanism", "gaussian_log_density",
           "gaussian_exact_delta", "GaussianMechanism"]


def gaussian_sigma(sensitivity, epsilon, delta):
    """Classic calibration ``sigma = Delta_2 * sqrt(2 log(1.25/delta)) / epsilon``.

    The classic theorem (Dwork & Roth, Thm 3.22) covers ``epsilon < 1`` only.
    For ``epsilon >= 1`` the formula is still returned, with a ``UserWarning``:
    the exact check (:func:`gaussian_exact_delta`) decides whether it suffices.
    """
    d2 = check_positive("sensitivity", sensitivity)
    eps = check_epsilon(epsilon)
    dlt = check_delta(delta)
    if eps >= 1.0:
        warnings.warn(f"the classic Gaussian calibration is proved for epsilon < 1, got epsilon={eps!r}",
                      UserWarning, stacklevel=2)
    return d2 * math.sqrt(2.0 * math.log(1.25 / dlt)) / eps


def gaussian_mechanism(value, sensitivity, epsilon, delta, size=None, rng=None):
    """Release ``q(D) + N(0, sigma^2 I)`` with the classic ``sigma`` (see :func:`gaussian_sigma`)."""
    q = check_finite_array("value", value)
    sigma = gaussian_sigma(sensitivity, epsilon, delta)
    gen = as_generator(rng)
    if size is None:
        return q + gen.normal(0.0, sigma, size=q.shape)
    size = check_integer("size", size, minimum=0)
    return q + gen.normal(0.0, sigma, size=(size,) + q.shape)


def gaussian_log_density(outputs, value, sigma):
    """Log-density of ``N(value, sigma^2 I)`` at the rows of ``outputs``."""
    q = check_finite_array("value", value)
    s = check_positive("sigma", sigma)
    z = (np.asarray(outputs, dtype=np.float64) - q) / s
    per = -0.5 * z * z - math.log(s) - 0.5 * math.log(2 * math.pi)
    if q.ndim == 0:
        return per
    return per.reshape(per.shape[: per.ndim - q.ndim] + (-1,)).sum(axis=-1)


def gaussian_exact_delta(epsilon, sigma, sensitivity):
    """Smallest delta for which ``N(q, sigma^2 I)`` is (epsilon, delta)-DP at l2-sensitivity Delta.

    Balle & Wang (2018), Theorem 8:
    ``delta(eps) = Phi(Delta/(2 sigma) - eps sigma/Delta) - e^eps Phi(-Delta/(2 sigma) - eps sigma/Delta)``,
    evaluated with log-CDFs so that tiny deltas do not cancel to 0 or go negative.
    """
    eps = check_epsilon(epsilon)
    s = check_positive("sigma", sigma)
    d2 = check_positive("sensitivity", sensitivity)
    a = d2 / (2 * s) - eps * s / d2
    b = -d2 / (2 * s) - eps * s / d2
    la, lb = log_ndtr(a), eps + log_ndtr(b)
    if lb >= la:
        return 0.0
    return float(math.exp(la) * -math.expm1(lb - la))


class GaussianMechanism:
    """Mechanism-protocol adapter; ``data`` is the query answer ``q(D)``."""

    finite_output = False

    def __init__(self, sensitivity, epsilon, delta):
        self.sensitivity = check_positive("sensitivity", sensitivity)
        self.epsilon = check_epsilon(epsilon)
        self.delta = check_delta(delta)
        self.sigma = gaussian_sigma(sensitivity, epsilon, delta)

    def sample(self, data, size, rng=None):
        q = check_finite_array("data", data)
        gen = as_generator(rng)
        out = q + gen.normal(0.0, self.sigma, size=(check_integer("size", size, minimum=0),) + q.shape)
        return out.reshape(out.shape[0], -1)

    def log_density(self, data, outputs):
        return gaussian_log_density(np.asarray(outputs).reshape(len(outputs), *np.shape(data)),
                                    data, self.sigma)
