"""The JAX example port: the adapter's logic without JAX (the rng contract through it), the port with JAX."""

from __future__ import annotations

import types

import numpy as np
import pytest

from examples.jax_adapter import key_words, sampler
from proofs_checks.conform.rng_contract import run_rng_contract


def _numpy_backend_port(draw_seed=None):
    """A port built like the JAX one, with numpy standing in for the keyed backend."""

    def draw(words, n, scores, epsilon, sensitivity, *, weight_factor=0.5):
        gen = np.random.default_rng(words.tolist() if draw_seed is None else draw_seed)
        logits = weight_factor * epsilon * np.asarray(scores) / sensitivity
        return np.argmax(logits + gen.gumbel(size=(n,) + logits.shape), axis=-1)

    port = types.ModuleType("numpy_backend_port")
    port.exponential_sample = sampler(draw)
    return port


def test_key_words_are_fresh_seeded_and_refuse_a_seed():
    gen = np.random.default_rng(1)
    first, second = key_words(gen), key_words(gen)
    assert not np.array_equal(first, second)
    assert np.array_equal(key_words(np.random.default_rng(1)), first)
    with pytest.raises(TypeError, match="numpy.random.Generator"):
        key_words(1)


def test_the_adapter_keeps_the_rng_contract_and_a_fixed_key_does_not():
    (ok,) = run_rng_contract(_numpy_backend_port(), seed=2, only={"exponential_sample"})
    assert ok["status"] == "passed", ok
    (bad,) = run_rng_contract(_numpy_backend_port(draw_seed=7), seed=2, only={"exponential_sample"})
    assert bad["status"] == "failed" and "different seeds, different outputs" in bad["message"]


def test_the_adapter_passes_size_and_rng_positionally_and_drops_the_axis_for_one_draw():
    port = _numpy_backend_port()
    scores = np.array([0.0, 1.0, 5.0])
    assert port.exponential_sample(scores, 1.0, 1.0, 4, np.random.default_rng(0)).shape == (4,)
    assert np.ndim(port.exponential_sample(scores, 1.0, 1.0, rng=np.random.default_rng(0))) == 0


def test_jax_port_conforms_and_is_timed_against_the_reference():
    pytest.importorskip("jax", reason="the JAX example needs the jax extra: pip install -e '.[jax]'")
    import examples.jax_port as port
    from proofs_checks.conform.kit import exit_status, run_kit

    records = run_kit(port, size="small", seed=6)
    assert exit_status(records) == 0, [r.get("message") for r in records if r["status"] == "failed"]
    timings = port.benchmark(draws=20_000, repeats=1)
    assert set(timings) == {"laplace_mechanism", "report_noisy_max", "exponential_sample", "gem_sample", "peeling"}
    assert all(t["jax"] > 0 and t["reference"] > 0 for t in timings.values())
