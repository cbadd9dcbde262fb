"""The estimator's curve tables (reference.hu._ephi_kernel.curve_table) against mpmath.

The terms of robust_mean / robust_gradient lie on one curve per beta, ``f(a) = E[phi(a + (a/sqrt beta) Z)]``;
where the kernel is not a short expression (``|U| < 9``) they come from piecewise polynomials fitted per
beta.  Reference values: the closed form of ``E[phi(a + bZ)]`` by truncated Gaussian moments
(``B (P(Z > U) - P(Z < -V)) + int_{-V}^{U} p(a + b z) n(z) dz``, [002 eq. (4)]) in mpmath at
40 digits plus 3 per decade of ``a`` (the cubic cancels), at the float ``a`` and the exact
``b = a/sqrt(beta)``; cross-checked against ``proofs_checks.formulas.catoni.expected_phi_mp``
(adaptive quadrature) below.
"""

import math

import mpmath as mp
import numpy as np
import pytest

from proofs_checks.formulas.catoni import expected_phi_mp

# private: _ephi_kernel, _terms_any: the kernel's curve-table terms are tested against mpmath
from reference.hu import _ephi_kernel as K
from reference.hu.catoni import PHI_BOUND, expected_phi, robust_mean

ABS_TOL = 6e-16  # the kernel's stated accuracy: absolute error at most 6e-16 against the mpmath reference
R = math.sqrt(2.0)
BETAS = [1e-8, 1e-2, 0.3, 1.0, 4.0, 81.0, 100.0, 1e4, 1e8]


def _f_mp(a, beta):
    """E[phi(a + (a/sqrt(beta)) Z)] for a float a > 0, in mpmath (closed form, see the module docstring)."""
    extra = 3 * max(0, int(math.log10(a)) + 1)
    with mp.workdps(40 + extra):
        a = mp.mpf(a)
        b = a / mp.sqrt(mp.mpf(beta))
        r = mp.sqrt(2)
        big_b = 2 * r / 3
        u = (r - a) / b
        lo = -(r + a) / b
        n_u, n_l = mp.npdf(u), mp.npdf(lo)
        p_u, p_l = mp.ncdf(u), mp.ncdf(lo)
        m0 = p_u - p_l
        m1 = n_l - n_u
        m2 = m0 + lo * n_l - u * n_u
        m3 = 2 * m1 + lo * lo * n_l - u * u * n_u
        return (
            big_b * (1 - p_u)
            - big_b * p_l
            + (a - a**3 / 6) * m0
            + b * (1 - a * a / 2) * m1
            - a * b * b / 2 * m2
            - b**3 / 6 * m3
        )


def _points(beta, n, seed):
    """Floats a > 0 over the hard region |U| < 9: uniform in U, piece boundaries, both ends."""
    rng = np.random.default_rng(seed)
    root = math.sqrt(beta)
    u_lo = max(-K.INNER, -root)
    u = list(rng.uniform(u_lo, K.INNER, n))
    tab = K.curve_table(beta)
    edges = tab[0] + K.CURVE_WIDTH * np.arange(1, tab[2])
    u += list(edges[(edges > u_lo) & (edges < K.INNER)] + 1e-9)
    u += [u_lo + 1e-6, u_lo + 1e-3, K.INNER - 1e-9, 1.0, 0.0]
    a = R / (1.0 + np.array(u) / root)
    return a[np.isfinite(a) & (a > 0) & (a < 1e200)]


def _errors(beta, a, tab=None):
    root = math.sqrt(beta)
    if tab is None:
        got, bad = K.standard_terms(a, 1.0, beta)
        assert bad == 0
    else:
        got = np.empty(a.size)
        K._terms_any(a, 1.0, root, PHI_BOUND * math.erf(root / R), *tab, got)
    return np.array([abs(float(mp.mpf(float(g)) - _f_mp(float(x), beta))) for g, x in zip(got, a)]), got


