"""Algorithms 1-2 of Wang & Xu (000): eq. (2), exact distribution, sampler, streaming, protocol, bad input."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy.special import logsumexp

from reference.wang_xu.data import LinearModel, lomax, student_t
from reference.wang_xu.l1_regression import (
    WangXuMechanism,
    algorithm1,
    algorithm2,
    exponent_factor,
    l1_loss,
    log_weights,
    make_mechanism,
    record_psi_terms,
    streaming_gumbel_max_sample,
    streaming_log_normaliser,
    streaming_log_prob_chunks,
    theorem1_parameters,
    theorem2_parameters,
    truncated_empirical_risk,
    wang_xu_log_prob,
)
from reference.wang_xu.nets import BoxNet, L1BallNet, L2BallNet
from reference.wang_xu.truncation import psi
from tests._stats import GOF_ALPHA, chisquare_pvalue

MODEL = LinearModel((0.3, -0.4), student_t(2.5), lomax(2.5))
DATA = MODEL.sample(40, np.random.default_rng(5))
X, Y = DATA[:, :-1], DATA[:, -1]


def test_truncated_risk_is_eq2():
    W = np.array([[0.0, 0.0], [0.3, -0.4], [1.0, 1.0]])
    for theta in (2.0, 1.5):
        direct = np.array([np.sum(psi(0.7 * np.abs(Y - X @ w), theta)) / (len(Y) * 0.7) for w in W])
        np.testing.assert_allclose(truncated_empirical_risk(W, X, Y, 0.7, theta), direct, rtol=1e-14)
    assert truncated_empirical_risk(W[1], X, Y, 0.7) == pytest.approx(truncated_empirical_risk(W, X, Y, 0.7)[1])
    assert l1_loss(W[0], X, Y) == pytest.approx(np.mean(np.abs(Y)))


def test_truncated_risk_tends_to_l1_loss_as_iota_vanishes():
    # psi(x) = x + O(x^2), so L-hat_iota -> (1/n) sum |r_i| as iota -> 0
    w = np.array([0.1, 0.2])
    assert truncated_empirical_risk(w, X, Y, 1e-9) == pytest.approx(l1_loss(w, X, Y), rel=1e-6)


@pytest.mark.parametrize("theta,variant", [(2.0, "printed"), (2.0, "standard"), (1.5, "printed"), (1.2, "standard")])
def test_exact_distribution_matches_sampler(theta, variant):
    net = L2BallNet(1.0, 0.3, 2)
    pts, logp = wang_xu_log_prob(X, Y, net, 2.0, 0.5, theta, variant)
    assert math.isclose(logsumexp(logp), 0.0, abs_tol=1e-12)
    for block in (400, 1 << 20):  # many blocks of 10 points / one block
        draws, idx = streaming_gumbel_max_sample(
            X, Y, net, 2.0, 0.5, theta, variant, size=20000, rng=11, block_elements=block, return_index=True
        )
        np.testing.assert_array_equal(draws, pts[idx])
        assert chisquare_pvalue(idx, logp) > GOF_ALPHA


def test_exponents_printed_and_standard():
    # printed: exp(-n iota eps L-hat / log theta); standard: exp(-eps L-hat / (2 * 2 log theta / (n iota)))
    n, iota, eps, theta = len(Y), 0.5, 1.3, 1.5
    W = L2BallNet(1.0, 0.5, 2).points()
    Lhat = truncated_empirical_risk(W, X, Y, iota, theta)
    lw_p = log_weights(W, X, Y, eps, iota, theta, "printed")
    lw_s = log_weights(W, X, Y, eps, iota, theta, "standard")
    np.testing.assert_allclose(lw_p, -n * iota * eps * Lhat / math.log(theta), rtol=1e-12)
    delta = 2 * math.log(theta) / (n * iota)
    np.testing.assert_allclose(lw_s, eps * (-Lhat) / (2 * delta), rtol=1e-12)
    assert exponent_factor(eps, theta, "standard") == eps / 4


def test_algorithm2_at_theta_two_is_algorithm1():
    net = L1BallNet(1.0, 0.3, 2)
    a = wang_xu_log_prob(X, Y, net, 1.0, 0.5, 2.0)[1]
    m1 = make_mechanism(1, "printed", 1.0, net=net, iota=0.5)
    m2 = make_mechanism(2, "printed", 1.0, net=net, iota=0.5, theta=2.0)
    np.testing.assert_array_equal(m1.log_prob(DATA)[1], a)
    np.testing.assert_array_equal(m2.log_prob(DATA)[1], a)


@pytest.mark.parametrize("net", [L2BallNet(1.0, 0.05, 2), BoxNet(-1, 1, 0.1, 2), L1BallNet(2.0, 0.1, 2)])
def test_streaming_matches_in_memory(net):
    for theta, variant in ((2.0, "printed"), (1.3, "standard")):
        pts, logp = wang_xu_log_prob(X, Y, net, 1.0, 0.8, theta, variant)
        blocks = list(streaming_log_prob_chunks(X, Y, net, 1.0, 0.8, theta, variant, block_elements=3000))
        np.testing.assert_array_equal(np.concatenate([b[1] for b in blocks]), pts)
        np.testing.assert_allclose(np.concatenate([b[2] for b in blocks]), logp, rtol=0, atol=1e-12)
        log_z = streaming_log_normaliser(X, Y, net, 1.0, 0.8, theta, variant, block_elements=777)
        lw = log_weights(pts, X, Y, 1.0, 0.8, theta, variant)
        assert abs(log_z - logsumexp(lw)) <= 1e-12


def test_mechanism_protocol_terms_rescore_neighbours():
    mech = make_mechanism(2, "standard", 1.0, dim=2, zeta=0.4, iota=0.5, theta=1.5)
    pts, logp = mech.log_prob(DATA)
    terms = mech.score_terms(DATA)
    assert terms.shape == (DATA.shape[0], pts.shape[0])
    np.testing.assert_allclose(mech.log_prob_from_terms(terms.sum(axis=0)), logp, atol=1e-12)
    other = DATA.copy()
    other[3] = [1e300, -1e300, 5e-324]
    new_total = terms.sum(axis=0) - terms[3] + mech.score_terms(other[3:4])[0]
    np.testing.assert_allclose(mech.log_prob_from_terms(new_total), mech.log_prob(other)[1], atol=1e-12)
    out = mech.sample(DATA, 7, rng=1)
    assert out.shape == (7, 2)


def test_extreme_records_never_give_nan():
    big = np.array(
        [
            [1.7e308, 1.7e308, -1.7e308],
            [-1.7e308, 1.7e308, 1.7e308],
            [5e-324, 0.0, 1e-300],
            [0.0, 0.0, 0.0],
            [1e300, -1e300, 1e300],
        ]
    )
    net = L2BallNet(2.0, 0.5, 2)  # |w| up to 2: products of 1.7e308 would overflow unscaled
    for theta in (2.0, 1.1):
        T = record_psi_terms(net.points(), big[:, :2], big[:, 2], 1e300, theta)
        assert np.all(np.isfinite(T)) and np.all(T >= 0) and np.all(T <= math.log(theta))
        pts, logp = wang_xu_log_prob(big[:, :2], big[:, 2], net, 1e3, 1e-300, theta)
        assert np.all(np.isfinite(logp))


def test_algorithm_wrappers_and_seeding():
    net = L2BallNet(1.0, 0.25, 2)
    a = algorithm1(X, Y, net, 1.0, 0.5, size=5, rng=3)
    b = algorithm1(X, Y, net, 1.0, 0.5, size=5, rng=np.random.default_rng(3))
    np.testing.assert_array_equal(a, b)
    assert algorithm2(X, Y, net, 1.0, 0.5, 1.5).shape == (2,)


def test_theorem_parameters():
    p = theorem1_parameters(1000, 3, 1.0, 0.05, 2.0, assumption=1)
    assert p["zeta"] == 1e-3
    assert p["iota"] == pytest.approx(math.sqrt(3 * math.log(1000) * math.log(20) / (1000 * 4.0)))
    p2 = theorem1_parameters(1000, 3, 1.0, 0.05, 2.0, assumption=2)
    assert p2["iota"] == pytest.approx(math.sqrt(math.log(1000) * math.log(20) / (4.0 * 1000)))
    q = theorem2_parameters(1000, 3, 1.0, 0.05, 2.0, 1.5, assumption=3)
    assert q["iota"] == pytest.approx((3 * math.log(20) / 1000) ** (1 / 1.5) / 2.0)
    q4 = theorem2_parameters(1000, 3, 1.0, 0.05, 2.0, 1.5, assumption=4)
    assert q4["iota"] == pytest.approx((math.log(1000) * math.log(20) / 1000) ** (0.5 / 1.5) / 2.0)
    with pytest.raises(ValueError, match="assumption"):
        theorem1_parameters(10, 1, 1.0, 0.1, 1.0, assumption=3)
    with pytest.raises(ValueError, match="theta"):
        theorem2_parameters(10, 1, 1.0, 0.1, 1.0, 2.5)
    with pytest.raises(ValueError, match="eta"):
        theorem1_parameters(10, 1, 1.0, 1.5, 1.0)


# ----------------------------------------------------------------------------- bad input

NET = L2BallNet(1.0, 0.5, 2)


@pytest.mark.parametrize("theta", [1.0, 2.5, 0.0, float("nan")])
def test_bad_theta(theta):
    with pytest.raises(ValueError, match="theta"):
        wang_xu_log_prob(X, Y, NET, 1.0, 0.5, theta)
    with pytest.raises(ValueError, match="theta"):
        make_mechanism(2, theta=theta)


@pytest.mark.parametrize("iota", [0.0, -1.0, float("inf"), float("nan")])
def test_bad_iota(iota):
    with pytest.raises(ValueError, match="iota"):
        wang_xu_log_prob(X, Y, NET, 1.0, iota)
    with pytest.raises(ValueError, match="iota"):
        truncated_empirical_risk([0.0, 0.0], X, Y, iota)


@pytest.mark.parametrize("zeta", [0.0, -0.5])
def test_bad_zeta(zeta):
    with pytest.raises(ValueError, match="zeta"):
        make_mechanism(1, zeta=zeta, dim=2)


def test_bad_net():
    with pytest.raises(ValueError, match="net"):
        wang_xu_log_prob(X, Y, np.zeros((0, 2)), 1.0, 0.5)
    with pytest.raises(ValueError, match="dimension"):
        wang_xu_log_prob(X, Y, L2BallNet(1.0, 0.5, 3), 1.0, 0.5)
    with pytest.raises(ValueError, match="columns"):
        make_mechanism(1, dim=3).log_prob(DATA)


def test_bad_data():
    with pytest.raises(ValueError, match="same length"):
        wang_xu_log_prob(X, Y[:-1], NET, 1.0, 0.5)
    bad = X.copy()
    bad[2, 1] = np.nan
    with pytest.raises(ValueError, match="X must be finite"):
        wang_xu_log_prob(bad, Y, NET, 1.0, 0.5)
    y_bad = Y.copy()
    y_bad[0] = np.inf
    with pytest.raises(ValueError, match="y must be finite"):
        streaming_log_normaliser(X, y_bad, NET, 1.0, 0.5)
    d_bad = DATA.copy()
    d_bad[0, 0] = np.nan
    with pytest.raises(ValueError, match="data must be finite"):
        make_mechanism(1, dim=2).sample(d_bad, 3, rng=0)


def test_bad_epsilon_variant_algorithm():
    with pytest.raises(ValueError, match="epsilon"):
        wang_xu_log_prob(X, Y, NET, 0.0, 0.5)
    with pytest.raises(ValueError, match="variant"):
        wang_xu_log_prob(X, Y, NET, 1.0, 0.5, variant="fixed")
    with pytest.raises(ValueError, match="algorithm"):
        make_mechanism(3)
    with pytest.raises(ValueError, match="theta must be 2"):
        make_mechanism(1, theta=1.5)
    assert isinstance(make_mechanism(1, delta=1e-6), WangXuMechanism)


finite = st.floats(allow_nan=False, allow_infinity=False)


@settings(max_examples=100)
@given(
    rec=arrays(np.float64, (4, 3), elements=finite),
    iota=st.floats(1e-300, 1e300),
    theta=st.sampled_from([2.0, 1.5, 1.01]),
)
def test_psi_terms_finite_for_any_finite_records(rec, iota, theta):
    pts = L2BallNet(2.0, 1.0, 2).points()
    T = record_psi_terms(pts, rec[:, :2], rec[:, 2], iota, theta)
    assert np.all(np.isfinite(T)) and np.all(T >= 0) and np.all(T <= math.log(theta))
    lw = log_weights(pts, rec[:, :2], rec[:, 2], 1.0, iota, theta)
    assert np.all(np.isfinite(lw))
    assert not np.any(np.isnan(l1_loss(pts, rec[:, :2], rec[:, 2])))


def test_l1_loss_with_huge_records_is_finite():
    X = np.array([[1.7e308, -1.7e308], [1e-300, 5e-324]])
    y = np.array([-1.7e308, 0.0])
    assert np.isfinite(l1_loss(np.array([0.25, 0.25]), X, y))
