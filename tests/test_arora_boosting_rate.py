"""[004 Thm. E] by its rate (``arora.boosting.excess-risk``): the design's constants, the stated algorithm's
confirmation and the refutation of the broken Boostings, on a small grid (fast) and on the claim's own grid
over the five seeds of ``--seeds 5`` (slow)."""

import math
from dataclasses import replace

import numpy as np
import pytest

from proofs_checks.claim_sets.arora import boosting_rate
from proofs_checks.claim_sets.arora.boosting_rate import MUTANTS, SETUP, design_rows
from proofs_checks.model import CheckContext
from proofs_checks.rates.fit import fit_rate
from proofs_checks.rates.sweep import run_sweep
from proofs_checks.rates.trials_arora import (
    BoostingRateSetup,
    GoodStaleLearner,
    boosting_design,
    trial_boosting_excess,
)
from proofs_checks.registry import default_registry
from reference.arora.model_selection import boosting_n0, boosting_sigma_tilde

CLAIM = "arora.boosting.excess-risk"
SEEDS_5 = (20261121, 731344922, 3972802103, 125447504, 152441376)
#: A small grid (n = 260 * 4^k) and run count for the fast power tests.
SMALL_GRID = [{"n": 260 * 4**k} for k in range(4)]
SMALL_REPS = 48


def _small_fit(setup, seed=20261121):
    import functools

    sweep = run_sweep(functools.partial(trial_boosting_excess, setup=setup), SMALL_GRID, SMALL_REPS, seed=seed)
    x = np.array([p["n"] for p in SMALL_GRID], dtype=float)
    return fit_rate(x, sweep.errors, 0.5, quantile=0.8)


def test_design_constants_by_hand():
    # Y = 4000 (w* = 0, noise bound 4000, X = 1); b_min = 2Y/sqrt(260); largest excess 2 b_min; gamma = sqrt(2 b_min
    # / s) / sqrt(log 2); n_0 = 16 gamma^2 log^8(4/beta) H / Y^2 with H = 2 (exact arithmetic in this order)
    des = boosting_design(260, SETUP)
    s = des["problem"].second_moment
    b_min = 2 * 4000 / math.sqrt(260)
    assert des["largest_excess"] == pytest.approx(2 * b_min, rel=1e-12)
    gamma = math.sqrt(2 * b_min / s) / math.sqrt(math.log(2))
    assert des["gamma"] == pytest.approx(gamma, rel=1e-12)
    n0 = 16 * gamma**2 * math.log(4 / SETUP.beta) ** 8 * 2 / 4000**2
    assert des["n0"] == pytest.approx(n0, rel=1e-12) and des["n0"] == pytest.approx(
        boosting_n0(gamma, SETUP.beta, 2.0, 4000.0), rel=1e-12
    )
    assert des["n0"] < 260  # the whole grid is inside n >= n_0
    assert des["sigma_tilde"] == pytest.approx(boosting_sigma_tilde(260, 1.0, 4000.0, 2.0, gamma, 1.0), rel=1e-12)


def test_design_rows_vacuous_explicit_terms():
    rows = design_rows("quick")
    assert [r["n"] for r in rows] == [260 * 2**k for k in range(7)]
    # the explicit terms (O~ constant 1) are above the largest excess any output can reach, at every n
    assert all(r["vacuous"] and r["explicit_over_largest_excess"] > 1 for r in rows)


def test_learner_is_subgaussian_with_the_design_gamma():
    # every model lies in the ball of radius rho = sqrt(largest/s): E exp(<w,u>^2/gamma^2) <= exp(rho^2/gamma^2) = 2
    des = boosting_design(16640, SETUP)
    w = des["learner"].fit(np.zeros((2, 3)), 1.0, 1.0, 1e-5, 20000, np.random.default_rng(3))
    s = des["problem"].second_moment
    rho = math.sqrt(des["largest_excess"] / s)
    assert np.max(np.linalg.norm(w, axis=1)) <= rho * (1 + 1e-12)
    assert math.exp(rho**2 / des["gamma"] ** 2) == pytest.approx(2.0, rel=1e-12)
    excess = s * np.sum(w * w, axis=1)
    good = excess <= des["good_scale"]
    assert 0.48 < good.mean() < 0.52  # half good, half stale (20000 draws: 4 standard errors is 0.014)


