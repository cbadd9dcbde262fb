"""The scoring kernels of [000 Alg. 1-2] against numpy's evaluation and mpmath (50 digits).

Under the reproducibility contract (``docs/reproducibility.md``): the per-record terms are the kernel's psi
(within ``2 psi_evaluation_error_bound`` of numpy's, both calling a ``log1p``/``pow`` the CPU chooses) scaled by
IEEE operations (bit for bit); the log-weights of the compiled kernel and of :func:`log_weights_numpy` share
their block products of ``q`` bit for bit and differ only in one ``log`` per block (a derived bound); the
log-weights and the law are checked against mpmath within the kernel's stated error.  Every bounded comparison
is shown to reject a broken evaluation (``tests/_psi_kernel_bounds.py``).
"""

import math

import mpmath
import numpy as np
import pytest

from reference.floating import FUNCTION_ULPS
from reference.mechanisms import normalize_log_weights

# private: _score_kernel, _Scorer, _psi_block, _psi_nonneg, _log_prod_q: the compiled score kernel is tested against
#   numpy
from reference.wang_xu import _score_kernel as SK
from reference.wang_xu.l1_regression import _psi_block, _Scorer
from reference.wang_xu.truncation import _psi_nonneg, psi_evaluation_error_bound
from tests._psi_kernel_bounds import (
    bits_equal as _bits_equal,
)
from tests._psi_kernel_bounds import (
    broken_psi_swapped,
    kernel_psi,
    log_weights_violations,
    psi_violations,
    scaled_term_bound,
    scaled_term_violations,
)

U = 2.0**-53
THETAS = [2.0, 1.5, 1.3, 1.1, 1.01, 1.0 + 1e-6, 1.999]


def _numpy_terms(sc, W):
    """The numpy evaluation of the terms: psi block, then the two roundings in place."""
    P = _psi_block(W, sc.Xs, sc.ys, sc.s, sc.iota, sc.theta)
    np.divide(P, sc.log_theta, out=P)
    np.multiply(P, -sc.k_eps, out=P)
    return P


def _arguments(sc, W):
    """psi's arguments ``(iota |ys_i - <xs_i, w>|) s_i`` as every scorer forms them (IEEE operations only)."""
    with np.errstate(over="ignore"):
        return (sc.iota * np.abs(sc.ys[:, None] - SK.dot_products(sc.Xs, W))) * sc.s[:, None]


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


def _adversarial(theta, d, n=157, k=203, seed=None):
    rng = np.random.default_rng(int(theta * 1000) + 7 * d if seed is None else seed)
    X = rng.standard_t(2.5, (n, d))
    X[:3] *= np.array([1e300, 1e-300, 0.0])[:, None]  # huge, tiny and zero records
    y = X @ np.full(d, 0.3) + rng.standard_t(2.5, n)
    y[5] = 5e-324
    W = rng.uniform(-1.0, 1.0, (k, d))
    W[0] = 0.0
    return X, y, W


def _scaled(P, sc):
    """The kernel's scaling of psi values, ``(P / log theta) * (-k eps)``: two IEEE roundings."""
    return (P / sc.log_theta) * -sc.k_eps


