"""Whole-algorithm conformance of 004's Boosting [004 App. E], the noisy-GD and output-perturbation base learners
of [004 Alg. 1] ([004 Lemma D.4]) and [004 Alg. 1] with noisy GD as its base learner: the reference passes, each
slipped port fails naming the algorithm and the check, and the stated power holds."""

from __future__ import annotations

import types

import numpy as np
import pytest
from scipy import optimize

from proofs_checks.conform import algorithms_sparse as S
from proofs_checks.conform import reference_port
from proofs_checks.conform.kit import exit_status, run_kit
from proofs_checks.conform.samplers import SIZES
from reference.arora.learners import NoisyGD, noisy_gd_rho
from reference.arora.model_selection import private_grid_search

_NAMES = ("boosting", "noisy_gd", "output_perturbation", "private_grid_search_noisy_gd")


def _port(**overrides):
    mod = types.ModuleType("arora_port")
    mod.__dict__.update({n: getattr(reference_port, n) for n in _NAMES})
    mod.UNSUPPORTED = [n for n in reference_port.__all__ if n not in _NAMES]
    mod.__dict__.update(overrides)
    return mod


def _run(port):
    return run_kit(port, only=set(_NAMES), size="small", seed=4, privacy=False, rng_contract=False)


def _boosting_standard_reading(*args, variant="printed", **kwargs):
    """Slip: the box's Lap(sigma_tilde) read as variance sigma_tilde^2 when the printed scale is asked for."""
    return reference_port.boosting(*args, variant="standard", **kwargs)


def _boosting_noise_2x(data, loss, x_bound, y_bound, B, m, epsilon, delta, sigma_tilde, size=None, rng=None, **kw):
    return reference_port.boosting(data, loss, x_bound, y_bound, B, m, epsilon, delta, 2 * sigma_tilde, size, rng, **kw)


def _noisy_gd_half_budget(data, loss, x_bound, y_bound, B, epsilon, delta, steps, size=None, rng=None):
    return reference_port.noisy_gd(data, loss, x_bound, y_bound, B, epsilon / 2, delta, steps, size, rng)


def _output_perturbation_noise_2x(data, loss, x_bound, y_bound, B, lam, epsilon, delta, size=None, rng=None):
    """Slip: half the budget, which is the noise 2x (sigma is proportional to 1/eps)."""
    return reference_port.output_perturbation(data, loss, x_bound, y_bound, B, lam, epsilon / 2, delta, size, rng)


def _output_perturbation_factor_2_dropped(data, loss, x_bound, y_bound, B, lam, epsilon, delta, size=None, rng=None):
    """Slip: the sensitivity G/(n lam) for 2G/(n lam) (replace-one's factor 2 dropped): the noise half."""
    return reference_port.output_perturbation(data, loss, x_bound, y_bound, B, lam, 2 * epsilon, delta, size, rng)


def _grid_search_noisy_gd_half_budget(
    data, loss, x_bound, y_bound, K, epsilon, delta, beta, steps, size=None, rng=None, **kw
):
    return reference_port.private_grid_search_noisy_gd(
        data, loss, x_bound, y_bound, K, epsilon / 2, delta, beta, steps, size, rng, **kw
    )


class _QuarterBudgetNoisyGD(NoisyGD):
    """Noisy GD at a quarter of its zCDP budget: the noise 2x."""

    def fit(self, data, B, epsilon, delta, size, rng=None):
        target = noisy_gd_rho(epsilon, delta) / 4.0
        quarter = optimize.brentq(lambda e: noisy_gd_rho(e, delta) - target, 1e-9, epsilon, xtol=1e-15)
        return super().fit(data, B, quarter, delta, size, rng)


def _grid_search_noisy_gd_noise_2x(
    data, loss, x_bound, y_bound, K, epsilon, delta, beta, steps, size=None, rng=None, variant="standard"
):
    """Slip: each candidate's noisy GD at a quarter of its zCDP budget (noise 2x), GEM unchanged."""
    learner = _QuarterBudgetNoisyGD(loss, x_bound, y_bound, steps=steps)
    return private_grid_search(data, learner, K, epsilon, delta, beta, variant=variant, size=size, rng=rng)


def test_reference_boosting_and_noisy_gd_conform():
    records = _run(_port())
    assert exit_status(records) == 0, [r.get("message") for r in records if r["status"] == "failed"]
    assert {r["function"] for r in records if r["status"] == "passed"} == set(_NAMES)


@pytest.mark.parametrize(
    "name, slipped",
    [
        ("boosting", _boosting_standard_reading),
        ("boosting", _boosting_noise_2x),
        ("noisy_gd", _noisy_gd_half_budget),
        ("output_perturbation", _output_perturbation_noise_2x),
        ("output_perturbation", _output_perturbation_factor_2_dropped),
        ("private_grid_search_noisy_gd", _grid_search_noisy_gd_half_budget),
        ("private_grid_search_noisy_gd", _grid_search_noisy_gd_noise_2x),
    ],
)
def test_slipped_arora_algorithm_fails_naming_it(name, slipped):
    records = _run(_port(**{name: slipped}))
    (rec,) = [r for r in records if r["kind"] == "sampler" and r["function"] == name]
    assert rec["status"] == "failed" and exit_status(records) == 1
    assert rec["message"].startswith(f"{name}: whole-algorithm law (two-sample against the reference), ")
    assert "p =" in rec["message"]


#: Cases over 2 s at -n 0 (grid search with noisy GD: 10 noisy steps per guess per run): behind the slow marker.
_HEAVY = ("private_grid_search_noisy_gd",)


def _marked(name, *values):
    return pytest.param(name, *values, marks=pytest.mark.slow) if name in _HEAVY else pytest.param(name, *values)


@pytest.mark.parametrize("name, slip", [_marked(n, s) for n in _NAMES for s in sorted(S.SLIPS[n])])
def test_arora_instances_catch_their_slips_at_the_ci_size(name, slip):
    """Measured power at --size small (5,000 runs against 5,000 of the reference's), 5 seeded slipped ports."""
    assert S.slip_power(name, slip, SIZES["small"]["continuous"], runs=5, seed=3)["power"] == 1.0


@pytest.mark.parametrize("name", [_marked(n) for n in _NAMES])
def test_correct_arora_laws_are_rarely_rejected(name):
    """False alarms: 20 pairs of independent reference samples at the CI size, at most 1 rejected (level 1e-3)."""
    n = SIZES["small"]["continuous"]
    seeds = np.random.SeedSequence([5, 21]).spawn(40)
    alarms = sum(
        not S.two_sample_test(
            S.reference_draws(name, n, np.random.default_rng(seeds[2 * r])),
            S.reference_draws(name, n, np.random.default_rng(seeds[2 * r + 1])),
        )[0]
        for r in range(20)
    )
    assert alarms <= 1


def test_numpy_port_output_perturbation_conforms():
    """The independent numpy port's output perturbation (written from the calibration, no reference import)."""
    from examples import numpy_port

    records = run_kit(numpy_port, only={"output_perturbation"}, size="small", seed=4, privacy=False, rng_contract=False)
    (rec,) = [r for r in records if r["function"] == "output_perturbation"]
    assert rec["status"] == "passed", rec.get("message")
