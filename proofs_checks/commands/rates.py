"""``python -m proofs_checks rates``: observed excess risk against the stated rates."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ..jsonable import to_jsonable
from ..model import CheckContext
from ..registry import default_registry
from ..runner import run_claims

NAME = "rates"
HELP = "sweep sample sizes and compare the observed decay of the excess risk with the stated rates"


def add_arguments(parser):
    parser.add_argument("--algorithm", help="only the rate claims of this algorithm id")
    parser.add_argument("--profile", choices=("quick", "full"), default="quick")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (results do not depend on it)")
    parser.add_argument("--seed", type=int, default=20261121)
    parser.add_argument("--out", default="rates-report", help="folder for the figures (default: %(default)s)")
    parser.add_argument("--json", action="store_true")


def _num(value):
    return f"{value:.3g}" if isinstance(value, (int, float)) else str(value)


def run(args):
    if args.jobs < 1:
        raise ValueError(f"--jobs must be >= 1, got {args.jobs}")
    reg = default_registry()
    if args.algorithm is not None:
        reg.algorithm(args.algorithm)  # clear error for an unknown id
    claims = [c for c in reg.claims if c.kind == "rate" and args.algorithm in (None, c.algorithm)]
    out = Path(args.out)
    ctx = CheckContext(profile=args.profile, seed=args.seed, jobs=args.jobs, out_dir=out)
    entries = []
    for claim, res in run_claims(claims, ctx, progress=sys.stderr):
        ev = res.evidence
        entries.append(to_jsonable({
            "algorithm": claim.algorithm, "claim": claim.id, "source": claim.source,
            "stated_exponent": ev.get("stated_exponent"), "observed_exponent": ev.get("observed_exponent"),
            "ci_low": ev.get("ci_low"), "ci_high": ev.get("ci_high"), "verdict": ev.get("rate_verdict"),
            "claim_verdict": res.verdict, "figures": res.figures, "seconds": round(res.seconds, 2),
        }))
    if args.json:
        print(json.dumps(entries, indent=2))
    else:
        if not entries:
            print("no rate claims registered" + (f" for {args.algorithm}" if args.algorithm else ""),
                  file=sys.stderr)
        for e in entries:
            if e["stated_exponent"] is None:  # a rate claim judged by value, not by a slope fit
                print(f"{e['claim']:<48} (judged by value, see the report)  {e['claim_verdict']}")
                continue
            print(f"{e['claim']:<48} stated {e['stated_exponent']:.3g}  observed {_num(e['observed_exponent'])} "
                  f"[{_num(e['ci_low'])}, {_num(e['ci_high'])}]  {e['verdict']}")
    return 0
