"""Units checks of 004 (:mod:`proofs_checks.claim_sets.arora.units`).

References: the exponents by algebra (Delta(B) = Y^2 + H B^2 X^2 is a sum of squares of quantities in one unit:
exponent exactly 2; tau_j's sqrt(4 Y^2 log/n) has exponent 1); the Boosting laws by the guaranteed-bracket
quadrature at k = 1 and k = 10 (measured: 0.8499 and 9.4651 at n = 1280).
"""

from __future__ import annotations

import math

import pytest

from proofs_checks.claim_sets.arora import units as u
from proofs_checks.model import CheckContext

CTX = CheckContext(profile="quick", seed=20261121)


def test_scaling_exponent_by_hand():
    assert u.scaling_exponent(lambda k: 5 * k**2 + 3 * k**2, 8.0) == 2.0
    # tau-like: a k^2 term plus a k term has an exponent between 1 and 2
    e = u.scaling_exponent(lambda k: k**2 + k, 8.0)
    assert e == pytest.approx(math.log(72 / 2) / math.log(8), rel=1e-12) and 1 < e < 2
    with pytest.raises(ValueError, match="k must be"):
        u.scaling_exponent(lambda k: k, 1.0)
    with pytest.raises(ValueError, match="positive"):
        u.scaling_exponent(lambda k: -k, 2.0)


@pytest.mark.parametrize("variant", ["printed", "standard"])
def test_lemma_d4_deltas_scale_like_the_loss_and_the_mutant_does_not(variant):
    assert u.delta_units_check(variant)(CTX).verdict == "confirmed"
    assert u.delta_units_check(variant, mutant=True)(CTX).verdict == "refuted"


def test_validation_penalty_is_not_in_the_loss_units():
    res = u.penalty_units_check()(CTX)
    assert res.verdict == "refuted" and res.observed > 0.25
    assert u.penalty_units_check(unit_consistent=True)(CTX).verdict == "confirmed"


def test_boosting_privacy_depends_on_the_units_and_the_y_squared_scale_does_not():
    res = u.boosting_units_check()(CTX.for_claim("arora.units.boosting-privacy"))
    assert res.verdict == "refuted"
    assert res.evidence["rows"][0]["epsilon_at_delta_lower"] == pytest.approx(0.8499, abs=1e-3)
    assert res.evidence["rows"][1]["epsilon_at_delta_lower"] == pytest.approx(9.4651, abs=1e-3)
    control = u.boosting_units_check(2.0)(CTX.for_claim("arora.units.boosting-privacy"))
    assert control.verdict == "confirmed" and control.observed == 0.0
