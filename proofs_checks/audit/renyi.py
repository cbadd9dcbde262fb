"""Renyi divergences for Renyi-DP and zCDP claims: exact (finite laws, 1-D densities) and of two-point laws.

A mechanism is ``(alpha, eps_alpha)``-Renyi-DP when ``D_alpha(M(D) || M(D')) <= eps_alpha`` for every ordered
neighbouring pair [1]_, and ``rho``-zCDP when ``D_alpha <= rho * alpha`` for every ``alpha > 1`` [2]_, where

``D_alpha(P || Q) = log( sum_o p(o)^alpha q(o)^(1 - alpha) ) / (alpha - 1)``.

The statistical path rests on the data-processing inequality: for any event ``S``, ``D_alpha(P || Q)`` is at
least the divergence of the two-point laws ``(P(S), 1 - P(S))`` and ``(Q(S), 1 - Q(S))``
(:func:`binary_renyi`), and for ``P(S) >= q`` that divergence increases in ``P(S)`` and decreases in ``Q(S)``.
So a lower confidence bound ``p_low`` on ``P(S)`` and an upper one ``q_high`` on ``Q(S)`` give a lower bound on
``D_alpha`` for every ``alpha`` at once, with the confidence of the two bounds.

References
----------
.. [1] I. Mironov, "Renyi differential privacy", CSF 2017.
.. [2] M. Bun and T. Steinke, "Concentrated differential privacy: simplifications, extensions, and lower bounds",
       TCC 2016.
"""

from __future__ import annotations

import math
from typing import Callable, Sequence

import numpy as np
from numpy.typing import ArrayLike
from scipy import integrate, optimize
from scipy.special import logsumexp

from .unlisted_mass import unlisted_mass

__all__ = [
    "ZCDP_ALPHAS",
    "binary_renyi",
    "binary_renyi_array",
    "check_alpha",
    "density_renyi",
    "law_renyi",
    "zcdp_from_renyi",
]

#: The orders over which a zCDP bound ``max_alpha D_alpha / alpha`` is taken, fixed before any data is seen.
ZCDP_ALPHAS = (1.25, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0, 12.0, 16.0, 24.0, 32.0, 48.0, 64.0)


def check_alpha(alpha: float, name: str = "alpha") -> float:
    """``alpha`` as a float > 1 (finite), else :class:`ValueError` / :class:`TypeError` naming it."""
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a number > 1, got {alpha!r}")
    a = float(alpha)
    if not (math.isfinite(a) and a > 1.0):
        raise ValueError(f"{name} must be a finite number > 1, got {alpha!r}")
    return a


def binary_renyi(p: float, q: float, alpha: float) -> float:
    """Renyi divergence of order ``alpha`` between the two-point laws ``(p, 1 - p)`` and ``(q, 1 - q)``.

    Parameters
    ----------
    p, q : float
        Probabilities in [0, 1].
    alpha : float
        The order, > 1.

    Returns
    -------
    float
        ``log(p^alpha q^(1-alpha) + (1-p)^alpha (1-q)^(1-alpha)) / (alpha - 1)`` in log space; ``inf`` when a
        point has positive ``p``-mass and zero ``q``-mass.

    Raises
    ------
    ValueError
        ``p`` or ``q`` outside [0, 1], or ``alpha`` not > 1.

    References
    ----------
    .. [1] I. Mironov, "Renyi differential privacy", CSF 2017 (definition; the data-processing inequality).

    Examples
    --------
    >>> round(binary_renyi(0.5, 0.5, 2.0), 12)
    0.0
    >>> round(binary_renyi(0.75, 0.25, 2.0), 12) == round(math.log(0.75**2 / 0.25 + 0.25**2 / 0.75), 12)
    True
    """
    a = check_alpha(alpha)
    for name, v in (("p", p), ("q", q)):
        if not (0.0 <= float(v) <= 1.0):
            raise ValueError(f"{name} must be a probability in [0, 1], got {v!r}")
    terms = []
    for x, y in ((float(p), float(q)), (1.0 - float(p), 1.0 - float(q))):
        if x == 0.0:
            continue
        if y == 0.0:
            return math.inf
        terms.append(a * math.log(x) + (1.0 - a) * math.log(y))
    return max(0.0, float(logsumexp(terms)) / (a - 1.0))


