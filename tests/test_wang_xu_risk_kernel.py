"""risk_column_sums (the compiled truncated empirical risk of 000) gives the bits of the numpy evaluation.

Reference: the numpy path of reference.wang_xu.l1_regression.truncated_empirical_risk
(record_psi_terms, then .sum(axis=0) / n / iota), compared bit for bit.
"""

import numpy as np
import pytest

from reference.wang_xu import l1_regression as L
from reference.wang_xu._risk_kernel import HAVE_NUMBA, risk_column_sums


def _numpy_risk(W, X, y, iota, theta):
    T = L.record_psi_terms(W, X, y, iota, theta)
    return T.sum(axis=0) / T.shape[0] / float(iota)


@pytest.mark.parametrize("theta", [2.0, 1.5, 1.01, 1.999])
@pytest.mark.parametrize("d,k", [(1, 2), (1, 3), (1, 201), (2, 7), (3, 50)])
def test_same_bits_as_numpy(theta, d, k):
    rng = np.random.default_rng(4)
    n = 300
    X = rng.standard_t(1.8, (n, d))
    y = X @ np.full(d, 0.37) + rng.standard_t(2.5, n)
    X[:3, 0], y[:3] = [0.0, 1e-300, 1e150], [0.0, 5e-324, -1e150]      # zeros, subnormals, huge
    X[3], y[3] = 1e300, -1e300                                          # residual overflows: psi = log theta
    W = rng.uniform(-1, 1, (k, d))
    got = L.truncated_empirical_risk(W, X, y, 0.3, theta)
    want = _numpy_risk(W, X, y, 0.3, theta)
    assert np.array_equal(got.view(np.int64), want.view(np.int64))
    assert np.all(np.isfinite(got))


def test_single_point_and_bad_input_unchanged():
    X, y = np.array([[1.0], [2.0]]), np.array([0.5, -1.0])
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
@given(x=st.lists(_HEAVY, min_size=2, max_size=12), y=st.lists(_HEAVY, min_size=2, max_size=12),
       w=st.lists(st.floats(min_value=-1.0, max_value=1.0), min_size=2, max_size=6),
       theta=st.sampled_from([2.0, 1.5, 1.3, 1.01]))
def test_same_bits_as_numpy_over_the_float_range(x, y, w, theta):
    """Records anywhere in [-1e300, 1e300] (zeros and subnormals included), d = 1, K >= 2 net points: the compiled
    sums are finite, within [0, log theta / iota], and bit for bit the numpy path's."""
    n = min(len(x), len(y))
    X, Y, W = np.array(x[:n])[:, None], np.array(y[:n]), np.array(w)[:, None]
    got = L.truncated_empirical_risk(W, X, Y, 0.3, theta)
    want = _numpy_risk(W, X, Y, 0.3, theta)
    assert np.all(np.isfinite(got)) and np.all(got >= 0.0) and np.all(got <= np.log(theta) / 0.3 * (1 + 1e-12))
    assert np.array_equal(got.view(np.int64), want.view(np.int64))
