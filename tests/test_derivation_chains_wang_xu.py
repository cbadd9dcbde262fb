"""The chains.000.* claims: verdicts, witnesses, evidence records, mutants, and agreement with the numeric sums.

The numeric reference is proofs_checks/claim_sets/wang_xu/bounds.py (float64 sums of the same premises, written
independently): the chains' sympy sums evaluated at a point must agree with it to 1e-12.
"""

from __future__ import annotations

import math

import pytest
import sympy as sp

from proofs_checks.claim_sets.derivation_chains import wang_xu as claims
from proofs_checks.claim_sets.wang_xu import bounds
from proofs_checks.evidence import check_evidence
from proofs_checks.formulas.chains import wang_xu as chains
from proofs_checks.formulas.chains.engine import compare_chain
from proofs_checks.model import CheckContext
from proofs_checks.registry import default_registry

S = chains.SYMBOLS

#: The verdict each claim must give, and the terms its witnesses must name (a subset).
EXPECTED = {
    "eq14.explicit": ("confirmed", []),
    "eq14.o": ("confirmed", []),
    "eq24.explicit": ("refuted", ["M*iota**(theta - 1)"]),
    "eq24.o": ("confirmed", []),
    "eq26.explicit.reading-a": ("refuted", ["M*iota**(theta - 1)", "li/(iota*n)", "logN/(iota*n)"]),
    "eq26.explicit.reading-b": ("refuted", ["M*iota**(theta - 1)", "li/(iota*n)", "logN/(iota*n)"]),
    "eq26.o.eps-bounded": ("confirmed", []),
    "eq26.o.eps-large": ("refuted", ["li/(iota*n)", "logN/(iota*n)"]),
    "step39.explicit": ("refuted", ["Ex*iota*zeta"]),
    "lemma10.explicit": ("confirmed", []),
    "thm1-display.o.printed": ("refuted", ["li/(eps*iota*n)", "li/(iota*n)"]),
    "thm1-display.o.eta-as-zeta": ("confirmed", []),
    "eq7.o.eps-bounded": ("confirmed", []),
    "eq7.o.eps-large": ("refuted", ["eps*tau/m"]),
    "eq8.o.eps-bounded": ("confirmed", []),
    "eq8.o.eps-large": ("refuted", ["sqrt(d)*eps*tau/m"]),
    "eq27.o.eps-bounded": ("confirmed", []),
    "eq27.o.eps-large": ("refuted", ["li/(iota*n)", "d*lz/(iota*n)"]),
    "eq18.o.logs-kept": ("refuted", ["li*m**(-1 + 1/theta)*tau/(d**(1/theta)*logn**(1/theta))"]),
    "eq18.o.logs-hidden": ("confirmed", []),
    "eq19.o.iota-printed": (
        "refuted",
        ["Delta**theta*d*li**(theta - 2 + 1/theta)*logn**(theta - 2 + 1/theta)*m**(-theta + 2 - 1/theta)*tau"],
    ),
    "eq19.o.iota-one-over-theta": ("confirmed", []),
}


@pytest.fixture(scope="module")
def registered():
    return {c.id: c for c in default_registry().claims if c.id.startswith("chains.000.")}


def test_every_claim_is_expected(registered):
    assert set(registered) == {f"chains.000.{s}" for s in EXPECTED}
    assert {s for s, *_ in claims.CHAIN_CLAIMS} == set(EXPECTED)


@pytest.mark.parametrize("suffix", sorted(EXPECTED))
def test_verdict_witnesses_evidence_and_mutants(registered, suffix):
    claim = registered[f"chains.000.{suffix}"]
    assert claim.seed_policy == "several" and claim.source.startswith("[000 ")
    result = claim.check(CheckContext().for_claim(claim.id))
    verdict, witnesses = EXPECTED[suffix]
    assert result.verdict == verdict
    assert result.observed == (0.0 if verdict == "confirmed" else float(result.observed)) and result.bound == 0.0
    for term in witnesses:
        assert term in result.evidence["analysis"]
    check_evidence("formula", result.evidence, claim_id=claim.id)
    if verdict == "refuted" and suffix in claims.WITNESS_POINTS:
        assert result.evidence["worst"]["premises_over_stated"] > 1  # a point where the whole sum exceeds it
    assert claim.mutants
    for mutant in claim.mutants:
        assert mutant.check(CheckContext().for_claim(claim.id)).verdict in mutant.detected_by, mutant.name


