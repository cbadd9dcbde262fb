"""psi_column_sums and psi_of_residuals (the compiled sums and terms of the 000 concentration and Lemma 9 checks)
against the numpy evaluation they replace.

Reference: the numpy expression of proofs_checks.claim_sets.wang_xu.concentration._terms (psi of
reference.wang_xu.truncation over the (n, K) matrix, then .sum(axis=0)) and of lemma9._risk.  Under the
reproducibility contract: the kernel's signed psi terms within ``2 psi_evaluation_error_bound`` of numpy's (both
call a log1p/pow the CPU chooses), and the sums bit for bit numpy's ``sum(axis=0)`` of the kernel's own terms.
"""

import numpy as np
import pytest

from proofs_checks.claim_sets.wang_xu import concentration as C
from proofs_checks.claim_sets.wang_xu import setup_for

# private: _score_kernel, _terms, _deviation, _largest_deviation, _risk, _grid_argmin: the pruned sums are
#   tested against the plain ones
from reference.wang_xu._score_kernel import psi_column_sums, psi_of_residuals
from reference.wang_xu.truncation import psi
from tests._psi_kernel_bounds import bits as _bits
from tests._psi_kernel_bounds import bits_equal, broken_psi_swapped, kernel_psi, psi_violations


def _arguments(x, y, w, iota, shift):
    """psi's arguments ``iota |y_i - x_i w_j| - c_i`` in the kernel's operations (IEEE, the same bits in numpy)."""
    arg = iota * np.abs(y[:, None] - x[:, None] * w[None, :])
    return arg if shift is None else arg - shift[:, None]


def _kernel_terms(arg, theta):
    """The kernel's signed terms: its psi of ``|a|``, negated where ``a < 0`` (psi is odd)."""
    v = kernel_psi(np.abs(arg), theta)
    return np.where(arg < 0.0, -v, v)


def _data(n=300, seed=3):
    rng = np.random.default_rng(seed)
    x = np.abs(rng.standard_t(1.8, n))
    y = 0.37 * x + rng.standard_t(2.5, n)
    x[:3], y[:3] = [0.0, 1e-300, 1e150], [0.0, 5e-324, -1e150]  # zeros, subnormals, huge
    return x, y


@pytest.mark.parametrize("theta", [2.0, 1.5, 1.01, 1.999])
@pytest.mark.parametrize("shifted", [False, True])
def test_psi_column_sums_against_numpy(theta, shifted):
    x, y = _data()
    w = np.linspace(-1, 1, 201)
    iota = 0.3
    shift = 0.01 * iota * np.abs(x) if shifted else None
    got = psi_column_sums(x, y, w, iota, theta, shift)
    assert np.all(np.isfinite(got))
    arg = _arguments(x, y, w, iota, shift)
    K = _kernel_terms(arg, theta)
    assert not psi_violations(K, psi(arg, theta), np.abs(arg), theta).any()
    assert bits_equal(got, K.sum(axis=0))
    if shifted:
        assert (arg < 0.0).sum() >= 100  # psi's odd branch is exercised


@pytest.mark.parametrize("theta", [2.0, 1.5, 1.01, 1.0 + 1e-6])
def test_psi_sum_comparisons_reject_broken_kernels(theta):
    # power of the split comparison: one term off by 1e-12 relative, a dropped term, psi without its sign for
    # negative arguments, and the wrong branch (theta = 2's formulas exchanged, or no truncation at t = 1)
    x, y = _data(200, seed=8)
    x[3:10], y[3:10] = 0.0, 10.0 ** -np.arange(7.0, 14.0)  # tiny arguments (theta = 2's cancellation)
    w = np.linspace(-1, 1, 31)
    iota = 0.3
    shift = 0.01 * iota * np.abs(x)
    got = psi_column_sums(x, y, w, iota, theta, shift)
    arg = _arguments(x, y, w, iota, shift)
    t = np.abs(arg)
    K, P = _kernel_terms(arg, theta), psi(arg, theta)
    j = 15
    i = int(np.argmax((t[:, j] > 0.3) & (t[:, j] < 1.0)))  # psi(0.3) >= 0.38 log theta: >= 4 ulps of the sum
    bad = K.copy()
    bad[i, j] *= 1.0 + 1e-12
    assert not bits_equal(bad.sum(axis=0), got)
    # as a term: rejected where 1e-12 exceeds the bound, every nonzero term for theta >= 1.01 (bound / psi at most
    # 9.2e-14), only the truncated ones at theta = 1 + 1e-6 (3.5e-11 to 9e-10 below t = 1: the conditioning)
    caught = psi_violations(K * (1.0 + 1e-12), P, t, theta)
    assert np.array_equal(caught, (K != 0.0) if theta >= 1.01 else (t >= 1.0))
    assert not bits_equal(np.delete(K, i, axis=0).sum(axis=0), got)
    negative = arg < 0.0
    assert negative.sum() >= 10 and psi_violations(np.abs(K), P, t, theta)[negative].all()
    wrong = psi_violations(np.sign(arg) * broken_psi_swapped(t, theta), P, t, theta)
    if theta == 2.0:
        tiny = (t > 0.0) & (t < 1e-6)
        assert wrong[tiny].all() and tiny.sum() >= 5
    else:
        assert wrong[t >= 1.5].all() and (t >= 1.5).sum() >= 100


