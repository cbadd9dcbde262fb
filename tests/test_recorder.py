"""The recorder of privacy primitive calls (reference.mechanisms.recorder): events, replay, registry, users'
primitives.  The built-in laws' completeness and the algorithms' transcripts are in test_recorder_laws.py and
test_recorder_algorithms.py."""

from __future__ import annotations

import math
import types

import numpy as np
import pytest

from reference.mechanisms import (
    ControlFlowDivergence,
    PrimitiveLaw,
    exponential_sample,
    gaussian_mechanism,
    gaussian_release,
    gem_sample,
    gumbel_max_sample,
    laplace_mechanism,
    peeling,
    primitive,
    primitive_law,
    record_call,
    recorder_active,
    recording,
    register_primitive,
    registered_primitives,
    replaying,
    report_noisy_max,
    unregister_primitive,
    wrapped_primitive,
)

# each built-in primitive on a single input, with the name of the event it emits
SINGLE_CALLS = {
    "laplace": lambda rng: laplace_mechanism([1.0, 2.0], 1.0, 0.5, rng=rng),
    "gaussian": lambda rng: gaussian_mechanism([1.0, 2.0], 1.0, 0.5, 1e-5, rng=rng),
    "gaussian_release": lambda rng: gaussian_release([1.0, 2.0], 3.0, rng=rng),
    "categorical": lambda rng: exponential_sample([0.0, 1.0, 2.0], 1.0, 1.0, rng=rng),
    "gumbel_max": lambda rng: gumbel_max_sample([0.0, -1.0, -np.inf], rng=rng),
    "report_noisy_max": lambda rng: report_noisy_max([0.0, 1.0, 2.0], 2.0, rng=rng),
    "gem": lambda rng: gem_sample([0.0, 1.0, 1.0], [0.5, 0.0, 2.0], 1.0, 0.1, rng=rng),
    "peeling": lambda rng: peeling([0.0, 3.0, -2.0, 1.0], 2, 1.0, 1e-5, 0.1, rng=rng),
}
EMITS = {
    "laplace": "laplace",
    "gaussian": "gaussian",
    "gaussian_release": "gaussian",
    "categorical": "categorical",
    "gumbel_max": "categorical",
    "report_noisy_max": "report_noisy_max",
    "gem": "gem",
    "peeling": "peeling",
}


def _same_output(a, b):
    if isinstance(a, tuple):
        return all(_same_output(x, y) for x, y in zip(a, b, strict=True))
    return np.array_equal(np.asarray(a), np.asarray(b)) and np.asarray(a).dtype == np.asarray(b).dtype


@pytest.mark.parametrize("name", sorted(SINGLE_CALLS))
def test_recording_changes_neither_outputs_nor_the_random_stream(name):
    call = SINGLE_CALLS[name]
    plain_rng = np.random.default_rng(7)
    plain = call(plain_rng)
    recorded_rng = np.random.default_rng(7)
    with recording() as transcript:
        recorded = call(recorded_rng)
    assert _same_output(plain, recorded)
    assert plain_rng.bit_generator.state == recorded_rng.bit_generator.state
    # one event per call, even where a primitive is built from another (exponential_sample -> gumbel_max_sample)
    assert [c.primitive for c in transcript.calls] == [EMITS[name]]
    event = transcript.calls[0]
    assert _same_output(event.output, plain)
    assert event.norm == primitive_law(event.primitive).norm
    assert event.data.dtype == np.float64 and not event.data.flags.writeable


@pytest.mark.parametrize("name", sorted(SINGLE_CALLS))
def test_replay_forces_the_recorded_output_and_keeps_the_stream_aligned(name):
    call = SINGLE_CALLS[name]
    with recording() as first:
        out = call(np.random.default_rng(1))
    rng_plain = np.random.default_rng(2)
    call(rng_plain)
    rng_replay = np.random.default_rng(2)
    with replaying(first) as second:
        forced = call(rng_replay)
    assert _same_output(forced, out)
    assert rng_plain.bit_generator.state == rng_replay.bit_generator.state  # the draw was still made
    assert second.complete and len(second.calls) == 1
    assert _same_output(second.calls[0].output, out)


def test_declared_fields_of_the_primitives():
    with recording() as t:
        laplace_mechanism(np.array([1.0, 2.0]), 2.0, 0.5, rng=0)
        exponential_sample([0.0, 1.0], 2.0, 4.0, rng=0, weight_factor=0.25)
        gem_sample([0.0, 1.0, 3.0], [[0.5, 0.0, 2.0], [0.0, 0.0, 0.0]], 1.0, 0.1, rng=0)
        laplace_mechanism(1.0, 1.0, 1.0, size=3, rng=0)
    lap, expo, gem, batched = t.calls
    assert (lap.sensitivity, lap.norm, dict(lap.privacy), lap.law["scale"]) == (2.0, "l1", {"epsilon": 0.5}, 4.0)
    assert lap.public == {"shape": (2,)} and lap.site == "[002 Def. 2]"
    assert expo.public["weight"] == 0.25 * 2.0 / 4.0 and expo.privacy == {"epsilon": 1.0}
    assert primitive_law("categorical").accounting(expo) == ("pure", 1.0)
    assert gem.sensitivity == 3.0 and gem.public["batch"] == (2,) and gem.public["epsilon"] == 1.0
    assert batched.public["batch"] == (3,)


