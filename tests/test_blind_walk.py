"""blind_walk_distance2: the error level of a Frank-Wolfe walk over uniformly random vertices."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from proofs_checks.rates.blind_walk import blind_walk_distance2


def test_one_full_step_forgets_the_start():
    # eta_1 = 1: w^T = v, so E||v - w*||^2 = ||v||^2 + E||w*||^2 = 1 + 2 r^2 / (d + 1) (exact arithmetic)
    assert blind_walk_distance2([1.0], 4, 0.5) == pytest.approx(1.0 + 2 * 0.25 / 5, rel=1e-15)


def test_matches_the_term_by_term_sum():
    # c_0^2 E||w^0||^2 + sum_t a_t^2 + E||w*||^2 written out with an explicit product per term
    etas, d = np.array([0.5, 0.25, 0.2]), 7
    a = [etas[t] * np.prod(1 - etas[t + 1 :]) for t in range(3)]
    expected = np.prod(1 - etas) ** 2 * 2 * d / ((d + 1) * (d + 2)) + sum(x * x for x in a) + 2 / (d + 1)
    assert blind_walk_distance2(etas, d) == pytest.approx(expected, rel=1e-14)


@settings(max_examples=200, deadline=None)
@given(
    etas=st.lists(st.floats(min_value=5e-324, max_value=1.0), min_size=1, max_size=50),
    d=st.integers(min_value=1, max_value=10**12),
    r=st.floats(min_value=5e-324, max_value=1e150),
)
def test_finite_and_positive_over_the_float_range(etas, d, r):
    value = blind_walk_distance2(etas, d, r)
    assert math.isfinite(value) and value > 0


def test_overflow_and_bad_input_are_errors_naming_the_parameter():
    with pytest.raises(ValueError, match="w_star_l1"):
        blind_walk_distance2([0.5], 2, 1e300)
    for bad in ([], [0.0], [1.5], [-0.1]):
        with pytest.raises(ValueError, match="etas"):
            blind_walk_distance2(bad, 3)
    with pytest.raises(ValueError, match="etas"):
        blind_walk_distance2([float("nan")], 3)
    with pytest.raises(ValueError, match="d"):
        blind_walk_distance2([0.5], 0)
    with pytest.raises(ValueError, match="w_star_l1"):
        blind_walk_distance2([0.5], 3, 0.0)
