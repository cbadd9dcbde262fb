"""The neighbours :func:`proofs_checks.formulas.sensitivity.search_sensitivity` tries, phase by phase.

The search replaces one record of the base dataset at a few rows (:func:`_replaced_rows`) and runs three
phases on a search state ``s`` (:class:`proofs_checks.formulas.sensitivity._Search`: the best pair, the
evaluation count, the budget): extreme and heavy-tailed candidates with the base's own records mirrored
and repeated (:func:`_candidates_phase`, 45% of the budget), random records over the whole float64 range
and at the data's scale (:func:`_random_phase`, up to 70%), then coordinate-wise hill-climbing from the
best pair and the best record at other rows (:func:`_hill_climb_phase`).  Every draw comes from the one
generator passed in, in a fixed order, so a search is reproducible from its seed.

References
----------
.. [1] C. Dwork and A. Roth, "The algorithmic foundations of differential privacy", Def. 3.1
       (sensitivity over neighbouring datasets).
"""

from __future__ import annotations

import numpy as np

from reference.validation import check_finite_array

from ..adversarial import candidate_records

__all__ = []

#: Largest finite float64; extreme moves of the hill-climber go there.
_BIG = np.finfo(np.float64).max


def _default_indices(base, rng, count):
    """Rows worth replacing: extremes of each column and of the row norms, the ends, random rows."""
    n = base.shape[0]
    if n <= count:
        return np.arange(n)
    with np.errstate(over="ignore"):
        mags = np.max(np.abs(base), axis=1)
    picks = [0, n - 1, int(np.argmax(mags)), int(np.argmin(mags))]
    picks += [int(j) for j in np.argmax(base, axis=0)] + [int(j) for j in np.argmin(base, axis=0)]
    picks = list(dict.fromkeys(picks))[:count]
    rest = np.setdiff1d(np.arange(n), picks)
    extra = rng.choice(rest, size=min(count - len(picks), rest.size), replace=False) if rest.size else []
    return np.concatenate([np.asarray(picks, dtype=np.intp), np.asarray(extra, dtype=np.intp)])


def _random_records(width, count, scale, rng):
    """Half log-uniform magnitudes over [1e-300, 1e300] with random signs, half scaled Student-t(1.5)."""
    half = count // 2
    mags = 10.0 ** rng.uniform(-300, 300, size=(half, width))
    signs = rng.choice([-1.0, 1.0], size=(half, width))
    t = rng.standard_t(1.5, size=(count - half, width)) * 10.0 ** rng.uniform(-2, 4, size=(count - half, 1))
    with np.errstate(over="ignore"):
        t = t * scale
    # candidates must be finite records: an overflowed draw becomes the largest finite one
    t = np.where(np.isfinite(t), t, np.copysign(_BIG, t))
    return np.vstack([mags * signs, t])


def _moves(record, scale):
    """Coordinate-wise neighbours of a record for the hill-climber (all finite)."""
    out = []
    for j in range(record.size):
        v = record[j]
        cands = [-v, 0.0, scale, -scale, _BIG, -_BIG]
        if v != 0.0:
            with np.errstate(over="ignore"):
                cands += [v * f for f in (10.0, 2.0, 0.5, 0.1)]
        for c in cands:
            if np.isfinite(c) and c != v:
                r = record.copy()
                r[j] = c
                out.append(r)
    return np.array(out) if out else np.empty((0, record.size))


def _replaced_rows(indices, base, gen, max_indices):
    """The rows the search replaces: ``indices`` checked, or :func:`_default_indices`."""
    n = base.shape[0]
    if indices is None:
        return _default_indices(base, gen, max_indices)
    idx = np.asarray(indices)
    if (
        idx.ndim != 1
        or idx.size == 0
        or not np.issubdtype(idx.dtype, np.integer)
        or np.any(idx < 0)
        or np.any(idx >= n)
    ):
        raise ValueError(f"indices must be a non-empty 1-d array of row numbers in [0, {n}), got {indices!r}")
    return idx


def _run_pool(s, idx, records, share, gen):
    """Try every record at the rows ``idx`` (a random subset of the pairs when over ``share`` evaluations)."""
    if share <= 0:
        return
    pairs_i = np.repeat(idx, len(records))
    pairs_r = np.tile(records, (len(idx), 1))
    if pairs_i.size > share:
        pick = gen.choice(pairs_i.size, size=share, replace=False)
        pairs_i, pairs_r = pairs_i[pick], pairs_r[pick]
    for start in range(0, pairs_i.size, 256):
        if s.exhausted:
            break
        s.evaluate(pairs_i[start : start + 256], pairs_r[start : start + 256])


def _candidates_phase(s, idx, gen, extra_records):
    """Phase 1: extreme / heavy-tailed candidates, mirrored and duplicated base records (45% of the budget)."""
    n, width = s.base.shape
    pool = [candidate_records(width, gen), -s.base[idx], s.base[gen.choice(n, size=min(n, 16), replace=False)]]
    if extra_records is not None:
        extra = check_finite_array("extra_records", extra_records, ndim=2, shape=(None, width))
        s.evaluate(np.repeat(idx, extra.shape[0]), np.tile(extra, (len(idx), 1)))
    _run_pool(s, idx, np.vstack(pool), max(1, int(0.45 * s.budget)) - s.evaluations, gen)


def _random_phase(s, idx, scale, gen):
    """Phase 2: random records over the whole float range and heavy-tailed ones at the data's scale (up to 70%)."""
    if s.exhausted:
        return
    room = max(1, int(0.7 * s.budget) - s.evaluations)
    _run_pool(s, idx, _random_records(s.base.shape[1], max(1, room // len(idx) + 1), scale, gen), room, gen)


def _hill_climb_phase(s, scale, gen, max_indices):
    """Phase 3: coordinate-wise hill-climbing from the best pair, then the best record at other rows."""
    n = s.base.shape[0]
    stall = 0
    while not s.exhausted and s.best_pair[0] is not None and stall < 2:
        i0, r0 = s.best_pair
        before = s.best
        moves = _moves(r0, scale)
        if moves.shape[0] == 0:
            break
        s.evaluate(np.full(moves.shape[0], i0), moves)
        stall = stall + 1 if s.best <= before else 0
    if not s.exhausted and s.best_pair[0] is not None:
        others = np.arange(n) if n <= 4 * max_indices else gen.choice(n, size=4 * max_indices, replace=False)
        s.evaluate(others, np.tile(s.best_pair[1], (others.size, 1)))
