"""``python -m proofs_checks quoted-numbers``: check the numbers the README and docs quote against a run.

Examples
--------
python -m proofs_checks quoted-numbers                              # against docs/results/quoted_numbers.json
python -m proofs_checks quoted-numbers --report out/report.json     # against a verify run
python -m proofs_checks quoted-numbers --report out/report.json --update
"""

from __future__ import annotations

__all__ = ["NAME", "HELP", "EPILOG", "add_arguments", "run"]

NAME = "quoted-numbers"
HELP = (
    "check every number the README and docs quote (marked <!--q CLAIM PATH-->) against a verify report or the "
    "stored snapshot; --update stores the report's values"
)
EPILOG = """\
exit status: 0 every quote agrees, 1 some quote disagrees (each printed as file:line), 2 bad arguments.

examples:
  python -m proofs_checks quoted-numbers
  python -m proofs_checks quoted-numbers --report out/report.json
  python -m proofs_checks verify --profile quick --out out && \\
    python -m proofs_checks quoted-numbers --report out/report.json --update
"""


def add_arguments(parser):
    parser.add_argument("--report", help="a verify report.json (quick profile, default seed) to check against")
    parser.add_argument(
        "--update",
        action="store_true",
        help="write the report's values of every quote to docs/results/quoted_numbers.json (needs --report)",
    )
    parser.add_argument("--json", action="store_true", help="print the problems as a JSON list")


def run(args):
    import json
    from pathlib import Path

    from . import UsageError

    if args.update and not args.report:
        raise UsageError("--update needs --report (the run whose values to store)")
    report = None
    if args.report:
        path = Path(args.report)
        try:
            report = json.loads(path.read_text())
        except (OSError, ValueError) as exc:
            raise UsageError(f"--report {args.report!r} is not a readable report.json: {exc}") from None

    from ..report import quoted_numbers as Q

    quotes = Q.find_quotes()
    if report is not None:
        problems = Q.check_quotes(quotes, report=report)
        if args.update:
            Q.SNAPSHOT.parent.mkdir(parents=True, exist_ok=True)
            Q.SNAPSHOT.write_text(json.dumps(Q.snapshot_values(quotes, report), indent=1) + "\n")
    else:
        problems = Q.check_quotes(quotes, snapshot=Q.load_snapshot())
    if args.json:
        print(
            json.dumps(
                [
                    {
                        "file": p.quote.file,
                        "line": p.quote.line,
                        "text": p.quote.text,
                        "source": p.quote.key,
                        "value": p.value,
                        "reason": p.reason,
                    }
                    for p in problems
                ],
                indent=1,
            )
        )
    else:
        for problem in problems:
            print(problem)
        source = args.report or "the snapshot"
        print(f"{len(quotes)} quoted numbers, {len(problems)} disagree with {source}")
    return 1 if problems else 0
