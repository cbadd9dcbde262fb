"""Hu, Ni, Xiao & Wang (002): [002 Lemma 3], [002 Thm. 9] and the index readings of
[002 Alg. 5 step 4]; each check refutes its deliberately broken variant (or confirms the other reading)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from proofs_checks.claim_sets.hu import alg5_readings, lower_bound
from proofs_checks.model import CheckContext
from proofs_checks.registry import default_registry
from reference.hu.lower_bound import (
    lemma3_closed_form,
    lemma11_log_size,
    lemma11_packing,
    packing_min_distance,
    theorem9_proof_bound,
    theorem9_proof_p,
)
from reference.hu.sparse import LaggedSparseOptPeelingStep, SparseOptPeelingStep, heavy_tailed_sparse_optimization

CTX = CheckContext(profile="quick", seed=1)


def _run(check, cid):
    return check(CTX.for_claim(cid))


# ----------------------------------------------------------------------------- reference pieces


def test_lemma3_closed_form_against_mpmath():
    mp = pytest.importorskip("mpmath")
    mp.mp.dps = 40
    # (|V|, n, p, eps, delta) -> the printed eq. (10) evaluated in mpmath, 40 digits
    for size, n, p, eps, dlt in ((2, 10, 0.1, 1.0, 0.0), (5, 7, 0.3, 0.2, 1e-4), (100, 1000, 1e-3, 1e-3, 1e-9)):
        K = math.ceil(n * p)
        y = mp.e ** (-mp.mpf(eps) * K)
        ref = (size - 1) * (y / 2 - dlt * (1 - y) / (1 - mp.e ** (-mp.mpf(eps)))) / (1 + (size - 1) * y)
        assert lemma3_closed_form(size, n, p, eps, dlt) == pytest.approx(float(ref), rel=1e-13)


def test_lemma3_closed_form_rejects_bad_input():
    with pytest.raises(ValueError, match="size"):
        lemma3_closed_form(1, 10, 0.1, 1.0, 0.0)
    with pytest.raises(ValueError, match="p must"):
        lemma3_closed_form(2, 10, 1.5, 1.0, 0.0)
    with pytest.raises(ValueError, match="delta"):
        lemma3_closed_form(2, 10, 0.1, 1.0, 1.0)


def test_lemma11_packing_has_the_guaranteed_distance_and_size():
    for d, s in ((10, 2), (8, 4), (9, 3)):
        H = lemma11_packing(d, s, rng=0)
        assert np.all(np.count_nonzero(H, axis=1) == s)
        ham = (H[:, None, :] != H[None, :, :]).sum(axis=2)
        np.fill_diagonal(ham, d)
        assert ham.min() >= s / 2
        assert H.shape[0] >= math.exp(lemma11_log_size(d, s))
        # entries 1/sqrt(2s) and Hamming distance s/2 guarantee l2 distance 1/2 only
        assert packing_min_distance(H / math.sqrt(2 * s)) >= 0.5 - 1e-12


def test_theorem9_proof_pieces():
    p = theorem9_proof_p(10_000, 1.0, 1e-6, 1000, 5)
    # the first term: (5/2) log(995 / 2.5) - 1 = 13.97...; the second: log((1 - e^-1)/(4e-6 e)) = 10.97...
    assert p == pytest.approx((math.log((1 - math.exp(-1)) / 4e-6) - 1.0) / 1e4, rel=1e-14)
    assert theorem9_proof_bound(10_000, 1.0, 1e-6, 1000, 5, 1.0) == pytest.approx(p / 4, rel=1e-14)
    assert theorem9_proof_bound(10_000, 1.0, 1e-6, 1000, 5, 1.0, separation_sq=0.25) == pytest.approx(p / 32)
    with pytest.raises(ValueError, match="not positive"):
        theorem9_proof_p(100, 1.0, 1e-6, 10, 7)  # s >= 2d/3: Lemma 11's packing has fewer than e^eps points


def test_optimal_test_error_is_randomized_response_for_one_record():
    # n = 1, |V| = 2, p = 1: the optimal eps-DP test is randomized response, error 1/(1 + e^eps) (closed form)
    for eps in (0.1, 1.0, 2.5):
        assert lower_bound.optimal_test_error(1, 2, 1.0, eps, 0.0) == pytest.approx(1 / (1 + math.exp(eps)), abs=1e-8)
    # (eps, delta): randomized response with delta = P(output flips less): error (1 - delta)/(1 + e^eps)
    assert lower_bound.optimal_test_error(1, 2, 1.0, 1.0, 0.1) == pytest.approx(0.9 / (1 + math.e), abs=1e-8)


# ----------------------------------------------------------------------------- Lemma 3 and Theorem 9 claims


def test_lemma3_printed_refuted_half_reading_holds():
    cid = "hu.lemma3.printed"
    res = _run(lower_bound.lemma3_printed_check(), cid)
    assert res.verdict == "refuted" and res.observed == 0.0 and res.bound > 0.2
    assert "reading A" in res.reading and "replace-one" in res.reading
    assert _run(lower_bound.lemma3_printed_check(half=True), cid).verdict == "confirmed"


def test_lemma3_lp_confirmed_with_slack_two_and_catches_x205():
    cid = "hu.lemma3.half-separation"
    res = _run(lower_bound.lemma3_lp_check(), cid)
    assert res.verdict == "confirmed" and 2.0 <= res.observed < 2.05
    assert _run(lower_bound.lemma3_lp_check(scale=2.05), cid).verdict == "refuted"


def test_packing_separation_refuted_and_corrected_separation_confirmed():
    cid = "hu.thm9.packing-separation"
    res = _run(lower_bound.packing_separation_check(), cid)
    assert res.verdict == "refuted" and res.observed == pytest.approx(0.5) and res.bound == pytest.approx(math.sqrt(2))
    assert _run(lower_bound.packing_separation_check(stated=0.5), cid).verdict == "confirmed"
    # reading B: entries 2/sqrt(s) (||v||_2 = 2, in the class for s >= 4) give the printed separation
    b = _run(lower_bound.packing_separation_check(entry_scale=lambda s: 2 / math.sqrt(s)), cid)
    assert b.verdict == "confirmed" and b.observed == pytest.approx(math.sqrt(2))


def test_thm9_formula_and_its_mutants():
    reg = default_registry()
    claim = reg.claim("hu.thm9.formula")
    assert _run(claim.check, claim.id).verdict == "confirmed"
    assert len(claim.mutants) == 2
    assert all(_run(m.check, claim.id).verdict == "refuted" for m in claim.mutants)


def test_thm9_rate_is_vacuous_and_reports_the_explicit_constants():
    res = _run(lower_bound.thm9_rate_check(), "hu.thm9.rate")
    assert res.verdict == "vacuous"
    for row in res.evidence["settings"]:
        assert row["proof_explicit"] == pytest.approx(row["p"] * row["tau"] / 4)
        assert row["risk_of_estimator_0"] == pytest.approx(2 * row["proof_explicit"])


# ----------------------------------------------------------------------------- Algorithm 5 index readings


def _small_data(rng, n=12, d=4):
    X = rng.standard_t(3, size=(n, d))
    return np.column_stack([X, 0.5 * X[:, 0] + rng.normal(size=n)])


def test_gradient_at_current_is_the_existing_law():
    data = _small_data(np.random.default_rng(3))
    args = (data, "squared", np.zeros(4), 2, 1.0, 3.0, 3, 0.5, 0.9, 0.1)
    a = heavy_tailed_sparse_optimization(*args, rng=7)
    b = heavy_tailed_sparse_optimization(*args, rng=7, gradient_at="current", path=True)
    assert b.shape == (4, 4) and np.array_equal(a, b[-1])
    c = heavy_tailed_sparse_optimization(*args, rng=7, gradient_at="previous", path=True)
    assert np.array_equal(b[1], c[1])  # w^0 := w^1: the first step is the same
    assert not np.array_equal(b[-1], c[-1])
    with pytest.raises(ValueError, match="gradient_at"):
        heavy_tailed_sparse_optimization(*args, rng=7, gradient_at="next")


def test_lagged_step_reduces_to_the_current_one_and_batches_exactly():
    rng = np.random.default_rng(5)
    data = _small_data(rng, n=3, d=3)
    w = np.array([0.0, 0.6, 0.0])
    kw = dict(m=3, epsilon=0.9, delta=0.1, s=1, k=2.0, beta=1.0, eta=0.5, loss="squared")
    same = LaggedSparseOptPeelingStep(w=w, w_grad=w, **kw)
    np.testing.assert_array_equal(same.v(data), SparseOptPeelingStep(w=w, **kw).v(data))
    # private: _LaggedStep: the lagged-gradient reading's step is the subject
    step = alg5_readings._LaggedStep(w=w, w_grad=np.array([0.3, 0.0, 0.0]), **kw)
    pool = rng.standard_t(1.5, size=(5, 4)) * 10
    V = step.v_of_neighbours(data, pool, 1)
    for c in range(pool.shape[0]):
        nb = data.copy()
        nb[1] = pool[c]
        np.testing.assert_allclose(V[c], step.v(nb), rtol=1e-12, atol=1e-15)
    with pytest.raises(ValueError, match="w_grad"):
        LaggedSparseOptPeelingStep(w=w, w_grad=np.zeros(2), **kw)


def test_recursion_holds_under_reading_b_fails_under_reading_a():
    ok = _run(alg5_readings.recursion_check("current"), "hu.thm8.recursion.current-gradient")
    assert ok.verdict == "confirmed" and ok.observed == pytest.approx(1 / 9, rel=1e-5)
    bad = _run(alg5_readings.recursion_check("previous"), "hu.thm8.recursion.printed-indices")
    # e_{t+1} = e_t - (2/3) e_{t-1}, e_0 = e_1: squared ratios 1/9, 1, 25/9, 9/25, 1/81, 49, ... (exact recurrence)
    assert bad.verdict == "refuted" and bad.observed == pytest.approx(49.0, rel=1e-5)
    np.testing.assert_allclose(bad.evidence["ratios"][:3], [1 / 9, 1.0, 25 / 9], rtol=1e-5)
    for factor in (3.0, 0.06):
        assert (
            _run(
                alg5_readings.recursion_check("current", eta_factor=factor), "hu.thm8.recursion.current-gradient"
            ).verdict
            == "refuted"
        )


@pytest.mark.slow
def test_lagged_privacy_confirmed_and_catches_lambda_x001():
    cid = "hu.thm8.privacy.printed-indices"
    assert _run(alg5_readings.lagged_privacy_check(), cid).verdict == "confirmed"
    assert _run(alg5_readings.lagged_privacy_check(lam_factor=0.01), cid).verdict == "refuted"


def test_new_claims_are_registered_with_readings():
    reg = default_registry()
    for cid in (
        "hu.lemma3.printed",
        "hu.lemma3.half-separation",
        "hu.thm9.packing-separation",
        "hu.thm9.formula",
        "hu.thm9.rate",
        "hu.thm8.recursion.current-gradient",
        "hu.thm8.recursion.printed-indices",
        "hu.thm8.privacy.printed-indices",
    ):
        claim = reg.claim(cid)
        assert claim.source.startswith("[002 ")


# ----------------------------------------------------------------------------- readings ------------------


def test_neighbouring_relation_quotes_definition_1():
    from proofs_checks.claim_sets.hu import NEIGHBOURS, variant_reading

    assert "replace-one" in NEIGHBOURS and "[002 Def. 1]" in NEIGHBOURS and "line 54" in NEIGHBOURS
    assert "differ by only one data sample" in NEIGHBOURS
    printed = variant_reading("printed", "hu.x.standard")
    assert "hu.x.standard: confirmed" in printed and "b > 0" in printed and "line 1083" in printed
    assert "hu.x.printed: refuted" in variant_reading("standard", "hu.x.printed")


def test_proof_lambda_claim_states_the_lambda_it_checks():
    reg = default_registry()
    claim = reg.claim("hu.thm8.privacy.proof-lambda")
    reading = claim.check.__wrapped__.reading  # the Result's reading, without running the check
    assert "4 sqrt(2) k eta / (3m)" in reading and "a third of the printed" in reading
    assert "reading B of step 4" in reading and "line 318" in reading
    printed = reg.claim("hu.thm8.privacy.standard").check.__wrapped__.reading
    assert "the printed lambda = 4 sqrt(2) k eta / m" in printed


@pytest.mark.slow
def test_proof_lambda_claim_result_carries_the_reading():
    reg = default_registry()
    claim = reg.claim("hu.thm8.privacy.proof-lambda")
    res = claim.check(CTX.for_claim(claim.id))
    assert res.verdict == "confirmed"
    assert "4 sqrt(2) k eta / (3m)" in res.reading and "a third of the printed" in res.reading
    assert "reading B of step 4" in res.reading and "line 318" in res.reading


def test_alg5_lambda_at_the_proofs_bound_is_a_named_variant():
    from reference.hu.sparse import sparse_opt_lambda

    # closed forms: printed 4 sqrt(2) k eta / m, proof 4 sqrt(2) eta k / (3m)
    assert sparse_opt_lambda(3.0, 0.5, 7) == 4 * 3.0 * math.sqrt(2) * 0.5 / 7
    assert sparse_opt_lambda(3.0, 0.5, 7, bound="proof") == pytest.approx(4 * math.sqrt(2) * 0.5 * 3.0 / 21, rel=1e-15)
    with pytest.raises(ValueError, match="bound"):
        sparse_opt_lambda(3.0, 0.5, 7, bound="half")


@pytest.mark.parametrize(
    "bad", [{"p": "0.5"}, {"p": float("nan")}, {"p": 1.5}, {"delta": 1.0}, {"delta": "0"}, {"epsilon": 0.0}]
)
def test_lemma3_closed_form_names_a_bad_parameter(bad):
    from reference.hu.lower_bound import lemma3_closed_form

    kwargs = {"size": 3, "n": 10, "p": 0.5, "epsilon": 1.0, "delta": 0.0, **bad}
    with pytest.raises((TypeError, ValueError), match=next(iter(bad))):
        lemma3_closed_form(**kwargs)
