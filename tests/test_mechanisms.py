"""Exact distributions agree with the samplers; miscalibrated variants are caught."""

import importlib
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from reference import mechanisms as m

from ._stats import GOF_ALPHA, chisquare_pvalue

N_DRAWS = 200_000


def test_exponential_sampler_matches_exact_distribution():
    u = np.array([0.0, 1.0, 2.5, -1.0, 0.3, 2.0])
    logp = m.exponential_log_prob(u, 2.0, 1.0)
    draws = m.exponential_sample(u, 2.0, 1.0, size=N_DRAWS, rng=1)
    assert chisquare_pvalue(draws, logp) > GOF_ALPHA


def test_exponential_miscalibrated_sampler_is_caught():
    u = np.array([0.0, 1.0, 2.5, -1.0, 0.3, 2.0])
    logp = m.exponential_log_prob(u, 2.0, 1.0)
    # eps/Delta instead of eps/(2 Delta): a factor-2 exponent
    draws = m.exponential_sample(u, 2.0, 1.0, size=N_DRAWS, rng=1, weight_factor=1.0)
    assert chisquare_pvalue(draws, logp) < GOF_ALPHA


def test_exponential_known_values():
    # P = softmax(eps*u/2) with eps = 2: [1, e] / (1 + e).  Stated bound: exp(-1), log1p and the final exp
    # each within FUNCTION_ULPS = 4 ulps (reference/floating.py), propagated through log p = -1 - log1p(e^-1),
    # 1.3e-15 relative at p = 0.27, and 3 roundings of the reference: 1.7e-15 (measured: the same bits)
    p = np.exp(m.exponential_log_prob([0.0, 1.0], 2.0, 1.0))
    np.testing.assert_allclose(p, [1 / (1 + math.e), math.e / (1 + math.e)], rtol=1.7e-15)


FINITE = st.floats(allow_nan=False, allow_infinity=False)
POSITIVE = st.floats(min_value=5e-324, max_value=1.7976931348623157e308)


@given(st.lists(FINITE, min_size=1, max_size=20), POSITIVE, POSITIVE)
def test_exponential_log_prob_never_nan_or_overflows(scores, eps, sens):
    logp = m.exponential_log_prob(scores, eps, sens)
    assert not np.any(np.isnan(logp)) and not np.any(logp == np.inf)
    assert np.max(logp) <= 0.0
    assert math.isclose(np.exp(logp).sum(), 1.0, rel_tol=1e-12)


def test_exponential_large_epsilon_n():
    # eps*n of 1e6: the gap of 1 costs eps/2 = 5e5 nats, the gap of 2e6 costs 1e12
    logp = m.exponential_log_prob([1e6, 1e6 - 1, -1e6], 1e6, 1.0)
    np.testing.assert_allclose(logp, [0.0, -5e5, -1e12], rtol=1e-12)


def test_gem_sampler_matches_exact_distribution():
    g = np.array([0.0, 0.5, 1.0, 2.0, 4.0])
    q = np.array([1.0, 0.8, 0.3, 0.1, 0.05])
    logp = m.gem_log_prob(g, q, 1.0, 0.1)
    draws = m.gem_sample(g, q, 1.0, 0.1, size=N_DRAWS, rng=2)
    assert chisquare_pvalue(draws, logp) > GOF_ALPHA
    wrong = m.gem_sample(g, q, 2.0, 0.1, size=N_DRAWS, rng=2)
    assert chisquare_pvalue(wrong, logp) < GOF_ALPHA


def test_gem_normalized_score_sensitivity_one():
    rng = np.random.default_rng(3)
    for _ in range(200):
        g = 10 ** rng.uniform(-2, 2, size=6)
        q = rng.normal(size=6)
        q2 = q + rng.uniform(-1, 1, size=6) * g
        s1 = m.gem_normalized_scores(g, q, 1.0, 0.1)
        s2 = m.gem_normalized_scores(g, q2, 1.0, 0.1)
        assert np.max(np.abs(s1 - s2)) <= 1 + 1e-12


