"""Readings of Arora et al. (004): [004 Thm. 2]'s K rule and the noise level of [004 App. D.3].

Reference values are closed forms worked by hand from the printed K (see the docstrings of
:mod:`reference.arora.theorem2` and :mod:`proofs_checks.claim_sets.arora.theorem2`).
"""

import math
import warnings

import pytest

from proofs_checks.claim_sets.arora import theorem2 as T
from proofs_checks.model import CheckContext
from proofs_checks.registry import default_registry
from reference.arora.theorem2 import theorem2_grid_size, theorem2_guess_scale

CTX = CheckContext(profile="quick", seed=20261121)


@pytest.fixture(scope="module")
def registry():
    return default_registry()


def _run(claim):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return claim.check(CTX.for_claim(claim.id))


def test_guess_scale_closed_forms():
    # first argument Y sqrt(n)/(X sqrt H); proof's Y sqrt(n eps)/(X sqrt H); second Y^2 (n eps)^(2/3)/(sqrt H X^2)
    assert theorem2_guess_scale(10**4, 1.0, 1.0, 2.0, 4.0, "first-term") == pytest.approx(100.0, rel=1e-12)
    assert theorem2_guess_scale(10**4, 0.25, 1.0, 2.0, 4.0, "proof") == pytest.approx(
        max(50.0, 4 * 2500 ** (2 / 3) / 2), rel=1e-12
    )
    assert theorem2_guess_scale(10**6, 1.0, 1.0, 1.0, 1.0) == pytest.approx(10**4, rel=1e-12)
    assert theorem2_grid_size(10**6, 1.0, 1.0, 1.0, 1.0) == 14  # 2^14 = 16384 >= 1e4 > 2^13


def test_guess_scale_rejects_bad_input_and_survives_extremes():
    with pytest.raises(ValueError, match="rule"):
        theorem2_guess_scale(100, 1.0, 1.0, 1.0, 1.0, "other")
    with pytest.raises(ValueError, match="x_bound"):
        theorem2_guess_scale(100, 1.0, -1.0, 1.0, 1.0)
    with pytest.raises(ValueError, match="overflow"):
        theorem2_guess_scale(100, 1.0, 1e-300, 1e300, 1.0)
    assert math.isfinite(theorem2_guess_scale(10**6, 1e-300, 1.0, 1.0, 1.0))


def test_k_rule_confirmed_and_mutants_refuted(registry):
    claim = registry.claim("arora.thm2.k-rule")
    res = _run(claim)
    assert res.verdict == "confirmed" and 0 <= res.observed < 1
    for m in claim.mutants:
        assert m.check(CTX.for_claim(claim.id)).verdict == "refuted", m.name
    # eps > 1: the statement's K falls short of the proof's guess by about (1/2) log2 eps (reported, not judged)
    above = res.evidence["eps_above_one"]
    assert all(r["log2_required_guess"] <= r["K"] + 0.5 * math.log2(r["epsilon"]) for r in above)


def test_noise_level_statement_k_grows_like_a_power(registry):
    # with B_K ~ Y^2 (n eps)^(2/3)/(sqrt H X^2), H X^2 sigma_K^2 ~ n^(1/3) up to logs: slope about 0.4 > 0.2
    claim = registry.claim("arora.thm2.noise-level")
    assert claim.scope == "reproduction"
    res = _run(claim)
    assert res.verdict == "refuted" and 1 / 3 < res.observed < 0.45
    (m,) = claim.mutants
    assert m.check(CTX.for_claim(claim.id)).verdict in m.detected_by


def test_noise_level_first_term_confirmed_and_mutant_refuted(registry):
    claim = registry.claim("arora.thm2.noise-level.first-term")
    res = _run(claim)
    assert res.verdict == "confirmed" and res.observed < T.NOISE_SLOPE_TOL
    (m,) = claim.mutants
    assert m.check(CTX.for_claim(claim.id)).verdict == "refuted"


def test_replace_one_relation_cites_lemma_d4_not_d2():
    # the fragment has no formal DP definition; "S and S' differ in only one point" is in the proof of Lemma D.4
    from proofs_checks.claim_sets.arora import grid_search, learners

    for text in (grid_search.NEIGHBOURS, learners.NEIGHBOURS):
        assert "Lemma D.4" in text and "D.2" not in text and "replace-one" in text


def test_printed_box_refutation_survives_err_as_largest_realised_excess():
    # hostile reading of err(B'): a (1 - beta/4K) bound, taken as the largest realised excess of w_j' over the
    # runs; at n = 16000 the printed box still violates it (GEM returns w_0, excess about 0.59 > 0.18 + err)
    from proofs_checks.claim_sets.arora.excess_risk import thm1_excess_risk_check

    check = thm1_excess_risk_check("printed", sweep=dict(ns=(16000,), K=3, reps=20, datasets=1))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        res = check(CTX.for_claim("arora.thm1.excess-risk.printed"))
    (row,) = res.evidence["per_n"]
    assert res.verdict == "refuted" and row["violation_rate_err_as_largest_realised"] >= 0.9
