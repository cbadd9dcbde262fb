import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st_h
from statsmodels.stats.proportion import proportion_confint

from proofs_checks.audit import statistical as st

# private: _few_categories, _cross_fitted_bound: the candidate rules of the selection split are the subject
from proofs_checks.audit.candidates import _few_categories
from proofs_checks.audit.confidence_bounds import clopper_pearson_epsilon_vector
from proofs_checks.audit.cross_fit import _cross_fitted_bound
from proofs_checks.audit.statistical import clopper_pearson_epsilon, dp_p_value, draw_outputs, statistical_audit
from tests._audit_helpers import COIN, MECH, BadShape, ShiftLaplace, WrongLength

D = np.zeros((4, 1))
DP = D.copy()
DP[0, 0] = 1.0


def test_vectorised_cp_matches_statsmodels():
    for k, n, k2, n2 in [(30, 100, 10, 100), (0, 50, 3, 50), (50, 50, 0, 50), (7, 1000, 2, 900)]:
        lo = proportion_confint(k, n, alpha=0.1, method="beta")[0]
        hi = proportion_confint(k2, n2, alpha=0.1, method="beta")[1]
        want = np.log(lo) - np.log(hi) if lo > 0 else -np.inf
        got = clopper_pearson_epsilon_vector(k, n, k2, n2, 0.0, 0.05)[()]
        assert got == pytest.approx(want, rel=1e-9) or (want == -np.inf and got == -np.inf)


def test_p_value_consistent_with_bound():
    k, n, k2, n2 = 400, 1000, 100, 1000
    eps_l = clopper_pearson_epsilon(k, n, k2, n2, 0.0, 0.95)
    assert dp_p_value(k, n, k2, n2, eps_l * 0.99, 0.0) < 0.05
    assert dp_p_value(k, n, k2, n2, eps_l * 1.01, 0.0) > 0.05


def test_refutes_violating_and_not_correct():
    # Laplace scale 0.5 on a sensitivity-1 query: true epsilon 2.
    bad = statistical_audit(MECH, [(D, DP)], 1.0, samples=40_000, seed=1, statistic="estimate")
    assert bad.verdict == "refuted" and bad.p_value < 0.05 and 1.0 < bad.epsilon_lower < 2.0
    ok = statistical_audit(MECH, [(D, DP)], 2.0, samples=40_000, seed=1, statistic="estimate")
    assert ok.verdict == "not refuted" and ok.epsilon_lower < 2.0


def test_identical_whatever_jobs():
    kw = dict(samples=20_000, seed=7, chunk_size=3000, statistic="estimate")
    a = statistical_audit(ShiftLaplace(1.0), [(D, DP)], 1.0, jobs=1, **kw)
    b = statistical_audit(ShiftLaplace(1.0), [(D, DP)], 1.0, jobs=2, **kw)
    assert a.epsilon_lower == b.epsilon_lower and a.counts == b.counts and a.threshold == b.threshold
    x1 = draw_outputs(MECH, D, 5000, 3, jobs=1, chunk_size=700)
    x2 = draw_outputs(MECH, D, 5000, 3, jobs=2, chunk_size=700)
    assert np.array_equal(x1, x2)


def test_same_seed_same_result_other_seed_differs():
    a = statistical_audit(MECH, [(D, DP)], 1.0, samples=10_000, seed=5)
    b = statistical_audit(MECH, [(D, DP)], 1.0, samples=10_000, seed=5)
    c = statistical_audit(MECH, [(D, DP)], 1.0, samples=10_000, seed=6)
    assert a.epsilon_lower == b.epsilon_lower and a.counts != c.counts


@pytest.mark.parametrize("samples", [99, 0, -5])
def test_too_few_samples(samples):
    with pytest.raises(ValueError, match="samples"):
        statistical_audit(MECH, [(D, DP)], 1.0, samples=samples)


@pytest.mark.parametrize("confidence", [0.0, 1.0, 1.5, -0.1, float("nan")])
def test_bad_confidence(confidence):
    with pytest.raises(ValueError, match="confidence"):
        statistical_audit(MECH, [(D, DP)], 1.0, samples=1000, confidence=confidence)


def test_bad_mechanisms():
    with pytest.raises(TypeError, match="sample"):
        statistical_audit(object(), [(D, DP)], 1.0, samples=1000)
    with pytest.raises(ValueError, match="inconsistent shape"):
        statistical_audit(BadShape(), [(D, DP)], 1.0, samples=1000, chunk_size=100)
    with pytest.raises(ValueError, match="first axis"):
        statistical_audit(WrongLength(), [(D, DP)], 1.0, samples=1000)