def test_rate_witnesses_grow_without_bound_where_the_regime_fails(registered):
    # n fixed, eps -> inf: the premises' sum over (7)'s rate grows (about linearly in eps), so no constant works
    result = registered["chains.000.eq7.o.eps-large"].check(CheckContext().for_claim("chains.000.eq7.o.eps-large"))
    ratios = [r for r in result.evidence["note"].split("-> ")[1:]]
    values = [float(r.split(";")[0]) for r in ratios]
    assert values == sorted(values) and values[-1] > 1000 * values[0]


POINT = {"n": 800, "eps": 0.25, "zeta": 1 / 800, "iota": 0.07, "tau": 1.3, "M": 2.1, "N": 5000.0, "eta": 0.05}


def _sympy_point(extra=None):
    point = {S[k]: sp.Float(POINT[k], 30) for k in ("n", "eps", "zeta", "iota", "tau", "M")}
    point[S["logN"]] = sp.log(sp.Float(POINT["N"], 30))
    point[S["li"]] = sp.log(1 / sp.Float(POINT["eta"], 30))
    point.update(extra or {})
    return point


def test_eq14_sum_agrees_with_the_numeric_sum():
    args = (POINT["n"], POINT["eps"], POINT["zeta"], POINT["iota"], POINT["tau"], POINT["N"], POINT["eta"], POINT["M"])
    chain = chains.eq14_chain()
    assert float(chain.premise_sum().subs(_sympy_point())) == pytest.approx(bounds.eq14_from_premises(*args), rel=1e-12)
    assert float(chain.stated_bound().subs(_sympy_point())) == pytest.approx(bounds.eq14_printed(*args), rel=1e-12)


@pytest.mark.parametrize("theta", [1.25, 1.5, 1.9])
@pytest.mark.parametrize("reading, numeric", [("a", "derived"), ("b", "derived-b")])
def test_eq26_sums_agree_with_the_numeric_sums(theta, reading, numeric):
    args = (POINT["n"], POINT["eps"], POINT["zeta"], POINT["iota"], POINT["tau"], POINT["N"], POINT["eta"], POINT["M"])
    point = _sympy_point({S["theta"]: sp.Float(theta, 30)})
    chain = chains.eq26_chain(reading)
    derived = bounds.eq26_derived(theta, *args, reading=numeric)
    assert float(chain.premise_sum().subs(point)) == pytest.approx(derived, rel=1e-12)
    assert float(chain.stated_bound().subs(point)) == pytest.approx(bounds.eq26_printed(theta, *args), rel=1e-12)


def test_eq26_m_coefficient_ratio_is_the_outsiders():
    row = next(t for t in compare_chain(chains.eq26_chain()).terms if t.term == "M*iota**(theta - 1)")
    ratio = sp.sympify(row.ratio, locals=S)
    expected = 2 ** S["theta"] / (2 + 2 ** (S["theta"] - 1))
    assert sp.simplify(ratio - expected) == 0
    assert math.isclose(float(expected.subs(S["theta"], 2)), 1.0)  # equal only at theta = 2, outside (1, 2)


def test_o_reading_of_eq19_printed_iota_needs_the_exponent_of_eq18():
    report = compare_chain(chains.eq19_chain())
    (row,) = [t for t in report.terms if t.o_status == "undominated"]
    assert "m (large)" in row.needs  # the M term decays as (n eps)^(-(theta-1)^2/theta), slower than the rate
