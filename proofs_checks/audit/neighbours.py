"""Neighbouring datasets: the replace-one relation, adversarial replacements and loss-maximising search.

The papers' relation: ``D`` and ``D'`` are 2-D arrays of records (rows) of
the same shape that differ in at most one row.  This module

* checks the relation (:func:`check_neighbouring`, with an ``any_pair``
  escape for pairs taken as given, e.g. two vectors of query answers);
* builds a default dataset for a mechanism (:func:`default_dataset`);
* builds candidate replacement records from
  :func:`proofs_checks.adversarial.candidate_records` (huge ``|x|`` and ``|y|``
  in many sign patterns, values near 1e300 and the float64 limit, exact zeros,
  subnormals, Student-t draws) plus random records of random magnitude;
* searches, for mechanisms with an exact output law, the pair of replacements
  ``(a, b)`` of one row maximising the exact privacy loss: every pair of
  candidates, then a hill-climbing refinement of the best pairs (sign flips,
  rescaling, zeroing and saturating single coordinates).  Records placed to
  favour one output and disfavour another are found this way: the loss of a
  pair is largest exactly when ``a`` raises one output's weight and ``b``
  lowers it.

For exponential mechanisms whose log-weight is a sum over records
(``score_terms(records) -> (m, K)`` and ``log_prob_from_terms(total) -> (K,)``),
a candidate costs ``O(K d)``: the total of the other ``n - 1`` rows is computed
once, and only the replaced row's terms change.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

import numpy as np

from reference.validation import as_generator, check_integer

from ..adversarial import candidate_records
from .exact import privacy_profile
from .laws import LawError, align_laws, validate_law

__all__ = ["differing_rows", "check_neighbouring", "replace_row", "default_dataset",
           "replacement_candidates", "ExactSearchResult", "search_exact", "exact_pair_epsilon",
           "black_box_pairs", "load_pair", "mechanism_law", "CANNOT_RUN"]


def _as_dataset(name, value):
    arr = np.asarray(value)
    if arr.dtype == object or not (np.issubdtype(arr.dtype, np.number) or arr.dtype == bool):
        raise TypeError(f"{name} must be a numeric array, got dtype {arr.dtype}")
    arr = arr.astype(np.float64)
    if np.isnan(arr).any():
        raise ValueError(f"{name} contains NaN")
    return arr


def differing_rows(D, D_prime):
    """Indices of the rows where two datasets of the same shape differ."""
    a, b = _as_dataset("D", D), _as_dataset("D_prime", D_prime)
    if a.shape != b.shape:
        raise ValueError(f"D and D_prime must have the same shape, got {a.shape} and {b.shape}")
    if a.ndim == 1:
        a, b = a[:, None], b[:, None]
    return np.flatnonzero(np.any(a.reshape(len(a), -1) != b.reshape(len(b), -1), axis=1))


def check_neighbouring(D, D_prime, any_pair=False):
    """Raise ValueError unless ``D`` and ``D_prime`` differ in at most one record (row).

    With ``any_pair=True`` only the shapes must agree: the pair is taken as
    given (e.g. two vectors of query answers at sensitivity 1).
    Returns the two arrays as float64.
    """
    a, b = _as_dataset("D", D), _as_dataset("D_prime", D_prime)
    if a.ndim == 0:
        raise ValueError("D must have at least one axis (rows are records), got a scalar")
    if any_pair:
        if a.shape != b.shape:
            raise ValueError(f"D and D_prime must have the same shape, got {a.shape} and {b.shape}")
        return a, b
    rows = differing_rows(a, b)
    if rows.size > 1:
        raise ValueError(f"D and D_prime are not neighbouring: {rows.size} records differ (rows "
                         f"{rows[:10].tolist()}{'...' if rows.size > 10 else ''}); neighbouring datasets "
                         f"replace one record. Pass any_pair=True (CLI: --any-pair) to audit the pair as given")
    return a, b


def replace_row(D, row, record):
    """Copy of ``D`` with row ``row`` replaced by ``record``."""
    out = np.array(D, dtype=np.float64, copy=True)
    out[row] = record
    return out


def domain_projector(mechanism):
    """The mechanism's ``project_records(records)`` hook, or the identity.

    A mechanism whose data domain is bounded (e.g. ``||x|| <= X, |y| <= Y`` in 004)
    defines ``project_records`` to map arbitrary candidate records into it; the
    auditor applies it to every replacement it builds, so adversarial search
    stays inside the domain on which the privacy claim is made.
    """
    project = getattr(mechanism, "project_records", None)
    if project is None:
        return lambda records: records
    return lambda records: np.asarray(project(np.atleast_2d(records)), dtype=np.float64).reshape(np.shape(records))


def default_dataset(mechanism, rng=None, n=8, max_width=16):
    """A small heavy-tailed dataset the mechanism accepts.

    Uses ``mechanism.example_data(rng)`` when present, else ``record_width``
    (or ``dim``) to make ``n`` Student-t(1.5) records; otherwise probes widths
    1..``max_width`` with one call of ``sample`` and keeps the first accepted.
    """
    gen = as_generator(rng)
    if hasattr(mechanism, "example_data"):
        return np.asarray(mechanism.example_data(gen), dtype=np.float64)
    project = domain_projector(mechanism)
    width = getattr(mechanism, "record_width", None) or getattr(mechanism, "dim", None)
    if width:
        return project(gen.standard_t(1.5, size=(n, int(width))))
    errors = []
    for w in range(1, max_width + 1):
        data = gen.standard_t(1.5, size=(n, w))
        try:
            data = project(data)
            mechanism.sample(data, 1, np.random.default_rng(0))
            return data
        except (ValueError, TypeError, IndexError) as exc:
            errors.append(f"width {w}: {exc}")
    raise ValueError("could not find a record width the mechanism accepts; give pairs explicitly or "
                     f"add example_data(rng) to the mechanism (first error: {errors[0]})")


def replacement_candidates(width, rng=None, *, random_count=64, scale_count=32):
    """Adversarial candidate records of length ``width``.

    :func:`proofs_checks.adversarial.candidate_records` (extreme magnitudes in
    sign patterns, one-hot records, Student-t(1.5) draws) followed by
    ``scale_count`` random-direction records of log-uniform magnitude in
    ``[1e-3, 1e300]`` (random search over scales).
    """
    gen = as_generator(rng)
    base = candidate_records(width, gen, random_count=random_count)
    direction = gen.standard_normal((scale_count, width))
    mags = 10.0 ** gen.uniform(-3, 300, size=(scale_count, 1))
    direction /= np.max(np.abs(direction), axis=1, keepdims=True)
    return np.vstack([base, direction * mags])


@dataclass
class ExactSearchResult:
    """Worst pair found by :func:`search_exact`."""

    epsilon: float
    D: np.ndarray
    D_prime: np.ndarray
    row: int
    description: str
    evaluated: int
    direction: str = "forward"
    extra: dict = field(default_factory=dict)


#: Exceptions that mean "the mechanism cannot run on this dataset" (e.g. a printed formula giving
#: NaN): the search skips the dataset and counts it.  Anything else propagates.
CANNOT_RUN = (ValueError, ArithmeticError)


def mechanism_law(mechanism, D, where="D"):
    """The validated law of ``mechanism.log_prob(D)`` (:func:`~proofs_checks.audit.laws.validate_law`)."""
    outputs, logs = mechanism.log_prob(D)
    return validate_law(outputs, logs, where)


def _aligned_logs(mechanism, D, Dp):
    """Log-probabilities of ``D`` and ``D'`` on the union of their outputs (aligned by output value)."""
    _, lp, lq = align_laws(mechanism_law(mechanism, D, "D"), mechanism_law(mechanism, Dp, "D_prime"))
    return lp, lq


