"""``python -m proofs_checks verify``: run every registered check and write the report."""

from __future__ import annotations

import sys

from . import UsageError
from ._common import add_backend_arguments, non_negative_int, positive_int, usable_out_dir

__all__ = ["NAME", "HELP", "EPILOG", "USAGE_ERRORS", "FEW_CLAIMS", "FAIL_ON", "add_arguments", "run"]

NAME = "verify"
HELP = "run the registered checks and write report.md, report.json and report.html"
EPILOG = """\
examples:
  python -m proofs_checks verify                                  # every claim, quick profile
  python -m proofs_checks verify --only wang-xu. hu.alg2 --out out
  python -m proofs_checks verify --no-timings --out a && python -m proofs_checks verify --no-timings --out b
  diff a/report.json b/report.json                                 # same seed: no difference
  python -m proofs_checks verify --only primitives. --fail-on refuted   # CI gate

exit status: 0 done; 1 a check raised (verdict 'error') or --fail-on matched; 2 bad arguments;
130 interrupted by Ctrl-C (the partial report is written first).
"""
USAGE_ERRORS = ()  # bad arguments raise UsageError; any other exception is a failure (exit 1)

#: ``--fail-on V``: the verdicts that make the exit status 1 (each level includes the worse ones).
#: Up to this many claims run in this process whatever ``--jobs`` says (the results are the same).
FEW_CLAIMS = 4

FAIL_ON = {"refuted": ("refuted",), "inconclusive": ("refuted", "inconclusive")}


def add_arguments(parser):
    parser.add_argument(
        "--out",
        default="verification-report",
        metavar="DIR",
        help="report folder, created if needed and checked before any work; figures of an "
        "earlier report there are removed (default: %(default)s)",
    )
    parser.add_argument(
        "--profile",
        choices=("quick", "full"),
        default="quick",
        help="quick (default, minutes) or full (long statistical suites, an hour or more)",
    )
    parser.add_argument(
        "--seed",
        type=non_negative_int,
        default=20261121,
        help="run seed; each claim draws from its own stream of it (default: %(default)s)",
    )
    parser.add_argument(
        "--jobs",
        type=positive_int,
        default=None,
        help="worker processes: claims run side by side, each on its own random stream, so "
        "results do not depend on it (default: the cores this process may use)",
    )
    add_backend_arguments(parser)
    parser.add_argument(
        "--only", nargs="+", metavar="PREFIX", help="only claims whose id starts with one of the PREFIXes (see `list`)"
    )
    parser.add_argument(
        "--fail-on",
        choices=tuple(FAIL_ON),
        metavar="{refuted,inconclusive}",
        help="exit 1 when a claim is refuted (refuted), or refuted or inconclusive (inconclusive)",
    )
    parser.add_argument(
        "--no-timings",
        action="store_true",
        help="leave wall times and the date out of the report, so that two runs diff clean",
    )
    parser.add_argument(
        "--seeds",
        type=positive_int,
        default=None,
        metavar="N",
        help="run each randomised claim on N run seeds (the --seed and N-1 derived from it) and "
        "keep a verdict only where all agree, else inconclusive with the split (default: 3 for "
        "every randomised claim except those declared expensive (Claim.seed_policy 'once'), which run "
        "once and say so in their evidence; 5 recommended for a verdict you publish)",
    )
    parser.add_argument(
        "--power",
        action="store_true",
        help="also run each claim's mutants (deliberately broken implementations) and put what "
        "its check catches beside its verdict",
    )
    parser.add_argument("--json", action="store_true", help="also print report.json to stdout")


