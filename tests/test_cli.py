import json
import subprocess
import sys

from proofs_checks.cli import main
from proofs_checks.model import claim_key


def test_list_json(capsys):
    assert main(["list", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    ids = {c["id"] for c in data["claims"]}
    assert "primitives.exponential.privacy" in ids
    assert {"exponential", "gem", "peeling"} <= {a["id"] for a in data["algorithms"]}


def test_verify_writes_report(tmp_path, capsys):
    assert main(["verify", "--out", str(tmp_path), "--only", "primitives.exponential", "primitives.gem"]) == 0
    captured = capsys.readouterr()
    assert "primitives.gem.privacy" in captured.out and "[1/3]" in captured.err
    report = json.loads((tmp_path / "report.json").read_text())
    for rec in report["claims"]:
        assert {"id", "source", "statement", "kind", "verdict", "evidence", "observed", "bound", "direction",
                "margin", "method", "reading", "seed"} <= rec.keys()
        assert rec["seed"] == [report["seed"], claim_key(rec["id"])]      # the claim's own stream
    md = (tmp_path / "report.md").read_text()
    assert md.startswith("# Verification report")
    assert md.count("against bound") + md.count("no single number compared") >= len(report["claims"])


def test_bad_argument_exits_2(capsys):
    assert main(["verify", "--only", "no-such-claim"]) == 2
    assert "no-such-claim" in capsys.readouterr().err


def test_module_entry_point():
    out = subprocess.run([sys.executable, "-m", "proofs_checks", "list"], capture_output=True, text=True, check=True)
    assert "Claims" in out.stdout