def test_estimated_statistic_cannot_be_fooled_by_float_noise():
    # A correct mechanism with an exact density must not be refuted through rounding noise of the log-ratio.
    from proofs_checks.audit.calibration import LaplaceCount

    m = LaplaceCount(1.0)
    for seed in range(3):
        r = statistical_audit(m, [m.pair()], 1.0, samples=200_000, seed=seed)
        assert r.verdict == "not refuted"


class KaryRR:
    """k-ary randomized response, black box (no log_prob): exactly eps-DP and tight (log-ratio eps on two outputs)."""

    def __init__(self, eps, k=11):
        self.eps, self.k = eps, k

    def sample(self, data, size, rng):
        w = np.ones(self.k)
        w[int(np.asarray(data).ravel()[0])] = np.exp(self.eps)
        return rng.choice(self.k, size=size, p=w / w.sum())[:, None].astype(np.float64)


def test_few_valued_outputs_take_the_whole_selection_split_and_find_the_top_category():
    # 11 float-coded categories: the few-valued path (category table on all selection rows, error 0.2).
    mech = KaryRR(1.0)
    D, Dp = np.array([[0.0]]), np.array([[1.0]])
    assert _few_categories(
        mech.sample(D, 5000, np.random.default_rng(0)), mech.sample(Dp, 5000, np.random.default_rng(1))
    )
    r = st.statistical_audit(mech, [(D, Dp)], 0.5, samples=200_000, statistic="estimate", seed=3, confidence=0.9)
    assert r.verdict == "refuted" and 0.8 < r.epsilon_lower <= 1.0
    # the event is the top category alone, {o = 0} with numerator D or {o = 1} with numerator D'
    assert r.counts["in_S_numerator"] / r.counts["n_each"] == pytest.approx(np.e / (np.e + 10), abs=0.01)


def test_few_valued_outputs_false_refutation_rate():
    # tight correct mechanism, claim = true eps: 60 audits at confidence 0.9 (seeded, deterministic);
    # expected at most 6 refutations; more than 15 has probability 3e-4 under Binomial(60, 0.1).
    mech = KaryRR(1.0, k=6)
    D, Dp = np.array([[0.0]]), np.array([[1.0]])
    refuted = sum(
        st.statistical_audit(
            mech, [(D, Dp)], 1.0, samples=20_000, statistic="estimate", seed=900 + s, confidence=0.9
        ).verdict
        == "refuted"
        for s in range(60)
    )
    assert refuted <= 15


def test_best_threshold_selection_error_is_validated():
    with pytest.raises(ValueError, match="selection_error"):
        st.best_threshold(np.zeros(10), np.zeros(10), 0.0, 0.05, n_est=100, selection_error=1.5)


class _Extreme1D:
    """One-column outputs at 1e300 and 1e-300 scales, +-1.7e308, inf; record 0 shifts the location."""

    def __init__(self, kind):
        self.kind = kind

    def sample(self, data, size, rng):
        b = float(np.asarray(data)[0, 0] > 0.5)
        lap = rng.laplace(size=size) + b
        return {
            "big": lap * 1e300,
            "tiny": lap * 1e-300,
            "mixed": np.where(rng.random(size) < 0.01, 1e300 * rng.laplace(size=size), 1e-300 * lap),
            "max": np.where(rng.random(size) < 0.01, 1.7e308 * np.sign(rng.laplace(size=size)), lap),
            "inf": np.where(rng.random(size) < 0.5, np.inf, lap),
        }[self.kind]


@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize("rule", ["pessimistic", "cross-fit-smooth"])
@pytest.mark.parametrize("kind", ["big", "tiny", "mixed", "max", "inf"])
def test_one_column_extreme_outputs_give_no_overflow(kind, rule):
    # the black-box path of a one-column output (raw output, histogram, cells; with cross-fit-smooth also the
    # spline of the smoothed threshold) on outputs over hundreds of orders of magnitude: no warning, and the
    # shift of the bulk is found (true loss 1, claim 0.1)
    r = statistical_audit(
        _Extreme1D(kind), [(D, DP)], 0.1, samples=20_000, seed=0, statistic="estimate", threshold_scoring=rule
    )
    assert r.verdict == "refuted" and 0.1 < r.epsilon_lower <= 1.0 + 1e-9


class _NoisyCoordinates:
    """Black box, two continuous columns: the record shifts column 0 (Laplace(1)); column 1 is N(0, 1) noise."""

    def sample(self, data, size, rng):
        x = float(np.asarray(data).ravel()[0])
        return np.column_stack([x + rng.laplace(0.0, 1.0, size), rng.standard_normal(size)])


def _selection_scores(mech, pair, rule, n_sel=4_000, seed=3):
    scores = []
    best, _, _ = st.select_event(
        mech,
        [pair],
        np.random.SeedSequence(seed).spawn(1),
        n_sel,
        20_000,
        0.0,
        0.025,
        statistic="estimate",
        scores=scores,
        threshold_scoring=rule,
    )
    return scores, best


