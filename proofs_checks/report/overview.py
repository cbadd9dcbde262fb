"""The report's first screen: a verdict grid per paper, the findings by paper and severity, a legend.

Everything here is derived, at rendering time, from fields the payload already holds (the claims'
``kind`` and ``verdict``, the findings' claim lists, the figures): ``report.json`` does not change.

Severity of a finding
---------------------
A finding is ranked by the most severe of its *refuted* claims, by the claim's ``kind``:

1. ``privacy broken``: a refuted claim of kind ``privacy`` (a mechanism as printed is not as private
   as stated);
2. ``bound false``: a refuted claim of kind ``inequality``, ``sensitivity`` or ``rate`` (a stated
   bound, sensitivity or rate does not hold, though no privacy claim falls with it);
3. ``constant or notation``: a refuted claim of kind ``formula`` (a printed constant, display,
   derivation step or typo);
4. ``not refuted in this run``: no claim of the finding is refuted at this run's profile (its
   claims are inconclusive or hold); it comes last.

Within a paper, findings of the same severity keep the order their claim sets registered them.
"""

from __future__ import annotations

from typing import Any, Mapping

from ..model import VERDICTS
from .records import verdict_line

__all__ = [
    "SEVERITIES",
    "SEVERITY_OF_KIND",
    "VERDICT_MEANINGS",
    "counts_line",
    "finding_severity",
    "key_line",
    "overview",
]

#: The severity classes, most severe first (see the module docstring).
SEVERITIES = ("privacy broken", "bound false", "constant or notation", "not refuted in this run")

#: The severity a refuted claim of each kind gives its finding.
SEVERITY_OF_KIND = {
    "privacy": "privacy broken",
    "inequality": "bound false",
    "sensitivity": "bound false",
    "rate": "bound false",
    "formula": "constant or notation",
}

#: What each verdict word means, for the report's legend; ``no violation found`` is the auditor's own word.
VERDICT_MEANINGS = {
    "refuted": "the check found the statement false: an exact computation, a counterexample, or a confidence "
    "bound beyond the stated bound",
    "confirmed": "the statement holds on everything the check computed (exactly, or within the named tolerance "
    "or confidence)",
    "inconclusive": "the measurement can neither refute nor confirm at the stated confidence (an interval "
    "straddles the bound, or a statistical audit that can only refute found nothing)",
    "vacuous": "the statement holds but no implementation could break it (an Omega(.) with no constant): "
    "the check has no power",
    "error": "the check itself raised; a bug of the check or of the code, never a verdict on a paper",
    "no violation found": "the auditor's word for an audit that found no counterexample; in the claims it "
    "becomes confirmed when the audit is exact and inconclusive when it is statistical",
}


def counts_line(counts: Mapping[str, int]) -> str:
    """The non-zero verdict counts, in the order of the verdict words.

    Parameters
    ----------
    counts : dict
        Verdict -> number of claims (the payload's ``summary["claims"]``).

    Returns
    -------
    str
        ``"125 confirmed, 34 refuted"``; ``""`` when every count is zero.

    Examples
    --------
    >>> counts_line({"confirmed": 2, "refuted": 0, "vacuous": 5, "error": 0})
    '2 confirmed, 5 vacuous'
    """
    return ", ".join(f"{counts[v]} {v}" for v in VERDICTS if counts.get(v))


def key_line(record: Mapping[str, Any]) -> str:
    """A claim's verdict with its key number only: observed against bound and the margin, no method.

    Parameters
    ----------
    record : dict
        A claim's record.

    Returns
    -------
    str
        The start of :func:`~proofs_checks.report.verdict_line`.

    Examples
    --------
    >>> key_line({"verdict": "refuted", "observed": 2.0, "bound": 1.0, "direction": "at_most", "margin": -1.0,
    ...           "method": "exact"})
    'refuted: observed 2 against bound 1 (must be at most), margin -1'
    """
    return verdict_line({k: record.get(k) for k in ("verdict", "observed", "bound", "direction", "margin")})


def _severity_of(record):
    return SEVERITY_OF_KIND[record["kind"]] if record["verdict"] == "refuted" else SEVERITIES[-1]


