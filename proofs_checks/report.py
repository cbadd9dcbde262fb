"""The verification report: ``report.json`` and ``report.md`` (figures beside them)."""

from __future__ import annotations

import datetime as _dt
import json
from pathlib import Path

from .model import VERDICTS
from .jsonable import to_jsonable

__all__ = ["claim_record", "write_report", "verdict_line"]

#: The fixed fields of a :class:`~proofs_checks.model.Result` copied into each claim record.
RESULT_FIELDS = ("verdict", "observed", "bound", "direction", "margin", "method", "reading")


def claim_record(claim, result):
    """The JSON record of one claim and its result.

    Besides the claim's fields and the free evidence: ``observed`` against ``bound`` with its
    ``direction`` and ``margin``, the ``method`` and ``reading`` of the check, and ``seed``, the
    entropy ``[run seed, claim key]`` of the claim's seed sequence.
    """
    record = {"id": claim.id, "source": claim.source, "statement": claim.statement, "kind": claim.kind,
              "algorithm": claim.algorithm, "variant": claim.variant, "scope": claim.scope}
    record.update({name: getattr(result, name) for name in RESULT_FIELDS})
    record.update({"evidence": result.evidence, "figures": list(result.figures), "seed": result.seed,
                   "seconds": round(result.seconds, 4)})
    return to_jsonable(record)


def verdict_line(record):
    """One line: "observed X against bound Y (direction), margin Z — method"."""
    parts = []
    if record.get("observed") is not None and record.get("bound") is not None:
        comparison = f"observed {_fmt(record['observed'])} against bound {_fmt(record['bound'])}"
        if record.get("direction"):
            comparison += f" ({record['direction'].replace('_', ' ')})"
        if record.get("margin") is not None:
            comparison += f", margin {_fmt(record['margin'])}"
        parts.append(comparison)
    elif record.get("observed") is not None:
        parts.append(f"observed {_fmt(record['observed'])}")
    if record.get("method"):
        parts.append(record["method"])
    return " — ".join(parts) if parts else "no single number compared (see the evidence)"


def _fmt(value):
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_fmt(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_fmt(v) for v in value) + "]"
    return str(value)


def write_report(records, out_dir, *, profile, seed, algorithms=()):
    """Write ``report.json`` and ``report.md`` into ``out_dir``; return both paths."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    counts = {v: sum(r["verdict"] == v for r in records) for v in VERDICTS}
    payload = {
        "generated": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "profile": profile, "seed": seed, "summary": counts,
        "algorithms": [to_jsonable({"id": a.id, "source": a.source, "summary": a.summary,
                                    "variants": list(a.variants)}) for a in algorithms],
        "claims": records,
    }
    json_path = out / "report.json"
    json_path.write_text(json.dumps(payload, indent=2) + "\n")

    lines = ["# Verification report", "",
             f"Profile `{profile}`, seed `{seed}`, generated {payload['generated']}.", "",
             f"**{counts['confirmed']} confirmed, {counts['refuted']} refuted, "
             f"{counts['inconclusive']} inconclusive** of {len(records)} claims.", "",
             "| claim | kind | source | verdict | seconds |", "|---|---|---|---|---|"]
    for r in records:
        lines.append(f"| `{r['id']}` | {r['kind']} | {r['source']} | **{r['verdict']}** | {r['seconds']:.2f} |")
    lines.append("")
    for r in records:
        lines += [f"## `{r['id']}`: {r['verdict']}", "", f"*{r['source']}* ({r['kind']}): {r['statement']}", "",
                  f"**{r['verdict']}**: {verdict_line(r)}", ""]
        if r.get("reading"):
            lines += [f"Reading: {r['reading']}", ""]
        for key, value in r["evidence"].items():
            lines.append(f"- {key}: {_fmt(value)}")
        for fig in r["figures"]:
            lines += ["", f"![{r['id']}]({fig})"]
        lines.append("")
    md_path = out / "report.md"
    md_path.write_text("\n".join(lines))
    return json_path, md_path
