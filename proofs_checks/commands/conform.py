"""``python -m proofs_checks conform --port MODULE [--only ...] [--json]``: the conformance kit for ports.

Runs each function the port provides against the golden vectors (stated ulp tolerances), each sampler
against the exact law (distributional tests of stated power) and audits each mechanism with the
auditor; ``--results FILE`` checks the outputs a non-Python port wrote for the golden inputs.  Exit
status 0 when everything provided conforms, 1 otherwise (see ``docs/porting.md``).  ``--guide-tables``
prints the porting guide's function and tolerance tables generated from the declaration
(``proofs_checks/conform/functions.py``) and ``--update-guide FILE`` rewrites them in the guide.
"""

from __future__ import annotations

import json

from . import UsageError

__all__ = ["NAME", "HELP", "EPILOG", "add_arguments", "run"]

NAME = "conform"
HELP = "check a port of the algorithms against the golden vectors, the exact laws and the auditor"
EPILOG = """\
examples:
  python -m proofs_checks conform --port examples.numpy_port
  python -m proofs_checks conform --port mymodule --only expected_phi --json
  python -m proofs_checks conform --results my_port_outputs.json
  python -m proofs_checks conform --update-guide docs/porting.md
"""


def add_arguments(parser):
    src = parser.add_mutually_exclusive_group(required=True)
    src.add_argument("--port", metavar="MODULE", help="module name or .py file of the port")
    src.add_argument("--results", metavar="FILE", help="outputs of a non-Python port for the golden cases (JSON)")
    src.add_argument("--draws", metavar="FILE", help="draws of a non-Python port's samplers (JSON, docs/porting.md)")
    src.add_argument(
        "--draw-instances",
        metavar="FILE",
        help="write the samplers' instances and the draws their tests need at --size (for --draws)",
    )
    src.add_argument(
        "--guide-tables",
        action="store_true",
        help="print the porting guide's function and tolerance tables (from the declaration)",
    )
    src.add_argument(
        "--update-guide",
        metavar="FILE",
        help="rewrite the generated tables of the porting guide FILE (docs/porting.md)",
    )
    parser.add_argument("--only", nargs="+", metavar="FUNCTION", help="check only these functions")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--golden", metavar="DIR", help="golden folder (default: the shipped golden/)")
    parser.add_argument(
        "--size",
        choices=("default", "small"),
        default="default",
        help="draws of the sampler tests (default: the size of the stated power)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the sampler tests and audits")
    parser.add_argument("--no-samplers", action="store_true", help="skip the distributional tests")
    parser.add_argument("--no-privacy", action="store_true", help="skip the privacy audits")
    parser.add_argument("--no-rng", action="store_true", help="skip the rng contract of the samplers")
    parser.add_argument(
        "--no-sequential",
        action="store_true",
        help="draw every sampler's full sample (no early stop when clearly wrong or right)",
    )


def _guide(args):
    from ..conform import guide

    if args.guide_tables:
        print(guide.function_table())
        print()
        print(guide.tolerance_table())
        return 0
    try:
        changed = guide.update_guide(args.update_guide)
    except (OSError, ValueError) as exc:
        raise UsageError(f"--update-guide {args.update_guide!r}: {exc}") from None
    print(f"{args.update_guide}: " + (f"rewrote the {' and '.join(changed)} table(s)" if changed else "up to date"))
    return 0


def _draw_instances(args):
    from ..conform.drawfile import instances_document

    try:
        with open(args.draw_instances, "w", encoding="utf-8") as fh:
            json.dump(instances_document(args.size), fh, indent=1)
            fh.write("\n")
    except OSError as exc:
        raise UsageError(f"--draw-instances {args.draw_instances!r}: {exc}") from None
    print(f"{args.draw_instances}: the instances of every sampler and the draws --size {args.size} needs")
    return 0


def run(args):
    if args.guide_tables or args.update_guide:
        return _guide(args)
    if args.draw_instances:
        return _draw_instances(args)
    from ..conform.coverage import coverage_summary, unknown_names
    from ..conform.functions import FUNCTIONS
    from ..conform.kit import (
        exit_status,
        load_port,
        results_from_file,
        results_gaps,
        run_draw_file,
        run_kit,
        summarise,
    )
    from ..jsonable import to_jsonable

    unknown = sorted(set(args.only or ()) - {f.name for f in FUNCTIONS})
    if unknown:
        raise UsageError(f"--only must name port functions (docs/porting.md), got unknown {unknown}")

    port = load_port(args.port) if args.port else None
    results = results_from_file(args.results) if args.results else None
    try:
        gaps = results_gaps(args.results) if args.results else None
        if args.draws:
            records = run_draw_file(args.draws, size=args.size, seed=args.seed, only=args.only)
        else:
            records = run_kit(
                port,
                results=results,
                unsupported=gaps,
                only=args.only,
                size=args.size,
                seed=args.seed,
                golden_dir=args.golden,
                samplers=not args.no_samplers,
                privacy=not args.no_privacy,
                rng_contract=not args.no_rng,
                sequential_stopping=not args.no_sequential,
            )
    except (TypeError, ValueError) as exc:  # a malformed UNSUPPORTED declaration or draw file
        raise UsageError(str(exc)) from None
    summary = summarise(records)
    coverage = coverage_summary(records, unknown_names(port) if port is not None else ())
    status = exit_status(records)
    if args.json:
        print(
            json.dumps(
                to_jsonable(
                    {
                        "port": args.port or args.results or args.draws,
                        "conforms": status == 0,
                        "coverage": coverage,
                        "functions": summary,
                        "records": records,
                    }
                ),
                indent=2,
            )
        )
        return status
    width = max((len(k) for k in summary), default=10)
    width = max(width, len("function"))
    print(f"{'function':<{width}}  {'status':<7}  {'passed':>6}  {'failed':>6}  {'skipped':>7}")
    for name, f in summary.items():
        print(f"{name:<{width}}  {f['status']:<7}  {f['passed']:6d}  {f['failed']:6d}  {f['skipped']:7d}")
        for m in f["messages"][:5]:
            print(f"    {m}")
    for label in ("checked", "skipped", "unknown"):
        names = coverage[label]
        print(f"{label} ({len(names)}): {', '.join(names) if names else '-'}")
    if not coverage["checked"]:
        print("nothing was checked: no declared port function was found (docs/porting.md)")
    print("conforms" if status == 0 else "DOES NOT CONFORM")
    return status
