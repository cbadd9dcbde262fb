"""The headline rate verdicts of 000 (the six n-sweeps of Theorems 1-2) agree on 5 run seeds at quick.

The seeds are those of ``verify --seeds 5`` (:func:`proofs_checks.stability.extra_seeds`, fixed before any
run).  With 12 datasets per grid point three of the six split (``alg1.rate.printed`` confirmed on 1 of 5,
``alg1.rate.standard`` 4 of 5, ``alg2.rate.printed`` 3 of 5: the 0.975 intervals were 0.19-0.75 wide against the
0.25 the fit calls conclusive); with 48 every seed confirms (measured: exponents 0.63-0.71, 0.50-0.61,
0.63-0.71, 0.43-0.47, 0.33-0.39, 0.36-0.41; stated 1/2 and 1/3).  With n = 1600 added to both theorems' quick grids
(``rates.LARGE_N_POINTS``) every seed still confirms: 0.71-0.76, 0.54-0.64, 0.70-0.77 (Theorem 1) and 0.46-0.50,
0.37-0.39, 0.39-0.43 (Theorem 2).  About a minute on one core.
"""

import pytest

from proofs_checks.model import CheckContext
from proofs_checks.registry import default_registry
from proofs_checks.stability import run_claim_across_seeds

HEADLINE = [f"wang-xu.alg{a}.rate.{v}" for a in (1, 2) for v in ("printed", "standard", "calibrated")]


@pytest.mark.slow
@pytest.mark.parametrize("claim_id", HEADLINE)
def test_headline_rate_verdict_agrees_on_five_seeds(claim_id):
    claim = default_registry().claim(claim_id)
    res = run_claim_across_seeds(claim, CheckContext(profile="quick", seed=20261121), seeds=5)
    split = res.evidence["seeds"]
    assert len(split) == 5
    assert {row["verdict"] for row in split} == {"confirmed"}, split
    assert res.verdict == "confirmed"
