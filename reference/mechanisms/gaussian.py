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
from numpy.typing import ArrayLike, NDArray
from scipy.special import log_ndtr

from ..validation import (
    RNGLike,
    as_generator,
    check_delta,
    check_epsilon,
    check_finite_array,
    check_finite_result,
    check_integer,
    check_positive,
)
from ._batch import check_release_outputs, draw_public, draw_shape, finite_release
from .recorder import record_call

__all__ = [
    "gaussian_sigma",
    "gaussian_mechanism",
    "gaussian_release",
    "gaussian_log_density",
    "gaussian_exact_delta",
    "GaussianMechanism",
]


def gaussian_sigma(sensitivity: float, epsilon: float, delta: float) -> float:
    """Classic calibration ``sigma = Delta_2 * sqrt(2 log(1.25/delta)) / epsilon``.

    The classic theorem (Dwork & Roth, Thm 3.22) covers ``epsilon < 1`` only.
    For ``epsilon >= 1`` the formula is still returned, with a ``UserWarning``:
    the exact check (:func:`gaussian_exact_delta`) decides whether it suffices.

    Parameters
    ----------
    sensitivity : float
        The l2-sensitivity ``Delta_2``, finite and > 0.
    epsilon : float
        Privacy parameter, finite and > 0.
    delta : float
        Privacy parameter, in (0, 1).

    Returns
    -------
    float
        The noise standard deviation.

    Raises
    ------
    TypeError
        If a parameter is not a real number.
    ValueError
        If ``sensitivity`` or ``epsilon`` is not finite and positive, or ``delta`` is not in (0, 1).

    Warns
    -----
    UserWarning
        If ``epsilon >= 1``.

    References
    ----------
    .. [1] C. Dwork and A. Roth, "The algorithmic foundations of differential privacy", 2014, Thm. 3.22.

    Examples
    --------
    >>> round(gaussian_sigma(1.0, 0.5, 1e-5), 4)
    9.6896
    """
    d2 = check_positive("sensitivity", sensitivity)
    eps = check_epsilon(epsilon)
    dlt = check_delta(delta)
    if eps >= 1.0:
        warnings.warn(
            f"the classic Gaussian calibration is proved for epsilon < 1, got epsilon={eps!r}",
            UserWarning,
            stacklevel=2,
        )
    return check_finite_result(
        "gaussian_sigma", d2 * math.sqrt(2.0 * math.log(1.25 / dlt)) / eps, sensitivity=d2, epsilon=eps, delta=dlt
    )


def gaussian_mechanism(
    value: ArrayLike, sensitivity: float, epsilon: float, delta: float, size: int | None = None, rng: RNGLike = None
) -> NDArray[np.float64]:
    """Release ``q(D) + N(0, sigma^2 I)`` with the classic ``sigma`` (see :func:`gaussian_sigma`).

    Parameters
    ----------
    value : array_like, scalar or shape (..., d)
        The exact query answer(s), finite.
    sensitivity, epsilon, delta : float
        l2-sensitivity and privacy parameters (as :func:`gaussian_sigma` takes them).
    size : int or None, default None
        Number of independent releases, ``>= 0``; the result has shape ``(size,) + value.shape``.
    rng : numpy.random.Generator, int, SeedSequence or None, default None
        Source of randomness (:func:`~reference.validation.as_generator`).

    Returns
    -------
    numpy.ndarray of float64
        The releases, shape ``value.shape`` or ``(size,) + value.shape``.

    Raises
    ------
    TypeError
        If ``value`` is not an array of real numbers, a parameter not a real number, ``size`` not an integer or
        ``rng`` not a generator or seed.
    ValueError
        If ``value`` is empty or not finite, ``sensitivity`` or ``epsilon`` not finite and positive, ``delta``
        not in (0, 1), or ``size < 0``.

    Warns
    -----
    UserWarning
        If ``epsilon >= 1`` (:func:`gaussian_sigma`).

    References
    ----------
    .. [1] C. Dwork and A. Roth, "The algorithmic foundations of differential privacy", 2014, Thm. 3.22.

    Examples
    --------
    >>> gaussian_mechanism([0.0, 1.0, 2.0], 1.0, 0.5, 1e-5, size=4, rng=0).shape
    (4, 3)
    """
    q = check_finite_array("value", value)
    sigma = gaussian_sigma(sensitivity, epsilon, delta)
    return record_call(
        "gaussian",
        data=q,
        sensitivity=sensitivity,
        norm="l2",
        privacy={"epsilon": epsilon, "delta": delta},
        law={"center": q, "sigma": sigma},
        public=draw_public(q.shape, size),
        sample=lambda: gaussian_release(q, sigma, size, rng),
        site="Dwork & Roth Thm. 3.22",
    )


