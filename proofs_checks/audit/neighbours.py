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


def search_exact(mechanism, D, delta=0.0, rng=None, *, rows=(0,), candidates=None, max_candidates=400,
                 refine_steps=30, moves_per_step=16, top_pairs=4, max_evaluations=None):
    """Search one-row replacements of ``D`` for the largest exact epsilon at ``delta``.

    For each row in ``rows``, every pair ``(a, b)`` of candidate records gives
    the neighbouring pair ``(D[row := a], D[row := b])``.  The ``top_pairs`` best
    (by pure-DP loss) are scored at ``delta`` and refined by hill climbing.
    Laws are compared by output value (:func:`~proofs_checks.audit.laws.align_laws`),
    so the order in which ``log_prob`` lists its outputs, and supports that move
    with the data, do not matter.  A dataset on which the mechanism raises one of
    :data:`CANNOT_RUN` is skipped and counted (``extra["skipped"]``); a ``log_prob``
    that is not a law raises :class:`~proofs_checks.audit.laws.LawError`.

    Cost: with ``score_terms`` each candidate costs one ``score_terms`` row and one
    ``log_prob_from_terms`` (O(K d)); otherwise one ``log_prob`` on a full dataset.
    ``max_evaluations`` caps the number of candidate evaluations (the pool is
    cut to it and refinement stops when it is spent); the search stays
    deterministic for a given ``rng``.
    """
    gen = as_generator(rng)
    D = np.array(D, dtype=np.float64, copy=True)
    if D.ndim != 2 or D.shape[0] == 0 or D.shape[1] == 0:
        raise ValueError(f"D must be a non-empty 2-D array of records, got shape {D.shape}")
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
        per_row = max(2, max_evaluations // max(1, len(rows)))
        if cands.shape[0] > per_row:
            cands = np.vstack([cands[:per_row // 2], cands[-(per_row - per_row // 2):]])
    cands = np.unique(cands, axis=0)            # no duplicate candidates, hence no identical pairs
    incremental = hasattr(mechanism, "score_terms") and hasattr(mechanism, "log_prob_from_terms")
    evaluated = 0
    skips = _Skips()
    best = None

    for row in rows:
        row = check_integer("row", row, minimum=0, maximum=D.shape[0] - 1)
        if incremental:
            terms = np.asarray(mechanism.score_terms(D), dtype=np.float64)
            rest = terms.sum(axis=0) - terms[row]

            def law_of(record, rest=rest):
                t = np.asarray(mechanism.score_terms(np.atleast_2d(record)), dtype=np.float64)[0]
                lp = np.asarray(mechanism.log_prob_from_terms(rest + t), dtype=np.float64)
                return validate_law(np.arange(lp.size), lp, "the replaced dataset")
        else:
            def law_of(record, row=row):
                return mechanism_law(mechanism, replace_row(D, row, record), "the replaced dataset")

        def laws_of(records):
            out = []
            for r in np.atleast_2d(records):
                try:
                    out.append(law_of(r))
                except LawError:
                    raise
                except CANNOT_RUN as exc:
                    skips.add(exc)
                    out.append(None)
            return out

        laws = laws_of(cands)
        evaluated += len(cands)
        ok = [i for i, law in enumerate(laws) if law is not None]
        if len(ok) < 2:
            continue
        row_cands, laws = cands[ok], [laws[i] for i in ok]
        loss = _pairwise_loss(_stack_laws(laws), delta)
        flat = np.argsort(-loss, axis=None)[: 4 * top_pairs]
        seen = []
        for idx in flat:
            a, b = divmod(int(idx), loss.shape[0])
            if (b, a) in seen or a == b:
                continue
            seen.append((a, b))
            if len(seen) > top_pairs:
                break
            ra, rb = row_cands[a].copy(), row_cands[b].copy()
            la, lb = laws[a], laws[b]
            val = _law_profile(la, lb, delta)
            steps = 0
            for _ in range(refine_steps):
                if max_evaluations is not None and evaluated + moves_per_step > max_evaluations:
                    break
                improved = False
                for which in (0, 1):
                    base = ra if which == 0 else rb
                    moves = project(_mutations(base, gen, moves_per_step))
                    Lm = laws_of(moves)
                    evaluated += len(moves)
                    for m, lm in zip(moves, Lm):
                        if lm is None:
                            continue
                        cand_val = _law_profile(lm, lb, delta) if which == 0 else _law_profile(la, lm, delta)
                        if cand_val > val:
                            val, improved = cand_val, True
                            if which == 0:
                                ra, la = m, lm
                            else:
                                rb, lb = m, lm
                steps += improved
            if best is None or val > best[0]:
                best = (val, row, ra, rb, steps)
    if best is None:
        raise ValueError(f"the mechanism could not run on {skips.count} of the {evaluated} datasets searched, "
                         f"leaving fewer than two (first errors: {'; '.join(skips.examples)})")
    val, row, ra, rb, steps = best
    Da, Db = replace_row(D, row, ra), replace_row(D, row, rb)
    eps, direction = exact_pair_epsilon(mechanism, Da, Db, delta)
    desc = (f"row {row} replaced: {np.array2string(ra, precision=3)} in D, {np.array2string(rb, precision=3)} "
            f"in D' (best of {len(cands)} adversarial candidates, all pairs, then {steps} improving "
            f"hill-climbing steps{'; O(K d) incremental rescoring' if incremental else ''}"
            f"{f'; {skips.count} datasets skipped: the mechanism cannot run on them' if skips.count else ''})")
    return ExactSearchResult(eps, Da, Db, row, desc, evaluated, direction,
                             {"incremental": incremental, "candidates": int(len(cands)),
                              "skipped": {"datasets": skips.count, "first_errors": skips.examples}})


def black_box_pairs(D, *, magnitudes=(1e300, 1e3), project=None):
    """A few one-row replacement pairs for a black-box audit: opposite extremes of row 0.

    For each magnitude ``B``: ``(+B, -B)`` on every coordinate, alternating signs
    against their mirror, and ``+B`` on the first / last coordinate against 0.
    ``project`` (see :func:`domain_projector`) maps the records into the
    mechanism's domain.  Returned with a description of each.
    """
    project = project or (lambda records: records)
    D = np.array(D, dtype=np.float64, copy=True)
    w = D.shape[1]
    out = []
    for B in magnitudes:
        alt = np.resize([1.0, -1.0], w) * B
        e0, e1 = np.zeros(w), np.zeros(w)
        e0[0], e1[-1] = B, B
        for a, b, what in ((np.full(w, B), np.full(w, -B), f"+{B:g} vs -{B:g} everywhere"),
                           (alt, -alt, f"alternating +-{B:g} vs its mirror"),
                           (e0, np.zeros(w), f"+{B:g} on coordinate 0 vs zeros"),
                           (e1, -e1, f"+{B:g} vs -{B:g} on the last coordinate")):
            a, b = project(a[None])[0], project(b[None])[0]
            out.append((replace_row(D, 0, a), replace_row(D, 0, b), f"row 0: {what}"))
    return out


def load_pair(path):
    """Read arrays ``D`` and ``D_prime`` from an ``.npz`` file."""
    with np.load(path, allow_pickle=False) as f:
        missing = [k for k in ("D", "D_prime") if k not in f.files]
        if missing:
            raise ValueError(f"pair file {path} lacks array(s) {missing}; it has {f.files}")
        return np.array(f["D"]), np.array(f["D_prime"])
