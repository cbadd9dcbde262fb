"""Dataset-level mechanism factories for the DP primitives, so the auditor can audit them by id.

The adapters of :mod:`reference.mechanisms` read what a mechanism reads from
the data (a score vector, a query answer).  The auditor works on datasets of
records (rows) with the replace-one relation, so each factory here wraps a
primitive with a bounded-contribution query:

==================  =========================================================  ==================
id                  query on records ``r_i``                                   replace-one bound
==================  =========================================================  ==================
laplace             ``sum_i r_i min(1, (1/2)/||r_i||_1)``                      l1 sensitivity 1
gaussian            ``sum_i r_i min(1, (1/2)/||r_i||_2)``                      l2 sensitivity 1
exponential         scores ``u_k = sum_i clip(r_ik, 0, 1)``                    score sensitivity 1
report-noisy-max    scores ``u_k = sum_i clip(r_ik, 0, 1)``                    score sensitivity 1
gem                 ``q_k = sum_i clip(r_ik, -g_k/2, g_k/2)``, ``g_k = 2^k``   ``|q_k - q_k'| <= g_k``
peeling             ``v_k = sum_i clip(r_ik, -lam/2, lam/2)``                  l_inf sensitivity lam
==================  =========================================================  ==================

Each factory has the registry signature ``factory(variant=..., epsilon=...,
delta=..., **params)``; each object has ``sample``, ``example_data(rng)``, and
``log_prob`` (finite outputs) or ``log_density`` (continuous outputs).  The
exponential mechanism also exposes ``score_terms`` / ``log_prob_from_terms``
(O(K d) rescoring of a neighbour).

Proof note: each query's replace-one sensitivity is the bound in the table
(the clipped contribution of one record lies in a set of the stated
diameter), which is what the primitive's privacy argument assumes.

Registration: ``proofs_checks/claim_sets/primitives/`` may pass
``mechanism=PRIMITIVE_FACTORIES[id]`` to each ``Algorithm``; until then
:func:`proofs_checks.audit_claims.resolve_mechanism` falls back to this mapping.
"""

from __future__ import annotations

import numpy as np

from reference.mechanisms import (
    ExponentialMechanism,
    GaussianMechanism,
    GeneralizedExponentialMechanism,
    LaplaceMechanism,
    Peeling,
    ReportNoisyMax,
    gumbel_max_sample,
    normalize_log_weights,
)
from reference.validation import as_generator, check_epsilon, check_finite_array, check_integer, check_positive

__all__ = [
    "PRIMITIVE_FACTORIES",
    "laplace_factory",
    "gaussian_factory",
    "exponential_factory",
    "report_noisy_max_factory",
    "gem_factory",
    "peeling_factory",
]


def _records(data, width=None):
    arr = check_finite_array("data", data, ndim=2)
    if width is not None and arr.shape[1] != width:
        raise ValueError(f"data must have records of width {width}, got shape {arr.shape}")
    return arr


def _ball_clip(rows, radius, order):
    """Scale each row into the l_order ball of ``radius`` (overflow-safe for entries near 1e308)."""
    top = np.max(np.abs(rows), axis=1, keepdims=True)
    safe = np.where(top > 0, top, 1.0)
    unit = np.linalg.norm(rows / safe, ord=order, axis=1, keepdims=True)  # in [1, width]
    with np.errstate(over="ignore"):  # overflow only where the value is discarded or compared
        outside = unit * safe > radius  # inf compares correctly
        factor = np.where(outside, (radius / safe) / np.where(unit > 0, unit, 1.0), 1.0)
    return rows * factor


class _Base:
    width = 3
    n = 6

    def example_data(self, rng=None):
        return as_generator(rng).standard_t(1.5, size=(self.n, self.width))


class RecordLaplace(_Base):
    """Laplace mechanism (002, Definition 2) on the l1-clipped sum of records."""

    def __init__(self, epsilon, width=2):
        self.width = check_integer("width", width, minimum=1)
        self.inner = LaplaceMechanism(1.0, epsilon)

    def query(self, data):
        return _ball_clip(_records(data, self.width), 0.5, 1).sum(axis=0)

    def sample(self, data, size, rng=None):
        return self.inner.sample(self.query(data), size, rng)

    def log_density(self, data, outputs):
        return self.inner.log_density(self.query(data), outputs)


class RecordGaussian(RecordLaplace):
    """Gaussian mechanism (classic calibration) on the l2-clipped sum of records."""

    def __init__(self, epsilon, delta, width=2):
        self.width = check_integer("width", width, minimum=1)
        self.inner = GaussianMechanism(1.0, epsilon, delta)

    def query(self, data):
        return _ball_clip(_records(data, self.width), 0.5, 2).sum(axis=0)


class _ClippedScores(_Base):
    """Scores ``u_k = sum_i clip(r_ik, 0, 1)`` over K = width outputs (replace-one sensitivity 1)."""

    def scores(self, data):
        return np.clip(_records(data, self.width), 0.0, 1.0).sum(axis=0)

    def log_prob(self, data):
        return self.inner.log_prob(self.scores(data))

    def sample(self, data, size, rng=None):
        return self.inner.sample(self.scores(data), size, rng)


