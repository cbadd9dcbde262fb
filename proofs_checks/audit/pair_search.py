"""Pair search for black-box audits: neighbouring pairs chosen on calls of their own, before the audit.

The fixed black-box pairs (:func:`~proofs_checks.audit.datasets.black_box_pairs`: magnitudes ``1e300`` and
``1e3``, the StatDP / DP-Sniper patterns) miss a leak that shows only for other records.  :func:`search_pairs`
spends a budget of mechanism calls on candidate pairs (one record of the base dataset replaced):

1. **heavy-tailed records**: log-uniform magnitudes over ``[1e-2, 1e4]`` with random signs, Cauchy records scaled
   like the data, and the StatDP / DP-Sniper patterns (one above, one below, one above rest below, one below rest
   above, half above half below, all above, all below, the x shape) at those magnitudes, each against the base
   record, its negation or the zero record;
2. **hill climbing** on the estimated divergence: the best pairs' records scaled by 2, 1/2, 5/4, 4/5 or with one
   coordinate's sign flipped, kept when the estimate grows.

The estimate of a pair is the pessimistic score of the best threshold event of each output column (at most 8)
in either direction (:func:`~proofs_checks.audit.thresholds.best_threshold`), from ``calls_per_pair`` calls per
dataset.  The search draws from its own seed (:data:`SEARCH_SPAWN_KEY`), never from the selection or the
estimation split of the audit, so the pairs it returns are fixed before the audit draws anything: the audit's
confidence holds as for given pairs (:mod:`~proofs_checks.audit.classifiers`, proof note).

References
----------
.. [1] Z. Ding, Y. Wang, G. Wang, D. Zhang and D. Kifer, "Detecting violations of differential privacy",
       CCS 2018 (input patterns).
.. [2] B. Bichsel, S. Steffen, I. Bogunovic and M. Vechev, "DP-Sniper: black-box discovery of differential privacy
       violations using classifiers", IEEE S&P 2021.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from reference.validation import check_integer

from .datasets import _pattern_records
from .sampling import draw_outputs
from .thresholds import best_threshold

__all__ = ["search_pairs", "PairSearch", "SEARCH_SPAWN_KEY", "MAX_COLUMNS"]

#: Spawn key of the search's SeedSequence: ``SeedSequence(seed, spawn_key=SEARCH_SPAWN_KEY)`` is no child the
#: statistical audit spawns from ``SeedSequence(seed)`` (those have keys ``(0,)``, ``(1,)``, ...).
SEARCH_SPAWN_KEY = (0x50414952,)
#: Output columns scored per pair.
MAX_COLUMNS = 8
_GAMMA = 0.025
_MOVES = (2.0, 0.5, 1.25, 0.8)


@dataclass
class PairSearch:
    """What :func:`search_pairs` found.

    Attributes
    ----------
    pairs : list of (ndarray, ndarray, str)
        The best pairs, best first, with descriptions.
    calls : int
        Mechanism calls spent (both datasets).
    evaluations : int
        Pairs estimated.
    scores : list of float
        The estimates of ``pairs``.
    skipped : int
        Candidate pairs on which the mechanism raised (not counted as calls).
    """

    pairs: list = field(default_factory=list)
    calls: int = 0
    evaluations: int = 0
    scores: list = field(default_factory=list)
    skipped: int = 0

    def as_dict(self):
        """A JSON-ready summary (no datasets)."""
        return {
            "calls": self.calls,
            "evaluations": self.evaluations,
            "skipped_cannot_run": self.skipped,
            "pairs": [d for _, _, d in self.pairs],
            "scores": [round(float(s), 4) for s in self.scores],
        }


def _score(a, b, delta, n_est):
    best = 0.0
    for c in range(min(a.shape[1], MAX_COLUMNS)):
        sa, sb = a[:, c], b[:, c]
        for num, den in ((sa, sb), (-sb, -sa)):
            best = max(best, best_threshold(num, den, delta, _GAMMA, n_est=n_est)[1])
    return best


def _replaced(base, row, record):
    d = base.copy()
    d[row] = record
    return d


def _first_records(base, row, gen, count):
    """Candidate (record, other record, description) triples: heavy tails and the patterns, in a random order."""
    w = base.shape[1]
    scale = float(np.max(np.abs(base))) or 1.0
    out = []
    for _ in range(count):
        kind = gen.integers(4)
        mag = 10.0 ** gen.uniform(-2.0, 4.0)
        if kind == 0:
            r = mag * gen.choice([-1.0, 1.0], size=w)
            name = "log-uniform"
        elif kind == 1:
            r = scale * gen.standard_cauchy(w)
            name = "Cauchy"
        else:
            pats = _pattern_records(w, mag)
            z, r, name = pats[gen.integers(len(pats))]
            out.append((r, z, f"{name} at {mag:.3g}"))
            continue
        other = (base[row], -r, np.zeros(w))[gen.integers(3)]
        out.append((r, np.array(other, dtype=np.float64), f"{name} record"))
    return out


def search_pairs(mechanism, base, budget, delta=0.0, *, seed=0, keep=2, calls_per_pair=None, row=0, project=None):
    """Neighbouring pairs with the largest estimated divergence, found on ``budget`` calls of their own.

    Parameters
    ----------
    mechanism : object
        ``sample(data, size, rng)``.
    base : array_like, shape (n, w)
        The base dataset; row ``row`` is replaced.
    budget : int
        Mechanism calls the search may spend (both datasets together; >= 2 ``calls_per_pair``).
    delta : float
        The claim's delta (the score's events).
    seed : int
        The audit's seed (the search uses its own stream, :data:`SEARCH_SPAWN_KEY`).
    keep : int
        Pairs returned.
    calls_per_pair : int, optional
        Calls per dataset of one estimate (default: ``budget / 80`` within [100, 5000]).
    row : int
        The replaced row.
    project : callable, optional
        Maps records into the mechanism's domain (:func:`~proofs_checks.audit.datasets.domain_projector`).

    Returns
    -------
    PairSearch

    Raises
    ------
    ValueError
        ``budget`` below two estimates, ``keep`` below 1.

    Examples
    --------
    >>> class Count:
    ...     def sample(self, data, size, rng):
    ...         return (np.clip(data[:, 0], 0, 1).sum() + rng.laplace(0, 1, size))[:, None]
    >>> found = search_pairs(Count(), np.zeros((3, 1)), 4000, seed=1, calls_per_pair=200)
    >>> found.calls <= 4000 and len(found.pairs) == 2
    True
    """
    base = np.array(base, dtype=np.float64, ndmin=2)
    keep = check_integer("keep", keep, minimum=1)
    budget = check_integer("budget", budget, minimum=1)
    m = calls_per_pair if calls_per_pair is not None else int(min(5000, max(100, budget // 80)))
    m = check_integer("calls_per_pair", m, minimum=10)
    if budget < 4 * m:
        raise ValueError(f"budget={budget} is below two estimates of {2 * m} calls; give a larger pair budget")
    root = np.random.SeedSequence(int(seed), spawn_key=SEARCH_SPAWN_KEY)
    gen = np.random.default_rng(root.spawn(1)[0])
    proj = project or (lambda x: x)
    result = PairSearch()
    scored = []  # (score, order, record, other, description)
    seen = set()

    def evaluate(r, other, desc):
        r, other = np.asarray(proj(r[None, :]))[0], np.asarray(proj(other[None, :]))[0]
        key = (r.tobytes(), other.tobytes())
        if np.array_equal(r, other) or key in seen or result.calls + 2 * m > budget:
            return
        seen.add(key)
        sa, sb = root.spawn(2)
        try:
            a = draw_outputs(mechanism, _replaced(base, row, r), m, sa, where="D")
            b = draw_outputs(mechanism, _replaced(base, row, other), m, sb, where="D_prime")
        except Exception:  # a record outside the mechanism's domain: the pair cannot run, it is not a finding
            result.skipped += 1
            return
        result.calls += 2 * m
        result.evaluations += 1
        scored.append((_score(a, b, delta, m), len(scored), r, other, desc))

    n_first = max(2, budget // (2 * m) * 2 // 3)
    for r, other, desc in _first_records(base, row, gen, n_first):
        evaluate(r, other, desc)
    while result.calls + 2 * m <= budget:
        before = result.calls
        for _score_of, _, r, other, desc in sorted(scored, key=lambda t: (-t[0], t[1]))[:3]:
            move = gen.integers(len(_MOVES) + 1)
            if move < len(_MOVES):
                r2 = r * _MOVES[move]
            else:
                r2 = r.copy()
                c = gen.integers(r.size)
                r2[c] = -r2[c]
            evaluate(r2, other, desc.split(" (climbed)")[0] + " (climbed)")
        if result.calls == before:
            break
    best = sorted(scored, key=lambda t: (-t[0], t[1]))[:keep]
    result.pairs = [
        (_replaced(base, row, r), _replaced(base, row, o), f"searched: {d}, record {np.round(r, 4).tolist()}")
        for _, _, r, o, d in best
    ]
    result.scores = [s for s, *_ in best]
    return result
