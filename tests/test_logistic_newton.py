"""Newton's method for the auditor's logistic regression (L-BFGS-B was slow on SVT3 under load).

``logistic.penalised_logistic_weights`` minimises mean log-loss + ``penalty * ||w||^2`` (intercept free).
Newton's method (exact Hessian, Armijo backtracking, L-BFGS-B hand-over) replaced scipy's L-BFGS-B up to
``NEWTON_MAX_COLUMNS`` columns.  Reference values: the objective summed exactly (``math.fsum`` of the float64
terms) at L-BFGS-B's point (scipy defaults, the code before) and at a tightly converged scipy
``trust-exact`` point (exact gradient and Hessian written here from the formula, independent of the code
under test); the stationarity condition (gradient 0) written out from the formula.
"""

import math
import os
import subprocess
import sys
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import optimize, special

from proofs_checks.audit import classifiers, logistic
from proofs_checks.audit.logistic import NEWTON_MAX_COLUMNS, penalised_logistic_weights

# private: _features, _gram: the logistic fit's feature map and its Gram product are the subject
from proofs_checks.audit.projection import _features, fit_logistic
from proofs_checks.benchmarks.dpsniper_mechanisms import DPSNIPER_PAIRS, benchmark_mechanisms

#: Newton's objective may exceed L-BFGS-B's by at most this (relative): float64 summation of 10^5 terms.
OBJ_RTOL = 1e-12


def _objective(f, n1, penalty, w):
    """The objective summed exactly (fsum of the float64 terms), so that two points are ranked by the loss
    and not by the rounding of a long sum."""
    eta = f @ w[1:] + w[0]
    t = np.logaddexp(0.0, eta)
    t[:n1] -= eta[:n1]
    return math.fsum(t) / len(f) + penalty * math.fsum(w[1:] ** 2)


def _gradient(f, n1, penalty, w):
    X = np.hstack([np.ones((len(f), 1)), f])
    r = special.expit(X @ w)
    r[:n1] -= 1.0
    g = X.T @ r / len(f)
    g[1:] += 2 * penalty * w[1:]
    return g


def _trust_exact(f, n1, penalty):
    """Independent reference: scipy's trust-region method with the exact Hessian, converged to gtol 1e-12."""
    X = np.hstack([np.ones((len(f), 1)), f])
    y = np.concatenate([np.ones(n1), np.zeros(len(f) - n1)])
    ridge = np.full(X.shape[1], 2 * penalty)
    ridge[0] = 0.0

    def fun(w):
        eta = X @ w
        return np.mean(np.logaddexp(0.0, eta) - y * eta) + 0.5 * np.dot(ridge * w, w)

    def jac(w):
        return X.T @ (special.expit(X @ w) - y) / len(y) + ridge * w

    def hess(w):
        p = special.expit(X @ w)
        return (X * (p * (1 - p))[:, None]).T @ X / len(y) + np.diag(ridge)

    return optimize.minimize(
        fun, np.zeros(X.shape[1]), jac=jac, hess=hess, method="trust-exact", options={"gtol": 1e-12, "maxiter": 500}
    ).x


def _selection_features(name, n, seed, joint=False):
    """Fitting rows of the audit's selection split for a benchmark pair (``n`` per input), as features of
    ``fit_logistic`` (arcsinh coordinates and squares) or of ``fit_joint_logistic``."""
    mech = benchmark_mechanisms()[name]
    D, Dp = DPSNIPER_PAIRS[name]
    a = np.asarray(mech.sample(D, n, np.random.default_rng(seed)), dtype=np.float64).reshape(n, -1)
    b = np.asarray(mech.sample(Dp, n, np.random.default_rng(seed + 1)), dtype=np.float64).reshape(n, -1)
    if joint:
        captured = {}
        real = classifiers.penalised_logistic_weights

        def capture(f, n_first, penalty, method="auto"):
            captured["f"] = f
            return real(f, n_first, penalty, method)

        classifiers.penalised_logistic_weights = capture
        try:
            classifiers.fit_joint_logistic(a, b)
        finally:
            classifiers.penalised_logistic_weights = real
        return captured["f"], n
    x = np.vstack([a, b])
    center = np.median(x, axis=0)
    scale = np.subtract(*np.percentile(x, [75, 25], axis=0))
    return _features(x, center, np.where(scale > 0, scale, 1.0)), n


