"""risk_column_sums (the compiled truncated empirical risk of [000 eq. (2)]) against the numpy path.

Reference: the numpy path of reference.wang_xu.l1_regression.truncated_empirical_risk (record_psi_terms, then
.sum(axis=0) / n / iota).  Under the reproducibility contract the comparison has two parts: the kernel's psi
terms within ``2 psi_evaluation_error_bound`` of numpy's (both call a log1p/pow the CPU chooses), and the sum:
bit for bit numpy's ``sum(axis=0) / n / iota`` of the kernel's own terms (IEEE operations in numpy's order).
"""

import numpy as np
import pytest

from reference.wang_xu import l1_regression as L

# private: _risk_kernel, _score_kernel, _scaled: the compiled risk kernel is tested against numpy
from reference.wang_xu._risk_kernel import HAVE_NUMBA, risk_column_sums
from reference.wang_xu._score_kernel import dot_products
from tests._psi_kernel_bounds import bits_equal, broken_psi_swapped, kernel_psi, psi_violations


def _numpy_risk(W, X, y, iota, theta):
    T = L.record_psi_terms(W, X, y, iota, theta)
    return T.sum(axis=0) / T.shape[0] / float(iota)


def _split(W, X, y, iota, theta):
    """``(t, kernel terms, numpy terms)``: psi's arguments (IEEE operations, the same bits in both paths) and
    psi of them by the compiled ``_psi`` and by numpy."""
    Xs, ys, s = L._scaled(X, y)
    with np.errstate(over="ignore"):
        t = (iota * np.abs(ys[:, None] - dot_products(Xs, W))) * s[:, None]
    return t, kernel_psi(t, theta), L.record_psi_terms(W, X, y, iota, theta)


def _risk_mismatches(got, W, X, y, iota, theta):
    """``(terms, sum)``: the entries whose psi differs from numpy's by more than ``2 B(t)``, and whether ``got``
    differs in any bit from numpy's sum of the kernel's terms, ``K.sum(axis=0) / n / iota``."""
    t, K, P = _split(W, X, y, iota, theta)
    return psi_violations(K, P, t, theta), not bits_equal(got, K.sum(axis=0) / K.shape[0] / float(iota))


@pytest.mark.parametrize("theta", [2.0, 1.5, 1.01, 1.999])
@pytest.mark.parametrize("d,k", [(1, 2), (1, 3), (1, 201), (2, 7), (3, 50)])
def test_kernel_risk_against_numpy(theta, d, k):
    rng = np.random.default_rng(4)
    n = 300
    X = rng.standard_t(1.8, (n, d))
    y = X @ np.full(d, 0.37) + rng.standard_t(2.5, n)
    X[:3, 0], y[:3] = [0.0, 1e-300, 1e150], [0.0, 5e-324, -1e150]  # zeros, subnormals, huge
    X[3], y[3] = 1e300, -1e300  # residual overflows: psi = log theta
    W = rng.uniform(-1, 1, (k, d))
    got = L.truncated_empirical_risk(W, X, y, 0.3, theta)
    assert np.all(np.isfinite(got))
    terms_off, sum_off = _risk_mismatches(got, W, X, y, 0.3, theta)
    assert not terms_off.any() and not sum_off
    # the compiled sums themselves, before the scaling, are numpy's order of the kernel's terms
    Xs, ys, s = L._scaled(X, y)
    _, K, P = _split(W, X, y, 0.3, theta)
    assert bits_equal(risk_column_sums(Xs, ys, s, W, 0.3, theta), K.sum(axis=0))
    # the numpy path is the same operations on numpy's terms (its bits move with the CPU's log1p/pow)
    assert bits_equal(_numpy_risk(W, X, y, 0.3, theta), P.sum(axis=0) / n / 0.3)


