"""The gray-box claims of 002: correct runs not refuted (seeded), every mutant inside the algorithms refuted, the
claims registered with their mutants, and the verdicts the same as the exact claims of the same readings."""

from __future__ import annotations

import pytest

from proofs_checks.claim_sets.hu import gray_box
from proofs_checks.model import CheckContext
from proofs_checks.registry import default_registry

#: The verdict of the exact claim of the same theorem and reading (the quick profile's).
EXPECTED = {
    "hu.thm1.privacy.gray-box.standard": "confirmed",
    "hu.thm1.privacy.gray-box.printed": "refuted",
    "hu.thm1.privacy.gray-box.standard.diameter": "confirmed",
    "hu.thm4.privacy.gray-box.printed": "confirmed",
    "hu.thm4.privacy.gray-box.lemma2": "confirmed",
    "hu.thm4.privacy.gray-box.standard": "confirmed",
    "hu.thm6.privacy.gray-box": "confirmed",
    "hu.thm8.privacy.gray-box.standard": "confirmed",
    "hu.thm8.privacy.gray-box.printed-indices": "confirmed",
    "hu.thm8.privacy.gray-box.proof-lambda": "confirmed",
}
BY_ID = {entry[0]: entry for entry in gray_box.SETTINGS}


def _ctx(claim_id):
    return CheckContext(profile="quick").for_claim(claim_id)


def test_every_setting_has_an_expected_verdict_and_is_registered_with_its_mutants():
    registry = default_registry()
    assert set(BY_ID) == set(EXPECTED)
    for claim_id, _, _, _, algorithm, _ in gray_box.SETTINGS:
        claim = registry.claim(claim_id)
        names = [m.name for m in claim.mutants]
        assert len(names) == len(gray_box.FAULTS[algorithm]) >= 3
        assert any("noise scale x0.5" in n for n in names) and any("sensitivity x0.5" in n for n in names)
        assert any("budget x2" in n for n in names)
        if algorithm in ("hu-1", "hu-2"):  # the exponential-mechanism selections have a weight
            assert any("weight x1.5" in n for n in names)


@pytest.mark.parametrize("claim_id", sorted(EXPECTED))
def test_correct_runs_give_the_exact_claims_verdict(claim_id):
    _, _, _, make, _, _ = BY_ID[claim_id]
    result = gray_box.gray_box_check(make)(_ctx(claim_id))
    assert result.verdict == EXPECTED[claim_id], result.method
    assert result.evidence["counted"] == ["replace-one"]
    assert set(result.evidence["relations"]) == {"replace-one", "add-remove"}
    if result.verdict == "confirmed":
        assert result.observed <= result.bound and not [
            r for r in result.evidence["refuted_by"] if r.startswith("replace-one/")
        ]


@pytest.mark.parametrize(
    "claim_id, fault",
    [
        (cid, i)
        for cid in sorted(EXPECTED)
        if EXPECTED[cid] == "confirmed"
        for i in range(len(gray_box.FAULTS[BY_ID[cid][4]]))
    ],
)
def test_every_mutant_inside_the_algorithm_is_refuted(claim_id, fault):
    _, _, _, make, algorithm, _ = BY_ID[claim_id]
    name, _, faults = gray_box.FAULTS[algorithm][fault]
    result = gray_box.gray_box_check(make, faults)(_ctx(claim_id))
    assert result.verdict == "refuted", name
    assert "replace-one/calibration" in result.evidence["refuted_by"], name


def test_faults_are_restored_after_a_mutant_run():
    # private: _dp_fw: the fault replaces an attribute of the module the algorithm reads at run time, the subject
    import reference.hu._dp_fw as dp_fw_module

    original = dp_fw_module.dp_fw_sensitivity
    _, _, _, make, algorithm, _ = BY_ID["hu.thm1.privacy.gray-box.standard"]
    gray_box.gray_box_check(make, gray_box.FAULTS[algorithm][1][2])(_ctx("hu.thm1.privacy.gray-box.standard"))
    assert dp_fw_module.dp_fw_sensitivity is original