@pytest.mark.parametrize("theta", [2.0, 1.5, 1.3, 1.1, 1.0 + 1e-6])
@pytest.mark.parametrize("variant", ["printed", "standard"])
@pytest.mark.parametrize("d", [1, 3])
def test_kernel_terms_and_log_weights_against_numpy(theta, variant, d):
    X, y, W = _adversarial(theta, d)
    sc = _Scorer(X, y, 0.7, 0.5, theta, variant)
    t = _arguments(sc, W)
    ref = _numpy_terms(sc, W)
    terms = sc.terms(W)
    K = kernel_psi(t, theta)
    assert np.all(np.isfinite(ref)) and np.all(np.isfinite(terms))
    # psi: two evaluations of the same arguments, each within B(t) of the exact value
    assert not psi_violations(K, _psi_nonneg(t.ravel(), theta).reshape(t.shape), t, theta).any()
    # after psi only IEEE operations: the kernel's terms are its psi scaled, bit for bit on every CPU
    assert _bits_equal(terms, _scaled(K, sc))
    assert not scaled_term_violations(terms, ref, t, theta, sc.log_theta, -sc.k_eps).any()
    # the compiled product-of-q kernel and its numpy form: the same block products, one log each per block
    lw = sc.log_weights(W)
    lw_np = SK.log_weights_numpy(sc.Xs, sc.ys, sc.s, W, sc.iota, sc.theta, -sc.k_eps)
    assert not log_weights_violations(lw, lw_np, X.shape[0], SK.BLOCK_RECORDS, sc.log_theta, -sc.k_eps).any()
    # and the term-by-term sum within the kernel's stated bound, plus each numpy term's error against the exact
    # term (|m| B(t) / log theta and its two roundings) and that sum's own (n - 1) u sum |terms|
    assert np.all(np.abs(lw - ref.sum(axis=0)) <= _product_against_term_sum_tolerance(sc, W, t, lw, ref))


def _product_against_term_sum_tolerance(sc, W, t, lw, ref):
    """Tolerance of the product-of-q log-weights ``lw`` against numpy's sum of its terms ``ref``: the kernel's
    stated error, plus ``4 F u |lw|`` (the contract's ``FUNCTION_ULPS`` for the block logs and for
    ``log theta``, which :func:`SK.log_weight_error_bound` counts at about half an ulp), each numpy term's error
    against the exact term and the recursive sum's ``(n - 1) u sum |terms|``."""
    bound = SK.log_weight_error_bound(sc.Xs, sc.ys, sc.s, W, sc.iota, sc.theta, -sc.k_eps, lw)
    term_errors = (sc.k_eps / sc.log_theta) * psi_evaluation_error_bound(t, sc.theta) + 2.5 * U * np.abs(ref)
    return (
        bound
        + 4.0 * FUNCTION_ULPS * U * np.abs(lw)
        + term_errors.sum(axis=0)
        + ref.shape[0] * U * np.abs(ref).sum(axis=0)
    )


@pytest.mark.parametrize("theta", [2.0, 1.5, 1.01, 1.0 + 1e-6])
def test_term_comparisons_reject_broken_terms(theta):
    # power of the comparisons above, each entry judged on its own (so perturbing every entry at once is
    # perturbing each alone): a term off by 1e-12 relative, and a psi from the wrong branch
    X, y, W = _adversarial(theta, 2, n=101, k=53)
    X[10:18], y[10:18] = 0.0, 10.0 ** -np.arange(7.0, 15.0)  # tiny residuals, not multiples of u
    sc = _Scorer(X, y, 0.7, 0.5, theta, "printed")
    t = _arguments(sc, W)
    terms, ref = sc.terms(W), _numpy_terms(sc, W)
    nonzero = terms != 0.0
    caught = scaled_term_violations(terms * (1.0 + 1e-12), ref, t, theta, sc.log_theta, -sc.k_eps)
    K = kernel_psi(t, theta)
    caught_psi = psi_violations(K * (1.0 + 1e-12), _psi_nonneg(t.ravel(), theta).reshape(t.shape), t, theta)
    if theta >= 1.01:
        # bound / psi <= 9.2e-14 for theta >= 1.01 (see psi_evaluation_error_bound): every nonzero term caught
        assert np.array_equal(caught, nonzero) and np.array_equal(caught_psi, nonzero)
    else:
        # theta = 1 + 1e-6: below t = 1 the bound is 3.5e-11 to 9e-10 of psi (the formula's conditioning), so a
        # 1e-12 change is caught only on the truncated terms (t >= 1, psi = log theta exactly)
        assert np.array_equal(caught, t >= 1.0) and np.array_equal(caught_psi, t >= 1.0)
        assert 0.2 < caught.mean() < 0.8
    # the wrong branch: theta = 2's two formulas exchanged, or theta < 2 without the truncation at t = 1
    bad = _scaled(broken_psi_swapped(t, theta), sc)
    wrong = scaled_term_violations(bad, ref, t, theta, sc.log_theta, -sc.k_eps)
    if theta == 2.0:
        tiny = (t > 0.0) & (t < 1e-6)  # the large-argument formula errs by O(u) absolute there
        assert wrong[tiny].all() and tiny.sum() >= 5
    else:
        assert wrong[t >= 1.5].all() and (t >= 1.5).sum() >= 100
    # the product-of-q log-weights against the term-by-term sum: two summation algorithms, so an O(n u) tolerance
    # times k eps / log theta (measured 1.0e-12 at theta = 1.5, 1.7e-11 at 1.01, 1.6e-7 at 1 + 1e-6) that a
    # dropped term of 0.01 exceeds, but not one term off by 1e-12 relative (at most 7e-13): the per-term
    # comparisons above carry that power
    lw = sc.log_weights(W)
    tol = _product_against_term_sum_tolerance(sc, W, t, lw, ref)
    assert np.all(np.abs(lw - ref.sum(axis=0)) <= tol) and tol.max() < 2e-7
    i = int(np.argmax(np.abs(ref[:, 1]) > 0.01))
    assert abs(lw[1] - np.delete(ref, i, axis=0).sum(axis=0)[1]) > tol[1]
    off = ref.copy()
    off[i, 1] *= 1.0 + 1e-12
    assert abs(lw[1] - off.sum(axis=0)[1]) <= tol[1]


