"""The generic sensitivity search: confirms true bounds, refutes halved ones, reports non-finite outputs."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from proofs_checks.claim_sets import proof_identities as PI
from proofs_checks.formulas.sensitivity import (
    hypothesis_search,
    norm_of_difference,
    search_sensitivity,
    sensitivity_check,
)
from proofs_checks.model import CheckContext
from proofs_checks.registry import Registry
from proofs_checks.runner import run_claim

CTX = CheckContext(profile="quick", seed=11)
C = 1.0


def clipped(d):
    return np.clip(d, -C, C).mean(axis=0)


def _base(seed=0, n=30, width=3):
    return np.random.default_rng(seed).standard_t(1.5, size=(n, width))


def test_clipped_mean_claim_confirmed_at_the_bound():
    reg = Registry()
    PI.register(reg)
    res = run_claim(reg.claim("proofs.sensitivity.clipped-mean"), CTX)
    assert res.verdict == "confirmed" and res.observed == pytest.approx(1, abs=1e-12) and res.margin > -1e-12
    assert res.seed == CTX.for_claim("proofs.sensitivity.clipped-mean").seed_entropy()
    # the base holds a record clipped in every coordinate, so every norm's bound is attained
    for case in res.evidence["cases"].values():
        assert abs(case["observed_over_stated"] - 1) < 1e-12


def test_halved_sensitivity_is_refuted():
    # private: _clipped_mean_cases: the claim's own cases, with a halved stated sensitivity
    check = sensitivity_check(PI._clipped_mean_cases(), stated_factor=0.5)
    res = check(CTX.for_claim("t"))
    assert res.verdict == "refuted" and res.observed == pytest.approx(2, abs=1e-12) and res.bound == 1.0
    assert all(abs(c["observed_over_stated"] - 2) < 1e-12 for c in res.evidence["cases"].values())


@pytest.mark.parametrize("norm", ["sup", "l1", "l2"])
def test_finds_the_known_worst_case(norm):
    base = _base()
    n = base.shape[0]
    # Exact worst case (hand derivation): replace row i by a record beyond +-C with signs opposite
    # to clip(x_i); per coordinate the change is (C + |clip(x_ij)|)/n.
    per_coord = (C + np.abs(np.clip(base, -C, C))) / n
    exact = {
        "sup": per_coord.max(),
        "l1": per_coord.sum(axis=1).max(),
        "l2": np.sqrt((per_coord**2).sum(axis=1)).max(),
    }[norm]
    res = search_sensitivity(clipped, base, exact, norm=norm, rng=2, budget=3000, max_indices=n, rtol=1e-9, atol=1e-12)
    assert res.verdict == "confirmed"
    assert abs(res.ratio - 1) < 1e-12
    assert res.evaluations <= 3000
    # and the true bound halved is refuted, with the pair that shows it
    bad = search_sensitivity(clipped, base, exact / 2, norm=norm, rng=2, budget=3000, max_indices=n)
    assert bad.verdict == "refuted" and bad.index is not None and bad.record.shape == (3,)
    data = base.copy()
    data[bad.index] = bad.record
    assert norm_of_difference(clipped(data), clipped(base), norm) == bad.observed


def test_unbounded_mean_is_refuted_without_nan():
    res = search_sensitivity(lambda d: d.mean(axis=0), _base(), 1e6, rng=0, budget=500)
    assert res.verdict == "refuted" and not math.isnan(res.observed) and res.observed > 1e300


def test_nonfinite_output_is_a_refutation_with_the_pair():
    def f(d):  # overflows to inf for records beyond ~1e154
        with np.errstate(over="ignore"):
            return np.array([np.mean(d**2)])

    res = search_sensitivity(f, _base(), 1e300, norm="abs", rng=0, budget=500)
    assert res.verdict == "refuted" and res.nonfinite and res.observed == math.inf
    data = _base()
    data[res.index] = res.record
    assert not np.isfinite(f(data)).all()


def test_nonfinite_at_base_is_a_refutation():
    res = search_sensitivity(lambda d: np.array([np.nan]), _base(), 1.0, norm="abs", rng=0, budget=10)
    assert res.verdict == "refuted" and res.index is None and res.nonfinite


def test_vectorized_mode_agrees():
    base = _base()
    a = search_sensitivity(clipped, base, 0.1, rng=4, budget=600)
    b = search_sensitivity(lambda s: np.clip(s, -C, C).mean(axis=-2), base, 0.1, rng=4, budget=600, vectorized=True)
    assert a.observed == b.observed and a.evaluations == b.evaluations


def test_hypothesis_search_confirms_and_refutes():
    base = _base()
    base[0] = -10.0
    good = hypothesis_search(clipped, base, 2 * C / 30, max_examples=150, index=0)
    assert good.verdict == "confirmed" and good.ratio > 0.99
    assert hypothesis_search(clipped, base, C / 30, max_examples=150, index=0).verdict == "refuted"


@settings(max_examples=30)
@given(st.lists(st.floats(allow_nan=False, allow_infinity=False), min_size=12, max_size=12))
def test_search_never_produces_nan(values):
    base = np.array(values).reshape(4, 3)
    for f, norm in ((clipped, "l2"), (lambda d: d.sum(axis=0), "l1"), (lambda d: d.max(axis=0), "sup")):
        res = search_sensitivity(f, base, 1.0, norm=norm, rng=0, budget=60)
        assert not math.isnan(res.observed) and not math.isnan(res.ratio)
        assert res.verdict in ("confirmed", "refuted")
        assert res.record is None or np.all(np.isfinite(res.record))


def test_norm_of_difference_is_overflow_and_underflow_safe():
    big = np.finfo(np.float64).max
    assert norm_of_difference([big], [-big], "sup") == math.inf
    assert norm_of_difference([big, big], [-big, 0.0], "l1") == math.inf
    assert norm_of_difference([3e-200, 4e-200], [0.0, 0.0], "l2") == pytest.approx(5e-200, rel=1e-15)
    assert norm_of_difference([3e200, 4e200], [0.0, 0.0], "l2") == pytest.approx(5e200, rel=1e-15)
    assert norm_of_difference([5e-324], [0.0], "abs") == 5e-324


@pytest.mark.parametrize(
    "kwargs, exc, name",
    [
        (dict(stated=0.0), ValueError, "stated"),
        (dict(stated=float("nan")), ValueError, "stated"),
        (dict(norm="l3"), ValueError, "norm"),
        (dict(budget=0), ValueError, "budget"),
        (dict(budget=2.5), TypeError, "budget"),
        (dict(rtol=-1.0), ValueError, "rtol"),
        (dict(indices=[99]), ValueError, "indices"),
        (dict(base=np.ones(5)), ValueError, "base"),
        (dict(base=np.array([[1.0, np.nan]])), ValueError, "base"),
        (dict(f=3), TypeError, "f"),
    ],
)
def test_bad_input_raises_naming_parameter(kwargs, exc, name):
    args = dict(f=clipped, base=_base(n=5), stated=1.0)
    args.update(kwargs)
    with pytest.raises(exc, match=name):
        search_sensitivity(**args)


def test_abs_norm_needs_scalar():
    with pytest.raises(ValueError, match="abs"):
        search_sensitivity(clipped, _base(), 1.0, norm="abs")


@pytest.mark.parametrize("budget", [1, 5, 37])
def test_budget_is_respected_even_with_extra_records(budget):
    res = search_sensitivity(clipped, _base(), 0.1, rng=0, budget=budget, extra_records=np.full((20, 3), 5.0))
    assert 1 <= res.evaluations <= budget


def test_extra_records_known_worst_case_first():
    base = _base()
    base[7] = -10.0
    res = search_sensitivity(
        clipped, base, 2 * C / 30, rng=0, budget=8, indices=[7], extra_records=[[10.0, 10.0, 10.0]]
    )
    assert abs(res.ratio - 1) < 1e-12 and res.index == 7
