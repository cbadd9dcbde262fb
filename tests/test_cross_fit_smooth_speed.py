"""The threshold-scoring rules' selection and audit results against values recorded before their speed-ups.

The speed-ups of ``threshold_scoring="cross-fit-smooth"`` (shared sorts and cumulative sums of the weighted
threshold searches, the spline's basis kept from its fit, the cross-fitted searches' shared work) must not change
any result: every candidate's score and threshold (``select_event(..., scores=[])``), the chosen event, and the
audit's ``epsilon_lower``, threshold and counts.  The values (tests/data/cross_fit_smooth_pins.json, with their
provenance) were recorded before those changes on small seeded black-box cases: one and two columns, continuous
outputs and outputs rounded to a binary grid (ties within and across the two datasets, too few repeats per value
for atoms, so the smoothed candidates are still built), an odd selection size (unequal folds), and two exact
log-ratios (the weighted search of ``best_threshold_exact``, more than 2048 distinct values).

They are compared as the reproducibility contract allows (docs/reproducibility.md): names, directions, flags and
counts exactly; floats within ``PIN_RTOL`` relative, because the two-column cases fit a logistic regression (BLAS
products inside L-BFGS-B) and every audit ends in logarithms, whose last bits depend on the CPU.  The changes this
guards against (another tie order, a skipped candidate, a shifted threshold index) move a score or a threshold by
far more, and a test below shows the tolerance tells the three rules apart.
"""

import json
import math
from pathlib import Path

import numpy as np
import pytest

# private: _tie_positions, _smooth_models, _smooth_thresholds, _Negated, _weighted_search, _stable_orders: each speed-up
#   is tested against the plain computation it replaces
from proofs_checks.audit import cross_fit, logistic, projection, smooth, thresholds
from proofs_checks.audit import statistical as st


@pytest.fixture(autouse=True)
def _logistic_fit_as_recorded(monkeypatch):
    # the pins were recorded with the logistic regression fitted by L-BFGS-B; the default now fits it by Newton's
    # method (the exact minimiser: other weights, so other bits on the two-column cases). These tests check
    # the threshold-scoring code, not the fit, so they run with the recorded fit (auto -> L-BFGS-B at any
    # width, bit for bit as before; the smoothed threshold's spline asks for Newton by name and keeps it); Newton's fit
    # is tested in tests/test_logistic_newton.py.
    monkeypatch.setattr(logistic, "NEWTON_MAX_COLUMNS", 0)


class Lap:
    """Black box: x + Laplace(scale) in column 0 (rounded to ``step`` if given: ties), N(0,1) noise columns."""

    def __init__(self, scale=1.0, step=None, cols=1):
        self.scale, self.step, self.cols = scale, step, cols

    def sample(self, data, size, rng):
        x = float(np.asarray(data).ravel()[0])
        z = x + rng.laplace(0.0, self.scale, size)
        if self.step is not None:
            z = np.round(z / self.step) * self.step
        cols = [z] + [rng.standard_normal(size) for _ in range(self.cols - 1)]
        return np.column_stack(cols)


class Exact(Lap):
    """As :class:`Lap` (one column, no rounding) with its log-density: the exact log-ratio's weighted search
    (:func:`~proofs_checks.audit.statistical.best_threshold_exact`); ``gauss`` for N(x, scale^2) instead."""

    def __init__(self, scale=1.0, gauss=False):
        super().__init__(scale)
        self.gauss = gauss

    def sample(self, data, size, rng):
        if not self.gauss:
            return super().sample(data, size, rng)
        return float(np.asarray(data).ravel()[0]) + self.scale * rng.standard_normal((size, 1))

    def log_density(self, data, outputs):
        z = (np.asarray(outputs, dtype=np.float64)[:, 0] - float(np.asarray(data).ravel()[0])) / self.scale
        return -0.5 * z * z if self.gauss else -np.abs(z)


CASES = {
    "lap1": (Lap(1.0), 4_000, 3),
    "lap1-odd": (Lap(1.0), 3_001, 4),
    "lap1-ties": (Lap(1.0, 2.0**-14), 4_000, 5),
    "lap1-ties3": (Lap(3.0, 2.0**-13), 3_001, 6),
    "lap2": (Lap(1.0, None, 2), 4_000, 7),
    "lap2-ties": (Lap(1.0, 2.0**-14, 2), 4_000, 8),
    "exact-lap": (Exact(1.0), 40_000, 9),
    "exact-gauss": (Exact(2.0, gauss=True), 40_000, 10),
}


def _statistic(mech):
    return "auto" if hasattr(mech, "log_density") else "estimate"


