"""Every mechanism is batched over leading axes: a batch equals its rows computed one by one.

Exact laws are compared bit for bit (``np.array_equal``): a batch runs the same numpy operations as each row
alone, element-wise on contiguous arrays and reduced along the contiguous last axis in numpy's fixed order, so
whatever code the CPU picks for ``exp``/``log`` it picks for both.  Samplers are compared on their random
streams (one row drawn ``size`` times uses the same numbers as ``size`` copies of the row drawn once each).
Against scipy the comparison is within a stated bound (``tests/_two_routes.py``).
"""

import numpy as np
import pytest

from reference import mechanisms as m

RNG = np.random.default_rng(20240613)


def _rows(arr):
    return arr.reshape(-1, arr.shape[-1])


# ---------------------------------------------------------------------- exponential mechanism


@pytest.mark.parametrize("weight_factor", [0.5, 1.0, 0.25])
def test_exponential_log_prob_batch_equals_rows(weight_factor):
    U = RNG.normal(size=(2, 3, 9)) * 50
    U[0, 1, 4] = 1.7e308  # a row whose gaps overflow: computed in log space, alone
    lp = m.exponential_log_prob(U, 0.7, 2.0, weight_factor=weight_factor)
    assert lp.shape == U.shape
    for row, got in zip(_rows(U), _rows(lp)):
        assert np.array_equal(got, m.exponential_log_prob(row, 0.7, 2.0, weight_factor=weight_factor))


def test_exponential_log_prob_memory_order_does_not_matter():
    U = RNG.normal(size=(40, 12))
    assert np.array_equal(m.exponential_log_prob(np.asfortranarray(U), 1.3, 0.4), m.exponential_log_prob(U, 1.3, 0.4))


def test_normalize_log_weights_matches_scipy():
    # scipy's logsumexp arithmetic, but numpy's exp/log/log1p on both sides run code the CPU chooses: within
    # tests/_two_routes.py's bound for the log-sum-exp plus the subtraction's rounding, which 1e-12 relative leaves
    from scipy.special import logsumexp

    from tests._two_routes import U, assert_within, logsumexp_gap, within

    W = RNG.normal(size=(5, 11)) * 30
    W[1, 3] = -np.inf
    W[2] = np.round(W[2])  # ties at the maximum
    got = m.normalize_log_weights(W)
    want = np.array([row - logsumexp(row) for row in W])
    gap = logsumexp_gap(W) + 2 * U * np.abs(want)
    assert_within(got, want, gap)  # -inf entries: -inf on both sides
    big = np.isfinite(want) & (np.abs(want) > 1)  # log-probabilities of a few units: 1e-12 is seen
    assert big.sum() > 40 and not within(got * (1 + 1e-12), want, gap)[big].any()


def test_exponential_sample_shapes():
    U = RNG.normal(size=(2, 3, 4))
    assert m.exponential_sample(U, 1.0, 1.0, rng=0).shape == (2, 3)
    assert m.exponential_sample(U, 1.0, 1.0, size=5, rng=0).shape == (5, 2, 3)
    assert isinstance(m.exponential_sample(U[0, 0], 1.0, 1.0, rng=0), int)
    assert m.exponential_sample(U[0, 0], 1.0, 1.0, size=7, rng=0).shape == (7,)
    assert m.exponential_sample(U[0, 0], 1.0, 1.0, size=0, rng=0).shape == (0,)
    draws = m.gumbel_max_sample([[0.0, 0.0, -np.inf], [-np.inf, -np.inf, 0.0]], size=100, rng=1)
    assert draws.dtype == np.int64 and np.all(draws[:, 0] < 2) and np.all(draws[:, 1] == 2)


def test_exponential_sample_stream_is_row_major():
    u = RNG.normal(size=6)
    repeated = np.broadcast_to(u, (500, 6))
    assert np.array_equal(
        m.exponential_sample(repeated, 2.0, 1.0, rng=3), m.exponential_sample(u, 2.0, 1.0, size=500, rng=3)
    )


# ---------------------------------------------------------------------- GEM


def _gem_instance(rows, k):
    g = RNG.uniform(0.1, 2.0, size=k)
    g[:2] = 0.0  # two data-independent candidates: some s_i are +inf
    return g, RNG.normal(size=(rows, k)) * 3


def test_gem_batch_equals_rows_bit_for_bit():
    g, Q = _gem_instance(30, 10)
    s = m.gem_normalized_scores(g, Q, 1.0, 0.1)
    assert np.isinf(s).any() and np.isfinite(s).any()
    lp = m.gem_log_prob(g, Q.reshape(5, 6, 10), 1.0, 0.1)
    assert lp.shape == (5, 6, 10)
    for row, got in zip(Q, _rows(lp)):
        assert np.array_equal(got, m.gem_log_prob(g, row, 1.0, 0.1))
        assert np.array_equal(
            m.gem_normalized_scores(g, row, 1.0, 0.1), m.gem_normalized_scores(g, row[None], 1.0, 0.1)[0]
        )


