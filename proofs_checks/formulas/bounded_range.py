"""Optimal adaptive composition of bounded-range (BR) mechanisms, e.g. exponential mechanisms.

A mechanism is ``eta``-bounded-range (Durfee & Rogers 2019; Dong, Durfee & Rogers 2020, Sec. 2) if
for every neighbouring pair its privacy loss ``L(y) = log P(y)/Q(y)`` ranges over an interval of width
at most ``eta``.  The exponential mechanism ``exp(eps u / (2 Delta))`` is
``eps``-BR when every score moves by at most ``Delta`` (its log-ratio at ``y`` is
``eps (u_y - u'_y) / (2 Delta)`` minus a constant, and the score moves span at most ``2 Delta``); as
pure DP it is also only ``eps``-DP, but BR is the sharper description: a pure ``eps``-DP loss may
span ``2 eps``.

Dong, Durfee & Rogers (2020) reduce every ``eta``-BR mechanism to a *generalized randomized
response* ``GRR(eta, t)``, ``t in [0, eta]``: two outcomes with losses ``t`` and ``t - eta``, the
first with probability ``p(t) = (e^eta - e^t) / (e^eta - 1)`` under ``P`` (the value that makes
``E_P[e^{-L}] = 1``); their Sec. 6 gives the optimal *adaptive* composition as a recursion in
which each round's ``t`` may depend on the previous outcomes, and shows (Sec. 3.3) that it exceeds
the non-adaptive optimum, where each ``t`` is fixed in advance.  Adaptive is the case of an
iterative algorithm whose next mechanism depends on the previous outputs.

:func:`br_composition_delta` computes that adaptive recursion with a proven upper bound (and the
value of an admissible strategy as a lower bound).  Self-contained argument, so the bound does not
rest on the reader's reading of the paper's theorem numbers: with ``x = eps - (loss so far)``,

    ``W_0(x) = (1 - e^x)_+``,   ``W_k(x) = sup_{t in [0, eta]} p(t) W_{k-1}(x - t) + (1 - p(t)) W_{k-1}(x - t + eta)``,

and the hockey-stick divergence at ``eps`` of any ``T`` adaptively composed ``eta``-BR mechanisms
is at most ``W_T(eps)``.  Proof: ``delta(eps) = E_P[(1 - e^{eps - L})_+]`` with ``L`` the summed
loss; by backward induction, given the history, round ``k``'s conditional loss lies in some
``[t - eta, t]`` with ``E_P[e^{-L_k}] = 1`` (the exponential mechanism has full support); ``W_{k-1}``
as a function of ``u = e^{x - L_k}`` is a supremum over strategies of ``E[(1 - u e^{-L'})_+]``, each
convex in ``u``, hence convex; so it is convex in ``s = e^{-L_k}``, and a convex function of ``s = e^{-L_k}`` under the linear constraint
``E[s] = 1`` on an interval is maximised by the two endpoints (the chord lies above it), which is
``GRR(eta, t)`` (Dong, Durfee & Rogers 2020, Sec. 4.1, "handling convexity").

References
----------
.. [1] D. Durfee and R. Rogers, "Practical differentially private top-k selection with pay-what-you-get
       composition", NeurIPS 2019 (the definition of bounded range; the exponential mechanism is BR).
.. [2] J. Dong, D. Durfee and R. Rogers, "Optimal differential privacy composition for exponential
       mechanisms", ICML 2020 (arXiv:1909.13830): reduction of BR to generalized randomized response
       (Sec. 4, convexity Sec. 4.1), non-adaptive optimum (Sec. 5), adaptive optimum as a recursion over
       adaptively chosen ``t`` (Sec. 6), the gap between them (Sec. 3.3); section titles as in arXiv:1909.13830
       (theorem numbers not checked here, hence the self-contained proof above).
.. [3] P. Kairouz, S. Oh and P. Viswanath, "The composition theorem for differential privacy", ICML 2015
       (the pure-DP analogue, :func:`proofs_checks.formulas.composition.rr_composition_delta`).
"""

from __future__ import annotations

from typing import NamedTuple

import mpmath
import numpy as np

from reference.validation import check_epsilon, check_integer

from .composition import _check_eps_target

__all__ = ["BRCompositionDelta", "grr_probability", "br_composition_delta", "br_composition_delta_mpmath"]

#: Rows of the (grid point x candidate t) table evaluated at once: bounds memory at ~ 8 MB a table.
_CHUNK = 2048


class BRCompositionDelta(NamedTuple):
    """Bracket on the optimal adaptive ``delta(eps)`` of ``T`` ``eta``-BR mechanisms (:func:`br_composition_delta`)."""

    lower: float
    upper: float
    points_per_step: int


def grr_probability(eta, t):
    """``P``-probability of the upper outcome (loss ``t``) of ``GRR(eta, t)``: ``(e^eta - e^t) / (e^eta - 1)``.

    Written as ``expm1(t - eta) / expm1(-eta)`` so that neither a huge ``eta`` (1e300) nor a tiny one
    (1e-300) overflows or cancels; ``t`` may be an array.

    >>> float(grr_probability(1.0, 0.0)), float(grr_probability(1.0, 1.0))
    (1.0, 0.0)
    >>> bool(np.isclose(grr_probability(2.0, 1.0), 1 / (1 + np.exp(-1.0)), rtol=1e-14))   # RR(1) is GRR(2, 1)
    True
    """
    e = check_epsilon(eta, "eta")
    t = np.asarray(t, dtype=np.float64)
    if np.any(~np.isfinite(t)) or np.any(t < 0) or np.any(t > e):
        raise ValueError(f"t must lie in [0, eta = {e!r}], got {t!r}")
    return np.clip(np.expm1(t - e) / np.expm1(-e), 0.0, 1.0)


