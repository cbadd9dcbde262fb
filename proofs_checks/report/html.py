"""``report.html``: one self-contained static page (Jinja2), readable offline.

Figures are inlined as ``data:`` URIs, the style and the script are in the page, and nothing
is fetched from the network.  The claim table sorts on a click on its header and filters by
text, verdict and scope; the evidence of each claim folds away (``<details>``).
"""

from __future__ import annotations

import base64
import json
import mimetypes
from pathlib import Path

from ..model import VERDICTS
from .bibliography import paper_label
from .records import fmt, verdict_line

__all__ = ["render_html"]


def _data_uri(path, base):
    p = Path(path)
    if not p.is_absolute():
        p = Path(base) / p
    if not p.is_file():
        return None
    mime = mimetypes.guess_type(p.name)[0] or "application/octet-stream"
    return f"data:{mime};base64," + base64.b64encode(p.read_bytes()).decode("ascii")


def _environment():
    from jinja2 import Environment, PackageLoader, select_autoescape

    env = Environment(
        loader=PackageLoader("proofs_checks.report", "templates"),
        autoescape=select_autoescape(["html", "j2"]),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["fmt"] = lambda v: "" if v is None else fmt(v)
    env.filters["paper_label"] = paper_label
    env.filters["verdict_line"] = verdict_line
    env.filters["pretty"] = lambda v: v if isinstance(v, str) else json.dumps(v, indent=1)
    return env


def render_html(payload, out_dir):
    """The HTML text of a report payload; figures are read from ``out_dir`` and inlined."""
    figures = {}
    for r in payload["claims"]:
        for fig in r["figures"]:
            uri = _data_uri(fig, out_dir)
            if uri is not None:
                figures[fig] = uri
    template = _environment().get_template("report.html.j2")
    return template.render(
        report=payload,
        verdicts=VERDICTS,
        figures=figures,
        claims=[r for r in payload["claims"] if r["scope"] != "self-test"],
        self_tests=[r for r in payload["claims"] if r["scope"] == "self-test"],
    )
