"""expected_phi's kernel: accuracy on a stored mpmath stress grid, bit-reproducibility, the fused mean.

The stress grid (``tests/data/catoni_stress.npz``, about 20 000 points with ``|a|`` up to 1e300 and
``b`` from 0 and subnormals to 1e300) and its reference values are written by
``python -m proofs_checks.formulas.catoni_stress`` (provenance inside the file).
"""

import json
import math
import os
import pathlib
import subprocess
import sys

import mpmath as mp
import numpy as np
import pytest

from proofs_checks.formulas import catoni_stress

# private: _ephi_kernel, _erfcx_half, _erfcx_half_pair, _j23, _j23_safe, _R, _table_args, _PARALLEL_MIN, _colsum_par:
#   the kernel's internals are tested against mpmath and against each other
from reference.hu import _ephi_kernel as K
from reference.hu.catoni import PHI_BOUND, expected_phi, robust_gradient, robust_mean

ROOT = pathlib.Path(__file__).resolve().parents[1]
STRESS = ROOT / "tests" / "data" / "catoni_stress.npz"
#: Absolute error allowed against the mpmath reference (the kernel's stated accuracy).
ABS_TOL = 6e-16


@pytest.fixture(scope="module")
def stress():
    return catoni_stress.load(STRESS)


def _abs_errors(values, hi, lo):
    # values - (hi + lo) with hi, lo a double-double: values - hi is exact where it matters (Sterbenz)
    return np.abs((values - hi) - lo)


# ----------------------------------------------------------------------------- accuracy


def test_stress_file_provenance(stress):
    a, b, hi, lo, prov = stress
    assert a.size == b.size == hi.size == lo.size == prov["points"] >= 20_000
    assert "mpmath, 36 digits" in prov["reference"]
    assert prov["cross_check"]["points"] >= 1000 and prov["cross_check"]["max_relative_difference"] < 1e-30
    assert np.abs(a).max() >= 1e300 and b.max() >= 1e300
    assert np.any(b == 0) and np.any((b > 0) & (b < 2.2250738585072014e-308))  # zero and subnormal b
    assert np.all(np.isfinite(a)) and np.all(b >= 0)


def test_expected_phi_within_6e16_of_mpmath_on_the_stress_grid(stress):
    a, b, hi, lo, _ = stress
    v = expected_phi(a, b)
    err = _abs_errors(v, hi, lo)
    worst = int(np.argmax(err))
    assert err[worst] <= ABS_TOL, (a[worst], b[worst], v[worst], hi[worst], err[worst])
    assert np.all(np.abs(v) <= PHI_BOUND)
    assert np.all((v == 0) | (np.sign(v) == np.sign(a)) | (a == 0))


def test_expected_phi_relative_accuracy_in_the_normal_range(stress):
    # not part of the stated accuracy, but kept: small values keep their relative accuracy
    a, b, hi, lo, _ = stress
    v = expected_phi(a, b)
    normal = np.abs(hi) >= 1e-290
    rel = _abs_errors(v, hi, lo)[normal] / np.abs(hi[normal])
    assert rel.max() < 4e-15


def test_erfcx_table_against_mpmath():
    x = np.concatenate(
        [np.linspace(0.0, 16.0, 3201), np.nextafter(np.arange(1, 33) * 0.5, 0.0), [16.0, 20.0, 40.0, 1e10, np.inf]]
    )
    got = np.array([K._erfcx_half(float(t)) for t in x])
    worst_table = worst_tail = 0.0
    for t, g in zip(x, got):
        if math.isinf(t):
            assert g == 0.0
            continue
        with mp.workdps(40):
            ref = mp.erfc(mp.mpf(t) / mp.sqrt(2)) * mp.exp(mp.mpf(t) ** 2 / 2)
            rel = float(abs(g - ref) / ref)
        if t < 16.0:
            worst_table = max(worst_table, rel)
        else:  # asymptotic series, where Q(x) < 1e-57: only needs to be roughly right
            worst_tail = max(worst_tail, rel)
    assert worst_table < 4e-16
    assert worst_tail < 1e-10
    pairs = [K._erfcx_half_pair(float(x1), float(x2)) for x1, x2 in zip(x[:-5], x[-6::-1])]
    assert all(p == (K._erfcx_half(float(x1)), K._erfcx_half(float(x2))) for p, x1, x2 in zip(pairs, x[:-5], x[-6::-1]))


