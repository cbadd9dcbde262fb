"""``python -m proofs_checks findings``: the headline findings about the papers, with their claims and readings.

Examples
--------
python -m proofs_checks findings                 # Markdown, every paper
python -m proofs_checks findings --paper 002 --json
"""

from __future__ import annotations

__all__ = ["NAME", "HELP", "EPILOG", "add_arguments", "run"]

NAME = "findings"
HELP = "list the headline findings about the papers (each with its claim ids and its reading of the paper)"
EPILOG = """\
examples:
  python -m proofs_checks findings
  python -m proofs_checks findings --paper 002
  python -m proofs_checks findings --json
"""


def add_arguments(parser):
    parser.add_argument("--paper", choices=("000", "002", "004"), help="only this paper's findings")
    parser.add_argument("--json", action="store_true", help="print a JSON list of findings to stdout")


def run(args):
    import json
    from dataclasses import asdict

    from ..registry import default_registry

    reg = default_registry()
    known = {c.id for c in reg.claims}
    findings = [f for f in reg.findings if args.paper is None or f.paper == args.paper]
    for f in findings:
        missing = [c for c in f.claims if c not in known]
        if missing:
            raise RuntimeError(f"finding {f.id} cites unknown claims: {missing}")
    if args.json:
        print(json.dumps([{**asdict(f), "claims": list(f.claims)} for f in findings], indent=2))
        return 0
    for f in findings:
        print(f"### {f.title} (`{f.id}`)\n")
        print(f"{f.summary}\n")
        print(f"*Reading:* {f.reading}\n")
        print("*Claims:* " + ", ".join(f"`{c}`" for c in f.claims) + "\n")
    return 0
