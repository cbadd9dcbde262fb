"""Parallel, reproducible Monte Carlo sweeps over a parameter grid.

Each (grid point, repetition) cell gets its own child of one
``SeedSequence`` (``SeedSequence.spawn``), assigned by cell index before any
work is scheduled, so the numbers are identical whatever the number of workers and wherever
they run (local processes or a dask cluster, see :mod:`proofs_checks.parallel`) on one type of
CPU; workers on other CPUs give the same draws but may differ in the last bits of what the
elementary functions and BLAS make of them (``docs/reproducibility.md``, section 2).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from reference.validation import check_integer

from ..parallel import run_calls, worker_count

__all__ = ["SweepResult", "run_sweep"]


@dataclass
class SweepResult:
    """Errors of a sweep: ``errors[i, r]`` is repetition ``r`` at grid point ``grid[i]``."""

    grid: list
    errors: np.ndarray
    seed: object
    repetitions: int
    extra: dict = field(default_factory=dict)

    def quantile(self, q):
        """Per-point ``q`` quantile of the errors (the high-probability statement's level)."""
        return np.quantile(self.errors, q, axis=1)


def _run_cells(trial, points, seeds):
    return [float(trial(p, np.random.default_rng(s))) for p, s in zip(points, seeds)]


def run_sweep(trial, grid, repetitions, *, seed=0, jobs=1, chunk=None):
    """Run ``trial(point, rng) -> float`` for every grid point, ``repetitions`` times.

    Parameters
    ----------
    trial : callable
        Must be picklable (a module-level function or ``functools.partial``) when ``jobs > 1``.
    grid : sequence
        Parameter points (e.g. dicts ``{"n": ..., "epsilon": ...}``).
    repetitions : int
        Independent repetitions per point.
    seed : int or numpy.random.SeedSequence
        Root of the sweep's seed tree.
    jobs : int
        Local worker processes (joblib); unused under the dask backend
        (:func:`proofs_checks.parallel.use_backend`). The result depends on neither.
    chunk : int or None
        Cells per task (default: about four tasks per worker or cluster thread).
    """
    reps = check_integer("repetitions", repetitions, minimum=1)
    jobs = check_integer("jobs", jobs, minimum=1)
    grid = list(grid)
    if not grid:
        raise ValueError("grid must not be empty")
    root = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    children = root.spawn(len(grid) * reps)
    points = [grid[i // reps] for i in range(len(children))]
    size = chunk or max(1, len(children) // (4 * worker_count(jobs)))
    batches = [(points[i : i + size], children[i : i + size]) for i in range(0, len(children), size)]
    results = run_calls([(_run_cells, (trial, p, s)) for p, s in batches], jobs)
    errors = np.array([e for batch in results for e in batch]).reshape(len(grid), reps)
    return SweepResult(grid=grid, errors=errors, seed=seed, repetitions=reps)
