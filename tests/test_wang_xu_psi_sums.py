"""psi_column_sums (the compiled sums of the 000 concentration checks) gives the bits of the numpy evaluation.

Reference: the numpy expression it replaces in proofs_checks.claim_sets.wang_xu.concentration._terms
(psi of reference.wang_xu.truncation over the (n, K) matrix, then .sum(axis=0)), compared bit for bit.
"""

import numpy as np
import pytest

from proofs_checks.claim_sets.wang_xu import concentration as C
from proofs_checks.claim_sets.wang_xu._common import setup_for
from reference.wang_xu._score_kernel import psi_column_sums
from reference.wang_xu.truncation import psi


def _bits(a):
    return np.asarray(a, dtype=np.float64).view(np.int64)


def _numpy_sums(x, y, w, iota, theta, shift):
    arg = iota * np.abs(y[:, None] - x[:, None] @ w[None, :])
    if shift is not None:
        arg = arg - shift[:, None]
    return psi(arg, theta).sum(axis=0)


@pytest.mark.parametrize("theta", [2.0, 1.5, 1.01, 1.999])
@pytest.mark.parametrize("shifted", [False, True])
def test_same_bits_as_numpy(theta, shifted):
    rng = np.random.default_rng(3)
    n, k = 300, 201
    x = np.abs(rng.standard_t(1.8, n))
    y = 0.37 * x + rng.standard_t(2.5, n)
    x[:3], y[:3] = [0.0, 1e-300, 1e150], [0.0, 5e-324, -1e150]      # zeros, subnormals, huge
    w = np.linspace(-1, 1, k)
    iota = 0.3
    shift = 0.01 * iota * np.abs(x) if shifted else None
    got = psi_column_sums(x, y, w, iota, theta, shift)
    assert np.array_equal(_bits(got), _bits(_numpy_sums(x, y, w, iota, theta, shift)))
    assert np.all(np.isfinite(got))


@pytest.mark.parametrize("lemma", [4, 10])
def test_concentration_terms_fast_path_equals_numpy_path(lemma):
    setup = setup_for(1 if lemma == 4 else 2)
    p = setup.parameters(100, 1.0)
    data = setup.model.sample(100, np.random.default_rng(5))
    pts = np.linspace(-1, 1, 201)[:, None]
    fast = C._terms(setup, data[:, :1], data[:, 1], pts, p["iota"], p["zeta"], lemma, psi)
    slow = C._terms(setup, data[:, :1], data[:, 1], pts, p["iota"], p["zeta"], lemma, lambda a, th: psi(a, th))
    assert np.array_equal(_bits(fast), _bits(slow))


def test_bad_lengths_raise():
    with pytest.raises(ValueError, match="equal, positive length"):
        psi_column_sums(np.ones(3), np.ones(2), np.zeros(4), 1.0, 2.0)


@pytest.mark.parametrize("theta", [2.0, 1.5])
@pytest.mark.parametrize("k", [1, 101])
def test_psi_of_residuals_same_bits_and_lemma9_risk(theta, k):
    from proofs_checks.claim_sets.wang_xu.lemma9 import _risk
    from reference.wang_xu._score_kernel import psi_of_residuals
    rng = np.random.default_rng(11)
    x = np.abs(rng.standard_t(1.8, 2000))
    y = 0.37 * x + rng.standard_t(2.5, 2000)
    x[:2], y[:2] = [0.0, 1e150], [5e-324, -1e150]
    w = np.linspace(-1, 1, k) if k > 1 else np.array(0.123)
    ref = psi(0.2 * np.abs(y[:, None] - x[:, None] * np.ravel(w)[None, :]), theta)
    assert np.array_equal(_bits(psi_of_residuals(x, y, w, 0.2, theta)), _bits(ref))
    # the risk of Lemma 9's minimiser: fast path (psi itself) = numpy path (a wrapper), also for a 0-d w
    assert np.array_equal(_bits(_risk(psi, theta, x, y, 0.2, w)), _bits(_risk(lambda a, t: psi(a, t), theta, x, y, 0.2, w)))


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
            full = np.max(C._deviation(lemma, C._terms(setup, data[:, :1], data[:, 1], pts, p["iota"], p["zeta"],
                                                       lemma, psi), L_D))
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
