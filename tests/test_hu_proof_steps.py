"""Claims on the proof steps of 002: verdicts, witnesses and power (each claim's mutant gets the other verdict).

References: exact output laws (enumerated selection paths) for the add/remove claims; HiGHS LPs for Lemma 3's final
bound; mpmath (30 digits) for Lemma 15's probabilities and Algorithm 5's erf factor; closed forms elsewhere.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from proofs_checks.model import CheckContext
from proofs_checks.registry import default_registry
from reference.hu.parameters import theorem7_parameters

NEW_CLAIMS = {
    "hu.thm1.privacy.standard.add-remove": "refuted",
    "hu.thm1.privacy.standard.diameter.add-remove": "confirmed",
    "hu.thm1.privacy.random-partition.add-remove": "confirmed",
    "hu.lemma3.final-bound": "confirmed",
    "hu.thm9.packing-both-properties": "refuted",
    "hu.alg5.lambda-over-sensitivity": "confirmed",
    "hu.thm7.step-size": "confirmed",
    "hu.lemma7.pseudo-huber": "refuted",
    "hu.lemma7.biweight": "refuted",
    "hu.lemma7.cauchy": "refuted",
    "hu.lemma15.printed": "refuted",
    "hu.lemma6.curvature.diameter": "refuted",
    "hu.lemma6.curvature.radius": "refuted",
    "hu.assumption2.biweight": "refuted",
    "hu.remark2.assumption1-implies-3": "refuted",
    "hu.lemma11.size": "confirmed",
    "hu.lemma12.peeling-exchange": "confirmed",
}


@pytest.fixture(scope="module")
def claims():
    reg = default_registry()
    return {c.id: c for c in reg.claims if c.id in NEW_CLAIMS}


def _run(check, claim_id, seed=20261121):
    return check(CheckContext(profile="quick", seed=seed).for_claim(claim_id))


@pytest.mark.parametrize("claim_id", sorted(NEW_CLAIMS))
def test_verdict_and_power(claims, claim_id):
    claim = claims[claim_id]
    result = _run(claim.check, claim_id)
    assert result.verdict == NEW_CLAIMS[claim_id], (claim_id, result.observed, result.bound)
    for mutant in claim.mutants:
        got = _run(mutant.check, claim_id).verdict
        assert got in mutant.detected_by, (claim_id, mutant.name, got)


def test_add_remove_witness_numbers(claims):
    radius = _run(claims["hu.thm1.privacy.standard.add-remove"].check, "a")
    diameter = _run(claims["hu.thm1.privacy.standard.diameter.add-remove"].check, "b")
    # Outputs equal in exact arithmetic merged: 1.995 eps (radius, T = 6) and 0.785 eps (diameter, T = 4), the values
    # an independent re-implementation gave (its own path enumeration, the estimator by quadrature, outputs rounded
    # to 1e-12); as float64 releases (bit-equal outputs only) 2.570 and 1.096: rounding tells paths apart.
    assert radius.observed == pytest.approx(1.995, abs=5e-4) and radius.evidence["worst_at"]["T"] == 6
    assert diameter.observed == pytest.approx(0.785, abs=5e-4)
    assert radius.evidence["float64_outputs_max_loss_over_epsilon"] == pytest.approx(2.56995519987605, rel=1e-9)
    assert diameter.evidence["float64_outputs_max_loss_over_epsilon"] == pytest.approx(1.095506140120957, rel=1e-9)
    for result in (radius, diameter):  # the merge is clear-cut: kept outputs are far apart
        assert result.evidence["output_merge_gap"] > 1e6 * result.evidence["output_merge_tolerance"]


def test_merge_rounding_duplicates_merges_only_rounding():
    from proofs_checks.claim_sets.hu.add_remove import merge_rounding_duplicates

    outputs = np.array([[0.5, 0.25], [0.5 + 2e-16, 0.25], [0.5, 0.25 - 1e-13], [0.75, 0.25]])
    logp = np.log(np.array([[0.1, 0.2, 0.3, 0.4], [0.4, 0.3, 0.2, 0.1]]))
    merged, gap = merge_rounding_duplicates(outputs, logp)
    assert merged.shape == (2, 2) and gap == pytest.approx(0.25)
    assert np.allclose(np.exp(merged), [[0.6, 0.4], [0.9, 0.1]])
    # power: a tolerance below the rounding keeps them apart
    assert merge_rounding_duplicates(outputs, logp, tolerance=1e-17)[0].shape == (2, 4)


def test_add_remove_verdicts_do_not_depend_on_the_seed(claims):
    for seed in (1, 2):
        assert _run(claims["hu.thm1.privacy.standard.add-remove"].check, "c", seed).verdict == "refuted"
        assert _run(claims["hu.thm1.privacy.standard.diameter.add-remove"].check, "c", seed).verdict == "confirmed"
        assert _run(claims["hu.thm1.privacy.random-partition.add-remove"].check, "d", seed).verdict == "confirmed"


def test_lemma15_witness_mpmath():
    from proofs_checks.claim_sets.hu.lemmas import lemma15_probability

    # 1 - (1 - e^(-2 ln2 ln2))^2 at 30 digits
    assert lemma15_probability(2, 0.5) == pytest.approx(0.61875072023782, rel=1e-12)
    assert lemma15_probability(1, 0.3) == 1.0


def test_lemma7_witness_closed_form():
    from proofs_checks.claim_sets.hu.lemmas import lemma7_sides, pseudo_huber

    lhs, inner = lemma7_sides(pseudo_huber, 1.0, -1.0, 1.0, 0.0)
    assert lhs == pytest.approx(math.sqrt(5) - 1)
    assert inner / 1.8 == pytest.approx(4 / math.sqrt(5) / 1.8)  # 0.9938 < 1.2361


def test_alg5_factor_is_erf():
    from proofs_checks.claim_sets.hu.alg5_sensitivity import grid_sup_factor, sensitivity_factor_mp

    assert 3 / sensitivity_factor_mp(1.0) == pytest.approx(4.3944, abs=1e-4)
    assert 3 / sensitivity_factor_mp(4.0) == pytest.approx(3.1430, abs=1e-4)
    assert abs(grid_sup_factor(1.0) - sensitivity_factor_mp(1.0)) < 1e-12


def test_theorem7_step_is_two_thirds_over_gamma():
    for gamma in (0.5, 2.0, 3.0):
        p = theorem7_parameters(10_000, 1.0, 2, gamma, 0.5)
        assert p["eta0"] == pytest.approx(2 / (3 * gamma)) and p["eta"] == pytest.approx(2 / (3 * gamma))


def test_remark2_moments_mpmath():
    from proofs_checks.claim_sets.hu.assumptions import truncated_fourth_moment

    # t(3): y^4 times the density tends to 6 sqrt(3)/pi on each tail, so the truncated moment grows like 12 sqrt(3)/pi R
    a, b = truncated_fourth_moment(3.0, 1e4), truncated_fourth_moment(3.0, 1e6)
    assert (b - a) / (1e6 - 1e4) == pytest.approx(12 * math.sqrt(3) / math.pi, rel=1e-3)
    assert truncated_fourth_moment(5.0, 1e6) == pytest.approx(25.0, abs=1e-3)


@pytest.mark.parametrize("claim_id", ["hu.lemma12.peeling-exchange"])
def test_simulated_verdicts_agree_across_seeds(claims, claim_id):
    for seed in (1, 2, 3):
        assert _run(claims[claim_id].check, claim_id, seed).verdict == "confirmed"
        assert _run(claims[claim_id].mutants[0].check, claim_id, seed).verdict == "refuted"


@settings(max_examples=300, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False))
def test_cauchy_loss_is_finite_and_within_its_bounds_over_the_float_range(s):
    # Assumption 2's constants of the Cauchy loss hold in float64 for every finite s, 1e300 and subnormals
    # included: psi >= 0, psi' odd with |psi'| <= 1/2, psi'' in [-1/8, 1] (reference: the closed forms of the
    # docstring, checked against mpmath at 40 digits at the points below).
    from proofs_checks.claim_sets.hu.lemmas import cauchy_loss

    psi, d1, d2 = cauchy_loss(s)
    assert all(math.isfinite(v) for v in (psi, d1, d2))
    assert psi >= 0.0 and abs(d1) <= 0.5 and -0.125 * (1 + 4e-16) <= d2 <= 1.0  # -1/8 at s^2 = 3, to rounding
    assert cauchy_loss(-s)[1] == -d1


@pytest.mark.parametrize("s", [1e-300, 5e-324, 0.5, 1.0, 3.0, 1e10, 1e200])
def test_cauchy_loss_against_mpmath(s):
    import mpmath

    from proofs_checks.claim_sets.hu.lemmas import cauchy_loss

    with mpmath.workdps(40):
        x = mpmath.mpf(s)
        ref = (mpmath.log1p(x * x) / 2, x / (1 + x * x), (1 - x * x) / (1 + x * x) ** 2)
    for got, want in zip(cauchy_loss(s), ref):
        assert got == pytest.approx(float(want), rel=1e-15, abs=0)
