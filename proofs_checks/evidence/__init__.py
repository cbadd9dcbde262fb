"""Evidence records: which keys a Result's evidence may hold, the type of each and what it means.

Each check returns a :class:`~proofs_checks.model.Result` whose ``evidence`` is a dict of the detail
behind its verdict.  Every shape of check has one :class:`~.record.EvidenceRecord` here, listing its
keys (:class:`~.record.Field`: name, JSON type, one-line meaning); the keys every record accepts
(``seeds``, ``seed_policy``, ``power``, ``worst_at``, ``observed_is``, ``variant``, ``note``) are
declared once, in :data:`COMMON_FIELDS`.  The records are closed: a key a record does not declare,
or a value of the wrong type, is an error.

=====================  ==========================================================================
``exact_privacy``      exact privacy over neighbouring datasets (:class:`~proofs_checks.builders.PrivacyTally`)
``bound_search``       adversarial maximum or minimum against a stated bound (``max_search_check``)
``coverage``           coverage of a bound by simulation (``coverage_check``)
``rate_fit``           fitted exponent of an error quantile against the stated rate (``make_rate_check``)
``formula``            formula map or identity: closed forms or float64 against a reference
``exact_audit``        the auditor's exact audit as a claim (``audit.<algorithm>.<variant>``)
``statistical_audit``  the auditor's statistical audit as a claim
``audit_not_run``      an audit claim whose mechanism could not run on any pair
``gray_box``           a gray-box audit of a composed algorithm at realistic parameters (``*.privacy.gray-box*``)
``calibration``        the auditor's calibration self-tests
``error``              the check raised (the runner's record), or its evidence broke its record
=====================  ==========================================================================

Which record a Result follows (:func:`evidence_kind_of`): its ``evidence_kind`` when set (the
builders of :mod:`proofs_checks.builders` and :mod:`proofs_checks.rates.check` set it; a check that
builds its Result itself passes ``evidence_kind=``); otherwise it is inferred from the claim: the
audit adapter's claims by the auditor's method, the claims of :data:`RECORD_OF_CLAIM` by id, the
others by their claim kind (:data:`RECORD_OF_CLAIM_KIND`).  The report checks every claim's
evidence in its JSON form (:func:`check_evidence`) and writes the record's name beside it; the
``evidence`` part of ``report.schema.json`` is generated from these declarations
(:func:`record_schemas`, ``python -m proofs_checks.report.schema``).

A new check declares its evidence by using a builder, or by passing ``evidence_kind=`` to its
Result, and by adding each new key to its record here (a :class:`~.record.Field` in the record's
module: :mod:`.privacy`, :mod:`.searches`, :mod:`.simulations`); a new shape adds a record to
:data:`RECORDS`.  Then regenerate the schema.

Examples
--------
>>> check_evidence("bound_search", {"evaluations": 12, "worst_at": {"n": 3}}, claim_id="x.y")
>>> check_evidence("bound_search", {"evaluation": 12}, claim_id="x.y")
Traceback (most recent call last):
...
proofs_checks.evidence.record.EvidenceError: claim x.y: evidence key 'evaluation' is not declared by the record \
'bound_search' (did you mean 'evaluations'?)
"""

from __future__ import annotations

from .common import COMMON_FIELDS
from .privacy import AUDIT_NOT_RUN, EXACT_AUDIT, EXACT_PRIVACY, GRAY_BOX, STATISTICAL_AUDIT
from .record import EvidenceError, EvidenceRecord, Field
from .searches import BOUND_SEARCH, FORMULA
from .simulations import CALIBRATION, COVERAGE, RATE_FIT
from .types import OBJECT, STRING

__all__ = [
    "COMMON_FIELDS",
    "RECORDS",
    "EVIDENCE_KINDS",
    "RECORD_OF_CLAIM_KIND",
    "RECORD_OF_CLAIM",
    "ERROR",
    "EvidenceError",
    "EvidenceRecord",
    "Field",
    "record",
    "evidence_kind_of",
    "check_evidence",
    "evidence_problems",
    "record_schemas",
]

ERROR = EvidenceRecord(
    "error",
    "the check raised (a bug of the check or of the code under test, never a verdict on a paper), or its "
    "evidence does not follow its record",
    "runner.run_claim (a check that raised) and report.claim_record (evidence that breaks its record)",
    COMMON_FIELDS
    + (
        Field("exception", STRING, "the exception, as 'Type: message'", required=True),
        Field("traceback", STRING, "its traceback"),
        Field("invalid_evidence_kind", STRING, "the record the check's evidence was meant to follow"),
        Field("invalid_evidence", OBJECT, "the evidence the check returned, which does not follow its record"),
    ),
)

