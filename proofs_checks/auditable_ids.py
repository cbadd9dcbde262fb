"""The auditable algorithm ids and the variant names, as a static table for the command line.

``python -m proofs_checks audit ID --variant V`` answers a misspelt id or variant before anything heavy is
imported: building the registry imports every claim set and the auditor (seconds), the table costs nothing.  The
registry stays the source of truth: ``tests/test_cli_edges.py`` fails when the table and
``proofs_checks.audit_claims`` / ``default_registry()`` disagree, naming what to add or remove here.
"""

from __future__ import annotations

__all__ = ["AUDITABLE_IDS", "VARIANT_NAMES"]

#: Ids of the registered algorithms with a mechanism, and of the primitives ``audit`` builds itself.
AUDITABLE_IDS = (
    "arora-boosting",
    "arora-grid-search",
    "arora-noisy-gd",
    "arora-output-perturbation",
    "exponential",
    "gaussian",
    "gem",
    "hu-1",
    "hu-2",
    "hu-3",
    "hu-4",
    "hu-5",
    "laplace",
    "peeling",
    "report-noisy-max",
    "wang-xu-1",
    "wang-xu-2",
)

#: Every variant name any registered algorithm declares.
VARIANT_NAMES = ("calibrated", "lemma2", "printed", "standard")