@pytest.mark.parametrize("theta", THETAS)
def test_kernel_psi_within_the_evaluation_bound_of_mpmath_and_of_numpy(theta):
    # reference: mpmath, 50 digits, at adversarial arguments; kernel against numpy on 200,000 random ones
    t = np.array(
        [
            0.0,
            5e-324,
            1e-310,
            2.2250738585072014e-308,
            1e-300,
            1e-100,
            1e-16,
            1e-8,
            1e-3,
            0.1,
            np.nextafter(0.5, 0.0),
            0.5,
            np.nextafter(0.5, 1.0),
            0.75,
            0.999,
            1.0 - U,
            1.0,
            1.0 + 2 * U,
            2.0,
            1e300,
            np.inf,
        ]
    )
    mpmath.mp.dps = 50
    th = mpmath.mpf(theta)
    exact = [mpmath.log(th) if x >= 1 else -mpmath.log1p(mpmath.mpf(x) ** th / th - mpmath.mpf(x)) for x in t]
    err = np.array([float(abs(mpmath.mpf(float(v)) - e)) for v, e in zip(kernel_psi(t, theta), exact)])
    assert np.all(err <= psi_evaluation_error_bound(t, theta))
    rng = np.random.default_rng([41, int(theta * 1000)])
    t = np.concatenate(
        [
            rng.uniform(0.0, 1.2, 100_000),
            10.0 ** rng.uniform(-300.0, 0.0, 50_000),
            1.0 - 10.0 ** rng.uniform(-16.0, -1.0, 50_000),
        ]
    )
    assert not psi_violations(kernel_psi(t, theta), _psi_nonneg(t, theta), t, theta).any()


@pytest.mark.parametrize("theta", [1.5, 1.3])
@pytest.mark.parametrize("block", [1, 7, 1000])
def test_log_weights_numpy_and_kernel_for_any_record_block(block, theta):
    X, y, W = _adversarial(theta, 2, n=2345, k=40, seed=11)
    sc = _Scorer(X, y, 1.0, 0.5, theta, "printed")
    a = SK.log_weights(sc.Xs, sc.ys, sc.s, W, sc.iota, sc.theta, -sc.k_eps, block=block)
    b = SK.log_weights_numpy(sc.Xs, sc.ys, sc.s, W, sc.iota, sc.theta, -sc.k_eps, block=block)
    n = X.shape[0]
    assert not log_weights_violations(a, b, n, block, sc.log_theta, -sc.k_eps).any()
    # power: one log-weight off by 1e-12 relative, and the log-weights without one record (psi >= 0.01)
    assert log_weights_violations(a * (1.0 + 1e-12), b, n, block, sc.log_theta, -sc.k_eps).all()
    keep = np.ones(n, dtype=bool)
    keep[np.flatnonzero(_arguments(sc, W)[:, 0] >= 0.05)[0]] = False
    dropped = SK.log_weights_numpy(sc.Xs[keep], sc.ys[keep], sc.s[keep], W, sc.iota, sc.theta, -sc.k_eps, block=block)
    assert log_weights_violations(a, dropped, n, block, sc.log_theta, -sc.k_eps)[0]


