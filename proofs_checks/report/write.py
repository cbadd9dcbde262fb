"""Writing the three outputs, and removing the figures a previous report left behind."""

from __future__ import annotations

import json
from pathlib import Path

from .html import render_html
from .markdown import render_markdown

__all__ = ["SCHEMA_PATH", "remove_stale_figures", "write_report"]

#: JSON Schema of ``report.json`` (draft 2020-12).
SCHEMA_PATH = Path(__file__).with_name("report.schema.json")


def write_report(payload, out_dir):
    """Write ``report.json``, ``report.md`` and ``report.html`` into ``out_dir``; return the three paths.

    Each file is written to a temporary name and renamed, so an interrupted write never leaves
    a truncated report.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    texts = {"report.json": json.dumps(payload, indent=2, allow_nan=False) + "\n",
             "report.md": render_markdown(payload),
             "report.html": render_html(payload, out)}
    paths = []
    for name, text in texts.items():
        path = out / name
        tmp = path.with_name(name + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)
        paths.append(path)
    return tuple(paths)


def remove_stale_figures(out_dir):
    """Delete the figures listed by an earlier ``report.json`` in ``out_dir``; return how many.

    Only files the earlier report names, inside ``out_dir``, are removed: a figure that this
    run no longer draws must not sit beside the new report as if it belonged to it.
    """
    out = Path(out_dir).resolve()
    try:
        old = json.loads((out / "report.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return 0
    removed = 0
    for record in old.get("claims", []) if isinstance(old, dict) else []:
        for fig in record.get("figures", []) if isinstance(record, dict) else []:
            path = (out / fig).resolve()
            if out in path.parents and path.is_file():
                path.unlink()
                removed += 1
    return removed
