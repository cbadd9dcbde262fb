import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from proofs_checks.audit.exact import hockey_stick_delta, hockey_stick_epsilon, max_privacy_loss, privacy_profile


def test_hockey_stick_epsilon_inverts_delta():
    lp, lq = np.log([0.7, 0.2, 0.1]), np.log([0.2, 0.3, 0.5])
    for delta in (0.0, 1e-3, 0.05, 0.3):
        eps = hockey_stick_epsilon(lp, lq, delta)
        assert hockey_stick_delta(lp, lq, eps) <= delta + 1e-12
        if eps > 0:
            assert hockey_stick_delta(lp, lq, eps * (1 - 1e-6)) > delta
    # delta = 0: the largest log-ratio log(0.7/0.2) (hand computation)
    assert hockey_stick_epsilon(lp, lq, 0.0) == pytest.approx(math.log(3.5), abs=1e-12)
    # delta at least the total variation distance (0.5): epsilon 0
    assert hockey_stick_epsilon(lp, lq, 0.5) == 0.0


def test_hockey_stick_epsilon_disjoint_support():
    lp, lq = np.log([0.5, 0.5]), np.array([0.0, -np.inf])
    assert hockey_stick_epsilon(lp, lq, 0.1) == math.inf
    assert hockey_stick_epsilon(lp, lq, 0.5) == 0.0
    assert privacy_profile(lp, lq)[0] == math.inf


def test_privacy_profile_both_directions():
    lp, lq = np.log([0.7, 0.2, 0.1]), np.log([0.2, 0.3, 0.5])
    eps, direction = privacy_profile(lp, lq)
    assert direction == "backward" and eps == pytest.approx(max_privacy_loss(lp, lq))


def test_bad_delta():
    with pytest.raises(ValueError, match="delta"):
        hockey_stick_epsilon([0.0], [0.0], 1.5)


@given(st.lists(st.floats(-700, 0), min_size=2, max_size=6), st.floats(0, 0.9))
def test_epsilon_delta_consistent(raw, delta):
    lp = np.array(raw) - np.logaddexp.reduce(raw)
    lq = lp[::-1].copy()
    eps = hockey_stick_epsilon(lp, lq, delta)
    assert np.isfinite(eps) and eps >= 0
    assert hockey_stick_delta(lp, lq, eps) <= delta + 1e-9
