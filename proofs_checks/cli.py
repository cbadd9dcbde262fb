"""Command line of the checkers: ``python -m proofs_checks SUBCOMMAND``.

Sub-commands live in :mod:`proofs_checks.commands`, one module each.  Data
goes to stdout, progress and errors to stderr; a bad argument or value exits
with status 2 and a message naming it.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys

__all__ = ["build_parser", "main"]


def _command_modules():
    from . import commands

    mods = []
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        if not info.name.startswith("_"):
            mods.append(importlib.import_module(f"{commands.__name__}.{info.name}"))
    return mods


def build_parser():
    parser = argparse.ArgumentParser(
        prog="python -m proofs_checks",
        description="Audit the privacy claims, formulas and rates of the heavy-tailed private learning papers.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for mod in _command_modules():
        p = sub.add_parser(mod.NAME, help=mod.HELP, description=mod.HELP)
        mod.add_arguments(p)
        p.set_defaults(_run=mod.run)
    return parser


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args._run(args) or 0)
    except (ValueError, TypeError, KeyError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
