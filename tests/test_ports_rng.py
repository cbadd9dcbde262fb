"""The rng contract: each mutant of a correct sampler fails the check it breaks, naming the sampler and the check."""

from __future__ import annotations

import random
import types

import numpy as np
import pytest

import examples.numpy_port as good
from proofs_checks.conform.kit import exit_status, run_kit
from proofs_checks.conform.rng_contract import run_rng_contract


def _port(**overrides):
    mod = types.ModuleType("mutant_port")
    mod.__dict__.update({k: v for k, v in vars(good).items() if not k.startswith("__")})
    mod.__dict__.update(overrides)
    return mod


def _global_stream(scores, epsilon, sensitivity, size=None, rng=None, *, weight_factor=0.5):
    """Mutant: ignores rng and draws from numpy's legacy global stream."""
    logp = good.exponential_log_prob(scores, epsilon, sensitivity, weight_factor=weight_factor)
    shape = logp.shape if size is None else (size,) + logp.shape
    return np.argmax(logp + np.random.gumbel(size=shape), axis=-1)


def _fixed_seed(scores, epsilon, sensitivity, size=None, rng=None, *, weight_factor=0.5):
    """Mutant: ignores rng and seeds a constant of its own on every call."""
    return good.exponential_sample(scores, epsilon, sensitivity, size, 1234, weight_factor=weight_factor)


def _reseeded(scores, epsilon, sensitivity, size=None, rng=None, *, weight_factor=0.5):
    """Mutant: re-seeds from the generator's own seed on every call (same noise on every call)."""
    fresh = np.random.default_rng(rng.bit_generator.seed_seq)
    return good.exponential_sample(scores, epsilon, sensitivity, size, fresh, weight_factor=weight_factor)


def _touches_random(value, sensitivity, epsilon, size=None, rng=None):
    """Mutant: correct draws from rng, but advances the random module's state."""
    random.random()
    return good.laplace_mechanism(value, sensitivity, epsilon, size, rng)


def _record(port, name):
    (rec,) = run_rng_contract(port, seed=5, only={name})
    return rec


def test_example_port_keeps_the_contract():
    records = run_rng_contract(good, seed=5)
    provided = [r for r in records if r["function"] not in good.UNSUPPORTED]
    assert [r["status"] for r in provided] == ["passed"] * 6, [r.get("message") for r in records]


def test_reference_algorithms_keep_the_contract():
    from proofs_checks.conform import reference_port

    names = {"dp_fw", "private_lasso", "wang_xu_algorithm1", "wang_xu_algorithm2"}
    records = run_rng_contract(reference_port, seed=5, only=names)
    assert [r["status"] for r in records] == ["passed"] * 4, [r.get("message") for r in records]


@pytest.mark.parametrize(
    "name, mutant, check",
    [
        ("exponential_sample", _global_stream, "same seed, same outputs"),
        ("exponential_sample", _fixed_seed, "different seeds, different outputs"),
        ("exponential_sample", _reseeded, "fresh noise per call"),
        ("laplace_mechanism", _touches_random, "no global state: the calls changed the random module's state"),
    ],
)
def test_each_mutant_fails_its_check(name, mutant, check):
    rec = _record(_port(**{name: mutant}), name)
    assert rec["status"] == "failed"
    assert rec["message"].startswith(f"{name}: rng contract, {check}"), rec["message"]


def test_global_stream_also_moves_numpy_legacy_state():
    rec = _record(_port(exponential_sample=_global_stream), "exponential_sample")
    assert rec["detail"]["global_state"] is False and rec["detail"]["same_seed"] is False


def test_reseeding_port_fails_the_kit_at_the_ci_size():
    """A per-call re-seed passes the distributional test (one call at --size small) but not the contract."""
    records = run_kit(_port(exponential_sample=_reseeded), only={"exponential_sample"}, size="small", privacy=False)
    by_kind = {r["kind"]: r["status"] for r in records}
    assert by_kind == {"sampler": "passed", "rng": "failed"}
    assert exit_status(records) == 1
