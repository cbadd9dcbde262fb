"""Hill climbing over neighbouring pairs for the exact search (:func:`~proofs_checks.audit.exact_search.search_exact`).

:class:`_Climber` moves a pair's replaced records, its other rows, its size and which row is replaced,
keeping a move when the exact privacy loss grows; :class:`_DatasetLaws` computes each dataset's law once
against a budget of evaluations, and no pair is evaluated twice (:func:`_key`).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np

from .datasets import CANNOT_RUN, mechanism_law, replace_row
from .exact import privacy_profile
from .laws import LawError, align_laws, validate_law

__all__ = []


def _law_profile(law_a, law_b, delta):
    (ka, wa, la), (kb, wb, lb) = law_a, law_b
    if wa == wb and ka.size == kb.size and np.array_equal(ka, kb):  # same outputs in the same order
        return privacy_profile(la, lb, delta)[0]
    _, lp, lq = align_laws(law_a, law_b)
    return privacy_profile(lp, lq, delta)[0]


def _stack_laws(laws):
    """Laws (any output order, moving supports) as one (C, K) matrix on the union of their outputs."""
    keys = np.unique(np.concatenate([k for k, _, _ in laws]))
    L = np.full((len(laws), keys.size), -np.inf)
    for i, (k, _, lp) in enumerate(laws):
        L[i, np.searchsorted(keys, k)] = lp
    return L


def _pairwise_loss(L, delta):
    """Max over outputs of |L[a] - L[b]| for every pair of rows of L (C, K): (C, C)."""
    C = L.shape[0]
    out = np.empty((C, C))
    step = max(1, int(2**24 // max(1, C * L.shape[1])))
    for s in range(0, C, step):
        with np.errstate(invalid="ignore"):
            d = np.abs(L[s : s + step, None, :] - L[None, :, :])
        d = np.where(np.isnan(d), 0.0, d)  # both -inf: no mass, no loss
        out[s : s + step] = np.max(d, axis=2)
    return out


_FMAX = np.finfo(np.float64).max


def _mutations(record, rng, count):
    """Hill-climbing moves: flip, rescale, zero or saturate one coordinate, or rescale the record."""
    w = record.size
    moves = []
    np_err = np.seterr(over="ignore", invalid="ignore")
    for _ in range(count):
        r = record.copy()
        kind = rng.integers(5)
        j = rng.integers(w)
        if kind == 0:
            r[j] = -r[j]
        elif kind == 1:
            r[j] = r[j] * 10.0 ** rng.uniform(-3, 3) if r[j] != 0 else rng.standard_t(1.5)
        elif kind == 2:
            r[j] = 0.0
        elif kind == 3:
            r[j] = rng.choice([-1.0, 1.0]) * 10.0 ** rng.uniform(0, 300)
        else:
            r = r * 10.0 ** rng.uniform(-2, 2)
        moves.append(r)
    np.seterr(**np_err)
    with np.errstate(over="ignore", invalid="ignore"):
        out = np.array(moves)
    return np.clip(np.nan_to_num(out, nan=0.0), -_FMAX, _FMAX)


class _Skips:
    """Datasets on which the mechanism could not run: a count and the first few errors."""

    def __init__(self):
        self.count, self.examples = 0, []

    def add(self, exc):
        self.count += 1
        if len(self.examples) < 3:
            self.examples.append(f"{type(exc).__name__}: {exc}")


class _BudgetSpent(Exception):
    """The search's budget of law evaluations is spent."""


#: Laws kept by :class:`_DatasetLaws` (beyond it, datasets are re-evaluated, never wrong).
_CACHE_LIMIT = 200_000


def _key(D):
    """A dataset's shape and a 128-bit BLAKE2b digest of its bytes (-0.0 folded into 0.0).

    Equal datasets give equal keys; different ones collide with probability 2^-128.  The
    digest keeps the memory of the search's caches independent of the dataset size.
    """
    return D.shape, hashlib.blake2b(np.ascontiguousarray(D + 0.0).tobytes(), digest_size=16).digest()