def test_j_tables_against_mpmath():
    from proofs_checks.formulas.mills_table import j_mp

    x = np.concatenate(
        [
            np.linspace(-1.0, 9.49, 2101),
            -1.0 + 0.125 * np.arange(1, 84),
            np.nextafter(-1.0 + 0.125 * np.arange(1, 85), -2.0),
        ]
    )
    worst_rel = worst_abs = 0.0
    with mp.workdps(40):
        for t in x:
            j2, j3 = K._j23(float(t))
            for k, v in ((2, j2), (3, j3)):
                ref = j_mp(k, float(t))
                err = abs(v - ref)
                worst_abs = max(worst_abs, float(err))
                if t <= 3.0:
                    worst_rel = max(worst_rel, float(err / ref))
    assert worst_rel < 1e-15  # where J_k >= 2e-4 (Horner at the piece ends: a few ulps)
    assert worst_abs < 1e-15  # 1 ulp of J_3(-1) ~ 4; far below 1e-17 wherever x > 3
    assert K._j23(9.5) == (0.0, 0.0) and K._j23(np.inf) == (0.0, 0.0)
    # the branch-free copy used in the vectorised pass: the same bits
    xs = np.concatenate([x, [9.5, 20.0, np.inf]])
    assert all(K._j23_safe(float(t)) == K._j23(float(t)) for t in xs)


@pytest.mark.slow
def test_expected_phi_bigger_sweep_against_both_mpmath_references():
    from proofs_checks.formulas import catoni as F

    rng = np.random.default_rng(77)
    a1, b1 = catoni_stress.switching_points(rng, n_each=200)
    n = 30_000
    a2 = rng.choice([-1.0, 1.0], n) * 10.0 ** rng.uniform(-6, 3, n)
    b2 = 10.0 ** rng.uniform(-6, 4, n)
    a3 = rng.choice([-1.0, 1.0], n) * 10.0 ** rng.uniform(-320, 308, n)
    b3 = 10.0 ** rng.uniform(-320, 308, n)
    a = np.concatenate([a1, a2, a3])
    b = np.concatenate([b1, b2, b3])
    v = expected_phi(a, b)
    refs = F.reference_values(a, b, "closed")
    err = np.array([float(abs(mp.mpf(x) - r)) for x, r in zip(v, refs)])
    assert err.max() <= ABS_TOL, (a[np.argmax(err)], b[np.argmax(err)])
    idx = rng.choice(a2.size, 1500, replace=False) + a1.size
    quad = F.reference_values(a[idx], b[idx], "quad")
    err_q = np.array([float(abs(mp.mpf(x) - r)) for x, r in zip(v[idx], quad)])
    assert err_q.max() <= ABS_TOL


# ----------------------------------------------------------------------------- bit-reproducibility
# Batch, scalar, reordered, threaded and uncompiled calls run one scalar kernel on each element: the same IEEE
# operations (numba without fast-math or contraction) and the same C-library exp/expm1/pow and scipy erf, which
# one process resolves once for every caller.  So these bits agree on any CPU, whatever code it picks.


def test_batch_equals_scalar_calls_bit_for_bit(stress):
    a, b, *_ = stress
    rng = np.random.default_rng(5)
    idx = rng.choice(a.size, 3000, replace=False)
    batch = expected_phi(a, b)[idx]
    scalar = np.array([expected_phi(float(x), float(y)) for x, y in zip(a[idx], b[idx])])
    assert np.array_equal(batch.view(np.int64), scalar.view(np.int64))


def test_batch_result_independent_of_shape_order_and_threads(numba_all_threads):
    rng = np.random.default_rng(11)
    n = 60_000  # above the parallel threshold
    a = rng.choice([-1.0, 1.0], n) * 10.0 ** rng.uniform(-4, 2, n)
    b = 10.0 ** rng.uniform(-4, 3, n)
    whole = expected_phi(a, b)
    pieces = np.concatenate([expected_phi(a[i : i + 997], b[i : i + 997]) for i in range(0, n, 997)])
    assert np.array_equal(whole, pieces)
    perm = rng.permutation(n)
    assert np.array_equal(expected_phi(a[perm], b[perm]), whole[perm])
    assert np.array_equal(expected_phi(a.reshape(300, 200).T, b.reshape(300, 200).T), whole.reshape(300, 200).T)
    assert np.array_equal(expected_phi(a[::-3], b[::-3]), whole[::-3])


