"""Parameter helpers and data of 002 (reference/hu/parameters.py, reference/hu/data.py)."""

import math

import numpy as np
import pytest
from scipy import stats

from reference.hu import data as hd
from reference.hu import parameters as hp


def test_section62_parameters_as_printed():
    n, eps = 1000, 1.0
    p1 = hp.section62_parameters(1, n, eps)
    assert p1["T"] == 10 and p1["s"] == 1000.0  # floor(1000^(1/3)) = 10 exactly (float gives 9.999...)
    assert hp.section62_parameters(1, 999, 1.0)["T"] == 9
    p2 = hp.section62_parameters(2, n, eps)
    assert p2["T"] == 15 and p2["K"] == pytest.approx(1000**0.25 / 15**0.125)
    assert p2["delta"] == pytest.approx(1000**-1.1)
    p3 = hp.section62_parameters(3, n, eps, s_star=5, c=3)
    assert p3["s"] == 15 and p3["T"] == 6 and p3["K"] == pytest.approx((1000 / (15 * 6)) ** 0.25)
    p5 = hp.section62_parameters(5, n, 0.5, s_star=5, c2=2)
    assert p5["s"] == 10 and p5["k"] == 1000.0 and p5["eta"] == 0.5
    with pytest.raises(ValueError, match="s_star"):
        hp.section62_parameters(3, n, eps)
    with pytest.raises(ValueError, match="algorithm"):
        hp.section62_parameters(4, n, eps)


def test_theorem_parameters():
    p = hp.theorem2_parameters(10**4, 1.0, 10, 20, 1.0, 1.0, 0.1)
    assert p["T"] == math.floor((1e4 / math.log(2000)) ** (1 / 3))
    p3 = hp.theorem3_parameters(10**4, 1.0, 10, 0.1)
    assert p3["eta"] == pytest.approx(1 / math.sqrt(p3["T"]))
    p5 = hp.theorem5_parameters(10**4, 1.0, 1e-5, 10, 2.0, 0.1)
    assert p5["K"] == pytest.approx(1e4**0.25 / p5["T"] ** 0.125)
    p7 = hp.theorem7_parameters(10**4, 1.0, 2, 2.0, 1.0)
    assert p7["s"] >= 72 * 4 * 2 and p7["eta0"] == pytest.approx(2 / (3 * 2.0))
    p8 = hp.theorem8_parameters(10**4, 1.0, 2, 2.0, 1.0, 3.0)
    assert p8["k"] == pytest.approx(math.sqrt(3e4)) and p8["eta"] == pytest.approx(1 / 3)
    with pytest.raises(ValueError, match="mu"):
        hp.theorem7_parameters(100, 1.0, 2, 1.0, 2.0)
    with pytest.raises(ValueError, match="zeta"):
        hp.theorem2_parameters(100, 1.0, 10, 20, 1.0, 1.0, 1.0)
    with pytest.raises(ValueError, match="delta"):
        hp.theorem5_parameters(100, 1.0, 0.0, 10, 1.0, 0.1)


def test_theorem9_lower_bound():
    # tau min(s* log d, log(1/delta)) / (n eps), by hand.
    assert hp.theorem9_lower_bound(100, 0.5, 1e-3, 10, 2, 3.0) == pytest.approx(
        3 * min(2 * math.log(10), math.log(1e3)) / 50
    )
    v = hp.theorem9_lower_bound(np.array([100, 200]), 1.0, 1e-9, 100, 5, 1.0)
    assert v.shape == (2,) and v[0] == pytest.approx(2 * v[1])
    for bad in ({"delta": 1.0}, {"s_star": 11}, {"epsilon": 0.0}):
        args = dict(n=100, epsilon=1.0, delta=0.1, d=10, s_star=2, tau=1.0)
        args.update(bad)
        with pytest.raises(ValueError):
            hp.theorem9_lower_bound(**args)