class _DatasetLaws:
    """Laws of whole datasets, each computed once and counted against a budget of evaluations."""

    def __init__(self, mechanism, incremental, skips, budget):
        self.m, self.incremental, self.skips, self.budget = mechanism, incremental, skips, budget
        self.spent = 0
        self._cache = {}

    def __call__(self, D):
        k = _key(D)
        if k in self._cache:
            return self._cache[k]
        if self.budget is not None and self.spent >= self.budget:
            raise _BudgetSpent
        self.spent += 1
        try:
            if self.incremental:
                total = np.asarray(self.m.score_terms(D), dtype=np.float64).sum(axis=0)
                lp = np.asarray(self.m.log_prob_from_terms(total), dtype=np.float64)
                law = validate_law(np.arange(lp.size), lp, "a searched dataset", distinct=True)
            else:
                law = mechanism_law(self.m, D, "a searched dataset")
        except LawError:
            raise
        except CANNOT_RUN as exc:
            self.skips.add(exc)
            law = None
        if len(self._cache) < _CACHE_LIMIT:
            self._cache[k] = law
        return law


@dataclass
class _State:
    """A neighbouring pair: ``base`` with row ``row`` replaced by ``a`` (D) and by ``b`` (D')."""

    base: np.ndarray
    row: int
    a: np.ndarray
    b: np.ndarray
    value: float = -np.inf


class _Climber:
    """Multi-start hill climbing over the replaced records, the other rows, the size and the replaced row.

    Each proposal is a new pair; a pair seen before (same two datasets, either
    order) is skipped at no cost, and each dataset's law is computed once.
    """

    def __init__(self, laws, delta, project, pool, gen, *, vary_size, max_rows):
        self.laws, self.delta, self.project, self.pool, self.gen = laws, delta, project, pool, gen
        self.vary_size, self.max_rows = vary_size, max_rows
        self.seen = set()
        self.duplicates = 0
        self.accepted = 0

    def value(self, st):
        """Exact loss of the pair at ``delta``; None for a duplicate, identical or unrunnable pair."""
        Da, Db = replace_row(st.base, st.row, st.a), replace_row(st.base, st.row, st.b)
        ka, kb = _key(Da), _key(Db)
        if ka == kb:
            return None
        pk = (ka, kb) if ka[1] <= kb[1] else (kb, ka)
        if pk in self.seen:
            self.duplicates += 1
            return None
        self.seen.add(pk)
        la = self.laws(Da)
        lb = self.laws(Db) if la is not None else None
        if la is None or lb is None:
            return None
        st.value = _law_profile(la, lb, self.delta)
        return st.value

    def _rec(self, r):
        return self.project(np.asarray(r, dtype=np.float64)[None])[0]

    def _mutate(self, r):
        return self._rec(_mutations(r, self.gen, 1)[0])

    def propose(self, st):
        gen, n = self.gen, st.base.shape[0]
        base, row, a, b = st.base, st.row, st.a, st.b
        kind = int(gen.integers(10))
        if kind in (3, 5, 8, 9) and n == 1:
            kind = int(gen.integers(2))
        if kind == 4 and not self.vary_size:
            kind = 3 if n > 1 else 0
        if kind == 0:
            a = self._mutate(a)
        elif kind == 1:
            b = self._mutate(b)
        elif kind == 2:
            r = self.pool[gen.integers(len(self.pool))]
            a, b = (r, b) if gen.random() < 0.5 else (a, r)
        elif kind == 3:  # the content: another row
            j = int(gen.integers(n - 1))
            j += j >= row
            choice = int(gen.integers(6))
            new = (self.pool[gen.integers(len(self.pool))], self._mutate(base[j]), a, b, -base[j], np.zeros_like(a))[
                choice
            ]
            base = replace_row(base, j, self._rec(new))
        elif kind == 4:  # the size: add a row or remove another
            if n > 1 and (n >= self.max_rows or gen.random() < 0.5):
                j = int(gen.integers(n - 1))
                j += j >= row
                base = np.delete(base, j, axis=0)
                row -= j < row
            else:
                pick = int(gen.integers(3))
                new = (self.pool[gen.integers(len(self.pool))], base[gen.integers(n)], -a)[pick]
                base = np.vstack([base, self._rec(new)[None]])
        elif kind == 5:  # which row is replaced (order-dependent mechanisms)
            j = int(gen.integers(n - 1))
            j += j >= row
            base = base.copy()
            base[[row, j]] = base[[j, row]]
            row = j
        elif kind in (8, 9):  # keep D (or D') and replace another of its records
            j = int(gen.integers(n - 1))
            j += j >= row
            base = replace_row(base, row, a if kind == 8 else b)
            if kind == 8:
                a = base[j].copy()
            else:
                b = base[j].copy()
            row = j
        else:  # one coordinate of both records: negated, or exchanged
            j = int(gen.integers(a.size))
            a, b = a.copy(), b.copy()
            if kind == 6:
                a[j], b[j] = -a[j], -b[j]
            else:
                a[j], b[j] = b[j], a[j]
            a, b = self._rec(a), self._rec(b)
        return _State(base, int(row), np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64))

    def climb(self, st, steps, moves, budget_end):
        """Greedy first-improvement climbing from ``st``; stops after ``steps`` steps without improvement."""
        stale = 0
        while stale < steps:
            improved = False
            for _ in range(moves):
                if self.laws.budget is not None and self.laws.spent >= budget_end:
                    return st
                prop = self.propose(st)
                try:
                    v = self.value(prop)
                except _BudgetSpent:
                    return st
                if v is not None and v > st.value:
                    st, improved = prop, True
                    self.accepted += 1
            if not improved:
                try:
                    rep = self.repair(st)
                except _BudgetSpent:
                    return st
                if rep is not None:
                    st, improved = rep, True
                    self.accepted += 1
            stale = 0 if improved else stale + 1
        return st

    def repair(self, st, extra=24):
        """Best pair of replacements for ``st``'s dataset and row among a small set, all pairs at once.

        The set: ``a``, ``b``, each with one coordinate negated, and ``extra`` random
        candidates.  Escapes the local optima where two coordinates must change together.
        Returns an improving state or None.
        """
        a, b, w = st.a, st.b, st.a.size
        flips = []
        for r in (a, b):
            f = np.repeat(r[None], w, axis=0)
            f[np.arange(w), np.arange(w)] *= -1.0
            flips.append(f)
        pick = self.gen.choice(len(self.pool), size=min(extra, len(self.pool)), replace=False)
        recs = np.unique(self.project(np.vstack([a[None], b[None]] + flips + [self.pool[pick]])), axis=0)
        laws, keep = [], []
        for r in recs:
            law = self.laws(replace_row(st.base, st.row, r))
            if law is not None:
                laws.append(law)
                keep.append(r)
        if len(keep) < 2:
            return None
        loss = _pairwise_loss(_stack_laws(laws), self.delta)
        i, j = divmod(int(np.argmax(loss)), loss.shape[0])
        if i == j:
            return None
        prop = _State(st.base, st.row, keep[i].copy(), keep[j].copy())
        v = self.value(prop)
        return prop if v is not None and v > st.value else None


