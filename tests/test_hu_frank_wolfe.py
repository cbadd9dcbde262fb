"""Algorithms 1 and 2 of 002 (reference/hu/frank_wolfe.py)."""

import math

import numpy as np
import pytest

from reference.hu import frank_wolfe as fw
from reference.hu.data import figure_dataset, initial_polytope
from reference.hu.parameters import section62_parameters
from reference.mechanisms import advanced_composition_split, exponential_log_prob
from tests._stats import GOF_ALPHA, chisquare_pvalue


def _data(n=12, d=2, seed=0):
    return np.random.default_rng(seed).standard_t(2.5, size=(n, d + 1))


def test_l1_vertices_and_radius():
    V = fw.l1_ball_vertices(3, 2.0)
    assert V.shape == (6, 3) and fw.polytope_l1_radius(V) == 2.0
    np.testing.assert_array_equal(V[:3], 2 * np.eye(3))


def test_step_sizes():
    np.testing.assert_allclose(fw.fw_step_sizes(3, "theorem2"), [2 / 3, 2 / 4, 2 / 5])
    np.testing.assert_allclose(fw.fw_step_sizes(3, "section6"), [1.0, 2 / 3, 2 / 4])
    with pytest.raises(ValueError, match="step_size"):
        fw.fw_step_sizes(2, [0.5, 1.5])
    with pytest.raises(ValueError, match="step_size"):
        fw.fw_step_sizes(2, [0.0, 0.5])
    with pytest.raises(ValueError, match="step_size"):
        fw.fw_step_sizes(2, "nesterov")


def test_data_split():
    parts = fw.data_split(10, 3)
    assert sorted(np.concatenate(parts).tolist()) == list(range(10))
    assert all(p.size in (3, 4) for p in parts)
    with pytest.raises(ValueError, match="T"):
        fw.data_split(3, 4)
    with pytest.raises(ValueError, match="T"):
        fw.data_split(3, 0)


def test_selection_law_is_the_shared_exponential_mechanism():
    # [002 Alg. 1 step 6]: exp(eps u / (2 Delta)) over the vertices, u = -<v, g~>, one row per iterate
    data = _data()
    W = np.array([[0.0, 0.0], [0.3, -0.1], [-0.2, 0.5]])
    V = fw.l1_ball_vertices(2)
    lp = fw.dp_fw_selection_log_prob(W, data[:, :-1], data[:, -1], "squared", V, 2.0, 1.0, 0.7)
    g = fw.dp_fw_robust_gradients(W, data[:, :-1], data[:, -1], "squared", 2.0, 1.0)
    delta_u = fw.dp_fw_sensitivity(V, 2.0, data.shape[0])
    assert lp.shape == (3, 4)
    for p in range(3):
        # g @ V.T against g[p] @ V.T (another BLAS call): the vertices are +-e_i, so every entry is one exact
        # product plus zeros, the same in any order, with or without FMA
        assert np.array_equal(lp[p], exponential_log_prob(-(g[p] @ V.T), 0.7, delta_u))
    assert not hasattr(fw, "em_log_prob_rows")  # the private copy is gone


def test_dp_fw_exact_law_matches_sampler():
    data = _data()
    args = (data, "squared", np.array([0.1, -0.2]), 2.0, 3, 1.0, 1.0)
    out, lp = fw.dp_fw_output_log_prob(*args)
    assert abs(np.exp(lp).sum() - 1) < 1e-12
    W = fw.heavy_tailed_dp_fw(*args, rng=4, size=20000)
    # the sampler and the law build each output by the same IEEE steps (1 - eta) w + eta v: the same bytes
    index = {r.tobytes(): i for i, r in enumerate(out)}
    draws = np.array([index[r.tobytes()] for r in W])
    assert chisquare_pvalue(draws, lp) > GOF_ALPHA