def test_report_noisy_max_exact_matches_sampler():
    u = np.array([0.0, 1.0, 3.0, -2.0, 0.5])
    logp = m.report_noisy_max_log_prob(u, 1.0)
    assert abs(np.exp(logp).sum() - 1) < 1e-12
    draws = m.report_noisy_max(u, 1.0, size=N_DRAWS, rng=4)
    assert chisquare_pvalue(draws, logp) > GOF_ALPHA
    wrong = m.report_noisy_max(u, 1.3, size=N_DRAWS, rng=4)  # noise scale 30% off
    assert chisquare_pvalue(wrong, logp) < GOF_ALPHA


def test_report_noisy_max_two_candidates_closed_form():
    # The difference of two Lap(1) variables has tail P[D > c] = (2 + c) e^{-c} / 4 (c >= 0).
    for c in (0.5, 3.0, 40.0, 79.0, 81.0, 200.0, 1e3, 1e5):
        logp = m.report_noisy_max_log_prob([0.0, c], 1.0)
        assert logp[0] == pytest.approx(math.log((2 + c) / 4) - c, rel=1e-9, abs=1e-9)


def test_peeling_selection_matches_sampler():
    v = np.array([3.0, 1.0, 0.2, 2.0])
    seqs, logp = m.peeling_support_log_prob(v, 2, 1.0, 0.1, 0.5)
    assert abs(np.exp(logp).sum() - 1) < 1e-9
    _, sel = m.peeling(v, 2, 1.0, 0.1, 0.5, size=N_DRAWS, rng=5)
    index = {tuple(s): i for i, s in enumerate(seqs)}
    draws = np.array([index[tuple(s)] for s in sel[:20000]])  # lookup only; sampling was vectorised
    assert chisquare_pvalue(draws, logp) > GOF_ALPHA


def test_peeling_output_support_and_shape():
    vals, sel = m.peeling(np.arange(10.0), 3, 1.0, 0.01, 1.0, size=7, rng=0)
    assert vals.shape == (7, 10) and sel.shape == (7, 3)
    for row, s in zip(vals, sel):
        assert set(np.flatnonzero(row)) <= set(s)


def test_laplace_and_gaussian_samplers_match_laws():
    x = m.laplace_mechanism(np.array([1.0, -2.0]), 2.0, 0.5, size=N_DRAWS, rng=6)
    assert x.shape == (N_DRAWS, 2)
    assert stats.kstest(x[:, 0] - 1.0, stats.laplace(scale=4.0).cdf).pvalue > GOF_ALPHA
    assert stats.kstest(x[:, 0] - 1.0, stats.laplace(scale=4.0 * 1.3).cdf).pvalue < GOF_ALPHA
    sigma = m.gaussian_sigma(1.0, 0.5, 1e-5)
    y = m.gaussian_mechanism(0.0, 1.0, 0.5, 1e-5, size=N_DRAWS, rng=7)
    assert stats.kstest(y, stats.norm(scale=sigma).cdf).pvalue > GOF_ALPHA
    assert stats.kstest(y, stats.norm(scale=0.7 * sigma).cdf).pvalue < GOF_ALPHA


def test_gaussian_exact_delta_against_direct_formula():
    # direct evaluation in a regime without cancellation problems
    eps, sigma = 0.5, 2.0
    direct = stats.norm.cdf(1 / (2 * sigma) - eps * sigma) - math.exp(eps) * stats.norm.cdf(
        -1 / (2 * sigma) - eps * sigma
    )
    assert m.gaussian_exact_delta(eps, sigma, 1.0) == pytest.approx(direct, rel=1e-10)


