"""The chains.004.d3.* claims: [004 Thm. 2]'s bound from [004 Thm. 1] as [004 App. D.3] argues, per reading.

Independent reference: the premises' sum and the statement evaluated by hand with exact rationals (sympy only for
the radicals) at points where the readings part; the power of each confirmed reading (a dropped stated term, an
exponent moved by 1/2) comes from the claims' own mutants.
"""

from __future__ import annotations

import math

import pytest

from proofs_checks.claim_sets.derivation_chains import arora as claims
from proofs_checks.evidence import check_evidence
from proofs_checks.formulas.chains import arora as chains
from proofs_checks.formulas.chains.engine import compare_chain, ratio_at
from proofs_checks.model import CheckContext
from proofs_checks.registry import default_registry

S = chains.SYMBOLS

EXPECTED = {
    "d3.o.units-free": ("refuted", ["Y/n", "Y*sqrt(lg)/sqrt(n)", "B*sqrt(H)*X/n"]),
    "d3.o.units-free.last-term-squared": ("refuted", ["Y*sqrt(lg)/sqrt(n)"]),
    "d3.o.normalised.y-large": ("confirmed", []),
    "d3.o.normalised.y-small": ("confirmed", []),
    "d3.o.normalised.y-large.deviation-y2": ("refuted", ["Y**2*sqrt(lg)/sqrt(n)"]),
    "d3.o.units-free.layout": ("confirmed", []),
    "d3.o.units-free.layout.y-small": ("refuted", ["Y*sqrt(lg)/sqrt(n)"]),
    "d3.o.normalised.y-large.deviation-y2.layout": ("confirmed", []),
    "d3.o.normalised.logs-kept": ("refuted", ["Y*sqrt(lg)/sqrt(n)", "K*Y**2/(eps*n)"]),
}


@pytest.fixture(scope="module")
def registered():
    return {c.id: c for c in default_registry().claims if c.id.startswith("chains.004.d3.")}


def test_every_claim_is_expected(registered):
    assert set(registered) == {f"chains.004.{s}" for s in EXPECTED}
    assert {s for s, *_ in claims.D3_CHAIN_CLAIMS} == set(EXPECTED)
    assert {f"d3.{r}" for r in chains.D3_READINGS} == {s.replace(".o.", ".") for s in EXPECTED}


@pytest.mark.parametrize("suffix", sorted(EXPECTED))
def test_verdict_witnesses_and_power(registered, suffix):
    claim = registered[f"chains.004.{suffix}"]
    result = claim.check(CheckContext().for_claim(claim.id))
    verdict, witnesses = EXPECTED[suffix]
    assert result.verdict == verdict
    for term in witnesses:
        assert term in result.evidence["analysis"]
    check_evidence("formula", result.evidence, claim_id=claim.id)
    if verdict == "refuted":
        assert result.evidence["worst"]["premises_over_stated"] > 1
    else:  # power: a dropped stated term and an exponent moved off must be refuted
        kinds = {m.name.split()[0] for m in claim.mutants}
        assert len(claim.mutants) >= 2, kinds
    for mutant in claim.mutants:
        assert mutant.check(CheckContext().for_claim(claim.id)).verdict in mutant.detected_by, mutant.name


def _by_hand(h, x, y, b, n, eps, lg, k=1, ls=1, last="printed"):
    """Premises and statement of the units-free reading, written out again from the docstring of d3_chain."""
    root = math.sqrt(h) * b * x
    m = n * eps / k
    last_term = (y + root) / n if last == "printed" else (y + root) ** 2 / n
    err = (
        root * y / math.sqrt(n)
        + y**2 / n
        + (root ** (4 / 3) * y ** (2 / 3) + root**2) / m ** (2 / 3)
        + (y**2 + root**2) / m
        + last_term
    )
    premises = err + 4 * math.sqrt(y**2 * lg / n) + 5 * (y**2 + y**2 * ls + root**2) * lg / (n * eps)
    stated = (
        root ** (4 / 3) * y ** (2 / 3) / (n * eps) ** (2 / 3)
        + root**2 / (n * eps) ** (2 / 3)
        + root * y / math.sqrt(n)
        + y**2 / n
        + (y**2 + root**2) / (n * eps)
    )
    return premises / stated


@pytest.mark.parametrize("x", [1.0, 1e-2, 1e-4])
def test_units_free_ratio_by_hand(x):
    point = {S["H"]: 1, S["X"]: x, S["Y"]: 1, S["B"]: 2, S["n"]: 10**6, S["eps"]: 1, S["lg"]: math.log(40)}
    point |= {S["K"]: 1, S["ls"]: 1}
    engine = ratio_at(chains.d3_chain("units-free"), point)
    assert engine == pytest.approx(_by_hand(1, x, 1, 2, 10**6, 1, math.log(40)), rel=1e-9)


def test_units_free_gap_grows_like_one_over_the_feature_scale():
    # Theorem 1's 4 Y sqrt(lg/n) against the statement's sqrt(H) B X Y / sqrt(n): ratio ~ 2 sqrt(lg) / (sqrt(H) X)
    small = _by_hand(1, 1e-4, 1, 2, 10**6, 1, math.log(40))
    assert 3000 < small < 4000
    assert _by_hand(1, 1e-4, 1, 2, 10**6, 1, math.log(40), last="squared") == pytest.approx(small, rel=1e-3)


def test_normalised_readings_hold_at_every_scale_of_y():
    for reading in ("normalised.y-large", "normalised.y-small"):
        report = compare_chain(chains.d3_chain(reading))
        assert report.o_verdict == "confirmed", reading


def test_unknown_reading_raises():
    with pytest.raises(ValueError, match="reading"):
        chains.d3_chain("literal")
