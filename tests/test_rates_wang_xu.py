"""Rate checks of Wang & Xu (000), Theorems 1-2: measurement, verdicts, power against broken variants."""

import functools
import json

import numpy as np
import pytest

from proofs_checks.claim_sets.wang_xu import rates as R
from proofs_checks.claim_sets.wang_xu import rates_dimension as RD
from proofs_checks.claim_sets.wang_xu import rates_eps as RE
from proofs_checks.claim_sets.wang_xu import rates_leverage as RL
from proofs_checks.claim_sets.wang_xu import setup_for, stated_exponent
from proofs_checks.claim_sets.wang_xu import utility as U
from proofs_checks.cli import main
from proofs_checks.model import CheckContext
from proofs_checks.rates import fit_rate, run_sweep
from proofs_checks.rates import trials_wang_xu as T
from proofs_checks.registry import default_registry
from reference.wang_xu.data import LinearModel, population_risk, student_t

# 5 points x 10 datasets = 50 observations: the fewest for which the q = 0.9 interval is defined.
TINY = {
    "quick": [{"n": n, "epsilon": 1.0} for n in (40, 80, 160, 320, 640)],
    "full": [{"n": n, "epsilon": 1.0} for n in (40, 80, 160, 320, 640)],
}
TINY_REPS = {"quick": 10, "full": 10}
#: The large-n end of the check (its own fit on fresh datasets) at the top three sizes of TINY instead
#: of the quick profile's n = 400, 800, 1600: the excess-risk quadratures (one per net, cached per
#: process) are shared with the main sweep and the trials are 2.5x smaller.  Every verdict asserted here
#: is unchanged (measured: each broken variant refuted with rate verdict "slower", the real Alg. 1
#: confirmed); fixed-temperature-2 went from 16.2 s to 7.9 s CPU, the CLI test from 9.8 s to 4.7 s.
TINY_TAIL = {
    "quick": [{"n": n, "epsilon": 1.0} for n in (160, 320, 640)],
    "full": [{"n": n, "epsilon": 1.0} for n in (160, 320, 640)],
}
CTX = CheckContext(profile="quick", seed=7)


@pytest.fixture(autouse=True)
def _tiny_tail(monkeypatch):
    monkeypatch.setattr(R, "TAIL_GRIDS", TINY_TAIL)


# ------------------------------------------------------------------ measurement


@pytest.mark.parametrize("model", [T.THEOREM1_MODEL, T.THEOREM2_MODEL])
def test_vectorised_excess_risk_matches_population_risk(model):
    # Reference: reference.wang_xu.data.population_risk (scipy quad of the closed form, error ~1e-13).
    ws = np.array([model.w_star[0], 0.49, 0.4, 0.0, -1.0, 1.0])  # w* = 1/e (off every net)
    excess, err = T.excess_risk_1d(model, ws)
    base = population_risk(model, np.array(model.w_star))[0]
    ref = np.array([population_risk(model, np.array([w]))[0] for w in ws]) - base
    assert err < 1e-9
    np.testing.assert_allclose(excess, ref, rtol=1e-9, atol=1e-12)
    assert abs(excess[0]) < 1e-12 and np.all(excess[1:] > 0)  # closed form at w* up to rounding


def test_weighted_quantile():
    v, p = np.array([3.0, 1.0, 2.0]), np.array([0.2, 0.5, 0.3])
    assert T.weighted_quantile(v, p, 0.5) == 1.0
    assert T.weighted_quantile(v, p, 0.51) == 2.0
    assert T.weighted_quantile(v, p, 0.9) == 3.0
    assert T.weighted_quantile(v, p, 0.8) == 2.0


def test_conditional_law_is_the_mechanism_law():
    setup = setup_for(1)
    law = T.conditional_law(setup, 60, 1.0, np.random.default_rng(0))
    assert law["prob"].shape == law["excess"].shape == (len(setup.net(60)),)
    assert abs(law["prob"].sum() - 1) < 1e-12 and np.all(law["excess"] >= 0)


def test_setup_validation():
    with pytest.raises(ValueError, match="d = 1"):
        T.WangXuRateSetup(model=LinearModel((0.1, 0.2), student_t(3.0), student_t(3.0)))
    with pytest.raises(ValueError, match="broken"):
        T.WangXuRateSetup(broken="nonsense")
    with pytest.raises(ValueError, match="statistic"):
        T.WangXuRateSetup(statistic="median")