def _level(W, p, M, upper):
    """One backward step of the recursion on the grid ``x_j = x_0 + j h``, ``h = eta / M``.

    ``upper``: the cell ``[t_i, t_{i+1}]`` is bounded by ``p(t_i)`` (``p`` decreases) and the ``W``
    values at ``t_{i+1}`` (``W`` is non-increasing, so ``x - t_{i+1}`` gives the larger ones); since
    ``W(x - t) >= W(x - t + eta)`` the mixture grows with ``p``, so the bound is valid.  Otherwise
    ``t`` runs over the grid points themselves: the value of an admissible strategy.
    """
    N = W.size
    # padded[k] = W at index k - M - 1; left of the grid W <= 1 (upper) resp. >= 0 (lower) (never reached
    # from the start point), right of it W = 0 exactly (x exceeds every possible remaining loss)
    padded = np.concatenate([np.full(M + 1, 1.0 if upper else 0.0), W, np.zeros(M + 1)])
    if upper:
        i = np.arange(M)
        shift_a, shift_b, pp = -(i + 1), -(i + 1) + M, p[:M]
    else:
        i = np.arange(M + 1)
        shift_a, shift_b, pp = -i, -i + M, p
    out = np.empty(N)
    for lo in range(0, N, _CHUNK):
        j = np.arange(lo, min(N, lo + _CHUNK))[:, None] + M + 1
        a, b = padded[j + shift_a], padded[j + shift_b]
        out[lo : lo + j.shape[0]] = np.max(b + pp * (a - b), axis=1)
    return out


def br_composition_delta(eta, rounds, epsilon, *, points_per_step=200):
    """Bracket on the optimal hockey-stick ``delta(eps)`` of ``rounds`` adaptively composed ``eta``-BR mechanisms.

    Parameters
    ----------
    eta : float
        BR parameter of every round, ``> 0`` (the range of each round's privacy loss).
    rounds : int
        ``T >= 1``.
    epsilon : float
        Target ``eps >= 0``.
    points_per_step : int
        ``M``: the grids of ``t`` and of the remaining budget have step ``eta / M``; cost
        ``O(T^2 M^2)``; the bracket narrows like ``1 / M``.

    Returns
    -------
    BRCompositionDelta
        ``upper``: a proven upper bound on ``W_T(eps)`` (module docstring), hence on ``delta(eps)`` of
        every adaptive composition of ``T`` ``eta``-BR mechanisms, both directions of the pair (BR is
        symmetric).  ``lower``: ``W_T(eps)`` restricted to ``t`` on the grid, the exact value of one
        adaptive ``GRR`` strategy, so no bound on BR mechanisms can be below it.  Float rounding is a
        few ulps per level (``T`` levels of a convex combination; cross-checked against
        :func:`br_composition_delta_mpmath`).

    Examples
    --------
    One round, ``eta = 1``, ``eps = 0``: the largest ``p(t) (1 - e^{-t})`` over ``t`` is at ``t = 1/2``,
    ``(e + 1 - 2 sqrt(e)) / (e - 1) = 0.2449187`` (on the grid, so the lower bracket is exact):

    >>> r = br_composition_delta(1.0, 1, 0.0, points_per_step=400)
    >>> round(r.lower, 7), round(r.upper, 4)
    (0.2449187, 0.2459)
    """
    e = check_epsilon(eta, "eta")
    T = check_integer("rounds", rounds, minimum=1)
    eps = _check_eps_target(epsilon)
    M = check_integer("points_per_step", points_per_step, minimum=1)
    h = e / M
    J0 = T * M + 1  # index of x = eps; the grid spans eps -+ (T eta + h)
    # for eta or eps near 1.7e308 grid points overflow to -+inf, where W0 = 1 - e^min(x, 0) takes its limits 1
    # and 0: the values the recursion needs there, so the overflow is expected, not an error
    with np.errstate(over="ignore"):
        x = eps + (np.arange(2 * J0 + 1) - J0) * h
    W0 = -np.expm1(np.minimum(x, 0.0))
    p = grr_probability(e, np.minimum(np.arange(M + 1) * h, e))
    values = []
    for upper in (True, False):
        W = W0
        for _ in range(T):
            W = _level(W, p, M, upper)
        values.append(float(W[J0]))
    return BRCompositionDelta(lower=max(0.0, values[1]), upper=min(1.0, values[0]), points_per_step=M)


def br_composition_delta_mpmath(eta, rounds, epsilon, *, points_per_step=20, upper=True, dps=40):
    """The same recursion in mpmath at ``dps`` digits (reference for tests; ``O(T^2 M^2)`` mpmath operations)."""
    e = check_epsilon(eta, "eta")
    T = check_integer("rounds", rounds, minimum=1)
    eps = _check_eps_target(epsilon)
    M = check_integer("points_per_step", points_per_step, minimum=1)
    with mpmath.workdps(check_integer("dps", dps, minimum=15)):
        em, h = mpmath.mpf(e), mpmath.mpf(e) / M
        J0 = T * M + 1
        N = 2 * J0 + 1
        W = [max(mpmath.mpf(0), 1 - mpmath.exp(eps + (j - J0) * h)) for j in range(N)]
        p = [(mpmath.exp(em) - mpmath.exp(i * h)) / (mpmath.exp(em) - 1) for i in range(M + 1)]

        def at(W, k):
            if k >= N:
                return mpmath.mpf(0)
            return W[k] if k >= 0 else mpmath.mpf(1 if upper else 0)

        for _ in range(T):
            cells = range(M) if upper else range(M + 1)
            W = [
                max(p[i] * at(W, j - i - upper) + (1 - p[i]) * at(W, j - i - upper + M) for i in cells)
                for j in range(N)
            ]
        return +W[J0]
