"""f-DP and mu-GDP claims: the Gaussian trade-off curve, its privacy profile and lower bounds on mu.

A mechanism is ``mu``-GDP when the trade-off curve of every neighbouring pair lies on or above
``G_mu(x) = Phi(Phi^-1(1 - x) - mu)`` [1]_.  An event ``S`` is a test (reject when the output is in ``S``) of type-I
error ``Q(S)`` and type-II error ``1 - P(S)``, so ``T(Q(S)) <= 1 - P(S)``; with ``G_mu(Q(S)) <= 1 - P(S)`` this is
``mu >= Phi^-1(P(S)) - Phi^-1(Q(S))`` (:func:`mu_from_bounds`).  ``Phi^-1`` increases, so a lower confidence bound
on ``P(S)`` and an upper one on ``Q(S)`` give a lower confidence bound on ``mu``.  For two finite laws the
trade-off curve is the polygon through the likelihood-ratio prefixes and ``G_mu`` is convex, so the curve is
above ``G_mu`` exactly when its vertices are: the exact ``mu`` is the largest prefix value (:func:`law_gdp`).

References
----------
.. [1] J. Dong, A. Roth and W. J. Su, "Gaussian differential privacy", J. R. Stat. Soc. B 84 (2022),
       Definition 2.6 (``G_mu``) and Corollary 2.13 (its privacy profile).
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike
from scipy.special import ndtri

from .curves import check_epsilons, gaussian_curve
from .unlisted_mass import unlisted_mass

__all__ = ["check_mu", "gdp_delta", "law_gdp", "mu_from_bounds", "mu_from_curve"]


def check_mu(mu: float, name: str = "mu") -> float:
    """``mu`` as a finite float > 0, else :class:`ValueError` / :class:`TypeError` naming it."""
    if isinstance(mu, bool) or not isinstance(mu, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a number > 0, got {mu!r}")
    m = float(mu)
    if not (math.isfinite(m) and m > 0.0):
        raise ValueError(f"{name} must be a finite number > 0, got {mu!r}")
    return m


def gdp_delta(epsilons: ArrayLike, mu: float) -> np.ndarray:
    """The privacy profile of ``mu``-GDP: ``Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2)``.

    Parameters
    ----------
    epsilons : array_like
        Grid of epsilons >= 0 (finite, 1-D, non-empty), in any order.
    mu : float
        The GDP parameter, > 0.

    Returns
    -------
    numpy.ndarray
        ``delta(eps)`` of a ``mu``-GDP trade-off curve at each given epsilon, in the given order: the Gaussian
        mechanism's of sensitivity 1 and ``sigma = 1/mu`` (:func:`~proofs_checks.audit.curves.gaussian_curve`).

    Raises
    ------
    ValueError
        ``mu`` not > 0 or an invalid grid.

    References
    ----------
    .. [1] J. Dong, A. Roth and W. J. Su, "Gaussian differential privacy", JRSS-B 2022 (Corollary 2.13).

    Examples
    --------
    >>> from scipy.stats import norm
    >>> float(gdp_delta([0.0], 1.0)[0]) == float(norm.cdf(0.5) - norm.cdf(-0.5))
    True
    """
    grid = _grid_in_given_order(epsilons)
    points = np.unique(grid)
    # gaussian_curve answers on the sorted grid without repeats; each value goes back to its own epsilon
    return gaussian_curve(points, sigma=1.0 / check_mu(mu))[np.searchsorted(points, grid)]


def _grid_in_given_order(epsilons):
    """The epsilons as a float array in the caller's order, after :func:`check_epsilons`' checks of its values."""
    check_epsilons(epsilons)
    return np.asarray(epsilons, dtype=np.float64)


def mu_from_bounds(p_low: float, q_high: float) -> float:
    """Lower bound on ``mu`` from one event: ``max(0, Phi^-1(p_low) - Phi^-1(q_high))``.

    Parameters
    ----------
    p_low : float
        A lower bound on ``P(S)``, in [0, 1].
    q_high : float
        An upper bound on ``Q(S)``, in [0, 1].

    Returns
    -------
    float
        The bound (``inf`` when ``q_high`` is 0 and ``p_low`` positive, or ``p_low`` is 1 and ``q_high`` below 1).

    Raises
    ------
    ValueError
        A bound outside [0, 1].

    Examples
    --------
    The Gaussian pair N(1, 1), N(0, 1) and any threshold event gives its ``mu`` = 1:

    >>> from scipy.stats import norm
    >>> round(mu_from_bounds(norm.sf(0.3 - 1.0), norm.sf(0.3)), 12)
    1.0
    """
    for name, v in (("p_low", p_low), ("q_high", q_high)):
        if not (0.0 <= float(v) <= 1.0):
            raise ValueError(f"{name} must be a probability in [0, 1], got {v!r}")
    if p_low <= q_high:
        return 0.0
    return float(ndtri(float(p_low)) - ndtri(float(q_high)))


def _directed_law_gdp(lp, lq, missing_q):
    with np.errstate(invalid="ignore"):
        ratio = np.where(lp == -np.inf, -np.inf, lp - lq)
    order = np.argsort(-ratio, kind="stable")
    cum_p = np.cumsum(np.exp(lp[order]))
    # the listed Q-mass of a prefix plus all Q's unlisted mass is at least its true Q-mass
    cum_q = np.minimum(np.cumsum(np.exp(lq[order])) + missing_q, 1.0)
    best = 0.0
    for p, q in zip(np.minimum(cum_p, 1.0), cum_q):
        best = max(best, mu_from_bounds(float(p), float(q)))
    return best


def law_gdp(logp: ArrayLike, logq: ArrayLike) -> float:
    """The smallest ``mu`` for which two finite laws are ``mu``-GDP (both directions).

    The largest ``Phi^-1(P_k) - Phi^-1(Q_k)`` over the likelihood-ratio prefixes, with each law's unlisted mass
    (:func:`~proofs_checks.audit.unlisted_mass.unlisted_mass`) added to the other side's ``Q_k`` so that a truncated
    law never inflates it.

    Parameters
    ----------
    logp, logq : array_like, shape (K,)
        Log-probabilities on the same outputs (-inf where a law does not list it).

    Returns
    -------
    float
        ``mu`` (``inf`` when one law puts mass where the other has none).

    Raises
    ------
    ValueError
        Shapes differ.

    References
    ----------
    .. [1] J. Dong, A. Roth and W. J. Su, "Gaussian differential privacy", JRSS-B 2022 (Definition 2.6).

    Examples
    --------
    Randomized response with keep-probability 3/4: the one vertex gives ``Phi^-1(3/4) - Phi^-1(1/4)``.

    >>> import numpy as np
    >>> from scipy.stats import norm
    >>> got = law_gdp(np.log([0.75, 0.25]), np.log([0.25, 0.75]))
    >>> bool(abs(got - 2 * norm.ppf(0.75)) < 1e-12)
    True
    """
    lp = np.asarray(logp, dtype=np.float64)
    lq = np.asarray(logq, dtype=np.float64)
    if lp.shape != lq.shape or lp.ndim != 1:
        raise ValueError(f"logp and logq must be 1-D of one length, got shapes {lp.shape} and {lq.shape}")
    return max(_directed_law_gdp(lp, lq, unlisted_mass(lq)), _directed_law_gdp(lq, lp, unlisted_mass(lp)))


def mu_from_curve(epsilons: ArrayLike, deltas: ArrayLike) -> float:
    """The smallest ``mu`` whose GDP profile :func:`gdp_delta` is at least ``deltas`` at every grid point.

    ``mu``-GDP implies ``delta(eps) <= gdp_delta(eps, mu)`` for every ``eps``, and ``gdp_delta`` increases with
    ``mu``; so for a curve of exact values (or lower bounds) of ``delta(eps)`` the result is a lower bound on the
    ``mu`` of any GDP guarantee.  Each point is solved by bisection on ``mu`` (60 halvings of [0, 64]).

    Parameters
    ----------
    epsilons : array_like
        The grid (>= 0), in any order.
    deltas : array_like
        ``delta(eps)`` at each grid point (``deltas[i]`` at ``epsilons[i]``), in [0, 1].

    Returns
    -------
    float
        The bound (64 when a point needs more: reported as ``inf``).

    Raises
    ------
    ValueError
        Lengths differ or a delta is outside [0, 1].

    Examples
    --------
    >>> round(mu_from_curve([0.5, 1.0], gdp_delta([0.5, 1.0], 1.5)), 9)
    1.5
    """
    eps = _grid_in_given_order(epsilons)  # deltas[i] belongs to epsilons[i]: no sorting
    d = np.asarray(deltas, dtype=np.float64)
    if d.shape != eps.shape or np.any(~(d >= 0) | (d > 1)):
        raise ValueError(f"deltas must be {eps.size} values in [0, 1], got {d.tolist()}")
    best = 0.0
    for e, target in zip(eps, d):
        if target <= 0:
            continue
        if gdp_delta([e], 64.0)[0] < target:
            return math.inf
        lo, hi = 0.0, 64.0
        for _ in range(60):
            mid = 0.5 * (lo + hi)
            if gdp_delta([e], mid)[0] >= target:
                hi = mid
            else:
                lo = mid
        best = max(best, lo)
    return float(best)
