"""``python -m proofs_checks list``: every algorithm and claim id."""

from __future__ import annotations

import json

__all__ = ["NAME", "HELP", "EPILOG", "USAGE_ERRORS", "KINDS", "add_arguments", "run"]

NAME = "list"
HELP = "list every algorithm and claim id"
EPILOG = """\
examples:
  python -m proofs_checks list | head
  python -m proofs_checks list --kind rate
  python -m proofs_checks list --json
"""
USAGE_ERRORS = ()
KINDS = ("privacy", "formula", "inequality", "sensitivity", "rate")  # proofs_checks.model.KINDS, kept light


def add_arguments(parser):
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--kind", choices=KINDS, help="only claims of this kind")


def run(args):
    from ..registry import default_registry

    reg = default_registry()
    claims = [c for c in reg.claims if args.kind is None or c.kind == args.kind]
    if args.json:
        print(
            json.dumps(
                {
                    "algorithms": [
                        {"id": a.id, "source": a.source, "summary": a.summary, "variants": list(a.variants)}
                        for a in reg.algorithms
                    ],
                    "claims": [
                        {
                            "id": c.id,
                            "source": c.source,
                            "statement": c.statement,
                            "kind": c.kind,
                            "algorithm": c.algorithm,
                            "variant": c.variant,
                            "scope": c.scope,
                        }
                        for c in claims
                    ],
                    "findings": [
                        {"id": f.id, "paper": f.paper, "title": f.title, "claims": list(f.claims)} for f in reg.findings
                    ],
                },
                indent=2,
            )
        )
        return 0
    print("Algorithms")
    for a in reg.algorithms:
        print(f"  {a.id:<24} {a.source:<44} {a.summary}")
    print("\nClaims")
    for c in claims:
        print(f"  {c.id:<52} {c.kind:<12} {c.source}")
    return 0
