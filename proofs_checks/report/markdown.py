"""``report.md``: the report payload as Markdown (findings first)."""

from __future__ import annotations

from ..model import VERDICTS
from .bibliography import paper_label
from .records import fmt, verdict_line

__all__ = ["render_markdown"]


def _counts_line(counts):
    return ", ".join(f"{counts[v]} {v}" for v in VERDICTS if counts.get(v))


def _claim_section(r):
    lines = [
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
            f"| `{r['id']}` | {r['paper']} | {r['kind']} | {r['source']} | **{r['verdict']}** | "
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
        f"{len(claims)} claims about the papers: **{_counts_line(s['claims']) or 'none run'}**"
        + (f"; {len(self_tests)} self-tests of the tools: {_counts_line(s['self_tests'])}" if self_tests else "")
        + f". Profile `{payload['profile']}`, seed `{payload['seed']}`.",
        "",
    ]
    if payload["interrupted"]:
        lines += [f"**Interrupted**: {len(payload['not_run'])} claims not run.", ""]

    lines += ["## Findings", ""]
    if not payload["findings"]:
        lines += ["No headline finding is registered for the claims of this run.", ""]
    for f in payload["findings"]:
        lines += [
            f"### {f['title']}",
            "",
            f"*{paper_label(f['paper'])}* — `{f['id']}`",
            "",
            f["summary"],
            "",
            f"Reading: {f['reading']}",
            "",
        ]
        lines += [f"- `{c['id']}`: {c['line']}" for c in f["claims"]] + [""]

    lines += [
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
    lines += ["", "## Papers", ""]
    for p in payload["papers"]:
        lines.append(f"- **{p['id']}**: {', '.join(p['authors'])}. *{p['title']}*. {p['note']}")
    lines += [
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
            "## Self-tests of the tools",
            "",
            "Calibration of the project's own auditor against mechanisms of known epsilon; no statement of a paper.",
            "",
        ]
        lines += _claim_table(self_tests)
        for r in self_tests:
            lines += _claim_section(r)
    lines += [
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
