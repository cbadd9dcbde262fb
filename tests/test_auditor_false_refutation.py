"""False-refutation rate of the zCDP / Renyi / GDP audits on correct mechanisms (module false_refutation).

The fast tests run a small seeded subset; the slow one repeats the documented run (200 audits per case, 2*10^5 calls,
confidence 0.95) and checks each rate against 1 - confidence with its Clopper-Pearson interval.
"""

from __future__ import annotations

import pytest

from proofs_checks.audit.false_refutation import (
    clopper_pearson_interval,
    exact_cases,
    main,
    rate,
    statistical_cases,
)


def test_clopper_pearson_interval_matches_known_values():
    # the rule of three's exact counterpart: 0 of 200 gives an upper end 1 - 0.025^(1/200)
    assert clopper_pearson_interval(0, 200)[1] == pytest.approx(1 - 0.025 ** (1 / 200), rel=1e-9)
    low, high = clopper_pearson_interval(10, 200)
    assert low < 0.05 < high
    with pytest.raises(ValueError, match="k"):
        clopper_pearson_interval(3, 2)


def test_exact_audits_of_correct_mechanisms_never_refute():
    r = rate(exact_cases(6, seed=1), "exact")
    assert r["audits"] == 6 and r["refuted"] == 0


def test_statistical_audits_of_correct_mechanisms_small_subset():
    for label, mech, claim in statistical_cases():
        r = rate([(label, mech, claim)], "statistical", samples=20_000, seeds=range(3))
        assert r["refuted"] == 0, r["refuted_runs"]


def test_command_prints_a_table(capsys):
    assert main(["--audits", "1", "--samples", "2000"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("| case | method |") and "exact, mixed" in out


@pytest.mark.slow
def test_false_refutation_rate_within_one_minus_confidence():
    confidence = 0.95
    for label, mech, claim in statistical_cases():
        r = rate([(label, mech, claim)], "statistical", samples=200_000, confidence=confidence, seeds=range(200))
        assert r["interval"][0] <= 1 - confidence, (label, r["refuted"])
        assert r["refuted"] <= 3, (label, r["refuted_runs"])  # measured: 0, 0, 1, 0 (docs/auditor.md)
    assert rate(exact_cases(200), "exact")["refuted"] == 0
