"""The coverage verdict rule of proofs_checks.verdicts, including the vacuous case."""

import pytest

from proofs_checks.verdicts import clopper_pearson, coverage_verdict


def test_refuted_only_when_the_upper_limit_is_below_nominal():
    # 80 of 100 at nominal 0.95: the 0.95 upper Clopper-Pearson limit is about 0.87 < 0.95
    assert clopper_pearson(80, 100, 0.95)[1] < 0.95
    assert coverage_verdict(80, 100, 0.95) == "refuted"
    assert coverage_verdict(80, 100, 0.95, vacuous=True) == "refuted"  # a broken bound is never vacuous
    assert coverage_verdict(95, 100, 0.95) == "confirmed"


def test_a_bound_nothing_could_break_is_vacuous_not_confirmed():
    assert coverage_verdict(100, 100, 0.95, vacuous=True) == "vacuous"
    assert coverage_verdict(100, 100, 0.95, confirm="lower_limit", vacuous=True) == "vacuous"
    # lower_limit: inconclusive stays inconclusive whatever the vacuity
    assert coverage_verdict(95, 100, 0.95, confirm="lower_limit", vacuous=True) == "inconclusive"


def test_bad_confirm_is_named():
    with pytest.raises(ValueError, match="confirm"):
        coverage_verdict(1, 2, 0.5, confirm="always")
