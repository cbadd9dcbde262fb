"""Eps sweeps at fixed n of 000's rates (7)/(18): the reading "one O-constant for every eps > 0".

Measured at quick on the 5 seeds of ``--seeds 5``: all six claims refuted (exponents 0.16-0.28 against 1/2
and 1/3, every interval wholly below); the quantile / rate ratio of Algorithm 1 (standard) grows from 0.44
at eps = 1 to 99.8 at eps = 1e8 (seed 20261121).  The reading eps = O(1) is the n-sweeps' (confirmed).
"""

import numpy as np
import pytest

from proofs_checks.claim_sets.wang_xu import rates_eps as E
from proofs_checks.claim_sets.wang_xu import setup_for
from proofs_checks.model import CheckContext
from proofs_checks.rates.trials_wang_xu import excess_risk_trial
from proofs_checks.registry import default_registry

CTX = CheckContext(profile="quick", seed=20261121)
# 5 eps values x 10 datasets = 50 observations: the fewest for a defined q = 0.9 interval
SMALL = {"quick": [{"n": 100, "epsilon": e} for e in (1.0, 1e2, 1e4, 1e6, 1e8)], "full": []}
REPS = {"quick": 10, "full": 10}


def test_registered_eps_claims_declare_a_mutant():
    claims = [c for c in default_registry().claims if ".rate-eps." in c.id and c.id.startswith("wang-xu.")]
    assert sorted(c.id for c in claims) == sorted(
        f"wang-xu.alg{a}.rate-eps.uniform.{v}" for a in (1, 2) for v in ("printed", "standard", "calibrated")
    )
    # 002's eps sweeps (tests/test_rates_hu.py) run whole algorithms: expensive, so run once
    hu = [c for c in default_registry().claims if ".rate-eps." in c.id and c.id.startswith("rates.hu.")]
    assert sorted(c.id for c in hu) == [
        "rates.hu.thm2.rate-eps.uniform",
        "rates.hu.thm3.pseudo-huber.rate-eps.uniform",
        "rates.hu.thm5.rate-eps.uniform",
        "rates.hu.thm7.rate-eps.uniform",
        "rates.hu.thm8.rate-eps.uniform",
    ]
    assert all(c.mutants and c.seed_policy == "once" for c in hu)
    # cheap (one net of 401 points): several run seeds by default, like any cheap randomised claim
    assert all(c.mutants and c.kind == "rate" and c.seed_policy == "several" for c in claims)


@pytest.mark.parametrize("alg", [1, 2])
def test_uniform_reading_refuted_with_the_ratio_as_witness(alg):
    res = E.eps_rate_check(alg, "standard", grids=SMALL, repetitions=REPS)(CTX.for_claim(f"wang-xu.alg{alg}.rate-eps"))
    assert res.verdict == "refuted", res.method
    ratio = res.evidence["ratio_to_rate_with_O_constant_1"]
    assert ratio[-1] > 2.5 * ratio[0]
    assert "uniform in eps" in res.reading


def test_excess_risk_levels_off_at_large_eps():
    # the mechanism at eps = 1e8 is the minimiser over the net of the (barely truncated) empirical risk:
    # its excess risk over datasets does not go to 0 with eps; the stated rate falls 100x from 1e4 to 1e8
    setup = setup_for(1, "standard")
    q = []
    for eps in (1e4, 1e8):
        rng = np.random.default_rng(3)
        q.append(np.quantile([excess_risk_trial({"n": 100, "epsilon": eps}, rng, setup) for _ in range(20)], 0.9))
    rate = [setup.parameters(100, eps)["rate"] for eps in (1e4, 1e8)]
    assert rate[0] / rate[1] == pytest.approx(100.0)
    assert q[0] / q[1] < 3.0