@pytest.mark.parametrize("band_share", [0.1, 0.3, 1.0])
def test_vectorised_band_pass_equals_scalar_calls(band_share):
    # blocks with at least a quarter of band entries go through the branch-free (vectorised) pass
    rng = np.random.default_rng(21)
    n = 4000
    a = rng.choice([-1.0, 1.0], n) * rng.uniform(0.02, 3.0, n)
    b = rng.uniform(0.05, 0.99, n)  # b < 1: the band (or the small-a moments)
    other = rng.random(n) > band_share
    a[other] = rng.choice([-1.0, 1.0], other.sum()) * 10.0 ** rng.uniform(-8, 2, other.sum())
    b[other] = np.where(rng.random(other.sum()) < 0.5, 1e-3 * np.abs(a[other]), 10.0 ** rng.uniform(0, 3, other.sum()))
    batch = expected_phi(a, b)
    scalar = np.array([expected_phi(float(x), float(y)) for x, y in zip(a, b)])
    assert np.array_equal(batch.view(np.int64), scalar.view(np.int64))
    G = (a * 7.0).reshape(100, 40)
    # the estimator's terms come from the curve table of beta (tests/test_catoni_curve.py): within
    # the 6e-16 of each term, not bit for bit, of the mean of expected_phi
    assert np.allclose(robust_gradient(G, 7.0, 1.0), _reference_mean(G, 7.0, 1.0), rtol=0, atol=7.0 * 1e-15)


def test_uncompiled_kernel_gives_the_same_bits(stress):
    """The kernel run as plain Python (NUMBA_DISABLE_JIT=1) equals the compiled one bit for bit."""
    a, b, *_ = stress
    rng = np.random.default_rng(3)
    idx = rng.choice(a.size, 400, replace=False)
    pts = [(float(x).hex(), float(y).hex()) for x, y in zip(a[idx], b[idx])]
    code = (
        "import json, sys, numpy as np\n"
        "from reference.hu import _ephi_kernel as K\n"
        "assert not K.HAVE_NUMBA\n"
        "pts = json.loads(sys.stdin.read())\n"
        "a = np.array([float.fromhex(p[0]) for p in pts]); b = np.array([float.fromhex(p[1]) for p in pts])\n"
        "print(json.dumps([v.hex() for v in K.ephi_array(a, b).tolist()]))\n"
    )
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    res = subprocess.run(
        [sys.executable, "-c", code],
        input=json.dumps(pts),
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=300,
    )
    assert res.returncode == 0, res.stderr
    plain = np.array([float.fromhex(h) for h in json.loads(res.stdout)])
    assert np.array_equal(plain, K.ephi_array(a[idx], b[idx]))


# ----------------------------------------------------------------------------- the estimator


def _reference_mean(x, s, beta, axis=0):
    """s * mean(expected_phi(x/s, |x/s|/sqrt(beta))) with the overflow limit, in numpy."""
    root = math.sqrt(beta)
    with np.errstate(all="ignore"):
        a = x / s
        b = np.abs(a) / root
    huge = ~(np.isfinite(a) & np.isfinite(b) & (np.abs(a) <= 1e300) & (b <= 1e300))
    vals = expected_phi(np.where(huge, 0.0, a), np.where(huge, 0.0, b))
    terms = np.where(huge, np.sign(x) * PHI_BOUND * math.erf(root / math.sqrt(2.0)), vals)
    return s * np.mean(terms, axis=axis)


def _terms_mean(x, s, beta, axis=0):
    """s * mean of the per-sample terms (K.standard_terms), in numpy's order."""
    terms, bad = K.standard_terms(np.asarray(x, dtype=np.float64), s, beta)
    assert bad == 0
    return s * np.mean(terms, axis=axis)


