"""Writing the three outputs, and removing the figures a previous report left behind."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Mapping, Union

from .html import render_html
from .markdown import render_markdown

__all__ = ["SCHEMA_PATH", "remove_stale_figures", "write_report"]

#: JSON Schema of ``report.json`` (draft 2020-12).
SCHEMA_PATH = Path(__file__).with_name("report.schema.json")


def write_report(payload: Mapping[str, Any], out_dir: Union[str, os.PathLike]) -> tuple[Path, Path, Path]:
    """Write ``report.json``, ``report.md`` and ``report.html`` into ``out_dir``; return the three paths.

    Each file is written to a temporary name and renamed, so an interrupted write never leaves
    a truncated report.

    Parameters
    ----------
    payload : dict
        :func:`~proofs_checks.report.build_payload` of the run (with its provenance block).
    out_dir : str or os.PathLike
        The report folder, made if missing; the check's figures are read from it (relative paths).

    Returns
    -------
    tuple of pathlib.Path
        The paths of ``report.json``, ``report.md`` and ``report.html``.

    Raises
    ------
    ValueError
        The payload holds a non-finite float (strict JSON; :func:`~proofs_checks.jsonable.to_jsonable`
        writes them as strings).

    Examples
    --------
    >>> import tempfile
    >>> from proofs_checks.report import build_payload
    >>> from proofs_checks.report.provenance import provenance
    >>> payload = build_payload([], profile="quick", seed=1,
    ...                         provenance=provenance(command=["verify"], seed=1, profile="quick"))
    >>> [path.name for path in write_report(payload, tempfile.mkdtemp())]
    ['report.json', 'report.md', 'report.html']
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    texts = {
        "report.json": json.dumps(payload, indent=2, allow_nan=False) + "\n",
        "report.md": render_markdown(payload),
        "report.html": render_html(payload, out),
    }
    paths = []
    for name, text in texts.items():
        path = out / name
        tmp = path.with_name(name + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)
        paths.append(path)
    json_path, markdown_path, html_path = paths
    return json_path, markdown_path, html_path


def remove_stale_figures(out_dir: Union[str, os.PathLike]) -> int:
    """Delete the figures listed by an earlier ``report.json`` in ``out_dir``; return how many.

    Only files the earlier report names, inside ``out_dir``, are removed: a figure that this
    run no longer draws must not sit beside the new report as if it belonged to it.

    Parameters
    ----------
    out_dir : str or os.PathLike
        The report folder of the run about to write.

    Returns
    -------
    int
        The number of files removed (0 when there is no readable earlier ``report.json``).

    Examples
    --------
    >>> import json, pathlib, tempfile
    >>> out = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (out / "old.png").write_bytes(b"")
    >>> _ = (out / "report.json").write_text(json.dumps({"claims": [{"figures": ["old.png", "../x.png"]}]}))
    >>> remove_stale_figures(out), (out / "old.png").exists()
    (1, False)
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
