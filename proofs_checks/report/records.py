"""One claim's record in the report, and the line that says why it got its verdict."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Optional

from ..evidence import EVIDENCE_KINDS, evidence_kind_of, evidence_problems
from ..jsonable import to_jsonable

__all__ = ["RESULT_FIELDS", "claim_record", "fmt", "verdict_line"]

#: The fixed fields of a :class:`~proofs_checks.model.Result` copied into each claim record.
RESULT_FIELDS = ("verdict", "observed", "bound", "direction", "margin", "method", "reading")

if TYPE_CHECKING:
    from ..model import Claim, Result

_DIRECTION_WORDS = {"at_most": "must be at most", "at_least": "must be at least", "equal": "must equal"}


def claim_record(claim: Claim, result: Result, *, power: Optional[Mapping[str, Any]] = None) -> dict:
    """The JSON record of one claim and its result.

    Besides the claim's fields: ``observed`` against ``bound`` with its ``direction`` and ``margin``,
    the ``method`` and ``reading`` of the check, ``evidence_kind`` (the evidence record, see
    :func:`proofs_checks.evidence.evidence_kind_of`) and the ``evidence`` that follows it, ``seed`` (the
    entropy ``[run seed, claim key]`` of the claim's seed sequence), ``seconds`` and ``power``
    (``{"share", "mutants", "detects", "misses", "not_violations", "out_of_reach"}``: the share of
    the violating mutants its check catches, the mutants proven to satisfy the claim and those
    out of reach at the profile's budget, see :mod:`proofs_checks.power`; ``None`` when not measured).

    Evidence that does not follow its record (an undeclared key, a wrong type, an unknown record) is a
    bug of the check, never a verdict on a paper: the record becomes an ``error`` whose evidence names
    the claim, the key and the expected type, and keeps what the check returned (``invalid_evidence``).

    Parameters
    ----------
    claim : Claim
        The claim.
    result : Result
        Its check's result.
    power : dict or None
        What the claim's mutants show of its check's power (``None``: not measured).

    Returns
    -------
    dict
        The record in plain JSON types (:func:`~proofs_checks.jsonable.to_jsonable`), as ``report.json``
        holds it.

    Examples
    --------
    >>> from proofs_checks.model import Claim, Result
    >>> claim = Claim("toy.bound", "[000 Lemma 1]", "x <= 1", "inequality", lambda ctx: Result("confirmed"))
    >>> record = claim_record(claim, Result("confirmed", observed=0.5, bound=1.0, direction="at_most"))
    >>> record["verdict"], record["margin"], record["evidence_kind"]
    ('confirmed', 0.5, 'bound_search')
    >>> claim_record(claim, Result("confirmed", evidence={"evaluation": 3}))["verdict"]
    'error'
    """
    kind = evidence_kind_of(claim, result)
    record: dict[str, Any] = {
        "id": claim.id,
        "source": claim.source,
        "statement": claim.statement,
        "kind": claim.kind,
        "algorithm": claim.algorithm,
        "variant": claim.variant,
        "scope": claim.scope,
    }
    record.update({name: getattr(result, name) for name in RESULT_FIELDS})
    record.update(
        {
            "evidence_kind": kind,
            "evidence": result.evidence,
            "figures": [str(f) for f in result.figures],
            "seed": result.seed,
            "seconds": round(result.seconds, 4),
            "power": power,
        }
    )
    record = to_jsonable(record)
    problems = (
        evidence_problems(kind, record["evidence"])
        if kind in EVIDENCE_KINDS
        else [f"evidence_kind must be one of {EVIDENCE_KINDS}, got {kind!r}"]
    )
    return _invalid_evidence(record, problems) if problems else record


def _invalid_evidence(record, problems):
    """``record`` turned into an ``error``: its evidence breaks its record (named in the message)."""
    message = f"EvidenceError: claim {record['id']}: " + "; ".join(problems)
    return {
        **record,
        "verdict": "error",
        "method": f"the check's evidence does not follow its record (the check's method: {record['method']})",
        "evidence_kind": "error",
        "evidence": {
            "exception": message,
            "invalid_evidence_kind": str(record["evidence_kind"]),
            "invalid_evidence": record["evidence"],
        },
    }


def verdict_line(record: Mapping[str, Any]) -> str:
    """Why the verdict: observed against bound, margin, method (and power when known).

    Parameters
    ----------
    record : dict
        A claim's record (:func:`claim_record`); missing fields are left out of the line.

    Returns
    -------
    str
        ``"<verdict>: observed ... against bound ... (must be ...), margin ... — method — power"``.

    Examples
    --------
    >>> verdict_line({"verdict": "confirmed", "observed": 0.247, "bound": 0.5, "direction": "at_most",
    ...               "margin": 0.253, "method": "exact"})
    'confirmed: observed 0.247 against bound 0.5 (must be at most), margin 0.253 — exact'
    >>> verdict_line({"verdict": "inconclusive"})
    'inconclusive: no single number compared (see the evidence)'
    """
    parts = []
    if record.get("observed") is not None and record.get("bound") is not None:
        comparison = f"observed {fmt(record['observed'])} against bound {fmt(record['bound'])}"
        if record.get("direction"):
            comparison += f" ({_DIRECTION_WORDS.get(record['direction'], record['direction'])})"
        if record.get("margin") is not None:
            comparison += f", margin {fmt(record['margin'])}"
        parts.append(comparison)
    elif record.get("observed") is not None:
        parts.append(f"observed {fmt(record['observed'])}")
    if record.get("method"):
        parts.append(record["method"])
    if record.get("power") is not None:
        power = record["power"]
        text = f"detects {power['detects']}; misses {power['misses']}"
        if power.get("out_of_reach"):
            text += f" (out of reach at this profile: {', '.join(power['out_of_reach'])})"
        parts.append(text)
    text = " — ".join(parts) if parts else "no single number compared (see the evidence)"
    return f"{record.get('verdict', '?')}: {text}"


def fmt(value):
    """A number or structure in a few significant digits.

    Examples
    --------
    >>> fmt({"a": 1.23456789, "b": [2.0, "x"]})
    '{a: 1.23457, b: [2, x]}'
    """
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {fmt(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(fmt(v) for v in value) + "]"
    return str(value)