def test_learner_and_setup_reject_bad_input():
    with pytest.raises(ValueError, match="broken"):
        BoostingRateSetup(broken="blind")
    with pytest.raises(ValueError, match="multiple of m"):
        trial_boosting_excess({"n": 261}, np.random.default_rng(0))
    assert GoodStaleLearner(1.0, 1.0, 0.1, (1.0, 2.0), 0.0).fit(np.zeros((1, 3)), 1, 1, 1e-5, 5, 0).shape == (5, 2)


def test_stated_algorithm_confirmed_on_small_grid():
    fit = _small_fit(SETUP)
    assert fit.verdict == "consistent", fit


@pytest.mark.parametrize(
    "setup",
    [replace(SETUP, broken="uniform-selection"), replace(SETUP, broken="fixed-noise")],
    ids=["uniform-selection", "fixed-noise"],
)
def test_broken_boosting_refuted_on_small_grid(setup):
    # power: a selection that ignores S_{m+1}, and Laplace noise frozen at n = 260, decay slower than n^(-1/2)
    fit = _small_fit(setup)
    assert fit.verdict == "slower", fit


def test_constant_factor_mutant_is_labelled_not_a_violation():
    labels = {name: label for name, (_, label) in MUTANTS.items()}
    assert "not_a_violation" in labels["Laplace scale x2"]
    assert sum(1 for label in labels.values() if not label) == 2
    assert _small_fit(replace(SETUP, broken="scale", scale_factor=2.0)).verdict == "consistent"


def test_claim_confirmed_with_evidence():
    res = boosting_rate.boosting_rate_check()(CheckContext(profile="quick", seed=20261121).for_claim(CLAIM))
    assert res.verdict == "confirmed" and res.evidence_kind == "rate_fit"
    assert res.evidence["stated_exponent"] == 0.5 and res.evidence["quantile"] == pytest.approx(0.8)
    assert res.evidence["ci_low"] >= 0.5 or res.evidence["ci_high"] - res.evidence["ci_low"] <= 0.25
    assert res.evidence["level_test"][0]["status"] == "vacuous"  # output perturbation: terms above any spread
    assert all(r["vacuous"] for r in res.evidence["design_rows"])


def test_registered_claim_is_the_rate_check():
    claim = default_registry().claim(CLAIM)
    assert claim.kind == "rate" and claim.seed_policy == "several"
    assert [m.name for m in claim.mutants] == list(MUTANTS)


@pytest.mark.slow
def test_verdicts_agree_on_the_five_seeds():
    # the claim and its mutants on the claim's own quick grid, at each seed of --seeds 5 (about 10 s)
    for seed in SEEDS_5:
        ctx = CheckContext(profile="quick", seed=seed).for_claim(CLAIM)
        assert boosting_rate.boosting_rate_check()(ctx).verdict == "confirmed", seed
        for name, (setup, label) in MUTANTS.items():
            verdict = boosting_rate.boosting_rate_check(setup)(ctx).verdict
            assert verdict == ("confirmed" if label else "refuted"), (seed, name, verdict)


def test_explicit_terms_are_one_formula_for_both_designs():
    # the rate design and the output-perturbation evidence row share [004 Thm. E]'s terms: exact rationals
    from fractions import Fraction

    from proofs_checks.rates.trials_arora import theorem_e_explicit_terms

    # n = 100 (sqrt exact), eps = 1/2, Delta = 3, gamma = 1/4, H = 4, Y = 2
    want = (
        Fraction(2 * 3) / (100 * Fraction(1, 2))
        + Fraction(2 * 3, 100)
        + Fraction(32) * Fraction(1, 4) * 2 * 2 / 10
        + Fraction(16 * 2, 10)
        + Fraction(128 * 4, 100) * Fraction(1, 16)
    )
    assert abs(theorem_e_explicit_terms(100, 0.5, 3.0, 0.25, 4.0, 2.0) - float(want)) <= 4e-16 * float(want)