def finding_severity(finding: Mapping[str, Any], records_by_id: Mapping[str, Mapping[str, Any]]) -> str:
    """The severity class of a finding: the most severe of its refuted claims (module docstring).

    Parameters
    ----------
    finding : dict
        A finding of the payload (its ``claims`` list of ``{"id", "verdict", "line"}``).
    records_by_id : dict
        Claim id -> claim record of the run; a claim not run counts as not refuted.

    Returns
    -------
    str
        One of :data:`SEVERITIES`.

    Examples
    --------
    >>> records = {"a": {"kind": "formula", "verdict": "refuted"}, "b": {"kind": "privacy", "verdict": "confirmed"}}
    >>> finding_severity({"claims": [{"id": "a"}, {"id": "b"}]}, records)
    'constant or notation'
    >>> finding_severity({"claims": [{"id": "b"}, {"id": "c"}]}, records)
    'not refuted in this run'
    """
    found = [_severity_of(records_by_id[c["id"]]) for c in finding["claims"] if c["id"] in records_by_id]
    return min(found, key=SEVERITIES.index, default=SEVERITIES[-1])


def _lead_claim(finding, by_id):
    """The claim whose number the finding's one line shows: the first of its most severe refuted ones."""
    run = [by_id[c["id"]] for c in finding["claims"] if c["id"] in by_id]
    return min(run, key=lambda r: SEVERITIES.index(_severity_of(r)), default=None)


def overview(payload: Mapping[str, Any]) -> dict:
    """What the first screen shows, derived from a payload.

    Parameters
    ----------
    payload : dict
        :func:`~proofs_checks.report.build_payload` of a run.

    Returns
    -------
    dict
        ``grid``: one row per paper (``000``, ``002``, ``004``, then ``other``) with its verdict counts
        over the claims about papers (self-tests apart) and ``total``; ``groups``: per paper in the same
        order, ``{"paper", "findings"}`` with each finding (the payload's entry plus ``severity``,
        ``lead`` (the claim record its one line quotes, or ``None``), ``key_line`` and ``figure``, the
        first figure of its claims, or ``None``) ranked by :data:`SEVERITIES`; ``severity_counts``:
        findings per severity class.

    Examples
    --------
    >>> payload = {
    ...     "claims": [{"id": "x", "paper": "002", "scope": "paper", "kind": "privacy", "verdict": "refuted",
    ...                 "observed": 2.0, "bound": 1.0, "direction": "at_most", "margin": -1.0, "figures": []}],
    ...     "findings": [{"id": "002.x", "paper": "002", "claims": [{"id": "x"}]}]}
    >>> view = overview(payload)
    >>> view["grid"][0]["paper"], view["grid"][0]["refuted"], view["groups"][0]["findings"][0]["severity"]
    ('002', 1, 'privacy broken')
    """
    claims = [r for r in payload["claims"] if r["scope"] != "self-test"]
    by_id = {r["id"]: r for r in payload["claims"]}
    papers = sorted({r["paper"] for r in claims} | {f["paper"] for f in payload["findings"]}, key=_paper_order)
    grid = []
    for paper in papers:
        rows = [r for r in claims if r["paper"] == paper]
        if rows:
            grid.append(
                {"paper": paper, **{v: sum(r["verdict"] == v for r in rows) for v in VERDICTS}, "total": len(rows)}
            )
    groups = []
    for paper in papers:
        entries = []
        for finding in payload["findings"]:
            if finding["paper"] != paper:
                continue
            lead = _lead_claim(finding, by_id)
            figures = [fig for c in finding["claims"] if c["id"] in by_id for fig in by_id[c["id"]]["figures"]]
            entries.append(
                {
                    **finding,
                    "severity": finding_severity(finding, by_id),
                    "lead": lead,
                    "key_line": key_line(lead) if lead else "not run in this report",
                    "figure": figures[0] if figures else None,
                }
            )
        entries.sort(key=lambda f: SEVERITIES.index(f["severity"]))  # stable: registration order within a class
        if entries:
            groups.append({"paper": paper, "findings": entries})
    severity_counts = {s: sum(f["severity"] == s for g in groups for f in g["findings"]) for s in SEVERITIES}
    return {"grid": grid, "groups": groups, "severity_counts": severity_counts}


def _paper_order(paper):
    return (paper == "other", paper)