@pytest.mark.parametrize(
    "name, joint",
    [
        ("SVT3", False),
        ("NoisyHist1", False),
        ("NoisyHist2", False),
        ("SVT1", False),
        ("SVT3", True),
        ("NoisyHist2", True),
    ],
)
def test_newton_objective_at_most_lbfgs_and_weights_match_trust_region(name, joint):
    f, n1 = _selection_features(name, 15_000, 11, joint)
    assert f.shape[1] + 1 <= NEWTON_MAX_COLUMNS  # the default path is Newton here
    w_auto = penalised_logistic_weights(f, n1, 1e-3)
    w_newton = penalised_logistic_weights(f, n1, 1e-3, method="newton")
    assert np.array_equal(w_auto, w_newton)
    w_lbfgs = penalised_logistic_weights(f, n1, 1e-3, method="lbfgs")
    o_newton, o_lbfgs = _objective(f, n1, 1e-3, w_newton), _objective(f, n1, 1e-3, w_lbfgs)
    assert o_newton <= o_lbfgs + OBJ_RTOL * o_lbfgs
    # stationary: the gradient is zero to rounding (L-BFGS-B stops at gtol 1e-5 or ftol 2.2e-9)
    assert np.max(np.abs(_gradient(f, n1, 1e-3, w_newton))) <= 1e-9
    # the weights are the minimiser's: an independent trust-region solve agrees to 1e-6 relative
    w_ref = _trust_exact(f, n1, 1e-3)
    assert np.max(np.abs(w_newton - w_ref)) <= 1e-6 * max(1.0, np.max(np.abs(w_ref)))


@pytest.mark.parametrize("name", ["Laplace", "ReportNoisyMax3"])
def test_the_spline_of_the_smoothed_threshold_is_fitted_by_the_same_newton(name, monkeypatch):
    # one Newton solver: SmoothLogRatio's five-column spline (threshold_scoring="cross-fit-smooth") is fitted by
    # penalised_logistic_weights, to the minimiser (docs/auditor.md, "One Newton solver")
    from proofs_checks.audit import smooth

    fits = []
    monkeypatch.setattr(
        smooth,
        "penalised_logistic_weights",
        lambda f, n1, penalty, method: (
            fits.append((f, n1, method)) or penalised_logistic_weights(f, n1, penalty, method)
        ),
    )
    mech, (D, Dp) = benchmark_mechanisms()[name], DPSNIPER_PAIRS[name]
    a = np.asarray(mech.sample(D, 20_000, np.random.default_rng(3)), dtype=np.float64).reshape(-1)
    b = np.asarray(mech.sample(Dp, 20_000, np.random.default_rng(4)), dtype=np.float64).reshape(-1)
    spline = smooth.SmoothLogRatio(a, b)
    ((f, n1, method),) = fits
    assert spline.ok and f.shape == (40_000, 4) and n1 == 20_000 and method == "newton"
    assert np.max(np.abs(_gradient(f, n1, smooth.SMOOTH_PENALTY, spline.w))) <= 1e-9
    w_ref = _trust_exact(f, n1, smooth.SMOOTH_PENALTY)
    assert np.max(np.abs(spline.w - w_ref)) <= 1e-6 * max(1.0, np.max(np.abs(w_ref)))