def exact_pair_epsilon(mechanism, D, D_prime, delta=0.0):
    """Exact epsilon at ``delta`` of one pair (both directions): ``(epsilon, direction)``."""
    lp, lq = _aligned_logs(mechanism, D, D_prime)
    return privacy_profile(lp, lq, delta)


def _law_profile(law_a, law_b, delta):
    (ka, wa, la), (kb, wb, lb) = law_a, law_b
    if wa == wb and ka.size == kb.size and np.array_equal(ka, kb):    # same outputs in the same order
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
            d = np.abs(L[s:s + step, None, :] - L[None, :, :])
        d = np.where(np.isnan(d), 0.0, d)      # both -inf: no mass, no loss
        out[s:s + step] = np.max(d, axis=2)
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
        elif kind == 3:                 # the content: another row
            j = int(gen.integers(n - 1))
            j += j >= row
            choice = int(gen.integers(6))
            new = (self.pool[gen.integers(len(self.pool))], self._mutate(base[j]), a, b, -base[j],
                   np.zeros_like(a))[choice]
            base = replace_row(base, j, self._rec(new))
        elif kind == 4:                 # the size: add a row or remove another
            if n > 1 and (n >= self.max_rows or gen.random() < 0.5):
                j = int(gen.integers(n - 1))
                j += j >= row
                base = np.delete(base, j, axis=0)
                row -= j < row
            else:
                pick = int(gen.integers(3))
                new = (self.pool[gen.integers(len(self.pool))], base[gen.integers(n)], -a)[pick]
                base = np.vstack([base, self._rec(new)[None]])
        elif kind == 5:                 # which row is replaced (order-dependent mechanisms)
            j = int(gen.integers(n - 1))
            j += j >= row
            base = base.copy()
            base[[row, j]] = base[[j, row]]
            row = j
        elif kind in (8, 9):            # keep D (or D') and replace another of its records
            j = int(gen.integers(n - 1))
            j += j >= row
            base = replace_row(base, row, a if kind == 8 else b)
            if kind == 8:
                a = base[j].copy()
            else:
                b = base[j].copy()
            row = j
        else:                           # one coordinate of both records: negated, or exchanged
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
    grid = sorted({n} | {2 ** k for k in range(1, 31) if 2 ** k <= max_rows}) if vary_size else [n]
    for m in grid:
        for e in extremes:
            e = project(np.asarray(e, dtype=np.float64)[None])[0]
            out.append((np.tile(e, (m, 1)), 0, f"{m} rows, all other rows {np.array2string(e, precision=3)}"))
    # Heavy-tailed extremes at the base size: every other row +-1e300 or 1e-300, and huge/tiny mixes.
    mixes = [np.full((n, w), 1e300), np.full((n, w), -1e300), np.full((n, w), 1e-300),
             np.resize([1e300, -1e300], (n, w)), np.resize([1e300, 1e-300, 0.0], (n, w))]
    out += [(project(m), 0, "heavy-tailed extreme rows") for m in mixes]
    return out


