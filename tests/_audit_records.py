"""The audit records of the default registry by claim id, for the tests that recompute their numbers."""

from __future__ import annotations

import functools

from proofs_checks.registry import default_registry


@functools.cache
def _by_claim():
    return {r.claim_id: r for r in default_registry().audit_records}


def audit_record(claim_id):
    """The :class:`~proofs_checks.audit_record.AuditRecord` of ``audit.<algorithm>.<variant>``."""
    return _by_claim()[claim_id]


def audit_records():
    """Every registered audit record, ``{claim id: record}``."""
    return dict(_by_claim())
