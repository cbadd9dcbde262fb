"""``report.md``: the report payload as Markdown, with the same first screen as ``report.html``.

A table of contents, the verdict grid per paper and the legend of the verdicts, then the findings by
paper and severity (:mod:`.overview`), each with its key number and first figure; every claim id links
to the claim's section (an ``<a id="claim-...">`` anchor, as in the HTML page).
"""

from __future__ import annotations

from ..model import VERDICTS
from .bibliography import paper_label
from .overview import SEVERITIES, VERDICT_MEANINGS, counts_line, overview
from .records import fmt, verdict_line

__all__ = ["render_markdown"]

#: The verdict grid's columns: what is wrong first (as in the HTML page).
_GRID_VERDICTS = ("refuted", "inconclusive", "vacuous", "confirmed", "error")


def _claim_link(claim_id):
    return f"[`{claim_id}`](#claim-{claim_id})"


def _claim_section(r):
    lines = [
        f'<a id="claim-{r["id"]}"></a>',
        "",
        f"### `{r['id']}`: {r['verdict']}",
        "",
        f"*{r['source']}* ({r['kind']}, {r['scope']}): {r['statement']}",
        "",
        f"**{verdict_line(r)}**",
        "",
    ]
    if r.get("reading"):
        lines += [f"Reading: {r['reading']}", ""]
    details = [f"seed `{r['seed']}`"] + ([f"{r['seconds']:.2f} s"] if "seconds" in r else [])
    lines += [", ".join(details), ""]
    if r["evidence"]:
        record = f" ({r['evidence_kind']})" if r.get("evidence_kind") else ""
        lines += [f"<details><summary>evidence{record}</summary>", ""]
        for key, value in r["evidence"].items():
            text = fmt(value)
            if "\n" in text:
                lines += [f"- {key}:", "", "```", text.rstrip(), "```", ""]
            else:
                lines.append(f"- {key}: {text}")
        lines += ["", "</details>", ""]
    for fig in r["figures"]:
        lines += [f"![{r['id']}]({fig})", ""]
    return lines


