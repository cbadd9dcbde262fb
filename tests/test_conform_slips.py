"""The kit passes the independent example port and fails each slipped port for the right reason."""

from __future__ import annotations

import math
import types

import numpy as np
import pytest
from scipy import special

import examples.numpy_port as good
from proofs_checks.conform.kit import exit_status, run_kit, summarise


def _port(**overrides):
    mod = types.ModuleType("slipped_port")
    mod.__dict__.update({k: v for k, v in vars(good).items() if not k.startswith("__")})
    mod.__dict__.update(overrides)
    return mod


def _failed(records, function):
    return [r for r in records if r["function"] == function and r["status"] == "failed"]


def _c_hat_difference_in_t2(a, b):
    """Slip: T2 = -(a - a^3/6)(F- - F+) (a difference) where [002 App. A] has the sum F- + F+."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    with np.errstate(all="ignore"):
        fm, fp = special.ndtr(-(good.R - a) / b), special.ndtr(-(good.R + a) / b)
        return good.c_hat(a, b) + (a - a**3 / 6.0) * (fm + fp) - (a - a**3 / 6.0) * (fm - fp)


def _robust_gradient_double_scaling(per_example_grads, s, beta, *, variant="standard"):
    """Slip: b = |g| / (s beta), i.e. a second 1/sqrt(beta) on top of [002 Alg. 1 step 4]'s |g|/(s sqrt beta)."""
    return (
        good.robust_mean(per_example_grads, s, beta * beta, variant=variant, axis=0)
        if variant == "printed"
        else good.robust_mean(per_example_grads, s, beta, variant=variant, axis=0)
    )


def _peeling_scale_eps_inside(s, epsilon, delta, lam):
    """Slip: 2 lam sqrt(3 s log(1/delta) / eps) (eps inside the square root)."""
    return 2.0 * lam * math.sqrt(3.0 * s * math.log(1.0 / delta) / epsilon)


def _peeling_eps_inside(v, s, epsilon, delta, lam, size=None, rng=None):
    # the sampler calls the module's scale: rebuild with the slipped scale
    factor = _peeling_scale_eps_inside(s, epsilon, delta, lam) / good.peeling_scale(s, epsilon, delta, lam)
    return good.peeling(v, s, epsilon, delta, lam * factor, size, rng)


def _laplace_scale_small(sensitivity, epsilon):
    return 0.9 * sensitivity / epsilon


def _laplace_mechanism_small(value, sensitivity, epsilon, size=None, rng=None):
    return good.laplace_mechanism(value, 0.9 * sensitivity, epsilon, size, rng)


def _gem_wrong_normalisation(sensitivities, scores, epsilon, beta):
    """Slip: divide by max(g_i, g_j) instead of g_i + g_j ([004 App. D.1])."""
    g = np.asarray(sensitivities, dtype=np.float64)
    q = np.asarray(scores, dtype=np.float64)
    t = good.gem_threshold(epsilon, beta, q.shape[-1])
    pen = q + t * g
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = (pen[..., :, None] - pen[..., None, :]) / np.maximum(g[..., :, None], g[..., None, :])
    return np.max(np.where(np.isnan(ratio), 0.0, ratio), axis=-1)


def _gem_log_prob_wrong(sensitivities, scores, epsilon, beta):
    return good.exponential_log_prob(-_gem_wrong_normalisation(sensitivities, scores, epsilon, beta), epsilon, 1.0)


def _gem_sample_wrong(sensitivities, scores, epsilon, beta, size=None, rng=None):
    logp = _gem_log_prob_wrong(sensitivities, scores, epsilon, beta)
    shape = logp.shape if size is None else (size,) + logp.shape
    return np.argmax(logp + np.random.default_rng(rng).gumbel(size=shape), axis=-1)


def _exp_log_prob_half_sensitivity(scores, epsilon, sensitivity, *, weight_factor=0.5):
    return good.exponential_log_prob(scores, epsilon, sensitivity / 2.0, weight_factor=weight_factor)


