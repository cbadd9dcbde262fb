"""Calibration suite: small mechanisms whose output laws, true epsilon and best events are known.

Each entry is a mechanism-protocol object (``sample``, and ``log_prob`` or
``log_density``) on datasets of records (rows), with a canonical neighbouring
pair ``(D, D')`` (one record replaced), the claim it is audited against and
the analytic facts the auditor is judged by:

* ``true_epsilon(delta)``: the exact epsilon of the canonical pair at ``delta``
  (the smallest eps with ``P(S) <= e^eps P'(S) + delta`` for all events S, both
  directions);
* ``event_probabilities()``: ``(P(S), P'(S))`` for the family of likelihood-ratio
  super-level sets of both directions.  By the Neyman-Pearson lemma, for each
  value of ``P'(S)`` such a set maximises ``P(S)``; the Clopper-Pearson bound is
  increasing in the count under the numerator law and decreasing in the other,
  so the best event for the bound lies in this family.

:func:`oracle_bound` is the Clopper-Pearson epsilon lower bound that the best
event of the family would give with ``samples/2`` calls per dataset and
expected counts ``n P(S)``, ``n P'(S)``, at the same confidence: the yardstick
of the statistical audit's power.

Derivations are in each class docstring.  Suite entries come in pairs: a
correct mechanism (true epsilon <= claimed) and a violating one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import optimize, special, stats

from reference.validation import as_generator, check_integer

from ._cp_bound import _cp_eps_vector
from .checks import check_confidence, check_samples

__all__ = [
    "RandomizedResponse",
    "LaplaceCount",
    "GaussianCount",
    "ExponentialArgmax",
    "LaplaceVector",
    "CalibrationCase",
    "calibration_suite",
    "oracle_bound",
]

#: Thresholds of the continuous event families (in units of the noise scale around the answers).
_T_GRID = np.linspace(-12.0, 13.0, 20001)


def _rows(data):
    return np.asarray(data, dtype=np.float64).reshape(len(data), -1)


def _clipped_sum(data, lo=0.0, hi=1.0):
    """Sum over records of their first entry clipped to [lo, hi]: replace-one sensitivity hi - lo."""
    return float(np.sum(np.clip(_rows(data)[:, 0], lo, hi)))


class RandomizedResponse:
    """Warner's randomized response on the first record's bit.

    The mechanism reads ``b = 1[D[0, 0] > 1/2]`` and outputs ``b`` with
    probability ``e^a / (1 + e^a)`` and ``1 - b`` otherwise, ``a = true_eps``.

    Derivation: the canonical pair has ``b = 0`` on D and ``b = 1`` on D'.
    ``P(1)/P'(1) = (1/(1+e^a)) / (e^a/(1+e^a)) = e^-a`` and ``P(0)/P'(0) = e^a``,
    so the privacy loss is exactly ``a`` in both directions; for ``delta > 0``,
    the worst event is ``{0}`` (or ``{1}`` reversed) and
    ``eps(delta) = max(0, log((e^a/(1+e^a) - delta) / (1/(1+e^a))))``.
    The event family is ``{0}``, ``{1}`` and the full set, in both directions.
    """

    def __init__(self, true_eps):
        self.a = float(true_eps)

    def _logp(self, data):
        b = _rows(data)[0, 0] > 0.5
        keep = -math.log1p(math.exp(-self.a))  # log(e^a/(1+e^a))
        flip = -math.log1p(math.exp(self.a))  # log(1/(1+e^a))
        return np.array([flip, keep]) if b else np.array([keep, flip])

    def log_prob(self, data):
        return np.arange(2), self._logp(data)

    def sample(self, data, size, rng=None):
        b = int(_rows(data)[0, 0] > 0.5)
        flip = as_generator(rng).random(check_integer("size", size, minimum=0)) >= 1 / (1 + math.exp(-self.a))
        return np.where(flip, 1 - b, b).astype(np.int64)

    @staticmethod
    def pair(n=4):
        D = np.zeros((n, 1))
        Dp = D.copy()
        Dp[0, 0] = 1.0
        return D, Dp

    def true_epsilon(self, delta=0.0):
        keep, flip = 1 / (1 + math.exp(-self.a)), 1 / (1 + math.exp(self.a))
        return max(0.0, math.log(keep - delta) - math.log(flip)) if keep > delta else 0.0

    def event_probabilities(self):
        D, Dp = self.pair()
        p, q = np.exp(self._logp(D)), np.exp(self._logp(Dp))
        ev = [(p[0], q[0]), (p[1], q[1]), (q[0], p[0]), (q[1], p[1])]
        return np.array([e[0] for e in ev]), np.array([e[1] for e in ev])


class LaplaceCount:
    """Counting query ``q(D) = sum_i clip(D[i, 0], 0, 1)`` plus ``Lap(scale)`` noise.

    Derivation: replacing one record moves ``q`` by at most 1; the canonical pair
    has ``q(D) = 0`` and ``q(D') = 1``.  The log-density ratio
    ``(|x - 1| - |x|)/scale`` is ``1/scale`` for ``x <= 0``, ``-1/scale`` for
    ``x >= 1`` and linear between, so the pure-DP loss is exactly ``1/scale``.
    For ``delta > 0`` the worst events are the half-lines ``{x <= t}``, with
    ``P(x <= t) = 1 - e^{-t/b}/2`` (t >= 0) resp. ``e^{t/b}/2`` (t < 0) under
    D and the same shifted by 1 under D'; ``eps(delta)`` is the maximum over t of
    ``log((P(S_t) - delta)/P'(S_t))``, evaluated on a fine grid of t.  The ratio
    is monotone in x, so the half-lines are the likelihood-ratio super-level sets.
    """

    def __init__(self, scale):
        self.scale = float(scale)

    def sample(self, data, size, rng=None):
        return _clipped_sum(data) + as_generator(rng).laplace(0.0, self.scale, check_integer("size", size, minimum=0))

    def log_density(self, data, outputs):
        x = np.asarray(outputs, dtype=np.float64).reshape(len(outputs), -1)[:, 0]
        return -np.abs(x - _clipped_sum(data)) / self.scale - math.log(2 * self.scale)

    pair = staticmethod(RandomizedResponse.pair)

    def _cdf(self, t, center):
        return stats.laplace.cdf(t, loc=center, scale=self.scale)

    def event_probabilities(self):
        t = _T_GRID * self.scale
        p_le, q_le = self._cdf(t, 0.0), self._cdf(t, 1.0)  # {x <= t}: D numerator
        p_gt, q_gt = 1 - p_le, 1 - q_le  # {x > t}: D' numerator
        return np.concatenate([p_le, q_gt]), np.concatenate([q_le, p_gt])

    def true_epsilon(self, delta=0.0):
        if delta == 0:
            return 1.0 / self.scale
        return _family_epsilon(*self.event_probabilities(), delta)


class GaussianCount(LaplaceCount):
    """Counting query (sensitivity 1) plus ``N(0, sigma^2)`` noise.

    Derivation: with ``mu = 1/sigma`` the privacy-loss random variable is
    ``N(mu^2/2, mu^2)``, and by Balle & Wang (2018, Theorem 8) the tight delta
    at eps is ``Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2)``;
    ``true_epsilon(delta)`` inverts it (brentq, relative tolerance 1e-14).  The
    ratio is monotone in x, so the best events are half-lines ``{x > t}``
    (D' numerator) and ``{x <= t}`` (D numerator).  The classic calibration
    ``sigma = sqrt(2 log(1.25/delta))/eps`` is (eps, delta)-DP for eps < 1.
    """

    def __init__(self, sigma):
        self.scale = float(sigma)

    def sample(self, data, size, rng=None):
        return _clipped_sum(data) + as_generator(rng).normal(0.0, self.scale, check_integer("size", size, minimum=0))

    def log_density(self, data, outputs):
        x = np.asarray(outputs, dtype=np.float64).reshape(len(outputs), -1)[:, 0]
        return -0.5 * ((x - _clipped_sum(data)) / self.scale) ** 2 - math.log(self.scale * math.sqrt(2 * math.pi))

    def _cdf(self, t, center):
        return stats.norm.cdf(t, loc=center, scale=self.scale)

    def delta_at(self, eps):
        mu = 1.0 / self.scale
        return float(stats.norm.cdf(-eps / mu + mu / 2) - math.exp(eps) * stats.norm.cdf(-eps / mu - mu / 2))

    def true_epsilon(self, delta=0.0):
        if delta <= 0:
            return math.inf
        if self.delta_at(0.0) <= delta:
            return 0.0
        hi = 1.0
        while self.delta_at(hi) > delta:
            hi *= 2
        return float(optimize.brentq(lambda e: self.delta_at(e) - delta, 0.0, hi, rtol=1e-14, xtol=1e-15))


class ExponentialArgmax:
    """Exponential mechanism over 3 outputs with scores ``u_r(D) = sum_i clip(D[i, r], 0, 1)``.

    Weights ``exp(c u_r)``; the standard choice is ``c = eps/(2 Delta)`` with
    ``Delta = 1`` (each record moves each score by at most 1).  Canonical pair:
    the first record is ``(0, 1, 1)`` in ``D`` and ``(1, 0, 0)`` in ``D'``, the
    others zero, so ``u(D) = (0, 1, 1)`` and ``u(D') = (1, 0, 0)``: one score up,
    the others down, the pattern that makes the factor 2 necessary.

    Derivation: ``p = (1, e^c, e^c)/(1 + 2e^c)`` and ``p' = (e^c, 1, 1)/(e^c + 2)``.
    ``log p'(0)/p(0) = c + log(1 + 2e^c) - log(e^c + 2)`` and
    ``log p(1)/p'(1) = c - log(1 + 2e^c) + log(e^c + 2)``; since
    ``1 + 2e^c >= e^c + 2`` for ``c >= 0`` the first is the exact loss.  For
    ``c = eps/2 = 0.5`` it is ``0.6638 < 1``: correct.  With the factor 2
    dropped, ``c = eps = 1``, it is ``1.3106 > 1``: the claim eps = 1 is violated.
    The event family is every non-empty subset of the 3 outputs, both directions.
    """

    def __init__(self, c):
        self.c = float(c)

    def _logp(self, data):
        u = np.sum(np.clip(_rows(data)[:, :3], 0.0, 1.0), axis=0) * self.c
        return u - special.logsumexp(u)

    def log_prob(self, data):
        return np.arange(3), self._logp(data)

    def sample(self, data, size, rng=None):
        lp = self._logp(data)
        g = as_generator(rng).gumbel(size=(check_integer("size", size, minimum=0), 3))
        return np.argmax(lp + g, axis=1)

    @staticmethod
    def pair(n=4):
        D = np.zeros((n, 3))
        Dp = D.copy()
        D[0] = (0.0, 1.0, 1.0)
        Dp[0] = (1.0, 0.0, 0.0)
        return D, Dp

    def analytic_loss(self):
        c = self.c
        a, b = math.log1p(2 * math.exp(c)), math.log(math.exp(c) + 2)
        return max(c + a - b, c - a + b)

    def event_probabilities(self):
        D, Dp = self.pair()
        p, q = np.exp(self._logp(D)), np.exp(self._logp(Dp))
        masks = np.array([[(m >> i) & 1 for i in range(3)] for m in range(1, 8)], dtype=bool)
        P, Q = masks @ p, masks @ q
        return np.concatenate([P, Q]), np.concatenate([Q, P])

    def true_epsilon(self, delta=0.0):
        if delta == 0:
            return self.analytic_loss()
        return _family_epsilon(*self.event_probabilities(), delta)


class LaplaceVector:
    """Two-dimensional Laplace mechanism on the sum of records clipped to an l1 ball.

    ``q(D) = sum_i r_i min(1, radius/||r_i||_1)`` plus i.i.d. ``Lap(scale)`` on each
    coordinate; replace-one l1 sensitivity ``2 radius``.  Canonical pair:
    ``D`` zeros, ``D'`` with first record ``(2 radius, 0)`` (clipped to
    ``(radius, 0)``), so the answers differ by ``radius`` in coordinate 1 only.

    Derivation: the log-ratio is ``(|x_1 - radius| - |x_1|)/scale``, a function of
    ``x_1`` alone, monotone, with supremum ``radius/scale``: the exact pure-DP
    loss of the pair.  Super-level sets are ``{x_1 <= t}`` / ``{x_1 > t}``, with
    the one-dimensional Laplace probabilities.  The output is 2-D, so a black-box
    audit has to find the informative direction (logistic regression).
    """

    def __init__(self, scale, radius=0.5):
        self.scale, self.radius = float(scale), float(radius)

    def _answer(self, data):
        r = _rows(data)[:, :2]
        norm = np.sum(np.abs(r), axis=1)
        factor = np.where(norm > self.radius, self.radius / np.where(norm > 0, norm, 1.0), 1.0)
        return np.sum(r * factor[:, None], axis=0)

    def sample(self, data, size, rng=None):
        size = check_integer("size", size, minimum=0)
        return self._answer(data) + as_generator(rng).laplace(0.0, self.scale, (size, 2))

    def log_density(self, data, outputs):
        x = np.asarray(outputs, dtype=np.float64).reshape(len(outputs), 2)
        return -np.sum(np.abs(x - self._answer(data)), axis=1) / self.scale - 2 * math.log(2 * self.scale)

    def pair(self, n=4):
        D = np.zeros((n, 2))
        Dp = D.copy()
        Dp[0] = (2 * self.radius, 0.0)
        return D, Dp

    def event_probabilities(self):
        t = _T_GRID * self.scale
        cdf = stats.laplace.cdf
        p_le, q_le = cdf(t, 0.0, self.scale), cdf(t, self.radius, self.scale)
        return np.concatenate([p_le, 1 - q_le]), np.concatenate([q_le, 1 - p_le])

    def true_epsilon(self, delta=0.0):
        if delta == 0:
            return self.radius / self.scale
        return _family_epsilon(*self.event_probabilities(), delta)


def _family_epsilon(P, Q, delta):
    with np.errstate(divide="ignore", invalid="ignore"):
        v = np.where(P > delta, np.log(P - delta) - np.log(Q), -np.inf)
    return float(max(0.0, np.max(v)))


@dataclass(frozen=True)
class CalibrationCase:
    """One suite entry: a mechanism, its claim and whether the claim holds on the canonical pair."""

    name: str
    mechanism: object
    claimed_epsilon: float
    claimed_delta: float
    correct: bool
    description: str

    def pair(self):
        return self.mechanism.pair()

    def true_epsilon(self):
        return self.mechanism.true_epsilon(self.claimed_delta)


def calibration_suite():
    """The calibration mechanisms: five laws, each in a correct and a violating version."""
    eps_g, delta_g = 0.9, 1e-5
    sigma = math.sqrt(2 * math.log(1.25 / delta_g)) / eps_g
    return [
        CalibrationCase(
            "rr-correct",
            RandomizedResponse(1.0),
            1.0,
            0.0,
            True,
            "randomized response with e^eps/(1+e^eps), claim eps = 1",
        ),
        CalibrationCase(
            "rr-violating", RandomizedResponse(1.0), 0.5, 0.0, False, "randomized response at eps = 1 claimed as 0.5"
        ),
        CalibrationCase(
            "laplace-correct", LaplaceCount(1.0), 1.0, 0.0, True, "counting query + Lap(1/eps), claim eps = 1"
        ),
        CalibrationCase(
            "laplace-violating",
            LaplaceCount(0.5),
            1.0,
            0.0,
            False,
            "counting query + Lap(1/(2 eps)): half the noise, claim eps = 1 (true 2)",
        ),
        CalibrationCase(
            "gaussian-correct",
            GaussianCount(sigma),
            eps_g,
            delta_g,
            True,
            "counting query + classic Gaussian noise for (0.9, 1e-5)",
        ),
        CalibrationCase(
            "gaussian-violating",
            GaussianCount(sigma / 3),
            eps_g,
            delta_g,
            False,
            "classic Gaussian sigma divided by 3, claim (0.9, 1e-5)",
        ),
        CalibrationCase(
            "exponential-correct",
            ExponentialArgmax(0.5),
            1.0,
            0.0,
            True,
            "exponential mechanism, weight exp(eps u / (2 Delta)), claim eps = 1",
        ),
        CalibrationCase(
            "exponential-violating",
            ExponentialArgmax(1.0),
            1.0,
            0.0,
            False,
            "exponential mechanism with weight exp(eps u / Delta) (factor 2 dropped), claim eps = 1",
        ),
        CalibrationCase(
            "laplace2d-correct",
            LaplaceVector(1.0, radius=0.5),
            0.5,
            0.0,
            True,
            "2-D Laplace, l1 clipping radius 1/2, scale 1 (pair loss 0.5), claim eps = 0.5",
        ),
        CalibrationCase(
            "laplace2d-violating",
            LaplaceVector(0.5, radius=0.5),
            0.5,
            0.0,
            False,
            "2-D Laplace with half the noise (pair loss 1), claim eps = 0.5",
        ),
    ]


def oracle_bound(case_or_mechanism, samples, confidence, delta=None):
    """Clopper-Pearson epsilon bound of the best event of the family at ``samples/2`` calls per dataset.

    Expected counts ``n P(S)`` and ``n P'(S)`` (real-valued, the beta functions
    are continuous in them), each bound at error ``(1 - confidence)/2``.
    """
    samples = check_samples(samples)
    confidence = check_confidence(confidence)
    mech = getattr(case_or_mechanism, "mechanism", case_or_mechanism)
    if delta is None:
        delta = getattr(case_or_mechanism, "claimed_delta", 0.0)
    n = samples // 2
    P, Q = mech.event_probabilities()
    vals = _cp_eps_vector(n * np.asarray(P), n, n * np.asarray(Q), n, delta, (1 - confidence) / 2)
    return float(max(0.0, np.max(vals)))