def test_the_objective_comparison_has_power_l_bfgs_b_defaults_stop_short():
    # the tolerance OBJ_RTOL separates a converged fit from L-BFGS-B's default stop on SVT3's
    # ill-conditioned features (z and z^2 of ten coordinates; condition number about 10^5): the
    # comparison above would catch a Newton that stopped where L-BFGS-B does
    f, n1 = _selection_features("SVT3", 15_000, 11)
    w_newton = penalised_logistic_weights(f, n1, 1e-3, method="newton")
    w_lbfgs = penalised_logistic_weights(f, n1, 1e-3, method="lbfgs")
    o_newton, o_lbfgs = _objective(f, n1, 1e-3, w_newton), _objective(f, n1, 1e-3, w_lbfgs)
    assert o_lbfgs - o_newton > 1e3 * OBJ_RTOL * o_lbfgs


def test_newton_takes_a_handful_of_steps_on_the_benchmark(monkeypatch):
    f, n1 = _selection_features("SVT3", 15_000, 11)
    solves = []
    real = np.linalg.solve
    monkeypatch.setattr(logistic.np.linalg, "solve", lambda a, b: solves.append(1) or real(a, b))
    monkeypatch.setattr(logistic.optimize, "minimize", lambda *a, **k: pytest.fail("fell back to L-BFGS-B"))
    penalised_logistic_weights(f, n1, 1e-3, method="newton")
    assert 2 <= len(solves) <= 10


