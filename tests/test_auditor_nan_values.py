"""NaN and inf as values: records holding NaN where the mechanism's domain allows them, NaN/inf outputs of a law
as atoms of the exact audit."""

import math

import numpy as np
import pytest

from proofs_checks.audit.api import audit


class NanAwareRR:
    """Randomized response on "the record is NaN" (epsilon-DP): outputs 1.0 (NaN seen) or 0.0, keep prob
    e^eps / (1 + e^eps); ``out_nan=True`` reports NaN instead of 1.0 and -inf instead of 0.0."""

    record_width = 1
    nan_records = True

    def __init__(self, epsilon=1.0, out_nan=False, keep_factor=1.0):
        self.keep = min(1.0, keep_factor * math.exp(epsilon) / (1 + math.exp(epsilon)))
        self.values = (-np.inf, np.nan) if out_nan else (0.0, 1.0)

    def _bit(self, data):
        return int(np.isnan(np.asarray(data, dtype=float)[0, 0]))

    def log_prob(self, data):
        b = self._bit(data)
        p = np.array([1 - self.keep, self.keep]) if b else np.array([self.keep, 1 - self.keep])
        return np.array(self.values), np.log(p)

    def sample(self, data, size, rng):
        b = self._bit(data)
        flip = rng.random(size) >= self.keep
        bits = np.where(flip, 1 - b, b)
        out = np.where(bits == 1, self.values[1], self.values[0])
        if np.isnan(self.values[1]):  # a NaN of another sign and payload than np.nan: still the same atom
            out = np.where(bits == 1, -np.float64(np.nan), out)
        return out[:, None]


NAN_PAIR = (np.array([[np.nan], [1.0]]), np.array([[0.5], [1.0]]))


def test_nan_records_allowed_when_the_domain_says_so():
    res = audit(NanAwareRR(1.0), epsilon=1.0, pairs=[NAN_PAIR], sampler_samples=20_000)
    assert res.verdict == "not refuted" and res.epsilon_lower == pytest.approx(1.0, rel=1e-9)
    assert "rows differ: [0]" in res.pair


def test_nan_records_rejected_otherwise():
    class NoNan(NanAwareRR):
        nan_records = False

    with pytest.raises(ValueError, match="contains NaN.*nan_records = True"):
        audit(NoNan(1.0), epsilon=1.0, pairs=[NAN_PAIR], sampler_samples=0)


def test_nan_equals_nan_in_the_neighbouring_relation():
    D = np.array([[np.nan], [np.nan], [1.0]])
    Dp = np.array([[0.5], [np.nan], [1.0]])  # row 1 is NaN in both: one record differs
    res = audit(NanAwareRR(1.0), epsilon=1.0, pairs=[(D, Dp)], sampler_samples=0)
    assert "rows differ: [0]" in res.pair


def test_nan_and_inf_outputs_are_atoms_of_the_exact_audit():
    res = audit(NanAwareRR(1.0, out_nan=True), epsilon=1.0, pairs=[NAN_PAIR], sampler_samples=20_000)
    assert res.details["sampler_check"]["passed"] and res.epsilon_lower == pytest.approx(1.0, rel=1e-9)
    # power: keep probability 1.2x too large (true epsilon log(0.878 / 0.122) = 1.97) is refuted
    res = audit(NanAwareRR(1.0, out_nan=True, keep_factor=1.2), epsilon=1.0, pairs=[NAN_PAIR], sampler_samples=20_000)
    assert res.verdict == "refuted" and res.epsilon_lower > 1.9


class NanLeak:
    """Laplace count (epsilon 1) that outputs NaN with probability ``p`` when record 0 exceeds 0.5 (a NaN that
    propagates from one record's value); ``p = 0`` is the correct mechanism."""

    record_width = 1

    def __init__(self, p):
        self.p = p

    def sample(self, data, size, rng):
        d = np.asarray(data, dtype=float)
        out = (d[:, 0] > 0.5).sum() + rng.laplace(0.0, 1.0, size)
        if d[0, 0] > 0.5:
            out[rng.random(size) < self.p] = np.nan
        return out[:, None]


BLACK_BOX_PAIR = (np.array([[0.25], [1.0]]), np.array([[0.75], [1.0]]))


def test_nan_outputs_of_a_black_box_are_atoms():
    # before: "sample returned NaN outputs", an error; now NaN is an atom D' gives with probability 1e-3
    res = audit(NanLeak(1e-3), epsilon=1.0, delta=1e-5, samples=200_000, seed=0, pairs=[BLACK_BOX_PAIR])
    assert res.verdict == "refuted" and res.details["counts"]["in_S_other"] == 0 and res.epsilon_lower > 2
    res = audit(NanLeak(0.0), epsilon=1.0, delta=1e-5, samples=200_000, seed=0, pairs=[BLACK_BOX_PAIR])
    assert res.verdict == "not refuted"


def test_nan_outputs_beside_a_density_are_still_refused():
    class WithDensity(NanLeak):
        def log_density(self, data, outputs):
            return np.zeros(len(outputs))

    with pytest.raises(Exception, match="NaN outputs"):
        audit(WithDensity(0.5), epsilon=1.0, samples=20_000, pairs=[BLACK_BOX_PAIR])
