"""[004 App. D.2]: ``2^(j') <= max{2||w*||, 1}`` (proof) against ``2 max{||w*||, 1}`` (statement of [004 Thm. 1]).

Reference: by hand, ``||w*|| = 1/2``: ``j' = 1`` (guesses start at ``B_1 = 2``), ``2 > max{1, 1} = 1``; for
``||w*|| > 1``, ``2^(j') < 2 ||w*||`` since ``j' = ceil(log2 ||w*||)`` (math.log2 on exact powers).
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from proofs_checks.claim_sets.arora import guess_bound as gb
from proofs_checks.model import CheckContext

CTX = CheckContext(profile="quick", seed=20261121)


def test_smallest_guess_by_hand():
    assert gb.smallest_guess_exponent(Fraction(1, 2)) == 1
    for r in (1.5, 3.0, 5.0, 33.0):
        assert gb.smallest_guess_exponent(Fraction(r)) == math.ceil(math.log2(r))
    assert gb.smallest_guess_exponent(Fraction(1, 2), first=0) == 0


def test_proof_inequality_fails_below_one_and_statement_holds():
    res = gb.guess_bound_check("proof")(CTX.for_claim("arora.thm1.proof.guess-bound"))
    assert res.verdict == "refuted" and res.observed == 2.0
    assert Fraction(res.evidence["worst_at"]["norm"]) < 1
    st = gb.guess_bound_check("statement")(CTX.for_claim("arora.thm1.proof.guess-bound.statement"))
    assert st.verdict == "confirmed" and st.observed == 1.0  # tight for ||w*|| <= 1


def test_power_and_other_reading():
    # dropping the statement's factor 2 is refuted; the {0, ..., K-1} reading rescues the proof's line
    assert gb.guess_bound_check("statement without its 2")(CTX).verdict == "refuted"
    assert gb.guess_bound_check("proof", first=0)(CTX).verdict == "confirmed"


def test_bad_arguments_raise():
    with pytest.raises(ValueError, match="norm"):
        gb.smallest_guess_exponent(0)
    with pytest.raises(ValueError, match="first"):
        gb.smallest_guess_exponent(1, first=2)
