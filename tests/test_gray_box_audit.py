"""The gray-box audit's power and its false refutations, on small algorithms built from the recorded primitives.

Each correct algorithm of ``tests/_gray_box_algorithms.py`` is never refuted (several seeds); each mutant is
refuted by the check that sees it, on a worst pair, at the cost stated in its test (this machine, 2 shared cores;
paths per direction, both directions run).  The smallest over-spend each check refutes (docs/auditor.md, "Gray-box
audits"), measured with 3 seeds, all refuted:

* pair_loss, noisy mean (one Laplace call): noise x0.8 (budget x1.25) at 200 paths (0.2 s); x0.91 at 1000 (0.6 s);
* pair_loss, 5-step Laplace gradient loop: noise x0.5 at 1000 paths (about 4.5 s); 200 paths do not suffice;
* pair_loss, exponential mechanism: weights x2 at 200 paths (0.15 s), x1.5 at 500 (0.4 s);
* sensitivity: any excess above the rounding slack (1e-9 relative), on one path, given a pair that reaches it;
* control_flow: any change of a public argument or declared parameter, on one path;
* law_conformance: a draw at half the recorded Laplace scale at 200 paths (400 values, KS p < 1e-6).
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from proofs_checks.audit import GrayBoxResult, gray_box_audit
from tests import _gray_box_algorithms as alg

CORRECT = [
    (alg.noisy_mean, alg.mean_pair, 0.0),
    (alg.gradient_loop, alg.loop_pair, 0.0),
    (alg.gaussian_loop, alg.loop_pair, alg.DELTA),
    (alg.selection, alg.selection_pair, 0.0),
]


@pytest.mark.parametrize("algorithm, pair, delta", CORRECT, ids=lambda v: getattr(v, "__name__", str(v)))
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_correct_algorithms_are_never_refuted(algorithm, pair, delta, seed):
    result = gray_box_audit(algorithm, *pair(), epsilon=alg.EPSILON, delta=delta, paths=200, seed=seed)
    assert isinstance(result, GrayBoxResult)
    assert result.verdict == "no violation found", result.report()
    assert result.check("composition").verdict == "confirmed", result.report()
    assert result.check("sensitivity").witness["ratio"] <= 1.0 + 1e-9


def test_noise_scale_halved_is_refuted_by_the_pair_loss():
    """noisy mean, Laplace noise x0.5: refuted at 200 paths in about 0.1 s (delta_pair(1) >= 0.2 at delta 0)."""
    result = gray_box_audit(alg.noisy_mean_half_noise, *alg.mean_pair(), epsilon=alg.EPSILON, paths=200, seed=0)
    assert result.verdict == "refuted"
    loss = result.check("pair_loss")
    assert loss.verdict == "refuted"
    assert loss.witness["directions"]["D->D'"]["delta_lower"] > 0.1
    assert 1.0 < loss.witness["directions"]["D->D'"]["epsilon_certified"] <= 2.0
    assert result.check("composition").verdict == "not confirmed"
    assert result.check("composition").witness["epsilon_upper"] == pytest.approx(2.0)


def test_loop_noise_halved_is_refuted_by_the_pair_loss():
    """5-step Laplace gradient loop, every step's noise x0.5: refuted at 1000 paths (about 4.5 s)."""
    result = gray_box_audit(
        alg.gradient_loop_half_noise,
        *alg.loop_pair(),
        epsilon=alg.EPSILON,
        paths=1000,
        seed=0,
        checks=("pair_loss", "composition"),
    )
    assert result.check("pair_loss").verdict == "refuted", result.report()
    assert result.check("composition").verdict == "not confirmed"


@pytest.mark.parametrize(
    "algorithm, pair",
    [(alg.noisy_mean_half_sensitivity, alg.mean_pair), (alg.gradient_loop_half_sensitivity, alg.loop_pair)],
)
def test_declared_sensitivity_halved_is_refuted_naming_the_call(algorithm, pair):
    """measured = 2 x declared at every call: refuted on the first path (20 paths, well under a second)."""
    result = gray_box_audit(algorithm, *pair(), epsilon=alg.EPSILON, paths=20, seed=0)
    check = result.check("sensitivity")
    assert check.verdict == "refuted"
    assert check.witness["ratio"] == pytest.approx(2.0)
    assert check.witness["primitive"] == "laplace" and check.witness["site"] == "[002 Def. 2]"
    assert re.match(r"call \d+ \(laplace\) at \[002 Def. 2\]: measured l1 distance", check.summary)
    # the composition of the declared calls is within the claim: an upper bound is only as good as its premises
    assert result.check("composition").verdict == "confirmed"


def test_selection_weights_doubled_are_refuted_by_the_pair_loss():
    """exponential mechanism with weight eps/Delta instead of eps/(2 Delta): refuted at 500 paths (about 0.3 s)."""
    result = gray_box_audit(alg.selection_double_weight, *alg.selection_pair(), epsilon=alg.EPSILON, paths=500, seed=0)
    assert result.check("pair_loss").verdict == "refuted", result.report()
    assert result.check("sensitivity").verdict == "no violation found"  # the scores move by 1 as declared
    assert result.check("composition").witness["epsilon_upper"] == pytest.approx(2.0)