def _start_bases(D, a, b, pool, project, gen, *, vary_size, max_rows, incremental):
    """Starting datasets of the climb: other replaced rows, other sizes, and extreme content."""
    n, w = D.shape
    out = []
    for i in gen.permutation(np.arange(1, n))[:2]:
        out.append((D, int(i), f"row {int(i)}"))
    sizes = sorted({1, 2, max(1, n // 2), 2 * n, 4 * n} | ({16 * n} if incremental else set()))
    sizes = [m for m in sizes if m != n and m <= max_rows] if vary_size else []
    for m in sizes:
        if m < n:
            base = D[:m].copy()
        else:
            base = np.vstack([D, project(gen.standard_t(1.5, size=(m - n, w)))])
        out.append((base, 0, f"{m} rows"))
    extremes = [a, b, -a, -b, np.zeros(w), pool[gen.integers(len(pool))]]
    # Sizes on a doubling grid: with every other row one extreme record, the other rows' total runs
    # along a ray, and the grid puts a start within a factor 2 of any point of it.
    grid = sorted({n} | {2**k for k in range(1, 31) if 2**k <= max_rows}) if vary_size else [n]
    for m in grid:
        for e in extremes:
            e = project(np.asarray(e, dtype=np.float64)[None])[0]
            out.append((np.tile(e, (m, 1)), 0, f"{m} rows, all other rows {np.array2string(e, precision=3)}"))
    # Heavy-tailed extremes at the base size: every other row +-1e300 or 1e-300, and huge/tiny mixes.
    mixes = [
        np.full((n, w), 1e300),
        np.full((n, w), -1e300),
        np.full((n, w), 1e-300),
        np.resize([1e300, -1e300], (n, w)),
        np.resize([1e300, 1e-300, 0.0], (n, w)),
    ]
    out += [(project(m), 0, "heavy-tailed extreme rows") for m in mixes]
    return out
