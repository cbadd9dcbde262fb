"""Small mechanisms for the auditor's tests (module level so joblib workers can pickle them)."""

import numpy as np
from scipy import special


class ShiftLaplace:
    """Sum of first column clipped to [0, 1] plus Laplace(scale): epsilon = 1/scale."""

    def __init__(self, scale=1.0):
        self.scale = scale

    def sample(self, data, size, rng):
        q = float(np.clip(np.asarray(data)[:, 0], 0, 1).sum())
        return q + rng.laplace(0.0, self.scale, size)


class FiniteCoin:
    """Outputs 1 w.p. p1 when record 0 is > 0.5, else w.p. p0 (exact law known)."""

    def __init__(self, p0=0.3, p1=0.6):
        self.p0, self.p1 = p0, p1

    def _p(self, data):
        return self.p1 if np.asarray(data)[0, 0] > 0.5 else self.p0

    def log_prob(self, data):
        p = self._p(data)
        return np.arange(2), np.log([1 - p, p])

    def sample(self, data, size, rng):
        return (rng.random(size) < self._p(data)).astype(np.int64)


class AdditiveExp:
    """Exponential mechanism with additive score terms; ``factor`` = eps/(2 Delta) when correct."""

    def __init__(self, factor=0.5, k=3):
        self.factor, self.k = factor, k
        self.record_width = k

    def score_terms(self, records):
        return self.factor * np.clip(np.atleast_2d(np.asarray(records, dtype=float))[:, : self.k], 0, 1)

    def log_prob_from_terms(self, total):
        return total - special.logsumexp(total)

    def log_prob(self, data):
        return np.arange(self.k), self.log_prob_from_terms(self.score_terms(data).sum(axis=0))

    def sample(self, data, size, rng):
        lp = self.log_prob(data)[1]
        return np.argmax(lp + rng.gumbel(size=(size, self.k)), axis=1)


class NoSample:
    def log_prob(self, data):
        return np.arange(1), np.zeros(1)


class BadShape:
    """Returns a different output width on every call."""

    def __init__(self):
        self.calls = 0

    def sample(self, data, size, rng):
        self.calls += 1
        return rng.normal(size=(size, 1 + self.calls % 2))


class WrongLength:
    def sample(self, data, size, rng):
        return rng.normal(size=size + 1)


def coin_pairs():
    D = np.zeros((3, 1))
    Dp = D.copy()
    Dp[0, 0] = 1.0
    return [(D, Dp)]


MECH = ShiftLaplace(0.5)
COIN = FiniteCoin()