# ------------------------------------------------------------------ verdicts on the real algorithms


# Algorithm 2 (theta = 1.5, 15-20 s) runs with the slow suite; its claims also run in `verify`.
@pytest.mark.parametrize("alg", [1, pytest.param(2, marks=pytest.mark.slow)])
def test_rate_confirmed_on_the_real_algorithm(alg):
    res = R.rate_check(alg, grids=TINY, repetitions=TINY_REPS)(CTX.for_claim(f"wang-xu.alg{alg}.rate.printed"))
    ev = res.evidence
    assert res.verdict == "confirmed", ev
    assert ev["rate_verdict"] == "consistent" and ev["ci_high"] >= stated_exponent(alg)
    assert ev["quadrature_error_relative_to_smallest_quantile"] < 1e-6
    assert max(ev["ratio_to_explicit_bound"]) < 1.0


@pytest.mark.parametrize("alg", [1, 2])
@pytest.mark.parametrize("broken", ["fixed-temperature", "ignore-data"])
def test_rate_rejects_broken_variants(alg, broken):
    setup = setup_for(alg, broken=broken)
    res = R.rate_check(alg, setup=setup, grids=TINY, repetitions=TINY_REPS)(CTX.for_claim("broken"))
    assert res.verdict == "refuted", res.evidence
    assert res.evidence["rate_verdict"] == "slower"


@pytest.mark.parametrize("alg", [1, 2])
def test_em_utility_step(alg):
    # the bound is Lemma 1's for the standard weight; against the printed (4x) weight it is vacuous
    for variant, expected in (("printed", "vacuous"), ("standard", "confirmed")):
        ctx = CTX.for_claim(f"wang-xu.alg{alg}.em-utility.{variant}")
        assert U.em_utility_check(alg, variant, datasets=2)(ctx).verdict == expected
    hot = setup_for(alg, broken="hot")
    # n eps large enough that the bound is not vacuous for Theorem 2's small iota.
    res = U.em_utility_check(alg, setup=hot, datasets=2, cases=[(400, 50.0)])(CTX.for_claim("hot"))
    assert res.verdict == "refuted" and res.observed > 1 and res.bound == 1.0


# ------------------------------------------------------------------ engine, reproducibility, CLI


def test_sweep_identical_whatever_the_workers():
    trial = functools.partial(T.excess_risk_trial, setup=setup_for(2))
    grid = [{"n": 30, "epsilon": 1.0}, {"n": 60, "epsilon": 2.0}]
    a = run_sweep(trial, grid, 3, seed=5, jobs=1)
    b = run_sweep(trial, grid, 3, seed=5, jobs=2, chunk=1)
    assert np.array_equal(a.errors, b.errors)


def test_fit_exact_line_is_conclusive():
    # Engine defect fixed here: quantile regression on errors exactly on a line (zero residuals,
    # e.g. a data-independent error) gave a NaN interval and an "inconclusive" verdict.
    x = np.array([10.0, 20.0, 40.0, 80.0])
    flat = fit_rate(x, np.full((4, 5), 0.3), 0.5, quantile=0.9)
    assert flat.verdict == "slower" and flat.ci_low == flat.ci_high
    exact = fit_rate(x, np.outer(x**-1.0, np.ones(5)), 0.5, quantile=0.9)
    assert exact.verdict == "consistent" and abs(exact.observed_exponent - 1) < 1e-9


def test_registered_rate_claims():
    reg = default_registry()
    rate = {c.id: c for c in reg.claims if c.kind == "rate" and c.algorithm in ("wang-xu-1", "wang-xu-2")}
    assert set(rate) == (
        {f"wang-xu.alg{a}.rate.{k}{v}" for a in (1, 2) for v in ("printed", "standard") for k in ("", "dimension.")}
        | {f"wang-xu.alg{a}.rate.calibrated" for a in (1, 2)}
        | {f"wang-xu.alg{a}.rate-eps.uniform.{v}" for a in (1, 2) for v in ("printed", "standard", "calibrated")}
        | {f"wang-xu.alg1.rate.leverage.{v}" for v in ("printed", "standard", "calibrated")}
        | {f"wang-xu.alg2.rate.leverage.{v}" for v in ("printed", "standard", "calibrated")}
        | {f"wang-xu.alg2.rate.leverage.{r}.printed" for r in ("failure", "net")}
    )
    assert stated_exponent(1) == 0.5 and abs(stated_exponent(2) - 1 / 3) < 1e-15


