"""Reach of audit.gaussian.standard: x1.25 is no violation, x2 violates but is out of reach at quick.

Every number of the mutants' ``not_a_violation`` / ``out_of_reach`` texts is recomputed: the mechanism's sigma
(classic calibration at ``m x 0.5``), the worst pair's shift ``mu`` in noise units, Balle-Wang's exact epsilon
at delta = 1e-5 (cross-checked with the analytic Gaussian curve of proofs_checks.audit.curves), and the
Clopper-Pearson oracle of the best half-line at expected counts (proofs_checks.audit.calibration).
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from proofs_checks.audit.curves import gaussian_curve
from proofs_checks.audit.primitive_mechanisms import gaussian_factory
from proofs_checks.claim_sets.arora.audit_design import calls_for_oracle, gaussian_epsilon, gaussian_oracle
from tests._audit_records import audit_record

DELTA = 1e-5
G = "audit.gaussian.standard"


def _mu(m):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # the classic calibration warns at epsilon >= 1
        mech = gaussian_factory(epsilon=0.5 * m)
    D = np.zeros((8, 2))
    D[0] = [0.5, 0.0]
    Dp = D.copy()
    Dp[0] = [-0.5, 0.0]
    shift = np.linalg.norm(mech.query(D) - mech.query(Dp))
    assert shift == pytest.approx(1.0)  # the pair attains the l2 sensitivity 1
    return shift / mech.inner.sigma, mech.inner.sigma


def test_gaussian_x125_is_no_violation_with_the_stated_numbers():
    mu, sigma = _mu(1.25)
    assert sigma == pytest.approx(7.752, abs=1e-3) and mu == pytest.approx(0.1290, abs=1e-4)
    assert gaussian_epsilon(mu, DELTA) == pytest.approx(0.4496, abs=1e-4)
    assert gaussian_epsilon(mu, DELTA) < 0.5
    assert gaussian_epsilon(_mu(1.0)[0], DELTA) == pytest.approx(0.3526, abs=1e-4)
    # Balle-Wang's delta at the stated epsilon is at most delta (the curve is increasing in mu)
    assert float(gaussian_curve([0.5], 1.0 / mu)[0]) <= DELTA
    text = audit_record(G).reach[1.25]["not_a_violation"]
    assert "mu = 0.1290" in text and "0.4496 <= 0.5" in text and "7.752" in text


def test_gaussian_x2_violates_and_is_out_of_reach_with_the_stated_numbers():
    mu, sigma = _mu(2.0)
    assert sigma == pytest.approx(4.845, abs=1e-3) and mu == pytest.approx(0.2064, abs=1e-4)
    assert gaussian_epsilon(mu, DELTA) == pytest.approx(0.751, abs=1e-3)
    assert float(gaussian_curve([0.5], 1.0 / mu)[0]) > DELTA
    assert gaussian_oracle(mu, 20_000, 0.95, DELTA) == pytest.approx(0.252, abs=1e-3)
    assert gaussian_oracle(mu, 10**6, 0.95, DELTA) == pytest.approx(0.525, abs=1e-3)
    text = audit_record(G).reach[2.0]["out_of_reach"]
    for s in ("mu = 0.2064", "0.751 > 0.5", "0.252", "0.525", "1.28e6"):
        assert s in text, s


@pytest.mark.slow
def test_gaussian_x2_calls_that_would_suffice():
    assert calls_for_oracle(_mu(2.0)[0], 0.5, 0.95, DELTA) == 1_280_000


def test_the_gaussian_mutants_carry_the_reach():
    from proofs_checks.registry import default_registry

    ms = {m.factor: m for m in default_registry().claim(G).mutants}
    assert ms[0.8].not_a_violation and ms[0.5].out_of_reach and not ms[1 / 30].out_of_reach
    assert math.isclose(sorted(ms)[0], 1 / 30)


# ---------------------------------------------------------------- GEM [004 App. D.1], K = 3 candidates


def test_gem_loss_bound_and_the_x125_proof_numbers():
    from proofs_checks.claim_sets.primitives.audit_records import GEM_LOSS_BOUND as _GEM_BOUND
    from reference.mechanisms.gem import gem_log_prob

    g = np.array([1.0, 2.0, 4.0])
    for m, want in _GEM_BOUND.items():
        a = m / 2
        assert a + math.log(3 / (1 + 2 * math.exp(-a))) == pytest.approx(want, abs=1e-4)
    # the bound holds on 200000 random pairs (moves within the sensitivities, scores over several scales; seeded)
    rng = np.random.default_rng(5)
    q = rng.uniform(-1, 1, (200_000, 3)) * g * rng.choice([1.0, 5.0, 40.0], (200_000, 1))
    d = rng.uniform(-1, 1, (200_000, 3)) * g
    for m in (1.25, 2.0):
        loss = np.abs(gem_log_prob(g, q, m, 0.1) - gem_log_prob(g, q + d, m, 0.1)).max()
        assert loss <= _GEM_BOUND[m] + 1e-12
    # the differential-evolution maximiser (seed 0, box +-40): candidates 0 and 2 nearly tied, candidate 1 far
    q2 = np.array([[0.0, 40.0, -16.3257]])
    d2 = np.array([[1.0, -2.0, -4.0]])  # every score moved by its full sensitivity
    got = np.abs(gem_log_prob(g, q2, 1.25, 0.1) - gem_log_prob(g, q2 + d2, 1.25, 0.1)).max()
    assert got == pytest.approx(0.8894, abs=1e-3) and got < _GEM_BOUND[1.25]
    text = audit_record("audit.gem.standard").reach[1.25]["not_a_violation"]
    assert "0.9958 eps <= eps" in text and "0.8042" in text and "1.5472" in text