@pytest.mark.parametrize(
    "name, params, dist",
    [
        ("lognormal", {"var": 0.6}, stats.lognorm(math.sqrt(0.6))),
        ("student_t", {"df": 10}, stats.t(10)),
        ("loglogistic", {"c": 0.1}, stats.fisk(0.1)),
        ("loggamma", {"c": 0.5}, stats.loggamma(0.5)),
        ("logistic", {"loc": 0.0, "scale": 0.5}, stats.logistic(0, 0.5)),
        ("laplace", {"scale": 5.0}, stats.laplace(0, 5)),
        ("normal", {"var": 5.0}, stats.norm(0, math.sqrt(5))),
    ],
)
def test_distributions_match_scipy(name, params, dist):
    x = hd.sample_distribution(name, 4000, rng=7, **params)
    assert np.all(np.isfinite(x))
    assert stats.kstest(x, dist.cdf).pvalue > 1e-3


def test_w_star_and_initial_vectors():
    w = hd.w_star_polytope(50, rng=1)
    assert abs(np.abs(w).sum() - 1) < 1e-12
    ws = hd.w_star_sparse(50, 5, rng=2)
    assert np.count_nonzero(ws) == 5 and abs(np.linalg.norm(ws) - 1) < 1e-12
    w0 = hd.initial_polytope(10, rng=3)
    assert np.abs(w0).sum() <= 1
    w1 = hd.initial_sparse(10, 3, rng=4)
    assert np.count_nonzero(w1) == 3 and np.linalg.norm(w1) <= 1
    with pytest.raises(ValueError, match="s_star"):
        hd.w_star_sparse(5, 6)


def test_figure_datasets_and_models():
    for fig in hd.FIGURES:
        data, w = hd.figure_dataset(fig, 30, 6, rng=fig, s_star=2)
        assert data.shape == (30, 7) and np.all(np.isfinite(data))
        if hd.FIGURES[fig][0] == "logistic":
            assert set(np.unique(data[:, -1])) <= {-1.0, 0.0, 1.0}
    with pytest.raises(ValueError, match="figure"):
        hd.figure_dataset(3, 10, 2)
    with pytest.raises(ValueError, match="name"):
        hd.sample_distribution("cauchy", 3)


def test_load_csv_and_npz(tmp_path):
    csv = tmp_path / "mine.csv"
    csv.write_text("a,b,target\n1,2,3\n4,5,6\n")
    np.testing.assert_array_equal(hd.load_dataset(csv), [[1, 2, 3], [4, 5, 6]])
    np.testing.assert_array_equal(hd.load_dataset(csv, target=0), [[2, 3, 1], [5, 6, 4]])
    npz = tmp_path / "mine.npz"
    np.savez(npz, X=np.array([[1.0, 2.0]]), y=np.array([3.0]))
    np.testing.assert_array_equal(hd.load_dataset(npz), [[1, 2, 3]])
    np.savez(tmp_path / "rec.npz", data=np.array([[1.0, 2.0]]))
    np.testing.assert_array_equal(hd.load_dataset(tmp_path / "rec.npz"), [[1, 2]])


def test_load_errors(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("1,2\n3,x\n")
    with pytest.raises(ValueError, match="line 2"):
        hd.load_dataset(bad)
    nan = tmp_path / "nan.csv"
    nan.write_text("1,2\n3,nan\n")
    with pytest.raises(ValueError, match="record 1"):
        hd.load_dataset(nan)
    ragged = tmp_path / "ragged.csv"
    ragged.write_text("1,2\n3,4,5\n")
    with pytest.raises(ValueError, match="lengths"):
        hd.load_dataset(ragged)
    with pytest.raises(FileNotFoundError):
        hd.load_dataset(tmp_path / "none.csv")
    np.savez(tmp_path / "k.npz", A=np.zeros((2, 2)), B=np.zeros(2))
    with pytest.raises(ValueError, match="keys"):
        hd.load_dataset(tmp_path / "k.npz")
