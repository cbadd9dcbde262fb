"""Helpers shared by the claim checks of 002 (Hu, Ni, Xiao & Wang): neighbouring datasets, iterates,
the reading of the neighbouring relation, and the evaluation that skips (and counts) the inputs on
which an implementation cannot run.

Neighbouring datasets replace one record [002 Def. 1] by the candidates of
:func:`proofs_checks.adversarial.candidate_records` (extreme magnitudes in every sign pattern,
plus heavy-tailed draws).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
from numpy.typing import NDArray

from ...adversarial import candidate_records, heavy_tailed_records
from ...builders import with_power_note  # noqa: F401  (re-exported to the 002 claim modules)

#: The neighbouring relation of every privacy and sensitivity claim of 002.  [002 Def. 1] (file line 54) calls
#: D, D' neighbours if they 'differ by only one data sample'; the algorithms take n as given and split the n
#: records into T parts of n/T, so the relation they can satisfy is replace-one (a removal would shift every part).
NEIGHBOURS = (
    "replace-one neighbours [002 Def. 1] (datasets that differ in one record; file line 54: 'differ by "
    "only one data sample', read as replacing one of the n records, since every algorithm splits a given n "
    "into T parts of n/T; add/remove is not checked)"
)


def variant_reading(variant: str, other_claim: str) -> str:
    """The reading of the robust-gradient variant, with the other variant's claim and its verdict.

    Parameters
    ----------
    variant : {"printed", "standard"}
        The robust-gradient variant a claim checks.
    other_claim : str
        The id of the claim that checks the other variant.

    Returns
    -------
    str
        The reading, for the claim's ``reading`` field: the formula, its place in [002] and the other reading's
        verdict.

    Examples
    --------
    >>> variant_reading("standard", "hu.x.printed").startswith("robust gradient 'standard': E phi(a + bZ)")
    True
    """
    if variant == "printed":
        return (
            "robust gradient 'printed': C-hat of [002 App. A] (explicit form, file line 1083) evaluated term by "
            "term in float64, as [002 Sec. 4] (line 146) calls it 'easy to implement'; only finite inputs with "
            "b > 0 count.  Other reading: the same estimator evaluated without cancellation ('standard') -- "
            f"{other_claim}: confirmed; as exact mathematics the printed form is that estimator "
            "(catoni.identity5.math, 50 digits)"
        )
    return (
        "robust gradient 'standard': E phi(a + bZ) of [002 eqs. (4)-(5)] (file lines 140-144) evaluated without "
        "cancellation (reference.hu.catoni.expected_phi).  Other reading: the printed C-hat in float64 -- "
        f"{other_claim}: refuted (finding 002.c-hat-float64)"
    )


#: Candidate replacement records kept in the quick profile.
QUICK_POOL_SIZE = 36


def candidate_pool(width, rng, quick):
    """Candidate replacement records: extremes and heavy-tailed draws (a random subset in the quick profile)."""
    pool = candidate_records(width, rng=rng)
    if quick:
        keep = rng.choice(pool.shape[0], size=min(pool.shape[0], QUICK_POOL_SIZE), replace=False)
        pool = pool[np.sort(keep)]
    return pool


def base_data(rng, n, d):
    """``n`` heavy-tailed records ``[x_1, ..., x_d, y]`` (Student t(1.5)) at a random scale 10^[-1, 1.5]."""
    scale = 10.0 ** rng.uniform(-1, 1.5)
    return heavy_tailed_records(d + 1, n, rng) * scale


def as_labels(records):
    """A copy of ``records`` whose responses are labels in {-1, +1} (the signs of the last column)."""
    records = records.copy()
    records[:, -1] = np.where(records[:, -1] >= 0, 1.0, -1.0)
    return records


def neighbour_stack(data, pool, rows):
    """The dataset followed by every neighbour replacing one of ``rows`` by one candidate.

    Returns
    -------
    stack : ndarray, shape (1 + len(rows) * len(pool), n, width)
        ``stack[0]`` is ``data``; ``stack[1 + j]`` is neighbour ``j``.
    replaced : list of (int, ndarray)
        ``replaced[j]`` is the row and the candidate record of neighbour ``j``.
    """
    stack, replaced = [data[None]], []
    for i in rows:
        nb = np.repeat(data[None], pool.shape[0], axis=0)
        nb[:, i] = pool
        stack.append(nb)
        replaced += [(i, c) for c in pool]
    return np.concatenate(stack), replaced


def sparse_start(rng, d, s, unit=True):
    """An ``s``-sparse iterate: signs over ``sqrt(s)`` or a random direction, on (or inside) the unit l2 sphere."""
    w = np.zeros(d)
    support = rng.choice(d, size=s, replace=False)
    if rng.random() < 0.5:
        w[support] = rng.choice([-1.0, 1.0], size=s) / math.sqrt(s)
    else:
        u = rng.normal(size=s)
        w[support] = u / np.linalg.norm(u) * (1.0 if unit else rng.random())
    return w


def corner_records(d: int, K: float) -> NDArray[np.float64]:
    """The ``2^(d+1)`` records with every entry ``+-K``: the corners of the shrunken data's range.

    Parameters
    ----------
    d : int
        The number of features (a record is ``[x, y]``, ``d + 1`` entries).
    K : float
        The shrinkage threshold of the records.

    Returns
    -------
    numpy.ndarray, shape (2^(d+1), d + 1)
        The corners, in lexicographic order of the signs.

    Examples
    --------
    >>> corner_records(1, 2.0).tolist()
    [[-2.0, -2.0], [-2.0, 2.0], [2.0, -2.0], [2.0, 2.0]]
    """
    return np.array(list(itertools.product([-K, K], repeat=d + 1)))


def squared_loss_terms(Xs, ys, w):
    """Per-record gradient ``x (<x, w> - y)`` of the squared loss (half of the gradient of ``(<x, w> - y)^2``)."""
    return Xs * (Xs @ w - ys)[:, None]


def widest_coordinate_pair(A):
    """``max_{p, q} ||A_p - A_q||_inf`` over the rows of ``A``, with the rows ``p``, ``q`` and the coordinate."""
    hi, lo = A.argmax(axis=0), A.argmin(axis=0)
    spread = A.max(axis=0) - A.min(axis=0)
    j = int(np.argmax(spread))
    return float(spread[j]), int(hi[j]), int(lo[j]), j


def law_skipping(law, stack):
    """``law(stack) -> (outputs, lp (B, M))`` over the datasets on which the implementation runs.

    The implementation refuses a dataset on which it cannot produce a finite output (the printed
    robust gradient is NaN at a zero gradient entry, ``b = 0``, outside the paper's ``b > 0``).  Such
    datasets are skipped and counted, never taken as a violation: the batch is evaluated at once and,
    when it is refused, dataset by dataset.

    Returns
    -------
    lp : ndarray (B', M)
        Rows of the datasets that run (row 0 is ``stack[0]`` when it runs).
    kept : ndarray of int
        Their indices in ``stack``.
    skipped : int
    """
    try:
        return law(stack)[1], np.arange(stack.shape[0]), 0
    except ValueError:
        rows, kept = [], []
        for b in range(stack.shape[0]):
            try:
                rows.append(law(stack[b : b + 1])[1][0])
                kept.append(b)
            except ValueError:
                continue
        width = max((r.size for r in rows), default=0)
        if any(r.size != width for r in rows):
            raise
        lp = np.array(rows) if rows else np.empty((0, 0))
        return lp, np.array(kept, dtype=np.int64), stack.shape[0] - len(kept)


def moderate_records(width, magnitudes=(10.0, 100.0, 1e3, 3e3, 1e4)):
    """Records of one moderate magnitude in every sign pattern: where the printed C-hat cancels in float64."""
    signs = np.array(list(itertools.product([1.0, -1.0], repeat=width)))
    return np.concatenate([m * signs for m in magnitudes])
