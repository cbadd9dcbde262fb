"""The exponential mechanism, computed in log space.

References
----------
.. [1] F. McSherry and K. Talwar, "Mechanism design via differential privacy", FOCS 2007.
.. [2] D. Wang and J. Xu, "Differentially private l1-norm linear regression with heavy-tailed
       data", Definition 2 (``000_e64de114947d2122.txt``).
.. [3] L. Hu, S. Ni, H. Xiao and D. Wang, "High dimensional differentially private stochastic
       optimization with heavy-tailed data", Definition 3 (``002_6c597657f27a60c9.txt``).
"""

from __future__ import annotations

import numpy as np
from scipy.special import logsumexp

from ..validation import as_generator, check_epsilon, check_integer, check_positive, check_scores

__all__ = ["exponential_log_prob", "exponential_sample", "gumbel_max_sample", "ExponentialMechanism"]


def exponential_log_prob(scores, epsilon, sensitivity, *, weight_factor=0.5):
    """Exact log-probabilities of the exponential mechanism.

    Output ``r`` has probability proportional to
    ``exp(weight_factor * epsilon * u(D, r) / sensitivity)``; the standard
    mechanism (Definition 2 of 000, Definition 3 of 002) uses
    ``weight_factor = 1/2``, i.e. ``exp(eps * u / (2 * Delta))``.

    Parameters
    ----------
    scores : array_like, shape (k,)
        Utility ``u(D, r)`` of each candidate (higher is better).
    epsilon : float
        Privacy parameter, > 0.
    sensitivity : float
        ``Delta u = max_r max_{D~D'} |u(D, r) - u(D', r)|``, > 0.
    weight_factor : float, optional
        Multiplier of ``epsilon * u / Delta`` in the exponent.  Kept as a
        parameter so that the papers' printed exponents (e.g. ``n*iota*eps/log 2``
        in Algorithm 1 of 000) can be expressed, and so tests can build a
        deliberately miscalibrated mechanism.

    Returns
    -------
    numpy.ndarray, shape (k,)
        ``log P[M(D) = r]``, normalised by log-sum-exp, so scores of size 1e6
        or ``epsilon * n`` of size 1e300 cannot overflow.

    Notes
    -----
    Proof note (privacy).  For neighbours with ``|u(D,r) - u(D',r)| <= Delta``
    the unnormalised log-weight moves by at most ``weight_factor * eps`` and so
    does the log-normaliser, giving privacy loss ``<= 2 * weight_factor * eps``;
    ``weight_factor = 1/2`` gives ``eps``.

    Examples
    --------
    >>> import numpy as np
    >>> np.exp(exponential_log_prob([0.0, 1.0], epsilon=2.0, sensitivity=1.0)).round(4)
    array([0.2689, 0.7311])
    """
    u = check_scores(scores)
    eps = check_epsilon(epsilon)
    delta_u = check_positive("sensitivity", sensitivity)
    factor = check_positive("weight_factor", weight_factor)
    logits = _scaled_logits(u, factor, eps, delta_u)
    return logits - logsumexp(logits)


def _scaled_logits(u: np.ndarray, factor: float, epsilon: float, sensitivity: float) -> np.ndarray:
    """``factor * epsilon / sensitivity * (u - max u)`` with no NaN for any finite inputs.

    The direct product is exact to an ulp and is used whenever the scale and
    the gaps are finite and non-zero.  Otherwise (the scale over- or
    underflows, or a gap ``max u - u`` exceeds the float64 range) the product is
    formed in log space, ``-exp(log gap + log scale)``, whose only non-finite
    value is ``-inf``: an honest float64 probability of 0.
    """
    with np.errstate(over="ignore", under="ignore"):
        scale = factor * epsilon / sensitivity
        half_gap = u.max() / 2.0 - u / 2.0          # never overflows
        gap = 2.0 * half_gap                         # may overflow to inf
    if 0.0 < scale < np.inf and np.all(np.isfinite(gap)):
        with np.errstate(over="ignore", under="ignore"):  # overflow to -inf is the exact float64 answer
            return np.where(gap == 0.0, 0.0, -(scale * gap))
    log_scale = np.log(factor) + np.log(epsilon) - np.log(sensitivity)
    with np.errstate(divide="ignore", over="ignore"):
        log_gap = np.log(half_gap) + np.log(2.0)
        return np.where(half_gap == 0.0, 0.0, -np.exp(log_gap + log_scale))


def gumbel_max_sample(log_weights, size, rng):
    """Draw ``size`` indices with probabilities ``softmax(log_weights)`` by the Gumbel-max trick.

    Memory is ``O(size * k)``; callers with very large ``k`` should stream
    (see the zeta-net samplers of 000).  Vectorised: one call for all draws.
    """
    gen = as_generator(rng)
    lw = np.asarray(log_weights, dtype=np.float64)
    size = check_integer("size", size, minimum=0)
    finite = np.isfinite(lw)
    out = np.empty(size, dtype=np.int64)
    # Chunk the draws so that a million samples over a few thousand outputs stays small.
    chunk = max(1, int(2**22 // max(lw.size, 1)))
    for start in range(0, size, chunk):
        stop = min(size, start + chunk)
        g = gen.gumbel(size=(stop - start, lw.size))
        keys = np.where(finite, lw + g, -np.inf)
        out[start:stop] = np.argmax(keys, axis=1)
    return out


def exponential_sample(scores, epsilon, sensitivity, size=None, rng=None, *, weight_factor=0.5):
    """Sample the exponential mechanism (vectorised; ``size`` draws in one call).

    Parameters
    ----------
    scores, epsilon, sensitivity, weight_factor
        As in :func:`exponential_log_prob`.
    size : int or None
        Number of independent draws; ``None`` returns a single index.
    rng : numpy.random.Generator, int or None
        Source of randomness (SPEC 7).

    Returns
    -------
    int or numpy.ndarray of int
        Index (indices) of the selected candidates.
    """
    logp = exponential_log_prob(scores, epsilon, sensitivity, weight_factor=weight_factor)
    if size is None:
        return int(gumbel_max_sample(logp, 1, rng)[0])
    return gumbel_max_sample(logp, size, rng)


class ExponentialMechanism:
    """Mechanism-protocol adapter: ``data`` is the score vector ``u(D, .)``.

    ``sample(data, size, rng)`` returns a column of selected indices and
    ``log_prob(data)`` returns ``(outputs, log_probabilities)``.
    """

    finite_output = True

    def __init__(self, epsilon, sensitivity, *, weight_factor=0.5):
        self.epsilon = check_epsilon(epsilon)
        self.sensitivity = check_positive("sensitivity", sensitivity)
        self.weight_factor = check_positive("weight_factor", weight_factor)

    def log_prob(self, data):
        logp = exponential_log_prob(data, self.epsilon, self.sensitivity, weight_factor=self.weight_factor)
        return np.arange(logp.size), logp

    def sample(self, data, size, rng=None):
        return exponential_sample(data, self.epsilon, self.sensitivity, size, rng,
                                  weight_factor=self.weight_factor)