def search_exact(mechanism, D, delta=0.0, rng=None, *, rows=(0,), candidates=None, max_candidates=400,
                 refine_steps=30, moves_per_step=16, top_pairs=4, max_evaluations=None, starts=4,
                 max_rows=None):
    """Search neighbouring pairs for the largest exact epsilon at ``delta``.

    Two phases, both deterministic for a given ``rng``:

    1. **All pairs of candidates.** For each row in ``rows`` of ``D``, every pair
       ``(a, b)`` of adversarial candidate records (:func:`replacement_candidates`:
       0, subnormals, 1e-300 ... 1e300 and the float64 limit in sign patterns,
       one-hot and heavy-tailed records) gives the pair ``(D[row := a], D[row := b])``;
       the losses of all pairs are computed at once on the union of outputs.
    2. **Multi-start hill climbing** (skipped when ``refine_steps == 0``). Starts:
       the ``top_pairs`` best pairs of phase 1, the best pair moved to other rows,
       to datasets of other sizes (1, 2, n/2, 2n, 4n rows, and 16n with
       ``score_terms``), and to datasets of 2, 4, 8, ... rows whose other rows
       are all one extreme record (``a``, ``b``, ``-a``, ``-b``, zeros, a
       random candidate), and n-row datasets of heavy-tailed extremes (every
       other row +-1e300 or 1e-300, or mixes of 1e300, -1e300, 1e-300 and 0); on each, the best pair and the best pair with one
       coordinate negated in both records. The ``starts``
       best are climbed: each proposal changes ``a`` or ``b`` (flip, rescale, zero
       or saturate a coordinate, or a candidate record), one other row (a
       candidate, a mutation, a copy of ``a`` or ``b``, its negation, zeros), the
       size (one row added or removed, unless the mechanism sets
       ``fixed_size = True``; at most ``max_rows``, default 4n, or 16n with
       ``score_terms``) or which row is replaced. A proposal is kept when it
       raises the loss; a start stops after ``refine_steps`` steps of
       ``moves_per_step`` proposals without improvement.

    No pair is evaluated twice (pairs are keyed by the bytes of both datasets,
    either order) and each dataset's law is computed once. ``max_evaluations``
    caps the law evaluations (phase 1 gets at most 40% of it when phase 2
    runs, all of it below 100); the rest is shared equally by the climbs.

    Laws are compared by output value (:func:`~proofs_checks.audit.laws.align_laws`),
    so the order in which ``log_prob`` lists its outputs, and supports that move
    with the data, do not matter.  A dataset on which the mechanism raises one of
    :data:`CANNOT_RUN` is skipped and counted (``extra["skipped"]``); a ``log_prob``
    that is not a law raises :class:`~proofs_checks.audit.laws.LawError`.

    Cost: with ``score_terms``, a phase-1 candidate costs one ``score_terms`` row
    and one ``log_prob_from_terms`` (O(K d)), a phase-2 dataset one ``score_terms``
    of the whole dataset; otherwise one ``log_prob`` per dataset.
    """
    gen = as_generator(rng)
    D = np.array(D, dtype=np.float64, copy=True)
    if D.ndim != 2 or D.shape[0] == 0 or D.shape[1] == 0:
        raise ValueError(f"D must be a non-empty 2-D array of records, got shape {D.shape}")
    refine_steps = check_integer("refine_steps", refine_steps, minimum=0)
    moves_per_step = check_integer("moves_per_step", moves_per_step, minimum=1)
    starts = check_integer("starts", starts, minimum=1)
    project = domain_projector(mechanism)
    if candidates is None:
        candidates = replacement_candidates(D.shape[1], gen)
    cands = project(np.asarray(candidates, dtype=np.float64))
    if cands.shape[0] > max_candidates:
        keep = np.concatenate([np.arange(min(max_candidates // 2, cands.shape[0])),
                               gen.choice(np.arange(max_candidates // 2, cands.shape[0]),
                                          size=max_candidates - max_candidates // 2, replace=False)])
        cands = cands[keep]
    if max_evaluations is not None:
        max_evaluations = check_integer("max_evaluations", max_evaluations, minimum=2)
        # Small budgets (expensive log_prob) go to phase 1 whole: a climb needs hundreds of evaluations.
        share = max_evaluations if refine_steps == 0 or max_evaluations < 100 else (2 * max_evaluations) // 5
        per_row = max(2, share // max(1, len(rows)))
        if cands.shape[0] > per_row:
            cands = np.vstack([cands[:per_row // 2], cands[-(per_row - per_row // 2):]])
    cands = np.unique(cands, axis=0)            # no duplicate candidates, hence no identical pairs
    incremental = hasattr(mechanism, "score_terms") and hasattr(mechanism, "log_prob_from_terms")
    vary_size = not bool(getattr(mechanism, "fixed_size", False))
    if max_rows is None:
        max_rows = (16 if incremental else 4) * D.shape[0]
    max_rows = check_integer("max_rows", max_rows, minimum=1)
    evaluated = 0
    skips = _Skips()
    ranked = []                                  # (value, row, a, b) of phase 1

    for row in rows:
        row = check_integer("row", row, minimum=0, maximum=D.shape[0] - 1)
        if incremental:
            terms = np.asarray(mechanism.score_terms(D), dtype=np.float64)
            rest = terms.sum(axis=0) - terms[row]

            def law_of(record, rest=rest):
                t = np.asarray(mechanism.score_terms(np.atleast_2d(record)), dtype=np.float64)[0]
                lp = np.asarray(mechanism.log_prob_from_terms(rest + t), dtype=np.float64)
                return validate_law(np.arange(lp.size), lp, "the replaced dataset", distinct=True)
        else:
            def law_of(record, row=row):
                return mechanism_law(mechanism, replace_row(D, row, record), "the replaced dataset")

        laws = []
        for r in cands:
            try:
                laws.append(law_of(r))
            except LawError:
                raise
            except CANNOT_RUN as exc:
                skips.add(exc)
                laws.append(None)
        evaluated += len(cands)
        ok = [i for i, law in enumerate(laws) if law is not None]
        if len(ok) < 2:
            continue
        row_cands, laws = cands[ok], [laws[i] for i in ok]
        loss = _pairwise_loss(_stack_laws(laws), delta)
        flat = np.argsort(-loss, axis=None, kind="stable")[: 4 * top_pairs]
        seen = set()
        for idx in flat:
            a, b = divmod(int(idx), loss.shape[0])
            if (b, a) in seen or a == b:
                continue
            seen.add((a, b))
            if len(seen) > top_pairs:
                break
            ranked.append((_law_profile(laws[a], laws[b], delta), row, row_cands[a].copy(), row_cands[b].copy()))
    if not ranked:
        raise ValueError(f"the mechanism could not run on {skips.count} of the {evaluated} datasets searched, "
                         f"leaving fewer than two (first errors: {'; '.join(skips.examples)})")
    ranked.sort(key=lambda t: -t[0])
    best = _State(D, ranked[0][1], ranked[0][2], ranked[0][3], ranked[0][0])
    climber = None
    if refine_steps > 0:
        budget = None if max_evaluations is None else max(0, max_evaluations - evaluated)
        laws2 = _DatasetLaws(mechanism, incremental, skips, budget)
        climber = _Climber(laws2, delta, project, cands, gen, vary_size=vary_size, max_rows=max_rows)
        pool = [_State(D, r, a, b) for _, r, a, b in ranked]
        # The best pair, and the best pair with one coordinate negated in both records (the sign
        # pattern that pays can depend on the other rows), on every starting dataset.
        w = D.shape[1]
        flips = np.ones((1 + min(w, 8), w))
        flips[np.arange(1, flips.shape[0]), np.arange(flips.shape[0] - 1)] = -1.0
        pool += [_State(base, i, project((f * best.a)[None])[0], project((f * best.b)[None])[0])
                 for base, i, _ in _start_bases(D, best.a, best.b, cands, project, gen, vary_size=vary_size,
                                                max_rows=max_rows, incremental=incremental)
                 for f in flips]
        scored = []
        try:
            for st in pool:
                if climber.value(st) is not None:
                    scored.append(st)
        except _BudgetSpent:
            pass
        scored.sort(key=lambda s: -s.value)
        chosen = scored[:starts]
        for k, st in enumerate(chosen):
            end = None if budget is None else laws2.spent + (budget - laws2.spent) // (len(chosen) - k)
            st = climber.climb(st, refine_steps, moves_per_step, end)
            if st.value > best.value:
                best = st
        if scored and scored[0].value > best.value:
            best = scored[0]
        evaluated += laws2.spent
    Da, Db = replace_row(best.base, best.row, best.a), replace_row(best.base, best.row, best.b)
    eps, direction = exact_pair_epsilon(mechanism, Da, Db, delta)
    p = lambda r: np.array2string(r, precision=3)   # noqa: E731
    desc = (f"row {best.row} of a {Da.shape[0]}-row dataset replaced: {p(best.a)} in D, {p(best.b)} in D' "
            f"(all pairs of {len(cands)} adversarial candidates"
            + (f", then {len(chosen)} hill climbs from {len(scored)} starts over the replaced records, the other "
               f"rows{', the size' if vary_size else ''} and the replaced row, {climber.accepted} improving "
               f"moves, {climber.duplicates} duplicate pairs skipped" if climber is not None else "")
            + f"{'; O(K d) incremental rescoring' if incremental else ''}"
            f"{f'; {skips.count} datasets skipped: the mechanism cannot run on them' if skips.count else ''})")
    return ExactSearchResult(eps, Da, Db, best.row, desc, evaluated, direction,
                             {"incremental": incremental, "candidates": int(len(cands)), "rows": int(Da.shape[0]),
                              "improving_moves": 0 if climber is None else climber.accepted,
                              "duplicate_pairs_skipped": 0 if climber is None else climber.duplicates,
                              "skipped": {"datasets": skips.count, "first_errors": skips.examples}})


def _pattern_records(w, B):
    """The StatDP / DP-Sniper input patterns for records of width ``w`` at magnitude ``B``.

    Those tools audit a vector of ``w`` query answers at sensitivity 1 against the
    reference vector of ones, moving answers by one ("above" = +1, "below" = -1).
    For records the reference is the zero record and a move is ``+-B``: one above,
    one below, one above rest below, one below rest above, half above half below,
    all above, all below, and the "x shape" (first half against second half).
    """
    one = np.zeros(w)
    one[0] = B
    rest = np.full(w, B)
    rest[0] = 0.0
    half = np.zeros(w)
    half[: w // 2] = B
    top = np.zeros(w)
    top[w // 2:] = B
    z = np.zeros(w)
    return [(z, one, "one above"), (z, -one, "one below"), (z, one - rest, "one above, rest below"),
            (z, rest - one, "one below, rest above"),
            (z, half - top, "half above, half below"), (z, np.full(w, B), "all above"),
            (z, np.full(w, -B), "all below"), (half, top, "x shape")]


def black_box_pairs(D, *, magnitudes=(1e300, 1e3), project=None, budget=None, row=0):
    """Neighbouring pairs for a black-box audit: one replaced record, deduplicated, at most ``budget``.

    In this order, for each magnitude ``B`` (row ``row`` replaced in both datasets):

    1. ``+B`` against ``-B`` on every coordinate (the widest swing of a clipped sum);
    2. the input patterns of StatDP (Ding et al., CCS 2018) and DP-Sniper (Bichsel et
       al., S&P 2021), moved to records (:func:`_pattern_records`): the zero record
       against one above, one below, one above rest below, one below rest above, half
       above half below, all above, all below, and the x shape;
    3. alternating signs against their mirror, and ``+-B`` on the last coordinate;

    after the first magnitude, the record patterns of dataset audits: the record against its
    negation, against a copy of another record, and against the zero record.

    ``project`` (see :func:`domain_projector`) maps records into the mechanism's domain
    before the pairs are compared: two pairs equal after projection (in either order) are
    one pair, and a pair whose two records project to the same record is dropped.  So no
    pair is audited twice and the selection budget of the statistical audit is split only
    over distinct pairs.  ``budget`` keeps the first ``budget`` distinct pairs (None: all).
    Returned as ``(D, D_prime, description)`` triples.
    """
    project = project or (lambda records: records)
    D = np.array(D, dtype=np.float64, copy=True)
    n, w = D.shape
    row = check_integer("row", row, minimum=0, maximum=n - 1)
    if budget is not None:
        budget = check_integer("budget", budget, minimum=1)
    raw = []
    for k, B in enumerate(magnitudes):
        alt = np.resize([1.0, -1.0], w) * B
        last = np.zeros(w)
        last[-1] = B
        raw.append((np.full(w, B), np.full(w, -B), f"+{B:g} vs -{B:g} everywhere"))
        raw += [(a, b, f"{what} ({B:g})") for a, b, what in _pattern_records(w, B)]
        raw += [(alt, -alt, f"alternating +-{B:g} vs its mirror"),
                (last, -last, f"+{B:g} vs -{B:g} on the last coordinate")]
        if k == 0:
            raw.append((D[row], -D[row], "the record vs its negation"))
            if n > 1:
                raw.append((D[row], D[(row + 1) % n], f"the record vs a copy of row {(row + 1) % n}"))
            raw.append((D[row], np.zeros(w), "the record vs zeros"))
    out, seen = [], set()
    for a, b, what in raw:
        a, b = project(np.asarray(a, dtype=np.float64)[None])[0], project(np.asarray(b, dtype=np.float64)[None])[0]
        ka, kb = (a + 0.0).tobytes(), (b + 0.0).tobytes()
        if ka == kb or (ka, kb) in seen:
            continue
        seen.update({(ka, kb), (kb, ka)})
        out.append((replace_row(D, row, a), replace_row(D, row, b), f"row {row}: {what}"))
        if budget is not None and len(out) >= budget:
            break
    return out


def load_pair(path):
    """Read arrays ``D`` and ``D_prime`` from an ``.npz`` file."""
    with np.load(path, allow_pickle=False) as f:
        missing = [k for k in ("D", "D_prime") if k not in f.files]
        if missing:
            raise ValueError(f"pair file {path} lacks array(s) {missing}; it has {f.files}")
        return np.array(f["D"]), np.array(f["D_prime"])