def test_gem_per_row_sensitivities_equal_rows():
    G = RNG.uniform(0.0, 2.0, size=(4, 5))
    Q = RNG.normal(size=(4, 5))
    lp = m.gem_log_prob(G, Q, 0.8, 0.2)
    for g, q, got in zip(G, Q, lp):
        assert np.array_equal(got, m.gem_log_prob(g, q, 0.8, 0.2))


def test_gem_sample_shapes_and_stream():
    g, Q = _gem_instance(3, 6)
    assert m.gem_sample(g, Q, 1.0, 0.1, rng=0).shape == (3,)
    assert m.gem_sample(g, Q, 1.0, 0.1, size=4, rng=0).shape == (4, 3)
    assert isinstance(m.gem_sample(g, Q[0], 1.0, 0.1, rng=0), int)
    assert np.array_equal(
        m.gem_sample(g, np.broadcast_to(Q[0], (300, 6)), 1.0, 0.1, rng=5),
        m.gem_sample(g, Q[0], 1.0, 0.1, size=300, rng=5),
    )


# ---------------------------------------------------------------------- report-noisy-max


def test_report_noisy_max_batch():
    U = RNG.normal(size=(2, 2, 4))
    lp = m.report_noisy_max_log_prob(U, 0.7)
    assert lp.shape == U.shape
    for row, got in zip(_rows(U), _rows(lp)):
        assert np.array_equal(got, m.report_noisy_max_log_prob(row, 0.7))
    assert m.report_noisy_max(U, 0.7, rng=0).shape == (2, 2)
    assert m.report_noisy_max(U, 0.7, size=3, rng=0).shape == (3, 2, 2)
    assert isinstance(m.report_noisy_max(U[0, 0], 0.7, rng=0), int)
    assert np.array_equal(
        m.report_noisy_max(np.broadcast_to(U[0, 0], (400, 4)), 0.7, rng=2),
        m.report_noisy_max(U[0, 0], 0.7, size=400, rng=2),
    )


# ---------------------------------------------------------------------- Peeling


def test_peeling_batch_shapes_and_stream():
    V = RNG.normal(size=(2, 3, 5))
    vals, sel = m.peeling(V, 2, 1.0, 0.1, 0.5, rng=0)
    assert vals.shape == (2, 3, 5) and sel.shape == (2, 3, 2)
    vals, sel = m.peeling(V, 2, 1.0, 0.1, 0.5, size=4, rng=0)
    assert vals.shape == (4, 2, 3, 5) and sel.shape == (4, 2, 3, 2)
    for v_run, s_run in zip(_rows(vals), _rows(sel)):
        assert set(np.flatnonzero(v_run)) <= set(s_run)
    rows_once = m.peeling(np.broadcast_to(V[0, 0], (50, 5)), 2, 1.0, 0.1, 0.5, rng=7)
    one_row_many = m.peeling(V[0, 0], 2, 1.0, 0.1, 0.5, size=50, rng=7)
    assert all(np.array_equal(a, b) for a, b in zip(rows_once, one_row_many))


def test_peeling_laws_batch_equal_rows():
    V = RNG.normal(size=(2, 3))
    seqs, lp = m.peeling_support_log_prob(V, 2, 1.0, 0.1, 0.5)
    assert seqs.shape == (6, 2) and lp.shape == (2, 6)
    for v, got in zip(V, lp):
        assert np.array_equal(got, m.peeling_support_log_prob(v, 2, 1.0, 0.1, 0.5)[1])
    picks = np.array([[0, 1], [2, 1]])
    batch = m.peeling_selection_log_prob(V, picks, 1.0, 0.1, 0.5)
    assert batch.shape == (2,)
    index = {tuple(q): i for i, q in enumerate(seqs.tolist())}
    for v, p, law, got in zip(V, picks, lp, batch):
        assert got == m.peeling_selection_log_prob(v, p, 1.0, 0.1, 0.5)
        assert got == pytest.approx(law[index[tuple(p)]], rel=1e-12)
    assert isinstance(m.peeling_selection_log_prob(V[0], [0, 1], 1.0, 0.1, 0.5), float)


# ---------------------------------------------------------------------- Laplace and Gaussian


def test_laplace_and_gaussian_batches():
    Q = RNG.normal(size=(3, 2))
    x = m.laplace_mechanism(Q, 1.0, 0.5, size=10, rng=0)
    y = m.gaussian_mechanism(Q, 1.0, 0.5, 1e-5, size=10, rng=0)
    assert x.shape == y.shape == (10, 3, 2)
    assert m.laplace_mechanism(Q, 1.0, 0.5, rng=0).shape == (3, 2)
    dl = m.laplace_log_density(x, Q, 1.0, 0.5)
    dg = m.gaussian_log_density(y, Q, m.gaussian_sigma(1.0, 0.5, 1e-5))
    assert dl.shape == dg.shape == (10, 3)
    for b in range(3):
        assert np.array_equal(dl[:, b], m.laplace_log_density(x[:, b], Q[b], 1.0, 0.5))
    assert m.laplace_log_density(np.zeros(4), 0.0, 1.0, 1.0).shape == (4,)  # scalar query


