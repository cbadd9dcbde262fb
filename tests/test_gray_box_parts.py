"""The gray-box audit's parts: distances, the confidence bound's coverage, the composition against closed forms,
the conformance tables' completeness, the neighbour search and the command line."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import numpy as np
import pytest

from proofs_checks.audit import search_neighbours
from proofs_checks.audit.gray_box.bounds import mean_lower_bound
from proofs_checks.audit.gray_box.composition import composed_epsilon
from proofs_checks.audit.gray_box.conformance import SELECTION_PROBABILITIES, STANDARD_NOISE
from proofs_checks.audit.gray_box.sensitivity import measured_distance
from tests import _gray_box_algorithms as alg


def test_distances_in_each_norm_and_non_finite_inputs():
    assert measured_distance([1.0, -2.0], [0.0, 0.0], "l1") == 3.0
    assert measured_distance([1.0, -2.0], [0.0, 0.0], "linf") == 2.0
    assert measured_distance([3e300, 4e300], [0.0, 0.0], "l2") == pytest.approx(5e300)  # no overflow of squares
    assert measured_distance([np.nan], [0.0], "l1") == math.inf
    assert measured_distance([np.inf], [np.inf], "l1") == math.inf  # inf - inf is NaN: infinite
    assert measured_distance([0.0, 0.0], [0.0], "l1") == math.inf  # a change of shape
    with pytest.raises(ValueError, match="norm"):
        measured_distance([0.0], [0.0], "l3")


@pytest.mark.parametrize("method", ["bernstein", "hoeffding", "clopper-pearson"])
def test_lower_bound_covers_the_mean(method):
    """400 replications at alpha = 0.1 of a [0, 1] variable with an atom at 0 (like (1 - e^(eps - L))_+):
    at most 10% + 3 sd of the bounds exceed the true mean (0.15)."""
    rng = np.random.default_rng(0)
    n, reps, alpha, mean = 200, 400, 0.1, 0.15
    misses = 0
    for _ in range(reps):
        z = np.where(rng.random(n) < 0.3, rng.random(n), 0.0)
        misses += mean_lower_bound(z, alpha, method, rng) > mean
    assert misses <= reps * alpha + 3 * math.sqrt(reps * alpha * (1 - alpha))


def test_bound_arguments():
    with pytest.raises(ValueError, match="2 draws"):
        mean_lower_bound([0.5], 0.05)
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        mean_lower_bound([0.5, 1.5], 0.05)
    with pytest.raises(ValueError, match="rng"):
        mean_lower_bound([0.5, 0.5], 0.05, "clopper-pearson")


def test_composition_matches_closed_forms():
    # pure DP at delta 0 adds exactly
    assert composed_epsilon([("laplace", 4.0)] * 4 + [("pure", 0.5)], 0.0) == pytest.approx(1.5)
    # T Gaussians of noise multiplier z are one of z / sqrt(T): the same eps(delta) within the discretisation
    ten = composed_epsilon([("gaussian", 4.0)] * 10, 1e-5)
    one = composed_epsilon([("gaussian", 4.0 / math.sqrt(10))], 1e-5)
    assert ten == pytest.approx(one, abs=2e-3)
    # a call with declared sensitivity 0 costs nothing; an unbounded one makes the bound infinite
    assert composed_epsilon([("laplace", math.inf), ("pure", 0.0)], 1e-5) == 0.0
    assert composed_epsilon([("gaussian", 1.0)], 0.0) == math.inf
    with pytest.raises(ValueError, match="kind"):
        composed_epsilon([("rdp", 1.0)], 0.0)


def test_every_builtin_law_is_testable_by_the_conformance_check():
    """Completeness: a built-in law with a ``noise`` function has its standard law in STANDARD_NOISE, and one
    without is an index-valued selection with its probabilities in SELECTION_PROBABILITIES (except Peeling,
    whose noise covers its released values)."""
    from reference.mechanisms.primitive_laws import BUILTIN_LAWS

    for law in BUILTIN_LAWS:
        if law.noise is not None:
            assert law.name in STANDARD_NOISE, f"{law.name}: noise without a standard law in STANDARD_NOISE"
        else:
            assert law.name in SELECTION_PROBABILITIES, f"{law.name}: neither noise nor selection probabilities"
    for name in set(STANDARD_NOISE) | set(SELECTION_PROBABILITIES):
        assert name in {law.name for law in BUILTIN_LAWS}, f"{name} is no built-in law"


def test_search_finds_the_unclipped_record_and_the_nan_that_passes_clip():
    from reference.mechanisms import laplace_mechanism

    def unclipped(data, rng):
        return laplace_mechanism(float(np.mean(data)), sensitivity=1.0 / len(data), epsilon=1.0, rng=rng)

    found = search_neighbours(unclipped, np.full(5, 0.5), budget=30)
    assert found.ratio > 1e290 and found.evaluations <= 30
    assert found.call["primitive"] == "laplace"

    def clipped(data, rng):
        return laplace_mechanism(float(np.mean(np.clip(data, 0, 1))), sensitivity=1 / len(data), epsilon=1, rng=rng)

    found = search_neighbours(clipped, np.full(5, 0.5), budget=40, seed=1)
    assert found.ratio <= 1.0 + 1e-9 and found.rejected > 0  # NaN and inf rejected by the primitive's check


def test_search_add_remove_flags_the_size_in_a_public_parameter():
    found = search_neighbours(alg.noisy_mean, np.full(4, 0.5), relation="add-remove", budget=20)
    # the sensitivity 1/n is declared from the dataset's size: a change of size is a public divergence
    assert found.ratio == math.inf and found.divergence["field"] == "sensitivity", found


def test_gray_box_audit_with_searched_neighbours():
    from proofs_checks.audit import gray_box_audit

    result = gray_box_audit(
        alg.noisy_mean_half_sensitivity, np.zeros(6), epsilon=1.0, neighbours="search", search_budget=20, paths=20
    )
    assert result.check("sensitivity").verdict == "refuted"
    assert result.neighbour_search is not None and result.neighbour_search.ratio >= 1.0


def test_search_arguments():
    with pytest.raises(ValueError, match="relation"):
        search_neighbours(alg.noisy_mean, np.zeros(3), relation="swap")
    with pytest.raises(ValueError, match="budget"):
        search_neighbours(alg.noisy_mean, np.zeros(3), budget=0)
    with pytest.raises(TypeError, match="algorithm"):
        search_neighbours(None, np.zeros(3))


def test_command_line_names_the_failing_call(tmp_path):
    D, D_prime = alg.mean_pair()
    np.save(tmp_path / "D.npy", D)
    np.save(tmp_path / "Dp.npy", D_prime)
    cmd = [
        sys.executable,
        "-m",
        "proofs_checks",
        "audit",
        "--gray-box",
        "--algorithm",
        "tests._gray_box_algorithms:noisy_mean_half_sensitivity",
        "--data",
        str(tmp_path / "D.npy"),
        "--data-prime",
        str(tmp_path / "Dp.npy"),
        "--epsilon",
        "1",
        "--paths",
        "20",
        "--json",
    ]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True)
    report = json.loads(out.stdout)
    assert report["verdict"] == "refuted"
    sensitivity = next(c for c in report["checks"] if c["name"] == "sensitivity")
    assert sensitivity["verdict"] == "refuted" and sensitivity["witness"]["index"] == 0
    assert "paths" in out.stderr  # progress on stderr, data on stdout
    bad = subprocess.run(cmd[:-1] + ["--paths", "1"], capture_output=True, text=True)
    assert bad.returncode == 2 and "paths" in bad.stderr
    missing = subprocess.run(cmd[:7] + ["--epsilon", "1"], capture_output=True, text=True)
    assert missing.returncode == 2 and "--data" in missing.stderr


def test_every_paper_entry_point_gets_verdicts_and_no_error():
    """The replay engine runs on each instrumented entry point of the three papers (tests/test_recorder_algorithms.py):
    selections, Peeling, GEM, report-noisy-max and Gaussian learners; no check raises."""
    from proofs_checks.audit import gray_box_audit
    from tests.test_recorder_algorithms import ENTRY_POINTS

    for name, (run, D, D_prime, _) in ENTRY_POINTS.items():
        result = gray_box_audit(run, D, D_prime, epsilon=1.0, delta=1e-5, paths=4, seed=0)
        errors = [check.summary for check in result.checks if check.verdict == "error"]
        assert not errors, (name, errors)
        assert result.check("control_flow").verdict == "no violation found", (name, result.report())
