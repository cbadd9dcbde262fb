"""DP-Sniper's benchmark mechanisms: samplers against their definitions, the runner.

Reference laws: the papers' definitions (StatDP Alg. 5, 7, 9, 10; Lyu-Su-Li Alg. 1, 3, 4, 5;
Balcer-Vadhan Alg. 4.8), evaluated with scipy (Laplace CDFs; quad for report-noisy-max, relative
tolerance 1e-10).  Statistical tests at error 1e-6 with fixed seeds (deterministic, never flaky).
"""

import math

import numpy as np
import pytest
from scipy import integrate, stats

from proofs_checks.audit.exact import max_privacy_loss
from proofs_checks.benchmarks import dpsniper_suite
from proofs_checks.benchmarks.dpsniper_mechanisms import (
    DPSNIPER_FULL,
    DPSNIPER_PAIRS,
    LaplaceMech,
    NoisyHist,
    ReportNoisyMax,
    SparseVector,
    TruncatedGeometric,
    benchmark_mechanisms,
    svt_outputs,
)

N = 100_000
ALPHA = 1e-6


def test_every_mechanism_has_a_pair_and_a_published_value():
    mechs = benchmark_mechanisms()
    assert list(mechs) == list(DPSNIPER_PAIRS) == list(DPSNIPER_FULL)
    for name, m in mechs.items():
        D, Dp = DPSNIPER_PAIRS[name]
        out = m.sample(D, 7, np.random.default_rng(0))
        assert out.shape[0] == 7 and out.ndim == 2 and np.all(np.isfinite(out)), name


def test_laplace_and_noisy_histograms_are_laplace_with_the_stated_scales():
    rng = np.random.default_rng(1)
    x = LaplaceMech().sample(np.array([[1.0]]), N, rng)[:, 0]
    assert stats.kstest(x, stats.laplace(loc=1.0, scale=10.0).cdf).pvalue > ALPHA
    a = np.array([[0.0, 1, 1, 1, 1]])
    for mech, scale in ((NoisyHist(), 10.0), (NoisyHist(wrong_scale=True), 0.1)):
        y = mech.sample(a, N, rng)
        for j in (0, 3):
            assert stats.kstest(y[:, j], stats.laplace(loc=a[0, j], scale=scale).cdf).pvalue > ALPHA
        # the columns are independent draws
        assert abs(np.corrcoef(y[:, 0], y[:, 1])[0, 1]) < 0.02
    # mutant power: scale 10% off is rejected
    z = 1.0 + np.random.default_rng(2).laplace(0, 11.0, N)
    assert stats.kstest(z, stats.laplace(loc=1.0, scale=10.0).cdf).pvalue < ALPHA


def _lap_cdf(x, m, b):
    z = (x - m) / b
    return np.where(z < 0, 0.5 * np.exp(np.minimum(z, 0)), 1 - 0.5 * np.exp(-np.maximum(z, 0)))


def _rnm_argmax_law(a, b):
    """P(argmax = i) = int f_i(x) prod_{j != i} F_j(x) dx, Simpson on 400,001 nodes over +-30 scales
    (tails beyond carry < e^-30; Simpson's error on the kinks, placed on nodes, is below 1e-9)."""
    x = np.linspace(-30 * b, 30 * b, 400_001)
    F = np.array([_lap_cdf(x, m, b) for m in a])
    f = np.array([np.exp(-np.abs(x - m) / b) / (2 * b) for m in a])
    law = [integrate.simpson(f[i] * np.prod(np.delete(F, i, axis=0), axis=0), x=x) for i in range(len(a))]
    return np.array(law)


def test_report_noisy_max_argmax_and_value_laws():
    rng = np.random.default_rng(3)
    a = np.array([0.0, 2, 2, 2, 2])
    law = _rnm_argmax_law(a, 20.0)
    assert law.sum() == pytest.approx(1.0, abs=1e-9)
    k = ReportNoisyMax().sample(a[None, :], N, rng)[:, 0]
    counts = np.bincount(k, minlength=5)
    assert stats.chisquare(counts, law * N).pvalue > ALPHA
    v = ReportNoisyMax(release_value=True).sample(a[None, :], N, rng)[:, 0]
    cdf = lambda x: np.prod([_lap_cdf(x, aj, 20.0) for aj in a], axis=0)  # noqa: E731
    assert stats.kstest(v, cdf).pvalue > ALPHA
    # the argmax is eps-DP: its exact loss on DP-Sniper's pair is at most 0.1
    D, Dp = DPSNIPER_PAIRS["ReportNoisyMax1"]
    assert max_privacy_loss(np.log(_rnm_argmax_law(D[0], 20.0)), np.log(_rnm_argmax_law(Dp[0], 20.0))) <= 0.1


