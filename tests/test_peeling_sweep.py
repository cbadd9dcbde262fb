"""The eps sweeps of Peeling's privacy argument for [002 Thm. 6] and [002 Thm. 8]: verdicts, power, references.

References: the exact delta(eps) of the randomized-response product against an mpmath sum over all outcomes
(30 digits) and against :func:`proofs_checks.claim_sets.hu.sparse.rr_product_delta` (explicit enumeration).
"""

from __future__ import annotations

import math

import mpmath
import pytest

from proofs_checks.claim_sets.hu.peeling_sweep import peeling_rr_delta, peeling_step_epsilon
from proofs_checks.claim_sets.hu.sparse import rr_product_delta
from proofs_checks.model import CheckContext
from proofs_checks.registry import default_registry

EXPECTED = {
    "hu.thm6.peeling.eps-within-range": "confirmed",
    "hu.thm6.peeling.eps-beyond-range": "refuted",
    "hu.thm8.peeling.eps-within-range": "confirmed",
    "hu.thm8.peeling.eps-beyond-range": "refuted",
}


@pytest.fixture(scope="module")
def claims():
    return {c.id: c for c in default_registry().claims if c.id in EXPECTED}


def _run(check, claim_id):
    return check(CheckContext(profile="quick", seed=20261121).for_claim(claim_id))


@pytest.mark.parametrize("claim_id", sorted(EXPECTED))
def test_verdict_and_power(claims, claim_id):
    claim = claims[claim_id]
    result = _run(claim.check, claim_id)
    assert result.verdict == EXPECTED[claim_id], (claim_id, result.observed)
    assert claim.mutants
    for mutant in claim.mutants:
        assert _run(mutant.check, claim_id).verdict in mutant.detected_by, (claim_id, mutant.name)


def test_beyond_range_scope_and_witness(claims):
    result = _run(claims["hu.thm6.peeling.eps-beyond-range"].check, "x")
    assert claims["hu.thm6.peeling.eps-beyond-range"].scope == "reproduction"
    by_eps = {}
    for row in result.evidence["cases"]:
        by_eps[row["epsilon"]] = max(by_eps.get(row["epsilon"], 0.0), row["delta_over_target"])
    # holds at eps = 2, fails from eps = 8 on (s = 256, delta = 0.5: 1.89 delta)
    assert by_eps[2.0] < 1 < by_eps[8.0] < 2
    assert result.evidence["worst"]["epsilon"] == 128.0


def test_within_range_margin_and_attained_move(claims):
    six = _run(claims["hu.thm6.peeling.eps-within-range"].check, "a")
    eight = _run(claims["hu.thm8.peeling.eps-within-range"].check, "b")
    assert 0.55 < six.observed < 0.56  # s = 8, delta = 0.9, eps = 0.99
    # Algorithm 5's standard robust gradient moves v by a third of the printed lambda: far more room
    assert eight.evidence["settings"][1]["delta_over_target"] < 0.05


def _mpmath_delta(e0, s, eps, fraction=0.5):
    mpmath.mp.dps = 30
    e0, e1, eps = mpmath.mpf(e0), mpmath.mpf(e0) * fraction, mpmath.mpf(eps)
    total = mpmath.mpf(0)
    for x in range(s + 1):
        for y in range(s + 1):
            loss = e0 * (2 * x - s) + e1 * (2 * y - s)
            if loss > eps:
                p = (
                    mpmath.binomial(s, x)
                    * mpmath.binomial(s, y)
                    * mpmath.exp(e0 * x + e1 * y)
                    / ((1 + mpmath.exp(e0)) ** s * (1 + mpmath.exp(e1)) ** s)
                )
                total += p * (1 - mpmath.exp(eps - loss))
    return float(total)


@pytest.mark.parametrize(("e0", "s", "eps"), [(0.3, 4, 0.5), (0.96, 32, 8.0), (2.0, 3, 1.0), (0.05, 64, 0.1)])
def test_delta_against_mpmath(e0, s, eps):
    assert peeling_rr_delta(e0, s, eps) == pytest.approx(_mpmath_delta(e0, s, eps), rel=1e-9, abs=1e-300)


def test_delta_against_enumeration():
    for e0, s, eps in ((0.4, 1, 0.2), (0.7, 2, 0.5), (1.1, 2, 1.0)):
        assert peeling_rr_delta(e0, s, eps) == pytest.approx(rr_product_delta([e0] * s + [e0 / 2] * s, eps), rel=1e-12)


def test_step_epsilon_and_bad_input():
    assert peeling_step_epsilon(1.0, math.exp(-1.0), 3) == pytest.approx(1 / 3)
    for kwargs in ({"epsilon_step": 0.0}, {"s": 0}, {"epsilon": -1.0}, {"release_fraction": -0.5}):
        args = {"epsilon_step": 1.0, "s": 2, "epsilon": 1.0} | kwargs
        with pytest.raises(ValueError, match=next(iter(kwargs))):
            peeling_rr_delta(**args)
