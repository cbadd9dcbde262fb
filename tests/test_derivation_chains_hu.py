"""The chains.002.* claims: [002 Thm. 2]'s chain ([002 eq. (28)] to [002 eq. (29)] = [002 eq. (6)]).

Independent reference: the proof's four terms at its beta, s and T computed by hand (mpmath, 30 digits) at one
point, against the engine's sympy sum; the mechanism term carries ell^(4/3) where (6) has ell^(1/3).
"""

from __future__ import annotations

import mpmath
import pytest

from proofs_checks.claim_sets.derivation_chains import hu as claims
from proofs_checks.evidence import check_evidence
from proofs_checks.formulas.chains import hu as chains
from proofs_checks.formulas.chains.engine import compare_chain
from proofs_checks.model import CheckContext
from proofs_checks.registry import default_registry

S = chains.SYMBOLS

EXPECTED = {
    "thm2.step28.o.eps-bounded": ("confirmed", []),
    "thm2.step28.o.eps-large": ("refuted", ["T*W*lT*s/n", "T*W*lV*s/n"]),
    "thm2.o.logs-hidden": ("confirmed", []),
    "thm2.o.logs-one-order": ("refuted", ["W*alpha**(1/3)*ell**(4/3)*tau**(1/3)/m**(1/3)"]),
    "thm2.o.eps-large": ("refuted", ["W*alpha**(1/3)*ell**(1/3)*eps*tau**(1/3)/m**(1/3)"]),
}


@pytest.fixture(scope="module")
def registered():
    sparse = tuple(f"chains.002.thm{k}." for k in range(3, 9))  # tests/test_derivation_chains_hu_proofs.py
    return {
        c.id: c for c in default_registry().claims if c.id.startswith("chains.002.") and not c.id.startswith(sparse)
    }


def test_every_claim_is_expected(registered):
    assert set(registered) == {f"chains.002.{s}" for s in EXPECTED}
    assert {s for s, *_ in claims.CHAIN_CLAIMS} == set(EXPECTED)


@pytest.mark.parametrize("suffix", sorted(EXPECTED))
def test_verdict_witnesses_evidence_and_mutants(registered, suffix):
    claim = registered[f"chains.002.{suffix}"]
    assert claim.seed_policy == "several" and claim.source.startswith("[002 ")
    result = claim.check(CheckContext().for_claim(claim.id))
    verdict, witnesses = EXPECTED[suffix]
    assert result.verdict == verdict
    for term in witnesses:
        assert term in result.evidence["analysis"]
    check_evidence("formula", result.evidence, claim_id=claim.id)
    if verdict == "refuted":
        assert result.evidence["worst"]["premises_over_stated"] > 100  # grows without bound along the points
    for mutant in claim.mutants:
        assert mutant.check(CheckContext().for_claim(claim.id)).verdict in mutant.detected_by, mutant.name


def test_thm2_sum_agrees_with_the_terms_by_hand():
    mpmath.mp.dps = 30
    n, eps, w, alpha, tau, ell = (mpmath.mpf(v) for v in (10**5, "0.5", "1.5", "2", "0.7", "9"))
    t = (n * eps * alpha**2 / (tau * ell)) ** (mpmath.mpf(1) / 3)
    s = mpmath.sqrt(n * eps * tau / (t * ell))
    by_hand = alpha * w / t + 2 * w * tau / s + w * s * t * (1 + ell) / n + w * s * t * ell**2 / (n * eps)
    chain = chains.thm2_chain("one-order")
    point = {S["m"]: n * eps, S["eps"]: eps, S["W"]: w, S["alpha"]: alpha, S["tau"]: tau, S["ell"]: ell}
    value = chain.premise_sum().subs({k: str(v) for k, v in point.items()}).evalf(30)
    assert float(value) == pytest.approx(float(by_hand), rel=1e-20)
    mechanism = w * s * t * ell**2 / (n * eps)
    assert float(mechanism) == pytest.approx(
        float(w * (alpha * tau) ** (mpmath.mpf(1) / 3) * ell ** (mpmath.mpf(4) / 3) / (n * eps) ** (mpmath.mpf(1) / 3)),
        rel=1e-20,
    )


def test_bad_readings_name_the_parameter():
    with pytest.raises(ValueError, match="regime"):
        chains.step28_chain("eps-huge")
    with pytest.raises(ValueError, match="logs"):
        chains.thm2_chain("all")
    assert compare_chain(chains.step28_chain()).o_verdict == "confirmed"