def test_cli_rates_json(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(R, "GRIDS", TINY)
    monkeypatch.setattr(R, "REPETITIONS", TINY_REPS)
    monkeypatch.setattr(RD, "DIM_GRIDS", {"quick": [{"d": d, "n": 24, "epsilon": 6.0} for d in (1, 2, 3)]})
    monkeypatch.setattr(RD, "DIM_REPETITIONS", {"quick": 4})
    monkeypatch.setattr(RE, "EPS_GRIDS", {"quick": [{"n": 100, "epsilon": e} for e in (1.0, 1e2, 1e4, 1e6, 1e8)]})
    monkeypatch.setattr(RE, "EPS_REPETITIONS", {"quick": 10})
    monkeypatch.setattr(RL, "LEVERAGE_GRIDS", {"quick": [{"n": n, "epsilon": 1.0} for n in (3200, 6400, 12800)]})
    monkeypatch.setattr(RL, "LEVERAGE_REPETITIONS", {"quick": 20})
    assert main(["rates", "--algorithm", "wang-xu-1", "--json", "--out", str(tmp_path)]) == 0
    entries = json.loads(capsys.readouterr().out)
    assert {e["claim"] for e in entries} == (
        {f"wang-xu.alg1.rate.{k}{v}" for k in ("", "dimension.") for v in ("printed", "standard")}
        | {"wang-xu.alg1.rate.calibrated"}
        | {f"wang-xu.alg1.rate-eps.uniform.{v}" for v in ("printed", "standard", "calibrated")}
        | {f"wang-xu.alg1.rate.leverage.{v}" for v in ("printed", "standard", "calibrated")}
    )
    # the eps sweeps (reading 'uniform in eps') are refuted: tests/test_rates_eps.py
    entries = [e for e in entries if ".rate-eps." not in e["claim"]]
    for e in entries:
        assert {"algorithm", "stated_exponent", "observed_exponent", "ci_low", "ci_high", "verdict"} <= e.keys()
    for e in [e for e in entries if ".dimension." not in e["claim"]]:  # the d-sweeps: tests/test_rates_wang_xu_dim.py
        assert e["algorithm"] == "wang-xu-1" and e["verdict"] == "consistent"
        assert {"stated_exponent", "observed_exponent", "ci_low", "ci_high"} <= e.keys()
        assert (tmp_path / e["figures"][0]).exists()


def test_fit_quantile_interval_with_few_observations_is_inconclusive():
    # statsmodels returns a NaN interval at q = 0.9 with 24 observations (Hall-Sheather bandwidth):
    # the verdict must say inconclusive and the method must say why (no silent fallback).
    rng = np.random.default_rng(0)
    x = np.array([10.0, 20.0, 40.0, 80.0])
    err = np.exp(-0.5 * np.log(x)[:, None] + 0.2 * rng.standard_normal((4, 6)))
    fit = fit_rate(x, err, 0.5, quantile=0.9)
    assert fit.verdict == "inconclusive" and "too few observations" in fit.method


def test_fit_interval_wholly_faster_is_consistent_whatever_its_width():
    # Engine defect fixed here: an interval lying entirely on the faster side of the stated exponent
    # was called inconclusive when wider than max_ci_width, though it excludes every slower rate.
    rng = np.random.default_rng(1)
    x = np.array([10.0, 20.0, 40.0, 80.0, 160.0])
    err = np.exp(-1.0 * np.log(x)[:, None] + 1.5 * rng.standard_normal((5, 30)))
    fit = fit_rate(x, err, 0.5)
    assert fit.ci_low > 0.5 and fit.ci_high - fit.ci_low > 0.25
    assert fit.verdict == "consistent"
    assert fit_rate(x, err, 0.5, max_ci_width=10).verdict == "consistent"
