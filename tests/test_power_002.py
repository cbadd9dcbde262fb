"""Power of the checks of 002 and the shared primitives: each claim's declared mutants.

Fast tests (default suite): one claim per check family, its 2x over-spend (or bound x0.9 where the
bound is tight) refuted at the quick profile.  The exhaustive sweep over every claim of the area is
behind ``@pytest.mark.slow``.  Misses that no sound check can avoid (the stated calibration has
slack, so the broken mechanism is still private) are asserted to carry their reason in
``evidence["power"]``.
"""

from __future__ import annotations

import pytest

from proofs_checks.model import CheckContext
from proofs_checks.power import claim_power
from proofs_checks.registry import default_registry
from proofs_checks.runner import run_claim

PREFIXES = ("hu.", "rates.hu", "catoni.", "primitives.", "proofs.")

#: Claims of the area without mutants: no factory argument can break them into another reading.
NO_MUTANTS = {
    "hu.fw.step-size-schedule",  # two closed-form schedules, nothing to scale
    "hu.thm9.rate",  # Omega with an unspecified constant: vacuous by design
    "catoni.identity5.float64",  # refuted as printed; its mutants would be the printed C-hat
    "primitives.laplace.density-as-printed",
}

#: Privacy claims whose 2x over-spend is out of reach for any sound check (reason in evidence["power"]).
OUT_OF_REACH_X2 = {
    "hu.thm1.privacy.standard.diameter",
    "hu.thm4.privacy.printed",
    "hu.thm4.privacy.lemma2",
    "hu.thm4.privacy.standard",
    "hu.thm6.privacy",
    "hu.thm8.privacy.standard",
    "hu.thm8.privacy.proof-lambda",
    "hu.thm8.privacy.printed-indices",
}


@pytest.fixture(scope="module")
def registry():
    return default_registry()


def _claim(registry, cid):
    return next(c for c in registry.select([cid]) if c.id == cid)


def _mutant(claim, factor):
    return next(m for m in claim.mutants if m.factor == factor)


def _verdict(claim, check, profile="quick"):
    from dataclasses import replace

    return run_claim(replace(claim, check=check, mutants=()), CheckContext(profile=profile)).verdict


def test_every_claim_of_the_area_declares_mutants(registry):
    claims = registry.select(list(PREFIXES))
    missing = {c.id for c in claims if not c.mutants}
    assert missing == NO_MUTANTS


@pytest.mark.parametrize(
    "cid, factor",
    [
        ("hu.thm1.privacy.standard", 0.5),  # exact law, noise x0.5
        pytest.param("hu.thm1.privacy.standard", 0.8, marks=pytest.mark.slow),
        ("primitives.laplace.privacy", 0.5),
        ("primitives.exponential.privacy", 0.5),
        ("primitives.gaussian.classic-calibration", 0.5),
        pytest.param("primitives.report-noisy-max.privacy", 0.5, marks=pytest.mark.slow),
        ("primitives.gem.privacy", 0.5),
        pytest.param("proofs.002.lemma2.exact-rr.standard", 2.0, marks=pytest.mark.slow),  # per-round epsilon x2
    ],
)
def test_privacy_checks_refute_a_2x_over_spend(registry, cid, factor):
    claim = _claim(registry, cid)
    assert _verdict(claim, claim.check) == "confirmed"
    assert _verdict(claim, _mutant(claim, factor).check) == "refuted"


@pytest.mark.parametrize(
    "cid",
    [
        "hu.alg1.step6.sensitivity.standard",
        "hu.alg2.step4.sensitivity",
        "hu.alg3.step6.sensitivity",
        pytest.param("catoni.sensitivity.standard", marks=pytest.mark.slow),
        "catoni.phi.bound",
        "proofs.sensitivity.clipped-mean",
    ],
)
def test_tight_bounds_refute_the_bound_x09(registry, cid):
    claim = _claim(registry, cid)
    assert _verdict(claim, claim.check) == "confirmed"
    assert _verdict(claim, _mutant(claim, 0.9).check) == "refuted"


def test_em_utility_refutes_a_hot_temperature_and_a_blind_selection(registry):
    claim = _claim(registry, "hu.lemma1.em-utility")
    for m in claim.mutants:
        if m.factor in (20.0, 2.0) or m.factor is None:
            assert _verdict(claim, m.check) == "refuted", m.name


@pytest.mark.slow
def test_peeling_check_catches_lambda_x01_and_says_why_it_misses_x05(registry):
    claim = _claim(registry, "hu.thm6.privacy")
    res = run_claim(claim, CheckContext(profile="quick"))
    assert res.verdict == "confirmed"
    assert "misses lambda x0.5" in res.evidence["power"]
    assert _verdict(claim, _mutant(claim, 0.1).check) == "refuted"


def test_formula_claims_tell_the_readings_apart(registry):
    claim = _claim(registry, "hu.alg5.lambda-vs-proof")
    (proof_reading,) = claim.mutants
    assert _verdict(claim, claim.check) == "refuted"
    assert _verdict(claim, proof_reading.check) == "confirmed"