@pytest.mark.parametrize("theta", [2.0, 1.5, 1.01, 1.0 + 1e-6])
def test_risk_comparison_rejects_broken_kernels(theta):
    # power of the split comparison, on the broken kernels a bug could give: one term off by 1e-12 relative
    # (inside the sum and in the term), one term dropped from the sum, and psi from the wrong branch
    rng = np.random.default_rng(9)
    n, d, k = 200, 2, 9
    X = rng.standard_t(1.8, (n, d))
    y = X @ np.full(d, 0.37) + rng.standard_t(2.5, n)
    W = rng.uniform(-1, 1, (k, d))
    X[:8], y[:8] = 0.0, 10.0 ** -np.arange(7.0, 15.0)  # tiny residuals (where theta = 2's large formula fails)
    iota = 0.3
    t, K, P = _split(W, X, y, iota, theta)
    got = L.truncated_empirical_risk(W, X, y, iota, theta)
    i = int(np.argmax((t[:, 1] > 0.3) & (t[:, 1] < 1.0)))  # an untruncated term of column 1, psi >= 0.25 psi(1)
    bad = K.copy()
    bad[i, 1] *= 1.0 + 1e-12
    # the sum of a perturbed term: caught bit for bit whatever theta (psi(0.3) >= 0.38 log theta, so the term is
    # at least 1/530 of its column's sum of 200 terms and 1e-12 of it at least 4 ulps of that sum)
    assert not bits_equal(bad.sum(axis=0) / n / iota, got)
    # the perturbed term itself: caught where 1e-12 exceeds the bound (bound / psi <= 9.2e-14 for theta >= 1.01;
    # 3.5e-11 to 9e-10 at theta = 1 + 1e-6, the conditioning of the formula, where only t >= 1 is caught)
    caught = psi_violations(K * (1.0 + 1e-12), P, t, theta)
    assert np.array_equal(caught, (K != 0.0) if theta >= 1.01 else (t >= 1.0))
    assert psi_violations(bad, P, t, theta)[i, 1] == (theta >= 1.01)
    # a dropped term: the sum misses one row
    dropped = np.delete(K, i, axis=0).sum(axis=0) / n / iota
    assert not bits_equal(dropped, got)
    # the wrong branch
    wrong = psi_violations(broken_psi_swapped(t, theta), P, t, theta)
    if theta == 2.0:
        tiny = (t > 0.0) & (t < 1e-6)  # the large-argument formula errs by O(u) absolute there
        assert wrong[tiny].all() and tiny.sum() >= 5
    else:
        assert wrong[t >= 1.5].all() and (t >= 1.5).sum() >= 100


def test_single_point_and_bad_input_unchanged():
    X, y = np.array([[1.0], [2.0]]), np.array([0.5, -1.0])
    # one net point takes the numpy path: the same evaluation, the same bits
    assert L.truncated_empirical_risk([0.1], X, y, 0.5) == float(_numpy_risk([0.1], X, y, 0.5, 2.0)[0])
    with pytest.raises(ValueError, match="W"):
        L.truncated_empirical_risk(np.zeros((3, 2)), X, y, 0.5)
    with pytest.raises(ValueError, match="W"):
        L.truncated_empirical_risk(np.array([[0.0], [np.nan]]), X, y, 0.5)
    with pytest.raises(ValueError):
        risk_column_sums(np.zeros((0, 1)), np.zeros(0), np.zeros(0), np.zeros((2, 1)), 1.0, 2.0)
    assert HAVE_NUMBA in (True, False)


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_HEAVY = st.floats(min_value=-1e300, max_value=1e300, allow_nan=False, allow_subnormal=True)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(
    x=st.lists(_HEAVY, min_size=2, max_size=12),
    y=st.lists(_HEAVY, min_size=2, max_size=12),
    w=st.lists(st.floats(min_value=-1.0, max_value=1.0), min_size=2, max_size=6),
    theta=st.sampled_from([2.0, 1.5, 1.3, 1.01]),
)
def test_kernel_risk_against_numpy_over_the_float_range(x, y, w, theta):
    """Records anywhere in [-1e300, 1e300] (zeros and subnormals included), d = 1, K >= 2 net points: the compiled
    sums are finite, within [0, log theta / iota], their terms within the evaluation bound of numpy's and their
    sum numpy's sum of those terms, bit for bit."""
    n = min(len(x), len(y))
    X, Y, W = np.array(x[:n])[:, None], np.array(y[:n]), np.array(w)[:, None]
    got = L.truncated_empirical_risk(W, X, Y, 0.3, theta)
    assert np.all(np.isfinite(got)) and np.all(got >= 0.0) and np.all(got <= np.log(theta) / 0.3 * (1 + 1e-12))
    terms_off, sum_off = _risk_mismatches(got, W, X, Y, 0.3, theta)
    assert not terms_off.any() and not sum_off
