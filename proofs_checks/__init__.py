"""Empirical checkers for the claims of the heavy-tailed private learning papers.

The checkers import :mod:`reference`; :mod:`reference` never imports them.
Entry points: ``python -m proofs_checks list | verify | ...`` and
:func:`proofs_checks.registry.default_registry`.  The data types of a claim and its
result are in :mod:`proofs_checks.model`; checks are run by :mod:`proofs_checks.runner`.
"""

__version__ = "0.1.0"
