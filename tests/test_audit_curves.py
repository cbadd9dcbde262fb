"""Privacy curves: exact curves against dp-accounting and closed forms; the lower curve.

Reference values: Google's dp-accounting (``dp_accounting.pld``, version 0.6) privacy loss
distributions.  Its pessimistic PLD gives an upper bound on delta(eps) and its optimistic one
(Privacy Buckets) a lower bound, so an exact curve must lie between the two (up to float64 rounding,
``ROUND``); the gap between them is the discretisation error (interval 1e-4), checked to be small so
the sandwich is not vacuous.
"""

import itertools
import math

import numpy as np
import pytest

from proofs_checks.audit.api import audit
from proofs_checks.audit.calibration import GaussianCount, LaplaceCount, RandomizedResponse
from proofs_checks.audit.curves import (
    check_epsilons,
    default_grid,
    density_curve,
    exact_curve,
    gaussian_curve,
    laplace_curve,
    statistical_curve,
)

pld = pytest.importorskip("dp_accounting.pld.privacy_loss_distribution")

ROUND = 1e-12
EPS = np.array([0.0, 0.05, 0.2, 0.5, 0.9, 1.3, 2.0, 3.0])


def _sandwich(ours, make):
    pess = make(True)
    opt = make(False)
    up = np.array([pess.get_delta_for_epsilon(float(e)) for e in EPS])
    lo = np.array([opt.get_delta_for_epsilon(float(e)) for e in EPS])
    assert np.all(up - lo <= 2e-3), (up, lo)  # the reference is sharp enough to judge
    assert np.all(ours <= up + ROUND), (ours, up)
    assert np.all(ours >= lo - ROUND), (ours, lo)


@pytest.mark.parametrize("b", [0.5, 1.0, 4.0])
def test_laplace_closed_form_and_quadrature_against_dp_accounting(b):
    closed = laplace_curve(EPS, b)
    _sandwich(closed, lambda p: pld.from_laplace_mechanism(b, pessimistic_estimate=p, use_connect_dots=p))
    L = LaplaceCount(b)
    D, Dp = L.pair()
    quad = density_curve(
        lambda x: L.log_density(D, x[:, None]), lambda x: L.log_density(Dp, x[:, None]), EPS, [0.0, 1.0]
    )
    np.testing.assert_allclose(quad, closed, rtol=1e-8, atol=1e-11)


@pytest.mark.parametrize("sigma", [1.0, 3.0])
def test_gaussian_balle_wang_against_dp_accounting_and_quadrature(sigma):
    closed = gaussian_curve(EPS, sigma)
    _sandwich(closed, lambda p: pld.from_gaussian_mechanism(sigma, pessimistic_estimate=p, use_connect_dots=p))
    G = GaussianCount(sigma)  # its delta_at is the same theorem, written independently
    np.testing.assert_allclose(closed, [G.delta_at(e) for e in EPS], rtol=1e-10, atol=1e-15)
    D, Dp = G.pair()
    quad = density_curve(
        lambda x: G.log_density(D, x[:, None]),
        lambda x: G.log_density(Dp, x[:, None]),
        EPS,
        [-3 * sigma, 0.0, 0.5, 1.0, 1 + 3 * sigma],
    )
    np.testing.assert_allclose(quad, closed, rtol=1e-7, atol=1e-11)


@pytest.mark.parametrize("k,p", [(2, 2 / (1 + math.e)), (4, 0.3), (10, 0.8)])
def test_randomized_response_exact_curve_against_dp_accounting(k, p):
    # dp-accounting's k-ary RR: the input with probability 1 - p, else uniform over k buckets
    keep, other = math.log(1 - p + p / k), math.log(p / k)
    lp = np.full(k, other)
    lq = np.full(k, other)
    lp[0] = lq[1] = keep
    ours = exact_curve(lp, lq, EPS)
    _sandwich(ours, lambda pe: pld.from_randomized_response(p, k, pessimistic_estimate=pe))
    if k == 2:  # the calibration suite's RR at true eps 1
        R = RandomizedResponse(1.0)
        D, Dp = R.pair()
        # two routes through exp/log (the mechanism's log_prob and math.log above): within a few roundings of
        # values below 1, 4e-15 > 2 * (2 FUNCTION_ULPS + 2) * 2^-53 (docs/reproducibility.md)
        np.testing.assert_allclose(exact_curve(R.log_prob(D)[1], R.log_prob(Dp)[1], EPS), ours, atol=4e-15)


