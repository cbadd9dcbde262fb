"""``report.html``: one self-contained static page (Jinja2), readable offline.

The first screen answers what is wrong in the papers: a table of contents, the verdict grid per paper
(with its findings per severity class) beside the legend of the verdicts, then the findings by paper,
most severe first, each with its key number and first figure (:mod:`.overview`).  Below them the
summary by paper and kind, the papers, and the claims table, whose columns keep to the window's width
(a laptop's 1,000 px included: the "why" column wraps).

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
from .overview import SEVERITIES, VERDICT_MEANINGS, overview
from .records import fmt, verdict_line

__all__ = ["render_html"]

#: The verdict grid's columns: what is wrong first.
GRID_VERDICTS = ("refuted", "inconclusive", "vacuous", "confirmed", "error")


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
    """The HTML text of a report payload; figures are read from ``out_dir`` and inlined.

    Parameters
    ----------
    payload : dict
        :func:`~proofs_checks.report.build_payload` of a run.
    out_dir : str or os.PathLike
        The report folder; figures named by relative paths are read from it.

    Returns
    -------
    str
        The page; a figure that cannot be read is named as missing where it would be shown.
    """
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
        grid_verdicts=GRID_VERDICTS,
        headline_verdicts=[v for v in VERDICTS if payload["summary"]["claims"].get(v)],
        view=overview(payload),
        severities=SEVERITIES,
        meanings={word: VERDICT_MEANINGS[word] for word in (*GRID_VERDICTS, "no violation found")},
        figures=figures,
        claims=[r for r in payload["claims"] if r["scope"] != "self-test"],
        self_tests=[r for r in payload["claims"] if r["scope"] == "self-test"],
    )
