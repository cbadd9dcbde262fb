"""Adversarial neighbours: the replaced (or added, removed) record searched, not drawn at random.

The algorithm runs once on ``D`` (recorded, one seed); every candidate neighbour ``D'`` is one replay of that
transcript, scored by the largest ratio, over the calls both runs made, of the measured input distance to the
declared sensitivity (:func:`~.sensitivity.worst_call`).  A replay that diverges (another call or public
argument, or another declared privacy, sensitivity or norm) scores ``inf`` and ends the search: it is already a
refutation.

1. Extremes: every row in :data:`EXTREMES` (1e300, -1e300, 1e-300, 0, subnormals, the largest float, NaN and
   +-inf) written over a whole record, then over one coordinate at a time, at the rows most likely to matter
   (first, last, largest and smallest norm); with ``add-remove`` also each such record appended, and each of
   those rows removed.  A candidate the algorithm rejects (it raises: NaN or inf outside its domain) is skipped.
2. Hill climbing from the best finite candidate: one coordinate of the record multiplied by 10, 0.1 or -1, or
   moved by a Gaussian step of its own size; a step is kept when the ratio grows.

Each replay is one evaluation of the stated ``budget``; the search stops when it is spent.

References
----------
.. [1] T. Cebere, D. Erb, D. Desfontaines, A. Bellet and J. Fitzsimons, "Re:cord-play", PETS 2026 (random
   neighbours; here searched).
.. [2] Y. Bichsel, T. Gehr, D. Drachsler-Cohen, P. Tsankov and M. Vechev, "DP-Finder: finding differential
   privacy violations by sampling and optimization", CCS 2018 (search over neighbouring inputs).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .control_flow import declared_divergence
from .runs import AlgorithmError, Divergence, path_seeds, recorded_run
from .sensitivity import worst_call

__all__ = ["RELATIONS", "EXTREMES", "NeighbourSearchResult", "search_neighbours"]

RELATIONS = ("replace-one", "add-remove")

#: The values tried first, in order: heavy-tailed extremes, tiny and subnormal magnitudes, then non-finite.
EXTREMES = (
    1e300,
    -1e300,
    np.finfo(np.float64).max,
    -np.finfo(np.float64).max,
    1e-300,
    -1e-300,
    0.0,
    5e-324,
    -5e-324,
    np.finfo(np.float64).tiny / 2.0,
    1e6,
    -1e6,
    np.nan,
    np.inf,
    -np.inf,
)


@dataclass(frozen=True)
class NeighbourSearchResult:
    """The worst neighbour found by :func:`search_neighbours`.

    Parameters
    ----------
    D, D_prime : numpy.ndarray
        The pair (float64 copies; ``D`` is the searched dataset).
    ratio : float
        The largest measured/declared sensitivity ratio over the calls (``inf`` for a divergence).
    call : dict or None
        The call of that ratio: index, site, primitive, norm, measured, declared.
    divergence : dict or None
        The replay's first divergence, when the best neighbour changed the control flow or a public argument.
    relation : str
        ``"replace-one"`` or ``"add-remove"``.
    change : str
        What was changed, e.g. ``"row 3 <- [1e+300]"``.
    evaluations : int
        Replays spent (at most the budget); ``rejected`` of them raised in the algorithm.
    rejected : int
        Candidates the algorithm rejected.
    budget : int
        The evaluation budget.

    Examples
    --------
    >>> from reference.mechanisms import laplace_mechanism
    >>> def noisy_sum(data, rng):
    ...     return laplace_mechanism(float(np.clip(data, 0, 1).sum()), sensitivity=1.0, epsilon=1.0, rng=rng)
    >>> found = search_neighbours(noisy_sum, np.zeros(5), budget=20)
    >>> found.ratio, found.evaluations <= 20
    (1.0, True)
    """

    D: np.ndarray
    D_prime: np.ndarray
    ratio: float
    call: dict | None
    divergence: dict | None
    relation: str
    change: str
    evaluations: int
    rejected: int
    budget: int

    def as_dict(self) -> dict[str, Any]:
        """The result as JSON-able values (the pair as lists).

        Returns
        -------
        dict

        Examples
        --------
        >>> r = NeighbourSearchResult(np.zeros(1), np.ones(1), 0.5, None, None, "replace-one", "row 0", 3, 0, 10)
        >>> r.as_dict()["D_prime"]
        [1.0]
        """
        from ...jsonable import to_jsonable

        return to_jsonable(
            {
                "D": self.D,
                "D_prime": self.D_prime,
                "ratio": self.ratio,
                "call": self.call,
                "divergence": self.divergence,
                "relation": self.relation,
                "change": self.change,
                "evaluations": self.evaluations,
                "rejected": self.rejected,
                "budget": self.budget,
            }
        )


class _Budget(Exception):
    """The evaluation budget is spent."""


class _Search:
    def __init__(self, algorithm, data, seed, budget):
        from reference.mechanisms.recorder import ControlFlowDivergence, replaying

        self._replaying, self._divergence = replaying, ControlFlowDivergence
        self.algorithm, self.data, self.budget = algorithm, data, budget
        self.seed = path_seeds(seed, 1, 3)[0]
        self.recorded, self.transcript = recorded_run(algorithm, data, self.seed, "D")
        self.evaluations = self.rejected = 0
        self.best = None  # (ratio, D_prime, call, divergence, change)

    def evaluate(self, candidate: np.ndarray, change: str) -> float | None:
        if self.evaluations >= self.budget:
            raise _Budget
        self.evaluations += 1
        divergence = None
        try:
            with self._replaying(self.transcript) as replay:
                self.algorithm(candidate, np.random.default_rng(self.seed))
        except self._divergence as exc:
            divergence = Divergence(exc.index, exc.site, exc.field, exc.recorded, exc.replayed).as_dict()
        except Exception:  # the candidate is outside the algorithm's domain
            self.rejected += 1
            return None
        replayed = tuple(replay.calls)
        declared = declared_divergence(self.recorded, replayed)
        if declared is not None:
            divergence = declared.as_dict()
        if divergence is None and not replay.complete:
            last = self.recorded[len(replayed)]
            divergence = Divergence(len(replayed), last.site, "end of run", last.primitive, None).as_dict()
        worst = worst_call(self.recorded, replayed)
        ratio = math.inf if divergence is not None else (worst["ratio"] if worst else 0.0)
        if self.best is None or ratio > self.best[0]:
            self.best = (ratio, candidate, worst, divergence, change)
        return ratio

    @property
    def found_violation(self) -> bool:
        return self.best is not None and math.isinf(self.best[0])


def _rows_to_try(data: np.ndarray) -> list[int]:
    norms = np.abs(data.reshape(data.shape[0], -1)).sum(axis=1)
    order = [0, data.shape[0] - 1, int(np.argmax(norms)), int(np.argmin(norms))]
    return list(dict.fromkeys(order))


def _replaced(data, row, record):
    out = data.copy()
    out[row] = record
    return out


def _candidates(data: np.ndarray, relation: str):
    """``(D', change, record, row)`` in search order (record/row for the hill climb; row None when appended)."""
    record_shape = data.shape[1:]
    width = int(np.prod(record_shape)) if record_shape else 1
    rows = _rows_to_try(data)
    for value in EXTREMES:
        record = np.full(record_shape, value)
        if relation == "replace-one":
            for row in rows[:2]:
                yield _replaced(data, row, record), f"row {row} <- all {float(value)!r}", record, row
        else:
            yield np.concatenate([data, record[None]]), f"added record all {float(value)!r}", record, None
    if relation == "add-remove":
        for row in rows:
            yield np.delete(data, row, axis=0), f"removed row {row}", None, None
    row_choices: list[int | None] = list(rows) if relation == "replace-one" else [None]  # None: an appended record
    if width > 1:
        for value in EXTREMES:
            for j in range(width):
                for choice in row_choices:
                    base = data[choice] if choice is not None else np.zeros(record_shape)
                    record = base.copy().reshape(-1)
                    record[j] = value
                    record = record.reshape(record_shape)
                    if choice is None:
                        yield (
                            np.concatenate([data, record[None]]),
                            f"added record, coordinate {j} = {float(value)!r}",
                            record,
                            None,
                        )
                    else:
                        yield (
                            _replaced(data, choice, record),
                            f"row {choice}, coordinate {j} <- {float(value)!r}",
                            record,
                            choice,
                        )


def _hill_climb(search: _Search, data, start_record, row, rng):
    record = np.array(start_record, dtype=np.float64, copy=True).reshape(-1)
    current = search.best[0]
    shape = data.shape[1:]
    while not search.found_violation:
        j = int(rng.integers(record.size))
        proposal = record.copy()
        move = int(rng.integers(4))
        size = abs(proposal[j]) if proposal[j] != 0 else 1.0
        proposal[j] = (proposal[j] * (10.0, 0.1, -1.0)[move]) if move < 3 else proposal[j] + rng.normal() * size
        candidate_record = proposal.reshape(shape)
        if row is None:
            candidate = np.concatenate([data, candidate_record[None]])
            change = f"added record {candidate_record.tolist()!r}"
        else:
            candidate = _replaced(data, row, candidate_record)
            change = f"row {row} <- {candidate_record.tolist()!r}"
        ratio = search.evaluate(candidate, change)
        if ratio is not None and ratio > current:
            record, current = proposal, ratio


def search_neighbours(
    algorithm: Callable[[Any, np.random.Generator], Any],
    D: ArrayLike,
    *,
    relation: str = "replace-one",
    budget: int = 200,
    seed: int = 0,
) -> NeighbourSearchResult:
    """The neighbour of ``D`` that maximises measured/declared sensitivity over the algorithm's calls.

    Parameters
    ----------
    algorithm : callable
        ``algorithm(data, rng)``, built from recorded primitives.
    D : array_like of real numbers, shape (n, ...)
        The dataset; records are its rows.  Searched on a float64 copy.
    relation : {"replace-one", "add-remove"}
        Replace one record, or add one record / remove one.
    budget : int, default 200
        Replays of the algorithm at most (the one recorded run on ``D`` not counted).
    seed : int, default 0
        Seed of the recorded run and of the hill climb's moves.

    Returns
    -------
    NeighbourSearchResult

    Raises
    ------
    TypeError
        If ``algorithm`` is not callable, ``D`` not real numbers or ``budget``/``seed`` not integers.
    ValueError
        If ``D`` has no record, ``relation`` is unknown, ``budget < 1``, every candidate was rejected, or the
        algorithm raised on ``D`` itself.

    References
    ----------
    .. [1] T. Cebere et al., "Re:cord-play", PETS 2026; Y. Bichsel et al., "DP-Finder", CCS 2018.

    Examples
    --------
    >>> from reference.mechanisms import laplace_mechanism
    >>> def unclipped_mean(data, rng):  # declares the sensitivity of data clipped to [0, 1], clips nothing
    ...     return laplace_mechanism(float(np.mean(data)), sensitivity=1.0 / len(data), epsilon=1.0, rng=rng)
    >>> found = search_neighbours(unclipped_mean, np.zeros(4), budget=10)
    >>> found.change, found.ratio > 1e299
    ('row 0 <- all 1.7976931348623157e+308', True)
    """
    from .validation import check_algorithm, check_dataset, check_int

    check_algorithm(algorithm)
    data = np.array(check_dataset("D", D), dtype=np.float64)
    if data.ndim == 0 or data.shape[0] == 0:
        raise ValueError(f"D must have at least one record (rows), got shape {data.shape}")
    if relation not in RELATIONS:
        raise ValueError(f"relation must be one of {RELATIONS}, got {relation!r}")
    budget = check_int("budget", budget, minimum=1)
    seed = check_int("seed", seed, minimum=0)
    try:
        search = _Search(algorithm, data, seed, budget)
    except AlgorithmError as exc:
        raise ValueError(f"D: {exc}") from exc
    rng = np.random.default_rng(path_seeds(seed, 1, 4)[0])
    starts = []
    try:
        for candidate, change, record, row in _candidates(data, relation):
            ratio = search.evaluate(candidate, change)
            if ratio is not None and math.isfinite(ratio) and record is not None and np.all(np.isfinite(record)):
                starts.append((ratio, record, row))
            if search.found_violation:
                break
        if not search.found_violation and starts:
            ratio, record, row = max(starts, key=lambda s: s[0])
            _hill_climb(search, data, record, row, rng)
    except _Budget:
        pass
    if search.best is None:
        raise ValueError(f"every candidate neighbour of D was rejected by the algorithm ({search.rejected} tried)")
    ratio, D_prime, call, divergence, change = search.best
    return NeighbourSearchResult(
        D=data,
        D_prime=D_prime,
        ratio=float(ratio),
        call=call,
        divergence=divergence,
        relation=relation,
        change=change,
        evaluations=search.evaluations,
        rejected=search.rejected,
        budget=budget,
    )