def test_exact_curve_equals_brute_force_over_all_events_both_directions():
    rng = np.random.default_rng(5)
    for _ in range(20):
        P, Q = rng.dirichlet(np.ones(6) * 0.5), rng.dirichlet(np.ones(6) * 0.5)
        Q[rng.integers(6)] = 0.0
        Q /= Q.sum()
        with np.errstate(divide="ignore"):
            lp, lq = np.log(P), np.log(Q)
        brute = [
            max(
                max(
                    P[list(S)].sum() - math.exp(e) * Q[list(S)].sum(), Q[list(S)].sum() - math.exp(e) * P[list(S)].sum()
                )
                for r in range(7)
                for S in itertools.combinations(range(6), r)
            )
            for e in EPS
        ]
        np.testing.assert_allclose(exact_curve(lp, lq, EPS), brute, atol=1e-14)
        # mutant: one direction only misses the backward events (power of this test)
        one_way = [sum(max(0.0, a - math.exp(e) * b) for a, b in zip(P, Q)) for e in EPS]
        if not np.allclose(one_way, brute, atol=1e-6):
            assert not np.allclose(exact_curve(lp, lq, EPS), one_way, atol=1e-6)


def test_extreme_inputs_give_no_nan():
    lp = np.log(np.array([1 - 1e-300, 1e-300]))
    lq = np.array([-np.inf, 0.0])
    d = exact_curve(lp, lq, [0.0, 1e-300, 700.0, 1e300])
    assert np.all(np.isfinite(d)) and d[0] == pytest.approx(1.0) and d[-1] == pytest.approx(1.0)
    assert np.all(np.isfinite(gaussian_curve([0.0, 1e300], 1e-300)))
    assert np.all(np.isfinite(laplace_curve([1e300], 1e300)))
    for bad, exc in (
        ([], ValueError),
        ([np.nan], ValueError),
        ([-1.0], ValueError),
        ("0.1", TypeError),
        ([[0.1]], ValueError),
    ):
        with pytest.raises(exc, match="epsilons"):
            check_epsilons(bad)


@pytest.mark.parametrize("statistic", ["auto", "estimate"])
def test_statistical_curve_is_below_the_exact_curve_and_close(statistic):
    L = LaplaceCount(1.0)
    pair = L.pair()
    grid = default_grid(1.0)
    exact = laplace_curve(grid, 1.0)
    for seed in range(3):
        cur = statistical_curve(L, pair, grid, samples=200_000, confidence=0.95, seed=seed, statistic=statistic)
        low = np.array(cur.delta_lower)
        assert np.all(low <= exact + 1e-12)
        assert np.all(np.diff(low) <= 0)  # monotone envelope
        assert np.max(exact - low) < 0.03  # power at 2*10^5 calls
        assert "Bonferroni over" in cur.correction and cur.samples <= 200_000


def test_statistical_curve_coverage_at_low_confidence_on_randomized_response():
    # simultaneous coverage: at confidence 0.5 over a 9-point grid the whole curve stays below the
    # exact one in at least 80 of 100 seeded runs (expected >= 50 by Bonferroni; in fact far more)
    R = RandomizedResponse(1.0)
    pair = R.pair()
    grid = np.linspace(0, 1.2, 9)
    exact = exact_curve(R.log_prob(pair[0])[1], R.log_prob(pair[1])[1], grid)
    ok = sum(
        np.all(
            np.array(statistical_curve(R, pair, grid, samples=2_000, confidence=0.5, seed=s).delta_lower)
            <= exact + 1e-12
        )
        for s in range(100)
    )
    assert ok >= 80