def _svt_loop(noisy, rho, t, c, values, abort):
    out = np.empty_like(noisy)
    for r in range(noisy.shape[0]):
        count = 0
        for j in range(noisy.shape[1]):
            if abort and count >= c:
                out[r, j] = -2000.0 if values else -1.0
                continue
            above = noisy[r, j] >= rho[r] + t
            out[r, j] = (noisy[r, j] if values else 1.0) if above else (-1000.0 if values else 0.0)
            count += above
    return out


@pytest.mark.parametrize("c,values,abort", [(1, False, True), (2, False, True), (1, True, True), (1, False, False)])
def test_svt_outputs_equal_the_definition_run_query_by_query(c, values, abort):
    rng = np.random.default_rng(4)
    noisy = rng.normal(0, 1, (300, 10))
    rho = rng.normal(0, 1, 300)
    np.testing.assert_array_equal(
        svt_outputs(noisy, rho, 0.5, c, values, abort), _svt_loop(noisy, rho, 0.5, c, values, abort)
    )


def test_svt_budgets_and_svt5_law():
    eps = 0.1
    s1, s3, s4, s5 = (SparseVector(v) for v in (1, 3, 4, 5))
    assert (s1.rho_scale, s1.nu_scale, s1.threshold) == (pytest.approx(2 / eps), pytest.approx(4 / eps), 0.5)
    assert (s3.rho_scale, s3.nu_scale) == (pytest.approx(2 / eps), pytest.approx(2 / eps))
    assert (s4.rho_scale, s4.nu_scale) == (pytest.approx(4 / eps), pytest.approx(4 / (3 * eps)))
    assert s5.nu_scale == 0.0
    # SVT5 (no query noise) on DP-Sniper's pair: the pattern 1^5 0^5 has probability
    # P(-1 < rho <= 1) = 1 - e^{-1/20} under a1 and 0 under a2, so its true epsilon is infinite
    D, Dp = DPSNIPER_PAIRS["SVT5"]
    rng = np.random.default_rng(5)
    pat = np.array([1.0] * 5 + [0.0] * 5)
    k1 = np.all(s5.sample(D, N, rng) == pat, axis=1).sum()
    k2 = np.all(s5.sample(Dp, N, rng) == pat, axis=1).sum()
    assert stats.binomtest(int(k1), N, 1 - math.exp(-1 / 20)).pvalue > ALPHA and k2 == 0


def test_truncated_geometric_law_sampler_and_true_epsilon():
    T = TruncatedGeometric()
    assert (T.k, T.d) == (3, 17 * 9**4)
    for c in range(5):
        a, b = T.log_prob(np.array([[c]]))[1], T.log_prob(np.array([[c + 1]]))[1]
        assert np.exp(a).sum() == pytest.approx(1.0, abs=1e-14)
        # Balcer-Vadhan Thm 4.7: ln(1 + 2^-k)-DP, attained on every adjacent pair of counts
        assert max_privacy_loss(a, b) == pytest.approx(math.log(1 + 2**-3), rel=1e-12)
    law = np.exp(T.log_prob(np.array([[2]]))[1])
    counts = np.bincount(T.sample(np.array([[2]]), N, np.random.default_rng(6))[:, 0], minlength=6)
    assert stats.chisquare(counts, law * N).pvalue > ALPHA
    with pytest.raises(ValueError, match="count"):
        T.sample(np.array([[2.5]]), 3, 0)


def test_runner_at_tiny_calls(capsys):
    rows = dpsniper_suite.run(calls=4_000, only=["Laplace", "SVT5"], seed=1)
    assert [r["mechanism"] for r in rows] == ["Laplace", "SVT5"]
    assert all(r["epsilon_lower"] >= 0 and r["calls"] <= 4_000 and r["confidence"] == 0.9 for r in rows)
    assert rows[1]["verdict"] == "refuted"  # SVT5 is not DP at all; 4,000 calls suffice
    assert dpsniper_suite.main(["--calls", "1000", "--only", "Laplace", "--json"]) == 0
    assert '"mechanism": "Laplace"' in capsys.readouterr().out
    with pytest.raises(SystemExit) as exc:
        dpsniper_suite.main(["--only", "Nope"])
    assert exc.value.code == 2


