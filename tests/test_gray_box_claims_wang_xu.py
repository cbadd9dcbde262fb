"""The gray-box claims of 000 (wang-xu.alg{1,2}.privacy.gray-box.*): registered with their mutants, verdicts that
agree with the exact claims, and every mutant refuted or proven still eps-DP."""

from __future__ import annotations

import pytest

# private: _gray_box: the claim sets' shared gray-box module (private so that claim-set discovery skips it);
# its design_sites is the subject of the completeness test
from proofs_checks.claim_sets._gray_box import design_sites
from proofs_checks.claim_sets.wang_xu import gray_box
from tests._gray_box_claims import KINDS, SELECTIONS, gray_box_claims, run

IDS = [
    f"wang-xu.alg{a}.privacy.gray-box.{v}{s}"
    for a in (1, 2)
    for v in ("printed", "standard", "calibrated")
    for s in ("", ".add-remove")
]
#: The exact claims' verdicts: only the printed weight over replace-one spends more than eps (2 eps).
EXPECTED = {cid: "refuted" if cid.endswith(".printed") else "confirmed" for cid in IDS}
#: The mutants every quick run covers (the rest run with -m slow).
QUICK = ("wang-xu.alg1.privacy.gray-box.calibrated", "wang-xu.alg2.privacy.gray-box.printed.add-remove")


def _design(cid):
    alg = int(cid.split(".")[1][-1])
    parts = cid.split(".gray-box.")[1].split(".")
    return gray_box.design(alg, parts[0], "add-remove" if len(parts) > 1 else "replace-one")


def test_registered_with_mutants_at_every_call_site():
    claims = gray_box_claims()
    assert set(IDS) <= set(claims)
    for cid in IDS:
        claim = claims[cid]
        assert claim.kind == "privacy" and claim.algorithm in ("wang-xu-1", "wang-xu-2")
        names = [m.name for m in claim.mutants]
        assert all(m.factor is not None for m in claim.mutants)
        for site, primitive in design_sites(_design(cid)).items():
            kinds = KINDS + (("selection weight x1.5",) if primitive in SELECTIONS else ())
            for kind in kinds:
                assert any(name.startswith(site) and kind in name for name in names), (cid, site, kind)


@pytest.mark.parametrize("cid", IDS)
def test_verdict_agrees_with_the_exact_claims(cid):
    res = run(gray_box_claims()[cid].check, cid)
    assert res.verdict == EXPECTED[cid], res.evidence["refuted_by"]
    assert res.evidence_kind == "gray_box"
    # the calibration's ratio is the exact worst loss over eps: 2k (replace-one) or k (add/remove)
    k = {"printed": 1.0, "standard": 0.25, "calibrated": 0.5}[cid.split(".gray-box.")[1].split(".")[0]]
    assert res.observed == pytest.approx(k * (1 if cid.endswith("add-remove") else 2), rel=1e-9)
    if res.verdict == "refuted":
        assert res.evidence["refuted_by"][0].startswith("replace-one/calibration (proof premise)")


def _mutant_cases():
    for cid in IDS:
        for index in range(len(gray_box_claims()[cid].mutants)):
            marks = () if cid in QUICK else (pytest.mark.slow,)
            yield pytest.param(cid, index, id=f"{cid}-{index}", marks=marks)


@pytest.mark.parametrize("cid, index", list(_mutant_cases()))
def test_each_mutant_refuted_or_proven_private(cid, index):
    mutant = gray_box_claims()[cid].mutants[index]
    res = run(mutant.check, cid)
    if mutant.not_a_violation:
        assert res.verdict == "confirmed" and res.observed <= 1.0 + 1e-9, mutant.name
    else:
        assert res.verdict == "refuted", (mutant.name, res.observed)