class RecordExponential(_ClippedScores):
    """Exponential mechanism over K = width outputs with scores ``sum_i clip(r_ik, 0, 1)``."""

    def __init__(self, epsilon, width=4, weight_factor=0.5):
        self.width = check_integer("width", width, minimum=2)
        self.epsilon = check_epsilon(epsilon)
        self.weight_factor = weight_factor
        self.inner = ExponentialMechanism(epsilon, 1.0, weight_factor=weight_factor)

    def score_terms(self, records):
        """Each record's additive log-weight ``weight_factor * eps * clip(r_k, 0, 1) / Delta``."""
        return self.weight_factor * self.epsilon * np.clip(_records(records, self.width), 0.0, 1.0)

    def log_prob_from_terms(self, total):
        return normalize_log_weights(total)


class RecordReportNoisyMax(_ClippedScores):
    """Report-noisy-max, Laplace scale 2 Delta/eps, over scores ``sum_i clip(r_ik, 0, 1)``."""

    expensive_log_prob = True  # one quadrature per output

    def __init__(self, epsilon, width=3):
        self.width = check_integer("width", width, minimum=2)
        self.inner = ReportNoisyMax.from_privacy(1.0, epsilon)


class RecordGEM(_Base):
    """GEM over K = width candidates; candidate k has sensitivity ``g_k = 2^k``.

    ``weight_factor`` multiplies GEM's log-weights ``-epsilon s_k / 2`` ([004 App. D.1]):
    1 is GEM; 1.5 is a deliberately broken variant (weights 1.5x too large, true
    epsilon up to 1.5 epsilon) used to measure the auditor's search.  The query
    ``q = sum_i clip(r_i, -g/2, g/2)`` is additive over records, so the mechanism
    gives ``score_terms`` (each record's clipped contribution) and
    ``log_prob_from_terms`` (GEM on the total): a neighbour costs O(K d).
    """

    def __init__(self, epsilon, beta=0.1, width=3, weight_factor=1.0):
        self.width = check_integer("width", width, minimum=2)
        self.g = 2.0 ** np.arange(self.width)
        self.inner = GeneralizedExponentialMechanism(epsilon, beta)
        self.weight_factor = check_positive("weight_factor", weight_factor)

    def pairs(self, data):
        return np.column_stack([self.g, self.score_terms(data).sum(axis=0)])

    def score_terms(self, records):
        """Each record's clipped contribution ``clip(r_k, -g_k/2, g_k/2)`` to ``q``, shape (m, K)."""
        return np.clip(_records(records, self.width), -self.g / 2, self.g / 2)

    def log_prob_from_terms(self, total):
        """GEM's law (log-weights times ``weight_factor``) at ``q = total``."""
        _, lp = self.inner.log_prob(np.column_stack([self.g, np.asarray(total, dtype=np.float64)]))
        return lp if self.weight_factor == 1.0 else normalize_log_weights(self.weight_factor * lp)

    def log_prob(self, data):
        lp = self.log_prob_from_terms(self.score_terms(data).sum(axis=0))
        return np.arange(lp.size), lp

    def sample(self, data, size, rng=None):
        if self.weight_factor == 1.0:
            return self.inner.sample(self.pairs(data), size, rng)
        return gumbel_max_sample(self.log_prob(data)[1], check_integer("size", size, minimum=0), rng)


class RecordPeeling(_Base):
    """Peeling (002, Algorithm 4) selection of s of d = width coordinates of ``sum_i clip(r_i, +-lam/2)``."""

    expensive_log_prob = True  # s quadratures per ordered selection

    def __init__(self, epsilon, delta, s=2, width=3, lam=1.0):
        self.width = check_integer("width", width, minimum=2)
        self.lam = float(lam)
        self.inner = Peeling(s, epsilon, delta, lam)

    def v(self, data):
        return np.clip(_records(data, self.width), -self.lam / 2, self.lam / 2).sum(axis=0)

    def log_prob(self, data):
        return self.inner.log_prob(self.v(data))

    def sample(self, data, size, rng=None):
        return self.inner.sample(self.v(data), size, rng)


def laplace_factory(variant="standard", epsilon=1.0, delta=0.0, width=2, **_):
    return RecordLaplace(epsilon, width)


def gaussian_factory(variant="standard", epsilon=0.5, delta=1e-5, width=2, **_):
    return RecordGaussian(epsilon, delta, width)


def exponential_factory(variant="standard", epsilon=1.0, delta=0.0, width=4, weight_factor=0.5, **_):
    return RecordExponential(epsilon, width, weight_factor)


def report_noisy_max_factory(variant="standard", epsilon=1.0, delta=0.0, width=3, **_):
    return RecordReportNoisyMax(epsilon, width)


def gem_factory(variant="standard", epsilon=1.0, delta=0.0, beta=0.1, width=3, weight_factor=1.0, **_):
    return RecordGEM(epsilon, beta, width, weight_factor)


def peeling_factory(variant="standard", epsilon=1.0, delta=1e-5, s=2, width=3, lam=1.0, **_):
    return RecordPeeling(epsilon, delta, s, width, lam)


#: Factories by algorithm id, for ``Algorithm(..., mechanism=...)``.
PRIMITIVE_FACTORIES = {
    "laplace": laplace_factory,
    "gaussian": gaussian_factory,
    "exponential": exponential_factory,
    "report-noisy-max": report_noisy_max_factory,
    "gem": gem_factory,
    "peeling": peeling_factory,
}

#: Default claims (epsilon, delta) of the primitives when the user gives none.
PRIMITIVE_DEFAULTS = {
    "laplace": (1.0, 0.0),
    "gaussian": (0.5, 1e-5),
    "exponential": (1.0, 0.0),
    "report-noisy-max": (1.0, 0.0),
    "gem": (1.0, 0.0),
    "peeling": (1.0, 1e-5),
}
