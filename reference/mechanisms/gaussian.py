"""The Gaussian mechanism with its classic calibration, batched over leading axes.

A query answer is a scalar or a vector on the last axis; leading axes of
``value`` are a batch of independent answers, and every coordinate gets its own
noise.

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
from ._batch import draw_shape

__all__ = ["gaussian_sigma", "gaussian_mechanism", "gaussian_release", "gaussian_log_density",
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
    """Release ``q(D) + N(0, sigma^2 I)`` with the classic ``sigma`` (see :func:`gaussian_sigma`).

    Parameters
    ----------
    value : array_like, scalar or shape (..., d)
        The exact query answer(s).
    sensitivity, epsilon, delta : float
        l2-sensitivity and privacy parameters.
    size : int or None
        Number of independent releases; the result has shape ``(size,) + value.shape``.
    rng : numpy.random.Generator, int or None
    """
    q = check_finite_array("value", value)
    return gaussian_release(q, gaussian_sigma(sensitivity, epsilon, delta), size, rng)


def gaussian_release(value, sigma, size=None, rng=None):
    """Release ``value + N(0, sigma^2 I)`` for a noise level ``sigma`` calibrated by the caller.

    The noise step of every Gaussian mechanism, whatever its calibration (the
    classic one of :func:`gaussian_mechanism`, or a paper's own ``sigma``).

    Parameters
    ----------
    value : array_like, scalar or shape (..., d)
    sigma : float
        Noise standard deviation, > 0.
    size : int or None
        Number of independent releases; the result has shape ``(size,) + value.shape``.
    rng : numpy.random.Generator, int or None

    Notes
    -----
    One ``normal(0, sigma)`` draw per entry, in C order of ``(size,) + value.shape``.
    """
    q = check_finite_array("value", value)
    s = check_positive("sigma", sigma)
    return q + as_generator(rng).normal(0.0, s, size=draw_shape(q.shape, size))


def gaussian_log_density(outputs, value, sigma):
    """Log-density of ``N(value, sigma^2 I)`` at ``outputs``.

    Parameters
    ----------
    outputs : array_like, shape (..., d) (or (...) for a scalar query)
        Releases; broadcast against ``value``.
    value : array_like, scalar or shape (..., d)
    sigma : float

    Returns
    -------
    numpy.ndarray, shape (...)
        The joint log-density of the ``d`` coordinates of each release.
    """
    q = check_finite_array("value", value)
    s = check_positive("sigma", sigma)
    z = (np.asarray(outputs, dtype=np.float64) - q) / s
    per = -0.5 * z * z - math.log(s) - 0.5 * math.log(2 * math.pi)
    return per if q.ndim == 0 else per.sum(axis=-1)


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
        out = gaussian_release(q, self.sigma, check_integer("size", size, minimum=0), rng)
        return out.reshape(out.shape[0], -1)

    def log_density(self, data, outputs):
        q = np.ravel(check_finite_array("data", data))
        return gaussian_log_density(np.asarray(outputs).reshape(len(outputs), q.size), q, self.sigma)
