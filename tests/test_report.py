"""The report: findings first, summary, bibliography, verdict lines, self-tests apart, provenance, schema."""

import json

import jsonschema
import pytest

from proofs_checks.model import CheckContext, Finding
from proofs_checks.report import SCHEMA_PATH, build_payload, claim_record, paper_of, verdict_line, write_report
from proofs_checks.report.provenance import provenance
from proofs_checks.runner import run_claims

from ._fake_registry import fake_registry


def _payload(tmp_path, reg=None, **kw):
    reg = reg or fake_registry()
    ctx = CheckContext(out_dir=tmp_path)
    records = [claim_record(c, r) for c, r in run_claims(reg.claims, ctx)]
    prov = provenance(
        command=["python", "-m", "proofs_checks", "verify"],
        seed=ctx.seed,
        profile="quick",
        wall_seconds=1.5,
        generated="2026-01-01T00:00:00+00:00",
    )
    return build_payload(
        records,
        profile="quick",
        seed=ctx.seed,
        provenance=prov,
        findings=reg.findings,
        algorithms=reg.algorithms,
        known_claim_ids={c.id for c in reg.claims},
        **kw,
    )


@pytest.fixture
def schema():
    return json.loads(SCHEMA_PATH.read_text())


def test_payload_matches_schema(tmp_path, schema):
    payload = _payload(tmp_path)
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(payload, schema, cls=jsonschema.Draft202012Validator)
    write_report(payload, tmp_path)
    jsonschema.validate(json.loads((tmp_path / "report.json").read_text()), schema, cls=jsonschema.Draft202012Validator)


def test_schema_rejects_a_wrong_verdict(tmp_path, schema):
    payload = _payload(tmp_path)
    payload["claims"][0]["verdict"] = "not refuted"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(payload, schema, cls=jsonschema.Draft202012Validator)


def test_markdown_leads_with_findings(tmp_path):
    write_report(_payload(tmp_path), tmp_path)
    md = (tmp_path / "report.md").read_text()
    order = [
        md.index(h)
        for h in (
            "## Findings",
            "## Summary by paper and kind",
            "## Papers",
            "## Claims",
            "## Self-tests of the tools",
            "## Provenance",
        )
    ]
    assert order == sorted(order)
    findings = md[order[0] : order[1]]
    assert "The toy sensitivity is twice the stated one" in findings
    assert (
        "[`toy.sensitivity`](#claim-toy.sensitivity): refuted: observed 2 against bound 1 (must be at most), margin -1"
        in findings
    )
    assert "Lemma 3 read with replace-one neighbours" in findings


def test_self_tests_are_counted_apart(tmp_path):
    payload = _payload(tmp_path)
    assert payload["summary"]["claims"] == {"confirmed": 1, "refuted": 1, "inconclusive": 1, "vacuous": 0, "error": 0}
    assert payload["summary"]["self_tests"]["confirmed"] == 1
    assert all(row["paper"] != "other" for row in payload["summary"]["by_paper_and_kind"])
    md = tmp_path / "x.md"
    write_report(payload, tmp_path)
    text = (tmp_path / "report.md").read_text()
    self_section = text[text.index("## Self-tests") : text.index("## Provenance")]
    assert "toy.calibration" in self_section and "toy.sensitivity" not in self_section
    assert not md.exists()


def test_summary_by_paper_and_kind(tmp_path):
    rows = {(r["paper"], r["kind"]): r for r in _payload(tmp_path)["summary"]["by_paper_and_kind"]}
    assert rows[("002", "sensitivity")]["refuted"] == 1 and rows[("004", "rate")]["inconclusive"] == 1
    assert [r["paper"] for r in _payload(tmp_path)["summary"]["by_paper_and_kind"]] == ["000", "002", "004"]


def test_papers_named_by_title_not_hash(tmp_path):
    write_report(_payload(tmp_path), tmp_path)
    text = "".join((tmp_path / n).read_text() for n in ("report.md", "report.html", "report.json"))
    assert "High Dimensional Differentially Private Stochastic Optimization with Heavy-tailed Data" in text
    assert "Raman Arora" in text and "Di Wang" in text
    assert "6c597657" not in text and "e64de114" not in text


def test_no_findings_is_graceful(tmp_path):
    payload = _payload(tmp_path, fake_registry(findings=False))
    assert payload["findings"] == []
    write_report(payload, tmp_path)
    assert "No headline finding" in (tmp_path / "report.md").read_text()
    assert "No headline finding" in (tmp_path / "report.html").read_text()


def test_finding_with_unregistered_claim_raises(tmp_path):
    reg = fake_registry()
    reg.add_finding(Finding("000.typo", "000", "t", ("toy.no-such-claim",), "r", "s"))
    with pytest.raises(ValueError, match="toy.no-such-claim"):
        _payload(tmp_path, reg)


def test_finding_partly_run_is_marked_incomplete(tmp_path):
    reg = fake_registry()
    reg.add_finding(Finding("000.two", "000", "two claims", ("toy.privacy", "toy.rate"), "r", "s"))
    ctx = CheckContext(out_dir=tmp_path)
    records = [claim_record(c, r) for c, r in run_claims(reg.claims[:1], ctx)]
    payload = build_payload(records, profile="quick", seed=1, provenance={}, findings=reg.findings)
    (finding,) = payload["findings"]  # the other finding has no claim in this run: left out
    assert finding["complete"] is False and finding["claims"][1]["line"] == "not run in this report"


def test_provenance_block(tmp_path):
    prov = _payload(tmp_path)["provenance"]
    assert prov["seed"] == 20261121 and prov["profile"] == "quick" and prov["wall_seconds"] == 1.5
    assert {"numpy", "scipy", "jinja2", "tqdm"} <= set(prov["libraries"])
    assert prov["commit"] is None or len(prov["commit"]) == 40
    assert prov["command"][-1] == "verify"


def test_power_shown_when_present():
    rec = {
        "verdict": "confirmed",
        "observed": 1.0,
        "bound": 2.0,
        "direction": "at_most",
        "margin": 1.0,
        "method": "exact",
        "power": {"share": 0.75, "mutants": 4, "detects": "sensitivity x0.8", "misses": "sensitivity x0.9"},
    }
    assert verdict_line(rec).endswith("detects sensitivity x0.8; misses sensitivity x0.9")
    assert "detects" not in verdict_line(dict(rec, power=None))


def test_html_is_self_contained(tmp_path):
    write_report(_payload(tmp_path), tmp_path)
    html = (tmp_path / "report.html").read_text()
    assert 'src="data:image/png;base64,' in html
    assert "src=\"http" not in html and "href=\"http" not in html and "<link" not in html
    assert html.index('id="findings"') < html.index('id="claims"') < html.index('id="self-tests"')


def test_paper_of():
    assert paper_of("[004 Lemma D.4]") == "004"
    assert paper_of("[000 Def. 2] [002 Def. 3]") == "000"
    assert paper_of("") == "other"
