"""Empirical checkers for the claims of the heavy-tailed private learning papers.

The checkers import :mod:`reference`; :mod:`reference` never imports them.
Entry points: ``python -m proofs_checks list | verify | ...`` and
:func:`proofs_checks.registry.default_registry`.  The data types of a claim and its
result are in :mod:`proofs_checks.model`; checks are run by :mod:`proofs_checks.runner`.
"""

import os as _os

__all__: list[str] = []

# OpenBLAS's idle threads spin for 2^28 cycles (its default) before they sleep: on a loaded 2-core machine the
# spinning thread takes the core the other needs, and a 256 x 256 solve of the audit's pattern x value fit
# took 64 ms instead of 1.5 ms (SVT3 at 10^7 calls: about 12 of its CPU seconds).  2^4 cycles lets them sleep
# at once.  Only when a thread waits changes, not how the work is split: every result is the same bit for bit
# (tests/test_audit_fit_threads.py).  Read when OpenBLAS loads, so set before anything imports numpy; a
# user's own setting wins.
_os.environ.setdefault("OPENBLAS_THREAD_TIMEOUT", "4")

__version__ = "0.1.0"
