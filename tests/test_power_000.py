"""Power of the checks of Wang & Xu (000): each check refutes the mutants it declares.

Fast versions in the default suite (small grids and few datasets, the x2-type mutant of each
family); the full sweep over every declared mutant is behind ``@pytest.mark.slow``.
"""

from __future__ import annotations

import numpy as np
import pytest

from proofs_checks.claim_sets.wang_xu import nets as N
from proofs_checks.claim_sets.wang_xu import rates as R
from proofs_checks.claim_sets.wang_xu import sensitivity as S
from proofs_checks.claim_sets.wang_xu import utility as U
from proofs_checks.model import CheckContext
from proofs_checks.power import claim_power
from proofs_checks.rates.trials_wang_xu import THEOREM1_MODEL, W_STAR, L2BallNet
from proofs_checks.registry import default_registry

CTX = CheckContext(profile="quick", seed=20261121)
SMALL = {"quick": [{"n": n, "epsilon": 1.0} for n in (50, 100, 200, 400, 800)], "full": []}
REPS = {"quick": 12, "full": 12}  # 3 x 12 large-n observations: the fewest for a defined q = 0.9 interval


def test_w_star_is_off_every_net_of_the_sweeps():
    # the net term of Theorems 1-2 is not identically zero (w* = 0.5 was a net point at every n)
    for n in (50, 100, 200, 400, 800, 1600, 3200, 6400):
        pts = L2BallNet(1.0, 1.0 / n, 1).points()[:, 0]
        assert np.min(np.abs(pts - W_STAR)) > 1e-6


def test_noise_is_asymmetric_and_x_not_symmetric():
    # a median-0 asymmetric noise and an x of non-zero mean: the truncation bias is not cancelled
    assert THEOREM1_MODEL.noise_law.mean() > 0 and float(THEOREM1_MODEL.noise_law.cdf(0.0)) == 0.5
    assert THEOREM1_MODEL.x_law.sample(1000, np.random.default_rng(0)).min() >= 0


def test_every_claim_of_000_declares_mutants():
    claims = [
        c
        for c in default_registry().claims
        if c.id.startswith("wang-xu.")
        and (
            ".rate." in c.id
            or ".privacy." in c.id
            or ".sensitivity." in c.id
            or ".em-utility." in c.id
            or "lemma2" in c.id
        )
    ]
    assert claims and all(c.mutants for c in claims)


@pytest.mark.parametrize(
    "mutate",
    [
        {"fixed_zeta": 0.25},
        {"output_noise": 0.2},
        {"broken": "ignore-data"},
        pytest.param({"temperature_factor": 20.0}, marks=pytest.mark.slow),
    ],
)
def test_rate_check_refutes_its_mutants_fast(mutate):
    ctx = CTX.for_claim("wang-xu.alg1.rate.printed")
    res = R.rate_check(1, "printed", grids=SMALL, repetitions=REPS, **mutate)(ctx)
    assert res.verdict == "refuted", (mutate, res.evidence["verdict_from"], res.observed)


@pytest.mark.parametrize("alg", [1, 2])
def test_rate_check_refutes_an_iota_schedule_too_steep(alg):
    # iota x (x / x_ref)^(-1/4): the mechanism term 1/(n iota eps) decays like x^(-1/4) (Theorem 1) or x^(-1/12)
    # (Theorem 2); on the quick grid the standard weight shows it (measured: 0.422 [0.359, 0.485] and
    # 0.188 [0.162, 0.215], stated 1/2 and 1/3, seed 20261121)
    ctx = CTX.for_claim(f"wang-xu.alg{alg}.rate.standard")
    res = R.rate_check(alg, "standard", iota_exponent_shift=0.25)(ctx)
    assert res.verdict == "refuted", (res.evidence["verdict_from"], res.observed)


def test_em_utility_refutes_temperature_x20_and_printed_is_vacuous():
    ctx = CTX.for_claim("wang-xu.alg1.em-utility.standard")
    cases = [(400, 1.0)]
    assert U.em_utility_check(1, "standard", datasets=2, cases=cases)(ctx).verdict == "confirmed"
    assert U.em_utility_check(1, "standard", datasets=2, cases=cases, temperature_factor=20.0)(ctx).verdict == "refuted"
    assert U.em_utility_check(1, "printed", datasets=2, cases=cases)(ctx).verdict == "vacuous"