def test_samplers_are_reproducible_and_do_not_touch_global_state():
    np.random.seed(0)
    before = np.random.get_state()[1].copy()
    a = m.exponential_sample([0.0, 1.0, 2.0], 1.0, 1.0, size=100, rng=11)
    b = m.exponential_sample([0.0, 1.0, 2.0], 1.0, 1.0, size=100, rng=np.random.default_rng(11))
    assert np.array_equal(a, b)
    assert np.array_equal(before, np.random.get_state()[1])


def test_composition_standard_split_is_tight():
    s = m.advanced_composition_split(0.5, 1e-6, 50, "standard")
    assert m.advanced_composition_epsilon(s.epsilon_step, 50, 1e-6 / 2) == pytest.approx(0.5, rel=1e-12)
    assert s.delta_total == pytest.approx(1e-6)
    p = m.advanced_composition_split(0.5, 1e-6, 50, "printed")
    assert p.epsilon_step < s.epsilon_step and p.delta_total == pytest.approx(2e-6)


def test_protocol_adapters():
    for mech, data in [
        (m.ExponentialMechanism(1.0, 1.0), np.array([0.0, 1.0, 2.0])),
        (m.ReportNoisyMax(1.0), np.array([0.0, 1.0, 2.0])),
        (m.GeneralizedExponentialMechanism(1.0, 0.1), np.array([[0.0, 1.0], [1.0, 0.2]])),
        (m.Peeling(1, 1.0, 0.1, 1.0), np.array([0.0, 1.0, 2.0])),
    ]:
        outputs, logp = mech.log_prob(data)
        assert len(outputs) == len(logp) and abs(np.exp(logp).sum() - 1) < 1e-9
        assert len(mech.sample(data, 50, rng=0)) == 50
    for mech, data in [
        (m.LaplaceMechanism(1.0, 1.0), np.array([0.0, 1.0])),
        (m.GaussianMechanism(1.0, 0.5, 1e-5), np.array([0.0, 1.0])),
    ]:
        out = mech.sample(data, 30, rng=0)
        assert out.shape == (30, 2)
        assert mech.log_density(data, out).shape == (30,)


@given(st.lists(FINITE, min_size=2, max_size=4), POSITIVE)
def test_report_noisy_max_log_prob_extreme_inputs(scores, scale):
    logp = m.report_noisy_max_log_prob(scores, scale)
    assert not np.any(np.isnan(logp)) and np.all(logp <= 1e-12)
    assert math.isclose(np.exp(logp).sum(), 1.0, rel_tol=1e-9)


def test_gem_and_report_noisy_max_one_draw_per_row():
    g = np.array([0.0, 0.5, 1.0])
    rows = np.array([[1.0, 0.2, 0.1], [0.0, 5.0, 9.0]])
    logp = m.gem_log_prob(g, rows, 1.0, 0.1)
    for r in range(2):  # rows agree with the 1-d computation (same threshold t = 2 log(k/beta)/eps)
        np.testing.assert_allclose(logp[r], m.gem_log_prob(g, rows[r], 1.0, 0.1), rtol=1e-14)
    draws = m.gem_sample(g, np.repeat(rows[:1], N_DRAWS, axis=0), 1.0, 0.1, rng=8)
    assert draws.shape == (N_DRAWS,) and chisquare_pvalue(draws, logp[0]) > GOF_ALPHA
    u = np.array([0.0, 1.0, 3.0])
    rnm = m.report_noisy_max(np.repeat(u[None], N_DRAWS, axis=0), 1.0, rng=9)
    assert chisquare_pvalue(rnm, m.report_noisy_max_log_prob(u, 1.0)) > GOF_ALPHA
    assert m.report_noisy_max(rows, 1.0, size=3, rng=0).shape == (3, 2)  # size draws for every row
    with pytest.raises(ValueError, match="size"):
        m.report_noisy_max(rows, 1.0, size=-1)