def test_dp_fw_batch_equals_single_and_paths():
    D = np.stack([_data(seed=s) for s in range(3)])
    out, lp = fw.dp_fw_output_log_prob_batch(D, "logistic", np.zeros(2), 1.0, 2, 2.0, 1.5)
    for b in range(3):
        o1, l1, paths, plp = fw.dp_fw_output_log_prob(
            D[b], "logistic", np.zeros(2), 1.0, 2, 2.0, 1.5, return_paths=True
        )
        np.testing.assert_array_equal(o1, out)
        np.testing.assert_allclose(l1, lp[b], atol=1e-12)
        assert paths.shape == (16, 2) and abs(np.exp(plp).sum() - 1) < 1e-12


def test_dp_fw_step_score_terms_rescore():
    algo = fw.HeavyTailedDPFW(epsilon=1.0, d=2, T=2, s=1.5, beta=2.0)
    data = _data(n=8)
    step, idx = algo.step(1, np.zeros(2), data)
    part = data[idx]
    total = step.score_terms(part).sum(axis=0)
    np.testing.assert_allclose(step.log_prob_from_terms(total), step.log_prob(part)[1], atol=1e-10)
    draws = step.sample(part, 5000, rng=1)
    assert chisquare_pvalue(draws, step.log_prob(part)[1]) > GOF_ALPHA


def test_dp_fw_sensitivity_formula():
    # 4 ||W||_1 sqrt(2) s / (3 m), Algorithm 1 step 6.
    assert fw.dp_fw_sensitivity(fw.l1_ball_vertices(3, 2.0), 5.0, 10) == pytest.approx(4 * 2 * math.sqrt(2) * 5 / 30)


def test_lasso_budget_variants():
    e, d, T = 0.5, 1e-4, 7
    assert fw.lasso_epsilon_step(e, d, T, "printed") == pytest.approx(e / (2 * math.sqrt(2 * T * math.log(1 / d))))
    assert fw.lasso_epsilon_step(e, d, T, "lemma2") == pytest.approx(e / (2 * math.sqrt(2 * T * math.log(2 / d))))
    assert fw.lasso_epsilon_step(e, d, T, "standard") == advanced_composition_split(e, d, T, "standard").epsilon_step
    with pytest.raises(ValueError, match="variant"):
        fw.lasso_epsilon_step(e, d, T, "other")


def test_lasso_exact_law_matches_sampler_and_rescore():
    data = _data(n=10)
    args = (data, np.zeros(2), 0.8, 3, 0.9, 0.5)
    out, lp = fw.private_lasso_output_log_prob(*args)
    W = fw.heavy_tailed_private_lasso(*args, rng=7, size=20000)
    index = {r.tobytes(): i for i, r in enumerate(out)}  # the same IEEE update steps on both sides, as above
    assert chisquare_pvalue(np.array([index[r.tobytes()] for r in W]), lp) > GOF_ALPHA
    algo = fw.HeavyTailedPrivateLasso(epsilon=0.9, delta=0.5, d=2, T=3, K=0.8)
    step = algo.step(np.array([0.3, -0.2]), 10)
    np.testing.assert_allclose(
        step.log_prob_from_terms(step.score_terms(data).sum(axis=0)), step.log_prob(data)[1], atol=1e-10
    )


def test_shrinkage():
    np.testing.assert_array_equal(fw.shrink_records([[5.0, -0.5, -1e308]], 1.0), [[1.0, -0.5, -1.0]])


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"s": 0.0}, "s"),
        ({"beta": -1.0}, "beta"),
        ({"T": 0}, "T"),
        ({"T": 13}, "T"),
        ({"epsilon": 0.0}, "epsilon"),
    ],
)
def test_dp_fw_bad_input(kwargs, match):
    args = dict(data=_data(), loss="squared", w0=np.zeros(2), s=1.0, T=2, beta=1.0, epsilon=1.0)
    args.update(kwargs)
    with pytest.raises(ValueError, match=match):
        fw.heavy_tailed_dp_fw(**args, rng=0)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"K": 0.0}, "K"),
        ({"K": -2.0}, "K"),
        ({"T": 0}, "T"),
        ({"T": 13}, "T"),
        ({"delta": 1.0}, "delta"),
        ({"delta": 0.0}, "delta"),
        ({"step_size": [0.5, 2.0]}, "step_size"),
    ],
)
def test_lasso_bad_input(kwargs, match):
    args = dict(data=_data(), w0=np.zeros(2), K=1.0, T=2, epsilon=0.5, delta=0.1)
    args.update(kwargs)
    with pytest.raises(ValueError, match=match):
        fw.heavy_tailed_private_lasso(**args, rng=0)


