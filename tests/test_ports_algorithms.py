"""Whole-algorithm conformance: the reference passes, each slipped algorithm fails naming itself and the check."""

from __future__ import annotations

import types

import numpy as np
import pytest

from proofs_checks.conform import algorithms as A
from proofs_checks.conform import algorithms_sparse as S
from proofs_checks.conform import reference_port
from proofs_checks.conform.kit import exit_status, run_kit
from proofs_checks.conform.samplers import SIZES
from reference.hu import frank_wolfe as FW
from reference.hu import sparse as SP
from reference.wang_xu import l1_regression as WX

_NAMES = sorted(A.ALGORITHM_INSTANCES)


def _port(**overrides):
    mod = types.ModuleType("slipped_algorithms")
    mod.__dict__.update({n: getattr(reference_port, n) for n in _NAMES})
    mod.UNSUPPORTED = [n for n in reference_port.__all__ if n not in _NAMES]
    mod.__dict__.update(overrides)
    return mod


def _dp_fw_double_sensitivity(data, loss, w0, s, T, beta, epsilon, size=None, rng=None, *, variant="standard"):
    m = len(FW.data_split(np.asarray(data).shape[0], T)[0])
    sens = 2.0 * FW.dp_fw_sensitivity(FW.l1_ball_vertices(len(w0)), s, m)
    return FW.heavy_tailed_dp_fw(
        data, loss, w0, s, T, beta, epsilon, rng=rng, variant=variant, size=size, sensitivity=sens
    )


def _dp_fw_beta_squared(data, loss, w0, s, T, beta, epsilon, size=None, rng=None, *, variant="standard"):
    return FW.heavy_tailed_dp_fw(data, loss, w0, s, T, beta * beta, epsilon, rng=rng, variant=variant, size=size)


def _lasso_standard_budget(data, w0, K, T, epsilon, delta, size=None, rng=None, *, variant="printed"):
    return FW.heavy_tailed_private_lasso(data, w0, K, T, epsilon, delta, rng=rng, variant="standard", size=size)


def _wx1_half_epsilon(X, y, net, epsilon, iota, size=None, rng=None, *, variant="printed"):
    return WX.algorithm1(X, y, np.asarray(net), epsilon / 2.0, iota, variant, size, rng)


def _wx2_theta_two(X, y, net, epsilon, iota, theta, size=None, rng=None, *, variant="printed"):
    return WX.algorithm1(X, y, np.asarray(net), epsilon, iota, variant, size, rng)


def _run(port, only):
    return run_kit(port, only=only, size="small", seed=4, privacy=False, rng_contract=False)


def test_reference_algorithms_conform():
    records = _run(_port(), set(_NAMES))
    assert exit_status(records) == 0, [r.get("message") for r in records if r["status"] == "failed"]
    assert {r["function"] for r in records if r["status"] == "passed"} == set(_NAMES)


@pytest.mark.parametrize(
    "name, slipped",
    [
        ("dp_fw", _dp_fw_double_sensitivity),
        ("dp_fw", _dp_fw_beta_squared),
        ("private_lasso", _lasso_standard_budget),
        ("wang_xu_algorithm1", _wx1_half_epsilon),
        ("wang_xu_algorithm2", _wx2_theta_two),
    ],
)
def test_slipped_algorithm_fails_naming_it(name, slipped):
    records = _run(_port(**{name: slipped}), {name})
    (rec,) = [r for r in records if r["kind"] == "sampler"]
    assert rec["status"] == "failed" and exit_status(records) == 1
    assert rec["message"].startswith(f"{name}: whole-algorithm law, ") and "p =" in rec["message"]


def test_impossible_output_is_named():
    def off_the_path(data, w0, K, T, epsilon, delta, size=None, rng=None, *, variant="printed"):
        return np.full((size, 2), 0.123)

    (rec,) = [r for r in _run(_port(private_lasso=off_the_path), {"private_lasso"}) if r["kind"] == "sampler"]
    assert rec["status"] == "failed" and "[0.123, 0.123] is not one the algorithm can release" in rec["message"]