def test_recorded_arrays_are_copies():
    value = np.array([1.0, 2.0])
    with recording() as t:
        out = laplace_mechanism(value, 1.0, 1.0, rng=0)
    value[:] = 99.0
    out[:] = 99.0
    call = t.calls[0]
    assert call.data.tolist() == [1.0, 2.0] and call.law["center"].tolist() == [1.0, 2.0]
    assert (call.output != 99.0).all()
    with pytest.raises(ValueError):
        call.law["center"][0] = 0.0


def test_no_recorder_is_exactly_sample():
    sentinel = object()
    assert not recorder_active()
    # nothing is checked without a recorder: not even the primitive's name
    assert (
        record_call(
            "not registered",
            data=None,
            sensitivity=-1,
            norm="?",
            privacy=None,
            law=None,
            public=None,
            sample=lambda: sentinel,
        )
        is sentinel
    )


def _emit(value=0.0, name="laplace", public=None, output=0.5, site="s"):
    return record_call(
        name,
        data=value,
        sensitivity=1.0,
        norm="l1",
        privacy={},
        law={},
        public=public or {},
        sample=lambda: output,
        site=site,
    )


def test_divergences_name_index_field_and_values():
    with recording() as first:
        _emit(public={"k": 2})
        _emit(public={"k": np.arange(3)})
    with pytest.raises(ControlFlowDivergence) as info, replaying(first):
        _emit(public={"k": 2})
        _emit(public={"k": np.arange(4)}, site="[002 Alg. 2 step 4]")
    err = info.value
    assert (err.index, err.field, err.site) == (1, "public[k]", "[002 Alg. 2 step 4]")
    assert err.recorded.tolist() == [0, 1, 2] and err.replayed.tolist() == [0, 1, 2, 3]
    with pytest.raises(ControlFlowDivergence, match="primitive") as info, replaying(first):
        _emit(name="gaussian", public={"k": 2})
    assert (info.value.recorded, info.value.replayed) == ("laplace", "gaussian")
    with pytest.raises(ControlFlowDivergence) as info, replaying(first):
        _emit(public={"k": 2, "extra": 1})
    assert info.value.field == "public"
    with pytest.raises(ControlFlowDivergence) as info, replaying(first):
        _emit(public={"k": 2})
        _emit(public={"k": np.arange(3)})
        _emit()
    assert (info.value.index, info.value.field, info.value.recorded) == (2, "length", None)
    with replaying(first) as short:
        _emit(public={"k": 2})
    assert not short.complete


def test_public_values_compare_exactly():
    with recording() as first:
        _emit(public={"x": 1.0, "n": np.nan, "t": (1, 2)})
    with replaying(first):
        _emit(public={"x": 1.0, "n": np.nan, "t": (1, 2)})
    for changed in ({"x": 1.0 + 2**-52}, {"t": (1, 3)}, {"t": [1, 2]}):
        with pytest.raises(ControlFlowDivergence), replaying(first):
            _emit(public={"x": 1.0, "n": np.nan, "t": (1, 2), **changed})


def test_privacy_differences_are_not_raised_and_the_replay_keeps_its_own_fields():
    with recording() as first:
        record_call(
            "laplace",
            data=1.0,
            sensitivity=1.0,
            norm="l1",
            privacy={"epsilon": 1.0},
            law={"scale": 1.0},
            public={},
            sample=lambda: 3.0,
        )
    with replaying(first) as second:
        out = record_call(
            "laplace",
            data=2.0,
            sensitivity=2.0,
            norm="l1",
            privacy={"epsilon": 2.0},
            law={"scale": 2.0},
            public={},
            sample=lambda: 4.0,
        )
    assert out == 3.0
    call = second.calls[0]
    assert (float(call.data), call.sensitivity, call.privacy["epsilon"], call.law["scale"], call.output) == (
        2.0,
        2.0,
        2.0,
        2.0,
        3.0,
    )


def test_recorders_do_not_nest_and_are_suspended_inside_a_draw():
    with recording() as outer:
        with pytest.raises(RuntimeError, match="already active"), recording():
            pass
        _emit(output=_emit.__name__ if recorder_active() else None)
        inner_seen = []
        record_call(
            "laplace",
            data=0.0,
            sensitivity=1.0,
            norm="l1",
            privacy={},
            law={},
            public={},
            sample=lambda: inner_seen.append(recorder_active()),
        )
    assert inner_seen == [False] and len(outer) == 2
    assert not recorder_active()


