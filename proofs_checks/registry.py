"""The registry: every claim and algorithm the project checks, assembled from the claim sets and the audits.

:func:`default_registry` imports every module and subpackage of
:mod:`proofs_checks.claim_sets` (each defines ``register(registry)``), then adds one
auditor-judged privacy claim per auditable algorithm and variant
(:func:`proofs_checks.audit_claims.algorithm_audit_claims`).  Adding a paper's claims
never touches a shared file.
"""

from __future__ import annotations

import importlib
import pkgutil

from .model import Algorithm, Claim, Finding

__all__ = ["Registry", "default_registry"]


class Registry:
    """Claims, algorithms and findings, in registration order; ids are unique."""

    def __init__(self):
        self._claims: dict[str, Claim] = {}
        self._algorithms: dict[str, Algorithm] = {}
        self._findings: dict[str, Finding] = {}

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


def default_registry() -> Registry:
    """Every claim set's claims and algorithms, then the audit claims ``audit.<algorithm id>.<variant>``.

    Modules and subpackages of :mod:`proofs_checks.claim_sets` whose names do not start
    with ``_`` are imported in name order; each (a subpackage in its ``__init__``) defines
    ``register(registry)``.  The claim sets are imported here, not at module level, so
    that importing the registry stays cheap.
    """
    from . import claim_sets
    from .audit_claims import algorithm_audit_claims

    reg = Registry()
    for info in sorted(pkgutil.iter_modules(claim_sets.__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        importlib.import_module(f"{claim_sets.__name__}.{info.name}").register(reg)
    # The audits run last so that they see the algorithms of every claim set.
    for claim in algorithm_audit_claims(reg):
        reg.add_claim(claim)
    return reg
