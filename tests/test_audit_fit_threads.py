"""Candidate statistics fitted on two threads (the target: "within 30 s per audit on 2 cores").

The statistical audit fits its candidate statistics (logistic regression, cells, pattern x value, joint
logistic) concurrently (``classifiers.run_fits``); the candidates, their order and every value they give must
be the same bit for bit as on one thread, or the audit's event and ``epsilon_lower`` would depend on the
machine.  Reference values: the label-vector formula of the logistic loss (the code before the buffers).
"""

import threading
import time

import numpy as np
import pytest
from scipy import optimize, special

from proofs_checks.audit.classifiers import penalised_logistic_weights, run_fits
from proofs_checks.audit.statistical import best_threshold, candidate_statistics
from proofs_checks.benchmarks.dpsniper_mechanisms import DPSNIPER_PAIRS, benchmark_mechanisms


def _draws(name, n, seed):
    mech = benchmark_mechanisms()[name]
    D, Dp = DPSNIPER_PAIRS[name]
    a = np.asarray(mech.sample(D, n, np.random.default_rng(seed)), dtype=np.float64).reshape(n, -1)
    b = np.asarray(mech.sample(Dp, n, np.random.default_rng(seed + 1)), dtype=np.float64).reshape(n, -1)
    return mech, (D, Dp), a, b


@pytest.mark.parametrize("name", ["SVT3", "NoisyHist2"])
def test_candidates_identical_on_one_and_two_threads(name):
    # SVT3: mixed atoms and values (cells, pattern x value, both logistic fits); NoisyHist2: five columns
    mech, pair, a, b = _draws(name, 6_000, 3)
    fit = len(a) // 2
    one = candidate_statistics(a, b, mech, pair, "estimate", fit_rows=fit, threads=1)
    two = candidate_statistics(a, b, mech, pair, "estimate", fit_rows=fit, threads=2)
    assert [s.name for s in one] == [s.name for s in two]
    assert len(one) >= 20  # every kind of fit ran
    for s1, s2 in zip(one, two):
        for x in (a[fit:], b[fit:]):
            assert np.array_equal(s1(x), s2(x)), s1.name  # bit for bit (no NaN: finite outputs)
    s1, s2 = one[0], two[0]  # the logistic regression: same event
    assert best_threshold(s1(a[fit:]), s1(b[fit:]), 0.0, 0.05) == best_threshold(s2(a[fit:]), s2(b[fit:]), 0.0, 0.05)


def _label_vector_weights(f, n_first, penalty):
    """The loss as written before the buffers (label vector ``y``), same optimiser."""
    y = np.concatenate([np.ones(n_first), np.zeros(len(f) - n_first)])
    X = np.hstack([np.ones((len(f), 1)), f])

    def loss(w):
        eta = X @ w
        val = np.sum(np.logaddexp(0.0, eta) - y * eta) / len(y) + penalty * np.dot(w[1:], w[1:])
        grad = X.T @ (special.expit(eta) - y) / len(y)
        grad[1:] += 2 * penalty * w[1:]
        return val, grad

    return optimize.minimize(loss, np.zeros(X.shape[1]), jac=True, method="L-BFGS-B").x


@pytest.mark.parametrize("n_first, n_rest", [(30_000, 30_000), (5_000, 41_000), (1, 999)])
def test_logistic_weights_equal_the_label_vector_formula_bit_for_bit(n_first, n_rest):
    rng = np.random.default_rng(n_first)
    f = np.vstack([rng.normal(0.3, 1.0, (n_first, 6)), rng.normal(0.0, 1.0, (n_rest, 6))])
    f[:, 5] = f[:, 0] ** 2
    # the buffered loss is checked through the L-BFGS-B path, which evaluates it exactly as before; the
    # default for these 7 columns is Newton's method (tests/test_logistic_newton.py)
    w = penalised_logistic_weights(f, n_first, 1e-3, method="lbfgs")
    # bit for bit on any CPU: both losses make the same BLAS calls on the same operands and the same logaddexp
    # and expit calls in the same order (x - 0 is x), so L-BFGS-B sees the same values whatever the CPU picks
    assert np.array_equal(w, _label_vector_weights(f, n_first, 1e-3))
    assert np.all(np.isfinite(w)) and abs(w[1]) > 0.05  # a real fit, not the start point


def test_run_fits_keeps_the_order_of_the_fits_not_of_their_ends():
    # the first fit ends last: a pool returning results as they end would put it last (caught here)
    def slow():
        time.sleep(0.2)
        return "slow"

    names = []
    assert run_fits(
        [slow, lambda: "fast", lambda: names.append(threading.current_thread().name) or "x"], threads=2
    ) == ["slow", "fast", "x"]
    assert names and names[0].startswith("audit-fit")
    assert run_fits([slow, lambda: "fast"], threads=1) == ["slow", "fast"]


def test_run_fits_raises_what_a_fit_raises():
    def bad():
        raise ValueError("fit failed")

    with pytest.raises(ValueError, match="fit failed"):
        run_fits([lambda: 1, bad], threads=2)


@pytest.mark.parametrize("threads", [0, 1.5, "2"])
def test_candidate_statistics_rejects_bad_threads(threads):
    a = np.random.default_rng(0).normal(size=(200, 2))
    with pytest.raises((ValueError, TypeError), match="threads"):
        candidate_statistics(a, a + 1, statistic="estimate", threads=threads)


_BLAS_PROBE = """
import numpy as np, hashlib
rng = np.random.default_rng(0)
B = 256
D = np.diff(np.eye(B), 2, axis=0)
H = np.diag(rng.random(B) + 1) + 1000 * (D.T @ D)
X = rng.standard_normal((200_000, 11))
h = hashlib.sha256(np.linalg.solve(H, rng.random(B)).tobytes())
h.update((X @ rng.random(11)).tobytes()); h.update((X.T @ rng.random(200_000)).tobytes())
print(h.hexdigest())
"""


def test_openblas_thread_timeout_is_set_and_changes_no_bits():
    # proofs_checks sets OPENBLAS_THREAD_TIMEOUT (when OpenBLAS's idle threads sleep) before numpy loads; the
    # solves and products of the fits must give the same bits with OpenBLAS's default spinning
    import os
    import subprocess
    import sys

    import proofs_checks  # noqa: F401

    assert "OPENBLAS_THREAD_TIMEOUT" in os.environ
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_THREAD_TIMEOUT"}
    out = [
        subprocess.run(
            [sys.executable, "-c", _BLAS_PROBE], env=dict(env, **extra), capture_output=True, text=True, check=True
        ).stdout
        for extra in ({}, {"OPENBLAS_THREAD_TIMEOUT": "4"})
    ]
    assert out[0] == out[1] and len(out[0].strip()) == 64
