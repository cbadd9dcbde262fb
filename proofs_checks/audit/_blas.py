"""The statistical audit's arithmetic on one BLAS thread: results that do not depend on the core count.

A matrix-vector product that sums over 10^6 selection rows (the logistic fits' gradients, the pattern x
value solves) is split over the BLAS threads and its partial sums added in an order that depends on how many
threads there are, so on a machine with another core count -- or in-process (all cores) against a joblib
worker (``cpu_count // jobs`` threads) -- thresholds differed in their last digits (docs/auditor.md,
"Results depend on the BLAS thread count").  Inside :func:`one_blas_thread` every BLAS the process has loaded
runs on one thread, so the sums are added in one order everywhere.  The audit's own parallelism (fits on two
Python threads, chunks in worker processes) is unaffected.  The same instruction set is still needed for the
same bits (OpenBLAS picks its kernels by CPU).
"""

from __future__ import annotations

_CONTROLLER = None


def one_blas_thread():
    """Context manager: every loaded BLAS limited to one thread, restored on exit.

    The libraries are looked up once per process (about 2 ms), on first use, when numpy's and scipy's
    BLAS are loaded.

    Examples
    --------
    >>> import numpy as np
    >>> with one_blas_thread():
    ...     float(np.ones(3) @ np.ones(3))
    3.0
    """
    global _CONTROLLER
    if _CONTROLLER is None:
        from threadpoolctl import ThreadpoolController

        _CONTROLLER = ThreadpoolController()
    return _CONTROLLER.limit(limits=1, user_api="blas")


def on_one_blas_thread(func):
    """Decorator: ``func`` runs inside :func:`one_blas_thread`."""
    import functools

    @functools.wraps(func)
    def pinned(*args, **kwargs):
        with one_blas_thread():
            return func(*args, **kwargs)

    return pinned
