"""Reference implementations of private learning algorithms for heavy-tailed data.

Each function mirrors a box of one of the papers in ``shared/papers`` (see
the module docstrings for the paper, algorithm and equation numbers).  Where a
printed constant differs from what the paper's own analysis or the standard
mechanism needs, both are kept as named variants (``"printed"``,
``"standard"``); the checkers in :mod:`proofs_checks` decide between them.

This package never imports from :mod:`proofs_checks`.
"""

__version__ = "0.1.0"