_VALUES = st.sampled_from([0.0, -0.0, 1e300, -1e300, 1e-300, -1e-300, 5e-324, -5e-324, 1.0, -2.5, 1.7e308])


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(_VALUES, _VALUES), min_size=8, max_size=40), st.integers(1, 7), st.integers(0, 2**32 - 1))
def test_heavy_tailed_outputs_no_nan_no_warning_objective_at_most_lbfgs(rows, n1_frac, seed):
    x = np.array(rows, dtype=np.float64)
    x = x + np.random.default_rng(seed).normal(0.0, 1.0, x.shape) * (np.arange(len(x)) % 3 == 0)[:, None]
    n1 = max(1, min(len(x) - 1, len(x) * n1_frac // 8))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        proj = fit_logistic(x[:n1], x[n1:])
        assert np.all(np.isfinite(proj.weights))
        center, scale = proj.center, proj.scale
        f = _features(x, center, scale)
        w_lbfgs = penalised_logistic_weights(f, n1, 1e-3, method="lbfgs")
        o_newton, o_lbfgs = _objective(f, n1, 1e-3, proj.weights), _objective(f, n1, 1e-3, w_lbfgs)
    assert np.isfinite(o_newton) and o_newton <= o_lbfgs + OBJ_RTOL * o_lbfgs


@pytest.mark.parametrize(
    "case", ["separable", "constant columns", "duplicate columns", "zero penalty singular", "tiny subnormal"]
)
def test_degenerate_designs_fall_back_cleanly(case):
    rng = np.random.default_rng(5)
    f = rng.normal(size=(2_000, 3))
    penalty = 1e-3
    if case == "separable":
        f[:1000, 0] += 50.0  # the label is a threshold on column 0
    elif case == "constant columns":
        f[:, 1] = 0.0
        f[:, 2] = 7.0  # collinear with the free intercept
    elif case == "duplicate columns":
        f[:, 2] = f[:, 1]
    elif case == "zero penalty singular":
        f[:, 2] = 1.0  # = the intercept, nothing penalised:
        penalty = 0.0  # the Hessian is exactly singular
    else:
        f = f * 5e-324
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        w = penalised_logistic_weights(f, 1000, penalty)
        w_lbfgs = penalised_logistic_weights(f, 1000, penalty, method="lbfgs")
    assert np.all(np.isfinite(w))
    o, o_lbfgs = _objective(f, 1000, penalty, w), _objective(f, 1000, penalty, w_lbfgs)
    assert o <= o_lbfgs + OBJ_RTOL * o_lbfgs


@pytest.mark.parametrize("n_first", [0, 2_000])
def test_one_label_only_keeps_lbfgs_bit_for_bit(n_first):
    # the intercept's minimiser is at -+infinity: Newton would crawl; auto keeps the old path
    f = np.random.default_rng(1).normal(size=(2_000, 4))
    assert np.array_equal(
        penalised_logistic_weights(f, n_first, 1e-3), penalised_logistic_weights(f, n_first, 1e-3, method="lbfgs")
    )


def test_wide_designs_keep_lbfgs():
    f = np.random.default_rng(2).normal(size=(300, NEWTON_MAX_COLUMNS))  # NEWTON_MAX_COLUMNS + 1 columns
    assert np.array_equal(
        penalised_logistic_weights(f, 150, 1e-3), penalised_logistic_weights(f, 150, 1e-3, method="lbfgs")
    )


def test_bad_method_is_rejected():
    with pytest.raises(ValueError, match="method.*'bfgs'"):
        penalised_logistic_weights(np.zeros((4, 1)), 2, 1e-3, method="bfgs")


def test_newton_is_deterministic_on_repeated_runs():
    f, n1 = _selection_features("NoisyHist2", 10_000, 4)
    w = penalised_logistic_weights(f, n1, 1e-3)
    assert all(np.array_equal(w, penalised_logistic_weights(f, n1, 1e-3)) for _ in range(2))


def test_gram_matches_the_product_and_ignores_the_blas_thread_count():
    rng = np.random.default_rng(3)
    a, b = rng.normal(size=(10_007, 7)), rng.normal(size=(10_007, 7))
    g = logistic._gram(a, b)
    assert np.allclose(g, a.T @ b, rtol=1e-12, atol=1e-9)
    probe = (
        "import numpy as np, hashlib; from proofs_checks.audit.logistic import _gram;"
        "r = np.random.default_rng(3); a = r.normal(size=(200_003, 21)); b = r.normal(size=(200_003, 21));"
        "print(hashlib.sha256(_gram(a, b).tobytes()).hexdigest())"
    )
    hashes = set()
    for threads in ("1", "2"):
        env = dict(os.environ, OPENBLAS_NUM_THREADS=threads)
        hashes.add(
            subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True).stdout
        )
    assert len(hashes) == 1


def test_warm_start_on_every_mth_row_gives_the_same_minimiser_in_fewer_full_steps(monkeypatch):
    # 2 x 40,000 rows with NEWTON_WARM_ROWS = 2^12 (2^15 by default: 10^6 fitting rows at 10^7 calls, too
    # slow for a default test): Newton first runs on every 19th row
    monkeypatch.setattr(logistic, "NEWTON_WARM_ROWS", 2**12)
    f, n1 = _selection_features("NoisyHist2", 40_000, 8)
    assert len(f) // logistic.NEWTON_WARM_ROWS >= 16
    rows = []
    real_gram = logistic._gram
    monkeypatch.setattr(logistic, "_gram", lambda a, b: rows.append(len(a)) or real_gram(a, b))
    w_warm = penalised_logistic_weights(f, n1, 1e-3)
    warm_full = rows.count(len(f))
    assert 0 < warm_full < len(rows)  # the subsample ran first
    rows.clear()
    monkeypatch.setattr(logistic, "NEWTON_WARM_ROWS", 10**9)
    w_cold = penalised_logistic_weights(f, n1, 1e-3)
    assert rows.count(len(f)) > warm_full  # measured: 7 full-data Hessians cold, 4 warm
    assert np.max(np.abs(w_warm - w_cold)) <= 1e-9 * np.max(np.abs(w_cold))
    o_warm, o_cold = _objective(f, n1, 1e-3, w_warm), _objective(f, n1, 1e-3, w_cold)
    o_lbfgs = _objective(f, n1, 1e-3, penalised_logistic_weights(f, n1, 1e-3, method="lbfgs"))
    assert max(o_warm, o_cold) <= min(o_lbfgs, o_warm, o_cold) * (1 + OBJ_RTOL)
