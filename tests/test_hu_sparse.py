"""Algorithms 3 and 5 of 002 (reference/hu/sparse.py)."""

import math

import numpy as np
import pytest

from reference.hu import sparse as sp
from reference.hu.data import figure_dataset, initial_sparse
from reference.hu.parameters import section62_parameters
from reference.mechanisms import peeling, peeling_support_log_prob
from tests._stats import GOF_ALPHA, chisquare_pvalue


def _data(n=12, d=4, seed=0):
    return np.random.default_rng(seed).standard_t(2.5, size=(n, d + 1))


def test_projection():
    out = sp.project_l2_ball(np.array([[3.0, 4.0], [0.3, 0.4], [0.0, 0.0], [1.7e308, -1.7e308]]))
    np.testing.assert_allclose(out[0], [0.6, 0.8])
    np.testing.assert_allclose(out[1], [0.3, 0.4])
    np.testing.assert_array_equal(out[2], [0.0, 0.0])
    np.testing.assert_allclose(out[3], [math.sqrt(0.5), -math.sqrt(0.5)])
    assert np.all(np.isfinite(sp.project_l2_ball(np.array([5e-324, 1e-300]))))


def test_peeling_over_rows_selection_law_matches_reference():
    # Algorithms 3 and 5 run [002 Alg. 4] on one row per run through the shared sampler
    v = np.array([0.3, -1.0, 0.8])
    seqs, lp = peeling_support_log_prob(v, 2, 1.0, 0.1, 0.2)
    _, sel = peeling(np.broadcast_to(v, (20000, 3)), 2, 1.0, 0.1, 0.2, rng=5)
    assert not hasattr(sp, "peeling_rows")  # the private copy is gone
    index = {tuple(q): i for i, q in enumerate(seqs.tolist())}
    draws = np.array([index[tuple(q)] for q in sel.tolist()])
    assert chisquare_pvalue(draws, lp) > GOF_ALPHA


def test_iht_lambda_and_alg5_lambda():
    # 2 K^2 eta0 (sqrt(s)+1)/m (Algorithm 3 step 6); 4 k sqrt(2) eta / m (Algorithm 5 step 7).
    assert sp.iht_lambda(2.0, 0.5, 4, 10) == pytest.approx(2 * 4 * 0.5 * 3 / 10)
    assert sp.sparse_opt_lambda(3.0, 0.5, 6) == pytest.approx(4 * 3 * math.sqrt(2) * 0.5 / 6)


def test_iht_step_exact_law_and_sampler():
    data = _data(n=5, d=3)
    step = sp.IHTPeelingStep(w=np.array([0.0, 0.6, 0.0]), m=5, epsilon=1.0, delta=0.1, K=2.0, s=1)
    seqs, lp = step.log_prob(data)
    assert abs(np.exp(lp).sum() - 1) < 1e-9
    sel = step.sample(data, 8000, rng=3)
    index = {tuple(q): i for i, q in enumerate(seqs.tolist())}
    assert chisquare_pvalue(np.array([index[tuple(q)] for q in sel.tolist()]), lp) > GOF_ALPHA


def test_alg5_step_v_matches_algorithm_half_step():
    data = _data(n=6)
    step = sp.SparseOptPeelingStep(
        w=np.array([0.5, 0.0, 0.0, 0.1]), m=6, epsilon=1.0, delta=0.1, s=2, k=2.0, loss="squared"
    )
    v = step.v(data)
    np.testing.assert_allclose(
        v, sp.sparse_opt_half_step(step.w[None], data[:, :-1], data[:, -1], "squared", 2.0, 1.0, 0.5)[0]
    )


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"K": 0.0}, "K"),
        ({"T": 0}, "T"),
        ({"T": 13}, "T"),
        ({"s": 0}, "s"),
        ({"s": 5}, "s"),
        ({"eta0": 0.0}, "eta0"),
        ({"delta": 1.5}, "delta"),
        ({"epsilon": -1.0}, "epsilon"),
        ({"w1": np.array([0.5, 0.5, 0.5, 0.0])}, "sparse"),
        ({"w1": np.array([2.0, 0.0, 0.0, 0.0])}, "w1"),
    ],
)
def test_alg3_bad_input(kwargs, match):
    args = dict(data=_data(), w1=np.zeros(4), K=1.0, T=2, eta0=0.5, s=2, epsilon=1.0, delta=0.1)
    args.update(kwargs)
    with pytest.raises(ValueError, match=match):
        sp.heavy_tailed_sparse_linear_regression(**args, rng=0)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"beta": 0.0}, "beta"),
        ({"k": -1.0}, "k"),
        ({"T": 13}, "T"),
        ({"s": 0}, "s"),
        ({"eta": 0.0}, "eta"),
        ({"delta": 0.0}, "delta"),
        ({"w1": np.array([1.0, 1.0, 1.0, 0.0])}, "sparse"),
    ],
)
def test_alg5_bad_input(kwargs, match):
    args = dict(
        data=_data(), loss="squared", w1=np.zeros(4), s=2, beta=1.0, k=1.0, T=2, eta=0.5, epsilon=1.0, delta=0.1
    )
    args.update(kwargs)
    with pytest.raises(ValueError, match=match):
        sp.heavy_tailed_sparse_optimization(**args, rng=0)


