"""The fused scoring kernel of [000 Alg. 1-2] gives the bits of the numpy evaluation it replaces."""

import math

import numpy as np
import pytest

from reference.wang_xu import _score_kernel as SK
from reference.wang_xu.l1_regression import _psi_block, _Scorer
from reference.wang_xu.truncation import _psi_nonneg


def _numpy_terms(sc, W):
    """The numpy evaluation (before the kernel): psi block, then the two roundings in place."""
    P = _psi_block(W, sc.Xs, sc.ys, sc.s, sc.iota, sc.theta)
    np.divide(P, sc.log_theta, out=P)
    np.multiply(P, -sc.k_eps, out=P)
    return P


def _old_psi2(t):
    """``_psi_nonneg`` at theta = 2 as it was before the single-log1p rewrite (two log1p passes)."""
    s = np.minimum(t, 1.0)
    b = 1.0 - s
    out = np.log1p(b * b)
    np.subtract(math.log(2.0), out, out=out)
    small = s < 0.5
    if small.any():
        a = s[small]
        out[small] = -np.log1p(a * (0.5 * a - 1.0))
    return out


def _bits_equal(x, y):
    return x.shape == y.shape and np.array_equal(np.asarray(x).view(np.int64), np.asarray(y).view(np.int64))


@pytest.mark.parametrize("theta", [2.0, 1.5, 1.1, 1.0 + 1e-6])
@pytest.mark.parametrize("variant", ["printed", "standard"])
@pytest.mark.parametrize("d", [1, 3])
def test_kernel_terms_and_log_weights_equal_numpy_bit_for_bit(theta, variant, d):
    rng = np.random.default_rng(int(theta * 1000) + 7 * d)
    n, k = 157, 203            # odd shapes: column blocks of unequal widths
    X = rng.standard_t(2.5, (n, d))
    X[:3] *= np.array([1e300, 1e-300, 0.0])[:, None]       # huge, tiny and zero records
    y = X @ np.full(d, 0.3) + rng.standard_t(2.5, n)
    y[5] = 5e-324
    W = rng.uniform(-1.0, 1.0, (k, d))
    W[0] = 0.0
    sc = _Scorer(X, y, 0.7, 0.5, theta, variant)
    ref = _numpy_terms(sc, W)
    assert _bits_equal(sc.terms(W), ref)
    assert _bits_equal(sc.log_weights(W), ref.sum(axis=0))
    assert np.all(np.isfinite(ref))


def test_log_weights_independent_of_threads_and_block_width():
    rng = np.random.default_rng(3)
    R = rng.normal(size=(64, 300))
    ys, s = rng.normal(size=64), np.ones(64)
    ref = SK.psi_terms(R, ys, s, 0.5, 2.0, -1.0).sum(axis=0)
    assert _bits_equal(SK.psi_log_weights(R, ys, s, 0.5, 2.0, -1.0), ref)
    out = np.empty(300)
    for width in (1, 7, 300, 1000):
        SK._colsum_par(R, ys, s, 0.5, 2.0, math.log(2.0), -1.0, width, out)
        assert _bits_equal(out, ref)


def test_single_log1p_psi_equals_the_two_pass_version():
    rng = np.random.default_rng(5)
    with np.errstate(over="ignore"):
        t = np.concatenate([rng.uniform(0.0, 2.0, 20_000), 10.0 ** rng.uniform(-320.0, 308.0, 5_000),
                            [0.0, 5e-324, 1e-300, 0.5, np.nextafter(0.5, 0.0), 1.0, np.nextafter(1.0, 0.0),
                             np.inf, 1.7e308]])
    new = _psi_nonneg(t, 2.0)
    assert _bits_equal(new, _old_psi2(t))
    assert np.all(np.isfinite(new)) and new.min() >= 0.0 and new.max() <= math.log(2.0)


def test_kernel_psi_matches_numpy_psi_at_extremes():
    t = np.array([0.0, 5e-324, 1e-300, 1e-8, 0.25, 0.5, 0.75, 1.0, 2.0, 1e300, np.inf])
    R = np.zeros((t.size, 1))
    for theta in (2.0, 1.5):
        got = SK.psi_terms(R, t, np.ones(t.size), 1.0, theta, -math.log(theta))[:, 0]
        # (psi / log theta) * (-log theta) is psi up to the two roundings, sign flipped
        ref = (_psi_nonneg(t, theta) / math.log(theta)) * -math.log(theta)
        assert _bits_equal(got, ref)
