"""Units checks of 002 (:mod:`proofs_checks.claim_sets.hu.units`).

References: by algebra, the LASSO score -<v, g~> and the sensitivity 8 ||W||_1 K^2 / n both scale as k^2 when
features, labels and K are times k, so the exponential mechanism's log-weights eps u/(2 Delta) are unchanged; the
mutant K^1 multiplies them by k (loss at k = 1024 is 1024/2 = 512 on the pair: all mass moves to one vertex).
"""

from __future__ import annotations

import pytest

from proofs_checks.claim_sets.hu import units as u
from proofs_checks.model import CheckContext
from proofs_checks.registry import Registry

CTX = CheckContext(profile="quick", seed=20261121)


def test_lasso_selection_is_invariant_and_the_mutant_is_not():
    res = u.lasso_units_check()(CTX)
    assert res.verdict == "confirmed" and res.observed <= 1e-9
    bad = u.lasso_units_check(1.0)(CTX)
    assert bad.verdict == "refuted"
    assert u.lasso_selection_loss(1024.0, 1.0) == pytest.approx(512.0, rel=1e-9)


def test_dp_fw_sensitivity_scales_like_its_score_and_the_mutant_does_not():
    assert u.dp_fw_units_check()(CTX).verdict == "confirmed"
    bad = u.dp_fw_units_check(False)(CTX)
    assert bad.verdict == "refuted" and bad.observed == pytest.approx(1.0, abs=1e-12)


def test_register_adds_two_claims_whose_mutants_are_refuted():
    reg = Registry()
    u.register(reg)
    ids = {c.id for c in reg.claims}
    assert ids == {"hu.units.lasso-privacy", "hu.units.dp-fw-sensitivity"}
    for c in reg.claims:
        assert c.check(CTX.for_claim(c.id)).verdict == "confirmed"
        for m in c.mutants:
            assert m.check(CTX.for_claim(c.id)).verdict in m.detected_by


def test_bad_unit_raises():
    with pytest.raises(ValueError, match="k must be"):
        u.lasso_selection_loss(0.0)
