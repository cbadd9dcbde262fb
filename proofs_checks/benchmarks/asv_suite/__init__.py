"""asv benchmark suite of the speed targets: every benchmark is a ratio to a baseline timed in the same run.

Run from the repository root (see ``docs/benchmarks.md``)::

    asv run --config proofs_checks/benchmarks/asv.conf.json -E existing --quick

Not collected by pytest (``testpaths = ["tests"]``).
"""

import os

__all__: list[str] = []

# One BLAS thread: the baselines (matrix products) and the targets (numpy elementwise code, one
# thread) then use the same resources; a multi-threaded BLAS on a busy machine times 1 ms products
# at 80 ms and makes every ratio meaningless.  Set before numpy is imported by the benchmarks.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")
