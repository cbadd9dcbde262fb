"""Claims of 002 about Algorithms 1-5 (proofs_checks/claim_sets/hu/): each check confirms the
implementation and rejects a deliberately broken variant."""

import numpy as np
import pytest

from proofs_checks.claim_sets.hu import frank_wolfe, parameters, sensitivities, sparse
from proofs_checks.model import CheckContext
from proofs_checks.registry import default_registry
from reference.hu.frank_wolfe import dp_fw_sensitivity, lasso_sensitivity
from reference.hu.sparse import iht_lambda, sparse_opt_lambda

_CTX = CheckContext(profile="quick", seed=7)


def ctx(stream):
    """The quick context at seed 7 scoped to ``stream`` (a claim id: the check's own randomness)."""
    return _CTX.for_claim(stream)


def test_registered_and_listed():
    reg = default_registry()
    ids = {a.id for a in reg.algorithms}
    assert {"hu-1", "hu-2", "hu-3", "hu-4", "hu-5"} <= ids
    claims = {c.id for c in reg.claims}
    for cid in (
        "hu.thm1.privacy.standard",
        "hu.thm4.privacy.printed",
        "hu.thm6.privacy",
        "hu.thm8.privacy.standard",
        "hu.alg1.step6.sensitivity.standard",
        "hu.alg2.step4.sensitivity",
        "hu.alg3.step6.sensitivity",
        "hu.alg5.step7.sensitivity.standard",
    ):
        assert cid in claims
    assert not any(c.kind == "rate" for c in reg.claims if c.id.startswith("hu."))
    for c in reg.claims:
        if c.id.startswith(("hu.", "rates.hu.")):
            assert c.source.startswith("[002 ") and c.source.endswith("]"), c.source


def test_mechanism_factories_follow_protocol():
    reg = default_registry()
    data = np.random.default_rng(0).standard_t(3, size=(4, 3))
    m1 = reg.algorithm("hu-1").mechanism(variant="standard", epsilon=1.0)
    out, lp = m1.log_prob(data)
    assert out.shape[1] == 2 and abs(np.exp(lp).sum() - 1) < 1e-12
    assert m1.sample(data, 3, np.random.default_rng(1)).shape == (3, 2)
    m2 = reg.algorithm("hu-2").mechanism(variant="printed", epsilon=0.5, delta=0.1)
    out, lp = m2.log_prob(data)
    assert abs(np.exp(lp).sum() - 1) < 1e-12
    data4 = np.random.default_rng(0).standard_t(3, size=(4, 5))
    m4 = reg.algorithm("hu-4").mechanism(epsilon=1.0, delta=0.1, d=4, s=1)
    seqs, lp = m4.log_prob(data4)
    assert abs(np.exp(lp).sum() - 1) < 1e-9 and m4.sample(data4, 5, 0).shape == (5, 1)
    for aid in ("hu-3", "hu-5"):
        assert reg.algorithm(aid).mechanism(epsilon=1.0, delta=0.1).sample(data4, 2, 0).shape == (2, 4)


def test_results_carry_observed_bound_method_and_reading():
    r = frank_wolfe.dp_fw_privacy_check()(ctx("hu.thm1.privacy"))
    assert r.direction == "at_most" and r.bound == 1.0 and 0 < r.observed <= 1 and r.margin == 1 - r.observed
    assert "[002 Thm. 1]" in r.reading and "replace-one" in r.reading and "enumerated" in r.method


def test_thm1_privacy_confirmed_and_rejects_small_sensitivity():
    assert frank_wolfe.dp_fw_privacy_check()(ctx("hu.thm1.privacy")).verdict == "confirmed"
    assert frank_wolfe.dp_fw_privacy_check(sensitivity_factor=0.25)(ctx("hu.thm1.privacy")).verdict == "refuted"


def test_printed_robust_gradient_refuted_on_finite_inputs_only():
    # the refutation rests on neighbours where the printed form runs; those where it cannot are counted
    r = frank_wolfe.dp_fw_privacy_check("printed")(ctx("hu.thm1.privacy.printed"))
    assert r.verdict == "refuted" and r.observed > 1e3 and np.isfinite(r.observed)
    assert r.evidence["skipped_datasets_cannot_run"] > 0 and "[002 Thm. 1]" in r.reading


def test_one_moderate_record_breaks_the_printed_robust_gradient():
    # one replaced record (3000, 3000, -3000) in d = 2: exact privacy loss ~5e5 eps (standard: ~0.34 eps)
    from reference.hu.frank_wolfe import dp_fw_output_log_prob_batch, l1_ball_vertices

    data = np.random.default_rng(1).standard_t(1.5, size=(2, 3))
    nb = data.copy()
    nb[0] = [3000.0, 3000.0, -3000.0]
    loss = {}
    for v in ("printed", "standard"):
        _, lp = dp_fw_output_log_prob_batch(
            np.stack([data, nb]),
            "squared",
            np.array([0.3, -0.2]),
            1.0,
            1,
            1.0,
            1.0,
            vertices=l1_ball_vertices(2),
            variant=v,
        )
        loss[v] = float(np.max(np.abs(lp[0] - lp[1])))
    assert loss["printed"] > 1e5 and loss["standard"] < 1.0


def test_a_check_that_raises_is_not_a_verdict():
    def broken_stated(V, s, m):
        raise ValueError("validation bug")

    with pytest.raises(ValueError):
        sensitivities.dp_fw_sensitivity_check(stated=broken_stated)(ctx("hu.alg1.step6.sensitivity"))


