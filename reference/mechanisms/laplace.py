"""The Laplace mechanism ([002 Def. 2]), batched over leading axes.

A query answer is a scalar or a vector on the last axis; leading axes of
``value`` are a batch of independent answers, and every coordinate gets its own
noise.

References
----------
.. [1] C. Dwork, F. McSherry, K. Nissim and A. Smith, "Calibrating noise to sensitivity in
       private data analysis", TCC 2006.
.. [2] Hu, Ni, Xiao and Wang, [002 Def. 2].
"""

from __future__ import annotations

import numpy as np

from ..validation import as_generator, check_epsilon, check_finite_array, check_positive
from ._batch import draw_shape

__all__ = ["laplace_scale", "laplace_mechanism", "laplace_log_density", "LaplaceMechanism"]


def laplace_scale(sensitivity, epsilon):
    """Noise scale ``lambda = Delta_1(q) / epsilon`` of [002 Def. 2]."""
    return check_positive("sensitivity", sensitivity) / check_epsilon(epsilon)


def laplace_mechanism(value, sensitivity, epsilon, size=None, rng=None):
    """Release ``q(D) + (Y_1, ..., Y_d)`` with ``Y_i ~ Lap(Delta_1(q)/epsilon)`` i.i.d.

    Parameters
    ----------
    value : array_like, scalar or shape (..., d)
        The exact query answer ``q(D)``; leading axes are a batch of answers.
    sensitivity : float
        The l1-sensitivity ``Delta_1(q)``.
    epsilon : float
        Privacy parameter.
    size : int or None
        Number of independent releases; the result has shape ``(size,) + value.shape``.
        ``None``: one release of the shape of ``value``.
    rng : numpy.random.Generator, int or None

    Returns
    -------
    numpy.ndarray

    Notes
    -----
    [002 Def. 2] prints the density as ``exp(-x/lambda) / (2 lambda)``,
    which is not a density on the real line (it is not integrable); the Laplace
    density is ``exp(-|x|/lambda) / (2 lambda)``, used here.  The discrepancy is
    registered as claim ``hu.def2.laplace-density-as-printed``.

    Proof note: ``log p(x | q) - log p(x | q') = (||x - q'||_1 - ||x - q||_1)/lambda
    <= ||q - q'||_1 / lambda <= epsilon`` by the triangle inequality.

    References
    ----------
    .. [1] [002 Def. 2].
    """
    q = check_finite_array("value", value, nonempty=True)
    scale = laplace_scale(sensitivity, epsilon)
    gen = as_generator(rng)
    return q + gen.laplace(0.0, scale, size=draw_shape(q.shape, size))


def laplace_log_density(outputs, value, sensitivity, epsilon):
    """Log-density of the Laplace mechanism at ``outputs``, for query answer(s) ``value``.

    Parameters
    ----------
    outputs : array_like, shape (..., d) (or (...) for a scalar query)
        Releases; broadcast against ``value``.
    value : array_like, scalar or shape (..., d)
    sensitivity, epsilon : float

    Returns
    -------
    numpy.ndarray, shape (...)
        The joint log-density of the ``d`` coordinates of each release.

    References
    ----------
    .. [1] [002 Def. 2].
    """
    q = check_finite_array("value", value)
    x = np.asarray(outputs, dtype=np.float64)
    scale = laplace_scale(sensitivity, epsilon)
    per_coord = -np.log(2.0 * scale) - np.abs(x - q) / scale
    return per_coord if q.ndim == 0 else per_coord.sum(axis=-1)


class LaplaceMechanism:
    """Mechanism-protocol adapter; ``data`` is the query answer ``q(D)`` (any shape, one release)."""

    finite_output = False

    def __init__(self, sensitivity, epsilon):
        self.sensitivity = check_positive("sensitivity", sensitivity)
        self.epsilon = check_epsilon(epsilon)

    def sample(self, data, size, rng=None):
        out = laplace_mechanism(data, self.sensitivity, self.epsilon, size, rng)
        return out.reshape(out.shape[0], -1)

    def log_density(self, data, outputs):
        q = np.ravel(check_finite_array("data", data))
        return laplace_log_density(np.asarray(outputs).reshape(len(outputs), q.size), q,
                                   self.sensitivity, self.epsilon)
