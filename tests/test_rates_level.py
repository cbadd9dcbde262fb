"""The level test of 000's explicit bounds (14)/(26): vacuous where no output in W can exceed the bound.

A bound at or above ``sup_{w in W} L_D(w) - L_D(w*)`` has tail probability 0 for every W-valued
algorithm, so the level test there says nothing: such points are marked ``vacuous`` and only the
others can give ``holds`` or ``refuted``.  Theorem 2's bound (26) is vacuous on every grid the
profiles run; Theorem 1's (14) is below the largest excess risk at the extra level points
(:data:`proofs_checks.claim_sets.wang_xu.rates.LEVEL_GRIDS`), where a mechanism with its score's sign
flipped is refuted.
"""

import dataclasses

import numpy as np
import pytest

from proofs_checks.claim_sets.wang_xu import rates as R
from proofs_checks.claim_sets.wang_xu import setup_for
from proofs_checks.model import CheckContext
from proofs_checks.rates import trials_wang_xu as T

CTX = CheckContext(profile="quick", seed=20261121)


@pytest.mark.parametrize("alg, expected", [(1, 1.3068), (2, 1.8985)])
def test_largest_excess_risk_is_at_an_end_point_of_W(alg, expected):
    # L_D is convex in w: the largest excess risk over a fine net of W is the larger end point's
    setup = setup_for(alg, "standard")
    _, excess, _ = T.net_excess_risk(setup.model, 1.0, 1 / 400)
    top = R.largest_excess_risk(setup)
    assert top == pytest.approx(float(excess.max()), rel=1e-9)
    assert top == pytest.approx(expected, abs=1e-4)


def test_level_verdict_leaves_out_vacuous_points():
    vacuous = {"vacuous": True, "lower_confidence": 0.0}
    assert R.level_verdict([vacuous, vacuous], 0.1) == "vacuous"
    assert R.level_verdict([vacuous, {"vacuous": False, "lower_confidence": 0.05}], 0.1) == "holds"
    assert R.level_verdict([vacuous, {"vacuous": False, "lower_confidence": 0.11}], 0.1) == "refuted"


@pytest.mark.parametrize("alg", [1, 2])
def test_bounds_of_the_quick_grid_are_vacuous(alg):
    # the numbers the level test reported as "holds" before: (14) >= 2.40 > 1.31, (26) >= 11.4 > 1.90
    setup = setup_for(alg, "standard")
    top = R.largest_excess_risk(setup)
    bounds = [R.explicit_bound(setup, p["n"], p["epsilon"]) for p in R.GRIDS["quick"]]
    assert min(bounds) > top
    assert min(bounds) == pytest.approx(2.404 if alg == 1 else 11.43, abs=0.01)


def test_theorem1_level_points_are_below_the_largest_excess_risk():
    setup = setup_for(1, "standard")
    top = R.largest_excess_risk(setup)
    for profile in ("quick", "full"):
        for p in R.LEVEL_GRIDS[1][profile]:
            assert R.explicit_bound(setup, p["n"], p["epsilon"]) < 0.8 * top


def test_theorem2_bound_is_vacuous_up_to_n_12800_at_any_epsilon():
    # why Theorem 2 has no level point: the smallest (26) over eps in [1e-3, 1e3] is 4.80 at n = 12800
    # (eps ~ 0.3), 2.72 at n = 1e5, 1.42 at n = 1e6, against 1.90 (nets of 2e6 points)
    setup = setup_for(2, "standard")
    top = R.largest_excess_risk(setup)
    smallest = min(R.explicit_bound(setup, 12800, eps) for eps in np.logspace(-3, 3, 61))
    assert smallest == pytest.approx(4.805, abs=0.01) and smallest > 2.5 * top


def test_level_test_holds_for_the_stated_algorithm_and_refutes_the_flipped_score():
    # at (n, eps) = (3200, 4), (14) = 1.00 < 1.31: the stated Algorithm 1 has tail probability ~1e-44 there,
    # the mechanism with the sign of its score flipped puts almost all its mass near w = -1 (excess 1.31)
    setup = setup_for(1, "standard")
    grid = R.LEVEL_GRIDS[1]["quick"]
    seed = CTX.for_claim("wang-xu.alg1.rate.standard").seed_sequence("level")
    verdict, rows = R.level_test(setup, grid, R.TAIL_REPETITIONS["quick"], seed, 1)
    assert verdict == "holds" and not rows[0]["vacuous"] and rows[0]["tail_probability"] < 1e-6
    flipped = dataclasses.replace(setup, broken="score-sign")
    verdict, rows = R.level_test(flipped, grid, R.TAIL_REPETITIONS["quick"], seed, 1)
    assert verdict == "refuted", rows
    assert rows[0]["tail_probability"] > 0.9


def test_flipped_score_on_vacuous_points_is_not_refuted_by_the_level_test():
    # the same mutant on the quick grid of Theorem 2: every bound is above the largest excess risk, so the
    # level test cannot see it (vacuous), whatever the mechanism does
    setup = dataclasses.replace(setup_for(2, "standard"), broken="score-sign")
    grid = R.GRIDS["quick"][:3]
    seed = np.random.SeedSequence(1)
    verdict, rows = R.level_test(setup, grid, 4, seed, 1)
    assert verdict == "vacuous" and all(r["vacuous"] and r["tail_probability"] == 0.0 for r in rows)


def test_rate_claim_reports_a_vacuous_level_test_as_vacuous():
    ctx = CTX.for_claim("wang-xu.alg2.rate.standard")
    small = {"quick": [{"n": n, "epsilon": 1.0} for n in (50, 100, 200, 400, 800)], "full": []}
    res = R.rate_check(2, "standard", grids=small, repetitions={"quick": 12, "full": 12})(ctx)
    assert "level test of (14)/(26) (vacuous" in res.method
    assert "holds" not in res.method
    assert all(r["vacuous"] for r in res.evidence["level_test"])