def _exp_sample_half_sensitivity(scores, epsilon, sensitivity, size=None, rng=None, *, weight_factor=0.5):
    return good.exponential_sample(scores, epsilon, sensitivity / 2.0, size, rng, weight_factor=weight_factor)


def _run(port, only, privacy=False):
    return run_kit(port, only=only, size="small", seed=1, privacy=privacy)


def test_example_port_conforms_deterministic_and_samplers():
    records = _run(good, None)
    assert exit_status(records) == 0, [r["message"] for r in records if r["status"] == "failed"]
    summary = summarise(records)
    assert summary["expected_phi"]["status"] == "passed"
    assert summary["dp_fw_output_log_prob"]["status"] == "skipped"  # not provided: skipped, never failed


def test_c_hat_difference_in_t2_fails_on_c_hat():
    recs = _run(_port(c_hat=_c_hat_difference_in_t2), {"c_hat"})
    fails = _failed(recs, "c_hat")
    assert exit_status(recs) == 1 and fails
    assert "ulps" in fails[0]["message"] and "at input" in fails[0]["message"]


def test_double_scaling_fails_on_printed_robust_gradient():
    recs = _run(_port(robust_gradient=_robust_gradient_double_scaling), {"robust_gradient"})
    fails = _failed(recs, "robust_gradient")
    assert fails and all("printed" in f["case"] for f in fails)
    assert "ulps" in fails[0]["message"]


def test_peeling_eps_inside_sqrt_fails_scale_and_sampler():
    recs = _run(
        _port(peeling_scale=_peeling_scale_eps_inside, peeling=_peeling_eps_inside), {"peeling_scale", "peeling"}
    )
    assert _failed(recs, "peeling_scale"), "the golden scale must catch eps inside the sqrt"
    msg = _failed(recs, "peeling")[0]["message"]
    assert "peeling" in msg and "p =" in msg


def test_laplace_scale_ten_percent_small_fails():
    recs = _run(
        _port(laplace_scale=_laplace_scale_small, laplace_mechanism=_laplace_mechanism_small),
        {"laplace_scale", "laplace_mechanism"},
    )
    assert _failed(recs, "laplace_scale")
    msg = _failed(recs, "laplace_mechanism")[0]["message"]
    assert "noise scale" in msg
    ratio = [r for r in recs if r["function"] == "laplace_mechanism" and r["kind"] == "sampler"][0]["detail"]
    assert 0.85 < ratio["scale_ratio"] < 0.95


def test_halved_sensitivity_fails_law_sampler_and_privacy():
    recs = _run(
        _port(exponential_log_prob=_exp_log_prob_half_sensitivity, exponential_sample=_exp_sample_half_sensitivity),
        {"exponential_log_prob", "exponential_sample"},
        privacy=True,
    )
    assert _failed(recs, "exponential_log_prob")
    assert _failed(recs, "exponential_sample")
    priv = [r for r in recs if r["kind"] == "privacy"]
    assert priv and priv[0]["status"] == "failed" and "refuted" in priv[0]["message"]
    assert priv[0]["epsilon_lower"] > 0.5 * 1.5


def test_gem_wrong_normalisation_fails():
    recs = _run(
        _port(
            gem_normalized_scores=_gem_wrong_normalisation,
            gem_log_prob=_gem_log_prob_wrong,
            gem_sample=_gem_sample_wrong,
        ),
        {"gem_normalized_scores", "gem_log_prob", "gem_sample"},
    )
    for name in ("gem_normalized_scores", "gem_log_prob", "gem_sample"):
        assert _failed(recs, name), name


@pytest.mark.slow
def test_example_port_conforms_at_default_size():
    records = run_kit(good, size="default", seed=2)
    assert exit_status(records) == 0, [r["message"] for r in records if r["status"] == "failed"]