#: Every record by name, in the order of the report schema.
RECORDS = {
    r.kind: r
    for r in (
        EXACT_PRIVACY,
        BOUND_SEARCH,
        COVERAGE,
        RATE_FIT,
        FORMULA,
        EXACT_AUDIT,
        STATISTICAL_AUDIT,
        AUDIT_NOT_RUN,
        GRAY_BOX,
        CALIBRATION,
        ERROR,
    )
}
EVIDENCE_KINDS = tuple(RECORDS)

#: The record of a Result that names none, by its claim's kind.
RECORD_OF_CLAIM_KIND = {
    "privacy": "exact_privacy",
    "sensitivity": "bound_search",
    "inequality": "bound_search",
    "formula": "formula",
    "rate": "rate_fit",
}

#: Claims whose check builds its Result without naming a record, and whose shape is not their claim kind's
#: default (rate claims [004 Thm. 1] judged by the coverage of their bound at every n).
RECORD_OF_CLAIM = {"arora.thm1.excess-risk": "coverage", "arora.thm1.excess-risk.printed": "coverage"}

# keyed by an audit's method; looked up with the evidence's "method", None where the evidence is not a dict
_AUDIT_METHODS: dict[str | None, str] = {"exact": "exact_audit", "statistical": "statistical_audit"}


def record(kind: str) -> EvidenceRecord:
    """The record named ``kind``; ``ValueError`` naming the known ones otherwise.

    Examples
    --------
    >>> record("coverage").by_name["covered"].meaning
    'simulations in which the bound held'
    """
    try:
        return RECORDS[kind]
    except (KeyError, TypeError):
        raise ValueError(f"evidence_kind must be one of {EVIDENCE_KINDS}, got {kind!r}") from None


def _is_audit_claim(claim) -> bool:
    """A claim of the audit adapter: ``audit.<algorithm id>.<variant>`` (:mod:`proofs_checks.audit_claims`)."""
    return bool(claim.algorithm) and claim.id == f"audit.{claim.algorithm}.{claim.variant}"


def evidence_kind_of(claim, result) -> str:
    """The record ``result``'s evidence follows: its ``evidence_kind``, else inferred from ``claim``.

    Parameters
    ----------
    claim : Claim
        The claim the result is about.
    result : Result
        Its check's result.

    Returns
    -------
    str
        ``result.evidence_kind`` when set; ``"error"`` for the runner's error results; for the audit
        adapter's claims the record of the auditor's method (``exact_audit``, ``statistical_audit``,
        or ``audit_not_run`` when nothing was audited); :data:`RECORD_OF_CLAIM` by claim id; else
        :data:`RECORD_OF_CLAIM_KIND` of the claim's kind.

    Examples
    --------
    >>> from proofs_checks.model import Claim, Result
    >>> claim = Claim("toy.rate", "[000 Thm. 1]", "rate 1/n", "rate", lambda ctx: Result("confirmed"))
    >>> evidence_kind_of(claim, Result("confirmed"))
    'rate_fit'
    >>> evidence_kind_of(claim, Result("confirmed", evidence_kind="coverage"))
    'coverage'
    """
    if result.evidence_kind is not None:
        return result.evidence_kind
    if result.verdict == "error":
        return "error"
    if _is_audit_claim(claim):
        method = result.evidence.get("method") if isinstance(result.evidence, dict) else None
        return _AUDIT_METHODS.get(method, "audit_not_run")
    if claim.id in RECORD_OF_CLAIM:
        return RECORD_OF_CLAIM[claim.id]
    return RECORD_OF_CLAIM_KIND[claim.kind]


def evidence_problems(kind: str, evidence) -> list:
    """Every departure of ``evidence`` (its JSON form) from the record ``kind``, as messages (empty: it follows)."""
    return record(kind).problems(evidence)


def check_evidence(kind: str, evidence, *, claim_id: str | None = None) -> None:
    """Raise :class:`EvidenceError` (naming the claim, the key, the expected type) unless ``evidence`` follows ``kind``.

    ``evidence`` is in its JSON form (:func:`proofs_checks.jsonable.to_jsonable`), as the report writes it.
    """
    record(kind).check(evidence, claim_id)


def record_schemas() -> dict:
    """``{kind: JSON Schema}`` of every record (the ``evidence_<kind>`` definitions of the report schema)."""
    return {kind: r.schema() for kind, r in RECORDS.items()}