def binary_renyi_array(p: ArrayLike, q: ArrayLike, alpha: float) -> np.ndarray:
    """:func:`binary_renyi` of many pairs at once, 0 where ``p <= q`` (a lower bound needs ``p > q``).

    Parameters
    ----------
    p, q : array_like
        Probabilities in [0, 1], broadcast together.
    alpha : float
        The order, > 1.

    Returns
    -------
    numpy.ndarray
        The two-point divergences where ``p > q``, else 0.

    Raises
    ------
    ValueError
        ``alpha`` is not > 1.

    Examples
    --------
    >>> binary_renyi_array([0.75, 0.2], [0.25, 0.5], 2.0).round(12).tolist() == [round(binary_renyi(0.75, 0.25, 2), 12), 0]
    True
    """
    a = check_alpha(alpha)
    pa, qa = np.broadcast_arrays(np.asarray(p, dtype=np.float64), np.asarray(q, dtype=np.float64))
    with np.errstate(divide="ignore", invalid="ignore"):
        hit = np.where(pa > 0, a * np.log(pa) + (1 - a) * np.log(qa), -np.inf)
        miss = np.where(pa < 1, a * np.log1p(-pa) + (1 - a) * np.log1p(-qa), -np.inf)
        out = np.logaddexp(hit, miss) / (a - 1.0)
    return np.where(pa > qa, np.maximum(out, 0.0), 0.0)


def _directed_law_renyi(lp, lq, a, missing_q):
    listed = lp > -np.inf
    lq_used = lq[listed]
    absent = lq_used == -np.inf
    if absent.any():
        # an output Q does not list has Q-mass at most the unlisted mass: a lower bound on its term
        lq_used = np.where(absent, math.log(missing_q) if missing_q > 0 else -np.inf, lq_used)
        if missing_q <= 0:
            return math.inf
    return max(0.0, float(logsumexp(a * lp[listed] + (1.0 - a) * lq_used)) / (a - 1.0))


def law_renyi(logp: ArrayLike, logq: ArrayLike, alpha: float) -> float:
    """Exact Renyi divergence of two finite laws aligned by output, the larger of both directions.

    An output one law lists and the other does not gets, in the other, the unlisted mass of
    :func:`~proofs_checks.audit.unlisted_mass.unlisted_mass` (at least ``K 2^-52``): its true probability is at
    most that, so the term is at least the one computed and the divergence reported is a lower bound (a
    truncated law never inflates it).

    Parameters
    ----------
    logp, logq : array_like, shape (K,)
        Log-probabilities on the same outputs (-inf where a law does not list it).
    alpha : float
        The order, > 1.

    Returns
    -------
    float
        ``max(D_alpha(P || Q), D_alpha(Q || P))``.

    Raises
    ------
    ValueError
        Shapes differ, or ``alpha`` is not > 1.

    References
    ----------
    .. [1] I. Mironov, "Renyi differential privacy", CSF 2017 (Definition 3).

    Examples
    --------
    Randomized response with keep-probability ``e/(1+e)`` (1-DP): ``D_2 = log(cosh-like sum)``.

    >>> import numpy as np
    >>> k = math.e / (1 + math.e)
    >>> lp, lq = np.log([k, 1 - k]), np.log([1 - k, k])
    >>> round(law_renyi(lp, lq, 2.0), 12) == round(math.log(k**2 / (1 - k) + (1 - k) ** 2 / k), 12)
    True
    """
    a = check_alpha(alpha)
    lp = np.asarray(logp, dtype=np.float64)
    lq = np.asarray(logq, dtype=np.float64)
    if lp.shape != lq.shape or lp.ndim != 1:
        raise ValueError(f"logp and logq must be 1-D of one length, got shapes {lp.shape} and {lq.shape}")
    return max(
        _directed_law_renyi(lp, lq, a, unlisted_mass(lq)),
        _directed_law_renyi(lq, lp, a, unlisted_mass(lp)),
    )


def _directed_density_renyi(lp, lq, a, pts):
    def exponent(x):
        with np.errstate(invalid="ignore", over="ignore"):
            return a * lp(x) + (1.0 - a) * lq(x)

    # The integrand's mass can lie far from the densities' own (at -(alpha - 1) for two unit Gaussians): probe
    # doubling distances around the breakpoints, rescale by the largest value seen so that large orders do not
    # overflow, and split the quadrature there.
    centre, width = float(np.median(pts)), max(float(np.ptp(pts)), 1.0)
    steps = width * 2.0 ** np.arange(0, 40)
    probe = np.unique(np.concatenate([pts, centre - steps, centre + steps]))
    at = exponent(probe)
    ok = np.isfinite(at)
    if not ok.any():
        return math.inf if (at == np.inf).any() else 0.0
    i = int(np.argmax(np.where(ok, at, -np.inf)))
    lo, hi = probe[max(0, i - 1)], probe[min(probe.size - 1, i + 1)]
    peak = optimize.minimize_scalar(lambda x: -exponent(np.array([x]))[0], bounds=(lo, hi), method="bounded")
    x_peak = float(peak.x) if np.isfinite(peak.fun) and -peak.fun > at[i] else float(probe[i])
    shift = max(float(at[i]), float(-peak.fun) if np.isfinite(peak.fun) else -np.inf)
    cuts = np.unique(np.concatenate([pts, [lo, x_peak, hi]]))
    edges = [-math.inf, *cuts.tolist(), math.inf]

    def f(x):
        v = exponent(np.array([x]))[0] - shift
        # NaN: both densities vanish (no term); +inf: P has mass where Q has none (infinite divergence)
        with np.errstate(over="ignore"):
            return 0.0 if np.isnan(v) else float(np.exp(v))

    total = sum(
        integrate.quad(f, lo, hi, epsabs=1e-13, epsrel=1e-11, limit=400)[0] for lo, hi in zip(edges[:-1], edges[1:])
    )
    if total <= 0:
        return 0.0
    return max(0.0, (math.log(total) + shift) / (a - 1.0))