@pytest.mark.slow
def test_power_sweep_of_the_area(registry):
    """Every non-rate claim at the quick profile: privacy claims catch x2 unless out of reach (and say
    why), confirmed bounds that are tight (observed >= 0.99) refute x0.9, no mutant raises."""
    ctx = CheckContext(profile="quick")
    for claim in registry.select(["hu.", "catoni.", "primitives.", "proofs."]):
        if not claim.mutants:
            continue
        power = claim_power(claim, ctx)
        assert all(m.verdict != "error" for m in power.mutants), (claim.id, power.mutants)
        if claim.kind == "privacy" and power.verdict == "confirmed":
            x2 = [m for m in power.mutants if m.factor in (0.5, 2.0)]
            if claim.id in OUT_OF_REACH_X2:
                assert "power" in run_claim(claim, ctx).evidence, claim.id
            else:
                assert x2 and all(m.detected for m in x2), (claim.id, power.mutants)
        if claim.kind in ("sensitivity", "inequality") and power.verdict == "confirmed":
            base = run_claim(claim, ctx)
            tight = base.observed is not None and base.bound == 1.0 and base.observed >= 0.99
            x09 = [m for m in power.mutants if m.factor == 0.9]
            if tight and x09:
                assert all(m.detected for m in x09), (claim.id, power.mutants)


@pytest.mark.slow
def test_power_sweep_of_the_rate_claims(registry):
    """Every rate claim of 002 refutes a blind algorithm, or the mutant carries a proof that it satisfies the
    claim as stated (the d- and s*-growth claims), or is labelled out of reach with its numbers (Theorem 3's
    pseudo-Huber eps sweep: refuted at the full profile, only on some seeds at quick)."""
    ctx = CheckContext(profile="quick")
    for claim in registry.select(["rates.hu"]):
        power = claim_power(claim, ctx)
        by_name = {m.name: m for m in power.mutants}
        blind = by_name["blind algorithm (output ignores the data)"]
        assert blind.detected or blind.not_a_violation or blind.out_of_reach, claim.id


def test_thm8_printed_refuted_on_every_seed(registry):
    # the search visits every (data scale, iterate kind) stratum instead of drawing one, so
    # the float64 cancellation of the printed C-hat is found on every seed (before: 3 of 8 seeds refuted, the
    # rest inconclusive).  Seed-swap: the default seed and two others.
    from proofs_checks.stability import extra_seeds

    claim = _claim(registry, "hu.thm8.privacy.printed")
    for seed in [20261121] + extra_seeds(20261121, 2):
        assert run_claim(claim, CheckContext(profile="quick", seed=seed)).verdict == "refuted", seed


def test_rate_mutants_of_002_cover_noise_x20_and_output_noise():
    # the n-eps sweeps carry a privacy noise x20; Theorem 2 an output noise large enough to show
    # above its privacy noise (sigma = 0.3, refuted at quick: exponent 0.08 [-0.06, 0.23])
    from proofs_checks.claim_sets.hu import rates
    from proofs_checks.rates import trials_hu

    for cid in ("rates.hu.thm2", "rates.hu.thm3", "rates.hu.thm5", "rates.hu.thm7", "rates.hu.thm8"):
        names = [m.name for m in rates.rate_mutants(cid)]
        assert "privacy noise scale x20" in names and any(n.startswith("output noise") for n in names), cid
    assert "noise_x20" not in rates.mutant_kinds("rates.hu.thm7.dimension")  # a constant cannot change a growth
    # private: _noise_factor: the broken mode's noise factor is the mutant under test
    assert trials_hu._noise_factor({"broken": "noise_x20", "n": 10, "epsilon": 1.0, "ne_ref": 1.0}) == 20.0


@pytest.mark.slow
@pytest.mark.parametrize(
    "cid, kind, extra",
    [
        ("rates.hu.thm2", "noise_x20", {}),
        ("rates.hu.thm3", "noise_x20", {}),
        ("rates.hu.thm5", "noise_x20", {}),
        ("rates.hu.thm7", "noise_x20", {}),
        ("rates.hu.thm2", "output_noise", {"output_sigma": 0.3}),
    ],
)
def test_rate_checks_of_002_refute_noise_x20_and_output_noise(cid, kind, extra):
    # measured at the quick profile, seed 20261121: exponents 0.13, 0.17, 0.08, 0.016 (stated 1/3, 1/4, 2/5, 1)
    # and 0.08 for the output noise; rates.hu.thm8 with noise x20 stays consistent (1.23 [1.11, 1.34]): a constant
    # factor on its noise changes only the hidden O-constant (not_a_violation, tests/test_power_rates_labels.py)
    from proofs_checks.claim_sets.hu import rates

    check = rates.rate_check(cid, trial=rates.broken_trial(cid, kind, **extra))
    assert check(CheckContext(profile="quick", seed=20261121).for_claim(cid)).verdict == "refuted"