def test_log_weights_independent_of_column_block_width():
    X, y, W = _adversarial(2.0, 3, n=300, k=301, seed=3)
    sc = _Scorer(X, y, 1.0, 0.5, 2.0, "printed")
    # the wrapper's layouts (C-contiguous), so the cached compilation serves
    Xs, ys, s, WT = (np.ascontiguousarray(a) for a in (sc.Xs, sc.ys, sc.s, W.T))
    ref = np.empty(W.shape[0])
    SK._log_prod_q(Xs, ys, s, WT, 0.5, 0.0, 0.0, 0.0, 0.5, 0, 1000, 256, ref)
    out = np.empty(W.shape[0])
    for width in (1, 7, 300, 1000):
        SK._log_prod_q(Xs, ys, s, WT, 0.5, 0.0, 0.0, 0.0, 0.5, 0, 1000, width, out)
        assert _bits_equal(out, ref)


def test_single_log1p_psi_equals_the_two_pass_version():
    # one machine's numpy against itself on the same log1p arguments: the same bits (contract, section 3)
    rng = np.random.default_rng(5)
    with np.errstate(over="ignore"):
        t = np.concatenate(
            [
                rng.uniform(0.0, 2.0, 20_000),
                10.0 ** rng.uniform(-320.0, 308.0, 5_000),
                [0.0, 5e-324, 1e-300, 0.5, np.nextafter(0.5, 0.0), 1.0, np.nextafter(1.0, 0.0), np.inf, 1.7e308],
            ]
        )
    new = _psi_nonneg(t, 2.0)
    assert _bits_equal(new, _old_psi2(t))
    assert np.all(np.isfinite(new)) and new.min() >= 0.0 and new.max() <= math.log(2.0)


@pytest.mark.parametrize("theta", [2.0, 1.5, 1.01, 1.0 + 1e-6])
def test_kernel_terms_match_numpy_at_extremes(theta):
    t = np.array([0.0, 5e-324, 1e-300, 1e-8, 0.25, 0.5, 0.75, 1.0, 2.0, 1e300, np.inf])
    R = np.zeros((t.size, 1))
    L = math.log(theta)
    got = SK.psi_terms(R, t, np.ones(t.size), 1.0, theta, -L)[:, 0]
    # (psi / log theta) * (-log theta) is psi up to the two roundings, sign flipped
    ref = (_psi_nonneg(t, theta) / L) * -L
    assert _bits_equal(got, (kernel_psi(t, theta) / L) * -L)
    assert np.all(np.abs(got - ref) <= scaled_term_bound(got, ref, t, theta, L, -L))
    # exact where no function's last bit is involved: psi(0) = -log1p(-0) = 0 (log1p(+-0) = +-0, IEEE 754 clause 9
    # and C99 Annex F), and from t = 1 on both return the same float log theta (log2 - log1p(0) for numpy at 2)
    assert got[0] == 0.0 and ref[0] == 0.0 and np.all(got[7:] == ref[7:])


def test_residual_is_exact_where_a_fused_multiply_add_is_not():
    # x = (1e300, -1e300), w = (0.1, 0.1): <x, w> = 0 exactly; the coordinate sum gives 0, psi = 0
    sc = _Scorer(np.array([[1e300, -1e300]]), np.array([5e-324]), 1.0, 1.0, 2.0, "printed")
    W = np.array([[0.1, 0.1]])
    assert SK.dot_products(sc.Xs, W)[0, 0] == 0.0
    assert sc.log_weights(W)[0] == 0.0 and sc.terms(W)[0, 0] == 0.0