def test_enumeration_limit():
    with pytest.raises(ValueError, match="MAX_PATHS"):
        fw.private_lasso_output_log_prob(_data(n=40, d=10), np.zeros(10), 1.0, 10, 0.5, 0.1)


def test_end_to_end_section6_synthetic():
    n, eps = 400, 1.0
    data, w_star = figure_dataset(1, n, 8, rng=11)
    p1 = section62_parameters(1, n, eps)
    w1 = fw.heavy_tailed_dp_fw(
        data, "squared", initial_polytope(8, rng=1), p1["s"], p1["T"], p1["beta"], eps, rng=2, step_size=p1["step_size"]
    )
    assert np.abs(w1).sum() <= 1 + 1e-12
    data2, _ = figure_dataset(2, n, 8, rng=12)
    w1b = fw.heavy_tailed_dp_fw(data2, "logistic", np.zeros(8), p1["s"], p1["T"], 1.0, eps, rng=3)
    assert np.all(np.isfinite(w1b))
    p2 = section62_parameters(2, n, eps)
    data3, _ = figure_dataset(6, n, 8, rng=13)
    w2 = fw.heavy_tailed_private_lasso(
        data3, np.zeros(8), p2["K"], p2["T"], eps, p2["delta"], rng=4, step_size=p2["step_size"]
    )
    assert np.abs(w2).sum() <= 1 + 1e-12


def test_extreme_records_run():
    data = _data(n=6)
    data[0] = [1.7e308, -1.7e308, 1e300]
    data[1] = [5e-324, 0.0, -1e-300]
    w = fw.heavy_tailed_dp_fw(data, "squared", np.zeros(2), 0.5, 2, 0.25, 1.0, rng=0)
    assert np.all(np.isfinite(w))
    out, lp = fw.dp_fw_output_log_prob(data, "squared", np.zeros(2), 0.5, 2, 0.25, 1.0)
    assert np.all(np.isfinite(lp))


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_any_float = st.floats(min_value=-1.7e308, max_value=1.7e308, allow_nan=False, allow_infinity=False)


@settings(max_examples=40)
@given(st.lists(_any_float, min_size=3, max_size=3), st.sampled_from(["squared", "biweight", "logistic_l2"]))
def test_selection_laws_finite_on_any_record(rec, loss):
    data = _data(n=4)
    data[0] = rec
    if loss == "logistic_l2":
        data[:, -1] = np.where(data[:, -1] >= 0, 1.0, -1.0)
    lp = fw.dp_fw_selection_log_prob(
        np.zeros((1, 2)), data[:, :-1], data[:, -1], loss, fw.l1_ball_vertices(2), 0.5, 2.0, 1.0
    )
    assert np.all(np.isfinite(lp)) and abs(np.exp(lp).sum() - 1) < 1e-12
    sh = fw.shrink_records(data, 3.0)
    lp2 = fw.lasso_selection_log_prob(np.zeros((1, 2)), sh[:, :-1], sh[:, -1], fw.l1_ball_vertices(2), 3.0, 0.1)
    assert np.all(np.isfinite(lp2)) and abs(np.exp(lp2).sum() - 1) < 1e-12


def test_lasso_huge_K_is_a_clear_error():
    with pytest.raises(ValueError, match="too large"):
        fw.lasso_sensitivity(fw.l1_ball_vertices(2), 1e200, 3)
    with pytest.raises(ValueError, match="too small"):
        fw.lasso_sensitivity(fw.l1_ball_vertices(2), 1e-300, 3)
