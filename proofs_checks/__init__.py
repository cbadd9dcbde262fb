"""Empirical checkers for the claims of the heavy-tailed private learning papers.

The checkers import :mod:`reference`; :mod:`reference` never imports them.
Entry points: ``python -m proofs_checks list | verify | ...`` and
:func:`proofs_checks.claims.default_registry`.
"""

__version__ = "0.1.0"
