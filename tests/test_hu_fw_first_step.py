"""[002 Lemma 6] at its first iterations: the printed step index against Jaggi's first step 1, exact rationals.

Reference values: the closed form h_t = 2 h_0 / ((t+1)(t+2)) of Frank-Wolfe on the linear f(w) = w over [-1, 1]
(h_0 = 1), derived in the module's proof note; every value below is a Fraction, compared exactly.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from proofs_checks.claim_sets.hu.fw_first_step import first_step_gaps
from proofs_checks.model import CheckContext
from proofs_checks.registry import default_registry


def test_printed_index_gaps_are_the_closed_form():
    rows = first_step_gaps(Fraction(0), "printed", 4)
    assert [r["gap"] for r in rows] == [Fraction(2, (t + 1) * (t + 2)) for t in range(1, 5)]
    assert all(r["bound"] == 0 for r in rows)


def test_jaggi_index_closes_the_gap_at_the_first_step():
    for curvature in (Fraction(0), Fraction(1, 10)):
        rows = first_step_gaps(curvature, "jaggi", 4)
        assert all(r["gap"] <= r["bound"] for r in rows)
        assert rows[0]["gap"] == 0


def test_curved_f_also_breaks_the_printed_index():
    # a = 1/10: Gamma_L = 2/5, bound at t = 1 is 4/15; the gap is f(-2/3) - f(-1) = 11/36.
    row = first_step_gaps(Fraction(1, 10), "printed", 1)[0]
    assert row["gap"] == Fraction(11, 36) and row["bound"] == Fraction(4, 15)


@pytest.mark.parametrize("bad", [Fraction(1, 2), Fraction(-1, 10)])
def test_bad_curvature_is_rejected(bad):
    with pytest.raises(ValueError, match="curvature"):
        first_step_gaps(bad, "printed")


def test_unknown_index_is_rejected():
    with pytest.raises(ValueError, match="index"):
        first_step_gaps(Fraction(0), "section6")


@pytest.mark.parametrize(
    ("claim_id", "verdict"),
    [("hu.lemma6.first-step.printed-index", "refuted"), ("hu.lemma6.first-step.jaggi-index", "confirmed")],
)
def test_verdicts_and_power(claim_id, verdict):
    claim = next(c for c in default_registry().claims if c.id == claim_id)
    ctx = CheckContext(profile="quick", seed=20261121).for_claim(claim_id)
    assert claim.check(ctx).verdict == verdict
    for mutant in claim.mutants:
        assert mutant.check(ctx).verdict != verdict
