"""The verification report: ``report.json`` and ``report.md`` (figures beside them)."""

from __future__ import annotations

import datetime as _dt
import json
import math
from pathlib import Path

import numpy as np

__all__ = ["to_jsonable", "claim_record", "write_report"]


def to_jsonable(obj):
    """Numpy scalars and arrays to Python; non-finite floats to strings ("inf", "nan")."""
    if isinstance(obj, dict):
        return {str(k): to_jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [to_jsonable(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return to_jsonable(obj.tolist())
    if isinstance(obj, np.generic):
        return to_jsonable(obj.item())
    if isinstance(obj, float) and not math.isfinite(obj):
        return str(obj)
    if isinstance(obj, Path):
        return str(obj)
    return obj


def claim_record(claim, result):
    """The JSON record of one claim and its result."""
    return to_jsonable({
        "id": claim.id, "source": claim.source, "statement": claim.statement, "kind": claim.kind,
        "algorithm": claim.algorithm, "variant": claim.variant, "verdict": result.verdict,
        "evidence": result.evidence, "figures": list(result.figures), "seed": result.seed,
        "seconds": round(result.seconds, 4),
    })


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
    counts = {v: sum(r["verdict"] == v for r in records) for v in ("confirmed", "refuted", "inconclusive")}
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
        lines += [f"## `{r['id']}`: {r['verdict']}", "", f"*{r['source']}* ({r['kind']}): {r['statement']}", ""]
        for key, value in r["evidence"].items():
            lines.append(f"- {key}: {_fmt(value)}")
        for fig in r["figures"]:
            lines += ["", f"![{r['id']}]({fig})"]
        lines.append("")
    md_path = out / "report.md"
    md_path.write_text("\n".join(lines))
    return json_path, md_path
