"""The leverage design of Theorem 1's rate (laws that change with n) and its power.

``proofs_checks/rates/trials_wang_xu_leverage.py``, ``proofs_checks/claim_sets/wang_xu/rates_leverage.py``.
What is pinned: the exact law (excess risk linear on W, the moment of Assumption 1 fixed in n), the output law
built from per-record log-weights against the reference mechanism on the whole dataset, the truncated risk's
end point at the probe level and at the theorem's iota, and the power: the iota schedule 1/4 flatter (the
mutant the design is built for) is refuted while the stated algorithm is confirmed, on 5 run seeds (slow).
"""

import dataclasses
import math
from fractions import Fraction

import numpy as np
import pytest

from proofs_checks.claim_sets.wang_xu.rates_leverage import leverage_rate_check
from proofs_checks.model import CheckContext
from proofs_checks.rates.trials_wang_xu_leverage import LeverageDesign, leverage_log_prob, leverage_scale
from proofs_checks.registry import default_registry
from proofs_checks.stability import extra_seeds
from reference.wang_xu.l1_regression import wang_xu_log_prob
from reference.wang_xu.nets import L2BallNet
from reference.wang_xu.truncation import psi

CTX = CheckContext(profile="quick", seed=20261121)
SMALL = {"quick": [{"n": n, "epsilon": 1.0} for n in (3200, 6400, 12800)]}


def test_law_is_exact_and_its_moment_does_not_grow():
    # L_D(w) - L_D(1) from the three atoms, in exact rationals of the float parameters, against the closed form
    for n in (3200, 51200):
        s = leverage_scale(LeverageDesign(), n, 1.0)
        q, p, X = Fraction(s["q"]), Fraction(s["p"]), Fraction(s["X"])
        assert math.isclose(float(q * X * X), 10.0, rel_tol=1e-12)  # K = q X^2: E x^2 <= 11 = tau^2 at every n
        for w in (Fraction(-1), Fraction(-1, 3), Fraction(1, 2), Fraction(1)):

            def risk(v):
                return q * abs(X - X * v) + p * abs(-1 - v)

            exact = risk(w) - risk(Fraction(1))
            assert math.isclose(float(exact), (s["lam"] - s["sigma"]) * (1 - float(w)), rel_tol=1e-12, abs_tol=1e-15)


@pytest.mark.parametrize("variant", ["printed", "standard"])
def test_output_law_from_counts_equals_the_reference_mechanism(variant):
    design = LeverageDesign(variant=variant)
    n = 64
    s = leverage_scale(design, n, 1.0)
    counts = (5, 9, 50)
    X = np.concatenate([np.full(5, s["X"]), np.ones(9), np.zeros(50)])[:, None]
    y = np.concatenate([np.full(5, s["X"]), -np.ones(9), np.zeros(50)])
    _, ref = wang_xu_log_prob(X, y, L2BallNet(1.0, 1.0 / n, 1), 1.0, s["iota"], 2.0, variant)
    _, lp, _ = leverage_log_prob(design, n, 1.0, counts)
    np.testing.assert_allclose(lp, ref, rtol=0, atol=1e-9)  # compiled kernel, block logarithms: not bit for bit


def test_truncated_risk_prefers_the_biased_end_only_at_the_probe_level():
    # T(w) = (q psi(iota X (1 - w)) + p psi(iota (1 + w))) / iota, concave: its minimiser over W is an end point
    for n in (3200, 51200):
        for shift, biased in ((0.0, False), (-0.25, True)):
            s = leverage_scale(LeverageDesign(iota_exponent_shift=shift), n, 1.0)
            ends = np.array([-1.0, 1.0])
            T = (s["q"] * psi(s["iota"] * s["X"] * (1 - ends)) + s["p"] * psi(s["iota"] * (1 + ends))) / s["iota"]
            assert bool(T[0] < T[1]) is biased, (n, shift, T)


def test_bad_design_parameters_raise():
    with pytest.raises(ValueError, match="slope_ratio"):
        LeverageDesign(slope_ratio=1.0)
    with pytest.raises(ValueError, match="broken"):
        LeverageDesign(broken="hot")
    with pytest.raises(ValueError, match="counts"):
        leverage_log_prob(LeverageDesign(), 10, 1.0, (3, 3, 3))


def test_flatter_iota_schedule_is_refuted_and_the_stated_algorithm_is_not():
    reps = {"quick": 24}
    stated = leverage_rate_check("standard", grids=SMALL, repetitions=reps)(CTX.for_claim("t.stated"))
    flatter = leverage_rate_check("standard", grids=SMALL, repetitions=reps, iota_exponent_shift=-0.25)(
        CTX.for_claim("t.flatter")
    )
    assert stated.verdict == "confirmed", stated.method
    assert flatter.verdict == "refuted", flatter.method
    assert flatter.evidence["ci_high"] < 0.3  # the truncation term: x^(-1/4)
    rows = flatter.evidence["design_rows"]
    assert all(r["quantile_over_largest_excess"] > 0.9 for r in rows)  # the output sits at the biased end


def test_truncation_level_of_another_theta_is_refuted_at_theta_close_to_1():
    grids = {"quick": [{"n": n, "epsilon": 1.0} for n in (800, 6400, 51200)]}
    reps = {"quick": 24}
    stated = leverage_rate_check("printed", algorithm=2, grids=grids, repetitions=reps)(CTX.for_claim("t.heavy"))
    mutant = leverage_rate_check("printed", algorithm=2, grids=grids, repetitions=reps, iota_theta=2.0)(
        CTX.for_claim("t.heavy.iota2")
    )
    assert stated.verdict == "confirmed", stated.method
    assert mutant.verdict == "refuted", mutant.method
    assert mutant.evidence["ci_high"] < 1 / 11  # the truncation term iota_p^0.1: about x^(-1/20)


MUTANT_OF = {
    "wang-xu.alg1.rate.leverage.printed": "iota schedule 1/4 flatter",
    "wang-xu.alg1.rate.leverage.standard": "iota schedule 1/4 flatter",
    "wang-xu.alg1.rate.leverage.calibrated": "iota schedule 1/4 flatter",
    "wang-xu.alg2.rate.leverage.printed": "iota of theta = 2",
    "wang-xu.alg2.rate.leverage.standard": "iota of theta = 2",
    "wang-xu.alg2.rate.leverage.calibrated": "iota of theta = 2",
    "wang-xu.alg2.rate.leverage.failure.printed": "iota schedule 1/4 flatter",
    "wang-xu.alg2.rate.leverage.net.printed": "iota schedule 1/4 flatter",
}


@pytest.mark.slow
@pytest.mark.parametrize("claim_id", sorted(MUTANT_OF))
def test_leverage_claims_and_their_power_agree_on_five_seeds(claim_id):
    claim = default_registry().claim(claim_id)
    flatter = next(m for m in claim.mutants if m.name.startswith(MUTANT_OF[claim_id]))
    for seed in extra_seeds(20261121, 5):
        ctx = CheckContext(profile="quick", seed=seed).for_claim(claim.id)
        assert claim.check(ctx).verdict == "confirmed", seed
        assert flatter.check(ctx).verdict == "refuted", seed


def test_mutant_fields_reach_the_design():
    d = dataclasses.replace(LeverageDesign(), iota_factor=2.0)
    assert math.isclose(leverage_scale(d, 3200, 1.0)["iota"], 2 * leverage_scale(LeverageDesign(), 3200, 1.0)["iota"])