def run_case(st, name, rule):
    mech, n_sel, seed = CASES[name]
    pair = (np.array([[0.0]]), np.array([[1.0]]))
    scores = []
    best, _, _ = st.select_event(
        mech,
        [pair],
        np.random.SeedSequence(seed).spawn(1),
        n_sel,
        20_000,
        0.0,
        0.025,
        statistic=_statistic(mech),
        scores=scores,
        threshold_scoring=rule,
    )
    rows = [
        (s["statistic"], s["direction"], float(s["score"]), s["fixed"], float(s["event"][1]), float(s["event"][2]))
        for s in scores
    ]
    b = (float(best[0]), best[1], best[3], float(best[4]), float(best[5]))
    return b, rows


def run_audit(st, name, rule):
    mech, n_sel, seed = CASES[name]
    pair = (np.array([[0.0]]), np.array([[1.0]]))
    r = st.statistical_audit(
        mech, [pair], 0.1, samples=2 * n_sel, seed=seed, statistic=_statistic(mech), threshold_scoring=rule
    )
    return float(r.epsilon_lower), float(r.threshold), dict(r.counts)


#: The recorded values (floats as decimal strings, "inf" / "-inf" included), with their provenance.
PINNED = json.loads((Path(__file__).parent / "data" / "cross_fit_smooth_pins.json").read_text())["pins"]

#: Relative tolerance of the recorded floats: between this AVX-512 machine and the baseline path (another BLAS
#: kernel set, glibc without fused multiply-add, numpy without SIMD) they moved by at most 5.2e-15.
PIN_RTOL = 1e-12


def _pinned_float(x):
    """A recorded float (decimal string), or None for a name such as "D vs D'"."""
    if isinstance(x, str):
        try:
            return float(x)
        except ValueError:
            return None
    return None


def mismatches(got, want, path="", rtol=PIN_RTOL):
    """Where ``got`` differs from the recorded ``want``: paths of unequal names / counts, floats beyond ``rtol``."""
    if isinstance(want, list):
        if not isinstance(got, (list, tuple)) or len(got) != len(want):
            return [f"{path}: {got!r} != {want!r}"]
        return [m for i, (g, w) in enumerate(zip(got, want)) for m in mismatches(g, w, f"{path}[{i}]", rtol)]
    w = _pinned_float(want)
    if w is not None and isinstance(got, float):
        same = got == w or (math.isnan(got) and math.isnan(w)) or abs(got - w) <= rtol * abs(w)
        return [] if same else [f"{path}: {got!r} != {w!r} (relative {abs(got - w) / abs(w):.3g})"]
    return [] if got == want else [f"{path}: {got!r} != {want!r}"]


@pytest.mark.parametrize("rule", st.THRESHOLD_SCORINGS)
@pytest.mark.parametrize("name", sorted(CASES))
def test_selection_and_audit_equal_the_recorded_values(name, rule):
    want = PINNED[f"{name}|{rule}"]
    best, rows = run_case(st, name, rule)
    assert mismatches(rows, want["select"][1], "scores") == []
    assert mismatches(best, want["select"][0], "best") == []
    assert mismatches(run_audit(st, name, rule), want["audit"], "audit") == []


def _as_floats(values):
    return [_pinned_float(x) if _pinned_float(x) is not None else x for x in values]


def test_the_tolerance_tells_the_rules_apart_and_rejects_a_moved_score():
    # power of the comparison: on every one-column statistical case (no exact log-ratio, whose rules coincide)
    # the pessimistic rule's chosen score differs from cross-fit-smooth's beyond PIN_RTOL, so a rule swapped by
    # a refactoring fails; and a chosen score moved by 1e-9 relative is rejected while the recorded one passes
    for name in CASES:
        want = PINNED[f"{name}|cross-fit-smooth"]["select"][0]
        assert mismatches(_as_floats(want), want) == []
        moved = _as_floats(want)
        moved[0] *= 1.0 + 1e-9
        assert mismatches(moved, want) != []
        if not name.startswith("exact"):
            assert mismatches(_as_floats(PINNED[f"{name}|pessimistic"]["select"][0]), want) != [], name


def test_pins_cover_smoothed_candidates_and_ties():
    # the pins exercise what they claim: smoothed candidates on every one-column case, none on two columns,
    # and tied outputs within and across the datasets on the rounded cases
    for name, (mech, n_sel, _) in CASES.items():
        rows = PINNED[f"{name}|cross-fit-smooth"]["select"][1]
        n_smooth = sum("smoothed" in r[0] for r in rows)
        assert n_smooth == (4 if mech.cols == 1 and not isinstance(mech, Exact) else 0), name
        if mech.step is not None:
            a = mech.sample([[0.0]], n_sel, np.random.default_rng(0))[:, 0]
            b = mech.sample([[1.0]], n_sel, np.random.default_rng(1))[:, 0]
            assert np.unique(a).size < a.size and np.intersect1d(a, b).size > 0, name


