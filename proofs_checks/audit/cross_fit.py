"""Cross-fitted scores of searched thresholds: held-out counts instead of the winner's curse of a search.

:func:`_cross_fitted_bound` scores a statistic's searched threshold by the counts of held-out folds,
each in the event chosen without it; :func:`_stable_orders` and :func:`_tie_positions` give the sort
orders these searches share (permutations by integer arithmetic instead of further sorts).
"""

from __future__ import annotations

import numpy as np

from .thresholds import _best_threshold_sorted, _predicted_bound, best_threshold

__all__ = ["FIXED_EVENT_ERROR", "CROSS_FIT_FOLDS"]

#: Error of the selection bounds of an event fixed before the scoring rows are seen (a model's own choice,
#: ``fixed_events``): 0.5 is the plug-in (median) estimate, as one event per direction carries no winner's
#: curse of a threshold search.  When such events compete, the searched thresholds are scored by the same
#: rule on held-out folds (:func:`_cross_fitted_bound`), so that neither kind is favoured.
FIXED_EVENT_ERROR = 0.5
#: Folds of the cross-fitted score of a searched threshold (:func:`_cross_fitted_bound`; used when a model's
#: fixed events compete).  Sparse vector releasing its value, 10^6 calls, seeds 2000-2002: 2 folds 2/3 refuted
#: (the joint cells' score on seed 2002: 0.918), 4 and 8 folds 3/3 (1.365; thresholds chosen on 3/4 of the
#: rows are closer to the final one chosen on all).
CROSS_FIT_FOLDS = 4


def _cross_fitted_bound(s_num, s_den, delta, gamma, n_est, selection_error, orders=None):
    """Plug-in score of a searched threshold, comparable with a fixed event's (:data:`FIXED_EVENT_ERROR`).

    The scoring rows are halved; the threshold chosen by :func:`best_threshold` on each half (pessimistic
    rule ``selection_error``, prediction at ``n_est``) is counted on the other half, and the pooled counts
    (every row counted once, for an event it did not choose) are scored at error :data:`FIXED_EVENT_ERROR`
    at the estimation size.  This estimates what a searched statistic's event gives without the winner's
    curse of its search, as a fixed event's plug-in score does; comparing the fixed event's plug-in score
    with a searched event's pessimistic one favoured the fixed event (sparse vector releasing its value,
    10^6 calls: 1 of 3 seeds refuted).  The caller keeps the threshold chosen on all scoring rows.
    ``orders``: ``(np.argsort(s_num, kind="stable"), np.argsort(s_den, kind="stable"))`` if already known
    (:func:`_stable_orders`).
    """
    folds = min(CROSS_FIT_FOLDS, s_num.size, s_den.size)
    if folds < 2:
        return best_threshold(s_num, s_den, delta, gamma, n_est=n_est, selection_error=selection_error)[1]
    fn, fd = np.arange(s_num.size) % folds, np.arange(s_den.size) % folds
    # sort once; each fold's complement is then a sorted subsequence (no sort per fold)
    on, od = (np.argsort(s_num, kind="stable"), np.argsort(s_den, kind="stable")) if orders is None else orders
    sn, sd, fns, fds = s_num[on], s_den[od], fn[on], fd[od]
    k_num = k_den = 0
    for f in range(folds):
        t, _ = _best_threshold_sorted(
            sn[fns != f], sd[fds != f], delta, gamma, n_est=n_est, selection_error=selection_error
        )
        k_num += np.count_nonzero(s_num[fn == f] > t)
        k_den += np.count_nonzero(s_den[fd == f] > t)
    return float(_predicted_bound(k_num, s_num.size, k_den, s_den.size, n_est, delta, gamma, FIXED_EVENT_ERROR))


def _stable_orders(s_a, s_b):
    """``{sign: (order of num, order of den)}``: the stable argsorts of the two directions' pooled statistics,
    ``(s_a, s_b)`` for sign +1 and ``(-s_b, -s_a)`` for -1, from two sorts instead of four (a stable sort of
    ``-s`` is the stable sort of ``s`` with its blocks of equal values reversed, :func:`_tie_positions`; NaNs,
    which sort last either way, and non-float statistics are sorted anew)."""
    up = np.argsort(s_a, kind="stable"), np.argsort(s_b, kind="stable")

    def down(s, o):
        if s.size == 0 or not np.issubdtype(s.dtype, np.floating) or np.isnan(s).any():
            return np.argsort(-s, kind="stable")
        p = _tie_positions(s[o], None)[0]
        return o[::-1].copy() if p is None else o[p]

    return {1.0: up, -1.0: (down(s_b, up[1]), down(s_a, up[0]))}


def _tie_positions(xs, first):
    """The orders of the weighted searches of a raw output as permutations of its ascending stable order.

    ``xs`` is the output sorted up by a stable sort of the pooled rows ``(D, D')`` (ties in row order) and
    ``first`` marks the rows of ``D`` in that order (None: ``swap`` not wanted).  Returns ``(down, swap)``,
    positions into it: ``xs[down]`` is the order of ``np.argsort(-x, kind="stable")`` on the same rows (the
    blocks of equal values reversed, the order inside each kept), ``xs[swap]`` that of a stable sort up of the
    pooled ``(D', D)`` rows (inside each block the rows of ``D'`` first).  ``down`` is None for a plain reversal
    (no ties), ``swap`` None for the identity (no value shared by the two datasets).  The same permutations as the
    stable sorts, by integer arithmetic on the block starts.
    """
    n = xs.size
    new = np.empty(n, dtype=bool)
    new[:1] = True
    np.not_equal(xs[1:], xs[:-1], out=new[1:])
    if new.all():
        return None, None
    starts = np.flatnonzero(new)
    sizes = np.diff(np.append(starts, n))
    block = np.cumsum(new) - 1
    start, size = starts[block], sizes[block]
    pos = np.arange(n)
    rank = pos - start
    down = np.empty(n, dtype=np.int64)
    down[n - start - size + rank] = pos
    if first is None:
        return down, None
    n_first_in = np.add.reduceat(first.astype(np.int64), starts)[block]
    moved = start + np.where(first, rank + size - n_first_in, rank - n_first_in)
    if np.array_equal(moved, pos):
        return down, None
    swap = np.empty(n, dtype=np.int64)
    swap[moved] = pos
    return down, swap