def test_threshold_scoring_cross_fit_rescores_searched_candidates_with_the_same_events():
    # "cross-fit" changes each searched candidate's score to its cross-fitted bound, never its threshold
    # (chosen on all scoring rows either way); one event is still tested.
    pair = (np.array([[0.0]]), np.array([[1.0]]))
    pes, best_p = _selection_scores(_NoisyCoordinates(), pair, "pessimistic")
    xf, best_x = _selection_scores(_NoisyCoordinates(), pair, "cross-fit")
    assert [(s["statistic"], s["direction"]) for s in pes] == [(s["statistic"], s["direction"]) for s in xf]
    assert [s["event"][2] for s in pes] == [s["event"][2] for s in xf]
    assert all(not s["fixed"] for s in xf)
    assert [s["score"] for s in pes] != [s["score"] for s in xf]
    assert best_x[0] == max(s["score"] for s in xf)
    # each score is _cross_fitted_bound of the candidate's statistic on the scoring half
    rng_a, rng_b = np.random.SeedSequence(3).spawn(1)[0].spawn(2)
    a = st.draw_outputs(_NoisyCoordinates(), pair[0], 4_000, rng_a)[2_000:]
    b = st.draw_outputs(_NoisyCoordinates(), pair[1], 4_000, rng_b)[2_000:]
    s0 = xf[0]
    stat, sign = s0["event"][0], s0["event"][1]
    num, den = (stat(a), stat(b)) if sign > 0 else (-stat(b), -stat(a))
    assert s0["score"] == _cross_fitted_bound(num, den, 0.0, 0.025, 20_000, st.SELECTION_ERROR)


def test_threshold_scoring_leaves_few_valued_and_exact_audits_alone():
    # few-valued outputs (category table, error 0.2) and exact log-ratios: the same bits under either rule
    D, Dp = np.array([[0.0]]), np.array([[1.0]])
    for mech, statistic in ((KaryRR(1.0), "estimate"), (COIN, "auto")):
        pair = (D, Dp)
        r = [
            st.statistical_audit(mech, [pair], 0.5, samples=20_000, statistic=statistic, seed=5, threshold_scoring=rule)
            for rule in st.THRESHOLD_SCORINGS
        ]
        for x in r[1:]:
            assert r[0].counts == x.counts and r[0].threshold == x.threshold
            assert r[0].extra["selection_bound"] == x.extra["selection_bound"]
        assert [x.extra["threshold_scoring"] for x in r] == list(st.THRESHOLD_SCORINGS)


def test_threshold_scoring_cross_fit_false_refutation_rate():
    # correct Laplace(1) at its true epsilon 1, black box, confidence 0.9, 24 seeded audits: expected <= 2.4
    # refutations; more than 8 has probability 4e-4 under Binomial(24, 0.1) (scipy binom.sf(8, 24, 0.1)).
    mech = ShiftLaplace(1.0)
    refuted = sum(
        statistical_audit(
            mech,
            [(D, DP)],
            1.0,
            samples=10_000,
            statistic="estimate",
            seed=700 + s,
            confidence=0.9,
            threshold_scoring="cross-fit",
        ).verdict
        == "refuted"
        for s in range(24)
    )
    assert refuted <= 8


@pytest.mark.parametrize("bad", ["cross_fit", "Pessimistic", "", None, 1, ("cross-fit",)])
def test_threshold_scoring_is_validated(bad):
    from proofs_checks.audit.api import audit

    with pytest.raises(ValueError, match="threshold_scoring"):
        statistical_audit(ShiftLaplace(), [(D, DP)], 1.0, samples=1_000, threshold_scoring=bad)
    if bad is None:  # audit()'s None is its documented default
        return
    with pytest.raises(ValueError, match="threshold_scoring"):
        audit(ShiftLaplace(), epsilon=1.0, pairs=[(D, DP)], samples=1_000, method="statistical", threshold_scoring=bad)


def test_default_threshold_scoring_is_cross_fit_smooth():
    """The default (most power at a measured cost), in statistical_audit, audit() and the result's record."""
    from proofs_checks.audit.api import audit
    from proofs_checks.audit.statistical import DEFAULT_THRESHOLD_SCORING

    assert DEFAULT_THRESHOLD_SCORING == "cross-fit-smooth"
    a = statistical_audit(ShiftLaplace(), [(D, DP)], 1.0, samples=4_000, seed=1, statistic="estimate")
    b = statistical_audit(
        ShiftLaplace(),
        [(D, DP)],
        1.0,
        samples=4_000,
        seed=1,
        statistic="estimate",
        threshold_scoring="cross-fit-smooth",
    )
    assert a.extra["threshold_scoring"] == "cross-fit-smooth" and a.threshold == b.threshold
    c = audit(
        ShiftLaplace(), epsilon=1.0, pairs=[(D, DP)], samples=4_000, seed=1, method="statistical", statistic="estimate"
    )
    assert c.epsilon_lower == a.epsilon_lower


