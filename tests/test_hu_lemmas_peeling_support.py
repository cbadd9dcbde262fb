"""[002 Lemma 13] and [002 Lemma 14]: verdicts per reading, power (each mutant's opposite verdict), exact witnesses.

References: the noise-free Lemma 13 is the averaging fact on sorted squares (checked by hand on small vectors);
Lemma 14's counterexample is evaluated in exact rationals (fractions.Fraction) and its float64 sides against it.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from proofs_checks.model import CheckContext
from proofs_checks.registry import default_registry

VERDICTS = {
    "hu.lemma13.peeling-projection.contains-support": "confirmed",
    "hu.lemma13.peeling-projection.any-index-set": "refuted",
    "hu.lemma14.support-gradient.half-loss.minimiser": "confirmed",
    "hu.lemma14.support-gradient.half-loss.best-sparse": "refuted",
    "hu.lemma14.support-gradient.half-loss.any-sparse": "refuted",
    "hu.lemma14.support-gradient.printed-gradient.minimiser": "confirmed",
    "hu.lemma14.support-gradient.printed-gradient.best-sparse": "confirmed",
    "hu.lemma14.support-gradient.printed-gradient.any-sparse": "confirmed",
}


@pytest.fixture(scope="module")
def claims():
    return {c.id: c for c in default_registry().claims if c.id in VERDICTS}


def _run(check, claim_id, seed=20261121):
    return check(CheckContext(profile="quick", seed=seed).for_claim(claim_id))


@pytest.fixture(scope="module")
def results(claims):
    return {cid: (_run(c.check, cid), [(m, _run(m.check, cid)) for m in c.mutants]) for cid, c in claims.items()}


@pytest.mark.parametrize("claim_id", sorted(VERDICTS))
def test_verdict_and_power(results, claim_id):
    result, mutants = results[claim_id]
    assert result.verdict == VERDICTS[claim_id], (claim_id, result.observed)
    assert mutants
    for mutant, got in mutants:
        assert got.verdict in mutant.detected_by, (claim_id, mutant.name, got.verdict)


@pytest.mark.parametrize("seed", [1, 2])
def test_verdicts_do_not_flip_with_the_seed(claims, seed):
    for claim_id in (
        "hu.lemma13.peeling-projection.contains-support",
        "hu.lemma14.support-gradient.half-loss.any-sparse",
    ):
        assert _run(claims[claim_id].check, claim_id, seed).verdict == VERDICTS[claim_id]


def test_lemma13_sides_by_hand_and_vectorised():
    # private: _worst_over_free_choices: the vectorised worst case over s^ and c is the subject, checked by hand here
    from proofs_checks.claim_sets.hu.peeling_projection import C_GRID, _worst_over_free_choices, lemma13_sides

    # v~ = (3, 1, 1, 1), S = {0}, I = all: left 3; s^ = 0 leaves all squares (12), factor (4-1)/(4-0)
    left, right = lemma13_sides(np.array([3.0, 1.0, 1.0, 1.0]), [0], [0, 1, 2, 3], 0, np.zeros((1, 4)), 1.0)
    assert (left, right) == (3.0, 2 * 0.75 * 12)
    rng = np.random.default_rng(5)
    v = rng.standard_t(2.0, size=8)
    noise = rng.laplace(size=(3, 8))
    support, index = [1, 4, 6], np.array([1, 4, 6, 0, 2])
    ratio, s_hat, c, left, right = _worst_over_free_choices(v, support, index, noise, 1.0)
    direct = max(
        lemma13_sides(v, support, index, k, noise, cc)[0] / lemma13_sides(v, support, index, k, noise, cc)[1]
        for k in range(4)
        for cc in C_GRID
    )
    assert ratio == pytest.approx(direct, rel=1e-12)
    with pytest.raises(ValueError, match="s_hat"):
        lemma13_sides(v, support, index, 4, noise, 1.0)
    with pytest.raises(ValueError, match="c must be"):
        lemma13_sides(v, support, index, 1, noise, 0.0)


def test_lemma13_any_index_set_witness_is_genuine(results):
    # the refutation rests on one recorded Peeling run: recompute its left side from the recorded vectors
    result = results["hu.lemma13.peeling-projection.any-index-set"][0]
    worst = result.evidence["worst"]
    v = np.array(worst["v_tilde"])
    outside = [j for j in worst["index_set"] if j not in worst["support"]]
    assert float(np.sum(v[outside] ** 2)) == pytest.approx(worst["left"], rel=1e-12)
    assert not set(worst["support"]) <= set(worst["index_set"])  # I does not contain S
    assert result.observed > 10


def test_lemma14_exact_witness_in_rationals():
    from proofs_checks.claim_sets.hu.support_gradient import exact_witness, lemma14_sides

    w = exact_witness()
    assert Fraction(w["excess_risk"]) == Fraction(-3, 8)
    assert Fraction(w["left"]) == Fraction(-5, 16) < Fraction(w["right"]) == Fraction(-3, 16)
    # w* = (1, 0) is a best 1-sparse point of L(w) = ||w - (1, 1)||^2 / 2 (tie with (0, 1)): both leave 1/2
    left, right = lemma14_sides(np.eye(2), np.array([0.0, 1.5]), np.array([0.0, -1.0]), [0, 1])
    assert (left, right) == (-0.3125, -0.1875)  # exact in float64: dyadic rationals
    # the printed-gradient reading on the same points holds: excess doubles, right side -3/8 <= -5/16
    left2, right2 = lemma14_sides(np.eye(2), np.array([0.0, 1.5]), np.array([0.0, -1.0]), [0, 1], "printed-gradient")
    assert left2 == -0.3125 and right2 == -0.375 and left2 >= right2


def test_lemma14_minimiser_tight_factor_is_analytic(results):
    # Sigma = mu I and w* the minimiser: left / (mu excess) = 3/2 (half-loss), 3/4 (printed-gradient)
    for reading, expected in (("half-loss", 1.5), ("printed-gradient", 0.75)):
        result = results[f"hu.lemma14.support-gradient.{reading}.minimiser"][0]
        assert f"{expected:.4f}" in result.evidence["note"]


def test_lemma14_sides_reject_bad_input():
    from proofs_checks.claim_sets.hu.support_gradient import lemma14_check, lemma14_sides

    with pytest.raises(ValueError, match="reading"):
        lemma14_sides(np.eye(2), np.zeros(2), np.zeros(2), [0], "quarter")
    with pytest.raises(ValueError, match="outside support"):
        lemma14_sides(np.eye(2), np.array([0.0, 1.0]), np.zeros(2), [0])
    with pytest.raises(ValueError, match="w_star"):
        lemma14_check(w_star="nearest")
