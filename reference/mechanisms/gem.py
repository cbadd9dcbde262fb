"""The Generalized Exponential Mechanism (GEM) of Raskhodnikova & Smith, as used in [004 App. D.1].

Scores have shape ``(..., K)``: one vector of ``K`` penalised scores per row, a
batch of independent inputs along the leading axes; the sensitivities broadcast
against the scores (usually one vector ``(K,)`` shared by every row).  Every
step is vectorised over the rows: 200,000 rows of 11 candidates take a fraction
of a second.

References
----------
.. [1] S. Raskhodnikova and A. Smith, "Lipschitz extensions for node-private graph statistics
       and the generalized exponential mechanism", FOCS 2016 (arXiv 2015), Section on GEM.
.. [2] Arora, Bassily, Guzman, Menart and Ullah, "Differentially private generalized linear
       models revisited", [004 App. D.1] (the GEM theorem) and [004 Alg. 1 step 8].
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..validation import (
    RNGLike,
    check_epsilon,
    check_finite_array,
    check_finite_result,
    check_integer,
    check_probability,
    check_real_array,
)
from ._batch import check_candidate_array, draw_public
from .exponential import exponential_log_prob, gumbel_max_sample
from .recorder import record_call

__all__ = [
    "gem_threshold",
    "gem_normalized_scores",
    "gem_log_prob",
    "gem_log_prob_from_normalized",
    "gem_sample",
    "GeneralizedExponentialMechanism",
]


def gem_threshold(epsilon: float, beta: float, k: int) -> float:
    """``t = 2 log(k / beta) / epsilon``, the penalty multiplier of GEM.

    Parameters
    ----------
    epsilon : float
        Privacy parameter, finite and > 0.
    beta : float
        Failure probability of the utility guarantee, in (0, 1).
    k : int
        Number of candidates, an integer ``>= 1``.

    Returns
    -------
    float
        The threshold ``t``.

    Raises
    ------
    TypeError
        If ``epsilon`` or ``beta`` is not a real number, or ``k`` not an integer.
    ValueError
        If ``epsilon`` is not finite and positive, ``beta`` not in (0, 1), ``k < 1``, or ``t`` overflows to
        inf or underflows to 0.

    References
    ----------
    .. [1] [004 App. D.1]; S. Raskhodnikova and A. Smith, FOCS 2016 (GEM).

    Examples
    --------
    >>> round(gem_threshold(1.0, 0.1, 10), 6)
    9.21034
    """
    k = check_integer("k", k, minimum=1)
    b = check_probability("beta", beta)
    eps = check_epsilon(epsilon)
    return check_finite_result("gem_threshold", 2.0 * math.log(k / b) / eps, epsilon=eps, beta=b, k=k)


def _check_pairs(sensitivities, scores):
    q = check_candidate_array("scores", scores)
    g = check_finite_array("sensitivities", sensitivities)
    if g.ndim == 0 or g.shape[-1] != q.shape[-1]:
        raise ValueError(
            f"sensitivities and scores must have the same length (last axis), got shapes {g.shape} and {q.shape}"
        )
    try:
        np.broadcast_shapes(g.shape, q.shape)
    except ValueError:
        raise ValueError(
            f"sensitivities of shape {g.shape} do not broadcast against scores of shape {q.shape}"
        ) from None
    if np.any(g < 0):
        j = int(np.flatnonzero(g.ravel() < 0)[0])
        raise ValueError(f"sensitivities must be >= 0; entry {j} (flat index) is {g.ravel()[j]!r}")
    return g, q


#: Below this many (i, j) ratios :func:`gem_normalized_scores` builds them in one array (no per-candidate loop).
_SMALL_PAIRWISE = 4096


def gem_normalized_scores(
    sensitivities: ArrayLike, scores: ArrayLike, epsilon: float, beta: float
) -> NDArray[np.float64]:
    """Normalised scores ``s_i = max_j [(q_i + t g_i) - (q_j + t g_j)] / (g_i + g_j)``, per row.

    Lower ``q`` is better (the scores of 004 are penalised losses).  Each ratio
    moves by at most 1 between neighbours because ``|q_i - q_j|`` moves by at
    most ``g_i + g_j``, so ``s`` has sensitivity 1.  ``s_i >= 0`` (the term
    ``j = i`` is 0).  A pair with ``g_i = g_j = 0`` is data-independent: its
    ratio is ``+inf`` when the difference is positive and 0 otherwise.

    Parameters
    ----------
    sensitivities : array_like, shape (K,) or broadcastable to ``scores``
        ``g_i >= 0``, finite.
    scores : array_like, shape (..., K)
        The scores ``q_i``, finite; the leading axes are a batch.
    epsilon : float
        Privacy parameter, finite and > 0 (sets ``t``, :func:`gem_threshold`).
    beta : float
        Failure probability, in (0, 1) (sets ``t``).

    Returns
    -------
    numpy.ndarray of float64
        The normalised scores, the shape of ``scores`` broadcast with ``sensitivities``; ``>= 0``, ``+inf``
        allowed.

    Raises
    ------
    TypeError
        If ``scores`` or ``sensitivities`` is not an array of real numbers, or ``epsilon`` or ``beta`` not a
        real number.
    ValueError
        If ``scores`` is a scalar, empty or not finite; ``sensitivities`` is not finite, has a negative entry,
        or does not match ``scores`` on the last axis or broadcast against it; ``epsilon`` is not finite and
        positive or ``beta`` not in (0, 1).

    Notes
    -----
    The maximum over ``j`` is taken by ``K`` passes over arrays of the size of
    ``scores`` (not one ``(..., K, K)`` array), so memory stays ``O(N K)`` and
    200,000 rows of 11 candidates take a fraction of a second.  Each ratio is
    the same float64 division as in the pairwise formula and the maximum is
    order-free, so every row equals its result computed alone, bit for bit.

    References
    ----------
    .. [1] [004 App. D.1]; S. Raskhodnikova and A. Smith, FOCS 2016 (GEM).

    Examples
    --------
    >>> gem_normalized_scores([1.0, 1.0], [0.0, 4.0], epsilon=1.0, beta=0.5)
    array([0., 2.])
    """
    g, q = _check_pairs(sensitivities, scores)
    k = q.shape[-1]
    t = gem_threshold(epsilon, beta, k)
    pen = q + t * g
    if pen.size * k <= _SMALL_PAIRWISE:
        # Few rows (the exact audits call this thousands of times on one or a few score vectors): all
        # (i, j) ratios as one (N, K, K) array, the same float64 operations as the loop below, bit for bit.
        pr = pen.reshape(-1, k)
        gr = np.broadcast_to(g, pen.shape).reshape(-1, k)
        den = gr[:, :, None] + gr[:, None, :]
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            diff = pr[:, :, None] - pr[:, None, :]
            ratio = diff / den
        zero = den == 0
        if zero.any():
            ratio[zero] = np.where(diff[zero] > 0, np.inf, 0.0)
        ratio[:, np.arange(k), np.arange(k)] = 0.0
        return np.maximum(ratio.max(axis=2), 0.0).reshape(pen.shape)
    # Work on the transpose (K, N): candidate j's penalised scores are one contiguous row, and a
    # shared sensitivity vector makes g_i + g_j a column of K numbers.
    pen_t = np.ascontiguousarray(pen.reshape(-1, k).T)
    g_t = g[:, None] if g.ndim == 1 else np.ascontiguousarray(np.broadcast_to(g, pen.shape).reshape(-1, k).T)
    s_t = np.zeros(pen_t.shape)
    ratio = np.empty(pen_t.shape)
    for j in range(k):
        den = g_t + g_t[j]
        zero = den == 0  # g >= 0: only g_i = g_j = 0
        any_zero = bool(zero.any())
        np.subtract(pen_t, pen_t[j], out=ratio)
        if any_zero:
            zero = np.broadcast_to(zero, ratio.shape)
            diff_at_zero = ratio[zero]
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            np.divide(ratio, den, out=ratio)
        if any_zero:
            ratio[zero] = np.where(diff_at_zero > 0, np.inf, 0.0)
        ratio[j] = 0.0
        np.maximum(s_t, ratio, out=s_t)
    return np.ascontiguousarray(s_t.T).reshape(pen.shape)


def gem_log_prob_from_normalized(normalized_scores: ArrayLike, epsilon: float) -> NDArray[np.float64]:
    """Exponential mechanism (sensitivity 1) on ``-s`` for every row of normalised scores ``s``.

    An entry ``s_i = +inf`` gets log-probability ``-inf`` and each row's law is
    the exponential mechanism over that row's finite entries, bit-for-bit as if
    the infinite ones were removed (rows are grouped by their number of finite
    entries and each group is computed in one call).

    Parameters
    ----------
    normalized_scores : array_like, shape (..., K)
        Non-negative, ``+inf`` allowed, at least one finite entry per row.
    epsilon : float
        Privacy parameter, finite and > 0.

    Returns
    -------
    numpy.ndarray of float64, shape (..., K)
        ``log P[i]`` with ``P[i]`` proportional to ``exp(-epsilon s_i / 2)``.

    Raises
    ------
    ValueError
        If ``normalized_scores`` is a scalar or empty, holds NaN or ``-inf``, or has a row with no finite
        entry; if ``epsilon`` is not finite and positive.
    TypeError
        If ``epsilon`` is not a real number.

    References
    ----------
    .. [1] [004 App. D.1]; [002 Def. 3] (the exponential mechanism).

    Examples
    --------
    >>> np.exp(gem_log_prob_from_normalized([0.0, np.inf, 0.0], epsilon=1.0)).round(6)
    array([0.5, 0. , 0.5])
    """
    s = check_real_array("normalized_scores", normalized_scores)
    if s.ndim == 0 or s.size == 0 or np.any(np.isnan(s)) or np.any(s == -np.inf):
        raise ValueError("normalized_scores must have shape (..., K), K >= 1, with no NaN or -inf entries")
    k = s.shape[-1]
    rows = s.reshape(-1, k)
    finite = np.isfinite(rows)
    counts = finite.sum(axis=1)
    if np.any(counts == 0):
        raise ValueError("normalized_scores must have a finite entry in every row")
    logp = np.full(rows.shape, -np.inf)
    for count in np.unique(counts):
        if count == k:  # the usual case: no infinite entry, no gather needed
            full = counts == k
            if full.all():
                return exponential_log_prob(-s, epsilon, 1.0)
            logp[full] = exponential_log_prob(-rows[full], epsilon, 1.0)
            continue
        group = np.flatnonzero(counts == count)
        cols = np.nonzero(finite[group])[1].reshape(group.size, count)  # finite columns, in order
        logp[group[:, None], cols] = exponential_log_prob(-rows[group[:, None], cols], epsilon, 1.0)
    return logp.reshape(s.shape)


def gem_log_prob(sensitivities: ArrayLike, scores: ArrayLike, epsilon: float, beta: float) -> NDArray[np.float64]:
    """Exact log-probabilities of GEM for every row: ``P[i] ∝ exp(-epsilon * s_i / 2)``.

    This is the exponential mechanism ([002 Def. 3] with sensitivity 1) on
    ``-s``, hence epsilon-DP.  Utility ([004 App. D.1]): with
    ``t = 2 log(k/beta)/eps`` the exponential mechanism returns ``s_i <= t`` with
    probability ``>= 1 - beta``, and ``s_i <= t`` gives
    ``q_i <= q_j + 2 t g_j = q_j + 4 g_j log(k/beta)/eps`` for every ``j``, the
    bound printed in 004.

    Parameters
    ----------
    sensitivities : array_like, shape (K,) or broadcastable to ``scores``
        ``g_i >= 0``, finite.
    scores : array_like, shape (..., K)
        The scores ``q_i`` (lower is better), finite.
    epsilon : float
        Privacy parameter, finite and > 0.
    beta : float
        Failure probability, in (0, 1).

    Returns
    -------
    numpy.ndarray of float64, shape (..., K)
        The log-probabilities of each row (broadcast with ``sensitivities``).

    Raises
    ------
    TypeError
        If ``scores`` or ``sensitivities`` is not an array of real numbers, or ``epsilon`` or ``beta`` not a
        real number.
    ValueError
        If ``scores`` is a scalar, empty or not finite; ``sensitivities`` is not finite, has a negative entry,
        or does not match ``scores`` on the last axis or broadcast against it; ``epsilon`` is not finite and
        positive or ``beta`` not in (0, 1).

    References
    ----------
    .. [1] [004 App. D.1]; S. Raskhodnikova and A. Smith, FOCS 2016 (GEM).

    Examples
    --------
    >>> np.exp(gem_log_prob([1.0, 1.0], [0.0, 4.0], epsilon=1.0, beta=0.5)).round(4)
    array([0.7311, 0.2689])
    """
    s = gem_normalized_scores(sensitivities, scores, epsilon, beta)
    return gem_log_prob_from_normalized(s, epsilon)


def gem_sample(
    sensitivities: ArrayLike,
    scores: ArrayLike,
    epsilon: float,
    beta: float,
    size: int | None = None,
    rng: RNGLike = None,
) -> int | NDArray[np.int64]:
    """Sample GEM for every row of ``scores`` (vectorised Gumbel-max).

    Parameters
    ----------
    sensitivities : array_like, shape (K,) or broadcastable to ``scores``
        As in :func:`gem_log_prob`.
    scores : array_like, shape (..., K)
        As in :func:`gem_log_prob`.
    epsilon : float
        Privacy parameter, finite and > 0.
    beta : float
        Failure probability, in (0, 1).
    size : int or None, default None
        ``None``: one draw per row (a Python ``int`` for a single score vector).
        An int ``>= 0``: ``size`` independent draws per row, shape ``(size, ...)``.
    rng : numpy.random.Generator, int, SeedSequence or None, default None
        Source of randomness (:func:`~reference.validation.as_generator`).

    Returns
    -------
    int or numpy.ndarray of int64
        Index (indices) of the selected candidates.

    Raises
    ------
    TypeError
        If ``scores`` or ``sensitivities`` is not an array of real numbers, or ``epsilon`` or ``beta`` not a
        real number.
    ValueError
        If ``scores`` is a scalar, empty or not finite; ``sensitivities`` is not finite, has a negative entry,
        or does not match ``scores`` on the last axis or broadcast against it; ``epsilon`` is not finite and
        positive or ``beta`` not in (0, 1).

    References
    ----------
    .. [1] [004 App. D.1], [004 Alg. 1 step 8].

    Examples
    --------
    >>> gem_sample([1.0, 1.0], [0.0, 4.0], epsilon=1.0, beta=0.5, size=6, rng=0).shape
    (6,)
    """
    logp = gem_log_prob(sensitivities, scores, epsilon, beta)
    g = np.asarray(sensitivities, dtype=np.float64)
    draws = record_call(
        "gem",
        data=scores,
        sensitivity=float(g.max()),
        norm="linf",
        privacy={"epsilon": epsilon},
        law={"log_weights": logp},
        public={
            **draw_public(logp.shape[-1:], size, logp.shape[:-1]),
            "sensitivities": g,
            "epsilon": epsilon,
            "beta": beta,
        },
        sample=lambda: gumbel_max_sample(logp, size, rng),
        site="[004 App. D.1]",
    )
    return int(draws) if draws.ndim == 0 else draws


class GeneralizedExponentialMechanism:
    """GEM in the mechanism protocol; ``data`` is an array of shape (k, 2): rows (sensitivity, score).

    ``sample(data, size, rng)`` returns ``size`` selected indices; ``log_prob(data)`` returns
    ``(outputs, log_probabilities)``.

    Parameters
    ----------
    epsilon : float
        Privacy parameter, finite and > 0.
    beta : float
        Failure probability of the utility guarantee, in (0, 1).

    Raises
    ------
    TypeError
        If a parameter is not a real number.
    ValueError
        If ``epsilon`` is not finite and positive or ``beta`` not in (0, 1); from the methods, if ``data``
        is not a finite array of shape (k, 2) or its sensitivities are negative.

    References
    ----------
    .. [1] [004 App. D.1]; S. Raskhodnikova and A. Smith, FOCS 2016 (GEM).

    Examples
    --------
    >>> mech = GeneralizedExponentialMechanism(epsilon=1.0, beta=0.5)
    >>> outputs, logp = mech.log_prob([[1.0, 0.0], [1.0, 4.0]])
    >>> outputs, np.exp(logp).round(4)
    (array([0, 1]), array([0.7311, 0.2689]))
    """

    finite_output = True

    def __init__(self, epsilon: float, beta: float) -> None:
        self.epsilon = check_epsilon(epsilon)
        self.beta = check_probability("beta", beta)

    def _split(self, data):
        arr = check_finite_array("data", data, ndim=2)
        if arr.shape[1] != 2:
            raise ValueError(f"data must have shape (k, 2) of (sensitivity, score) pairs, got {arr.shape}")
        return arr[:, 0], arr[:, 1]

    def log_prob(self, data: ArrayLike) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
        g, q = self._split(data)
        logp = gem_log_prob(g, q, self.epsilon, self.beta)
        return np.arange(logp.size), logp

    def sample(self, data: ArrayLike, size: int, rng: RNGLike = None) -> int | NDArray[np.int64]:
        g, q = self._split(data)
        return gem_sample(g, q, self.epsilon, self.beta, size, rng)
