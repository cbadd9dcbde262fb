"""The whole report as one JSON object (schema: ``report.schema.json`` beside this module)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Collection, Iterable, Mapping, Optional, Sequence

from ..model import KINDS, VERDICTS
from .bibliography import PAPERS
from .records import verdict_line

__all__ = ["SCHEMA_VERSION", "build_payload", "paper_of"]

if TYPE_CHECKING:
    from ..model import Algorithm, Finding

SCHEMA_VERSION = 3
_PAPER_TAG = re.compile(r"\[(\d{3})\b")


def paper_of(source: Optional[str]) -> str:
    """The paper number of a citation tag, or ``"other"`` (a textbook result, the project's tools).

    Parameters
    ----------
    source : str or None
        A claim's source; its first tag ``[NNN ...]`` names the paper.

    Returns
    -------
    str
        The three digits of the first tag, else ``"other"``.

    Examples
    --------
    >>> paper_of("[002 Thm. 8], [002 Assumption 2]")
    '002'
    >>> paper_of("Dwork & Roth, Thm. 3.20")
    'other'
    """
    m = _PAPER_TAG.search(source or "")
    return m.group(1) if m else "other"


def _counts(records):
    return {v: sum(r["verdict"] == v for r in records) for v in VERDICTS}


def _summary_table(records):
    """One row per (paper, kind) with its verdict counts, papers and kinds in their fixed order."""
    papers = sorted({r["paper"] for r in records}, key=lambda p: (p == "other", p))
    rows = []
    for paper in papers:
        for kind in KINDS:
            sel = [r for r in records if r["paper"] == paper and r["kind"] == kind]
            if sel:
                rows.append({"paper": paper, "kind": kind, **_counts(sel), "total": len(sel)})
    return rows


def _finding_entry(finding, by_id):
    claims = []
    for cid in finding.claims:
        r = by_id.get(cid)
        claims.append(
            {
                "id": cid,
                "verdict": r["verdict"] if r else None,
                "line": verdict_line(r) if r else "not run in this report",
            }
        )
    return {
        "id": finding.id,
        "paper": finding.paper,
        "title": finding.title,
        "reading": finding.reading,
        "summary": finding.summary,
        "claims": claims,
        "complete": all(c["verdict"] is not None for c in claims),
    }


def build_payload(
    records: Sequence[Mapping[str, Any]],
    *,
    profile: str,
    seed: int,
    provenance: Mapping[str, Any],
    findings: Iterable[Finding] = (),
    algorithms: Iterable[Algorithm] = (),
    known_claim_ids: Optional[Collection[str]] = None,
    interrupted: bool = False,
    not_run: Iterable[str] = (),
    timings: bool = True,
) -> dict:
    """The report object: findings first, then summary, papers, claims, self-tests, provenance.

    Parameters
    ----------
    records : list of dict
        :func:`~proofs_checks.report.claim_record` of every claim run.
    profile : {"quick", "full"}
        The profile of the run.
    seed : int
        The run seed.
    provenance : dict
        :func:`~proofs_checks.report.provenance.provenance` of the run.
    findings : iterable of Finding
        Headline findings; those with no claim in ``records`` are left out (a partial run).
    algorithms : iterable of Algorithm
        The algorithms the claims are about (listed with their variants).
    known_claim_ids : set of str or None
        Every registered claim id: a finding that names another id is a bug of its claim set
        and raises ``ValueError``.
    interrupted : bool
        A run stopped by Ctrl-C.
    not_run : iterable of str
        The claim ids it did not reach.
    timings : bool
        ``False`` drops every wall time, so that two runs with the same seed diff clean.

    Returns
    -------
    dict
        The payload of schema ``report.schema.json`` (:data:`SCHEMA_VERSION`): ``findings``, ``summary``,
        ``papers``, ``algorithms``, ``claims`` (each record with its ``paper``), ``provenance`` and the run's
        ``profile``, ``seed``, ``interrupted`` and ``not_run``.

    Raises
    ------
    ValueError
        A finding names a claim id outside ``known_claim_ids``.

    Examples
    --------
    >>> from proofs_checks.model import Claim, Result
    >>> from proofs_checks.report import claim_record
    >>> claim = Claim("toy.bound", "[000 Lemma 1]", "x <= 1", "inequality", lambda ctx: Result("confirmed"))
    >>> record = claim_record(claim, Result("refuted", observed=2.0, bound=1.0, direction="at_most"))
    >>> payload = build_payload([record], profile="quick", seed=1, provenance={}, timings=False)
    >>> payload["summary"]["claims"]["refuted"], payload["claims"][0]["paper"], "seconds" in payload["claims"][0]
    (1, '000', False)
    """
    copies = [dict(r, paper=paper_of(r["source"])) for r in records]
    if not timings:
        for r in copies:
            r.pop("seconds", None)
    records = copies
    by_id = {r["id"]: r for r in records}
    entries = []
    for finding in findings:
        if known_claim_ids is not None:
            unknown = [c for c in finding.claims if c not in known_claim_ids]
            if unknown:
                raise ValueError(f"finding {finding.id!r} names unregistered claim ids {unknown}")
        if any(c in by_id for c in finding.claims):
            entries.append(_finding_entry(finding, by_id))
    studied = [r for r in records if r["scope"] != "self-test"]
    self_tests = [r for r in records if r["scope"] == "self-test"]
    return {
        "schema_version": SCHEMA_VERSION,
        "profile": profile,
        "seed": seed,
        "interrupted": bool(interrupted),
        "not_run": list(not_run),
        "findings": entries,
        "summary": {
            "claims": _counts(studied),
            "self_tests": _counts(self_tests),
            "by_paper_and_kind": _summary_table(studied),
        },
        "papers": [PAPERS[p] for p in sorted(PAPERS)],
        "algorithms": [
            {"id": a.id, "source": a.source, "summary": a.summary, "variants": list(a.variants)} for a in algorithms
        ],
        "claims": records,
        "provenance": provenance,
    }