def test_audit_curve_exact_and_statistical():
    R = RandomizedResponse(1.0)
    res = audit(R, epsilon=1.0, pairs=[R.pair()], curve=[0.0, 0.5, 1.0], sampler_samples=0)
    c = res.details["curve"]
    assert c["method"] == "exact" and c["epsilons"] == [0.0, 0.5, 1.0]
    # math.e against the mechanism's exp/log route: a few roundings of values below 1 (docs/reproducibility.md)
    np.testing.assert_allclose(
        c["delta_exact"], [(math.e - 1) / (math.e + 1), None or c["delta_exact"][1], 0.0], atol=4e-15
    )
    L = LaplaceCount(1.0)
    res = audit(L, epsilon=1.0, pairs=[L.pair()], samples=20_000, curve=True, seed=2)
    c = res.details["curve"]
    assert c["method"] == "statistical" and 1.0 in c["epsilons"]
    np.testing.assert_allclose(c["delta_exact"], laplace_curve(c["epsilons"], 1.0), atol=1e-10)
    assert np.all(np.array(c["delta_lower"]) <= np.array(c["delta_exact"]) + 1e-12)
    assert "curve" not in audit(L, epsilon=1.0, pairs=[L.pair()], samples=2_000).details
    for bad, exc in (("yes", TypeError), ([-1.0], ValueError), ([], ValueError)):
        with pytest.raises(exc, match="curve"):
            audit(L, epsilon=1.0, pairs=[L.pair()], samples=2_000, curve=bad)


def test_curve_progress_only_when_asked(capsys):
    L = LaplaceCount(1.0)
    statistical_curve(L, L.pair(), [0.0, 1.0], samples=2_000, progress=False)
    assert capsys.readouterr().err == ""
    statistical_curve(L, L.pair(), [0.0, 1.0], samples=2_000, progress=True)
    assert "curve" in capsys.readouterr().err


# ------------------------------------------------------------------ the float range (hypothesis)

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_POSITIVE = st.floats(min_value=5e-324, max_value=1.7e308, allow_nan=False, allow_infinity=False)
_EPS = st.lists(st.floats(min_value=0.0, max_value=1e300, allow_nan=False), min_size=1, max_size=6)


@settings(max_examples=300, deadline=None)
@given(spread=_POSITIVE, sensitivity=_POSITIVE, epsilons=_EPS)
def test_closed_form_curves_are_probabilities_and_non_increasing_over_the_float_range(spread, sensitivity, epsilons):
    for curve in (laplace_curve, gaussian_curve):
        with np.errstate(over="raise", divide="raise", invalid="raise"):  # underflow to 0 is the right limit
            d = curve(epsilons, spread, sensitivity)
        assert np.all(np.isfinite(d)) and np.all((0.0 <= d) & (d <= 1.0)), (curve.__name__, d)
        assert np.all(np.diff(d) <= 1e-15), (curve.__name__, d)  # grid sorted: delta non-increasing


@settings(max_examples=300, deadline=None)
@given(logs=st.lists(st.tuples(st.floats(-1e300, 0.0), st.floats(-1e300, 0.0)), min_size=1, max_size=8), epsilons=_EPS)
def test_exact_curve_is_a_probability_on_extreme_laws(logs, epsilons):
    lp, lq = (np.array(c) for c in zip(*logs))
    lp, lq = lp - np.logaddexp.reduce(lp), lq - np.logaddexp.reduce(lq)  # normalised laws
    d = exact_curve(lp, lq, epsilons)
    assert np.all(np.isfinite(d)) and np.all((0.0 <= d) & (d <= 1.0))
    assert np.all(np.diff(d) <= 1e-12)


@pytest.mark.parametrize("bad", ["1.0", float("nan"), -1.0, 0.0, float("inf"), True])
def test_closed_form_curves_name_a_bad_parameter(bad):
    for curve, name in ((laplace_curve, "scale"), (gaussian_curve, "sigma")):
        with pytest.raises((TypeError, ValueError), match=name):
            curve([0.0], bad)
        with pytest.raises((TypeError, ValueError), match="sensitivity"):
            curve([0.0], 1.0, bad)
