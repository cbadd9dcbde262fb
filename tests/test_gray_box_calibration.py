"""The ``calibration`` check of the gray-box audit: each call's privacy from the law it sampled, at the proof's
sensitivity, against the proof's per-call budget; and its power (a scale x0.8 refuted, x1 not)."""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pytest

from proofs_checks.audit.gray_box import ProofStep, gray_box_audit
from proofs_checks.audit.gray_box.calibration import (
    CALIBRATED_PRIMITIVES,
    TOLERANCE,
    calibration_check,
    call_calibration,
    recovered_weight,
)
from reference.mechanisms import (
    exponential_sample,
    gaussian_mechanism,
    gaussian_sigma,
    laplace_mechanism,
    peeling,
    report_noisy_max,
)
from reference.mechanisms.gaussian import gaussian_exact_delta
from reference.mechanisms.recorder import registered_primitives

D = np.array([0.2, 0.9, 0.4, 0.0, 0.7])
D_PRIME = np.array([0.2, 0.9, 0.4, 0.0, 1.0])
EPS = 1.0


def _laplace_mean(factor):
    def algorithm(data, rng):
        clipped = np.clip(data, 0.0, 1.0)
        # the Laplace mechanism called with budget EPS / factor: scale factor * (1/n) / EPS
        return laplace_mechanism(clipped.mean(), sensitivity=1.0 / clipped.size, epsilon=EPS / factor, rng=rng)

    return algorithm


def _laplace_proof(call):
    return ProofStep(1.0 / D.size, "l1", EPS, source="test")


@pytest.mark.parametrize("factor, verdict", [(1.0, "no violation found"), (0.8, "refuted"), (0.5, "refuted")])
def test_laplace_scale_power(factor, verdict):
    res = gray_box_audit(
        _laplace_mean(factor), D, D_PRIME, epsilon=EPS, paths=5, proof_step=_laplace_proof, checks=("calibration",)
    )
    check = res.check("calibration")
    assert check.verdict == verdict
    assert check.witness["ratio"] == pytest.approx(1.0 / factor, rel=1e-12)
    if verdict == "refuted":
        assert check.witness["site"] == "[002 Def. 2]" and "call 0 (laplace)" in check.summary


def test_calibration_runs_only_with_proof_step():
    res = gray_box_audit(_laplace_mean(1.0), D, D_PRIME, epsilon=EPS, paths=3)
    assert "calibration" not in [c.name for c in res.checks]
    res = gray_box_audit(_laplace_mean(1.0), D, D_PRIME, epsilon=EPS, paths=3, proof_step=_laplace_proof)
    assert res.check("calibration").verdict == "no violation found"
    assert res.as_dict()["checks"][2]["name"] == "calibration"
    assert res.check("calibration").covers == "proof premise"
    with pytest.raises(ValueError, match="needs proof_step"):
        gray_box_audit(_laplace_mean(1.0), D, D_PRIME, epsilon=EPS, paths=3, checks=("calibration",))
    with pytest.raises(TypeError, match="proof_step"):
        gray_box_audit(_laplace_mean(1.0), D, D_PRIME, epsilon=EPS, paths=3, proof_step=1.0)


def test_proof_step_none_is_uncovered_and_vacuous():
    res = gray_box_audit(
        _laplace_mean(0.5), D, D_PRIME, epsilon=EPS, paths=3, proof_step=lambda call: None, checks=("calibration",)
    )
    check = res.check("calibration")
    assert check.verdict == "vacuous" and check.witness["uncovered"] == 6


def test_bad_proof_step_return_is_an_error_check():
    res = gray_box_audit(
        _laplace_mean(1.0), D, D_PRIME, epsilon=EPS, paths=3, proof_step=lambda call: 1.0, checks=("calibration",)
    )
    assert res.check("calibration").verdict == "error"


@pytest.mark.parametrize("factor, verdict", [(1.0, "no violation found"), (1.5, "refuted")])
def test_categorical_weight_recovered(factor, verdict):
    scores_of = lambda data: np.array([data.mean(), 1.0 - data.mean(), 0.5 * data[0], 0.25])  # noqa: E731

    def algorithm(data, rng):
        clipped = np.clip(data, 0.0, 1.0)
        # epsilon x factor: the weight of the scores in the log-weights is factor * EPS / (2 Delta)
        return exponential_sample(scores_of(clipped), epsilon=EPS * factor, sensitivity=0.5, rng=rng)

    res = gray_box_audit(
        algorithm,
        D,
        D_PRIME,
        epsilon=EPS,
        paths=4,
        proof_step=lambda call: ProofStep(0.5, "linf", EPS),
        checks=("calibration",),
    )
    check = res.check("calibration")
    assert check.verdict == verdict
    assert check.witness["law_weight"] == pytest.approx(factor * EPS / (2 * 0.5), rel=1e-9)
    assert check.witness["actual"] == pytest.approx(factor * EPS, rel=1e-9)


