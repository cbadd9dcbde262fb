"""Sub-commands of ``python -m proofs_checks``, one module each, discovered automatically.

A module defines ``NAME``, ``HELP``, ``add_arguments(parser)`` and ``run(args) -> int``, and
optionally ``EPILOG`` (examples shown by ``--help``).  Data goes to stdout, progress to stderr.
Module level imports stay light (no numpy, scipy, matplotlib): ``--help`` builds every
sub-command's parser and must answer at once, so the heavy imports live inside ``run``.

A bad argument raises :class:`UsageError` (exit status 2); any other exception is a failure of
a check or of the code under test (exit status 1, with its traceback).
"""

__all__ = ["UsageError"]


class UsageError(ValueError):
    """A bad command-line argument or value: the CLI prints the message and exits with status 2."""
