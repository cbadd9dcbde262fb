"""Findings: each cites registered claims, and the README names every one of them."""

import json
import pathlib

from proofs_checks.registry import default_registry

ROOT = pathlib.Path(__file__).resolve().parents[1]
REG = default_registry()


def test_every_finding_cites_registered_claims_and_states_its_reading():
    known = {c.id for c in REG.claims}
    assert REG.findings, "no findings registered"
    for f in REG.findings:
        assert f.paper in ("000", "002", "004"), f.id
        assert f.claims and set(f.claims) <= known, (f.id, set(f.claims) - known)
        assert f"[{f.paper} " in f.reading, f"{f.id}: the reading must cite its place in the paper"
        assert f.summary.strip(), f.id


def test_the_readme_names_every_finding():
    readme = (ROOT / "README.md").read_text()
    missing = [f.id for f in REG.findings if f"`{f.id}`" not in readme]
    assert not missing, f"README does not name the findings {missing} (python -m proofs_checks findings)"


def test_findings_cli_json(capsys):
    # in-process: a subprocess spent 3.9 s of CPU importing the package again
    from proofs_checks.cli import main

    assert main(["findings", "--paper", "004", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data and all(f["paper"] == "004" for f in data)
    assert set(data[0]) == {"id", "paper", "title", "claims", "reading", "summary"}
