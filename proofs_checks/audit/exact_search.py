"""Exact search of the worst neighbouring pair of a mechanism with an exact output law (``log_prob``).

Every pair of adversarial replacement records of one row first, then multi-start hill climbing over the
whole pair (:mod:`~proofs_checks.audit.hill_climb`).  For exponential mechanisms whose log-weight is a sum
over records (``score_terms(records) -> (m, K)`` and ``log_prob_from_terms(total) -> (K,)``), a candidate
costs ``O(K d)``: the total of the other ``n - 1`` rows is computed once, and only the replaced row's
terms change.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional, Sequence

import numpy as np
from numpy.typing import ArrayLike

from reference.validation import as_generator, check_integer

from .datasets import (
    CANNOT_RUN,
    domain_projector,
    exact_pair_epsilon,
    mechanism_law,
    replace_row,
    replacement_candidates,
)
from .hill_climb import (
    _BudgetSpent,
    _Climber,
    _DatasetLaws,
    _law_profile,
    _pairwise_loss,
    _Skips,
    _stack_laws,
    _start_bases,
    _State,
)
from .laws import LawError, validate_law

__all__ = ["ExactSearchResult", "search_exact"]


@dataclass
class ExactSearchResult:
    """Worst pair found by :func:`search_exact`.

    Parameters
    ----------
    epsilon : float
        Exact privacy loss of the pair at the search's ``delta`` (the larger of both directions).
    D, D_prime : numpy.ndarray
        The neighbouring datasets (2-D arrays of records); they differ in row ``row``.
    row : int
        The replaced row.
    description : str
        How the pair was found (phase, start, moves), for the audit's report.
    evaluated : int
        Law evaluations spent.
    direction : {"forward", "backward"}
        Which direction attains ``epsilon``: ``D`` against ``D_prime`` (forward) or the reverse.
    extra : dict
        Search statistics: ``incremental``, ``candidates``, ``rows``, ``improving_moves``,
        ``duplicate_pairs_skipped`` and ``skipped`` (datasets the mechanism could not run on).

    Examples
    --------
    >>> from proofs_checks.audit.calibration import RandomizedResponse
    >>> res = search_exact(RandomizedResponse(true_eps=1.0), [[0.0], [0.0]], rng=0, refine_steps=0)
    >>> isinstance(res, ExactSearchResult), res.D.shape, res.row, round(res.epsilon, 9)
    (True, (2, 1), 0, 1.0)
    """

    epsilon: float
    D: np.ndarray
    D_prime: np.ndarray
    row: int
    description: str
    evaluated: int
    direction: str = "forward"
    extra: dict = field(default_factory=dict)


def search_exact(
    mechanism: Any,
    D: ArrayLike,
    delta: float = 0.0,
    rng: Any = None,
    *,
    rows: Sequence[int] = (0,),
    candidates: Optional[ArrayLike] = None,
    max_candidates: int = 400,
    refine_steps: int = 30,
    moves_per_step: int = 16,
    top_pairs: int = 4,
    max_evaluations: Optional[int] = None,
    starts: int = 4,
    max_rows: Optional[int] = None,
) -> ExactSearchResult:
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
       other row +-1e300 or 1e-300, or mixes of 1e300, -1e300, 1e-300 and 0); on
       each, the best pair and the best pair with one coordinate negated in both
       records. The ``starts``
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

    Parameters
    ----------
    mechanism : object
        A mechanism with ``log_prob(data) -> (outputs, log_probabilities)``; optionally
        ``score_terms`` / ``log_prob_from_terms`` (O(K d) candidates), ``fixed_size`` and a domain
        (:func:`~proofs_checks.audit.datasets.domain_projector`).
    D : array_like
        Base dataset, a non-empty 2-D array of records.
    delta : float
        The delta of the hockey-stick divergence the loss is measured at.
    rng : numpy.random.Generator, int or None
        Randomness of the candidate subsample and of the climbs.
    rows : sequence of int
        Rows of ``D`` replaced in phase 1.
    candidates : array_like or None
        Replacement records of phase 1 (default: :func:`replacement_candidates`).
    max_candidates : int
        At most this many candidates (the first half kept, the rest subsampled).
    refine_steps : int
        Steps without improvement before a climb stops (>= 0; 0 skips phase 2).
    moves_per_step : int
        Proposals per step (>= 1).
    top_pairs : int
        Best pairs of phase 1 that start climbs.
    max_evaluations : int or None
        Cap on the law evaluations (>= 2), or none.
    starts : int
        Climbs run from the best starts (>= 1).
    max_rows : int or None
        Largest dataset a climb may reach (default 4n, or 16n with ``score_terms``).

    Returns
    -------
    ExactSearchResult
        The worst pair found, its exact epsilon and how it was found.

    Raises
    ------
    ValueError
        ``D`` is not a non-empty 2-D array, an integer parameter is out of range, or the mechanism runs
        on fewer than two of the datasets searched.
    LawError
        ``log_prob`` is not a probability law.

    Examples
    --------
    >>> from proofs_checks.audit.calibration import RandomizedResponse
    >>> res = search_exact(RandomizedResponse(true_eps=0.5), [[0.0], [1.0]], rng=1, max_evaluations=50)
    >>> round(res.epsilon, 9), res.evaluated <= 50
    (0.5, True)
    """
    gen = as_generator(rng)
    D = np.array(D, dtype=np.float64, copy=True)
    if D.ndim != 2 or D.shape[0] == 0 or D.shape[1] == 0:
        raise ValueError(f"D must be a non-empty 2-D array of records, got shape {D.shape}")
    refine_steps = check_integer("refine_steps", refine_steps, minimum=0)
    moves_per_step = check_integer("moves_per_step", moves_per_step, minimum=1)
    starts = check_integer("starts", starts, minimum=1)
    project = domain_projector(mechanism)
    cands, max_evaluations = _candidates(
        D, gen, project, candidates, max_candidates, max_evaluations, refine_steps, rows
    )
    incremental = hasattr(mechanism, "score_terms") and hasattr(mechanism, "log_prob_from_terms")
    vary_size = not bool(getattr(mechanism, "fixed_size", False))
    if max_rows is None:
        max_rows = (16 if incremental else 4) * D.shape[0]
    max_rows = check_integer("max_rows", max_rows, minimum=1)
    skips = _Skips()
    ranked, evaluated = _all_pairs(mechanism, D, cands, rows, delta, top_pairs, incremental, skips)
    if not ranked:
        raise ValueError(
            f"the mechanism could not run on {skips.count} of the {evaluated} datasets searched, "
            f"leaving fewer than two (first errors: {'; '.join(skips.examples)})"
        )
    ranked.sort(key=lambda t: -t[0])
    best = _State(D, ranked[0][1], ranked[0][2], ranked[0][3], ranked[0][0])
    climb = None
    if refine_steps > 0:
        budget = None if max_evaluations is None else max(0, max_evaluations - evaluated)
        best, climb = _climbs(
            mechanism,
            D,
            best,
            ranked,
            cands,
            delta,
            gen,
            project,
            skips,
            budget,
            incremental=incremental,
            vary_size=vary_size,
            max_rows=max_rows,
            starts=starts,
            refine_steps=refine_steps,
            moves_per_step=moves_per_step,
        )
        evaluated += climb["spent"]
    Da, Db = replace_row(best.base, best.row, best.a), replace_row(best.base, best.row, best.b)
    eps, direction = exact_pair_epsilon(mechanism, Da, Db, delta)
    climber = None if climb is None else climb["climber"]
    return ExactSearchResult(
        eps,
        Da,
        Db,
        best.row,
        _description(best, Da, cands, climb, vary_size, incremental, skips),
        evaluated,
        direction,
        {
            "incremental": incremental,
            "candidates": int(len(cands)),
            "rows": int(Da.shape[0]),
            "improving_moves": 0 if climber is None else climber.accepted,
            "duplicate_pairs_skipped": 0 if climber is None else climber.duplicates,
            "skipped": {"datasets": skips.count, "first_errors": skips.examples},
        },
    )