def density_renyi(
    log_density_p: Callable, log_density_q: Callable, alpha: float, breakpoints: Sequence[float] = ()
) -> float:
    """Renyi divergence of two one-dimensional densities by adaptive quadrature, the larger of both directions.

    ``integral p^alpha q^(1-alpha) dx`` with :func:`scipy.integrate.quad` (relative tolerance 1e-11) on the pieces
    between ``breakpoints`` and the two infinite tails, rescaled by the integrand's largest value on a probe of
    doubling distances around the breakpoints (also split there), so that large orders do not overflow.

    Parameters
    ----------
    log_density_p, log_density_q : callable
        Vectorised ``x (1-D array) -> log density``.
    alpha : float
        The order, > 1.
    breakpoints : sequence of float
        Finite points where the densities have their mass or kinks (default: 0).

    Returns
    -------
    float
        ``max(D_alpha(P || Q), D_alpha(Q || P))``.

    Raises
    ------
    ValueError
        A breakpoint is not finite, or ``alpha`` is not > 1.

    References
    ----------
    .. [1] I. Mironov, "Renyi differential privacy", CSF 2017 (Proposition 7: the Gaussian's ``alpha/(2 sigma^2)``).

    Examples
    --------
    >>> import numpy as np
    >>> lp = lambda x: -0.5 * x**2 - 0.5 * np.log(2 * np.pi)
    >>> lq = lambda x: -0.5 * (x - 1.0) ** 2 - 0.5 * np.log(2 * np.pi)
    >>> round(density_renyi(lp, lq, 3.0, breakpoints=[0.0, 1.0]), 9)
    1.5
    """
    a = check_alpha(alpha)
    pts = np.unique(np.asarray(breakpoints, dtype=np.float64))
    if not np.all(np.isfinite(pts)):
        raise ValueError(f"breakpoints must be finite, got {pts.tolist()}")
    pts = pts if pts.size else np.zeros(1)
    return max(
        _directed_density_renyi(log_density_p, log_density_q, a, pts),
        _directed_density_renyi(log_density_q, log_density_p, a, pts),
    )


def zcdp_from_renyi(divergence: Callable[[float], float], alphas: Sequence[float] = ZCDP_ALPHAS) -> tuple[float, float]:
    """``(max_alpha divergence(alpha) / alpha, the alpha attaining it)`` over the fixed grid ``alphas``.

    Each ``divergence(alpha)`` that is a lower bound on ``D_alpha`` makes the result a lower bound on ``rho``:
    ``rho``-zCDP means ``D_alpha <= rho alpha`` for every ``alpha > 1`` [1]_.

    Parameters
    ----------
    divergence : callable
        ``alpha -> D_alpha`` (exact or a lower bound).
    alphas : sequence of float
        The orders, each > 1.

    Returns
    -------
    tuple of float
        The bound on ``rho`` and its order.

    Raises
    ------
    ValueError
        An order is not > 1, or ``alphas`` is empty.

    References
    ----------
    .. [1] M. Bun and T. Steinke, "Concentrated differential privacy", TCC 2016 (Definition 1.1).

    Examples
    --------
    >>> zcdp_from_renyi(lambda a: 0.5 * a, alphas=(2.0, 4.0))
    (0.5, 2.0)
    """
    grid = [check_alpha(a, "alphas[i]") for a in alphas]
    if not grid:
        raise ValueError("alphas must not be empty")
    best, best_alpha = -math.inf, grid[0]
    for a in grid:
        v = divergence(a) / a
        if v > best:
            best, best_alpha = v, a
    return float(max(best, 0.0)), float(best_alpha)
