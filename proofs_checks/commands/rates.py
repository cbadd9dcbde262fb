"""``python -m proofs_checks rates``: observed excess risk against the stated rates."""

from __future__ import annotations

import json
import sys

from . import UsageError
from ._common import add_backend_arguments, non_negative_int, positive_int, usable_out_dir

__all__ = ["NAME", "HELP", "EPILOG", "USAGE_ERRORS", "add_arguments", "run"]

NAME = "rates"
HELP = "sweep sample sizes and compare the observed decay of the excess risk with the stated rates"
EPILOG = """\
examples:
  python -m proofs_checks rates                          # every rate claim, quick profile, figures in rates-report/
  python -m proofs_checks rates --algorithm hu-1 --jobs 2
  python -m proofs_checks rates --json > rates.json      # no figures unless --out is given
"""
USAGE_ERRORS = ()


def add_arguments(parser):
    parser.add_argument("--algorithm", metavar="ID", help="only the rate claims of this algorithm id (see `list`)")
    parser.add_argument(
        "--profile",
        choices=("quick", "full"),
        default="quick",
        help="quick (about a minute) or full (about 50 minutes with --jobs 2)",
    )
    parser.add_argument(
        "--jobs", type=positive_int, default=1, help="worker processes; results do not depend on it (default: 1)"
    )
    add_backend_arguments(parser)
    parser.add_argument("--seed", type=non_negative_int, default=20261121, help="run seed (default: %(default)s)")
    parser.add_argument(
        "--out",
        metavar="DIR",
        help="folder for the fit figures (default: rates-report; with --json, none are written unless --out is given)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON list, one entry per rate claim")


def _num(value):
    return f"{value:.3g}" if isinstance(value, (int, float)) else str(value)


def run(args):
    from ..jsonable import to_jsonable
    from ..model import CheckContext
    from ..registry import default_registry
    from ..runner import iter_claims

    out_arg = args.out if args.out is not None else (None if args.json else "rates-report")
    out = usable_out_dir(out_arg) if out_arg is not None else None
    reg = default_registry()
    if args.algorithm is not None and args.algorithm not in {a.id for a in reg.algorithms}:
        raise UsageError(
            f"--algorithm: unknown algorithm id {args.algorithm!r}; known: " + ", ".join(a.id for a in reg.algorithms)
        )
    claims = [c for c in reg.claims if c.kind == "rate" and args.algorithm in (None, c.algorithm)]
    ctx = CheckContext(profile=args.profile, seed=args.seed, jobs=args.jobs, out_dir=out)
    entries = []
    for claim, res in iter_claims(claims, ctx, progress=sys.stderr):
        ev = res.evidence
        entries.append(
            to_jsonable(
                {
                    "algorithm": claim.algorithm,
                    "claim": claim.id,
                    "source": claim.source,
                    "stated_exponent": ev.get("stated_exponent"),
                    "observed_exponent": ev.get("observed_exponent"),
                    "ci_low": ev.get("ci_low"),
                    "ci_high": ev.get("ci_high"),
                    "verdict": ev.get("rate_verdict"),
                    "claim_verdict": res.verdict,
                    "figures": res.figures,
                    "seconds": round(res.seconds, 2),
                }
            )
        )
    if args.json:
        print(json.dumps(entries, indent=2))
    else:
        if not entries:
            print("no rate claims registered" + (f" for {args.algorithm}" if args.algorithm else ""), file=sys.stderr)
        for e in entries:
            if e["stated_exponent"] is None:  # a rate claim judged by value, not by a slope fit
                print(f"{e['claim']:<48} (judged by value, see the report)  {e['claim_verdict']}")
                continue
            print(
                f"{e['claim']:<48} stated {e['stated_exponent']:.3g}  observed {_num(e['observed_exponent'])} "
                f"[{_num(e['ci_low'])}, {_num(e['ci_high'])}]  {e['verdict']}"
            )
    return 1 if any(e["claim_verdict"] == "error" for e in entries) else 0