def test_malformed_events_are_rejected_while_recording():
    bad = [
        (dict(primitive="nope"), ValueError, "unknown primitive 'nope'"),
        (dict(norm="l3"), ValueError, "norm must be one of"),
        (dict(sensitivity=-1.0), ValueError, "sensitivity must be >= 0"),
        (dict(sensitivity=math.nan), ValueError, "sensitivity must be >= 0"),
        (dict(sensitivity="1"), TypeError, "sensitivity must be a real number"),
        (dict(data="abc"), TypeError, "data must be an array of real numbers"),
        (dict(privacy=[("epsilon", 1.0)]), TypeError, "privacy must be a mapping"),
        (dict(public={1: 2}), TypeError, "public keys must be strings"),
        (dict(site=3), TypeError, "site must be a string"),
    ]
    for change, error, message in bad:
        args = dict(primitive="laplace", data=0.0, sensitivity=1.0, norm="l1", privacy={}, law={}, public={}, site="")
        args.update(change)
        with recording(), pytest.raises(error, match=message):
            record_call(args.pop("primitive"), sample=lambda: 0.0, **args)
    with pytest.raises(TypeError, match="transcript must be a Transcript"), replaying([]):
        pass


def test_registry_replaces_nothing_silently():
    law = PrimitiveLaw("test_coin", lambda law, out: math.log(0.5), "l1", None, None, "fair coin")
    register_primitive(law)
    try:
        assert "test_coin" in registered_primitives() and primitive_law("test_coin") is law
        with pytest.raises(ValueError, match="already registered"):
            register_primitive(law)
    finally:
        unregister_primitive("test_coin")
    assert "test_coin" not in registered_primitives()
    with pytest.raises(ValueError, match="unknown primitive 'test_coin'"):
        primitive_law("test_coin")
    with pytest.raises(ValueError, match="unknown primitive"):
        unregister_primitive("test_coin")
    with pytest.raises(TypeError, match="law must be a PrimitiveLaw"):
        register_primitive("laplace")
    with pytest.raises(ValueError, match="law.norm must be one of"):
        register_primitive(PrimitiveLaw("x", lambda law, out: 0.0, "l7", None, None, ""))
    with pytest.raises(TypeError, match="law.noise must be callable"):
        register_primitive(PrimitiveLaw("x", lambda law, out: 0.0, "l1", None, 3, ""))


def test_the_primitive_decorator_reads_bound_arguments():
    @primitive(
        "laplace",
        data="value",
        sensitivity="sensitivity",
        law=lambda a: {"center": a["value"], "scale": a["sensitivity"] / a["epsilon"]},
        privacy=lambda a: {"epsilon": a["epsilon"]},
        public=("size",),
        site="my lib",
    )
    def my_laplace(value, sensitivity, epsilon, size=None, rng=None):
        """Doc kept."""
        return value + np.random.default_rng(rng).laplace(0.0, sensitivity / epsilon, size)

    assert my_laplace.__doc__ == "Doc kept." and my_laplace.__name__ == "my_laplace"
    plain = my_laplace(1.0, 2.0, epsilon=0.5, rng=3)
    with recording() as t:
        recorded = my_laplace(1.0, 2.0, epsilon=0.5, rng=3)
    assert plain == recorded
    call = t.calls[0]
    assert (call.primitive, call.norm, call.sensitivity, call.law["scale"], dict(call.public), call.site) == (
        "laplace",
        "l1",
        2.0,
        4.0,
        {"size": None},
        "my lib",
    )
    with pytest.raises(ValueError, match="'nope', which is not a parameter"):
        primitive("laplace", data="nope", sensitivity=1.0, law=dict)(my_laplace.__wrapped__)
    with pytest.raises(TypeError, match="law must be callable"):
        primitive("laplace", data="value", sensitivity=1.0, law={"scale": 1.0})(my_laplace.__wrapped__)


class _ThirdParty:
    @staticmethod
    def noisy(value, scale, rng=None):
        return value + np.random.default_rng(rng).laplace(0.0, scale)


def test_wrapped_primitive_restores_the_library_even_on_error():
    original = vars(_ThirdParty)["noisy"]
    module = types.SimpleNamespace(f=lambda value: value)
    with (
        pytest.raises(KeyError),
        wrapped_primitive(
            _ThirdParty,
            "noisy",
            "laplace",
            data="value",
            sensitivity=1.0,
            law=lambda a: {"center": a["value"], "scale": a["scale"]},
        ),
    ):
        with recording() as t:
            out = _ThirdParty().noisy(2.0, 3.0, rng=0)
        raise KeyError("boom")
    assert vars(_ThirdParty)["noisy"] is original
    assert out == _ThirdParty.noisy(2.0, 3.0, rng=0)
    assert t.calls[0].law == {"center": 2.0, "scale": 3.0}
    with wrapped_primitive(module, "f", "laplace", data="value", sensitivity=1.0, law=lambda a: {}):
        assert module.f(1.0) == 1.0
    assert module.f.__name__ == "<lambda>"
    with (
        pytest.raises(TypeError, match="must be callable"),
        wrapped_primitive(types.SimpleNamespace(x=1), "x", "laplace", data="value", sensitivity=1.0, law=dict),
    ):
        pass