def test_categorical_law_not_the_score_law_refuted():
    call = SimpleNamespace(
        primitive="categorical",
        data=np.array([0.0, 1.0, 2.0]),
        law={"log_weights": np.log([0.2, 0.5, 0.3])},
        public={"weight": 1.0},
        sensitivity=1.0,
        index=0,
        site="x",
    )
    found = call_calibration(call, ProofStep(1.0, "linf", 10.0))
    assert not found.law_matches and found.exceeds
    run = SimpleNamespace(recorded=(call,))
    check = calibration_check([("D->D'", 0, run)], lambda c: ProofStep(1.0, "linf", 10.0))
    assert check.verdict == "refuted" and "not the declared score law" in check.summary


def test_recovered_weight_ignores_underflowed_entries_and_constant_scores():
    c, residual, affine = recovered_weight([-np.inf, 1.0, 2.0], [0.0, 1.0, 2.0])
    assert affine and c == pytest.approx(1.0)
    assert recovered_weight([0.3, 0.3], [1.0, 1.0]) == (0.0, 0.0, True)
    with pytest.raises(ValueError, match="same shape"):
        recovered_weight([1.0], [1.0, 2.0])


def test_one_sided_halves_a_selection():
    call = SimpleNamespace(primitive="report_noisy_max", law={"scale": 2.0}, data=np.zeros(3), public={})
    assert call_calibration(call, ProofStep(1.0, "linf", 1.0)).actual == 1.0
    assert call_calibration(call, ProofStep(1.0, "linf", 1.0, one_sided=True)).actual == 0.5


def test_gaussian_exact_delta_compared_with_delta_step():
    sigma = gaussian_sigma(1.0, 0.5, 1e-5)

    def algorithm(data, rng, factor=1.0):
        return gaussian_mechanism(np.clip(data, 0, 1).mean(), 1.0 / data.size, 0.5, 1e-5, rng=rng)

    step = ProofStep(1.0 / D.size, "l2", 0.5, 1e-5)
    res = gray_box_audit(
        algorithm, D, D_PRIME, epsilon=0.5, delta=1e-5, paths=3, proof_step=lambda c: step, checks=("calibration",)
    )
    check = res.check("calibration")
    assert check.verdict == "no violation found" and check.witness["quantity"] == "delta"
    assert check.witness["actual"] == pytest.approx(gaussian_exact_delta(0.5, sigma / D.size, 1.0 / D.size))
    half = ProofStep(1.0 / D.size, "l2", 0.5, 1e-5)
    call = SimpleNamespace(primitive="gaussian", law={"sigma": 0.5 * sigma / D.size}, data=np.zeros(1))
    assert call_calibration(call, half).exceeds


def test_report_noisy_max_and_peeling_rules():
    def rnm(data, rng):
        return report_noisy_max(np.array([data.mean(), 0.5]), scale=2.0 / data.size, rng=rng)

    proof = lambda call: ProofStep(1.0 / D.size, "linf", 1.0)  # noqa: E731
    res = gray_box_audit(rnm, D, D_PRIME, epsilon=1.0, paths=3, proof_step=proof, checks=("calibration",))
    assert res.check("calibration").verdict == "no violation found"
    assert res.check("calibration").witness["actual"] == pytest.approx(1.0)

    def peel(data, rng, eps=1.0):
        return peeling(np.array([data.mean(), 0.5, 0.1, 0.9]), 2, eps, 1e-5, 1.0 / data.size, rng=rng)

    b = 2.0 / D.size * math.sqrt(3 * 2 * math.log(1e5)) / 1.0
    round_eps = 2.0 * (1.0 / D.size) / b
    proof = lambda call: ProofStep(1.0 / D.size, "linf", round_eps)  # noqa: E731
    res = gray_box_audit(peel, D, D_PRIME, epsilon=1.0, delta=1e-5, paths=3, proof_step=proof, checks=("calibration",))
    assert res.check("calibration").verdict == "no violation found"
    twice = lambda data, rng: peel(data, rng, eps=2.0)  # noqa: E731
    res = gray_box_audit(twice, D, D_PRIME, epsilon=1.0, delta=1e-5, paths=3, proof_step=proof, checks=("calibration",))
    assert res.check("calibration").verdict == "refuted"
    assert res.check("calibration").witness["ratio"] == pytest.approx(2.0)


def test_norm_mismatch_is_an_error_of_the_check():
    step = ProofStep(0.2, "l2", 1.0)
    res = gray_box_audit(
        _laplace_mean(1.0), D, D_PRIME, epsilon=EPS, paths=2, proof_step=lambda c: step, checks=("calibration",)
    )
    assert res.check("calibration").verdict == "error"


def test_proof_step_validation():
    with pytest.raises(ValueError, match="sensitivity"):
        ProofStep(0.0, "l1", 1.0)
    with pytest.raises(ValueError, match="norm"):
        ProofStep(1.0, "l3", 1.0)
    with pytest.raises(ValueError, match="delta_step"):
        ProofStep(1.0, "l1", 1.0, 1.0)
    with pytest.raises(TypeError, match="epsilon_step"):
        ProofStep(1.0, "l1", "1")
    with pytest.raises(TypeError, match="one_sided"):
        ProofStep(1.0, "l1", 1.0, one_sided=1)


def test_every_calibrated_primitive_is_registered_and_the_tolerance_is_stated():
    # completeness: a rule for a name the recorder does not know would never run
    assert set(CALIBRATED_PRIMITIVES) <= set(registered_primitives())
    assert TOLERANCE == 1e-9
