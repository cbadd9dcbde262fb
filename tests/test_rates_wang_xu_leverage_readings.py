"""Theorem 2 at theta = 1.5 on the leverage design, one claim per reading of its iota, and the standard and
calibrated weights at theta = 1.1.

``proofs_checks/rates/trials_wang_xu_leverage.py`` (``iota_reading``, ``net_scale``),
``proofs_checks/claim_sets/wang_xu/rates_leverage.py`` (``wang-xu.alg2.rate.leverage.{failure,net}.printed``,
``wang-xu.alg2.rate.leverage.{standard,calibrated}``).  What is pinned: each reading's logarithm (against
``math.log``), the reading swapped inside the reference's iota only, the truncated risk's end point at the probe
level and at the theorem's iota on every grid point, a coarser net keeping both ends of W, and the power: the iota
schedule 1/4 flatter is refuted under each reading while the stated algorithm is confirmed (small grids, fast).
"""

import math

import numpy as np
import pytest

from proofs_checks.claim_sets.wang_xu.rates_leverage import (
    HEAVY_DESIGN,
    HEAVY_VARIANT_GRIDS,
    HEAVY_VARIANT_NET_SCALE,
    READING_DESIGN,
    READING_GRIDS,
    READING_NET_SCALE,
    leverage_rate_check,
)
from proofs_checks.model import CheckContext
from proofs_checks.rates.trials_wang_xu_leverage import (
    IOTA_READINGS,
    LeverageDesign,
    iota_log_factor,
    leverage_log_prob,
    leverage_scale,
)
from reference.wang_xu.l1_regression import theorem2_parameters
from reference.wang_xu.truncation import psi

CTX = CheckContext(profile="quick", seed=20261121)


def test_each_reading_swaps_only_the_logarithm_inside_iota():
    n, eta, tau, theta = 51200, 0.1, 11.0 ** (1 / 1.5), 1.5
    expected = {
        "failure": math.log(10.0),
        "net": math.log(n),
        "sum": math.log(n * 10.0),
        "product": math.log(n) * math.log(10.0),
    }
    ref = theorem2_parameters(n, 1, 1.0, eta, tau, theta)["iota"]
    for reading in IOTA_READINGS:
        assert math.isclose(iota_log_factor(reading, n, eta), expected[reading], rel_tol=1e-15)
        iota = LeverageDesign(algorithm=2, iota_reading=reading, **READING_DESIGN).theorem_iota(n, 1.0)
        # iota = (1/tau) (d L / (n eps))^(1/theta), d = 1 (pow and log: within a few ulps, not bit for bit)
        assert math.isclose(iota, (expected[reading] / n) ** (1 / theta) / tau, rel_tol=1e-13)
    assert LeverageDesign(algorithm=2, **READING_DESIGN).theorem_iota(n, 1.0) == ref  # the reference's reading


def test_bad_readings_and_net_scales_raise():
    with pytest.raises(ValueError, match="iota_reading"):
        LeverageDesign(algorithm=2, iota_reading="zeta")
    with pytest.raises(ValueError, match="iota_reading"):
        LeverageDesign(iota_reading="net")  # Algorithm 1 has one iota
    with pytest.raises(ValueError, match="net_scale"):
        LeverageDesign(net_scale=0)
    with pytest.raises(ValueError, match="net_scale"):
        LeverageDesign(net_scale=True)
    with pytest.raises(ValueError, match="reading"):
        iota_log_factor("zeta", 100, 0.1)
    for bad_n in (1, 0, 100.0, True):
        with pytest.raises(ValueError, match="n must be"):
            iota_log_factor("net", bad_n, 0.1)
    for bad_eta in (0.0, 1.0, -0.1, float("nan")):
        with pytest.raises(ValueError, match="eta must be"):
            iota_log_factor("failure", 100, bad_eta)
    with pytest.raises(ValueError, match="iota_reading"):
        leverage_rate_check("printed", iota_reading="net")
    with pytest.raises(ValueError, match="divide"):
        leverage_log_prob(LeverageDesign(net_scale=64), 3000, 1.0, (10, 100, 2890))