@pytest.mark.parametrize("variant", [1, 4])
def test_svt_pattern_law_matches_the_sampler(variant):
    # exact law (Simpson's rule over the threshold noise) against 10^5 draws: chi-square at error 1e-6
    from proofs_checks.benchmarks.dpsniper_mechanisms import svt_pattern_probabilities

    name = f"SVT{variant}"
    D = DPSNIPER_PAIRS[name][0]
    p = svt_pattern_probabilities(variant, D[0])
    assert p.sum() == pytest.approx(1.0, abs=1e-9)
    out = SparseVector(variant).sample(D, N, np.random.default_rng(7))
    hit = out == 1
    idx = np.where(hit.any(axis=1), hit.argmax(axis=1), out.shape[1])
    counts = np.bincount(idx, minlength=p.size)
    assert stats.chisquare(counts, p * N).pvalue > ALPHA
    # a wrong law (threshold noise of the other variant) is rejected by the same test
    wrong = svt_pattern_probabilities(5 - variant, D[0])
    assert stats.chisquare(counts, wrong / wrong.sum() * N).pvalue < ALPHA


def test_oracle_bound_is_the_neyman_pearson_ceiling():
    from proofs_checks.audit.confidence_bounds import clopper_pearson_epsilon_vector
    from proofs_checks.benchmarks.dpsniper_mechanisms import oracle_bound, svt_pattern_probabilities

    n = 5_000_000
    o = oracle_bound("SVT1", n)
    # reference: this module's Simpson law, brute force over all 2^11 - 1 events, both directions
    D, Dp = DPSNIPER_PAIRS["SVT1"]
    P, Q = svt_pattern_probabilities(1, D[0]), svt_pattern_probabilities(1, Dp[0])
    masks = (np.arange(1, 2**11)[:, None] >> np.arange(11)) & 1  # every non-empty event
    brute = max(
        float(np.max(clopper_pearson_epsilon_vector(masks @ u * n, n, masks @ v * n, n, 0.0, 0.05)))
        for u, v in ((P, Q), (Q, P))
    )
    assert brute <= o + 1e-12 and o - brute < 1e-3
    assert o == pytest.approx(0.0782, abs=1e-4)
    assert o < np.log(P / Q).max() < 0.1  # below the pair's true loss, below the claim
    assert oracle_bound("SVT1", 50_000_000) > o  # more calls, higher ceiling
    with pytest.raises(ValueError, match="name"):
        oracle_bound("NoisyHist1", n)


def test_svt3_law_matches_the_sampler():
    # svt3_law (trapezoid over the threshold noise, step 0.05) against 10^5 draws on each input of the pair:
    # chi-square over (pattern, value bin) cells at error 1e-6; exact reference for D (all answers 1, so the
    # threshold noise and the query noises, both Lap(20), are exchangeable): P(first above at i) =
    # 1/((i+1)(i+2)), P(none) = 1/11
    from proofs_checks.benchmarks.dpsniper_mechanisms import svt3_law

    for ans, seed in ((DPSNIPER_PAIRS["SVT3"][0][0], 8), (DPSNIPER_PAIRS["SVT3"][1][0], 9)):
        v, dens, none = svt3_law(ans)
        step = v[1] - v[0]
        edges = np.array([-np.inf, -40.0, -10.0, 0.0, 1.0, 2.0, 10.0, 40.0, np.inf])
        cdf = np.cumsum(dens * step, axis=0)
        k = np.clip(np.searchsorted(v, edges[1:-1]), 0, v.size - 1)
        cell_p = np.diff(np.vstack([np.zeros(10), cdf[k], cdf[-1]]), axis=0).T  # (pattern, bin)
        expected = np.concatenate([cell_p.ravel(), [none]])
        assert expected.sum() == pytest.approx(1.0, abs=1e-5)
        out = SparseVector(3).sample(ans[None, :], N, np.random.default_rng(seed))
        above = out > -1000
        idx = np.where(above.any(axis=1), above.argmax(axis=1), 10)
        val = out[np.arange(N), np.minimum(idx, 9)]
        cell = np.where(
            idx < 10, idx * (edges.size - 1) + np.searchsorted(edges, val, side="right") - 1, 10 * (edges.size - 1)
        )
        counts = np.bincount(cell, minlength=expected.size)
        ok = expected * N >= 5
        assert stats.chisquare(counts[ok], expected[ok] / expected[ok].sum() * counts[ok].sum()).pvalue > ALPHA
        if np.all(ans == 1):
            pat = dens.sum(axis=0) * step
            assert np.allclose(pat, 1 / ((np.arange(10) + 1) * (np.arange(10) + 2)), atol=2e-6)
            assert none == pytest.approx(1 / 11, abs=2e-6)