def _candidates(D, gen, project, candidates, max_candidates, max_evaluations, refine_steps, rows):
    """Phase 1's replacement records (at most ``max_candidates``, fewer on a small budget) and the checked budget."""
    if candidates is None:
        candidates = replacement_candidates(D.shape[1], gen)
    cands = project(np.asarray(candidates, dtype=np.float64))
    if cands.shape[0] > max_candidates:
        keep = np.concatenate(
            [
                np.arange(min(max_candidates // 2, cands.shape[0])),
                gen.choice(
                    np.arange(max_candidates // 2, cands.shape[0]),
                    size=max_candidates - max_candidates // 2,
                    replace=False,
                ),
            ]
        )
        cands = cands[keep]
    if max_evaluations is not None:
        max_evaluations = check_integer("max_evaluations", max_evaluations, minimum=2)
        # Small budgets (expensive log_prob) go to phase 1 whole: a climb needs hundreds of evaluations.
        share = max_evaluations if refine_steps == 0 or max_evaluations < 100 else (2 * max_evaluations) // 5
        per_row = max(2, share // max(1, len(rows)))
        if cands.shape[0] > per_row:
            cands = np.vstack([cands[: per_row // 2], cands[-(per_row - per_row // 2) :]])
    return np.unique(cands, axis=0), max_evaluations  # no duplicate candidates, hence no identical pairs


def _all_pairs(mechanism, D, cands, rows, delta, top_pairs, incremental, skips):
    """Phase 1: every pair of candidate records in each row of ``rows``; ``([(value, row, a, b)], evaluated)``
    with the ``top_pairs`` best pairs of each row."""
    evaluated = 0
    ranked = []
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
    return ranked, evaluated


def _climbs(
    mechanism,
    D,
    best,
    ranked,
    cands,
    delta,
    gen,
    project,
    skips,
    budget,
    *,
    incremental,
    vary_size,
    max_rows,
    starts,
    refine_steps,
    moves_per_step,
):
    """Phase 2: score the starts, climb the ``starts`` best; ``(best state, {"climber", "chosen", "scored",
    "spent"})``."""
    laws2 = _DatasetLaws(mechanism, incremental, skips, budget)
    climber = _Climber(laws2, delta, project, cands, gen, vary_size=vary_size, max_rows=max_rows)
    pool = [_State(D, r, a, b) for _, r, a, b in ranked]
    # The best pair, and the best pair with one coordinate negated in both records (the sign
    # pattern that pays can depend on the other rows), on every starting dataset.
    w = D.shape[1]
    flips = np.ones((1 + min(w, 8), w))
    flips[np.arange(1, flips.shape[0]), np.arange(flips.shape[0] - 1)] = -1.0
    pool += [
        _State(base, i, project((f * best.a)[None])[0], project((f * best.b)[None])[0])
        for base, i, _ in _start_bases(
            D, best.a, best.b, cands, project, gen, vary_size=vary_size, max_rows=max_rows, incremental=incremental
        )
        for f in flips
    ]
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
    return best, {"climber": climber, "chosen": chosen, "scored": scored, "spent": laws2.spent}


def _description(best, Da, cands, climb, vary_size, incremental, skips):
    """One line on the worst pair found and how the search found it."""
    p = lambda r: np.array2string(r, precision=3)  # noqa: E731
    return (
        f"row {best.row} of a {Da.shape[0]}-row dataset replaced: {p(best.a)} in D, {p(best.b)} in D' "
        f"(all pairs of {len(cands)} adversarial candidates"
        + (
            f", then {len(climb['chosen'])} hill climbs from {len(climb['scored'])} starts over the replaced "
            f"records, the other rows{', the size' if vary_size else ''} and the replaced row, "
            f"{climb['climber'].accepted} improving moves, {climb['climber'].duplicates} duplicate pairs skipped"
            if climb is not None
            else ""
        )
        + f"{'; O(K d) incremental rescoring' if incremental else ''}"
        f"{f'; {skips.count} datasets skipped: the mechanism cannot run on them' if skips.count else ''})"
    )