def test_reference_closed_form_agrees_with_quadrature():
    # provenance of the reference: the closed form against mpmath adaptive quadrature (50 digits)
    for a, beta in [(0.9, 1.0), (3.0, 0.3), (1.2, 100.0), (40.0, 1e-2)]:
        with mp.workdps(60):
            b = mp.mpf(a) / mp.sqrt(mp.mpf(beta))
            assert abs(_f_mp(a, beta) - expected_phi_mp(a, b, dps=60)) < 1e-30


@pytest.mark.parametrize("beta", BETAS)
def test_curve_terms_within_6e16_of_mpmath(beta):
    a = _points(beta, 40, seed=BETAS.index(beta))
    err, got = _errors(beta, a)
    worst = int(np.argmax(err))
    assert err[worst] <= ABS_TOL, (beta, a[worst], got[worst], err[worst])
    assert np.all(np.abs(got) <= PHI_BOUND)
    neg, _ = K.standard_terms(-a, 1.0, beta)  # odd in a, bit for bit
    assert np.array_equal(neg, -got)


def test_the_accuracy_check_has_power():
    """A table whose constant terms are off by 1e-15 (9 ulps of the values near B) is caught."""
    beta = 1.0
    tab = list(K.curve_table(beta))
    coef = tab[-1].copy().reshape(tab[2], K.CURVE_ROW)
    coef[:, 0] += 1e-15
    tab[-1] = coef.ravel()
    tab[-1].flags.writeable = False  # like the real table's: no extra compiled specialisation
    a = _points(beta, 10, seed=3)
    err, _ = _errors(beta, a, tuple(tab))
    assert err.max() > ABS_TOL


def test_curve_terms_batch_equals_scalar_calls_and_order():
    # bit for bit on any CPU: one table per beta (built once per process) and one compiled kernel per entry, IEEE
    # operations only on the table path; the fused sums add those terms in np.add.reduce's axis-0 order
    rng = np.random.default_rng(11)
    x = rng.standard_t(2.5, 5000)
    for beta in (1.0, 0.37):
        whole, _ = K.standard_terms(x, 1.3, beta)
        scalar = np.array([K.standard_terms(np.array([v]), 1.3, beta)[0][0] for v in x[:300]])
        assert np.array_equal(whole[:300], scalar)
        perm = rng.permutation(x.size)
        assert np.array_equal(K.standard_terms(x[perm], 1.3, beta)[0], whole[perm])
        # the fused column sums add the same terms (the table depends on beta only)
        G = x.reshape(1000, 5)
        assert np.array_equal(robust_mean(G, 1.3, beta), 1.3 * (np.add.reduce(whole.reshape(1000, 5), axis=0) / 1000))


def test_curve_table_range_cache_and_fallback():
    assert K.curve_table(K.CURVE_BETA_MAX * 4) is None and K.curve_table(K.CURVE_BETA_MIN / 4) is None
    assert K.curve_table(2.0) is K.curve_table(2.0)
    # outside the range the per-entry kernel: expected_phi bit for bit
    a = np.linspace(0.05, 3.0, 101)
    beta = 1e12
    got, _ = K.standard_terms(a, 1.0, beta)
    assert np.array_equal(got, expected_phi(a, a / math.sqrt(beta)))


def test_curve_terms_tiny_and_huge_inputs():
    x = np.array([0.0, -0.0, 5e-324, -5e-324, 1e-300, 1e300, -1.7e308, 1.0, -1.0])
    for beta in (1e-8, 1.0, 1e8):
        got, bad = K.standard_terms(x, 1.0, beta)
        assert bad == 0 and np.all(np.isfinite(got)) and np.all(np.abs(got) <= PHI_BOUND)
        assert got[0] == 0.0 and got[2] == 5e-324 and got[3] == -5e-324


