"""d-sweep rate checks of Wang & Xu (000), Theorems 1-2: the model, the measurement, verdicts and power."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from proofs_checks.claim_sets.wang_xu import rates_dimension as R
from proofs_checks.model import CheckContext
from proofs_checks.rates import trials_wang_xu_dim as D
from proofs_checks.rates.trials_wang_xu import excess_risk_1d
from proofs_checks.registry import default_registry
from reference.wang_xu.data import lomax, student_t
from reference.wang_xu.l1_regression import wang_xu_log_prob
from reference.wang_xu.nets import L2BallNet

CTX = CheckContext(profile="quick", seed=11)
# 3 values of d x 17 datasets = 51 observations: the fewest for which the q = 0.9 interval is defined.
TINY_GRID = {"quick": [{"d": d, "n": 24, "epsilon": 8.0} for d in (1, 2, 3)]}
TINY_REPS = {"quick": 17}


def tiny_setup(alg, radius=None, ratio=10, **kw):
    radius = radius or {1: 0.85, 2: 1.6}[alg]
    return R.dimension_setup_for(alg, "printed", radius=radius, zeta=radius / ratio, **kw)


# ------------------------------------------------------------------ the model and its constants


def test_norm_moment_closed_form():
    # Independent references: d = 1 is reference.wang_xu.data.student_t's |t|^p moment (its own closed form);
    # p = 2 is d nu / (nu - 2); d = 3 by scipy quadrature: the chi(3) expectation of r^p times the chi2(nu) expectation of (W/nu)^(-p/2).
    for nu, p in ((3.0, 2.0), (3.0, 1.5), (1.8, 1.5)):
        m1 = D.MultivariateTModel(1, nu, lomax(3.0)).norm_moment(p)
        assert m1 == pytest.approx(student_t(nu).abs_moment(p), rel=1e-12)
    assert D.MultivariateTModel(4, 3.0, lomax(3.0)).tau(1) == pytest.approx(math.sqrt(12.0), rel=1e-13)
    nu, p = 1.8, 1.5
    ref = stats.chi(3).expect(lambda r: r**p, epsabs=1e-13, epsrel=1e-11) * stats.chi2(nu).expect(
        lambda w: (w / nu) ** (-p / 2), epsabs=1e-13, epsrel=1e-11
    )
    model = D.MultivariateTModel(3, nu, lomax(2.5))
    assert model.norm_moment(p) == pytest.approx(ref, rel=1e-8)
    assert model.tau(3, 1.5) == pytest.approx(ref ** (1 / 1.5), rel=1e-8)
    assert model.norm_moment(1.8) == math.inf and model.tau(1) == math.inf


@settings(max_examples=60, deadline=None)
@given(p=st.floats(0.0, 1e300), nu=st.floats(1e-3, 50.0), d=st.integers(1, 60))
def test_norm_moment_never_nan(p, nu, d):
    m = D.MultivariateTModel(d, nu, lomax(3.0)).norm_moment(p)
    assert not math.isnan(m)
    assert (m == math.inf) if p >= nu else (0 < m < math.inf or m == math.inf)


def test_model_validation():
    with pytest.raises(ValueError, match="dim"):
        D.MultivariateTModel(0, 3.0, lomax(3.0))
    with pytest.raises(ValueError, match="nu"):
        D.MultivariateTModel(2, -1.0, lomax(3.0))
    with pytest.raises(TypeError, match="noise_law"):
        D.MultivariateTModel(2, 3.0, 1.0)
    with pytest.raises(ValueError, match="finite mean"):
        D.MultivariateTModel(2, 3.0, lomax(0.9))
    with pytest.raises(ValueError, match="p must be"):
        D.MultivariateTModel(2, 3.0, lomax(3.0)).norm_moment(-1)
    with pytest.raises(ValueError, match="assumption"):
        D.MultivariateTModel(2, 3.0, lomax(3.0)).tau(2)
    with pytest.raises(ValueError, match="broken"):
        D.DimensionSetup(broken="nonsense")
    with pytest.raises(ValueError, match="zeta"):
        D.DimensionSetup(radius=1.0, zeta=1.0)
    with pytest.raises(ValueError, match="algorithm"):
        D.DimensionSetup(algorithm=3)


def test_sample_is_multivariate_t():
    model = D.MultivariateTModel(3, 3.0, lomax(3.0))
    data = model.sample(200_000, np.random.default_rng(0))
    assert data.shape == (200_000, 4) and np.all(np.isfinite(data))
    # <x, u> for a unit u is t(3): Kolmogorov-Smirnov against scipy's t(3).
    u = np.array([1.0, -2.0, 2.0]) / 3.0
    assert stats.kstest(data[:, :3] @ u, stats.t(3.0).cdf).pvalue > 1e-3
    # a shared scale: coordinates uncorrelated but dependent (corr of squares > 0 for the t, 0 for i.i.d.)
    sq = data[:200_000, :2] ** 2
    assert np.corrcoef(np.log(sq[:, 0]), np.log(sq[:, 1]))[0, 1] > 0.1


def test_excess_risk_is_h_of_the_distance_monte_carlo_d3():
    # L_D(w) - L_D(w*) for w with three non-zero coordinates, by Monte Carlo (2e6 draws, common noise so the
    # difference has a small variance) against h(||w||) by quadrature.  Finite variance: nu = 3, Lomax(3).
    model = D.MultivariateTModel(3, 3.0, lomax(3.0))
    w = np.array([0.3, -0.2, 0.25])
    rng = np.random.default_rng(3)
    diffs = []
    for _ in range(4):
        data = model.sample(500_000, rng)
        X, xi = data[:, :3], data[:, 3]
        diffs.append(np.abs(xi - X @ w) - np.abs(xi))
    diffs = np.concatenate(diffs)
    mc, se = diffs.mean(), diffs.std() / math.sqrt(diffs.size)
    h, err = excess_risk_1d(model.radial_model, [np.linalg.norm(w)])
    assert err < 1e-9
    assert abs(mc - h[0]) < 4 * se, (mc, se, h[0])


def test_net_radial_table():
    setup = tiny_setup(1)
    pts, norms, excess, err, distinct = D.net_radial_table(setup, 3)
    net = L2BallNet(setup.radius, setup.zeta, 3)
    assert pts.shape == (len(net), 3)
    np.testing.assert_allclose(norms, np.linalg.norm(pts, axis=1), rtol=1e-13, atol=1e-15)
    assert distinct <= (setup.radius / net.spacing) ** 2 + 1 < pts.shape[0] / 10 and err < 1e-9
    pick = np.array([0, 5, len(pts) // 3, len(pts) - 1])
    ref, _ = excess_risk_1d(setup.model(3).radial_model, norms[pick])
    np.testing.assert_allclose(excess[pick], np.maximum(ref, 0), rtol=1e-12, atol=1e-15)
    assert excess[norms == 0].tolist() == [0.0]
    # h increasing: the quantile of the excess is h of the quantile of the distance
    order = np.argsort(norms)
    assert np.all(np.diff(excess[order]) >= -1e-15)
    np.testing.assert_allclose(D.radius_of_excess(setup, 3, excess[pick]), norms[pick], rtol=1e-12)


def test_dimension_law_is_the_mechanism_law():
    setup = tiny_setup(2)
    law = D.dimension_law(setup, 2, 30, 1.0, np.random.default_rng(4))
    X, y = law["data"][:, :2], law["data"][:, 2]
    pts, _, _, _, _ = D.net_radial_table(setup, 2)
    _, lp = wang_xu_log_prob(X, y, pts, 1.0, law["params"]["iota"], setup.theta, setup.variant)
    np.testing.assert_allclose(law["prob"], np.exp(lp), rtol=1e-10, atol=1e-300)
    assert law["params"]["tau"] == setup.tau(2) and law["params"]["zeta"] == setup.zeta


def test_broken_parameters():
    ok, bad = tiny_setup(1), tiny_setup(1, broken="iota-without-d")
    assert bad.parameters(50, 4, 1.0)["iota"] == pytest.approx(ok.parameters(50, 4, 1.0)["iota"] / 2, rel=1e-12)


# ------------------------------------------------------------------ verdicts and power


def test_dimension_rate_not_refuted_on_the_real_algorithm():
    res = R.dimension_rate_check(1, setup=tiny_setup(1), grids=TINY_GRID, repetitions=TINY_REPS, diagnostic_datasets=1)(
        CTX.for_claim("real")
    )
    ev = res.evidence
    assert ev["rate_verdict"] != "slower", ev
    assert ev["net_adequate"], ev
    assert ev["stated_exponent"] == -0.5 and ev["stated_growth_exponent"] == 0.5
    assert res.bound == 0.5 and res.observed == ev["observed_growth_exponent"] and res.direction == "at_most"
    assert max(ev["ratio_to_explicit_bound"]) < 1.0
    assert ev["quadrature_error_relative_to_smallest_quantile"] < 1e-6


def test_dimension_rate_refutes_a_temperature_growing_with_d():
    # The temperature grows like d: the error / tau(d) grows about like d^1.2 instead of at most d^0.5.
    # W large enough that the broken law is not truncated by it (its d = 3 spread is about twice as wide);
    # 30 datasets per d: the q = 0.9 fit on 17 is too noisy to separate 1.2 from 0.5 reliably.
    res = R.dimension_rate_check(
        1,
        setup=tiny_setup(1, radius=1.6, ratio=16, broken="temperature-times-d"),
        grids=TINY_GRID,
        repetitions={"quick": 30},
        diagnostic_datasets=1,
    )(CTX.for_claim("broken"))
    assert res.verdict == "refuted" and res.evidence["rate_verdict"] == "slower", res.evidence
    assert res.evidence["net_adequate"] and res.evidence["growth_ci"][0] > 0.5


def test_inadequate_net_gives_no_verdict():
    # W too small for the law (the quantile of ||w~ - w*|| near R): inconclusive whatever the slope.
    res = R.dimension_rate_check(
        1, setup=tiny_setup(1, radius=0.4, ratio=8), grids=TINY_GRID, repetitions=TINY_REPS, diagnostic_datasets=1
    )(CTX.for_claim("small-ball"))
    assert not res.evidence["net_adequate"] and res.verdict == "inconclusive", res.evidence


def test_registered_dimension_claims():
    reg = default_registry()
    ids = {c.id: c for c in reg.claims if c.kind == "rate" and ".dimension." in c.id and c.id.startswith("wang-xu")}
    assert set(ids) == {f"wang-xu.alg{a}.rate.dimension.{v}" for a in (1, 2) for v in ("printed", "standard")}
    assert {c.algorithm for c in ids.values()} == {"wang-xu-1", "wang-xu-2"}


def test_zero_conditional_quantiles_are_floored_below_the_fitted_line():
    # t(1.8) design: a record of huge leverage can pin the output at the grid point w* = 0, so a conditional
    # 0.9 quantile is exactly 0 (here one dataset at d = 1).  The fit records it as the net's smallest
    # non-zero excess risk and checks it lies below the fitted 0.9 line (the quantile fit is then unaffected).
    res = R.dimension_rate_check(
        2,
        setup=tiny_setup(2, radius=2.4, ratio=12, broken="temperature-times-d"),
        grids=TINY_GRID,
        repetitions=TINY_REPS,
        diagnostic_datasets=1,
    )(CTX.for_claim("zeros"))
    ev = res.evidence
    assert ev["zero_conditional_quantiles_per_d"][0] >= 1 and ev["zero_points_below_fitted_line"], ev
    assert np.isfinite(ev["observed_exponent"]) and np.all(np.asarray(ev["quantile_errors"]) > 0)
