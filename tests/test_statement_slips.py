"""The statement-slip claims of 000 (Theorem 2's failure probability, Algorithm 2's text sensitivity) and 004
(Algorithm 1's tau_j): verdicts, the numbers behind them, and power (each mutant is caught).

References: the union-bound ratios are exact rationals; the witness losses are mpmath at 50 digits (closed form
below); the binomial tails are checked against mpmath sums of the binomial mass (50 digits).
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest

from proofs_checks.claim_sets.arora import statement_slips as A
from proofs_checks.claim_sets.wang_xu import statement_slips as W
from proofs_checks.model import CheckContext
from proofs_checks.registry import default_registry

CLAIMS = {
    "wang-xu.thm2.failure-probability.proof-count": "confirmed",
    "wang-xu.thm2.failure-probability.eta": "confirmed",
    "wang-xu.thm2.failure-probability.zeta": "confirmed",
    "wang-xu.alg2.text-sensitivity.port": "confirmed",
    "wang-xu.alg2.text-sensitivity.port.proof-reading": "confirmed",
    "arora.alg1.tau.union-bound.printed": "refuted",
    "arora.alg1.tau.union-bound.proof": "confirmed",
    "arora.alg1.bernstein-display": "refuted",
    "arora.alg1.eq1.tau-printed": "refuted",
    "arora.alg1.eq1.tau-proof": "refuted",
}


@pytest.fixture(scope="module")
def claims():
    registry = default_registry()
    return {c.id: c for c in registry.claims if c.id in CLAIMS}


@pytest.mark.parametrize("claim_id", sorted(CLAIMS))
def test_verdict_and_power(claims, claim_id):
    claim = claims[claim_id]
    ctx = CheckContext(profile="quick").for_claim(claim.id)
    assert claim.check(ctx).verdict == CLAIMS[claim_id]
    assert claim.mutants, "every claim needs a mutant"
    for mutant in claim.mutants:
        assert mutant.check(ctx).verdict in mutant.detected_by, mutant.name


def test_theorem2_proof_fails_with_five_eta_and_the_rescaling_costs_below_2():
    assert W.failure_count() == 5
    # log(5 N / eta) / log(N / eta) at N = 60, eta = 0.5: mpmath at 50 digits, by hand
    assert W.rescaling_factor(60.0, 0.5, 5) == pytest.approx(float(mpmath.log(600) / mpmath.log(120)), rel=1e-15)
    res = W.failure_probability_check("eta")(CheckContext())
    assert res.observed == pytest.approx(1.3362, abs=1e-4) and res.evidence["worst"]["n"] == 10
    mutant = W.failure_probability_check("eta", count=lambda n: 5 * n * n)(CheckContext())
    assert mutant.verdict == "refuted" and mutant.observed > 3  # the smallest error caught: a count 5 N^2
    with pytest.raises(ValueError, match="reading"):
        W.failure_probability_check("delta")
    with pytest.raises(ValueError, match="eta"):
        W.rescaling_factor(60.0, 1.5, 5)


def test_text_port_loss_matches_the_closed_form():
    # closed form of the witness: 2 c s - log(1 + e^{-c (n-2) s}) + log(1 + e^{-c n s}), s = log theta,
    # c = eps / (2 n Delta); with Delta = log theta / n (the text's) 2 c s = eps
    eps, theta, n = 1.0, 1.5, 10
    with mpmath.workdps(50):
        s = mpmath.log(theta)
        c = eps / (2 * n * (s / n))
        closed = 2 * c * s - mpmath.log(1 + mpmath.exp(-c * (n - 2) * s)) + mpmath.log(1 + mpmath.exp(-c * n * s))
    assert W.witness_privacy_loss(eps, theta, n, W.text_sensitivity(n, 1.0, theta)) == pytest.approx(
        float(closed), rel=1e-12
    )
    assert W.text_sensitivity(10, 1.0, 2.0, "proof") == pytest.approx(2 * math.log(2) / 10)
    literal = W.text_port_privacy_check("literal")(CheckContext())
    assert literal.observed == pytest.approx(1.0, abs=1e-9)  # tight: eps attained
    assert W.text_port_privacy_check("proof")(CheckContext()).observed == pytest.approx(0.5, abs=1e-9)
    assert W.text_port_privacy_check("literal", 0.9)(CheckContext()).observed == pytest.approx(1 / 0.9, rel=1e-9)
    with pytest.raises(ValueError, match="n >= 2"):
        W.witness_privacy_loss(1.0, 2.0, 1, 0.1)


def test_union_bound_ratios_are_exact():
    assert A.union_failure_under_display(1) == Fraction(5, 2)
    assert A.union_failure_under_display(4) == 1
    assert A.union_failure_under_display(2) == Fraction(3, 2)
    with pytest.raises(ValueError, match="log_factor"):
        A.union_failure_under_display(0)


def _tail_mpmath(m, p, t):
    """P[|X/m - p| >= t], X ~ Bin(m, p), summing the binomial mass in mpmath (50 digits) over the two tails."""
    with mpmath.workdps(50):
        hi = math.ceil(m * p + t * m - 1e-9)
        lo = math.floor(m * p - t * m + 1e-9)
        mass = lambda k: mpmath.binomial(m, k) * mpmath.mpf(p) ** k * (1 - mpmath.mpf(p)) ** (m - k)  # noqa: E731
        upper = mpmath.nsum(mass, [hi, m])
        lower = mpmath.nsum(mass, [0, lo]) if lo >= 0 else 0
        return float(upper + lower)


def test_binomial_tail_against_mpmath_on_a_small_witness():
    m, p = 2000, 0.01
    t = A.tau(m, 8, 0.05, 1.0, p, "proof")
    assert A.deviation_probability(m, p, t) == pytest.approx(_tail_mpmath(m, p, t), rel=1e-9)
    assert A.deviation_probability(4, 0.5, 0.5) == pytest.approx(0.125)


def test_eq1_witness_numbers():
    printed = A.eq1_witness_check("printed")(CheckContext())
    proof = A.eq1_witness_check("proof")(CheckContext())
    assert printed.evidence["worst_at"]["union"] == pytest.approx(0.1529, abs=1e-4)
    assert proof.evidence["worst_at"]["union"] == pytest.approx(0.0686, abs=1e-4)
    assert A.eq1_witness_check("bernstein")(CheckContext()).observed < 0.1  # the repaired tau_j meets beta/2
    with pytest.raises(ValueError, match="rule"):
        A.tau(10, 2, 0.1, 1.0, 1.0, "other")
