"""Theorem 2's n-sweeps: the whole-grid verdict must not flip when one grid point is dropped.

Over n = 50-800 (eps = 1) plus (n, eps) = (400, 1/4), (100, 4), refitting ``wang-xu.alg2.rate.calibrated``'s
quick sweep without n = 50 (the same datasets, the point left out of the quantile regression) refuted the
stated algorithm on three of the five seeds of ``--seeds 5`` (731344922: 0.258 [0.220, 0.297]; 3972802103:
0.265 [0.231, 0.300]; 152441376: 0.284 [0.257, 0.311]; stated 1/3) while the whole grid confirmed it: the
(400, 1/4) point, the lowest x once n = 50 is gone, sits below the line (its eps-free terms are those of
n = 400).  Theorem 2's quick sweep now adds n = 1600 (``rates.LARGE_N_POINTS``); the slow test asserts that
every drop-one refit of the three Algorithm 2 sweeps is consistent on the five seeds, and that the old grid's
refit without n = 50 refutes (the defect the point removes).  ``run_sweep`` draws point i's datasets from the
children ``i * reps ... (i + 1) * reps - 1`` of the claim's seed sequence, so the first seven points of the new
grid carry exactly the old grid's datasets.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest

from proofs_checks.claim_sets.wang_xu import rates as R
from proofs_checks.claim_sets.wang_xu import setup_for, stated_exponent
from proofs_checks.model import CheckContext
from proofs_checks.rates import fit_rate, run_sweep
from proofs_checks.rates.trials_wang_xu import excess_risk_trial
from proofs_checks.stability import extra_seeds
from proofs_checks.verdicts import CONFIDENCE

SEED = 20261121


def test_theorem_2_quick_sweep_adds_n_1600_and_theorem_1_is_unchanged():
    two = R.sweep_grids(2)
    assert two["quick"] == R.GRIDS["quick"] + [{"n": 1600, "epsilon": 1.0}]
    assert two["full"] == R.GRIDS["full"]
    assert R.sweep_grids(1) == {k: list(v) for k, v in R.GRIDS.items()}
    with pytest.raises(ValueError, match="algorithm must be 1 or 2, got 3"):
        R.sweep_grids(3)


def test_five_seeds_are_those_of_seeds_5():
    assert [SEED, *extra_seeds(SEED, 4)] == [20261121, 731344922, 3972802103, 125447504, 152441376]


def _drop_one_verdicts(x, errors, a):
    # the check's own fit: quantile 1 - eta = 0.9 at confidence (1 + CONFIDENCE) / 2 (rates.rate_check)
    out = []
    for i in range(len(x)):
        keep = [j for j in range(len(x)) if j != i]
        out.append(fit_rate(x[keep], errors[keep], a, confidence=(1 + CONFIDENCE) / 2, quantile=0.9))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["printed", "standard", "calibrated"])
def test_theorem_2_whole_grid_verdict_survives_dropping_any_point(variant):
    setup = setup_for(2, variant)
    a = stated_exponent(2, setup.theta)
    grid = R.sweep_grids(2)["quick"]
    old = len(R.GRIDS["quick"])
    x = np.array([R.rate_variable(p) for p in grid])
    refuted_without_50 = []
    for seed in [SEED, *extra_seeds(SEED, 4)]:
        ctx = CheckContext(profile="quick", seed=seed).for_claim(f"wang-xu.alg2.rate.{variant}")
        sweep = run_sweep(
            functools.partial(excess_risk_trial, setup=setup), grid, R.REPETITIONS["quick"], seed=ctx.seed_sequence()
        )
        whole = fit_rate(x, sweep.errors, a, confidence=(1 + CONFIDENCE) / 2, quantile=0.9)
        assert whole.verdict == "consistent", (seed, whole)
        drops = _drop_one_verdicts(x, sweep.errors, a)
        assert {f.verdict for f in drops} == {"consistent"}, (seed, [(f.ci_low, f.ci_high) for f in drops])
        old_drop_50 = _drop_one_verdicts(x[:old], sweep.errors[:old], a)[0]
        refuted_without_50.append(old_drop_50.verdict == "slower")
    if variant == "calibrated":  # the defect: on the old grid, dropping n = 50 refuted 3 of 5 seeds
        assert refuted_without_50 == [False, True, True, False, True]
    else:
        assert not any(refuted_without_50)