def test_thm1_privacy_diameter_reading_half_of_epsilon():
    r = frank_wolfe.dp_fw_privacy_check(reading="diameter")(ctx("hu.thm1.privacy.standard.diameter"))
    assert r.verdict == "confirmed" and r.observed <= 0.5 + 1e-9 and "diameter" in r.reading
    assert (
        frank_wolfe.dp_fw_privacy_check(sensitivity_factor=0.125, reading="diameter")(
            ctx("hu.thm1.privacy.standard.diameter")
        ).verdict
        == "refuted"
    )


def test_thm8_proof_lambda_confirmed_and_smaller_refuted():
    assert sparse.sparse_opt_privacy_check(lam_factor=1 / 3)(ctx("hu.thm8.privacy.proof-lambda")).verdict == "confirmed"
    assert sparse.sparse_opt_privacy_check(lam_factor=0.01)(ctx("hu.thm8.privacy.proof-lambda")).verdict == "refuted"


@pytest.mark.parametrize("variant", ["printed", "lemma2", "standard"])
def test_thm4_privacy_confirmed(variant):
    assert frank_wolfe.lasso_privacy_check(variant)(ctx("hu.thm4.privacy")).verdict == "confirmed"


def test_thm4_rejects_small_sensitivity():
    assert frank_wolfe.lasso_privacy_check(sensitivity_factor=0.01)(ctx("hu.thm4.privacy")).verdict == "refuted"


def test_thm6_privacy_confirmed_and_rejects_small_lambda():
    assert sparse.iht_privacy_check()(ctx("hu.thm6.privacy")).verdict == "confirmed"
    assert sparse.iht_privacy_check(lam_factor=0.05)(ctx("hu.thm6.privacy")).verdict == "refuted"


def test_thm8_privacy_confirmed_and_rejects_small_lambda():
    assert sparse.sparse_opt_privacy_check()(ctx("hu.thm8.privacy")).verdict == "confirmed"
    assert sparse.sparse_opt_privacy_check(lam_factor=0.01)(ctx("hu.thm8.privacy")).verdict == "refuted"


def test_alg1_sensitivity_confirmed_and_rejects_halved_bound():
    c = ctx("hu.alg1.step6.sensitivity")
    r = sensitivities.dp_fw_sensitivity_check()(c)
    assert r.verdict == "confirmed" and 0.5 < r.observed <= 1 + 1e-9 and r.bound == 1.0
    broken = sensitivities.dp_fw_sensitivity_check(stated=lambda V, s, m: 0.5 * dp_fw_sensitivity(V, s, m))(c)
    assert broken.verdict == "refuted" and broken.evidence["worst_at"]["pair"]


@pytest.mark.parametrize("radius", [0.5, 1.0, 2.0, 3.0, 4.0])
@pytest.mark.parametrize("reading", ["radius", "diameter"])
def test_alg2_sensitivity_both_readings_match_analytic_ratio(radius, reading):
    # analytic worst case 4 r (r + 1) K^2 / n against 8 ||W||_1 K^2 / n: (r+1)/2 (radius), (r+1)/4 (diameter)
    r = sensitivities.lasso_sensitivity_check(radius, reading=reading)(ctx("hu.alg2.step4.sensitivity"))
    expected = (radius + 1) / (2.0 if reading == "radius" else 4.0)
    assert r.observed == pytest.approx(expected)
    assert r.verdict == ("confirmed" if expected <= 1 + 1e-9 else "refuted")


def test_alg2_sensitivity_rejects_halved_bound():
    c = ctx("hu.alg2.step4.sensitivity")
    broken = sensitivities.lasso_sensitivity_check(1.0, stated=lambda V, K, n: 0.5 * lasso_sensitivity(V, K, n))(c)
    assert broken.verdict == "refuted"


def test_alg3_sensitivity_tight_and_rejects_halved_bound():
    c = ctx("hu.alg3.step6.sensitivity")
    r = sensitivities.iht_sensitivity_check()(c)
    assert r.verdict == "confirmed" and r.observed == pytest.approx(1.0)
    broken = sensitivities.iht_sensitivity_check(stated=lambda K, e, s, m: 0.5 * iht_lambda(K, e, s, m))(c)
    assert broken.verdict == "refuted"


def test_alg5_sensitivity_loose_and_rejects_small_bound():
    c = ctx("hu.alg5.step7.sensitivity")
    r = sensitivities.sparse_opt_sensitivity_check()(c)
    assert r.verdict == "confirmed" and r.observed <= 1 / 3 + 1e-9
    broken = sensitivities.sparse_opt_sensitivity_check(stated=lambda k, e, m: sparse_opt_lambda(k, e, m) / 6)(c)
    assert broken.verdict == "refuted"


def test_formula_claims():
    c = ctx("hu.formulas")
    assert parameters.step_schedule_check()(c).verdict == "refuted"
    r = parameters.alg5_lambda_vs_proof_check()(c)
    assert r.verdict == "refuted" and r.observed / r.bound == pytest.approx(3.0)
    fixed = parameters.alg5_lambda_vs_proof_check(lam=lambda k, e, m: sparse_opt_lambda(k, e, m) / 3)(c)
    assert fixed.verdict == "confirmed"


def test_mechanism_factories_reject_a_mistyped_parameter():
    reg = default_registry()
    for alg_id in ("hu-1", "hu-2", "hu-3", "hu-4", "hu-5"):
        with pytest.raises(TypeError, match="unexpected keyword"):
            reg.algorithm(alg_id).mechanism(
                variant=reg.algorithm(alg_id).variants[0], epsilon=1.0, delta=1e-5, etaa0=0.3
            )