@pytest.mark.parametrize("reading", sorted(READING_GRIDS))
def test_truncated_risk_prefers_the_biased_end_only_at_the_probe_level(reading):
    # T(w) = (q psi(iota X (1 - w)) + p psi(iota (1 + w))) / iota (psi of [000 eq. (16)] at theta = 1.5), concave:
    # its minimiser over W is an end point; every grid point of both profiles
    for point in READING_GRIDS[reading]["full"]:
        for shift, biased in ((0.0, False), (-0.25, True)):
            d = LeverageDesign(algorithm=2, iota_reading=reading, iota_exponent_shift=shift, **READING_DESIGN)
            s = leverage_scale(d, point["n"], 1.0)
            ends = np.array([-1.0, 1.0])
            T = (s["q"] * psi(s["iota"] * s["X"] * (1 - ends), 1.5) + s["p"] * psi(s["iota"] * (1 + ends), 1.5)) / s[
                "iota"
            ]
            assert bool(T[0] < T[1]) is biased, (reading, point, shift, T)


def test_coarser_net_keeps_both_ends_and_its_law_sums_to_one():
    d = LeverageDesign(algorithm=2, **{**HEAVY_DESIGN, "net_scale": HEAVY_VARIANT_NET_SCALE})
    pts, lp, excess = leverage_log_prob(d, 3200, 1.0, (40, 60, 3100))
    assert pts.shape == (2 * 3200 // 32 + 1, 1) and pts[0, 0] == -1.0 and pts[-1, 0] == 1.0
    assert math.isclose(float(np.exp(lp).sum()), 1.0, rel_tol=1e-12)
    assert excess.min() == 0.0  # w* = 1 is on the net


@pytest.mark.parametrize(
    ("reading", "grid"),
    [("failure", (3200, 51200, 819200)), ("net", (800, 12800, 51200))],
)
def test_flatter_iota_schedule_is_refuted_under_each_reading(reading, grid):
    grids = {"quick": [{"n": n, "epsilon": 1.0} for n in grid]}
    reps = {"quick": 24}
    kw = dict(algorithm=2, iota_reading=reading, grids=grids, repetitions=reps)
    stated = leverage_rate_check("printed", **kw)(CTX.for_claim(f"t.{reading}"))
    flatter = leverage_rate_check("printed", iota_exponent_shift=-0.25, **kw)(CTX.for_claim(f"t.{reading}.flatter"))
    assert stated.verdict == "confirmed", stated.method
    assert flatter.verdict == "refuted", flatter.method
    assert flatter.evidence["ci_high"] < 0.25  # the truncation term iota_p^(1/2): about x^(-5/24)
    assert all(r["quantile_over_largest_excess"] > 0.99 for r in flatter.evidence["design_rows"])
    assert stated.evidence["design_rows"][-1]["quantile_over_largest_excess"] < 0.3  # the stated one leaves it
    assert stated.evidence["net_zeta"] == (
        "1/n" if READING_NET_SCALE[reading] == 1 else f"{READING_NET_SCALE[reading]}/n"
    )


@pytest.mark.parametrize("variant", ["standard", "calibrated"])
def test_hotter_weights_at_theta_close_to_1_confirmed_and_iota_of_theta_2_refuted(variant):
    grids = {"quick": [p for p in HEAVY_VARIANT_GRIDS["quick"] if p["n"] in (800, 51200, 819200)]}
    reps = {"quick": 24}
    stated = leverage_rate_check(variant, algorithm=2, grids=grids, repetitions=reps)(CTX.for_claim(f"t.{variant}"))
    mutant = leverage_rate_check(variant, algorithm=2, grids=grids, repetitions=reps, iota_theta=2.0)(
        CTX.for_claim(f"t.{variant}.iota2")
    )
    assert stated.verdict == "confirmed", stated.method
    assert stated.evidence["ci_high"] >= 1 / 11
    assert mutant.verdict == "refuted", mutant.method
    assert mutant.evidence["ci_high"] < 1 / 11
