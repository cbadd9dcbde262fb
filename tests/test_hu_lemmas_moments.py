"""[002 Lemma 8] with its constants fixed: verdicts, power (each mutant's opposite verdict) and exact witnesses.

References: the variance witness and the truncation bias's analytic worst case in exact rationals
(fractions.Fraction); Bernstein's constant by the closed form of the bound; the union bound in float64.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from proofs_checks.model import CheckContext
from proofs_checks.registry import default_registry

VERDICTS = {
    "hu.lemma8.truncation-bias": "confirmed",
    "hu.lemma8.eq38.printed": "refuted",
    "hu.lemma8.truncated-variance.printed": "refuted",
    "hu.lemma8.truncated-variance.endpoint": "confirmed",
    "hu.lemma8.union-bound-t": "refuted",
    "hu.lemma8.concentration": "confirmed",
}


def _run(check, claim_id, seed=20261121):
    return check(CheckContext(profile="quick", seed=seed).for_claim(claim_id))


@pytest.fixture(scope="module")
def results():
    claims = {c.id: c for c in default_registry().claims if c.id in VERDICTS}
    return {
        cid: (_run(c.check, cid), [(m, _run(m.check, cid)) for m in c.mutants]) for cid, c in sorted(claims.items())
    }


@pytest.mark.parametrize("claim_id", sorted(VERDICTS))
def test_verdict_and_power(results, claim_id):
    result, mutants = results[claim_id]
    assert result.verdict == VERDICTS[claim_id], (claim_id, result.observed)
    assert mutants
    for mutant, got in mutants:
        assert got.verdict in mutant.detected_by, (claim_id, mutant.name, got.verdict)


def test_truncation_bias_attains_a_quarter_in_rationals(results):
    # one atom a = b = sqrt(2) K: bias a^2 - K^2 = K^2, M = a^4 = 4 K^4, ratio 1/4 (the maximum on the diagonal)
    K = Fraction(1)
    a2 = 2 * K * K
    assert (a2 - K * K) * K * K / (a2 * a2) == Fraction(1, 4)
    observed = results["hu.lemma8.truncation-bias"][0].observed
    assert 0.2499 < observed <= 0.25 + 1e-12


def test_eq38_printed_grows_like_k_squared(results):
    from proofs_checks.claim_sets.hu.truncation_moments import truncation_bias_ratio

    values, weights = np.array([[[2.0**0.5, 2.0**0.5]]]), np.ones((1, 1))
    base = truncation_bias_ratio(values, weights, 1.0, bias_power=0.5)[0]
    for k in (8.0, 1024.0):
        scaled = truncation_bias_ratio(values * k, weights, k, bias_power=0.5)[0]
        assert scaled / base == pytest.approx(k * k, rel=1e-12)
        assert truncation_bias_ratio(values * k, weights, k)[0] == pytest.approx(0.25, rel=1e-12)
    assert results["hu.lemma8.eq38.printed"][0].evidence["worst"]["unit"] == 1024.0


def test_variance_witness_exact():
    from proofs_checks.claim_sets.hu.truncation_moments import variance_witness

    w = variance_witness()
    assert Fraction(w["variance_shrunken_product"]) == Fraction(9, 64) > Fraction(w["variance_product"]) == 0
    assert Fraction(w["variance_shrunken_product"]) <= Fraction(w["second_moment_product"])


def test_union_bound_printed_and_log_choice(results):
    rows = results["hu.lemma8.union-bound-t"][0].evidence["rows"]
    d2 = next(r for r in rows if r["d"] == 2 and r["zeta"] == 0.1)
    assert d2["failure_bound_over_zeta"] == pytest.approx(6 * math.exp(-0.1 / 8) / 0.1, rel=1e-12)
    # t = log(d^3/zeta): (d^2 + d) zeta / d^3 / zeta = 1/d + 1/d^2, largest 3/4 at d = 2
    assert results["hu.lemma8.union-bound-t"][1][0][1].observed == pytest.approx(0.75, rel=1e-12)


def test_deviation_bound_closed_form():
    from proofs_checks.claim_sets.hu.truncation_moments import lemma8_deviation_bound

    n, d, K, zeta, M = 10_000, 5, 4.0, 0.1, 24.0
    t = math.log(2 * 30 / zeta)
    expected = 4 * (2 * (math.sqrt(M * t / n) + K * K * t / n) + 4 * M / K**2)
    assert lemma8_deviation_bound(n, d, K, zeta) == pytest.approx(expected, rel=1e-14)
    # Bernstein: sqrt(2 r t/n) + (2/3)(2 K^2) t/n <= 2 (sqrt(r t/n) + K^2 t/n)
    assert math.sqrt(2) <= 2 and 4 / 3 <= 2
    with pytest.raises(ValueError, match="zeta"):
        lemma8_deviation_bound(n, d, K, 1.0)


def test_concentration_interval_and_looseness(results):
    from proofs_checks.claim_sets.hu.truncation_moments import largest_deviation_over_bound

    result = results["hu.lemma8.concentration"][0]
    lo, hi = result.evidence["clopper_pearson"]
    assert lo >= 0.9 and result.evidence["simulations"] == 40
    assert largest_deviation_over_bound(runs=20) < 0.1  # the stated bound is > 10x above the deviations seen


COMPOSITION = {"hu.thm4.composition.eps-within-range": "confirmed", "hu.thm4.composition.eps-beyond-range": "refuted"}


@pytest.mark.parametrize("claim_id", sorted(COMPOSITION))
def test_composition_sweep_verdict_and_power(claim_id):
    claim = next(c for c in default_registry().claims if c.id == claim_id)
    result = _run(claim.check, claim_id)
    assert result.verdict == COMPOSITION[claim_id]
    for mutant in claim.mutants:
        assert _run(mutant.check, claim_id).verdict in mutant.detected_by
    if claim_id.endswith("beyond-range"):
        worst = result.evidence["worst"]
        assert (worst["T"], worst["delta"], worst["epsilon"]) == (1000, 1e-3, 128.0)
        assert worst["delta_over_target"] == pytest.approx(827.914, rel=1e-4)
        # eps = 32 still within delta on the whole grid: the restriction eps < 1 is conservative
        assert all(r["delta_over_target"] <= 1 for r in result.evidence["cases"] if r["epsilon"] <= 32)


def test_rr_composition_delta_against_mpmath():
    import mpmath

    from proofs_checks.claim_sets.hu.composition_sweep import rr_composition_delta

    mpmath.mp.dps = 40
    for e0, T, eps in ((0.5, 7, 1.0), (0.54449827, 40, 10.0), (2.0, 5, 3.0)):
        e0m = mpmath.mpf(e0)
        p = mpmath.e**e0m / (1 + mpmath.e**e0m)
        ref = mpmath.fsum(
            mpmath.binomial(T, x) * p**x * (1 - p) ** (T - x) * (1 - mpmath.e ** (eps - e0m * (2 * x - T)))
            for x in range(T + 1)
            if e0 * (2 * x - T) > eps
        )
        assert rr_composition_delta(e0, T, eps) == pytest.approx(float(ref), rel=1e-10, abs=1e-300)
    with pytest.raises(ValueError, match="epsilon_step"):
        rr_composition_delta(0.0, 3, 1.0)
    with pytest.raises(ValueError, match="T must"):
        rr_composition_delta(1.0, 0, 1.0)


@pytest.mark.parametrize("reading", ["sum", "product"])
def test_lemma5_verdict_and_power(reading):
    claim_id = f"hu.lemma5.fw-gap.{reading}"
    claim = next(c for c in default_registry().claims if c.id == claim_id)
    result = _run(claim.check, claim_id)
    assert result.verdict == "confirmed" and result.evidence["clopper_pearson"][0] >= 0.8
    for mutant in claim.mutants:
        assert _run(mutant.check, claim_id).verdict in mutant.detected_by


def test_lemma5_bound_closed_form():
    from proofs_checks.claim_sets.hu.frank_wolfe_gap import lemma5_bound

    d, T, m, s, beta, eps, zeta = 5, 3, 2000, 50.0, 1.0, 1.0, 0.1
    delta_u = 4 * math.sqrt(2) * s / (3 * m)
    log_u = math.log(2 * d * T / zeta)
    estimation = 60 / s * 2 + s / m * (1 + log_u) + 60 / (2 * s) * 2 + s / m * (0.5 + log_u)
    total = 2 * delta_u / eps * (math.log(10) + math.log(30)) + estimation
    assert lemma5_bound(d, T, m, s, beta, eps, zeta) == pytest.approx(total, rel=1e-14)
    product = 2 * delta_u / eps * math.log(10) * math.log(30) + estimation
    assert lemma5_bound(d, T, m, s, beta, eps, zeta, "product") == pytest.approx(product, rel=1e-14)
    # the product is below the sum when log|V| < 1 + 1/(log(T/zeta) - 1): |V| = 2
    assert lemma5_bound(1, T, m, s, beta, eps, zeta, "product") < lemma5_bound(1, T, m, s, beta, eps, zeta)
    with pytest.raises(ValueError, match="reading"):
        lemma5_bound(d, T, m, s, beta, eps, zeta, "max")


def test_every_round2_claim_follows_its_evidence_record():
    from proofs_checks.evidence import check_evidence

    prefixes = ("hu.lemma5.", "hu.lemma8.", "hu.lemma13.", "hu.lemma14.", "hu.thm4.composition.", "hu.units.iht")
    claims = [c for c in default_registry().claims if c.id.startswith(prefixes)]
    assert len(claims) == 19
    for claim in claims:
        result = _run(claim.check, claim.id)
        assert result.evidence_kind is not None, claim.id
        check_evidence(result.evidence_kind, result.evidence, claim_id=claim.id)
