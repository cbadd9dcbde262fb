"""Sub-commands of ``python -m proofs_checks``, one module each, discovered automatically.

A module defines ``NAME``, ``HELP``, ``add_arguments(parser)`` and ``run(args) -> int``.
Data goes to stdout, progress to stderr.
"""
