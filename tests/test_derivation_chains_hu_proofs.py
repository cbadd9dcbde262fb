"""The chains.002.thm3.* to chains.002.thm8.* claims: Theorems 3-8 of 002 ([002 Thm. 7] step by step).

Independent references: the slips are re-computed by hand from the displays with exact rationals (fractions) and
mpmath (30 digits), not through the chain modules: (55)'s shortfall on ||g_{S^{t+1} minus S^t}||^2, (53)'s
threshold c = (1 + sqrt 17)/2, the power of s that Theorem 8's three noise terms give at each k (a log-log
slope between s = 10^6 and 10^9), Theorem 4's sensitivity ratio (1 + r)/2 on an l1 ball of radius r, and
Theorem 5's rate exponent -2/5 in n eps (a log-log slope of (42)'s second line at the proof's K and T).  Power: every mutant of a confirmed claim (a dropped term, a halved coefficient,
an exponent off) is refuted and its report names the changed term.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
import sympy as sp

# private: _claims, _report: the power test reads the mutated chain's report (its witness terms), which the claim's
# Result only carries as text
from proofs_checks.claim_sets.derivation_chains import _claims
from proofs_checks.claim_sets.derivation_chains import hu_frank_wolfe as fw_claims
from proofs_checks.claim_sets.derivation_chains import hu_sparse as claims
from proofs_checks.evidence import check_evidence
from proofs_checks.formulas.chains import hu_frank_wolfe, hu_thm7, hu_thm8
from proofs_checks.formulas.chains.engine import compare_chain
from proofs_checks.formulas.chains.linear_steps import LinearStep, compare_linear_step, mutate_step
from proofs_checks.model import CheckContext
from proofs_checks.registry import default_registry

EXPECTED = {
    "thm3.o.lambda-large": ("confirmed", []),
    "thm3.o.lambda-free": ("refuted", ["C*L**(1/4)/m**(1/4)"]),
    "thm4.sensitivity.explicit.unit-ball": ("confirmed", []),
    "thm4.sensitivity.explicit.radius": ("refuted", ["K**2*r**2/n"]),
    "thm5.step42.o.logs-hidden": ("confirmed", []),
    "thm5.step42.o.logs-one-order": ("refuted", ["C*K**2*sqrt(T)*ell**2*sqrt(ld)/(eps*n)"]),
    "thm5.o.logs-one-order": ("confirmed", []),
    "thm5.o.lambda-free": ("refuted", ["C*sqrt(ell)*sqrt(eps)/sqrt(m)"]),
    "thm6.sensitivity.explicit": ("confirmed", []),
    "thm7.step49.explicit": ("confirmed", []),
    "thm7.step51.explicit": ("confirmed", []),
    "thm7.step52.explicit.lemma12": ("refuted", ["E1", "E2"]),
    "thm7.step52.explicit.printed": ("refuted", ["E1", "E2", "Wt"]),
    "thm7.step53.explicit.from-52.c-large": ("confirmed", []),
    "thm7.step53.explicit.from-52.c-any": ("refuted", ["E2"]),
    "thm7.step53.explicit.printed-display": ("refuted", ["E1", "E2"]),
    "thm7.step55.explicit.printed": ("refuted", ["GR1"]),
    "thm7.step55.explicit.support-t": ("confirmed", []),
    "thm7.step55.explicit.quarter-young": ("confirmed", []),
    "thm7.noise-display.o": ("refuted", ["M**2*T*s**2/(eps*n)"]),
    "thm7.eq74.o.m-bounded": ("confirmed", []),
    "thm7.eq74.o.m-tracked": ("refuted", ["M**2*T*s**2/(eps*n)"]),
    "thm7.rate.o.mu-at-most-1": ("confirmed", []),
    "thm7.rate.o.mu-free": ("refuted", ["L**2*M*gamma**4*ld*logn*sstar**2/(eps*mu**6*n)"]),
    "thm7.start-radius.explicit.proof-constant": ("refuted", ["1"]),
    "thm7.start-radius.o.proof-constant": ("confirmed", []),
    "thm7.start-radius.o.theorem-order": ("refuted", ["kappa**3"]),
    "thm8.noise.o.proof-k": ("refuted", ["sqrt(L)*T*s**2*tau/m"]),
    "thm8.noise.o.theorem-k": ("refuted", ["L**2*T**2*ld*s**2*tau/(gamma**2*m)"]),
    "thm8.noise.o.balanced-k": ("confirmed", []),
    "thm8.rate.o.proof-k": ("refuted", ["sqrt(L)*kappa**6*logn*sstar**2*tau/m"]),
    "thm8.rate.o.theorem-k": ("refuted", ["L**2*kappa**7*ld*logn**2*sstar**2*tau/(gamma**2*m)"]),
    "thm8.rate.o.balanced-k": ("confirmed", []),
}

ROWS = {
    **{f"hu_frank_wolfe:{row[0]}": row for row in fw_claims.CHAIN_CLAIMS},
    **{f"hu_thm7:{row[0]}": row for row in claims.THM7_CLAIMS},
    **{f"hu_thm8:{row[0]}": row for row in claims.THM8_CLAIMS},
}
PREFIXES = tuple(f"chains.002.thm{k}." for k in range(3, 9))


@pytest.fixture(scope="module")
def registered():
    return {c.id: c for c in default_registry().claims if c.id.startswith(PREFIXES)}


def test_every_claim_is_expected(registered):
    assert set(registered) == {f"chains.002.{s}" for s in EXPECTED}
    assert {row[0] for row in fw_claims.CHAIN_CLAIMS + claims.THM7_CLAIMS + claims.THM8_CLAIMS} == set(EXPECTED)


@pytest.mark.parametrize("suffix", sorted(EXPECTED))
def test_verdict_witnesses_evidence_and_mutants(registered, suffix):
    claim = registered[f"chains.002.{suffix}"]
    assert claim.source.startswith("[002 ")
    result = claim.check(CheckContext().for_claim(claim.id))
    verdict, witnesses = EXPECTED[suffix]
    assert result.verdict == verdict
    for term in witnesses:
        assert term in result.evidence["analysis"]
    check_evidence("formula", result.evidence, claim_id=claim.id)
    if verdict == "refuted":
        assert "worst" in result.evidence  # a numeric witness: a coefficient shortfall or the sum over the bound
    for mutant in claim.mutants:
        assert mutant.check(CheckContext().for_claim(claim.id)).verdict in mutant.detected_by, mutant.name


@pytest.mark.parametrize("key", sorted(k for k in ROWS if EXPECTED[k.split(":")[1]][0] == "confirmed"))
def test_mutants_of_confirmed_claims_name_the_changed_term(key):
    module, _ = key.split(":")
    suffix, factory, kwargs, reading, _, mutations = ROWS[key]
    kinds = {m[0] for m in mutations}
    assert kinds - {"repair"}, suffix
    for mutation in mutations:
        _, report = _claims._report(module, factory, tuple(kwargs), tuple(mutation))
        witnesses = report.witnesses(reading)
        if reading == "explicit" or mutation[0] != "shift":
            assert mutation[1] in witnesses, (suffix, mutation)
        else:  # an O-reading names the premise term left undominated and the shifted symbol it needs
            needs = " ".join(t.needs for t in report.terms if t.term in witnesses)
            assert witnesses and f"{mutation[2]} (" in needs, (suffix, mutation, needs)


def test_step55_shortfall_by_hand():
    # [002 eq. (55)]: sum the middle line of the display before it with only ||g_{S^{t+1} minus S^t}||^2 = 1
    eta, gamma = Fraction(2, 3), Fraction(1)
    for c in (Fraction(10), Fraction(1000)):
        a = eta / gamma
        from_49 = -a / 2  # -(a/2) ||g_{S^{t+1}}||^2
        from_young = 1 / (4 * c)  # ||g_{S^{t+1}}||^2 / (4c)
        from_53 = (c + 1) ** 2 / (2 * c * (c - 1)) * a  # the entering coordinates of (53)
        c1 = gamma / (4 * eta) + Fraction(1, 2) + (3 * c + 1) / (2 * (c - 1))
        stated = -a / 2 + c1 * a / c  # -(a/2)||g_{union}||^2 + C_1 (a/c) ||g_{S^{t+1}}||^2
        assert from_49 + from_young + from_53 - stated == a * (c - 1) / (2 * c)
    report = compare_linear_step(hu_thm7.step55("printed", "c-large"))
    row = next(t for t in report.terms if t.term == "GR1")
    assert (
        row.status == "short"
        and sp.simplify(
            sp.sympify(row.difference, locals=hu_thm7.SYMBOLS)
            + sp.sympify("eta*(c-1)/(2*c*gamma)", locals=hu_thm7.SYMBOLS)
        )
        == 0
    )


def test_step53_needs_c_above_the_root_of_c2_minus_c_minus_4():
    # E2's coefficient from (52) via (51): (c+1)^2/(c-1) * eta/(2 gamma) against (53)'s (2c+3) eta/(2 gamma)
    mpmath.mp.dps = 30
    root = mpmath.findroot(lambda c: (2 * c + 3) - (c + 1) ** 2 / (c - 1), 2.5)
    assert abs(root - (1 + mpmath.sqrt(17)) / 2) < mpmath.mpf(10) ** -25
    assert compare_linear_step(hu_thm7.step53("from-52", "c-any")).witnesses("explicit") == ["E2"]


@pytest.mark.parametrize(("k", "power"), [("proof-k", 2), ("theorem-k", 2), ("balanced-k", 1.5)])
def test_thm8_power_of_s_by_hand(k, power):
    # the three terms after [002 eq. (45)] at beta = 1, n eps = 1e6, T = 10, tau = 1, logs 1, by hand (mpmath)
    mpmath.mp.dps = 30
    m, t = mpmath.mpf(10) ** 6, mpmath.mpf(10)

    def total(s):
        k2 = {"proof-k": m / (s * t), "theorem-k": m, "balanced-k": m / (mpmath.sqrt(s) * t)}[k]
        return s**2 * k2 * t**2 / m**2 + s / k2 + s * t**2 * k2 / m**2

    s1, s2 = mpmath.mpf(10) ** 6, mpmath.mpf(10) ** 9
    slope = mpmath.log(total(s2) / total(s1)) / mpmath.log(s2 / s1)
    assert abs(slope - power) < 1e-3
    verdict = compare_chain(hu_thm8.noise_chain(k)).o_verdict
    assert verdict == ("confirmed" if power == 1.5 else "refuted")


def test_thm4_sensitivity_ratio_by_hand():
    # |<v, g~ - g~'>| <= r (4/n) K (K r + K) on the l1 ball of radius r, against 8 r K^2/n: ratio (1 + r)/2
    for radius in (Fraction(1, 2), Fraction(1), Fraction(2), Fraction(10)):
        n, k = Fraction(100), Fraction(3)
        assert radius * 4 / n * k * (k * radius + k) / (8 * radius * k**2 / n) == (1 + radius) / 2
    chain = hu_frank_wolfe.thm4_sensitivity_chain("radius")
    symbols = hu_frank_wolfe.SYMBOLS
    ratio = sp.sympify(chain.premise_sum() / chain.stated_bound()).subs(
        {symbols["r"]: 10, symbols["n"]: 7, symbols["K"]: 2}
    )
    assert ratio == Fraction(11, 2)


def test_thm5_rate_exponent_by_hand():
    # (42)'s second line at K^2 = sqrt(m)/T^(1/4), T = (sqrt(m) lam/(sqrt(ld) ell))^(4/5), lam = ld = ell = eps = 1
    mpmath.mp.dps = 30

    def line2(m):
        t = mpmath.sqrt(m) ** (mpmath.mpf(4) / 5)
        k2 = mpmath.sqrt(m) / t ** (mpmath.mpf(1) / 4)
        return 1 / t + mpmath.sqrt(1 / m) + k2 * mpmath.sqrt(t) / m + 1 / k2

    m1, m2 = mpmath.mpf(10) ** 20, mpmath.mpf(10) ** 30
    slope = mpmath.log(line2(m2) / line2(m1)) / mpmath.log(m2 / m1)
    assert abs(slope + mpmath.mpf(2) / 5) < 1e-3
    assert compare_chain(hu_frank_wolfe.thm5_chain()).o_verdict == "confirmed"


def test_linear_step_rejects_bad_input():
    g, x = sp.symbols("g x", positive=True)
    z = sp.Symbol("z")
    with pytest.raises(TypeError, match="quantities"):
        LinearStep("bad", "[002 eq. (49)]", (("p", g),), g, (z,))
    with pytest.raises(ValueError, match="premises"):
        LinearStep("bad", "[002 eq. (49)]", (), g, (g,))
    with pytest.raises(ValueError, match="linear"):
        compare_linear_step(LinearStep("bad", "[002 eq. (49)]", (("p", g**2),), g, (g,)))
    negative = LinearStep("bad", "[002 eq. (49)]", (("p", -x),), g, (g, x), (("x <= g", x, g),))
    with pytest.raises(ValueError, match="plus sign"):
        compare_linear_step(negative)
    with pytest.raises(ValueError, match="term"):
        mutate_step(hu_thm7.step49(), "nope", factor=0)
    with pytest.raises(TypeError, match="LinearStep"):
        compare_linear_step("step")
    for call, match in (
        (lambda: hu_thm7.step52_display("twice"), "selection_noise"),
        (lambda: hu_thm7.step53("elsewhere"), "source"),
        (lambda: hu_thm7.step55("other"), "stated"),
        (lambda: hu_thm7.step49() and hu_thm7.step53(c_grid="c-small"), "c_grid"),
        (lambda: hu_thm7.eq74_chain("huge"), "moment"),
        (lambda: hu_thm7.thm7_rate_chain("large"), "mu_range"),
        (lambda: hu_thm7.start_radius_chain("other"), "reading"),
        (lambda: hu_thm8.noise_chain("k"), "k must be"),
        (lambda: hu_thm8.thm8_chain("proof-k", "some"), "logs"),
        (lambda: hu_frank_wolfe.thm3_chain("small"), "lam_range"),
        (lambda: hu_frank_wolfe.thm4_sensitivity_chain("ball"), "norm"),
        (lambda: hu_frank_wolfe.step42_chain("kept"), "logs"),
    ):
        with pytest.raises(ValueError, match=match):
            call()
