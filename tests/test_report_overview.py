"""The report's first screen: verdict grid per paper, findings by paper and severity, legend, links, counts."""

import re

import pytest

from proofs_checks.cli import main
from proofs_checks.model import KINDS, VERDICTS, CheckContext, Claim, Finding, Result
from proofs_checks.report import build_payload, claim_record, write_report
from proofs_checks.report.overview import (
    SEVERITIES,
    SEVERITY_OF_KIND,
    VERDICT_MEANINGS,
    finding_severity,
    overview,
)
from proofs_checks.report.provenance import provenance
from proofs_checks.runner import run_claims

from ._fake_registry import fake_registry


def _fixed(verdict, kind):
    def check(ctx):
        return Result(verdict, observed=2.0, bound=1.0, direction="at_most", evidence_kind="bound_search")

    return check


def _registry():
    """The fake registry plus findings of every severity, registered out of paper and severity order."""
    claims = [
        Claim("toy.formula", "[000 Eq. 3]", "a printed constant", "formula", _fixed("refuted", "formula")),
        Claim("toy.privacy.printed", "[000 Thm. 1]", "printed is eps-DP", "privacy", _fixed("refuted", "privacy")),
        Claim("toy.bound", "[004 Lemma 2]", "x <= 1", "inequality", _fixed("refuted", "inequality")),
        Claim("toy.vacuous", "[000 Thm. 2]", "Omega(1/n)", "inequality", _fixed("vacuous", "inequality")),
    ]
    reg = fake_registry(extra=claims)
    for finding in (
        Finding("004.bound", "004", "A bound of 004 is false", ("toy.bound",), "r", "s"),
        Finding("000.constant", "000", "A constant of 000 is misprinted", ("toy.formula",), "r", "s"),
        Finding("002.holds", "002", "Nothing refuted here", ("toy.rate",), "r", "s"),
        Finding("000.privacy", "000", "000's printed mechanism is not private", ("toy.privacy.printed",), "r", "s"),
        Finding("000.figure", "000", "A finding with a figure", ("toy.formula", "toy.privacy"), "r", "s"),
    ):
        reg.add_finding(finding)
    return reg


@pytest.fixture
def payload(tmp_path):
    reg = _registry()
    ctx = CheckContext(out_dir=tmp_path)
    records = [claim_record(c, r) for c, r in run_claims(reg.claims, ctx)]
    return build_payload(
        records,
        profile="quick",
        seed=ctx.seed,
        findings=reg.findings,
        provenance=provenance(command=["verify"], seed=ctx.seed, profile="quick"),
    )


def test_every_kind_has_a_severity_and_every_verdict_a_meaning():
    assert set(SEVERITY_OF_KIND) == set(KINDS)
    assert set(SEVERITY_OF_KIND.values()) | {SEVERITIES[-1]} == set(SEVERITIES)
    assert set(VERDICT_MEANINGS) == set(VERDICTS) | {"no violation found"}


@pytest.mark.parametrize(
    "kinds, verdicts, severity",
    [
        (("formula", "privacy"), ("refuted", "refuted"), "privacy broken"),
        (("formula", "sensitivity"), ("refuted", "refuted"), "bound false"),
        (("rate",), ("refuted",), "bound false"),
        (("formula", "privacy"), ("refuted", "confirmed"), "constant or notation"),
        (("privacy",), ("inconclusive",), "not refuted in this run"),
    ],
)
def test_severity_is_the_worst_refuted_kind(kinds, verdicts, severity):
    records = {f"c{i}": {"kind": k, "verdict": v} for i, (k, v) in enumerate(zip(kinds, verdicts))}
    assert finding_severity({"claims": [{"id": cid} for cid in records]}, records) == severity


