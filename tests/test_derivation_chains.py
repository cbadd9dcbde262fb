"""The derivation-chain engine (proofs_checks/formulas/chains/engine.py): grouping, both readings, and its power.

Power: on every confirmed explicit chain of [000], a stated term dropped, its coefficient halved (a factor 2 lost)
or its exponent shifted by 1/theta (1/2 at theta = 2) must be refuted, and the report must name that term.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
import sympy as sp

from proofs_checks.formulas.chains import wang_xu as chains
from proofs_checks.formulas.chains.engine import (
    Chain,
    Regime,
    compare_chain,
    mutate_stated,
    ratio_at,
    terms_of,
)

n, eps, iota, theta = sp.symbols("n eps iota theta", positive=True)
S = chains.SYMBOLS


def _toy(stated, premises=((("a", 1 / n), ("b", 2 / (n * eps))))):
    return Chain("toy", "[000 eq. (9)]", premises, stated, (n, eps), Regime({n: "large", eps: "small"}))


def test_terms_group_like_monomials_and_split_power_bases():
    terms = terms_of((2 * iota) ** (theta - 1) * n + 3 * n * iota ** (theta - 1) + 1 / n, (n, iota))
    assert set(terms) == {(("iota", theta - 1), ("n", 1)), (("n", -1),)}
    assert sp.simplify(terms[(("iota", theta - 1), ("n", 1))] - (2 ** (theta - 1) + 3)) == 0


def test_each_status_is_reported():
    report = compare_chain(_toy(3 / (n * eps) + n**2 + 1 / n**2))
    status = {t.term: t.status for t in report.terms}
    assert status == {"1/n": "exponent-differs", "1/(eps*n)": "present", "n**2": "extra", "n**(-2)": "extra"}
    present = next(t for t in report.terms if t.term == "1/(eps*n)")
    assert present.ratio == "3/2" and present.ratio_min == 1.5


def test_o_reading_absorbs_by_the_regime_and_names_what_it_needs():
    report = compare_chain(_toy(3 / (n * eps)))
    assert (report.explicit_verdict, report.o_verdict) == ("refuted", "confirmed")
    assert report.witnesses("explicit") == ["1/n"] and report.witnesses("o") == []
    free = Chain("toy", "[000 eq. (9)]", _toy(0).premises, 3 / (n * eps), (n, eps), Regime({n: "large", eps: "free"}))
    row = next(t for t in compare_chain(free).terms if t.term == "1/n")
    assert row.o_status == "undominated" and row.needs.startswith("closest stated term 1/(eps*n): eps (free)")


def test_theta_dependent_coefficients_are_decided_on_the_grid():
    # 2^theta / (2 + 2^(theta-1)) < 1 on (1, 2): the ratio of [000 eq. (26)]'s M coefficient to its premises'
    report = compare_chain(chains.eq26_chain())
    row = next(t for t in report.terms if t.term == "M*iota**(theta - 1)")
    smallest = min(mpmath.mpf(2) ** t / (2 + mpmath.mpf(2) ** (t - 1)) for t in (1.01, 1.1, 1.25, 1.5, 1.75, 1.9, 1.99))
    assert row.ratio_min == pytest.approx(float(smallest), rel=1e-12)  # mpmath at 15 digits, same theta grid


def test_ratio_at_is_exact_on_a_rational_point():
    chain = chains.eq14_chain()
    point = {S[k]: sp.Rational(v) for k, v in {"n": 7, "eps": "1/3", "iota": "1/5", "zeta": "1/7"}.items()}
    point.update({S["tau"]: 2, S["M"]: 3, S["logN"]: 5, S["li"]: 1})
    assert ratio_at(chain, point) == 1.0  # (14) is the sum of its premises exactly (exact rationals, log 2 cancels)
    assert Fraction(1) == Fraction(str(ratio_at(chain, point)))


CONFIRMED_EXPLICIT = {
    "eq14": (chains.eq14_chain, "M*iota", S["iota"], sp.Rational(1, 2)),
    "lemma10": (chains.lemma10_chain, "M*iota**(theta - 1)", S["iota"], 1 / S["theta"]),
}


@pytest.mark.parametrize("name", sorted(CONFIRMED_EXPLICIT))
@pytest.mark.parametrize("mutation", ["drop", "factor 2", "exponent"])
def test_power_a_mutated_statement_is_refuted_and_named(name, mutation):
    factory, term, symbol, shift = CONFIRMED_EXPLICIT[name]
    chain = factory()
    assert compare_chain(chain).explicit_verdict == "confirmed"
    if mutation == "drop":
        mutant = mutate_stated(chain, term, factor=0)
    elif mutation == "factor 2":
        mutant = mutate_stated(chain, term, factor=sp.Rational(1, 2))
    else:
        mutant = mutate_stated(chain, term, exponent_shift={symbol: shift})
    report = compare_chain(mutant)
    assert report.explicit_verdict == "refuted"
    assert report.witnesses("explicit") == [term]
    row = next(t for t in report.terms if t.term == term)
    assert row.status == {"drop": "missing", "factor 2": "present", "exponent": "exponent-differs"}[mutation]


@pytest.mark.parametrize(
    "factory, term, symbol, shift",
    [
        (chains.eq18_chain, "d**(1 - 1/theta)*logn**(2 - 2/theta)*m**(-1 + 1/theta)*tau", "m", -1 / S["theta"]),
        (chains.eq7_chain, "sqrt(d)*sqrt(li)*sqrt(logn)*tau/sqrt(m)", "d", sp.Rational(-1, 2)),
    ],
)
def test_power_a_rate_exponent_off_is_refuted_in_the_o_reading(factory, term, symbol, shift):
    kwargs = {"logs": "hidden"} if factory is chains.eq18_chain else {}
    chain = factory(**kwargs)
    assert compare_chain(chain).o_verdict == "confirmed"
    report = compare_chain(mutate_stated(chain, term, exponent_shift={S[symbol]: shift}))
    assert report.o_verdict == "refuted" and report.witnesses("o")
    assert all(t.needs.startswith("closest stated term") for t in report.terms if t.o_status == "undominated")


def test_bad_input_names_the_parameter():
    with pytest.raises(ValueError, match=r"directions\[n\]"):
        Regime({n: "huge"})
    with pytest.raises(ValueError, match="parameter_grid"):
        Regime({n: "large"}, {theta: ()})
    with pytest.raises(ValueError, match="no direction"):
        Chain("c", "[000 eq. (7)]", (("p", 1 / n),), 1 / n, (n, eps), Regime({n: "large"}))
    with pytest.raises(TypeError, match="order_symbols"):
        Chain("c", "[000 eq. (7)]", (("p", 1 / n),), 1 / n, (sp.Symbol("k"),), Regime({sp.Symbol("k"): "large"}))
    with pytest.raises(TypeError, match="chain must be a Chain"):
        compare_chain("eq14")
    with pytest.raises(ValueError, match="not an order symbol"):
        compare_chain(_toy(sp.log(n) / n))
    with pytest.raises(ValueError, match="term must be one of"):
        mutate_stated(_toy(3 / (n * eps)), "1/n", factor=0)
    with pytest.raises(ValueError, match="not positive"):
        compare_chain(_toy(1 / n, premises=(("neg", -1 / n),)))
    with pytest.raises(ValueError, match="point must give every symbol"):
        ratio_at(_toy(1 / n), {n: 3})
    with pytest.raises(ValueError, match="reading must be"):
        compare_chain(_toy(1 / n)).witnesses("big-o")


def test_loading_the_claims_does_not_import_sympy():
    # sympy costs about 2 s to import: the CLI's start-up and every verify worker would pay it for nothing
    import subprocess
    import sys

    code = (
        "import sys; from proofs_checks.registry import default_registry; "
        "reg = default_registry(); assert any(c.id.startswith('chains.') for c in reg.claims); "
        "print('sympy' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