def test_no_nan_or_inf_from_overflowing_residuals():
    # a net point near the float range makes x0 w0 + x1 w1 = inf - inf (NaN): s = 1, psi = log theta
    sc = _Scorer(np.array([[1.5, -1.5], [1.0, 1.0]]), np.array([0.0, 0.0]), 1.0, 1.0, 1.5, "printed")
    W = np.array([[1.7e308, 1.7e308], [0.0, 0.0]])
    lw = sc.log_weights(W)
    assert np.all(np.isfinite(lw))
    assert lw[0] == pytest.approx(-2.0, rel=1e-15) and lw[1] == 0.0
    lw_np = SK.log_weights_numpy(sc.Xs, sc.ys, sc.s, W, sc.iota, sc.theta, -sc.k_eps)
    assert not log_weights_violations(lw, lw_np, 2, SK.BLOCK_RECORDS, sc.log_theta, -sc.k_eps).any()


# ---- the law against mpmath ------------------------------------------------------------------------


def _mp_log_weights(X, y, W, counts, iota, theta, k_eps):
    """Exact log-weights ``-k eps / log theta * sum_i count_i psi(iota |y_i - <x_i, w>|)`` (mpmath, 50 digits)."""
    mpmath.mp.dps = 50
    th = mpmath.mpf(theta)
    out = []
    for w in W:
        total = mpmath.mpf(0)
        for xi, yi, ci in zip(X, y, counts):
            r = mpmath.mpf(float(yi)) - mpmath.fsum(mpmath.mpf(float(a)) * mpmath.mpf(float(b)) for a, b in zip(xi, w))
            t = mpmath.mpf(iota) * abs(r)
            s = min(t, mpmath.mpf(1))
            total += int(ci) * -mpmath.log1p(s**th / th - s)  # log1p: 50 digits of 1 - 1e-290 would be 1
        out.append(-mpmath.mpf(k_eps) / mpmath.log(th) * total)
    return out


def _law_rel_error(lw, exact):
    """max_w |P(w) / P_exact(w) - 1| with ``P = normalize_log_weights(lw)`` (float64) and the exact law."""
    mpmath.mp.dps = 50
    log_z = mpmath.log(mpmath.fsum(mpmath.exp(e) for e in exact))
    logp = normalize_log_weights(lw)
    return max(float(abs(mpmath.expm1(mpmath.mpf(float(a)) - (e - log_z)))) for a, e in zip(logp, exact))


def _case(name, theta, rng):
    """(X, y, counts, W, iota) of one adversarial case (records repeated ``counts`` times)."""
    d = 2
    W = rng.uniform(-0.7, 0.7, (6, d))
    if name == "heavy":  # a Student-t sample: residuals on both sides of the truncation point
        X = rng.standard_t(2.5, (400, d))
        y = X @ np.full(d, 0.3) + rng.standard_t(2.5, 400)
        return X, y, np.ones(400, dtype=np.int64), W, 0.5
    if name == "tiny":  # every residual below 1e-290: q rounds to 1, relative accuracy of S lost
        X = rng.normal(size=(300, d)) * 1e-300
        y = rng.normal(size=300) * 1e-300
        y[:20] = 5e-324 * rng.integers(1, 50, 20)
        return X, y, np.ones(300, dtype=np.int64), W, 1e10
    if name == "near_one":  # t within 1e-9 of the truncation point 1
        X = rng.normal(size=(300, d)) * 1e-9
        y = 1.0 + rng.uniform(-1e-9, 1e-9, 300)
        return X, y, np.ones(300, dtype=np.int64), W, 1.0
    if name == "huge":  # entries near 1e300 beside ordinary records
        X = rng.standard_t(2.5, (300, d))
        y = X @ np.full(d, 0.3) + rng.standard_t(2.5, 300)
        X[:100] *= 1e300
        y[100:150] *= 1e300
        return X, y, np.ones(300, dtype=np.int64), W, 0.5
    if name == "huge_n":  # n = 500,000 (5 distinct records, q near 1/2 and near 1), 500 blocks
        X = np.array([[0.3, -0.2], [1.0, 2.0], [0.0, 0.0], [1e-3, 0.0], [2.0, -1.0]])
        y = np.array([0.1, -3.0, 1e-12, 5.0, 0.5])
        return X, y, np.full(5, 100_000, dtype=np.int64), W, 0.5
    raise ValueError(name)


