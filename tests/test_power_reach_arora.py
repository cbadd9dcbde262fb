"""Reach of the audit.arora-* claims: the designed pair, the proofs and the out-of-reach numbers.

Every number the audit records' texts of the audit.arora-* claims state is recomputed here from the closed
forms (Balle-Wang's exact Gaussian curve, GDP composition, the Clopper-Pearson oracle of
proofs_checks.audit.calibration at expected counts); the measured audit results are asserted on a few
seeds (fast) and on five (slow).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from proofs_checks.audit_claims import privacy_audit_check
from proofs_checks.claim_sets.arora.audit_design import (
    boosting_flip_pair,
    calls_for_oracle,
    gaussian_epsilon,
    gaussian_oracle,
    label_flip_pair,
    learner_mu_bound,
)
from proofs_checks.model import CheckContext
from proofs_checks.registry import default_registry
from reference.arora.learners import (
    default_lambda,
    lipschitz_constant,
    noisy_gd_rho,
    noisy_gd_sigma,
    output_perturbation_sensitivity,
    output_perturbation_sigma,
    regularized_erm,
)
from tests._audit_records import audit_record

DELTA = 1e-5
OP, GD = "audit.arora-output-perturbation.standard", "audit.arora-noisy-gd.standard"


@pytest.fixture(scope="module")
def registry():
    return default_registry()


def _reach(cid, m, key):
    return audit_record(cid).reach[m][key]


def _op_pair_mu(m, n=8):
    """Exact noise-unit shift of output perturbation (B = X = 1, Y = 3) at m eps on the label-flip pair."""
    D, Dp, _ = label_flip_pair(1.0, 3.0, n=n)
    lam = default_lambda("squared", 1.0, 1.0, 3.0, n, m)
    shift = np.linalg.norm(regularized_erm(D, "squared", 1.0, lam) - regularized_erm(Dp, "squared", 1.0, lam))
    return shift, lam, shift / output_perturbation_sigma("squared", 1.0, 1.0, 3.0, n, lam, m, DELTA)


def test_label_flip_pair_moves_the_minimiser_by_the_closed_form():
    # KKT of the 1-D problem: w = (6/n)/(2/n + lam) inside the ball, so the shift is 12/(2 + n lam)
    for m in (1.0, 2.0, 30.0):
        shift, lam, _ = _op_pair_mu(m)
        assert shift == pytest.approx(12.0 / (2.0 + 8 * lam), rel=1e-12)
        assert shift <= output_perturbation_sensitivity("squared", 1.0, 1.0, 3.0, 8, lam)


def test_output_perturbation_x2_is_out_of_reach_with_the_stated_numbers():
    shift, lam, mu = _op_pair_mu(2.0)
    text = _reach(OP, 2.0, "out_of_reach")
    ratio = shift / output_perturbation_sensitivity("squared", 1.0, 1.0, 3.0, 8, lam)
    eps = gaussian_epsilon(mu, DELTA)
    oracle = gaussian_oracle(mu, 20_000, 0.95, DELTA)
    worst = learner_mu_bound("output-perturbation", 2.0, DELTA)
    assert eps > 1.0  # a violation, shown by an exact law
    assert oracle < 1.0 and gaussian_oracle(worst, 20_000, 0.95, DELTA) < 1.0  # but not at quick, on any pair
    for value in (
        f"{shift:.4f}",
        f"{ratio:.3f}",
        f"mu = {mu:.4f}",
        f"{eps:.3f} > 1",
        f"{worst:.4f}",
        f"{gaussian_epsilon(worst, DELTA):.3f}",
        f"is {oracle:.3f}",
        f"{gaussian_oracle(worst, 20_000, 0.95, DELTA):.3f}",
    ):
        assert value in text, value
    # 20000 * 2^12 calls: the first doubling of the quick budget whose oracle passes 1 (the one before does not)
    calls = calls_for_oracle(mu, 1.0, 0.95, DELTA, start=20_000 * 2**11)
    assert calls == 81_920_000 and "8.2e7 calls" in text


def test_the_x1_25_learners_are_proved_private_on_every_pair():
    for cid, learner, stated in ((OP, "output-perturbation", 0.959), (GD, "noisy-gd", 0.942)):
        mu = learner_mu_bound(learner, 1.25, DELTA)
        eps = gaussian_epsilon(mu, DELTA)
        assert eps <= 1.0 and round(eps, 3) == stated
        text = _reach(cid, 1.25, "not_a_violation")
        assert f"{mu:.4f}" in text and f"{stated:.3f} <= 1" in text
    # the closed forms: the classic calibration at eps; sqrt(2 rho) of the zCDP calibration
    assert learner_mu_bound("output-perturbation", 1.25, DELTA) == pytest.approx(1.25 / math.sqrt(2 * math.log(1.25e5)))
    assert learner_mu_bound("noisy-gd", 1.25, DELTA) == pytest.approx(math.sqrt(2 * noisy_gd_rho(1.25, DELTA)))


def test_noisy_gd_x2_is_out_of_reach_on_any_pair():
    # the violation and its pair: tests/test_power_reach_gd.py
    assert "out_of_reach" in audit_record(GD).reach[2.0]
    worst = learner_mu_bound("noisy-gd", 2.0, DELTA)
    text = audit_record(GD).power
    assert gaussian_epsilon(worst, DELTA) > 1.0 and f"{worst:.4f}-GDP" in text
    assert gaussian_epsilon(0.75 * worst, DELTA) == pytest.approx(1.13, abs=5e-3)
    assert gaussian_oracle(worst, 20_000, 0.95, DELTA) == pytest.approx(0.68, abs=5e-3) and "is 0.68" in text


@pytest.mark.parametrize("m, s1, s2", [(2.0, 0.383, 1.0), (1.25, 0.230, 0.625)])
def test_grid_search_over_spends_within_eps_are_proved_private(m, s1, s2):
    # S1: three noisy-GD runs at (m eps/6, delta/6) compose to sqrt(3) sqrt(2 rho)-GDP; S2: GEM at m eps / 2
    mu = math.sqrt(3) * math.sqrt(2 * noisy_gd_rho(m / 6, DELTA / 6))
    assert round(gaussian_epsilon(mu, DELTA), 3) == s1 and m / 2 == s2 and max(s1, s2) <= 1.0
    for v in ("printed", "standard"):
        text = _reach(f"audit.arora-grid-search.{v}", m, "not_a_violation")
        assert f"mu = {mu:.4f}-GDP" in text and f"{s1:.3f} eps" in text and f"{s2:g} eps-DP" in text
    # the printed GEM sensitivities Y^2 + H B^2 X^2 exceed the true (B X + Y)^2 / |S2| for |S2| >= 2
    for B in (2.0, 4.0, 8.0):
        assert 9 + 2 * B * B >= (B + 3) ** 2 / 2


def test_the_claims_carry_the_reach_fields(registry):
    op = {m.factor: m for m in registry.claim(OP).mutants}
    assert set(op) == {2.0, 1.25, 6.0, 30.0}
    assert op[1.25].not_a_violation and op[2.0].out_of_reach and not op[30.0].out_of_reach
    grid = {m.factor: m for m in registry.claim("audit.arora-grid-search.printed").mutants}
    assert grid[2.0].not_a_violation and grid[1.25].not_a_violation and not grid[30.0].not_a_violation


def test_learner_mechanisms_audit_the_label_flip_pair(registry):
    for alg in ("arora-output-perturbation", "arora-noisy-gd"):
        mech = registry.algorithm(alg).mechanism(epsilon=1.0)
        ((D, Dp, desc),) = mech.audit_design()["pairs"]
        assert D.shape == (8, 2) and (D != Dp).sum() == 1 and D[0].tolist() == [1.0, 3.0] and "label flip" in desc
    assert registry.algorithm("arora-output-perturbation").mechanism(loss="logistic").audit_design() == {}


def _audit(registry, alg, m, seed, variant="standard"):
    ctx = CheckContext(profile="quick", seed=seed).for_claim(f"audit.{alg}.{variant}")
    return privacy_audit_check(alg, variant, registry=registry, privacy_multiplier=m)(ctx)


def test_boosting_mechanisms_audit_the_validation_flip(registry):
    # the paper's readings (printed sigma~) are audited on the 20-record validation pair
    # (tests/test_power_reach_boosting.py); a given sigma~ and the calibrated variant on the 10-record flip
    for v, kw in (("printed", {"sigma_tilde": 0.1}), ("standard", {"sigma_tilde": 0.1}), ("calibrated", {})):
        ((D, Dp, desc),) = registry.algorithm("arora-boosting").mechanism(variant=v, **kw).audit_design()["pairs"]
        assert D.shape == (10, 2) and np.flatnonzero((D != Dp).any(axis=1)).tolist() == [9]
    D, Dp, _ = boosting_flip_pair(1.0, 3.0, 4)
    assert (D[:, 0] == 1).all() and D[-1, 1] == 3.0 and Dp[-1, 1] == -3.0


@pytest.mark.parametrize("variant, caught", [("calibrated", 30.0)])
def test_boosting_audits_catch_their_stated_multiplier_and_not_x1(registry, variant, caught):
    # measured (quick, seeds 20261121, 1-4): calibrated x30 4.5-5.3; x1 at most 0.31.  The paper's readings
    # are refuted at x1 (their own sigma~; tests/test_power_reach_boosting.py)
    for seed in (20261121, 2):
        assert _audit(registry, "arora-boosting", caught, seed, variant).verdict == "refuted"
        assert _audit(registry, "arora-boosting", 1.0, seed, variant).verdict == "inconclusive"


@pytest.mark.parametrize("alg", ["arora-output-perturbation", "arora-noisy-gd"])
def test_learner_audits_catch_x6_and_not_x1(registry, alg):
    # measured (quick, seeds 20261121, 1-4): x6 1.51-1.91 (output perturbation) / 1.23-1.47 (noisy GD),
    # x1 at most 0.19; two seeds here, five in the slow test
    for seed in (20261121, 1):
        assert _audit(registry, alg, 6.0, seed).verdict == "refuted"
        base = _audit(registry, alg, 1.0, seed)
        assert base.verdict == "inconclusive" and base.observed < 0.5


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["calibrated"])
def test_boosting_base_claims_stay_not_refuted_on_fifteen_seeds(registry, variant):
    for seed in (20261121, *range(1, 15)):
        assert _audit(registry, "arora-boosting", 1.0, seed, variant).verdict == "inconclusive"


@pytest.mark.slow
@pytest.mark.parametrize("alg", ["arora-output-perturbation", "arora-noisy-gd"])
def test_learner_audits_on_five_seeds(registry, alg):
    for seed in (20261121, 1, 2, 3, 4):
        assert _audit(registry, alg, 6.0, seed).verdict == "refuted"
        assert _audit(registry, alg, 30.0, seed).verdict == "refuted"
        assert _audit(registry, alg, 2.0, seed).verdict == "inconclusive"
        assert _audit(registry, alg, 1.0, seed).verdict == "inconclusive"


@pytest.mark.parametrize("n, B, m", [(3, 1.0, 1.25), (8, 2.0, 2.0), (100, 8.0, 0.1)])
def test_the_mu_bounds_are_the_learners_own_calibration(n, B, m):
    # sensitivity / sigma of the implementation equals the closed form the proofs use, at any n, B, lam
    lam = default_lambda("squared", B, 1.0, 3.0, n, m)
    op = output_perturbation_sensitivity("squared", B, 1.0, 3.0, n, lam) / output_perturbation_sigma(
        "squared", B, 1.0, 3.0, n, lam, m, DELTA
    )
    T = 7
    gd = (
        math.sqrt(T)
        * 2
        * lipschitz_constant("squared", B, 1.0, 3.0)
        / n
        / noisy_gd_sigma("squared", B, 1.0, 3.0, n, T, m, DELTA)
    )
    assert op == pytest.approx(learner_mu_bound("output-perturbation", m, DELTA), rel=1e-12)
    assert gd == pytest.approx(learner_mu_bound("noisy-gd", m, DELTA), rel=1e-12)
