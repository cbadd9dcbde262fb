"""Picklable tasks for tests/test_parallel_dask.py, in a module light enough for worker processes to import fast."""

import numpy as np


def cauchy_mean(point, rng):
    """A heavy-tailed trial: the mean of ``n`` standard Cauchy draws."""
    return float(np.mean(rng.standard_cauchy(point["n"])))


def backend_seen(_):
    """What a task running on a worker sees as the backend (it must not submit to the cluster itself)."""
    from proofs_checks import parallel

    return parallel.active_backend()