def _claim_table(records):
    lines = [
        "| claim | paper | kind | source | verdict | observed | bound | margin | power |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in records:
        cells = [fmt(r[k]) if r.get(k) is not None else "" for k in ("observed", "bound", "margin")]
        cells.append(fmt(r["power"]["share"]) if r.get("power") else "")
        lines.append(
            f"| {_claim_link(r['id'])} | {r['paper']} | {r['kind']} | {r['source']} | **{r['verdict']}** | "
            + " | ".join(cells)
            + " |"
        )
    return lines + [""]


def render_markdown(payload):
    """The Markdown text of a report payload (see :func:`~proofs_checks.report.build_payload`)."""
    prov = payload["provenance"]
    claims = [r for r in payload["claims"] if r["scope"] != "self-test"]
    self_tests = [r for r in payload["claims"] if r["scope"] == "self-test"]
    s = payload["summary"]
    lines = [
        "# Verification report",
        "",
        f"{len(claims)} claims about the papers: **{counts_line(s['claims']) or 'none run'}**"
        + (f"; {len(self_tests)} self-tests of the tools: {counts_line(s['self_tests'])}" if self_tests else "")
        + f". Profile `{payload['profile']}`, seed `{payload['seed']}`.",
        "",
    ]
    if payload["interrupted"]:
        lines += [f"**Interrupted**: {len(payload['not_run'])} claims not run.", ""]
    view = overview(payload)
    lines += _contents(view, bool(self_tests)) + _overview_section(view) + _findings_section(view)

    lines += [
        '<a id="summary"></a>',
        "",
        "## Summary by paper and kind",
        "",
        "| paper | kind | " + " | ".join(VERDICTS) + " | total |",
        "|---|---|" + "---|" * (len(VERDICTS) + 1),
    ]
    for row in s["by_paper_and_kind"]:
        lines.append(
            f"| {paper_label(row['paper'])} | {row['kind']} | "
            + " | ".join(str(row[v]) for v in VERDICTS)
            + f" | {row['total']} |"
        )
    lines += ["", '<a id="papers"></a>', "", "## Papers", ""]
    for p in payload["papers"]:
        lines.append(f"- **{p['id']}**: {', '.join(p['authors'])}. *{p['title']}*. {p['note']}")
    lines += [
        "",
        '<a id="claims"></a>',
        "",
        "## Claims",
        "",
        "One line per claim: the verdict, observed against bound, the margin "
        "(positive when the claim holds), the method and, once measured, the check's power.",
        "",
    ]
    lines += _claim_table(claims)
    for r in claims:
        lines += _claim_section(r)
    if self_tests:
        lines += [
            '<a id="self-tests"></a>',
            "",
            "## Self-tests of the tools",
            "",
            "Calibration of the project's own auditor against mechanisms of known epsilon; no statement of a paper.",
            "",
        ]
        lines += _claim_table(self_tests)
        for r in self_tests:
            lines += _claim_section(r)
    lines += [
        '<a id="provenance"></a>',
        "",
        "## Provenance",
        "",
        f"- version {prov['version']}, commit `{prov['commit']}`"
        + ("" if prov["clean"] is None else (" (clean tree)" if prov["clean"] else " (**tracked files modified**)")),
        f"- Python {prov['python']} on {prov['platform']}",
        "- libraries: " + ", ".join(f"{k} {v}" for k, v in prov["libraries"].items()),
        f"- command: `{' '.join(prov['command'])}`",
        f"- seed {prov['seed']}, profile {prov['profile']}",
    ]
    if prov.get("wall_seconds") is not None:
        lines.append(f"- wall time {prov['wall_seconds']} s, generated {prov['generated']}")
    return "\n".join(lines) + "\n"


def _contents(view, has_self_tests):
    by_paper = ", ".join(f"[{g['paper']}](#findings-{g['paper']})" for g in view["groups"])
    entries = [
        "[Overview](#overview)",
        "[Findings](#findings)" + (f" ({by_paper})" if by_paper else ""),
        "[Summary by paper and kind](#summary)",
        "[Papers](#papers)",
        "[Claims](#claims)",
        *(["[Self-tests](#self-tests)"] if has_self_tests else []),
        "[Provenance](#provenance)",
    ]
    return ["**Contents:** " + " · ".join(entries), ""]


def _overview_section(view):
    lines = [
        '<a id="overview"></a>',
        "",
        "## Overview",
        "",
        "| paper | " + " | ".join(_GRID_VERDICTS) + " | total | findings |",
        "|---|" + "---:|" * (len(_GRID_VERDICTS) + 1) + "---|",
    ]
    groups = {g["paper"]: g["findings"] for g in view["groups"]}
    for row in view["grid"]:
        found = groups.get(row["paper"], [])
        classes = ", ".join(f"{n} {s}" for s in SEVERITIES if (n := sum(f["severity"] == s for f in found)))
        cell = f"[{len(found)}](#findings-{row['paper']}): {classes}" if found else "none"
        lines.append(
            f"| {paper_label(row['paper'])} | "
            + " | ".join(str(row[v]) for v in _GRID_VERDICTS)
            + f" | {row['total']} | {cell} |"
        )
    lines += ["", "What the verdicts mean:", ""]
    lines += [f"- **{word}**: {VERDICT_MEANINGS[word]}" for word in (*_GRID_VERDICTS, "no violation found")]
    lines += [
        "- **severity** of a finding, from its refuted claims' kind: "
        + " > ".join(
            f"*{s}* ({kinds})" for s, kinds in zip(SEVERITIES, ("privacy", "inequality, sensitivity, rate", "formula"))
        )
        + f"; *{SEVERITIES[-1]}* last.",
        "",
    ]
    return lines


def _findings_section(view):
    lines = ['<a id="findings"></a>', "", "## Findings", ""]
    if not view["groups"]:
        return lines + ["No headline finding is registered for the claims of this run.", ""]
    lines += ["By paper, most severe first; each with its key number and its first figure.", ""]
    for group in view["groups"]:
        lines += [f'<a id="findings-{group["paper"]}"></a>', "", f"### {paper_label(group['paper'])}", ""]
        for f in group["findings"]:
            lead = f"{_claim_link(f['lead']['id'])}: " if f["lead"] else ""
            lines += [
                f'<a id="finding-{f["id"]}"></a>',
                "",
                f"#### [{f['severity']}] {f['title']}",
                "",
                f"{lead}**{f['key_line']}**",
                "",
            ]
            if f["figure"]:
                lines += [f"![{f['id']}]({f['figure']})", ""]
            lines += [
                f"*{paper_label(f['paper'])}* — `{f['id']}`",
                "",
                f["summary"],
                "",
                f"Reading: {f['reading']}",
                "",
            ]
            lines += [f"- {_claim_link(c['id'])}: {c['line']}" for c in f["claims"]] + [""]
    return lines