def test_data_dependent_public_parameter_is_a_control_flow_divergence():
    """a clipping bound read from the data changes the declared sensitivity between the runs: refuted on path 0."""
    result = gray_box_audit(alg.noisy_mean_bound_from_data, *alg.mean_pair(), epsilon=alg.EPSILON, paths=10, seed=0)
    check = result.check("control_flow")
    assert check.verdict == "refuted"
    assert check.witness["index"] == 0 and check.witness["field"] == "sensitivity"
    assert check.witness["recorded"] == pytest.approx(2 * 0.9 / 10)
    assert check.witness["replayed"] == pytest.approx(2 * 1.0 / 10)


def test_draw_with_half_the_recorded_scale_is_refuted_by_law_conformance():
    """the law says scale b, the draw uses b/2: refuted at 200 paths (400 standardised values)."""
    result = gray_box_audit(alg.noisy_mean_half_scale_draw, *alg.mean_pair(), epsilon=alg.EPSILON, paths=200, seed=0)
    check = result.check("law_conformance")
    assert check.verdict == "refuted"
    assert check.witness["worst"] == "laplace" and check.witness["tests"]["laplace"]["p_value"] < 1e-6
    # the replay reads the recorded law, so the loss and the composition cannot see it
    assert result.check("pair_loss").verdict == "no violation found"


def test_same_seed_same_result_and_result_is_json_able():
    import json

    first = gray_box_audit(alg.selection, *alg.selection_pair(), epsilon=1.0, paths=30, seed=5)
    again = gray_box_audit(alg.selection, *alg.selection_pair(), epsilon=1.0, paths=30, seed=5)
    assert first.check("pair_loss").witness == again.check("pair_loss").witness
    text = json.dumps(first.as_dict(), allow_nan=False)
    assert '"pair_loss"' in text


def test_a_check_that_raises_is_an_error_not_a_verdict(monkeypatch):
    from proofs_checks.audit.gray_box import audit as audit_module

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(audit_module, "sensitivity_check", broken)
    result = gray_box_audit(alg.noisy_mean, *alg.mean_pair(), epsilon=1.0, paths=5)
    assert result.check("sensitivity").verdict == "error" and "boom" in result.check("sensitivity").summary
    assert result.verdict == "error"


def test_an_algorithm_that_raises_gives_errors():
    def raises(data, rng):
        raise ZeroDivisionError("no data")

    result = gray_box_audit(raises, np.zeros(3), np.ones(3), epsilon=1.0, paths=5)
    assert result.verdict == "error"
    assert {c.verdict for c in result.checks} == {"error"}
    assert "ZeroDivisionError" in result.check("pair_loss").summary


def test_a_replay_with_fewer_calls_diverges_at_its_end():
    from reference.mechanisms import laplace_mechanism

    def stops_early(data, rng):
        for _ in range(1 + int(np.sum(data) < 1)):
            laplace_mechanism(0.0, sensitivity=1.0, epsilon=1.0, rng=rng)

    result = gray_box_audit(stops_early, np.zeros(2), np.ones(2), epsilon=2.0, paths=5)
    check = result.check("control_flow")
    assert check.verdict == "refuted" and check.witness["index"] == 1
    assert check.witness["field"] in ("end of run", "length")
    assert result.check("pair_loss").witness["directions"]["D->D'"]["diverged_paths"] == 5


def test_batched_calls_are_refused():
    from reference.mechanisms import laplace_mechanism

    def batched(data, rng):
        return laplace_mechanism(float(np.mean(data)), sensitivity=1.0, epsilon=1.0, size=3, rng=rng)

    with pytest.raises(ValueError, match="batch"):
        gray_box_audit(batched, np.zeros(2), np.ones(2), epsilon=1.0, paths=2)

    def one_run_batch(data, rng):  # a batch of one run is a single run
        return laplace_mechanism(float(np.mean(data)), sensitivity=1.0, epsilon=1.0, size=1, rng=rng)

    assert gray_box_audit(one_run_batch, np.zeros(2), np.ones(2), epsilon=1.0, paths=4).verdict != "error"


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"epsilon": -1.0}, ValueError, "epsilon"),
        ({"epsilon": "1"}, TypeError, "epsilon"),
        ({"epsilon": 1.0, "delta": 1.0}, ValueError, "delta"),
        ({"epsilon": 1.0, "paths": 1}, ValueError, "paths"),
        ({"epsilon": 1.0, "paths": 2.5}, TypeError, "paths"),
        ({"epsilon": 1.0, "confidence": 1.0}, ValueError, "confidence"),
        ({"epsilon": 1.0, "bound": "chernoff"}, ValueError, "bound"),
        ({"epsilon": 1.0, "checks": ("speed",)}, ValueError, "checks"),
        ({"epsilon": 1.0, "neighbours": "search"}, ValueError, "D_prime"),
        ({"epsilon": 1.0, "relation": "swap"}, ValueError, "relation"),
    ],
)
def test_bad_arguments_name_the_parameter(kwargs, error, match):
    with pytest.raises(error, match=match):
        gray_box_audit(alg.noisy_mean, np.zeros(3), np.ones(3), **kwargs)


def test_bad_algorithm_and_data():
    with pytest.raises(TypeError, match="algorithm"):
        gray_box_audit("noisy_mean", np.zeros(3), np.ones(3), epsilon=1.0)
    with pytest.raises(TypeError, match="D_prime"):
        gray_box_audit(alg.noisy_mean, np.zeros(3), np.array(["a", "b", "c"]), epsilon=1.0)
    with pytest.raises(ValueError, match="exactly one"):
        gray_box_audit(alg.noisy_mean, np.zeros(3), epsilon=1.0)
