"""Theorem 8's n-sweep on right-skewed data (``rates.hu.thm8.asymmetric``): the truncation mutant is caught.

On the symmetric data of ``rates.hu.thm8`` the ``frozen_truncation`` mutant is ``out_of_reach`` (a robust mean of a
symmetric gradient is unbiased at any level).  Here ``x - mu = exp(Z) - e^(1/2)``; measured at quick
(``docs/rates.md``, "002: an asymmetric design for the truncation mutant"): stated algorithm 1.43 [1.22, 1.64]
(seed 20261121; 1.36-1.57 on 5 seeds, confirmed), frozen truncation 0.441 [0.346, 0.536], 0.525 [0.385, 0.665],
0.475 [0.336, 0.614] (seeds 20261121, 731344922, 3972802103; refuted).
"""

import math

import numpy as np
import pytest

from proofs_checks.claim_sets.hu import rate_asymmetric
from proofs_checks.model import CheckContext
from proofs_checks.rates import trials_hu

CID = "rates.hu.thm8.asymmetric"


def test_lognormal_law_has_mean_zero_variance_e_e_minus_1_and_right_skew():
    # private: _mean_noise: the trial's law of x - mu is the subject
    x = trials_hu._mean_noise("lognormal", (400_000,), np.random.default_rng(0))
    var = math.e * (math.e - 1.0)
    assert trials_hu.LOGNORMAL_VAR == var
    # standard error of the mean sqrt(var / n) = 0.0034; of the variance sqrt((m4 - var^2) / n) ~ 0.2 (heavy tail)
    assert abs(x.mean()) < 5 * math.sqrt(var / x.size)
    assert abs(x.var() / var - 1.0) < 0.25
    assert np.mean(x**3) > 10.0  # third central moment (e^3 - 3e + 2) e^(3/2) = 50.7 > 0
    with pytest.raises(ValueError, match="x_law"):
        trials_hu._mean_noise("cauchy", (3,), np.random.default_rng(0))


def test_tau_bounds_the_second_moment_along_the_iterates():
    # E[(grad_j l(w, x))^2] = 4 (var(x_j) + (w_j - mu_j)^2) <= tau = 24 wherever |w_j - mu_j| <= 1.06, which covers
    # the start w = 0 (|mu_j| = 1/sqrt(2)); E x_j^2 = var + mu_j^2 <= tau (the paper's mean-estimation example)
    grid = rate_asymmetric.ASYMMETRIC_SETTINGS[CID]["grids"]["quick"]
    tau = grid[0]["tau"]
    assert 4 * (trials_hu.LOGNORMAL_VAR + 1.06**2) <= tau
    assert trials_hu.LOGNORMAL_VAR + 0.5 <= tau
    assert all(p["x_law"] == "lognormal" and p["mu_shape"] == "flat" and p["c_k"] == 0.01 for p in grid)


def test_registered_with_the_frozen_truncation_mutant_unlabelled():
    from proofs_checks.registry import default_registry

    claim = default_registry().claim(CID)
    names = [m.name for m in claim.mutants]
    assert names[0].startswith("truncation level of the robust estimator frozen")
    assert all(not m.not_a_violation and not m.out_of_reach for m in claim.mutants)


def test_frozen_truncation_refuted_at_quick():
    frozen = rate_asymmetric.asymmetric_mutants()[0]
    res = frozen.check(CheckContext(profile="quick", seed=20261121).for_claim(CID))
    assert res.verdict == "refuted" and res.evidence["ci_high"] < 1.0, res.evidence


def test_stated_algorithm_confirmed_at_quick():
    res = rate_asymmetric.asymmetric_rate_check()(CheckContext(profile="quick", seed=20261121).for_claim(CID))
    assert res.verdict == "confirmed", res.evidence
    assert res.observed == pytest.approx(1.433, abs=0.005)
