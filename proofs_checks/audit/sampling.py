"""Drawing the statistical audit's outputs: fixed-size chunks, one child seed each, run on any backend.

The chunking depends only on the number of draws and ``chunk_size``, never on the number of workers,
so the outputs (and every count made of them) are the same whatever ``jobs`` is.
"""

from __future__ import annotations

import sys
import time

import numpy as np

from reference.validation import check_integer

from ._blas import on_one_blas_thread

__all__ = ["DEFAULT_CHUNK", "draw_outputs"]

#: Outputs per chunk (per worker task); fixes the seed layout.
DEFAULT_CHUNK = 1 << 16


def _as_rows(out, size, where, nan_code=False):
    arr = np.asarray(out)
    if arr.ndim == 0 or arr.shape[0] != size:
        raise ValueError(
            f"mechanism.sample({where}, size={size}) returned shape {arr.shape}; "
            f"its first axis must have length size={size}"
        )
    if arr.dtype == object or not (np.issubdtype(arr.dtype, np.number) or arr.dtype == bool):
        raise TypeError(f"mechanism.sample({where}) returned dtype {arr.dtype}; outputs must be numeric")
    arr = arr.reshape(size, -1)
    if np.issubdtype(arr.dtype, np.floating) and np.isnan(arr).any():
        if not nan_code:
            raise ValueError(
                f"mechanism.sample({where}) returned NaN outputs (a mechanism with log_density or log_prob must "
                "give densities of its outputs; NaN outputs are audited as atoms for black boxes only)"
            )
        arr = np.where(np.isnan(arr), NAN_CODE, arr)
    return arr


#: The finite stand-in of a NaN output of a black box: one value beyond every finite output a mechanism is
#: likely to give, so that NaN is an atom for every statistic (the category table, the cells and the one-sided
#: atoms see one repeated value, the thresholds an extreme one).  It collides with a finite output of exactly
#: 2^1000 only; the two are then one atom, which can only lower the bound (the audit stays sound).
NAN_CODE = 2.0**1000


def _chunk_sizes(n, chunk):
    full, rest = divmod(n, chunk)
    return [chunk] * full + ([rest] if rest else [])


@on_one_blas_thread  # the same sums in-process and in a worker (module _blas)
def _draw_task(mechanism, data, size, seed_seq, where, statistic=None, regions=None):
    """One chunk: draw ``size`` outputs; return them, or (with ``statistic``) region counts."""
    gen = np.random.default_rng(seed_seq)
    t0 = time.perf_counter()
    # NaN outputs are atoms of a black box; a mechanism's own log-ratio statistic would get the code, not NaN
    black_box = not (hasattr(mechanism, "log_density") or hasattr(mechanism, "log_prob"))
    out = _as_rows(mechanism.sample(data, size, gen), size, where, nan_code=black_box)
    t1 = time.perf_counter()
    if statistic is None:
        return out, t1 - t0, 0.0
    s = statistic(out)
    counts = np.array([np.count_nonzero(sign * s > thr) for sign, thr in regions], dtype=np.int64)
    return counts, t1 - t0, time.perf_counter() - t1


def _run_tasks(tasks, jobs):
    # local processes or a dask cluster, whichever proofs_checks.parallel.use_backend chose
    from ..parallel import run_calls

    return run_calls(tasks, jobs)


def draw_outputs(mechanism, data, size, seed, *, jobs=1, chunk_size=DEFAULT_CHUNK, where="D"):
    """``size`` outputs of ``mechanism`` on ``data`` as rows, reproducible whatever ``jobs``.

    ``seed`` is an int or a SeedSequence; chunk ``i`` uses child ``i`` of
    ``seed.spawn(number_of_chunks)``.
    """
    ss = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    sizes = _chunk_sizes(check_integer("size", size, minimum=1), chunk_size)
    children = ss.spawn(len(sizes))
    res = _run_tasks([(_draw_task, (mechanism, data, m, c, where)) for m, c in zip(sizes, children)], jobs)
    return _concat([r[0] for r in res], where)


def _concat(parts, where):
    shapes = {p.shape[1:] for p in parts}
    if len(shapes) > 1:
        raise ValueError(
            f"mechanism.sample({where}) returned outputs of inconsistent shape across calls: {sorted(shapes)}"
        )
    return np.concatenate(parts)


def _progress_bar(total, enabled):
    """A tqdm bar on stderr, or a silent stand-in when disabled (not a terminal)."""
    from tqdm import tqdm

    return tqdm(total=total, disable=not enabled, file=sys.stderr, desc="audit", unit="step", leave=False)