class _Gauss1D:
    """Black box, one column: record 0 shifts a N(0, 1) output (the calibration suite's Gaussian, no density)."""

    def sample(self, data, size, rng):
        return float(np.asarray(data).ravel()[0]) + rng.standard_normal(size)


def test_cross_fit_smooth_adds_the_smoothed_threshold_of_a_one_column_output():
    # "cross-fit-smooth": the raw output (and its negative) get one more candidate per direction, the half-line
    # chosen with the spline log-ratio, scored by its own cross-fitted bound; multi-column outputs get none
    pair = (np.array([[0.0]]), np.array([[1.0]]))
    xs, _ = _selection_scores(_Gauss1D(), pair, "cross-fit-smooth", n_sel=8_000)
    xf, _ = _selection_scores(_Gauss1D(), pair, "cross-fit", n_sel=8_000)
    smooth = [s for s in xs if s["statistic"].endswith("(smoothed threshold)")]
    assert len(smooth) == 4 and len(xs) == len(xf) + 4
    assert [s["score"] for s in xs if s not in smooth] == [s["score"] for s in xf]
    assert all(np.isfinite(s["score"]) for s in smooth)
    two, _ = _selection_scores(_NoisyCoordinates(), pair, "cross-fit-smooth")
    assert not any(s["statistic"].endswith("(smoothed threshold)") for s in two)


GAUSS_MODULE = """
import numpy as np


class Gauss1D:
    def sample(self, data, size, rng):
        return float(np.asarray(data).ravel()[0]) + rng.standard_normal(size)


GAUSS = Gauss1D()
"""


def test_threshold_scoring_cli_passes_validates_and_replays(tmp_path, capsys, monkeypatch):
    import json

    from proofs_checks.cli import main

    (tmp_path / "gaussmod.py").write_text(GAUSS_MODULE)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    np.savez(tmp_path / "pair.npz", D=np.array([[0.0]]), D_prime=np.array([[1.0]]))
    ce = tmp_path / "ce.npz"
    base = [
        "audit",
        "--mechanism",
        "gaussmod:GAUSS",
        "--pair",
        "pair.npz",
        "--epsilon",
        "0.5",
        "--samples",
        "20000",
        "--statistic",
        "estimate",
        "--json",
    ]
    assert main(base + ["--threshold-scoring", "cross-fit-smooth", "--counterexample", str(ce)]) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["details"]["extra"]["threshold_scoring"] == "cross-fit-smooth"
    assert main(["audit", "--replay", str(ce), "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["details"]["extra"]["threshold_scoring"] == "cross-fit-smooth"
    assert again["epsilon_lower"] == first["epsilon_lower"] and again["verdict"] == first["verdict"]
    with pytest.raises(SystemExit) as exc:
        main(base + ["--threshold-scoring", "cross_fit"])
    assert exc.value.code == 2
    assert "--threshold-scoring" in capsys.readouterr().err


class _ScaledLaplace1D:
    """One-column black box ``scale * (Laplace + record)``, with a share of exact zeros (an atom)."""

    def __init__(self, scale, zeros):
        self.scale, self.zeros = scale, zeros

    def sample(self, data, size, rng):
        x = (rng.laplace(size=size) + float(np.asarray(data).ravel()[0])) * self.scale
        return np.where(rng.random(size) < self.zeros, 0.0, x)


@pytest.mark.filterwarnings("error")
@settings(max_examples=12, deadline=None, derandomize=True)
@given(scale=st_h.floats(min_value=5e-324, max_value=1e300, allow_subnormal=True), zeros=st_h.sampled_from([0.0, 0.3]))
def test_default_rule_over_the_float_range(scale, zeros):
    # the default selection (cross-fit-smooth: the spline of the smoothed threshold on a one-column output) on
    # outputs from the smallest subnormal to 1e300, with and without an atom at zero: no warning, a bound that is
    # a number or -inf (never NaN) and never above the true loss 1 by more than rounding (claim 0.1)
    r = statistical_audit(_ScaledLaplace1D(scale, zeros), [(D, DP)], 0.1, samples=8_000, seed=0, statistic="estimate")
    assert not np.isnan(r.epsilon_lower) and r.epsilon_lower <= 1.0 + 1e-9
    assert r.extra["threshold_scoring"] == "cross-fit-smooth"
