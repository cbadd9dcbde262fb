"""Rare events: a raw value leaked with a small probability is refuted near the best single event's sample size."""

import math

import numpy as np
import pytest

from proofs_checks.audit.api import audit
from proofs_checks.audit.classifiers import attack_names
from proofs_checks.audit.rare_atoms import ONE_SIDED_MIN_COUNT, fit_one_sided_atoms

D = np.array([[0.25], [1.0], [0.0]])
D_PRIME = np.array([[0.75], [1.0], [0.0]])


class RareLeak:
    """Laplace count (epsilon 1) that releases record 0's raw value with probability ``p_leak``.

    On (D, D') the event "the output is 0.25" has probability ``p_leak`` against 0: no (1, delta) claim holds
    for ``delta < p_leak``.  ``p_leak = 0`` is the correct mechanism (false-refutation control).
    """

    record_width = 1

    def __init__(self, p_leak=1e-4):
        self.p_leak = p_leak

    def sample(self, data, size, rng):
        d = np.asarray(data, dtype=float)
        out = d[:, 0].clip(0, 1).sum() + rng.laplace(0.0, 1.0, size)
        leak = rng.random(size) < self.p_leak
        out[leak] = d[0, 0]
        return out[:, None]


class Geometric:
    """Two-sided geometric count, epsilon-DP, a black box whose outputs repeat (every value is an atom)."""

    record_width = 1

    def __init__(self, epsilon=1.0):
        self.a = math.exp(-epsilon)

    def sample(self, data, size, rng):
        c = float(np.sum(np.asarray(data)[:, 0] > 0.5))
        return (c + rng.geometric(1 - self.a, size) - rng.geometric(1 - self.a, size)).astype(float)[:, None]


def test_leak_of_1e_4_is_refuted_at_10_6_calls():
    # before: missed at 10^6 calls on 6 of 6 seeds (found from 5*10^6); the best single event's bound is 1.84
    res = audit(RareLeak(1e-4), epsilon=1.0, delta=1e-5, samples=10**6, seed=5, pairs=[(D, D_PRIME)])
    assert res.verdict == "refuted" and res.details["statistic"].startswith("one-sided atoms")
    assert res.details["counts"]["in_S_other"] == 0 and res.epsilon_lower > 1.2


@pytest.mark.parametrize("mech", [RareLeak(0.0), Geometric(1.0)])
def test_correct_mechanisms_are_not_refuted(mech):
    for seed in (0, 1):
        res = audit(mech, epsilon=1.0, delta=1e-5, samples=200_000, seed=seed, pairs=[(D, D_PRIME)])
        assert res.verdict == "not refuted"


def test_one_sided_atoms_of_the_fitting_rows():
    a = np.array([[0.25], [0.25], [0.5], [0.6], [0.9]])
    b = np.array([[0.55], [0.75], [0.75], [0.75], [0.1]])
    stat = fit_one_sided_atoms(a, b)
    # 0.25 is D's (two copies, none on D'), 0.75 is D''s (three copies); the others single
    assert stat(np.array([[0.25], [0.75], [0.5], [0.9]])).tolist() == [1.0, -1.0, 0.0, 0.0]
    assert stat.excess == (1, 2) and stat.n_fit == (5, 5)
    # a row both datasets give (the law's own atoms or ties): no candidate
    assert fit_one_sided_atoms(np.vstack([a, [[0.1]]]), b) is None
    assert stat.pooled_counts(1.0, 3, 10, 0, 10) == (4, 15, 0, 15)
    assert fit_one_sided_atoms(np.arange(6.0)[:, None], np.arange(6.0)[:, None] + 0.5) is None
    assert ONE_SIDED_MIN_COUNT == 2 and "one-sided-atoms" in attack_names()


def test_continuous_outputs_get_no_candidate():
    rng = np.random.default_rng(0)
    assert fit_one_sided_atoms(rng.laplace(size=(50_000, 1)), rng.laplace(size=(50_000, 1))) is None