def test_uncompiled_curve_gives_the_same_bits():
    """robust_gradient with the kernel run as plain Python (NUMBA_DISABLE_JIT=1) equals the compiled one.

    Bit for bit on any CPU: the same IEEE operations and the same C-library functions in both processes (the
    table's fit, numpy's cos included, runs the same code in both on one machine)."""
    import json
    import os
    import pathlib
    import subprocess
    import sys

    rng = np.random.default_rng(4)
    G = rng.standard_t(3.0, (60, 7))
    G[0, 0] = 0.0
    code = (
        "import json, sys, numpy as np\n"
        "from reference.hu import _ephi_kernel as K\n"
        "from reference.hu.catoni import robust_gradient\n"
        "assert not K.HAVE_NUMBA\n"
        "G = np.array([[float.fromhex(v) for v in row] for row in json.loads(sys.stdin.read())])\n"
        "print(json.dumps([v.hex() for v in robust_gradient(G, 1.3, 0.7).tolist()]))\n"
    )
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    root = pathlib.Path(__file__).resolve().parents[1]
    res = subprocess.run(
        [sys.executable, "-c", code],
        input=json.dumps([[float(v).hex() for v in r] for r in G]),
        capture_output=True,
        text=True,
        cwd=root,
        env=env,
        timeout=300,
    )
    assert res.returncode == 0, res.stderr
    plain = np.array([float.fromhex(h) for h in json.loads(res.stdout)])
    from reference.hu.catoni import robust_gradient

    assert np.array_equal(plain, robust_gradient(G, 1.3, 0.7))


@pytest.mark.parametrize("scale_name", ["sparse", "mixed", "all-table"])
def test_two_pass_blocks_equal_the_terms_bit_for_bit(scale_name):
    """The two passes (_curve_prep, then _curve_fill over the listed entries) per block: the fused
    column sums over many row blocks and both thread paths (serial below _PARALLEL_MIN entries,
    parallel above) add exactly the terms; entries of one row block may all, some or none need the table."""
    rng = np.random.default_rng({"sparse": 21, "mixed": 22, "all-table": 23}[scale_name])
    m, d = 3000, 70  # 210,000 entries: several row blocks per column block
    if scale_name == "sparse":
        G = rng.standard_t(3.0, (m, d)) / 40.0  # a few entries with |U| < 9
    elif scale_name == "mixed":
        G = rng.standard_t(2.5, (m, d)) * rng.choice([0.01, 1.0, 30.0], (1, d))
    else:
        G = rng.choice([-1.0, 1.0], (m, d)) * rng.uniform(0.16, 1.0, (m, d))
    for beta in (1.0, 0.37, 1e6):
        terms, bad = K.standard_terms(G, 1.0, beta)
        assert bad == 0
        assert np.array_equal(robust_mean(G, 1.0, beta, axis=0), np.add.reduce(terms, axis=0) / m)
        # serial (small) calls on slices give the same terms as the parallel whole
        part, _ = K.standard_terms(G[:50], 1.0, beta)
        assert np.array_equal(part, terms[:50])
        assert np.all(np.abs(terms) <= PHI_BOUND)


def test_sparse_and_dense_fill_paths_give_the_same_bits():
    """A block with few table entries (listed, evaluated one by one) and a single entry (the dense
    passes, n = 1) give the same value for the same x."""
    rng = np.random.default_rng(31)
    hard = rng.uniform(0.2, 3.0, 40) * rng.choice([-1.0, 1.0], 40)  # |U| < 9 at beta = 1, s = 1
    x = rng.uniform(-0.01, 0.01, 4000)  # short expressions
    pos = rng.choice(x.size, hard.size, replace=False)
    x[pos] = hard
    for beta in (1.0, 0.37, 1e4):
        whole, _ = K.standard_terms(x, 1.0, beta)
        single = np.array([K.standard_terms(np.array([v]), 1.0, beta)[0][0] for v in hard])
        assert np.array_equal(whole[pos], single)
        dense, _ = K.standard_terms(hard, 1.0, beta)  # every entry in the table region
        assert np.array_equal(dense, single)
