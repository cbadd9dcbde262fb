"""Command line of the checkers: ``python -m proofs_checks SUBCOMMAND``.

Sub-commands live in :mod:`proofs_checks.commands`, one module each.  Data goes to stdout,
progress and errors to stderr.  Exit status (https://clig.dev conventions):

- 0: success;
- 1: a check or the code under test failed (a check raised, or ``--fail-on`` matched); an
  unexpected exception prints its traceback and exits 1 as well;
- 2: bad arguments (argparse, or :class:`~proofs_checks.commands.UsageError` from a command);
- 130: interrupted by Ctrl-C (``verify`` writes the partial report first);
- 141: stdout was closed early (``list | head -1``); nothing is printed.

Importing this module and building the parser imports no numpy, scipy, statsmodels or
matplotlib, so ``--help`` answers at once (a test checks it).
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys

__all__ = ["build_parser", "main"]

EXAMPLES = """\
examples:
  python -m proofs_checks list | head
  python -m proofs_checks verify --out verification-report
  python -m proofs_checks verify --only wang-xu. --fail-on refuted
  python -m proofs_checks rates --algorithm hu-1 --json
  python -m proofs_checks audit laplace --epsilon 1
  python -m proofs_checks formulas --target c-hat --port mymodule:c_hat

exit status: 0 success, 1 a check or the code under test failed, 2 bad arguments,
130 interrupted (Ctrl-C), 141 output pipe closed.
"""

#: Exceptions a command module without ``USAGE_ERRORS`` raises for bad input (older commands
#: raised plain ValueError/TypeError/KeyError for bad arguments).
_LEGACY_USAGE_ERRORS = (ValueError, TypeError, KeyError)


def _command_modules():
    from . import commands

    mods = []
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        if not info.name.startswith("_"):
            mods.append(importlib.import_module(f"{commands.__name__}.{info.name}"))
    return mods


def _version():
    from importlib import metadata

    try:
        return metadata.version("heavytail-dp-reference")
    except metadata.PackageNotFoundError:  # running from a source tree that is not installed
        from . import __version__

        return __version__


class _OneLineErrorParser(argparse.ArgumentParser):
    """argparse with one-line usage errors: ``error: audit: argument --epsilon: ... (see --help)``, exit 2.

    argparse's own answer is the whole usage block (a dozen lines for ``audit``) above the message, which
    buries the one line that says what is wrong."""

    def error(self, message):
        command = self.prog.removeprefix("python -m proofs_checks").strip()
        where = f"{command}: " if command else ""
        self.exit(2, f"error: {where}{message} (see {self.prog} --help)\n")


def build_parser():
    parser = _OneLineErrorParser(
        prog="python -m proofs_checks",
        description="Audit the privacy claims, formulas and rates of the heavy-tailed private learning papers.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--version", action="version", version=f"%(prog)s {_version()}", help="print the version and exit"
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for mod in _command_modules():
        p = sub.add_parser(
            mod.NAME,
            help=mod.HELP,
            description=mod.HELP,
            epilog=getattr(mod, "EPILOG", None),
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        mod.add_arguments(p)
        p.set_defaults(_run=mod.run, _usage_errors=getattr(mod, "USAGE_ERRORS", _LEGACY_USAGE_ERRORS))
    return parser


def _silence_stdout():
    """After a closed pipe: point stdout at /dev/null so that Python's exit flush stays silent."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # stdout without a file descriptor (captured in tests)
        pass


def main(argv=None):
    from .commands import UsageError
    from .commands._common import backend_from_args

    parser = build_parser()
    args = parser.parse_args(argv)
    args._argv = list(sys.argv[1:] if argv is None else argv)  # for the report's provenance
    try:
        with backend_from_args(args):  # --backend/--scheduler of the commands that have them
            return int(args._run(args) or 0)
    except UsageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except args._usage_errors as exc:
        msg = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
        print(f"error: {msg}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        _silence_stdout()
        return 141
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
