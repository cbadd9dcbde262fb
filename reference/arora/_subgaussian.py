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
from numpy.typing import ArrayLike, NDArray
from scipy import optimize

from ..validation import RNGLike, as_generator, check_finite_array, check_positive

__all__ = [
    "subgaussian_mgf",
    "gaussian_output_subgaussian_constant",
    "bounded_output_subgaussian_constant",
    "subgaussian_mgf_estimate",
]


def subgaussian_mgf(mean: ArrayLike, sigma: float, gamma: float) -> NDArray[np.float64] | np.float64:
    """``E exp((mean + sigma Z)^2 / gamma^2)`` for ``Z ~ N(0, 1)``, in closed form.

    ``= (1 - 2 sigma^2/gamma^2)^{-1/2} exp(mean^2 / (gamma^2 - 2 sigma^2))``, and ``inf`` if
    ``gamma^2 <= 2 sigma^2``.

    Parameters
    ----------
    mean : array_like
        The means, any shape.
    sigma : float
        Standard deviation, finite and > 0.
    gamma : float
        The constant, finite and > 0.

    Returns
    -------
    numpy.ndarray of float64 or numpy.float64
        The MGF, the shape of ``mean`` (a scalar for a scalar mean); ``inf`` where it diverges or overflows.

    Raises
    ------
    TypeError
        If ``sigma`` or ``gamma`` is not a real number.
    ValueError
        If ``sigma`` or ``gamma`` is not finite and positive.

    References
    ----------
    .. [1] [004 App. E] (condition 2 of its theorem); R. Vershynin, "High-Dimensional Probability", 2018,
       Sec. 2.5 (sub-gaussian norms).

    Examples
    --------
    >>> round(float(subgaussian_mgf(0.0, 1.0, 2.0)), 6)      # (1 - 1/2)^(-1/2)
    1.414214
    >>> float(subgaussian_mgf(0.0, 1.0, 1.0))
    inf
    """
    s = check_positive("sigma", sigma)
    g = check_positive("gamma", gamma)
    mu = np.asarray(mean, dtype=np.float64)
    rs = s / g  # ratios keep 1e300 / subnormal inputs finite
    if 2 * rs * rs >= 1:
        return np.full(mu.shape, np.inf)[()]
    with np.errstate(over="ignore"):
        rm = mu / g
        return (np.exp(-0.5 * math.log1p(-2 * rs * rs) + rm * rm / (1 - 2 * rs * rs)))[()]


def gaussian_output_subgaussian_constant(mean_bound: float, sigma: float) -> float:
    """Smallest ``gamma`` with ``sup_{||u||=1} E exp(<A, u>^2/gamma^2) <= 2`` for ``A = w + N(0, sigma^2 I)``.

    For ``||w|| <= mean_bound``.  Condition 2 of the theorem of [004 App. E] for output perturbation:
    ``<A, u> ~ N(<w, u>, sigma^2)`` and the sup over ``u`` puts ``|<w, u>| = mean_bound``; the MGF is
    increasing in the mean, decreasing in ``gamma``, so the root of ``mgf = 2`` is found by ``brentq`` in log
    space.

    Parameters
    ----------
    mean_bound : float
        Bound on ``||w||``, finite and ``>= 0``.
    sigma : float
        Noise standard deviation, finite and > 0.

    Returns
    -------
    float
        ``gamma``.

    Raises
    ------
    TypeError
        If ``sigma`` is not a real number (or ``mean_bound`` not convertible to float).
    ValueError
        If ``mean_bound`` is negative or not finite, ``sigma`` not finite and positive, or ``gamma`` exceeds the
        float64 range.

    References
    ----------
    .. [1] [004 App. E].

    Examples
    --------
    >>> g = gaussian_output_subgaussian_constant(1.0, 0.5)
    >>> round(float(subgaussian_mgf(1.0, 0.5, g)), 9)
    2.0
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


def bounded_output_subgaussian_constant(norm_bound: float) -> float:
    """``gamma = R / sqrt(log 2)`` for outputs with ``||A|| <= R`` (e.g. noisy projected GD, ``R = B``).

    ``<A, u>^2 <= R^2`` for unit ``u``, so ``E exp(<A, u>^2/gamma^2) <= exp(R^2/gamma^2) = 2``.

    Parameters
    ----------
    norm_bound : float
        ``R``, finite and > 0.

    Returns
    -------
    float
        ``gamma``.

    Raises
    ------
    TypeError
        If ``norm_bound`` is not a real number.
    ValueError
        If ``norm_bound`` is not finite and positive.

    References
    ----------
    .. [1] [004 App. E].

    Examples
    --------
    >>> round(bounded_output_subgaussian_constant(1.0), 6)
    1.201122
    """
    return check_positive("norm_bound", norm_bound) / math.sqrt(math.log(2.0))


def subgaussian_mgf_estimate(
    samples: ArrayLike, gamma: float, *, directions: int = 64, rng: RNGLike = None
) -> tuple[float, NDArray[np.float64]]:
    """Monte Carlo estimate of ``sup_u E exp(<A, u>^2 / gamma^2)`` from output draws (rows).

    Checks condition 2 of the theorem of [004 App. E] for any learner: directions are the
    coordinate axes, the mean direction and ``directions`` random unit vectors; the mean of
    ``exp`` is formed in log space, so huge draws give ``inf`` rather than ``NaN``.

    Parameters
    ----------
    samples : array_like, shape (N, d)
        Output draws, finite.
    gamma : float
        The constant, finite and > 0.
    directions : int, default 64
        Random unit directions tried besides the axes and the mean direction.
    rng : numpy.random.Generator, int, SeedSequence or None, default None
        Source of the random directions.

    Returns
    -------
    estimate : float
        The largest estimated MGF (``inf`` beyond ``exp(709)``).
    direction : numpy.ndarray of float64, shape (d,)
        The unit direction that attains it.

    Raises
    ------
    TypeError
        If ``samples`` is not an array of real numbers, ``gamma`` not a real number, or ``rng`` not a generator
        or seed.
    ValueError
        If ``samples`` is not a non-empty finite 2-D array or ``gamma`` not finite and positive.

    References
    ----------
    .. [1] [004 App. E].

    Examples
    --------
    >>> estimate, u = subgaussian_mgf_estimate(np.zeros((10, 2)), 1.0, rng=0)
    >>> estimate, u.shape
    (1.0, (2,))
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
        expo = (proj * (amax / g)) ** 2  # (n, dirs), may be inf
        top = expo.max(axis=0)
        logm = top + np.log(np.mean(np.exp(expo - np.where(np.isfinite(top), top, 0.0)), axis=0))
    logm = np.where(np.isfinite(top), logm, np.inf)
    k = int(np.argmax(logm))
    return float(np.exp(logm[k])) if logm[k] < 709 else math.inf, U[k]
