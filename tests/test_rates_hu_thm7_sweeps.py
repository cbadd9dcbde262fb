"""The s*- and d-sweeps of Theorem 7 of 002 (proofs_checks/claim_sets/hu/rates.py, rate_settings.py): the s*-sweep's
design on a flat w* at eps = 12800 with the saturation rule, its mutants (noise x s* caught, noise x s*^(1/2) labelled
out of reach with its numbers), and the d-sweep's noise x d / d_ref mutant.

Design and measured numbers: ``docs/rates.md``, "002: Theorem 7's s*-sweep on a flat w*".
"""

import numpy as np
import pytest

from proofs_checks.claim_sets.hu import rate_settings, rates
from proofs_checks.model import CheckContext
from proofs_checks.rates import trials_hu

SPARSITY = "rates.hu.thm7.sparsity"
DIMENSION = "rates.hu.thm7.dimension"
SEED = 20261121


def _mutant(cid, prefix):
    (m,) = [m for m in rates.rate_mutants(cid) if m.name.startswith(prefix)]
    return m


def test_sparsity_design_is_flat_at_eps_12800_with_the_saturation_rule():
    st = rate_settings.SETTINGS[SPARSITY]
    assert st["trivial_error"] == 0.25  # ||w*||^2 with ||w*|| = 1/2: the error of the start w = 0
    for profile, top in (("quick", 16), ("full", 32)):
        grid = st["grids"][profile]
        assert all(p["w_shape"] == "flat" and p["epsilon"] == 12800.0 for p in grid)
        assert [p["s_star"] for p in grid][-1] == top


def test_flat_w_star_has_norm_one_half_and_equal_entries():
    # private: _sparse_mean: the trial's draw of w*, the subject here
    # the trial's w* is 0.5 times the flat mean: entries +-1 / (2 sqrt(s*)), so ||w*||^2 = 0.25 at every s*
    for s_star in (1, 4, 16):
        w = 0.5 * trials_hu._sparse_mean(50, s_star, "flat", np.random.default_rng(s_star))
        assert np.count_nonzero(w) == s_star and np.allclose(np.abs(w[w != 0]), 0.5 / np.sqrt(s_star))
        assert abs(float(w @ w) - 0.25) < 1e-12


def test_d_noise_factor_is_d_over_d_ref_only_where_d_ref_is_given():
    # private: _noise_factor: the trial's broken mode is the subject; d / d_ref = 64 exactly (IEEE division)
    assert trials_hu._noise_factor(dict(broken="d_noise", d=512, d_ref=8)) == 64.0
    assert trials_hu._noise_factor(dict(broken="d_noise", d=8, d_ref=8)) == 1.0
    # without d_ref the factor is d itself: the other claims' d_noise keep their bits
    assert trials_hu._noise_factor(dict(broken="d_noise", d=512)) == 512.0
    assert "d_ref" not in rates.MUTANT_EXTRA.get(("rates.hu.thm8.dimension", "d_noise"), {})


def test_d_noise_default_trial_bits_unchanged():
    # the Theorem 8 d-sweep's d_noise mutant (no d_ref) draws what it drew before d_ref existed: factor d
    point = dict(n=400, epsilon=1000.0, d=12, s_star=2, c_s=2.0, delta=1e-5, ne_ref=4e5, broken="d_noise")
    a = trials_hu.trial_theorem7(point, np.random.default_rng(3))
    b = trials_hu.trial_theorem7(dict(point, d_ref=1), np.random.default_rng(3))
    assert a == b  # d / 1 == d exactly


def test_mutant_names_and_labels():
    # the name stays "privacy noise x d" (d / 8 has the same growth in d; tests/test_power_rates_labels.py keys on it)
    (d_noise,) = [m for m in rates.rate_mutants(DIMENSION) if m.name == "privacy noise x d"]
    assert not d_noise.out_of_reach and not d_noise.not_a_violation
    assert rates.MUTANT_EXTRA[(DIMENSION, "d_noise")] == {"d_ref": 8}
    (s_noise,) = [m for m in rates.rate_mutants(SPARSITY) if m.name == "privacy noise x s*"]
    assert not s_noise.out_of_reach and not s_noise.not_a_violation
    finer = _mutant(SPARSITY, "privacy noise x s*^0.5")
    assert "squared privacy error times s*" in finer.name
    assert "1.84 [1.69, 1.98]" in finer.out_of_reach and not finer.not_a_violation


def _run(cid, trial=None, seed=SEED):
    return rates.rate_check(cid, trial=trial)(CheckContext(profile="quick", seed=seed).for_claim(cid))


@pytest.mark.slow
def test_sparsity_stated_confirmed_well_below_saturation():
    # measured (seed 20261121, quick, 48 runs): growth 0.97 [0.88, 1.06]; 0.9 quantiles 0.0054 ... 0.069 (0.27 of
    # the trivial error)
    res = _run(SPARSITY)
    ev = res.evidence
    assert res.verdict == "confirmed" and not ev["saturated"] and ev["largest_quantile_over_trivial"] < 0.4


@pytest.mark.slow
def test_sparsity_noise_times_s_refuted():
    # power: noise x s* multiplies the squared privacy error by s*^2; measured 2.49 [2.36, 2.62] against 2
    res = _run(SPARSITY, trial=rates.broken_trial(SPARSITY, "s_noise"))
    assert res.verdict == "refuted" and -res.evidence["ci_low"] > 2.0


@pytest.mark.slow
def test_dimension_noise_times_d_over_d_ref_refuted():
    # power: measured 5.18 [4.86, 5.50] in log(d / zeta) against 2 (seed 20261121, quick)
    res = _run(DIMENSION, trial=rates.broken_trial(DIMENSION, "d_noise", d_ref=8))
    assert res.verdict == "refuted" and -res.evidence["ci_low"] > 2.0
