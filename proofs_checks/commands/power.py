"""``python -m proofs_checks power``: every claim against the broken implementations it must catch.

Examples
--------
python -m proofs_checks power --only hu.thm1 --json
python -m proofs_checks power --profile full --only wang-xu.
"""

from __future__ import annotations

__all__ = ["NAME", "HELP", "EPILOG", "add_arguments", "run"]

NAME = "power"
HELP = "run each claim against its mutants (deliberately broken implementations) and say what it catches"
EPILOG = """\
examples:
  python -m proofs_checks power --only primitives. --json
  python -m proofs_checks power --only hu.thm1 --profile full
"""


def add_arguments(parser):
    parser.add_argument(
        "--only", nargs="+", metavar="PREFIX", help="only claims whose id starts with PREFIX (one or more)"
    )
    parser.add_argument(
        "--profile", choices=("quick", "full"), default="quick", help="the claims' own profile (default: %(default)s)"
    )
    parser.add_argument("--seed", type=int, default=20261121, help="run seed (default: %(default)s)")
    parser.add_argument("--with-mutants", action="store_true", help="list only claims that declare mutants")
    parser.add_argument(
        "--json",
        action="store_true",
        help='print {"claims": [{"id", "kind", "verdict", "mutants": [{"name", "factor", '
        '"detected"}], "detects", "misses"}]} to stdout',
    )


def run(args):
    import json
    import sys

    from ..model import CheckContext
    from ..power import claim_power, power_summary
    from ..registry import default_registry

    reg = default_registry()
    claims = reg.select(args.only)
    if args.only and not claims:
        raise ValueError(f"no claim id starts with any of {args.only}")
    if args.with_mutants:
        claims = [c for c in claims if c.mutants]
    ctx = CheckContext(profile=args.profile, seed=args.seed)
    powers = []
    for i, claim in enumerate(claims, 1):
        print(f"[{i}/{len(claims)}] {claim.id} ({len(claim.mutants)} mutants) ...", file=sys.stderr, flush=True)
        powers.append(claim_power(claim, ctx))
    if args.json:
        out = {
            "profile": args.profile,
            "seed": args.seed,
            "summary": power_summary(powers),
            "claims": [
                {
                    "id": p.id,
                    "kind": p.kind,
                    "verdict": p.verdict,
                    "mutants": [
                        {
                            "name": m.name,
                            "factor": m.factor,
                            "detected": m.detected,
                            "verdict": m.verdict,
                            "not_a_violation": m.not_a_violation or None,
                            "out_of_reach": m.out_of_reach or None,
                        }
                        for m in p.mutants
                    ],
                    "detects": p.detects,
                    "misses": p.misses,
                }
                for p in powers
            ],
        }
        print(json.dumps(out, indent=2))
        return 0
    width = max((len(p.id) for p in powers), default=10)
    for p in powers:
        caught = sum(m.detected for m in p.mutants)
        print(
            f"{p.id:<{width}}  {p.verdict:<12}  {caught}/{len(p.mutants)} mutants  detects: {p.detects}; "
            f"misses: {p.misses}"
        )
    return 0
