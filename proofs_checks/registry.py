"""The registry: every claim and algorithm the project checks, assembled from the claim sets and the audits.

:func:`default_registry` imports every module and subpackage of
:mod:`proofs_checks.claim_sets` (each defines ``register(registry)``), then adds one
auditor-judged privacy claim per auditable algorithm and variant
(:func:`proofs_checks.audit_claims.algorithm_audit_claims`), built from the audit record
(:class:`~proofs_checks.audit_record.AuditRecord`) the algorithm's package registered beside it.
Adding a paper's claims, or an algorithm with its audit, never touches a shared file.
"""

from __future__ import annotations

import importlib
import pkgutil

from .audit_record import AuditRecord
from .model import Algorithm, Claim, Finding

__all__ = ["Registry", "default_registry", "registry_of"]


class Registry:
    """Claims, algorithms, audit records and findings, in registration order; ids are unique."""

    def __init__(self):
        self._claims: dict[str, Claim] = {}
        self._algorithms: dict[str, Algorithm] = {}
        self._findings: dict[str, Finding] = {}
        self._audit_records: dict[str, AuditRecord] = {}

    def add_finding(self, finding: Finding) -> Finding:
        """Register a headline finding; its claims are checked to exist when the report is built."""
        if finding.id in self._findings:
            raise ValueError(f"finding id {finding.id!r} registered twice")
        self._findings[finding.id] = finding
        return finding

    @property
    def findings(self) -> list[Finding]:
        return list(self._findings.values())

    def add_claim(self, claim: Claim) -> Claim:
        if claim.id in self._claims:
            raise ValueError(f"claim id {claim.id!r} registered twice")
        self._claims[claim.id] = claim
        return claim

    def add_algorithm(self, algorithm: Algorithm) -> Algorithm:
        if algorithm.id in self._algorithms:
            raise ValueError(f"algorithm id {algorithm.id!r} registered twice")
        self._algorithms[algorithm.id] = algorithm
        return algorithm

    def add_audit_record(self, record: AuditRecord) -> AuditRecord:
        """Register the audit record of one algorithm variant (checked against the algorithms by
        :func:`~proofs_checks.audit_record.audit_record_gaps` once every claim set has registered)."""
        if not isinstance(record, AuditRecord):
            raise TypeError(f"record must be an AuditRecord, got {type(record).__name__}")
        if record.claim_id in self._audit_records:
            raise ValueError(f"audit record {record.claim_id!r} registered twice")
        self._audit_records[record.claim_id] = record
        return record

    @property
    def audit_records(self) -> list[AuditRecord]:
        return list(self._audit_records.values())

    def audit_record(self, algorithm_id: str, variant: str) -> AuditRecord | None:
        """The audit record of ``algorithm_id`` / ``variant``, or None when none is registered."""
        return self._audit_records.get(f"audit.{algorithm_id}.{variant}")

    @property
    def claims(self) -> list[Claim]:
        return list(self._claims.values())

    @property
    def algorithms(self) -> list[Algorithm]:
        return list(self._algorithms.values())

    def claim(self, claim_id: str) -> Claim:
        try:
            return self._claims[claim_id]
        except KeyError:
            raise KeyError(f"unknown claim id {claim_id!r}") from None

    def algorithm(self, algorithm_id: str) -> Algorithm:
        try:
            return self._algorithms[algorithm_id]
        except KeyError:
            known = ", ".join(self._algorithms)
            raise KeyError(f"unknown algorithm id {algorithm_id!r}; known: {known}") from None

    def select(self, patterns=None) -> list[Claim]:
        """Claims whose id starts with one of ``patterns`` (all when ``None``)."""
        if not patterns:
            return self.claims
        return [c for c in self.claims if any(c.id.startswith(p) for p in patterns)]


def registry_of(claim_sets, *, require_audit_records=True) -> Registry:
    """A registry of ``claim_sets`` (objects with ``register(registry)``), then their audit claims.

    Parameters
    ----------
    claim_sets : iterable
        Modules or packages, each with ``register(registry)``; registered in the given order.
    require_audit_records : bool, default True
        Raise ValueError when an auditable algorithm variant has no audit record, or a record names an
        unknown algorithm or variant (:func:`~proofs_checks.audit_record.audit_record_gaps`).

    Returns
    -------
    Registry
        The claim sets' claims, algorithms and records, then one claim ``audit.<algorithm id>.<variant>``
        per auditable algorithm variant (:func:`~proofs_checks.audit_claims.algorithm_audit_claims`).

    Examples
    --------
    >>> import types
    >>> from proofs_checks.model import Algorithm
    >>> toy = types.SimpleNamespace(register=lambda reg: reg.add_algorithm(Algorithm("toy", "[000 Alg. 1]", "toy")))
    >>> [a.id for a in registry_of([toy]).algorithms]
    ['toy']
    """
    from .audit_claims import algorithm_audit_claims

    reg = Registry()
    for claim_set in claim_sets:
        claim_set.register(reg)
    # The audits run last so that they see the algorithms and records of every claim set.
    for claim in algorithm_audit_claims(reg, require_records=require_audit_records):
        reg.add_claim(claim)
    return reg


def default_registry() -> Registry:
    """Every claim set's claims and algorithms, then the audit claims ``audit.<algorithm id>.<variant>``.

    Modules and subpackages of :mod:`proofs_checks.claim_sets` whose names do not start
    with ``_`` are imported in name order; each (a subpackage in its ``__init__``) defines
    ``register(registry)`` (:func:`registry_of`).  The claim sets are imported here, not at
    module level, so that importing the registry stays cheap.
    """
    from . import claim_sets

    names = sorted(info.name for info in pkgutil.iter_modules(claim_sets.__path__) if not info.name.startswith("_"))
    return registry_of(importlib.import_module(f"{claim_sets.__name__}.{name}") for name in names)
