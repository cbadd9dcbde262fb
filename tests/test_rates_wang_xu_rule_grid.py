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

Theorem 1's n-sweeps had the same defect: on the old grid ``wang-xu.alg1.rate.standard``'s refit without n = 50
refuted the stated 1/2 on three of the five seeds (20261121: 0.432 [0.367, 0.496]; 3972802103: 0.411 [0.351,
0.472]; 125447504: 0.432 [0.375, 0.488]) while its whole grid confirmed (0.559, 0.510, 0.496), and the printed
sweep's refit without n = 800 was inconclusive on all five.  Theorem 1's quick sweep adds n = 1600 too; the same
slow test covers its three sweeps.
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


@pytest.mark.parametrize("algorithm", [1, 2])
def test_quick_sweeps_add_n_1600_and_the_full_grid_is_unchanged(algorithm):
    grids = R.sweep_grids(algorithm)
    assert grids["quick"] == R.GRIDS["quick"] + [{"n": 1600, "epsilon": 1.0}]
    assert grids["full"] == R.GRIDS["full"]


def test_sweep_grids_rejects_an_unknown_algorithm():
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


#: Seeds whose refit of the old grid (n = 50-800) without n = 50 refuted the stated exponent (measured): the
#: defect n = 1600 removes.  Theorem 1's printed sweep's refits without n = 800 were inconclusive instead.
OLD_GRID_REFUTED_WITHOUT_50 = {
    (1, "standard"): [True, False, True, True, False],
    (2, "calibrated"): [False, True, True, False, True],
}


@pytest.mark.slow
@pytest.mark.parametrize("algorithm", [1, 2])
@pytest.mark.parametrize("variant", ["printed", "standard", "calibrated"])
def test_whole_grid_verdict_survives_dropping_any_point(algorithm, variant):
    setup = setup_for(algorithm, variant)
    a = stated_exponent(algorithm, setup.theta)
    grid = R.sweep_grids(algorithm)["quick"]
    old = len(R.GRIDS["quick"])
    x = np.array([R.rate_variable(p) for p in grid])
    refuted_without_50 = []
    for seed in [SEED, *extra_seeds(SEED, 4)]:
        ctx = CheckContext(profile="quick", seed=seed).for_claim(f"wang-xu.alg{algorithm}.rate.{variant}")
        sweep = run_sweep(
            functools.partial(excess_risk_trial, setup=setup), grid, R.REPETITIONS["quick"], seed=ctx.seed_sequence()
        )
        whole = fit_rate(x, sweep.errors, a, confidence=(1 + CONFIDENCE) / 2, quantile=0.9)
        assert whole.verdict == "consistent", (seed, whole)
        drops = _drop_one_verdicts(x, sweep.errors, a)
        assert {f.verdict for f in drops} == {"consistent"}, (seed, [(f.ci_low, f.ci_high) for f in drops])
        old_drop_50 = _drop_one_verdicts(x[:old], sweep.errors[:old], a)[0]
        refuted_without_50.append(old_drop_50.verdict == "slower")
    assert refuted_without_50 == OLD_GRID_REFUTED_WITHOUT_50.get((algorithm, variant), [False] * 5)