@pytest.mark.parametrize("step", [None, 1.0, 0.25, 2.0**-10, "split"])
def test_tie_positions_give_the_stable_sorts(step):
    # the three orders derived from one stable ascending sort equal the stable sorts of the plain weighted
    # searches, permutation for permutation: heavy ties within and across the datasets, signed zeros, ties
    # inside one dataset only ("split"), none at all (None)
    rng = np.random.default_rng(11)
    n_first = 2_345
    v = rng.laplace(0.0, 3.0, 5_001)
    if step == "split":
        v = np.round(v)
        v[:n_first] += 0.5  # D on the half-integers, D' on the integers
    elif step is not None:
        v = np.round(v / step) * step
        v[:40] = 0.0
        v[40:80] = -0.0
    asc = np.argsort(v, kind="stable")
    down, swap = cross_fit._tie_positions(v[asc], asc < n_first)
    assert (down is None) == (step is None) and (swap is None) == (step in (None, "split"))
    down = np.arange(v.size)[::-1] if down is None else down
    swap = np.arange(v.size) if swap is None else swap
    assert np.array_equal(asc[down], np.argsort(-v, kind="stable"))
    swapped = np.concatenate([v[n_first:], v[:n_first]])  # the pooled (D', D) rows of the other sign
    n_second = v.size - n_first

    def rows(o):  # positions in (D', D) -> rows of (D, D')
        return np.where(o < n_second, o + n_first, o - n_second)

    assert np.array_equal(asc[swap], rows(np.argsort(swapped, kind="stable")))
    assert np.array_equal(asc[swap[down]], rows(np.argsort(-swapped, kind="stable")))


@pytest.mark.parametrize("case", ["lap1-ties", "lap1-odd"])
def test_smooth_thresholds_equal_the_plain_weighted_search_on_every_fit(case):
    # each of the twenty searches (output and its negative x 2 signs x 5 fits) from the shared order gives the
    # threshold of best_threshold_weighted on the fit's own rows with the spline's values there (the plain form
    # before the speed-up), and the fit's stored values are the spline's values on its rows
    mech, n_sel, _ = CASES[case]
    a = mech.sample([[0.0]], n_sel, np.random.default_rng(1))
    b = mech.sample([[1.0]], n_sel, np.random.default_rng(2))
    half = n_sel // 2
    x = np.concatenate([a, b])[:, 0]
    asc = np.argsort(x, kind="stable")
    models = smooth._smooth_models(a, b, half, x[asc], asc)
    assert all(np.array_equal(m1[1], m2[1]) for m1, m2 in zip(models, smooth._smooth_models(a, b, half)))
    got = smooth._smooth_thresholds(x, asc, len(a), models, 20_000, 0.0, 0.025)
    sa, sb = a[half:], b[half:]
    fa, fb = np.arange(len(sa)) % 4, np.arange(len(sb)) % 4
    rows = [(a, b)] + [
        (np.concatenate([a[:half], sa[fa != f]]), np.concatenate([b[:half], sb[fb != f]])) for f in range(4)
    ]
    for i, (xa, xb) in enumerate(rows):
        spline = st.SmoothLogRatio(xa[:, 0], xb[:, 0])
        la, lb = spline(xa[:, 0]), spline(xb[:, 0])
        assert all(np.array_equal(x, y) for x, y in zip(spline.fit_values, (la, lb)))
        for negated, stat in ((False, st.Projection()), (True, projection._Negated(st.Projection()))):
            za, zb = stat(xa), stat(xb)
            want = {
                1.0: st.best_threshold_weighted(za, zb, la, lb, 20_000, 20_000, 0.0, 0.025)[0],
                -1.0: st.best_threshold_weighted(-zb, -za, -lb, -la, 20_000, 20_000, 0.0, 0.025)[0],
            }
            for sign in (1.0, -1.0):
                assert got[(negated, sign)][i] == want[sign]


