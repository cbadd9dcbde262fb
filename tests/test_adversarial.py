import numpy as np
import pytest

from proofs_checks.adversarial import EXTREME_MAGNITUDES, candidate_records, extreme_records


def test_extreme_records_cover_signs_and_magnitudes():
    r = extreme_records(2)
    for mag in (1e300, 5e-324, 0.0):
        for sx in (1, -1):
            for sy in (1, -1):
                assert any((row == [sx * mag, sy * mag]).all() for row in r)
    assert np.isfinite(r).all()


def test_candidates_are_finite_reproducible_and_wide():
    a, b = candidate_records(12, rng=3), candidate_records(12, rng=3)
    assert np.array_equal(a, b) and np.isfinite(a).all() and a.shape[1] == 12
    assert np.abs(a).max() == EXTREME_MAGNITUDES.max()


def test_width_validated():
    with pytest.raises(ValueError, match="width"):
        extreme_records(0)