def test_covering_check_refutes_bounds_below_the_volumetric_one():
    ctx = CTX.for_claim("wang-xu.lemma2.covering-number")
    nets = [L2BallNet(1.0, 0.05, 1), L2BallNet(1.0, 0.3, 2)]
    assert N.covering_check(nets=nets)(ctx).verdict == "confirmed"
    assert N.covering_check(N.scaled_covering_bound(factor=0.1), nets=nets)(ctx).verdict == "refuted"
    assert N.covering_check(N.scaled_covering_bound(0.4), nets=nets)(ctx).verdict == "refuted"


def test_sensitivity_tight_bound_refutes_x0_9_and_loose_ones_below_the_true_value():
    # eq. (16) text's bound log theta / (n iota) is attained: x0.9 refuted.  eq. (6)'s 2 log 2 / (n iota) is
    # twice the attained value: x0.5 is the true sensitivity (not refuted), x0.45 is refuted.
    ctx = CTX.for_claim("wang-xu.sensitivity.eq16.text")
    assert S.sensitivity_check(S.scaled(S.stated_sensitivity_eq16_text, 0.9), (1.5,))(ctx).verdict == "refuted"
    ctx = CTX.for_claim("wang-xu.sensitivity.eq6")
    assert S.sensitivity_check(S.scaled(S.stated_sensitivity_eq6, 0.45))(ctx).verdict == "refuted"


@pytest.mark.slow
@pytest.mark.parametrize(
    "claim_id",
    [
        "wang-xu.alg1.rate.printed",
        "wang-xu.alg2.rate.printed",
        "wang-xu.alg1.em-utility.standard",
        "wang-xu.lemma2.covering-number",
        "wang-xu.alg1.privacy.calibrated",
        "wang-xu.lemma4.concentration",
        "wang-xu.lemma10.concentration",
        "wang-xu.alg1.error-split",
    ],
)
def test_power_sweep_detects_the_declared_targets(claim_id):
    claim = default_registry().claim(claim_id)
    power = claim_power(claim, CTX.for_claim(claim_id))
    caught = {m.name: m.detected for m in power.mutants}
    must = {
        "wang-xu.alg1.rate.printed": ["temperature x20", "net does not refine", "output noise", "blind"],
        "wang-xu.alg2.rate.printed": [
            "temperature x20",
            "net does not refine",
            "output noise",
            "blind",
            "iota schedule 1/4 steeper",
        ],
        "wang-xu.alg1.em-utility.standard": ["temperature x5", "temperature x20"],
        "wang-xu.lemma2.covering-number": ["bound x0.1", "constant 3 -> 0.4"],
        "wang-xu.alg1.privacy.calibrated": ["log-weight x1.25", "log-weight x2"],
        "wang-xu.lemma4.concentration": ["confidence radius x0.2"],
        "wang-xu.lemma10.concentration": ["confidence radius x0.2"],
        "wang-xu.alg1.error-split": ["bound x0.0001"],
    }[claim_id]
    for name in must:
        assert any(caught[k] for k in caught if k.startswith(name)), (claim_id, name, power.mutants)


# --- the psi, lemma, derivation and error-split families: their mutants ------------------------------------------

from proofs_checks.claim_sets.wang_xu import concentration as C  # noqa: E402
from proofs_checks.claim_sets.wang_xu import error_split as E  # noqa: E402
from proofs_checks.stability import DEFAULT_SEEDS, default_seeds, run_claim_across_seeds  # noqa: E402

#: 000 claim families that must declare mutants (the new claims of eqs. (8), (19), Lemma 9 live in other modules).
FAMILIES = (
    "wang-xu.psi.",
    "wang-xu.lemma4.",
    "wang-xu.lemma5.",
    "wang-xu.lemma7.",
    "wang-xu.lemma8.",
    "wang-xu.lemma10.",
    "wang-xu.thm1.eq14.",
    "wang-xu.thm2.eq26.",
    "wang-xu.alg1.error-split",
    "wang-xu.alg2.error-split",
)


