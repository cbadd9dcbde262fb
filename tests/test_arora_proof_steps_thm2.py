"""[004 Thm. 2]'s privacy: the conditional reading (``arora.thm2.privacy``) says so, and the unconditional one
(``arora.thm2.privacy.unconditional``) judges the premise with the printed ``sigma~``.

Reference values: guaranteed-bracket quadrature (boosting_law_bounds, 5000 cells, 64 steps per Laplace scale),
measured; the K of the statement's rule recomputed here from its formula with math.log2.
"""

from __future__ import annotations

import math

import pytest

from proofs_checks.claim_sets.arora import theorem2_privacy as tp
from proofs_checks.model import CheckContext
from proofs_checks.registry import default_registry

CTX = CheckContext(profile="quick", seed=20261121)


def _run(check):
    return check(CTX.for_claim("arora.thm2.privacy.unconditional"))


def test_k_of_the_setting_from_the_statement_formula():
    n, eps, X, Y, H = 2 * 10**6, 1.0, 1.0, 3072.0, 2.0
    scale = max(Y * math.sqrt(n) / (X * math.sqrt(H)), Y**2 * (n * eps) ** (2 / 3) / (math.sqrt(H) * X**2))
    assert math.ceil(math.log2(scale)) == 37 == _run(tp.premise_check()).evidence["worst_at"]["K"]


def test_premise_refuted_at_theorem2_setting():
    res = _run(tp.premise_check())
    assert res.verdict == "refuted"
    law = res.evidence["worst_at"]
    assert law["epsilon_at_delta_lower"] == pytest.approx(7.378, abs=2e-3)
    assert res.observed == pytest.approx(7.378 * 37, rel=1e-3)
    assert "unproven, not shown false" in res.reading


@pytest.mark.parametrize("factor", [0.5, 0.8])
def test_power_smaller_scales_refuted(factor):
    assert _run(tp.premise_check(factor)).verdict == "refuted"


def test_scale_in_units_of_y_squared_not_refuted():
    assert _run(tp.premise_check(1024.0)).verdict == "inconclusive"


def test_conditional_reading_is_stated():
    reg = default_registry()
    claim = reg.claim("arora.thm2.privacy")
    assert claim.statement.startswith("Conditional on a DP base learner")