def _rnm_log_prob_mpmath(z, dps=45):
    """log P[j wins] for scores ``z`` (noise scale 1) by mpmath quad at ``dps`` digits, split at the scores."""
    import mpmath as mp

    with mp.workdps(dps):
        zs = [mp.mpf(float(v)) for v in z]

        def cdf(t):
            return mp.exp(t) / 2 if t < 0 else 1 - mp.exp(-t) / 2

        pts = sorted(set(zs))
        probs = [
            mp.quad(
                lambda x, j=j: (
                    mp.exp(-abs(x - zs[j])) / 2 * mp.fprod([cdf(x - zs[i]) for i in range(len(zs)) if i != j])
                ),
                [pts[0] - 80, *pts, pts[-1] + mp.inf],
            )
            for j in range(len(zs))
        ]
        total = mp.fsum(probs)
        return np.array([float(mp.log(p / total)) for p in probs])


def test_report_noisy_max_fast_quadrature_matches_mpmath():
    # Reference: mpmath quad at 45 digits (at 30 digits quad itself is off by 5e-13 on the -55 case) on
    # [s_0 - 80, s_0, ..., s_K, inf] (the mass below s_0 - 80 is below exp(-80) relative).  Both paths (fixed
    # vectorised quadrature for rows within 80 scales, adaptive quadrature otherwise) agree with it to float64
    # rounding of log p (|log p| up to ~60: 1e-14 absolute).
    _check_rnm_paths_against_mpmath([np.array([0.0, -0.3, -2.0]), np.array([0.0, 0.0, -7.0]), np.array([0.0, -79.0])])


@pytest.mark.slow
def test_report_noisy_max_fast_quadrature_matches_mpmath_wide():
    _check_rnm_paths_against_mpmath([np.array([-55.0, 0.0, -20.0, -3.0]), np.array([0.0, 0.0, -1.5, -7.0])])


# private: _fast_log_prob_rows, _log_prob_row, _GL_T, _GL_W, _PANEL_NODES: report-noisy-max's two quadrature paths and
#   their nodes are tested against mpmath
def _check_rnm_paths_against_mpmath(cases):
    rnm = importlib.import_module("reference.mechanisms.report_noisy_max")
    for z in cases:
        ref = _rnm_log_prob_mpmath(z)
        fast = rnm._fast_log_prob_rows(z[None])[0]
        slow = rnm._log_prob_row(z, 1.0)
        assert np.max(np.abs(fast - ref)) <= 2e-14 and np.max(np.abs(slow - ref)) <= 2e-13, z
        assert np.array_equal(m.report_noisy_max_log_prob(z, 1.0), fast)


def test_report_noisy_max_fast_quadrature_power():
    # The smallest error this test sees: 5 nodes per panel instead of 8 gives 1e-13 against mpmath (measured),
    # 3 nodes 1e-7; the fast path with 3 nodes per panel must fail the 2e-14 comparison above.
    rnm = importlib.import_module("reference.mechanisms.report_noisy_max")
    z = np.array([0.0, -0.3, -9.0])
    ref = _rnm_log_prob_mpmath(z)
    saved = rnm._GL_T, rnm._GL_W, rnm._PANEL_NODES
    try:
        rnm._PANEL_NODES = 3
        rnm._GL_T, rnm._GL_W = np.polynomial.legendre.leggauss(3)
        assert np.max(np.abs(rnm._fast_log_prob_rows(z[None])[0] - ref)) > 2e-14
    finally:
        rnm._GL_T, rnm._GL_W, rnm._PANEL_NODES = saved


def test_report_noisy_max_fast_and_adaptive_paths_agree_on_random_rows():
    rnm = importlib.import_module("reference.mechanisms.report_noisy_max")
    rng = np.random.default_rng(7)
    z = -rng.uniform(0.0, 60.0, size=(8, 5)) * rng.uniform(0.01, 1.0, size=(8, 1))
    z -= z.max(axis=1, keepdims=True)
    fast = m.report_noisy_max_log_prob(z, 1.0)
    slow = np.array([rnm._log_prob_row(row, 1.0) for row in z])
    assert np.max(np.abs(fast - slow)) <= 2e-13
