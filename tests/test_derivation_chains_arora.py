"""The chains.004.* claims: [004 Thm. 1]'s excess-risk chain ([004 App. D.2]), its Bernstein step, and the
Bernstein step of the boosting lemma ([004 App. E]).

Independent reference: the proof's sum and last line evaluated with exact rationals (fractions) at a rational
point, and the textbook Bernstein exponent computed by hand; the engine's sympy values must agree exactly.  For
[004 App. E]: the smallest t with exp(-3 n t^2/(6 n V + 2 b t)) <= beta/2, solved by hand (mpmath, 30 digits),
is sqrt(2) times the stated deviation as b -> 0.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy as sp

from proofs_checks.claim_sets.derivation_chains import arora as claims
from proofs_checks.evidence import check_evidence
from proofs_checks.formulas.chains import arora as chains
from proofs_checks.formulas.chains.engine import compare_chain
from proofs_checks.model import CheckContext
from proofs_checks.registry import default_registry

S = chains.SYMBOLS

EXPECTED = {
    "thm1.explicit.last-line": ("refuted", ["Dl*lg/n"]),
    "thm1.o.last-line": ("confirmed", []),
    "thm1.explicit.gem-scores-mean": ("refuted", ["Dl*lg/(eps*n)", "Dl*c1/(eps*n)"]),
    "thm1.o.gem-scores-mean": ("confirmed", []),
    "thm1.o.gem-alg1-sensitivity": ("refuted", ["Dl*lg/eps"]),
    "thm1.o.statement.logs-kept": ("refuted", ["Dl*lg/(eps*n)"]),
    "thm1.o.statement.logs-hidden": ("confirmed", []),
    "bernstein.explicit.printed": ("confirmed", []),
    "bernstein.explicit.textbook": ("refuted", ["Y**2*lg", "Dl**2*lg**2/n"]),
    "bernstein.o.textbook": ("confirmed", []),
    "boosting-bernstein.explicit.printed": ("refuted", ["Vm*l2*n"]),
    "boosting-bernstein.o.printed": ("confirmed", []),
    "boosting-bernstein.explicit.sqrt2": ("confirmed", []),
}


@pytest.fixture(scope="module")
def registered():
    # the App. D.3 chains (chains.004.d3.*) are tested in tests/test_chains_arora_d3.py
    return {
        c.id: c
        for c in default_registry().claims
        if c.id.startswith("chains.004.") and not c.id.startswith("chains.004.d3.")
    }


def test_every_claim_is_expected(registered):
    assert set(registered) == {f"chains.004.{s}" for s in EXPECTED}
    assert {s for s, *_ in claims.CHAIN_CLAIMS} == set(EXPECTED)


@pytest.mark.parametrize("suffix", sorted(EXPECTED))
def test_verdict_witnesses_evidence_and_mutants(registered, suffix):
    claim = registered[f"chains.004.{suffix}"]
    assert claim.seed_policy == "several" and claim.source.startswith("[004 ")
    result = claim.check(CheckContext().for_claim(claim.id))
    verdict, witnesses = EXPECTED[suffix]
    assert result.verdict == verdict
    for term in witnesses:
        assert term in result.evidence["analysis"]
    check_evidence("formula", result.evidence, claim_id=claim.id)
    if verdict == "refuted" and suffix in claims.WITNESS_POINTS:
        assert result.evidence["worst"]["premises_over_stated"] > 1
    for mutant in claim.mutants:
        assert mutant.check(CheckContext().for_claim(claim.id)).verdict in mutant.detected_by, mutant.name


def test_last_line_holds_as_a_whole_exactly_up_to_eps_one_half():
    # exact rationals with sqrt(lg/n) and lg as free rationals: sum - last line = 2 Dl lg/n - Dl lg/(n eps)
    chain = chains.thm1_chain()
    n, dl, lg, y, e = Fraction(1000), Fraction(1), Fraction(7, 2), Fraction(1, 100), Fraction(1, 100)
    for eps in (Fraction(1, 4), Fraction(1, 2), Fraction(3, 4), Fraction(1)):
        point = {S["n"]: n, S["Dl"]: dl, S["lg"]: lg, S["Y"]: y, S["E"]: e, S["eps"]: eps}
        difference = sp.nsimplify(sp.expand((chain.premise_sum() - chain.stated_bound()).subs(point)))
        expected = 2 * dl * lg / n - dl * lg / (n * eps)
        assert difference == sp.Rational(expected.numerator, expected.denominator)
        assert (difference <= 0) == (eps <= Fraction(1, 2))


def test_textbook_bernstein_needs_four_times_the_variance_term():
    report = compare_chain(chains.bernstein_chain("textbook"))
    rows = {t.term: t for t in report.terms}
    # (n/2) t^2 / (2 * 4 Y^2): the variance term of n t^2 >= lg * 16 Y^2 against tau_j's (2 Y sqrt(lg/n))^2 n
    assert rows["Y**2*lg"].ratio == "1/4" and rows["Dl**2*lg**2/n"].ratio == "3/4"


def test_boosting_bernstein_needs_sqrt2_on_the_variance_term():
    import mpmath

    mpmath.mp.dps = 30
    n, v, l2 = mpmath.mpf(1000), mpmath.mpf(1) / 1000, mpmath.log(40)
    for b in (mpmath.mpf(0), mpmath.mpf(10) ** -6):
        # the positive root of 3 n t^2 - l2 (2 b t) - 6 n v l2 = 0: the least t with the tail at most beta/2
        needed = (2 * b * l2 + mpmath.sqrt((2 * b * l2) ** 2 + 72 * n**2 * v * l2)) / (6 * n)
        stated = b * l2 / n + mpmath.sqrt(v * l2)
        assert abs(needed / stated - mpmath.sqrt(2)) < 1e-5
    rows = {t.term: t for t in compare_chain(chains.boosting_bernstein_chain()).terms}
    assert rows["Vm*l2*n"].ratio == "1/2" and compare_chain(
        chains.boosting_bernstein_chain("sqrt2")
    ).explicit_verdict == ("confirmed")
    with pytest.raises(ValueError, match="deviation"):
        chains.boosting_bernstein_chain("textbook")