# ---------------------------------------------------------------------- bad inputs

BAD_INPUTS = [
    (lambda: m.exponential_log_prob(3.0, 1.0, 1.0), ValueError, "scores"),
    (lambda: m.exponential_log_prob(np.zeros((2, 0)), 1.0, 1.0), ValueError, "scores"),
    (lambda: m.exponential_log_prob([["a", "b"]], 1.0, 1.0), TypeError, "scores"),
    (lambda: m.exponential_log_prob([[1.0, np.nan]], 1.0, 1.0), ValueError, "scores"),
    (lambda: m.exponential_log_prob([1.0, 2.0], 1.0, 1.0, weight_factor=0.0), ValueError, "weight_factor"),
    (lambda: m.exponential_sample([1.0, 2.0], 1.0, 1.0, size=-1), ValueError, "size"),
    (lambda: m.exponential_sample([1.0, 2.0], 1.0, 1.0, size=2.5), TypeError, "size"),
    (lambda: m.exponential_sample([1.0, 2.0], "1", 1.0), TypeError, "epsilon"),
    (lambda: m.gumbel_max_sample([[0.0, np.nan]]), ValueError, "log_weights"),
    (lambda: m.gumbel_max_sample([[-np.inf, -np.inf]]), ValueError, "log_weights"),
    (lambda: m.gem_log_prob([1.0, 1.0], [[1.0, 2.0, 3.0]], 1.0, 0.1), ValueError, "sensitivities"),
    (lambda: m.gem_log_prob(np.ones((3, 2)), np.ones((2, 2)), 1.0, 0.1), ValueError, "sensitivities"),
    (lambda: m.gem_log_prob([1.0, -1.0], [[1.0, 2.0]], 1.0, 0.1), ValueError, "sensitivities"),
    (lambda: m.gem_log_prob([1.0, 1.0], 2.0, 1.0, 0.1), ValueError, "scores"),
    (lambda: m.gem_sample([1.0, 1.0], [1.0, 2.0], 1.0, 1.5), ValueError, "beta"),
    (lambda: m.report_noisy_max([[1.0, 2.0]], -1.0), ValueError, "scale"),
    (lambda: m.report_noisy_max_log_prob(np.ones((2, 0)), 1.0), ValueError, "scores"),
    (lambda: m.peeling(1.0, 1, 1.0, 0.1, 1.0), ValueError, "v"),
    (lambda: m.peeling(np.ones((2, 3)), 4, 1.0, 0.1, 1.0), ValueError, "s"),
    (lambda: m.peeling(np.ones((2, 3)), 1, 1.0, 0.1, 0.0), ValueError, "lam"),
    (lambda: m.peeling_selection_log_prob([1.0, 2.0, 3.0], [1, 1], 1.0, 0.1, 1.0), ValueError, "selected"),
    (lambda: m.peeling_selection_log_prob([1.0, 2.0, 3.0], [0.5], 1.0, 0.1, 1.0), ValueError, "selected"),
    (lambda: m.peeling_support_log_prob(np.ones((2, 3)), 1, 1.0, 1.0, 1.0), ValueError, "delta"),
    (lambda: m.laplace_mechanism(np.ones(2), 1.0, 1.0, size=-2), ValueError, "size"),
    (lambda: m.gaussian_mechanism([np.inf], 1.0, 0.5, 1e-5), ValueError, "value"),
    (lambda: m.gaussian_log_density([0.0], [0.0], 0.0), ValueError, "sigma"),
]


@pytest.mark.parametrize("call, error, name", BAD_INPUTS)
def test_bad_inputs_raise_naming_the_parameter(call, error, name):
    with pytest.raises(error, match=name):
        call()


def test_gem_normalized_scores_small_path_is_the_loop_bit_for_bit(monkeypatch):
    # The one-array path for small inputs performs the loop's float64 operations: equal bits, zeros,
    # 1e+-300 and zero denominators included.
    import importlib

    gem = importlib.import_module("reference.mechanisms.gem")
    rng = np.random.default_rng(11)
    for trial in range(300):
        k, n = int(rng.integers(1, 9)), int(rng.integers(1, 12))
        g = rng.choice([0.0, 0.1, 1.0, 1e-300, 1e300, 3.7], size=k) * rng.uniform(0, 2, size=k)
        if trial % 3 == 0:
            g = rng.uniform(0, 2, size=(n, k)) * (rng.random((n, k)) < 0.7)
        q = rng.normal(size=(n, k)) * rng.choice([1.0, 1e300, 1e-300])
        small = gem.gem_normalized_scores(g, q, 1.0, 0.1)
        with monkeypatch.context() as mp:
            mp.setattr(gem, "_SMALL_PAIRWISE", -1)
            loop = gem.gem_normalized_scores(g, q, 1.0, 0.1)
        assert np.array_equal(small, loop, equal_nan=True)