def test_grid_and_groups_in_paper_then_severity_order(payload):
    view = overview(payload)
    assert [row["paper"] for row in view["grid"]] == ["000", "002", "004"]
    assert view["grid"][0]["refuted"] == 2 and view["grid"][0]["vacuous"] == 1
    groups = {g["paper"]: [(f["id"], f["severity"]) for f in g["findings"]] for g in view["groups"]}
    assert list(groups) == ["000", "002", "004"]
    assert groups["000"] == [
        ("000.privacy", "privacy broken"),
        ("000.constant", "constant or notation"),  # registered before 000.figure: kept first in its class
        ("000.figure", "constant or notation"),
    ]
    assert groups["002"] == [("002.toy-sensitivity", "bound false"), ("002.holds", "not refuted in this run")]
    assert groups["004"] == [("004.bound", "bound false")]
    by_id = {f["id"]: f for g in view["groups"] for f in g["findings"]}
    assert by_id["000.figure"]["figure"] == "figures/toy.png" and by_id["000.constant"]["figure"] is None
    assert by_id["000.figure"]["lead"]["id"] == "toy.formula"
    assert by_id["000.privacy"]["key_line"] == "refuted: observed 2 against bound 1 (must be at most), margin -1"


def test_headline_has_no_dangling_separator(payload, tmp_path):
    """Vacuous is the last non-zero verdict (no error): no ', ;' as the old headline printed."""
    assert payload["summary"]["claims"]["vacuous"] and not payload["summary"]["claims"]["error"]
    write_report(payload, tmp_path)
    html = re.sub(r"<[^>]+>", "", (tmp_path / "report.html").read_text())
    headline = re.search(r"claims about the papers:(.*?)seed", html, re.S).group(1)
    assert ", ;" not in " ".join(headline.split()) and "vacuous; 1 self-tests" in " ".join(headline.split())
    md = (tmp_path / "report.md").read_text()
    assert "1 vacuous**; 1 self-tests of the tools: 1 confirmed." in md


def test_html_first_screen_order_and_figure_unfolded(payload, tmp_path):
    write_report(payload, tmp_path)
    html = (tmp_path / "report.html").read_text()
    marks = ['id="toc"', 'id="verdict-grid"', 'id="legend"', 'id="findings-000"', 'id="findings-002"']
    marks += ['id="findings-004"', 'id="summary"', 'id="claim-table"']
    assert [html.index(m) for m in marks] == sorted(html.index(m) for m in marks)
    figure_article = html[html.index('id="finding-000.figure"') :]
    figure_article = figure_article[: figure_article.index("</article>")]
    assert figure_article.index("<img") < figure_article.index("<details>")  # shown, not folded
    for target in re.findall(r'href="#([^"]+)"', html):
        assert f'id="{target}"' in html, target


def test_markdown_links_resolve(payload, tmp_path):
    write_report(payload, tmp_path)
    md = (tmp_path / "report.md").read_text()
    anchors = set(re.findall(r'<a id="([^"]+)"></a>', md))
    targets = set(re.findall(r"\]\(#([^)]+)\)", md))
    assert targets and targets <= anchors
    assert {f"claim-{c['id']}" for c in payload["claims"]} <= targets  # every claim id links to its section
    assert md.index("## Overview") < md.index("## Findings") < md.index("## Claims")
    assert "| [`toy.sensitivity`](#claim-toy.sensitivity) | 002 |" in md
    assert "#### [privacy broken] 000's printed mechanism is not private" in md
    assert "- **vacuous**: " in md and "- **no violation found**: " in md


def test_verify_table_ends_with_counts(monkeypatch, tmp_path, capsys):
    import proofs_checks.registry as registry

    monkeypatch.setattr(registry, "default_registry", _registry)
    main(["verify", "--out", str(tmp_path), "--jobs", "1"])
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[-1] == "7 claims: 1 confirmed, 4 refuted, 1 inconclusive, 1 vacuous; 1 self-tests: 1 confirmed"
    assert lines[0].split() == ["claim", "kind", "verdict"]
    assert len(lines) == 1 + 8 + 1  # the header, one line per claim, then the counts
