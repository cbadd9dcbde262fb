"""Units checks of 000 (:mod:`proofs_checks.claim_sets.wang_xu.units`).

References: by algebra, psi(iota (<w, x> - y)) is unchanged when w, y are times k and iota divided by k, so every
log-weight and the exact law over the rescaled net are unchanged (powers of 2 keep the net exact); the mutant's
log-weights are multiplied by 1/iota = k.
"""

from __future__ import annotations

import pytest

from proofs_checks.claim_sets.wang_xu import units as u
from proofs_checks.model import CheckContext
from proofs_checks.registry import Registry

CTX = CheckContext(profile="quick", seed=20261121)


def test_privacy_loss_is_invariant_and_the_mutant_is_not():
    res = u.privacy_units_check()(CTX)
    assert res.verdict == "confirmed" and res.observed <= 1e-9
    assert u.privacy_units_check(1.0)(CTX).verdict == "refuted"
    # the mutant's loss grows with the unit: 8x the log-weights moves the pair's loss from 0.56 to 6.26
    assert u.privacy_loss_in_units(8.0, exponent_unit_power=1.0) > 10 * u.privacy_loss_in_units(8.0)


def test_stated_sensitivities_scale_like_the_risk():
    assert u.sensitivity_units_check()(CTX).verdict == "confirmed"
    bad = u.sensitivity_units_check(True)(CTX)
    assert bad.verdict == "refuted" and bad.observed == pytest.approx(1.0, abs=1e-12)


def test_register_adds_two_claims_whose_mutants_are_refuted():
    reg = Registry()
    u.register(reg)
    assert {c.id for c in reg.claims} == {"wang-xu.units.privacy", "wang-xu.units.sensitivity"}
    for c in reg.claims:
        assert c.check(CTX.for_claim(c.id)).verdict == "confirmed"
        for m in c.mutants:
            assert m.check(CTX.for_claim(c.id)).verdict in m.detected_by


def test_bad_unit_raises():
    with pytest.raises(ValueError, match="k must be"):
        u.privacy_loss_in_units(-1.0)