@pytest.mark.parametrize("name, slip", [(n, s) for n in sorted(A.SLIPS) for s in A.SLIPS[n]])
def test_each_instance_catches_its_slips_at_the_ci_size(name, slip):
    """Measured power at --size small (20,000 runs), 100 simulated slipped ports each: every one rejected."""
    power = A.slip_power(name, slip, SIZES["small"]["algorithm"], runs=100, seed=9)
    assert power["power"] >= 0.99 and power["total_variation"] >= 0.05


def test_correct_law_is_rarely_rejected():
    """False alarms: 200 simulated correct ports per algorithm at the CI size, at most 2 rejected (alpha 1e-3)."""
    rng = np.random.default_rng(11)
    n = SIZES["small"]["algorithm"]
    for name in _NAMES:
        probs = np.exp(A.exact_law(name)[1])
        alarms = sum(not A.counts_test(rng.multinomial(n, probs / probs.sum()), probs)[0] for _ in range(200))
        assert alarms <= 2, name


# [002 Alg. 3] and [002 Alg. 5]: continuous outputs, two-sample tests against the reference's own draws

_SPARSE = sorted(S.SPARSE_INSTANCES)


def _sparse_port(**overrides):
    mod = _port()
    mod.__dict__.update({n: getattr(reference_port, n) for n in _SPARSE})
    mod.UNSUPPORTED = [n for n in mod.UNSUPPORTED if n not in _SPARSE]
    mod.__dict__.update(overrides)
    return mod


def _alg3_lam_2x(data, w1, K, T, eta0, s, epsilon, delta, size=None, rng=None):
    m = len(FW.data_split(np.asarray(data).shape[0], T)[0])
    lam = 2.0 * SP.iht_lambda(K, eta0, s, m)
    return SP.heavy_tailed_sparse_linear_regression(
        data, w1, K, T, eta0, s, epsilon, delta, rng=rng, size=size, lam=lam
    )


def _alg5_eps_in_sqrt(
    data,
    loss,
    w1,
    s,
    beta,
    k,
    T,
    eta,
    epsilon,
    delta,
    size=None,
    rng=None,
    *,
    variant="standard",
    gradient_at="current",
):
    """Slip: Peeling's scale with eps inside the square root, i.e. lambda times sqrt(eps)."""
    m = len(FW.data_split(np.asarray(data).shape[0], T)[0])
    lam = np.sqrt(epsilon) * SP.sparse_opt_lambda(k, eta, m)
    return SP.heavy_tailed_sparse_optimization(
        data,
        loss,
        w1,
        s,
        beta,
        k,
        T,
        eta,
        epsilon,
        delta,
        rng=rng,
        size=size,
        lam=lam,
        variant=variant,
        gradient_at=gradient_at,
    )


def test_reference_sparse_algorithms_conform():
    records = _run(_sparse_port(), set(_SPARSE))
    assert exit_status(records) == 0, [r.get("message") for r in records if r["status"] == "failed"]


def _grid_search_half_budget(
    data, loss, x_bound, y_bound, K, epsilon, delta, beta, size=None, rng=None, *, variant="standard"
):
    return reference_port.private_grid_search(
        data, loss, x_bound, y_bound, K, epsilon / 2.0, delta, beta, size, rng, variant=variant
    )


@pytest.mark.parametrize(
    "name, slipped",
    [
        ("sparse_linear_regression", _alg3_lam_2x),
        ("sparse_optimization", _alg5_eps_in_sqrt),
        ("private_grid_search", _grid_search_half_budget),
    ],
)
def test_slipped_sparse_algorithm_fails_naming_it(name, slipped):
    records = _run(_sparse_port(**{name: slipped}), {name})
    (rec,) = [r for r in records if r["kind"] == "sampler"]
    assert rec["status"] == "failed" and exit_status(records) == 1
    assert rec["message"].startswith(f"{name}: whole-algorithm law (two-sample against the reference), ")


@pytest.mark.parametrize(
    "name, slip",
    [(n, s) for n in ("sparse_linear_regression", "private_grid_search") for s in sorted(S.SLIPS[n])],
)
def test_continuous_instances_catch_their_slips_at_the_ci_size(name, slip):
    """Measured power at --size small (5,000 runs against 5,000 of the reference's), 3 seeded slipped ports."""
    assert S.slip_power(name, slip, SIZES["small"]["continuous"], runs=3, seed=3)["power"] == 1.0