def _plain_weighted_search(z, cum_n, cum_o, n_num, n_den, delta, gamma, max_thresholds=2048):
    # main 91837e0's search of best_threshold_weighted: every coarse and fine index scored, np.argmax
    from proofs_checks.audit.confidence_bounds import clopper_pearson_epsilon_vector

    last = np.flatnonzero(np.append(z[1:] != z[:-1], True))
    P, Q = np.minimum(cum_n[last], 1.0), np.minimum(cum_o[last], 1.0)

    def score(idx):
        return clopper_pearson_epsilon_vector(P[idx] * n_num, n_num, Q[idx] * n_den, n_den, delta, gamma)

    idx = np.unique(np.linspace(0, last.size - 1, min(last.size, max_thresholds)).round().astype(np.int64))
    b = score(idx)
    j = int(np.argmax(b))
    lo, hi = idx[max(j - 1, 0)], idx[min(j + 1, idx.size - 1)]
    fine = np.arange(lo, hi + 1)
    if fine.size > max_thresholds:
        fine = np.unique(np.linspace(lo, hi, max_thresholds).round().astype(np.int64))
    bf = score(fine)
    k = int(np.argmax(bf))
    i, best = (int(fine[k]), float(bf[k])) if bf[k] >= b[j] else (int(idx[j]), float(b[j]))
    return float(np.nextafter(z[last[i]], -np.inf)), best


@pytest.mark.parametrize("seed", range(6))
def test_pruned_weighted_search_equals_scoring_every_threshold(seed):
    # _weighted_search skips the blocks of thresholds whose bound cannot reach the best (_argmax_monotone):
    # the same threshold and bound as scoring all of them, on weights from flat to sharply tilted, sizes
    # below and above the 2048 coarse thresholds, delta > 0 (bounds of -inf), and ties
    rng = np.random.default_rng(seed)
    n = (300, 3_000, 60_000)[seed % 3]
    z = -np.sort(-np.round(rng.standard_normal(n), 2 if seed % 2 else 12))
    l = rng.normal(0.0, (0.05, 1.0, 4.0)[seed % 3], n) + 0.3 * z
    m = n / 2.0
    cum_n = np.cumsum(1.0 / (1.0 + np.exp(-l)) / m)
    cum_o = np.cumsum(1.0 / (1.0 + np.exp(l)) / m)
    for delta in (0.0, 1e-3, 0.4):
        for n_est in (1_000, 10**6):
            want = _plain_weighted_search(z, cum_n, cum_o, n_est, n_est, delta, 0.025)
            assert thresholds._weighted_search(z, cum_n, cum_o, n_est, n_est, delta, 0.025) == want


@pytest.mark.parametrize("kind", ["continuous", "ties", "zeros", "inf", "nan", "int"])
def test_stable_orders_are_the_four_stable_argsorts(kind):
    # the cross-fitted scores' sorts: the two directions' orders from two stable sorts equal the four plain ones
    rng = np.random.default_rng(5)
    s_a, s_b = rng.laplace(0.0, 1.0, 3_001), rng.laplace(0.5, 1.0, 2_999)
    if kind == "ties":
        s_a, s_b = np.round(s_a, 1), np.round(s_b, 1)
    elif kind == "zeros":
        s_a[::3], s_b[::5], s_a[1::7] = 0.0, -0.0, -0.0
    elif kind == "inf":
        s_a[::11], s_b[::13] = np.inf, -np.inf
    elif kind == "nan":
        s_a[::17], s_b[::19] = np.nan, np.nan
    elif kind == "int":
        s_a, s_b = np.round(s_a * 3).astype(np.int64), np.round(s_b * 3).astype(np.int64)
    got = cross_fit._stable_orders(s_a, s_b)
    for sign, (num, den) in ((1.0, (s_a, s_b)), (-1.0, (-s_b, -s_a))):
        assert np.array_equal(got[sign][0], np.argsort(num, kind="stable"))
        assert np.array_equal(got[sign][1], np.argsort(den, kind="stable"))


@pytest.mark.parametrize("zeros", [False, True])
def test_spline_from_sorted_outputs_is_the_same_fit(zeros):
    # SmoothLogRatio's order statistics (median, quartiles, knots) from the sorted outputs: the same floats as
    # from the unsorted ones (with a zero among the outputs it takes the unsorted path: -0.0 vs 0.0)
    rng = np.random.default_rng(3)
    a, b = np.round(rng.laplace(0.0, 1.0, 4_001), 3), np.round(rng.laplace(0.7, 1.0, 3_999), 3)
    if zeros:
        a[:7], b[:5] = -0.0, 0.0
    else:
        a, b = a[a != 0.0], b[b != 0.0]
    plain, fast = st.SmoothLogRatio(a, b), st.SmoothLogRatio(a, b, np.sort(np.concatenate([a, b])))
    assert plain.ok and fast.ok
    for name in ("center", "scale"):
        assert getattr(plain, name) == getattr(fast, name)
    assert np.array_equal(plain.knots, fast.knots) and np.array_equal(plain.w, fast.w)