def gaussian_release(
    value: ArrayLike, sigma: float, size: int | None = None, rng: RNGLike = None
) -> NDArray[np.float64]:
    """Release ``value + N(0, sigma^2 I)`` for a noise level ``sigma`` calibrated by the caller.

    The noise step of every Gaussian mechanism, whatever its calibration (the
    classic one of :func:`gaussian_mechanism`, or a paper's own ``sigma``).

    Parameters
    ----------
    value : array_like, scalar or shape (..., d)
        The exact query answer(s), finite.
    sigma : float
        Noise standard deviation, finite and > 0.
    size : int or None, default None
        Number of independent releases, ``>= 0``; the result has shape ``(size,) + value.shape``.
    rng : numpy.random.Generator, int, SeedSequence or None, default None
        Source of randomness (:func:`~reference.validation.as_generator`).

    Returns
    -------
    numpy.ndarray of float64
        The releases, shape ``value.shape`` or ``(size,) + value.shape``.

    Raises
    ------
    TypeError
        If ``value`` is not an array of real numbers, ``sigma`` not a real number, ``size`` not an integer or
        ``rng`` not a generator or seed.
    ValueError
        If ``value`` is empty or not finite, ``sigma`` not finite and positive, or ``size < 0``.

    Notes
    -----
    One ``normal(0, sigma)`` draw per entry, in C order of ``(size,) + value.shape``.

    References
    ----------
    .. [1] C. Dwork and A. Roth, "The algorithmic foundations of differential privacy", 2014, Thm. 3.22 and
       App. A (the Gaussian mechanism).

    Examples
    --------
    >>> gaussian_release(np.zeros(2), sigma=1.0, rng=0).shape
    (2,)
    """
    q = check_finite_array("value", value)
    s = check_positive("sigma", sigma)
    gen = as_generator(rng)
    # called without a caller's declaration: the sensitivity is unknown (inf) and no budget is claimed
    return record_call(
        "gaussian",
        data=q,
        sensitivity=math.inf,
        norm="l2",
        privacy={},
        law={"center": q, "sigma": s},
        public=draw_public(q.shape, size),
        sample=lambda: finite_release(
            "gaussian_release",
            q,
            gen.normal(0.0, s, size=draw_shape(q.shape, size)),
            sigma=s,
        ),
        site="Dwork & Roth App. A",
    )


def gaussian_log_density(outputs: ArrayLike, value: ArrayLike, sigma: float) -> NDArray[np.float64]:
    """Log-density of ``N(value, sigma^2 I)`` at ``outputs``.

    Parameters
    ----------
    outputs : array_like, shape (..., d) (or (...) for a scalar query)
        Releases; broadcast against ``value``.
    value : array_like, scalar or shape (..., d)
        The exact query answer(s), finite.
    sigma : float
        Noise standard deviation, finite and > 0.

    Returns
    -------
    numpy.ndarray of float64, shape (...)
        The joint log-density of the ``d`` coordinates of each release.

    Raises
    ------
    TypeError
        If ``value`` is not an array of real numbers or ``sigma`` not a real number.
    ValueError
        If ``value`` is empty or not finite, or ``sigma`` not finite and positive.

    References
    ----------
    .. [1] The normal density; C. Dwork and A. Roth, 2014, App. A (the Gaussian mechanism).

    Examples
    --------
    >>> np.round(gaussian_log_density([[0.0, 1.0]], [0.0, 0.0], sigma=1.0), 6)
    array([-2.337877])
    """
    q = check_finite_array("value", value)
    s = check_positive("sigma", sigma)
    x = check_release_outputs(outputs, q)
    with np.errstate(over="ignore"):  # an output far beyond the value has log-density -inf
        z = (x - q) / s
        per = -0.5 * z * z - math.log(s) - 0.5 * math.log(2 * math.pi)
        return per if q.ndim == 0 else per.sum(axis=-1)


