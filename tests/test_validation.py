import math

import numpy as np
import pytest

from reference import mechanisms as m
from reference.validation import as_generator, check_delta, check_epsilon, check_finite_array, check_scores


@pytest.mark.parametrize("bad", [0, -1.0, math.nan, math.inf, -math.inf])
def test_epsilon_rejected_with_name_and_value(bad):
    with pytest.raises(ValueError, match=r"epsilon.*" + re_value(bad)):
        check_epsilon(bad)


def re_value(v):
    return {0: "0", -1.0: "-1.0", math.inf: "inf", -math.inf: "-inf"}.get(v, "nan")


@pytest.mark.parametrize("bad", ["1", None, True, [1.0]])
def test_epsilon_wrong_type(bad):
    with pytest.raises(TypeError, match="epsilon"):
        check_epsilon(bad)


@pytest.mark.parametrize("bad", [0.0, 1.0, -0.1, 1.5, math.nan])
def test_delta_outside_open_unit_interval(bad):
    with pytest.raises(ValueError, match="delta"):
        check_delta(bad)


def test_arrays():
    with pytest.raises(ValueError, match="scores must not be empty"):
        check_scores([])
    with pytest.raises(ValueError, match=r"scores must be finite; entry 1.*nan"):
        check_scores([1.0, math.nan])
    with pytest.raises(ValueError, match="scores must be 1-dimensional"):
        check_scores([[1.0, 2.0]])
    with pytest.raises(ValueError, match=r"X must have shape \(None, 3\)"):
        check_finite_array("X", np.zeros((4, 2)), shape=(None, 3))


def test_rng_accepts_seed_and_generator_only():
    g = np.random.default_rng(1)
    assert as_generator(g) is g
    assert as_generator(5).integers(10**9) == np.random.default_rng(5).integers(10**9)
    with pytest.raises(TypeError, match="RandomState"):
        as_generator(np.random.RandomState(0))
    with pytest.raises(ValueError, match="seed"):
        as_generator(-3)


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: m.exponential_log_prob([1.0], 0.0, 1.0), "epsilon"),
        (lambda: m.exponential_log_prob([1.0], 1.0, 0.0), "sensitivity"),
        (lambda: m.exponential_log_prob([], 1.0, 1.0), "scores"),
        (lambda: m.exponential_log_prob([1.0, np.nan], 1.0, 1.0), "scores"),
        (lambda: m.laplace_mechanism([1.0], -1.0, 1.0), "sensitivity"),
        (lambda: m.laplace_mechanism([1.0, np.inf], 1.0, 1.0), "value"),
        (lambda: m.gaussian_sigma(1.0, 0.5, 1.0), "delta"),
        (lambda: m.gaussian_sigma(1.0, math.nan, 0.1), "epsilon"),
        (lambda: m.report_noisy_max([1.0, 2.0], 0.0), "scale"),
        (lambda: m.gem_log_prob([1.0], [1.0, 2.0], 1.0, 0.1), "same length"),
        (lambda: m.gem_log_prob([-1.0, 1.0], [1.0, 2.0], 1.0, 0.1), "sensitivities"),
        (lambda: m.gem_log_prob([1.0, 1.0], [1.0, 2.0], 1.0, 1.0), "beta"),
        (lambda: m.peeling([1.0, 2.0], 3, 1.0, 0.1, 1.0), "s"),
        (lambda: m.peeling([1.0, 2.0], 1, 1.0, 0.0, 1.0), "delta"),
        (lambda: m.advanced_composition_split(1.0, 0.1, 0), "rounds"),
        (lambda: m.advanced_composition_split(0.5, 0.1, 3, "other"), "variant"),
    ],
)
def test_mechanisms_reject_bad_input(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_gaussian_warns_outside_classic_range():
    with pytest.warns(UserWarning, match="epsilon < 1"):
        m.gaussian_sigma(1.0, 2.0, 1e-5)
