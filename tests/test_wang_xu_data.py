"""Heavy-tailed linear models with exact moments, population risk L_D, and the non-private baselines."""

import math

import mpmath
import numpy as np
import pytest

from reference.wang_xu.baselines import lad_regression, truncated_loss_minimiser
from reference.wang_xu.data import LinearModel, lognormal, lomax, population_risk, student_t
from reference.wang_xu.l1_regression import truncated_empirical_risk
from reference.wang_xu.nets import L2BallNet


def _mp_abs_moment(pdf, p):
    """E|X|^p by mpmath quadrature (30 digits) of a symmetric density."""
    mpmath.mp.dps = 30
    return float(2 * mpmath.quad(lambda x: x**p * pdf(x), [0, 1, 10, mpmath.inf]))


@pytest.mark.parametrize("p", [0.5, 1.0, 1.5, 2.0])
def test_abs_moments_match_quadrature(p):
    nu, a, s = 3.5, 3.0, 0.7
    t_pdf = lambda x: (
        mpmath.gamma((nu + 1) / 2)
        / (mpmath.sqrt(nu * mpmath.pi) * mpmath.gamma(nu / 2))
        * (1 + x**2 / nu) ** (-(nu + 1) / 2)
    )
    lomax_pdf = lambda x: 0.5 * a * (1 + x) ** (-a - 1)
    ln_pdf = lambda x: 0.5 * mpmath.npdf(mpmath.log(x) / s) / (s * x) if x > 0 else mpmath.mpf(0)
    # references: mpmath.quad at 30 digits
    assert student_t(nu).abs_moment(p) == pytest.approx(_mp_abs_moment(t_pdf, p), rel=1e-10)
    assert lomax(a).abs_moment(p) == pytest.approx(_mp_abs_moment(lomax_pdf, p), rel=1e-10)
    assert lognormal(s).abs_moment(p) == pytest.approx(_mp_abs_moment(ln_pdf, p), rel=1e-9)


def test_infinite_moments_reported():
    assert math.isinf(student_t(2.0).abs_moment(2.0))
    assert math.isinf(lomax(1.5).abs_moment(1.5))
    m = LinearModel((1.0,), student_t(1.8), student_t(1.8))
    assert math.isinf(m.tau(1)) and math.isfinite(m.tau(4, 1.5))


@pytest.mark.parametrize("law", [student_t(2.5), lomax(2.5, 0.5), lognormal(0.9)])
def test_mean_abs_deviation_closed_form(law):
    # reference: 1-d adaptive quadrature of |x - c| f(x) (scipy quad), independent of the closed form
    from scipy import integrate

    for c in (0.0, 0.4, -1.7, 5.0):
        ref = sum(
            integrate.quad(lambda x: abs(x - c) * law.pdf(x), lo, hi, limit=400, epsabs=1e-12)[0]
            for lo, hi in ((-np.inf, min(c, 0)), (min(c, 0), max(c, 0)), (max(c, 0), np.inf))
        )
        assert float(law.mean_abs_deviation(c)) == pytest.approx(ref, rel=1e-8)


def test_population_risk_methods_agree():
    model = LinearModel((0.5, -0.3), student_t(3.0), lomax(3.0))
    v0, se0, m0 = population_risk(model, np.array([0.5, -0.3]))
    assert (m0, se0) == ("closed form", 0.0) and v0 == pytest.approx(0.5)  # E|Lomax(3)| = 1/(3-1)
    vq, _, mq = population_risk(model, np.array([0.9, -0.3]))
    assert mq == "quadrature" and vq > v0
    vm, sem, mm = population_risk(model, np.array([0.9, -0.3]), mc_samples=400_000, rng=1, method="monte carlo")
    assert mm == "monte carlo" and abs(vm - vq) < 5 * sem


def test_model_sampling_and_bad_input():
    m = LinearModel((1.0, 2.0), student_t(3.0), lognormal(0.5))
    D = m.sample(5, 0)
    assert D.shape == (5, 3)
    np.testing.assert_array_equal(D, m.sample(5, np.random.default_rng(0)))
    with pytest.raises(ValueError, match="df"):
        student_t(0.0)
    with pytest.raises(ValueError, match="w_star"):
        LinearModel((np.nan,), student_t(3.0), student_t(3.0))
    with pytest.raises(ValueError, match="w"):
        population_risk(m, np.zeros(3))


def test_baselines_recover_w_star():
    model = LinearModel((0.4, -0.5), student_t(2.5), lomax(2.5))
    D = model.sample(1000, 4)
    X, y = D[:, :-1], D[:, -1]
    np.testing.assert_allclose(lad_regression(X, y), [0.4, -0.5], atol=0.08)
    net = L2BallNet(1.0, 0.15, 2)
    w, r = truncated_loss_minimiser(X, y, 0.3, 2.0, net=net)
    np.testing.assert_allclose(w, [0.4, -0.5], atol=0.08)
    assert r <= truncated_empirical_risk(net.points(), X, y, 0.3).min() + 1e-15
    w_raw, r_raw = truncated_loss_minimiser(X, y, 0.3, 1.5, net=net, polish=False)
    assert any(np.array_equal(w_raw, p) for p in net.points())