@pytest.mark.parametrize("theta", [2.0, 1.5, 1.3, 1.01, 1.7])
@pytest.mark.parametrize("name", ["heavy", "tiny", "near_one", "huge", "huge_n"])
def test_law_within_stated_error_of_mpmath(name, theta):
    rng = np.random.default_rng([17, int(theta * 10), len(name)])
    X, y, counts, W, iota = _case(name, theta, rng)
    sc = _Scorer(np.repeat(X, counts, axis=0), np.repeat(y, counts), 1.0, iota, theta, "printed")
    lw = sc.log_weights(W)
    exact = _mp_log_weights(X, y, W, counts, iota, theta, sc.k_eps)
    err = np.array([float(abs(mpmath.mpf(float(a)) - e)) for a, e in zip(lw, exact)])
    bound = SK.log_weight_error_bound(sc.Xs, sc.ys, sc.s, W, sc.iota, sc.theta, -sc.k_eps, lw)
    assert np.all(np.isfinite(lw))
    assert np.all(err <= bound), (err, bound)
    law = _law_rel_error(lw, exact)
    # the law: 2 max |d lw| plus the normalisation's rounding (a few u |lw|)
    assert law <= 2 * bound.max() + 8 * U * (np.abs(lw).max() + 1.0)
    if sc.X.shape[0] <= 1000:
        assert law <= 1e-12  # the stated accuracy for n <= 1,000
    elif theta >= 1.3:
        assert law <= 1e-9  # n = 5 10^5: |lw| ~ 3.3e5, measured in docs/benchmarks.md
    else:
        # theta = 1.01: k eps / log theta is 26x that of theta = 1.3; measured 1.69e-9, the same value
        # (bit for bit) with the C library's pow in place of pow_unit, so not an effect of pow_unit
        assert law <= 5e-9


def test_law_check_catches_a_log_weight_error_of_2e_12():
    # power of the tolerance above: one log-weight off by 2e-12 moves the law by about 2e-12 > 1e-12
    rng = np.random.default_rng(5)
    X, y, counts, W, iota = _case("heavy", 2.0, rng)
    sc = _Scorer(X, y, 1.0, iota, 2.0, "printed")
    lw = sc.log_weights(W)
    exact = _mp_log_weights(X, y, W, counts, iota, 2.0, sc.k_eps)
    assert _law_rel_error(lw, exact) <= 1e-12
    bad = lw.copy()
    bad[2] += 2e-12
    assert _law_rel_error(bad, exact) > 1e-12


def test_record_block_above_the_bound_underflows():
    # q = 1/2 for every record (t >= 1): 1,100 factors in one block underflow to 0 (a non-finite
    # log-weight); BLOCK_RECORDS = 1,000 keeps every block product normal and the value right
    n = 1100
    X, y = np.zeros((n, 1)), np.full(n, 8.0)
    sc = _Scorer(X, y, 1.0, 1.0, 2.0, "printed")
    W = np.zeros((1, 1))
    good = sc.log_weights(W)[0]
    assert good == pytest.approx(-float(n), rel=4 * U)
    with np.errstate(divide="ignore"):
        bad = SK.log_weights(sc.Xs, sc.ys, sc.s, W, 1.0, 2.0, -1.0, block=n)[0]
        bad_np = SK.log_weights_numpy(sc.Xs, sc.ys, sc.s, W, 1.0, 2.0, -1.0, block=n)[0]
    assert not np.isfinite(bad) and not np.isfinite(bad_np)  # log 0 = -inf, then NaN in the compensation
