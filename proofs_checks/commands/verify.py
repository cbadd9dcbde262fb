"""``python -m proofs_checks verify``: run every registered check and write the report."""

from __future__ import annotations

import sys
from pathlib import Path

from ..model import CheckContext
from ..registry import default_registry
from ..report import claim_record, write_report
from ..runner import run_claims

NAME = "verify"
HELP = "run every registered check and write a Markdown + JSON report (exit 1 if a check raised)"


def add_arguments(parser):
    parser.add_argument("--out", default="verification-report", help="report folder (default: %(default)s)")
    parser.add_argument("--profile", choices=("quick", "full"), default="quick",
                        help="quick (default, minutes) or full (long statistical suites)")
    parser.add_argument("--seed", type=int, default=20261121, help="run seed (default: %(default)s)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes for parallel checks")
    parser.add_argument("--only", nargs="*", metavar="PREFIX", help="only claims whose id starts with PREFIX")
    parser.add_argument("--json", action="store_true", help="print the report's JSON to stdout")


def run(args):
    if args.jobs < 1:
        raise ValueError(f"--jobs must be >= 1, got {args.jobs}")
    reg = default_registry()
    claims = reg.select(args.only)
    if not claims:
        raise ValueError(f"no claim id starts with any of {args.only}")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    ctx = CheckContext(profile=args.profile, seed=args.seed, jobs=args.jobs, out_dir=out)
    records = [claim_record(claim, result) for claim, result in run_claims(claims, ctx, progress=sys.stderr)]
    json_path, md_path = write_report(records, out, profile=args.profile, seed=args.seed,
                                      algorithms=reg.algorithms)
    if args.json:
        print(json_path.read_text(), end="")
    else:
        width = max(len(r["id"]) for r in records)
        for r in records:
            print(f"{r['id']:<{width}}  {r['kind']:<11}  {r['verdict']}")
        print(f"report: {md_path} and {json_path}", file=sys.stderr)
    errors = [r["id"] for r in records if r["verdict"] == "error"]
    if errors:
        print(f"{len(errors)} check(s) raised (verdict 'error'; tracebacks in the report): {', '.join(errors)}",
              file=sys.stderr)
        return 1
    return 0
