"""The Generalized Exponential Mechanism (GEM) of Raskhodnikova & Smith, as used in 004.

References
----------
.. [1] S. Raskhodnikova and A. Smith, "Lipschitz extensions for node-private graph statistics
       and the generalized exponential mechanism", FOCS 2016 (arXiv 2015), Section on GEM.
.. [2] Arora, Bassily, Guzman, Menart and Ullah, Appendix D.1, Theorem (GEM)
       (``004_2b354816f00c2aef.txt``).
"""

from __future__ import annotations

import math

import numpy as np

from ..validation import as_generator, check_epsilon, check_finite_array, check_probability
from .exponential import exponential_log_prob, gumbel_max_sample

__all__ = ["gem_threshold", "gem_normalized_scores", "gem_log_prob", "gem_log_prob_from_normalized", "gem_sample",
           "GeneralizedExponentialMechanism"]


def gem_threshold(epsilon, beta, k):
    """``t = 2 log(k / beta) / epsilon``, the penalty multiplier of GEM."""
    return 2.0 * math.log(k / check_probability("beta", beta)) / check_epsilon(epsilon)


def _check_pairs(sensitivities, scores):
    q = check_finite_array("scores", scores)
    if q.ndim not in (1, 2):
        raise ValueError(f"scores must be 1-dimensional (or 2-dimensional: one row per run), got shape {q.shape}")
    g = check_finite_array("sensitivities", sensitivities, ndim=1)
    if q.shape[-1] != g.size:
        raise ValueError(f"sensitivities and scores must have the same length, got {g.size} and {q.shape[-1]}")
    if np.any(g < 0):
        j = int(np.flatnonzero(g < 0)[0])
        raise ValueError(f"sensitivities must be >= 0; entry {j} is {g[j]!r}")
    return g, q


def gem_normalized_scores(sensitivities, scores, epsilon, beta):
    """Normalised scores ``s_i = max_j [(q_i + t g_i) - (q_j + t g_j)] / (g_i + g_j)``.

    Lower ``q`` is better (the scores of 004 are penalised losses).  Each ratio
    moves by at most 1 between neighbours because ``|q_i - q_j|`` moves by at
    most ``g_i + g_j``, so ``s`` has sensitivity 1.  ``s_i >= 0`` (the term
    ``j = i`` is 0).  A pair with ``g_i = g_j = 0`` is data-independent: its
    ratio is ``+inf`` when the difference is positive and 0 otherwise.
    """
    g, q = _check_pairs(sensitivities, scores)
    t = gem_threshold(epsilon, beta, q.shape[-1])
    pen = q + t * g
    diff = pen[..., :, None] - pen[..., None, :]
    den = g[:, None] + g[None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(den > 0, diff / np.where(den > 0, den, 1.0),
                         np.where(diff > 0, np.inf, 0.0))
    ratio[..., np.arange(g.size), np.arange(g.size)] = 0.0
    return ratio.max(axis=-1)


def gem_log_prob(sensitivities, scores, epsilon, beta):
    """Exact log-probabilities of GEM: ``P[i] ∝ exp(-epsilon * s_i / 2)``.

    This is the exponential mechanism (sensitivity 1) on ``-s``, hence
    epsilon-DP.  Utility (004, Appendix D.1): with ``t = 2 log(k/beta)/eps``
    the exponential mechanism returns ``s_i <= t`` with probability ``>= 1 - beta``,
    and ``s_i <= t`` gives ``q_i <= q_j + 2 t g_j = q_j + 4 g_j log(k/beta)/eps``
    for every ``j``, the bound printed in 004.
    """
    s = gem_normalized_scores(sensitivities, scores, epsilon, beta)
    if s.ndim == 2:
        return np.array([gem_log_prob_from_normalized(row, epsilon) for row in s])
    return gem_log_prob_from_normalized(s, epsilon)


def gem_log_prob_from_normalized(normalized_scores, epsilon):
    """Exponential mechanism (sensitivity 1) on ``-s`` for one vector of normalised scores."""
    s = np.asarray(normalized_scores, dtype=np.float64)
    finite = np.isfinite(s)
    logp = np.full(s.size, -np.inf)
    logp[finite] = exponential_log_prob(-s[finite], epsilon, 1.0)
    return logp


def gem_sample(sensitivities, scores, epsilon, beta, size=None, rng=None):
    """Sample GEM (vectorised over ``size`` draws).

    With 2-D ``scores`` (one row per run) one index is drawn per row, in one
    vectorised Gumbel-max step, and ``size`` must be ``None``.
    """
    logp = gem_log_prob(sensitivities, scores, epsilon, beta)
    gen = as_generator(rng)
    if logp.ndim == 2:
        if size is not None:
            raise ValueError(f"size must be None when scores has one row per run, got {size!r}")
        keys = np.where(np.isfinite(logp), logp + gen.gumbel(size=logp.shape), -np.inf)
        return np.argmax(keys, axis=1)
    draws = gumbel_max_sample(logp, 1 if size is None else size, gen)
    return int(draws[0]) if size is None else draws


class GeneralizedExponentialMechanism:
    """Mechanism-protocol adapter; ``data`` is an array of shape (k, 2): rows (sensitivity, score)."""

    finite_output = True

    def __init__(self, epsilon, beta):
        self.epsilon = check_epsilon(epsilon)
        self.beta = check_probability("beta", beta)

    def _split(self, data):
        arr = check_finite_array("data", data, ndim=2)
        if arr.shape[1] != 2:
            raise ValueError(f"data must have shape (k, 2) of (sensitivity, score) pairs, got {arr.shape}")
        return arr[:, 0], arr[:, 1]

    def log_prob(self, data):
        g, q = self._split(data)
        logp = gem_log_prob(g, q, self.epsilon, self.beta)
        return np.arange(logp.size), logp

    def sample(self, data, size, rng=None):
        g, q = self._split(data)
        return gem_sample(g, q, self.epsilon, self.beta, size, rng)