def test_the_families_without_mutants_now_declare_them():
    claims = default_registry().select(list(FAMILIES))
    assert len(claims) == 18 and all(c.mutants for c in claims), [c.id for c in claims if not c.mutants]


@pytest.mark.parametrize(
    "claim_id",
    [
        c
        for c in (
            "wang-xu.psi.eq6.inequality-3",
            "wang-xu.psi.eq6.non-decreasing",
            "wang-xu.psi.eq6.bounded",
            "wang-xu.psi.eq6.odd",
            "wang-xu.psi.eq16.inequality-15",
            "wang-xu.psi.eq16.non-decreasing",
            "wang-xu.psi.eq16.bounded",
            "wang-xu.psi.eq16.odd",
            "wang-xu.thm1.eq14.follows",
            "wang-xu.thm2.eq26.follows",
        )
    ],
)
def test_exact_checks_detect_every_declared_mutant(claim_id):
    # psi on its float64 grid and the derivation sums are exact: psi x0.9 / x1.1, the bound x0.9, a dropped or
    # doubled term, the other truncation are all caught (eq. (6)'s psi under (15) and the restored (26) are
    # caught by being confirmed: they are true)
    claim = default_registry().claim(claim_id)
    power = claim_power(claim, CTX.for_claim(claim_id))
    assert power.verdict == ("refuted" if claim_id == "wang-xu.thm2.eq26.follows" else "confirmed")
    assert all(m.detected for m in power.mutants), power.mutants


def test_psi_tight_bounds_refute_x0_9():
    claim = default_registry().claim("wang-xu.psi.eq6.bounded")
    m = next(m for m in claim.mutants if m.name.startswith("stated bound x0.9"))
    assert m.check(CTX.for_claim(claim.id)).verdict == "refuted"


def test_concentration_refutes_a_radius_far_below_the_stated_one_fast():
    # Lemma 4 on its n = 100, eps = 1 case, 30 datasets (measured: stated radius holds on 30/30, x0.2 on 8/30);
    # over the four quick cases x0.2 holds on 37 % (concentration.RADIUS_FACTORS)
    ctx = CTX.for_claim("wang-xu.lemma4.concentration")
    small = dict(cases=[(100, 1.0)], datasets=30)
    assert C.concentration_check(4, **small)(ctx).verdict == "confirmed"
    assert C.concentration_check(4, radius_factor=0.2, **small)(ctx).verdict == "refuted"


def test_error_split_refutes_the_bound_x1e_4_fast():
    # the three quick cases, 4 datasets each (measured: 4/12 within the bound x1e-4; the power sweep misses x1e-3)
    ctx = CTX.for_claim("wang-xu.alg1.error-split")
    assert E.error_split_check(1, bound=E.scaled_bound(1e-4), datasets=4)(ctx).verdict == "refuted"


# --- verdicts do not depend on the seed ---------------------------------------------------------------------------


def test_default_seed_policy():
    reg = default_registry()
    assert default_seeds(reg.claim("wang-xu.alg1.privacy.printed"), "quick") == (DEFAULT_SEEDS["quick"], None)
    n, why = default_seeds(reg.claim("wang-xu.alg2.error-split"), "quick")
    assert n == 1 and "costs" in why
    assert DEFAULT_SEEDS["quick"] >= 3


@pytest.mark.parametrize("claim_id", ["wang-xu.sensitivity.eq6", "wang-xu.alg1.privacy.printed"])
def test_the_default_seed_is_not_special(claim_id):
    # seed swap: the verdict at the default seed is the verdict at each of two derived seeds
    claim = default_registry().claim(claim_id)
    res = run_claim_across_seeds(claim, CheckContext(profile="quick", seed=20261121), 3)
    verdicts = [s["verdict"] for s in res.evidence.get("seeds", [{"verdict": res.verdict}])]
    assert len(set(verdicts)) == 1 and res.verdict != "inconclusive", res.evidence.get("seeds")
