"""``python -m proofs_checks golden --out DIR``: write the golden vectors (the shipped copy is ``golden/``)."""

from __future__ import annotations

__all__ = ["NAME", "HELP", "EPILOG", "add_arguments", "run"]


NAME = "golden"
HELP = (
    "write the golden vectors (inputs, the reference's float64 outputs or exact values correctly rounded, with "
    "provenance) for ports"
)
EPILOG = """\
examples:
  python -m proofs_checks golden --out golden
  python -m proofs_checks golden --out /tmp/golden --only catoni
"""


def add_arguments(parser):
    parser.add_argument("--out", required=True, help="folder to write <subject>.json and schema.json into")
    parser.add_argument(
        "--only", nargs="+", metavar="SUBJECT", help="subjects to write (catoni, wang_xu, hu, mechanisms; default all)"
    )


def run(args):
    from ._common import usable_out_dir

    out = usable_out_dir(args.out)  # an unwritable folder is a usage error (exit 2), before numpy is imported

    from ..golden.generate import SUBJECTS, write_all

    known = {m.SUBJECT for m in SUBJECTS}
    if args.only and not set(args.only) <= known:
        raise ValueError(f"--only must name subjects among {sorted(known)}, got {args.only}")
    for path in write_all(out, only=args.only, command="python -m proofs_checks golden --out DIR"):
        print(path)
    return 0