@pytest.mark.parametrize(
    "s,beta", [(50.0, 1.0), (5.0, 1.0), (1.0, 0.01), (0.3, 4.0), (1e-300, 2.0), (2.0, 1e12), (2.0, 1e-12)]
)
def test_robust_gradient_paths_agree_bit_for_bit_and_with_expected_phi(s, beta):
    rng = np.random.default_rng(1)
    G = rng.standard_t(2.5, size=(3000, 37))
    G[0, 0] = 0.0
    G[1, 1] = 1.7e308
    G[2, 2] = -5e-324
    ref = _terms_mean(G, s, beta)
    # the same terms added in numpy's order for axis 0 of a C-ordered array (row after row): IEEE additions
    assert np.array_equal(robust_gradient(G, s, beta), ref)  # fused column sums
    assert np.array_equal(robust_mean(np.asfortranarray(G), s, beta, axis=0), ref)  # generic path
    assert np.array_equal(robust_mean(G.T, s, beta, axis=1), _terms_mean(G.T, s, beta, axis=1))
    assert np.allclose(robust_mean(G.T, s, beta, axis=1), ref, rtol=0, atol=1e-15 * s)
    col = G[:, 5].copy()
    assert robust_mean(col, s, beta) == _terms_mean(col, s, beta)
    # every term within 6e-16 of expected_phi's (each within 6e-16 of the truth): the means within 1.2e-15
    assert np.allclose(ref, _reference_mean(G, s, beta), rtol=0, atol=1.3e-15 * s)
    if K.curve_table(beta) is None:  # outside the curve tables' beta range: expected_phi bit for bit
        assert np.array_equal(ref, _reference_mean(G, s, beta))


def test_robust_gradient_large_input_uses_threads_and_matches(numba_all_threads):
    rng = np.random.default_rng(2)
    G = rng.standard_t(3.0, size=(20_000, 50)) * 3.0
    assert np.array_equal(robust_gradient(G, 5.0, 1.0), _terms_mean(G, 5.0, 1.0))
    assert np.allclose(robust_gradient(G, 5.0, 1.0), _reference_mean(G, 5.0, 1.0), rtol=0, atol=5.0 * 1.3e-15)


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_non_finite_entries_are_reported(bad):
    G = np.ones((40, 3))
    G[17, 2] = bad
    with pytest.raises(ValueError, match="per_example_grads must be finite; entry 53"):
        robust_gradient(G, 1.0, 1.0)
    with pytest.raises(ValueError, match="x must be finite"):
        robust_mean(G, 1.0, 1.0, axis=1)
    with pytest.raises(ValueError, match="x must be finite"):
        robust_mean(np.asfortranarray(G), 1.0, 1.0)


def test_robust_gradient_bad_shapes_and_types():
    with pytest.raises(ValueError, match="2-dimensional"):
        robust_gradient(np.ones(3), 1.0, 1.0)
    with pytest.raises(ValueError, match="must not be empty"):
        robust_gradient(np.ones((0, 3)), 1.0, 1.0)
    with pytest.raises(TypeError, match="array of real numbers"):
        robust_gradient([["a"]], 1.0, 1.0)


@pytest.mark.parametrize("beta", [0.5, 1.0, 1e12])  # curve tables at 0.5 and 1, the per-entry kernel at 1e12
def test_column_sums_serial_below_parallel_min_equal_the_threaded_kernel(beta):
    # small inputs run one thread (_colsum_serial), large ones _colsum_par; both must give the bits of
    # np.add.reduce over the terms, whatever the block width
    rng = np.random.default_rng(3)
    root = math.sqrt(beta)
    limit = K.PHI_BOUND * math.erf(root / K._R)
    tab = K._table_args(beta)
    for shape in [(1, 1), (3, 5), (64, 64), (7, 300)]:
        x = np.ascontiguousarray(rng.standard_t(1.5, size=shape) * 3.0)
        assert x.size < K._PARALLEL_MIN
        ref = np.add.reduce(K.standard_terms(x, 1.3, beta)[0], axis=0)
        sums, bad = K.standard_column_sums(x, 1.3, beta)
        assert bad == 0 and np.array_equal(sums, ref)
        m, d = shape
        for width in (1, 7, 64):
            par, _ = K._colsum_par(x.reshape(-1), d, 1.3, root, limit, *tab, width, width * max(1, 4096 // width))
            assert np.array_equal(par, ref)
