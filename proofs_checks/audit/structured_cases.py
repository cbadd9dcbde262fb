"""Mechanisms with structured outputs that a one-projection attack misses (the targets of the attacks).

Each is a mechanism-protocol object (``sample(data, size, rng)``) on datasets of
records (rows) with a canonical neighbouring pair (one record replaced), a
claim it violates, and its true privacy loss derived in the docstring.  They
are the targets of :mod:`proofs_checks.audit.classifiers`; the audit sees
them as black boxes (no ``log_prob``/``log_density``).

References
----------
.. [1] M. Lyu, D. Su and N. Li, "Understanding the sparse vector technique for differential
       privacy", PVLDB 10(6), 2017 (Alg. 1 noise scales; Alg. 3 releases the noisy answer).
"""

from __future__ import annotations

import numpy as np

from reference.validation import (
    as_generator,
    check_epsilon,
    check_finite_array,
    check_integer,
    check_positive,
    check_probability,
)

__all__ = ["FlagLeakLaplace", "SVTNoisyValue"]


def _rows(data):
    return np.asarray(data, dtype=np.float64).reshape(len(data), -1)


class FlagLeakLaplace:
    """Laplace counting query that, with probability ``leak``, releases record 0 instead.

    Output ``(0, q + Lap(scale))`` with ``q`` the sum of the first column clipped
    to [0, 1] (replace-one sensitivity 1), or, with probability ``leak``, the pair
    ``(1, D[0, 0])``; ``columns=1`` drops the flag (the same leak in one column).

    Derivation: on the canonical pair (record 0 is 0 on D and 1 on D') the
    output ``(1, 0)`` has probability ``leak`` under D and 0 under D', so for
    every eps the mechanism is (eps, delta)-DP only if ``delta >= leak``; with
    ``leak = 1e-3`` it is not (1, 1e-6)-DP (true epsilon at delta 1e-6 is
    infinite).  The Laplace part alone is ``1/scale``-DP.
    """

    claimed_epsilon, claimed_delta = 1.0, 1e-6

    def __init__(self, leak=1e-3, scale=1.0, columns=2):
        self.leak = check_probability("leak", leak, low_open=False, high_open=False)
        self.scale = check_positive("scale", scale)
        self.columns = check_integer("columns", columns, minimum=1)
        if self.columns > 2:
            raise ValueError(f"columns must be 1 or 2, got {columns}")
        self.record_width = 1

    def pair(self):
        D = np.zeros((4, 1))
        Dp = D.copy()
        Dp[0, 0] = 1.0
        return D, Dp

    def sample(self, data, size, rng=None):
        rng = as_generator(rng)
        x = _rows(data)
        q = float(np.clip(x[:, 0], 0.0, 1.0).sum())
        leak = rng.random(size) < self.leak
        value = np.where(leak, x[0, 0], q + rng.laplace(0.0, self.scale, size))
        if self.columns == 1:
            return value
        return np.column_stack([leak.astype(np.float64), value])


class SVTNoisyValue:
    """Sparse vector (one answer, ``c = 1``) that releases the noisy value of the first query above threshold.

    ``m`` counting queries ``q_j(D) = sum_i clip(D[i, j], 0, 1)`` (each of
    replace-one sensitivity 1); threshold noise ``rho ~ Lap(2/eps)`` and query
    noise ``nu_j ~ Lap(4/eps)`` as in Lyu et al.'s Alg. 1 with ``c = 1`` [1]_ (which,
    releasing only the index, is eps-DP); output ``(i, q_i + nu_i)`` for the first
    ``i`` with ``q_i + nu_i >= T + rho``, or ``(m, 0)`` when none is (the noisy
    value is released as in Lyu et al.'s Alg. 3).

    Derivation of the true epsilon ``m eps / 4`` (``b = 4/eps``): the density of
    output ``(i, v)`` is ``f_b(v - q_i) int_{r <= v - T} f_rho(r) prod_{j<i}
    F_b(T + r - q_j) dr`` (``f_b``, ``F_b`` the Laplace(b) density and cdf).  Both
    ``log f_b`` and ``log F_b`` are ``1/b``-Lipschitz, so the ratio of D to D' is at
    most ``e^{(i+1)/b} <= e^{m/b}`` (likewise for ``(m, 0)``).  On the canonical pair
    (all queries 0 on D, all 1 on D': record 0 goes from zeros to ones), for
    ``i = m - 1`` and ``v < 0`` every argument lies in the left tail
    (``T + r <= v < 0`` with ``T = 0``) where ``f_b(x)/f_b(x - 1) = F_b(x)/F_b(x - 1) = e^{1/b}``:
    the loss is exactly ``m/b`` on the whole event ``{i = m - 1, v < 0}``.  With the
    defaults ``m = 10``, ``eps = 1``: true epsilon 2.5 against the claimed 1.
    """

    def __init__(self, epsilon=1.0, queries=10, threshold=0.0):
        self.epsilon = check_epsilon(epsilon)
        self.m = check_integer("queries", queries, minimum=1)
        if isinstance(threshold, (str, bytes, bool)):
            raise TypeError(f"threshold must be a real number, got {threshold!r}")
        self.threshold = float(check_finite_array("threshold", threshold, ndim=0))
        self.record_width = self.m
        self.claimed_epsilon, self.claimed_delta = self.epsilon, 0.0

    def true_epsilon(self):
        return self.m * self.epsilon / 4.0

    def pair(self):
        D = np.zeros((4, self.m))
        Dp = D.copy()
        Dp[0] = 1.0
        return D, Dp

    def sample(self, data, size, rng=None):
        rng = as_generator(rng)
        q = np.clip(_rows(data)[:, : self.m], 0.0, 1.0).sum(axis=0)
        rho = rng.laplace(0.0, 2.0 / self.epsilon, size)
        noisy = q + rng.laplace(0.0, 4.0 / self.epsilon, (size, self.m))
        above = noisy >= (self.threshold + rho)[:, None]
        first = np.where(above.any(axis=1), np.argmax(above, axis=1), self.m)
        value = np.where(first < self.m, noisy[np.arange(size), np.minimum(first, self.m - 1)], 0.0)
        return np.column_stack([first.astype(np.float64), value])