def run(args):
    import datetime as dt
    import functools
    import json
    import time

    from ..model import CheckContext
    from ..parallel import active_backend
    from ..registry import default_registry
    from ..report import build_payload, claim_record, write_report
    from ..report.provenance import provenance
    from ..report.write import remove_stale_figures
    from ..runner import iter_claims_in_workers, start_workers
    from ..stability import run_claim_across_seeds
    from ._common import default_jobs

    out = usable_out_dir(args.out)
    jobs = args.jobs if args.jobs is not None else default_jobs()
    # Every claim (no --only) runs in workers: they start building their registries now, beside this one's.
    warming = (
        start_workers(jobs, registry_factory=default_registry)
        if not args.only and active_backend() == "local"
        else None
    )
    reg = default_registry()
    claims = reg.select(args.only)
    if not claims:
        raise UsageError(f"--only: no claim id starts with any of {args.only} (see `python -m proofs_checks list`)")
    remove_stale_figures(out)
    if warming is not None:
        warming.join()
    ctx = CheckContext(profile=args.profile, seed=args.seed, jobs=jobs, out_dir=out)
    start = time.perf_counter()
    records, interrupted = [], False
    # Claims side by side in local processes; under the dask backend the claims run one after
    # another here and their inner tasks go to the cluster.  A handful of claims runs here too:
    # a worker spends seconds importing the claim modules before its first claim.
    workers = jobs if active_backend() == "local" and len(claims) > FEW_CLAIMS else 1
    try:
        run = functools.partial(run_claim_across_seeds, seeds=args.seeds) if args.seeds != 1 else None
        after = _claim_power if args.power else None
        for claim, result, power in iter_claims_in_workers(
            claims, ctx, workers, registry_factory=default_registry, progress=sys.stderr, run=run, after=after
        ):
            records.append(claim_record(claim, result, power=power))
    except KeyboardInterrupt:
        interrupted = True
        print(
            f"\ninterrupted after {len(records)} of {len(claims)} claims; writing the partial report", file=sys.stderr
        )
    done = {r["id"] for r in records}
    prov = provenance(
        command=["python", "-m", "proofs_checks", *getattr(args, "_argv", sys.argv[1:])],
        seed=args.seed,
        profile=args.profile,
        wall_seconds=None if args.no_timings else time.perf_counter() - start,
        generated=None if args.no_timings else dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
    )
    payload = build_payload(
        records,
        profile=args.profile,
        seed=args.seed,
        provenance=prov,
        findings=reg.findings,
        algorithms=reg.algorithms,
        known_claim_ids={c.id for c in reg.claims},
        interrupted=interrupted,
        not_run=[c.id for c in claims if c.id not in done],
        timings=not args.no_timings,
    )
    json_path, md_path, html_path = write_report(payload, out)
    if args.json:
        print(json.dumps(payload, indent=2))
    elif not interrupted:
        width = max(len("claim"), *(len(r["id"]) for r in records))
        print(f"{'claim':<{width}}  {'kind':<11}  verdict")
        for r in records:
            print(f"{r['id']:<{width}}  {r['kind']:<11}  {r['verdict']}")
        print(_counts_footer(payload["summary"]))
    print(f"report: {html_path}, {md_path}, {json_path}", file=sys.stderr)
    if interrupted:
        return 130
    status = 0
    errors = [r["id"] for r in records if r["verdict"] == "error"]
    if errors:
        print(
            f"{len(errors)} check(s) raised (verdict 'error'; tracebacks in the report): {', '.join(errors)}",
            file=sys.stderr,
        )
        status = 1
    if args.fail_on:
        failing = [r["id"] for r in records if r["verdict"] in FAIL_ON[args.fail_on]]
        if failing:
            print(f"--fail-on {args.fail_on}: {len(failing)} claim(s): {', '.join(failing)}", file=sys.stderr)
            status = 1
    return status


def _counts_footer(summary):
    """The last line of the stdout table: the verdict counts, self-tests apart (as the report's headline)."""
    from ..report.overview import counts_line

    studied, self_tests = summary["claims"], summary["self_tests"]
    line = f"{sum(studied.values())} claims: {counts_line(studied) or 'none run'}"
    if any(self_tests.values()):
        line += f"; {sum(self_tests.values())} self-tests: {counts_line(self_tests)}"
    return line


def _claim_power(claim, ctx, result):
    """What ``claim``'s check catches among its mutants, for the report (``None`` without mutants)."""
    if not claim.mutants:
        return None
    from ..power import claim_power

    p = claim_power(claim, ctx, baseline=result)
    # A mutant proven to satisfy the claim is no miss (no sound check can catch it): the share is
    # over the mutants that violate; both lists are kept for the report.
    equivalent = [m.name for m in p.mutants if m.not_a_violation and not m.detected]
    violating = [m for m in p.mutants if not (m.not_a_violation and not m.detected)]
    share = sum(m.detected for m in violating) / len(violating) if violating else 1.0
    return {
        "share": share,
        "mutants": len(p.mutants),
        "detects": p.detects,
        "misses": p.misses,
        "not_violations": equivalent,
        "out_of_reach": [m.name for m in p.mutants if m.out_of_reach and not m.detected],
    }