@pytest.mark.parametrize("lemma", [4, 10])
def test_concentration_terms_fast_path_against_numpy_path(lemma):
    setup = setup_for(1 if lemma == 4 else 2)
    p = setup.parameters(100, 1.0)
    data = setup.model.sample(100, np.random.default_rng(5))
    pts = np.linspace(-1, 1, 201)[:, None]
    X, y, iota, zeta = data[:, :1], data[:, 1], p["iota"], p["zeta"]
    fast = C._terms(setup, X, y, pts, iota, zeta, lemma, psi)
    slow = C._terms(setup, X, y, pts, iota, zeta, lemma, lambda a, th: psi(a, th))
    arg = _arguments(X[:, 0], y, pts[:, 0], iota, iota * zeta * np.abs(X[:, 0]) if lemma == 10 else None)
    K, P = _kernel_terms(arg, setup.theta), psi(arg, setup.theta)
    assert not psi_violations(K, P, np.abs(arg), setup.theta).any()
    # each path sums its own terms in numpy's order; the slow path's residuals come from X @ pts.T, which with
    # one column is one rounded product per entry whatever the BLAS kernel, so the same arguments
    assert bits_equal(fast, K.sum(axis=0) / (X.shape[0] * iota))
    assert bits_equal(slow, P.sum(axis=0) / (X.shape[0] * iota))


def test_bad_lengths_raise():
    with pytest.raises(ValueError, match="equal, positive length"):
        psi_column_sums(np.ones(3), np.ones(2), np.zeros(4), 1.0, 2.0)


@pytest.mark.parametrize("theta", [2.0, 1.5])
@pytest.mark.parametrize("k", [1, 101])
def test_psi_of_residuals_against_numpy_and_lemma9_risk(theta, k):
    from proofs_checks.claim_sets.wang_xu.lemma9 import _risk

    rng = np.random.default_rng(11)
    x = np.abs(rng.standard_t(1.8, 2000))
    y = 0.37 * x + rng.standard_t(2.5, 2000)
    x[:2], y[:2] = [0.0, 1e150], [5e-324, -1e150]
    w = np.linspace(-1, 1, k) if k > 1 else np.array(0.123)
    t = 0.2 * np.abs(y[:, None] - x[:, None] * np.ravel(w)[None, :])
    ref = psi(t, theta)
    got = psi_of_residuals(x, y, w, 0.2, theta)
    assert not psi_violations(got, ref, t, theta).any()
    assert bits_equal(got, kernel_psi(t, theta))
    # the risk of Lemma 9's minimiser (also for a 0-d w): each path is numpy's sum of its own terms
    assert bits_equal(_risk(psi, theta, x, y, 0.2, w), (got.sum(axis=0) / (x.size * 0.2)).reshape(w.shape))
    assert bits_equal(
        _risk(lambda a, th: psi(a, th), theta, x, y, 0.2, w), (ref.sum(axis=0) / (x.size * 0.2)).reshape(w.shape)
    )


@pytest.mark.parametrize("theta", [2.0, 1.5, 1.01, 1.999])
def test_psi_is_one_lipschitz(theta):
    # the bound behind concentration._largest_deviation: slope (1 - x^(theta-1)) / (1 - x + x^theta/theta) <= 1
    # on [0, 1], psi constant beyond 1 and odd; checked on difference quotients of a fine grid through 0
    x = np.concatenate([-np.logspace(-12, 1, 4000)[::-1], [0.0], np.logspace(-12, 1, 4000)])
    slopes = np.diff(psi(x, theta)) / np.diff(x)
    assert np.all(slopes <= 1.0 + 1e-9)


@pytest.mark.parametrize("lemma", [4, 5, 7, 8, 10])
@pytest.mark.parametrize("step", [1, 5, 12, 1000])
def test_largest_deviation_equals_the_full_net_maximum(lemma, step):
    # reference: the maximum of _deviation over every net point (the check's evaluation before the pruning)
    from proofs_checks.rates.trials_wang_xu import net_excess_risk

    setup = setup_for(1 if lemma in (4, 5) else 2)
    rng = np.random.default_rng(11)
    for n, eps in [(100, 0.25), (100, 1.0)]:
        p = setup.parameters(n, eps)
        pts_1d, excess, _ = net_excess_risk(setup.model, float(setup.radius), float(p["zeta"]))
        pts, L_D = pts_1d[:, None], setup.model.noise_law.abs_moment(1) + excess
        for _ in range(5):
            data = setup.model.sample(n, rng)
            full = np.max(
                C._deviation(
                    lemma, C._terms(setup, data[:, :1], data[:, 1], pts, p["iota"], p["zeta"], lemma, psi), L_D
                )
            )
            got = C._largest_deviation(setup, data[:, :1], data[:, 1], pts, p["iota"], p["zeta"], lemma, L_D, step)
            assert _bits(got) == _bits(full)


@pytest.mark.parametrize("step", [2, 6, 200])
def test_lemma9_grid_argmin_equals_the_full_grid(step):
    # reference: np.argmin of lemma9._risk over the whole grid (the check's evaluation before the pruning)
    from proofs_checks.claim_sets.wang_xu import lemma9 as L9

    setup = setup_for(2)
    rng = np.random.default_rng(7)
    grid = np.linspace(-1, 1, L9.GRID)
    for n, eps, factor in [(2000, 0.25, 1.0), (2000, 4.0, 4.0)]:
        iota = setup.parameters(n, eps)["iota"] * factor
        for _ in range(3):
            data = setup.model.sample(n, rng)
            risks = L9._risk(psi, setup.theta, data[:, 0], data[:, 1], iota, grid)
            j, value = L9._grid_argmin(setup.theta, data[:, 0], data[:, 1], iota, grid, step)
            assert j == int(np.argmin(risks)) and _bits(value) == _bits(risks[j])