def test_end_to_end_section6_synthetic():
    n, d, s_star, eps = 600, 20, 3, 1.0
    data, w_star = figure_dataset(7, n, d, rng=1, s_star=s_star)
    p3 = section62_parameters(3, n, eps, s_star=s_star, c=2)
    w3 = sp.heavy_tailed_sparse_linear_regression(
        data, initial_sparse(d, s_star, rng=2), p3["K"], p3["T"], p3["eta0"], p3["s"], eps, p3["delta"], rng=3
    )
    assert np.count_nonzero(w3) <= p3["s"] and np.linalg.norm(w3) <= 1 + 1e-12
    for fig in (8, 9):
        dfig, _ = figure_dataset(fig, n, d, rng=fig, s_star=s_star)
        assert np.all(
            np.isfinite(
                sp.heavy_tailed_sparse_linear_regression(
                    dfig, np.zeros(d), p3["K"], p3["T"], p3["eta0"], p3["s"], eps, p3["delta"], rng=4
                )
            )
        )
    p5 = section62_parameters(5, n, eps, s_star=s_star, c2=1)
    for fig in (10, 11):
        dfig, _ = figure_dataset(fig, n, d, rng=fig, s_star=s_star)
        w5 = sp.heavy_tailed_sparse_optimization(
            dfig,
            "logistic_l2",
            initial_sparse(d, p5["s"], rng=5),
            p5["s"],
            p5["beta"],
            p5["k"],
            p5["T"],
            p5["eta"],
            eps,
            p5["delta"],
            rng=6,
        )
        assert np.count_nonzero(w5) <= p5["s"] and np.all(np.isfinite(w5))


def test_mechanism_objects_sample_rows():
    data = _data()
    m3 = sp.SparseLinearRegression(epsilon=1.0, delta=0.1, d=4, T=2, K=1.0, s=2)
    assert m3.sample(data, 5, rng=0).shape == (5, 4)
    m5 = sp.SparseOptimization(epsilon=1.0, delta=0.1, d=4, T=2, s=2, k=1.0, loss="squared")
    assert m5.sample(data, 5, rng=0).shape == (5, 4)


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_any_float = st.floats(min_value=-1.7e308, max_value=1.7e308, allow_nan=False, allow_infinity=False)


@settings(max_examples=40)
@given(st.lists(_any_float, min_size=4, max_size=4), st.floats(1e-100, 1e150))
def test_alg3_and_alg5_finite_on_any_record(rec, K):
    data = _data(n=4, d=3)
    data[1] = rec
    w = sp.heavy_tailed_sparse_linear_regression(data, np.zeros(3), K, 2, 0.5, 1, 1.0, 0.1, rng=0)
    assert np.all(np.isfinite(w)) and np.linalg.norm(w) <= 1 + 1e-12
    w5 = sp.heavy_tailed_sparse_optimization(data, "biweight", np.zeros(3), 1, 1.0, 1.0, 2, 0.5, 1.0, 0.1, rng=0)
    assert np.all(np.isfinite(w5))


def test_huge_K_is_a_clear_error():
    with pytest.raises(ValueError, match="too large"):
        sp.iht_lambda(1e200, 0.5, 2, 3)
    with pytest.raises(ValueError, match="too small"):
        sp.iht_lambda(1e-300, 0.5, 2, 3)


@pytest.mark.parametrize("scale", [0.5, 40.0])
def test_check_iht_shrinks_exactly_like_clip(scale):
    # _check_iht skips the copy of the features when none exceeds K (speed): the arrays it
    # returns must equal np.clip of the records bit for bit in both cases (scale 0.5: nothing to clip in x,
    # y beyond K in a few rows; scale 40: features beyond K too), with the same strides (same BLAS kernel)
    data = np.random.default_rng(3).standard_t(2.5, size=(300, 6)) * scale
    data[0, -1] = 100.0
    K = 5.0
    # private: _check_iht: the skipped copy of the features (a speed-up) is the subject
    Xs, ys, *_ = sp._check_iht(data, np.zeros(5), K, 3, 0.5, 2, 1.0, 1e-5)
    ref = np.clip(data, -K, K)
    assert np.array_equal(Xs, ref[:, :-1]) and np.array_equal(ys, ref[:, -1])
    assert Xs.strides == ref[:, :-1].strides
