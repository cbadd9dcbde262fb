"""Each wrong answer on bad input found by a new user's tour, now an error naming the parameter and value.

The property test over every entry point is ``tests/test_bad_input_fuzz.py``; these are the named cases.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from proofs_checks.formulas.catoni import accurate_region
from reference.hu.catoni import expected_phi, robust_mean
from reference.mechanisms import (
    advanced_composition_epsilon,
    gaussian_sigma,
    gem_threshold,
    laplace_mechanism,
    laplace_scale,
    peeling_scale,
    report_noisy_max_scale,
)
from reference.validation import check_finite_array, check_real_array


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: expected_phi("1.5", 1), TypeError, ["a", "'1.5'"]),
        (lambda: robust_mean(["1", "2"], 1, 1), TypeError, ["x", "'1'"]),
        (lambda: robust_mean([True, False], 1, 1), TypeError, ["x", "bool"]),
        (lambda: robust_mean(np.array([1 + 1j, 2]), 1, 1), TypeError, ["x", "complex"]),
        (lambda: robust_mean(np.array([1.0, 2.0], dtype=object), 1, 1), TypeError, ["x", "object"]),
        (lambda: laplace_scale(1e308, 1e-10), ValueError, ["laplace_scale", "sensitivity=1e+308", "epsilon=1e-10"]),
        (lambda: gaussian_sigma(1, 0.5, 5e-324), ValueError, ["gaussian_sigma", "delta=5e-324"]),
        (lambda: laplace_mechanism(1.0, 1e308, 1e-10, rng=0), ValueError, ["sensitivity=1e+308"]),
        (lambda: laplace_mechanism(1.7e308, 1e300, 1e-7, size=50, rng=0), ValueError, ["overflows", "scale="]),
        (lambda: gem_threshold(1, 0.1, 0), ValueError, ["k", "0"]),
        (lambda: gem_threshold(1, 0.1, 2.5), TypeError, ["k", "2.5"]),
        (lambda: gem_threshold(1, 0.1, True), TypeError, ["k", "True"]),
        (lambda: peeling_scale(1, 1e-300, 1e-5, 1e300), ValueError, ["peeling_scale", "lam=1e+300"]),
        (lambda: report_noisy_max_scale(1e300, 1e-300), ValueError, ["report_noisy_max_scale"]),
        (lambda: report_noisy_max_scale(1.0, 1.0, monotone="no"), TypeError, ["monotone"]),
        (lambda: advanced_composition_epsilon(1000.0, 2, 1e-5), ValueError, ["epsilon_step=1000.0"]),
    ],
)
def test_bad_input_raises_naming_the_parameter_and_value(call, error, words):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a ComplexWarning or an overflow warning instead of an error is a slip
        with pytest.raises(error) as caught:
            call()
    for word in words:
        assert word in str(caught.value), (word, str(caught.value))


def test_real_arrays_pass_unchanged_and_without_copy():
    x = np.arange(3.0)
    assert check_real_array("x", x) is x
    assert check_finite_array("x", np.array([1, 2], dtype=np.int32)).dtype == np.float64
    assert check_real_array("x", []).shape == (0,)


def test_robust_mean_axis_none_flattens_like_numpy():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((4, 5))
    assert robust_mean(x, 2.0, 1.0, axis=None) == robust_mean(x.ravel(), 2.0, 1.0)
    assert np.ndim(robust_mean(x, 2.0, 1.0, axis=None)) == 0


def test_robust_mean_nan_policy_has_scipys_meaning():
    x = np.array([[0.1, np.nan], [0.3, 0.5], [-0.2, 0.7]])
    with pytest.raises(ValueError, match="x must be finite"):
        robust_mean(x, 2.0, 1.0)  # the default: a NaN is an error
    propagated = robust_mean(x, 2.0, 1.0, nan_policy="propagate")
    assert propagated[0] == robust_mean(x[:, 0], 2.0, 1.0) and np.isnan(propagated[1])
    omitted = robust_mean(x, 2.0, 1.0, nan_policy="omit")
    assert omitted[1] == robust_mean([0.5, 0.7], 2.0, 1.0)
    assert np.isnan(robust_mean([np.nan, np.nan], 2.0, 1.0, nan_policy="omit"))
    with pytest.raises(ValueError, match="x must be finite"):
        robust_mean([np.nan, np.inf, 1.0], 2.0, 1.0, nan_policy="omit")  # inf is never a NaN to leave out
    with pytest.raises(ValueError, match="nan_policy"):
        robust_mean(x, 2.0, 1.0, nan_policy="ignore")


@pytest.mark.parametrize("variant", ["standard", "printed"])
def test_robust_gradient_nan_policy_works_per_coordinate(variant):
    from reference.hu.catoni import robust_gradient

    g = np.array([[0.1, np.nan, 2.0], [0.3, 0.5, -1.0], [-0.2, 0.7, 0.4]])
    with pytest.raises(ValueError, match="per_example_grads must be finite"):
        robust_gradient(g, 2.0, 1.0, variant=variant)  # the default: a NaN is an error
    propagated = robust_gradient(g, 2.0, 1.0, variant=variant, nan_policy="propagate")
    complete = robust_gradient(g[:, [0, 2]], 2.0, 1.0, variant=variant)
    assert np.isnan(propagated[1]) and np.array_equal(propagated[[0, 2]], complete)
    omitted = robust_gradient(g, 2.0, 1.0, variant=variant, nan_policy="omit")
    assert omitted[1] == robust_gradient(g[1:, [1]], 2.0, 1.0, variant=variant)[0]
    assert np.array_equal(omitted[[0, 2]], complete)
    # no NaN: every policy gives the default's bits
    clean = g[1:]
    for policy in ("propagate", "omit"):
        assert np.array_equal(
            robust_gradient(clean, 2.0, 1.0, variant=variant, nan_policy=policy),
            robust_gradient(clean, 2.0, 1.0, variant=variant),
        )
    with_inf = g.copy()
    with_inf[2, 0] = np.inf
    with pytest.raises(ValueError, match="per_example_grads must be finite"):
        robust_gradient(with_inf, 2.0, 1.0, nan_policy="omit")  # inf is never a NaN to leave out
    with pytest.raises(ValueError, match="nan_policy"):
        robust_gradient(g, 2.0, 1.0, nan_policy="ignore")


def test_accurate_region_never_calls_an_untested_range_accurate():
    # every tested point fails (a port returning NaN everywhere): no box, no frontier, no b-range
    a = np.array([1e-3, 1.0, 10.0, 1e-3, 1.0])
    b = np.array([1e-3, 1e-3, 1e-3, 1.0, 0.0])
    region = accurate_region(a, b, np.zeros(a.size, dtype=bool))
    assert region["box"] is None
    assert all(row["max_abs_a"] is None for row in region["frontier"])
    assert all(row["b_min"] is None for row in region["b_range_for_abs_a_up_to"])
    assert region["b=0 accurate"] is False


def test_accurate_region_box_holds_tested_accurate_points():
    a = np.array([1e-3, 1.0, 10.0, 1e-3, 1.0, 10.0])
    b = np.array([1e-3, 1e-3, 1e-3, 1.0, 1.0, 1.0])
    ok = np.array([True, True, False, True, False, False])
    region = accurate_region(a, b, ok)
    box = region["box"]
    inside = (np.abs(a) <= box["max_abs_a"]) & (b >= box["min_b"]) & (b <= box["max_b"])
    assert inside.any() and ok[inside].all()