def gaussian_exact_delta(epsilon: float, sigma: float, sensitivity: float) -> float:
    """Smallest delta for which ``N(q, sigma^2 I)`` is (epsilon, delta)-DP at l2-sensitivity Delta.

    ``delta(eps) = Phi(Delta/(2 sigma) - eps sigma/Delta) - e^eps Phi(-Delta/(2 sigma) - eps sigma/Delta)``,
    evaluated with log-CDFs so that tiny deltas do not cancel to 0 or go negative.

    Parameters
    ----------
    epsilon : float
        Privacy parameter, finite and > 0.
    sigma : float
        Noise standard deviation, finite and > 0.
    sensitivity : float
        The l2-sensitivity ``Delta``, finite and > 0.

    Returns
    -------
    float
        The exact delta, in [0, 1).

    Raises
    ------
    TypeError
        If a parameter is not a real number.
    ValueError
        If a parameter is not finite and positive.

    References
    ----------
    .. [1] B. Balle and Y.-X. Wang, "Improving the Gaussian mechanism for differential privacy: analytical
       calibration and optimal denoising", ICML 2018, Thm. 8.

    Examples
    --------
    >>> d = gaussian_exact_delta(0.5, gaussian_sigma(1.0, 0.5, 1e-5), 1.0)
    >>> 0.0 < d < 1e-5
    True
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
    """The classic Gaussian mechanism in the mechanism protocol; ``data`` is the query answer ``q(D)``.

    ``sample(data, size, rng)`` returns ``size`` releases as rows of the flattened answer;
    ``log_density(data, outputs)`` their joint log-density.

    Parameters
    ----------
    sensitivity : float
        The l2-sensitivity, finite and > 0.
    epsilon : float
        Privacy parameter, finite and > 0.
    delta : float
        Privacy parameter, in (0, 1).

    Raises
    ------
    TypeError
        If a parameter is not a real number.
    ValueError
        If ``sensitivity`` or ``epsilon`` is not finite and positive, or ``delta`` is not in (0, 1).

    Warns
    -----
    UserWarning
        If ``epsilon >= 1`` (:func:`gaussian_sigma`).

    References
    ----------
    .. [1] C. Dwork and A. Roth, "The algorithmic foundations of differential privacy", 2014, Thm. 3.22.

    Examples
    --------
    >>> mech = GaussianMechanism(1.0, 0.5, 1e-5)
    >>> mech.sample([0.0, 1.0], 3, rng=0).shape
    (3, 2)
    >>> mech.log_density([0.0], [[0.0], [mech.sigma]]).shape
    (2,)
    """

    finite_output = False

    def __init__(self, sensitivity: float, epsilon: float, delta: float) -> None:
        self.sensitivity = check_positive("sensitivity", sensitivity)
        self.epsilon = check_epsilon(epsilon)
        self.delta = check_delta(delta)
        self.sigma = gaussian_sigma(sensitivity, epsilon, delta)

    def sample(self, data: ArrayLike, size: int, rng: RNGLike = None) -> NDArray[np.float64]:
        q = check_finite_array("data", data)
        out = gaussian_release(q, self.sigma, check_integer("size", size, minimum=0), rng)
        return out.reshape(out.shape[0], -1)

    def log_density(self, data: ArrayLike, outputs: ArrayLike) -> NDArray[np.float64]:
        q = np.ravel(check_finite_array("data", data))
        outputs_array = np.asarray(outputs)
        return gaussian_log_density(outputs_array.reshape(len(outputs_array), q.size), q, self.sigma)