@pytest.mark.slow
def test_svt3_oracle_and_the_pattern_value_attack():
    # The oracle (best likelihood-ratio event of svt3_law, expected counts) at the 4*10^6 estimation calls per
    # input of a 10^7-call audit is 0.2204 (docs/auditor.md), above DP-Sniper's full-budget 0.1716.  The
    # pattern x value model fitted on 10^5 rows per input fixes an event whose exact bound there is >= 0.10
    # on seeds 0-2 (measured 0.152, 0.117, 0.195; the event needs >= 400 fitting rows, so at 10^5 rows it
    # cannot be the oracle's event of probability 1.8e-3); the old per-coordinate cells fitted on the same rows, at
    # their best threshold by the exact law, stay below it on seed 0 (a statistic, not a threshold, problem).
    from proofs_checks.audit.classifiers import fit_cells, fit_pattern_value
    from proofs_checks.audit.confidence_bounds import clopper_pearson_epsilon_vector
    from proofs_checks.benchmarks.dpsniper_mechanisms import oracle_bound, svt3_law

    n = 4_000_000
    assert oracle_bound("SVT3", n) == pytest.approx(0.2204, abs=5e-4)
    D, Dp = DPSNIPER_PAIRS["SVT3"]
    laws = [svt3_law(x[0], step=0.25) for x in (D, Dp)]
    v = laws[0][0]
    grid = np.vstack(
        [np.column_stack([np.full((v.size, i), -1000.0), v, np.full((v.size, 9 - i), -2000.0)]) for i in range(10)]
        + [np.full((1, 10), -1000.0)]
    )
    P, Q = (np.concatenate([(d * (v[1] - v[0])).T.ravel(), [none]]) for _, d, none in laws)

    def exact(s, sign, t):
        m = sign * s > t
        p, q = (P[m].sum(), Q[m].sum()) if sign > 0 else (Q[m].sum(), P[m].sum())
        return float(clopper_pearson_epsilon_vector(p * n, n, q * n, n, 0.0, 0.05))

    mech = SparseVector(3)
    for seed in range(3):
        rng = np.random.default_rng(seed)
        a, b = mech.sample(D, 100_000, rng), mech.sample(Dp, 100_000, rng)
        stat = fit_pattern_value(a, b)[-1]
        assert "atoms in 11 patterns" in stat.name
        s = stat(grid)
        got = max(exact(s, sign, t) for sign, t in stat.fixed_events(n, 0.0, 0.05))
        assert 0.10 <= got <= oracle_bound("SVT3", n) + 2e-3
        if seed == 0:
            cells = fit_cells(a, b)
            s = cells(grid)
            best_cells = max(
                exact(s, sign, t)
                for sign in (1.0, -1.0)
                for t in np.unique(sign * s)[:: max(1, np.unique(s).size // 200)] - 1e-12
            )
            assert best_cells < got


def test_hit_probability_matches_simulated_audits():
    """P(bound >= target) of one fixed event against 40,000 simulated estimation splits (seeded), within 4 sd;
    one case with K's sd above 111 (the Riemann-sum path) and one below (exact sums)."""
    from proofs_checks.audit.confidence_bounds import clopper_pearson_epsilon_vector

    # private: _hit_probability: the benchmark's probability of reaching the target is tested against simulation
    from proofs_checks.benchmarks.dpsniper_mechanisms import _hit_probability

    rng = np.random.default_rng(20261124)
    gamma = 0.05
    for p, q, n, target in ((0.2, 0.18, 1_000_000, 0.1), (0.004, 0.0033, 200_000, 0.1)):
        k, k2 = rng.binomial(n, p, 40_000), rng.binomial(n, q, 40_000)
        sim = float(np.mean(clopper_pearson_epsilon_vector(k, n, k2, n, 0.0, gamma) >= target))
        exact = _hit_probability(p, q, n, target, gamma)
        assert 0.05 < exact < 0.95
        assert abs(exact - sim) < 4 * np.sqrt(exact * (1 - exact) / 40_000), (p, q, exact, sim)


def test_hit_probability_falls_with_the_target():
    from proofs_checks.benchmarks.dpsniper_mechanisms import oracle_hit_probability

    vals = [oracle_hit_probability("SVT1", 1_000_000, t) for t in (0.0, 0.06, 0.07, 0.08)]
    assert vals[0] > 0.99 and all(x >= y for x, y in zip(vals, vals[1:])) and vals[-1] < 0.5


@pytest.mark.parametrize(
    "kwargs, name",
    [
        ({"target": float("nan")}, "target"),
        ({"target": "0.1"}, "target"),
        ({"target": 0.1, "confidence": 1.5}, "confidence"),
        ({"target": 0.1, "confidence": float("nan")}, "confidence"),
    ],
)
def test_oracle_functions_reject_bad_parameters(kwargs, name):
    from proofs_checks.benchmarks.dpsniper_mechanisms import oracle_bound, oracle_hit_probability

    with pytest.raises(ValueError, match=name):
        oracle_hit_probability("SVT1", 1000, **kwargs)
    if "confidence" in kwargs:
        with pytest.raises(ValueError, match="confidence"):
            oracle_bound("SVT1", 1000, kwargs["confidence"])
