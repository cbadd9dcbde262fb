"""Threshold searches of the statistical audit: the event ``{s > t}`` that maximises a Clopper-Pearson bound.

From the raw selection counts (:func:`best_threshold`, pessimistic or predicted at the estimation size),
or from pooled selection outputs weighted by an exact or estimated log-ratio
(:func:`best_threshold_exact`, :func:`best_threshold_weighted`); :func:`_argmax_monotone` finds the
same first maximiser as ``np.argmax`` over every candidate threshold at a fraction of the bound evaluations.
"""

from __future__ import annotations

import numpy as np
from scipy import special

from reference.validation import check_probability

from ._cp_bound import _cp_eps_vector

__all__ = ["SELECTION_ERROR", "best_threshold", "best_threshold_weighted", "best_threshold_exact"]

#: Error of the pessimistic selection-split bounds that predict an event's estimation bound
#: (:func:`best_threshold` with ``n_est``).  Black-box ratios to the oracle, 10^6 calls, 10 seeds, before ->
#: after: laplace-violating 0.986 -> 0.998, laplace2d-violating 0.966 -> 0.996, gaussian-violating
#: 0.951 -> 0.941 (docs/auditor.md has the variants tried).
SELECTION_ERROR = 0.05


def best_threshold(s_num, s_den, delta, gamma, max_thresholds=4096, n_est=None, selection_error=None):
    """Threshold t maximising the CP bound for ``S = {s > t}`` from the raw selection counts.

    ``s_num`` are statistic values on the selection split of the numerator
    dataset, ``s_den`` on the other; each one-sided bound at error ``gamma``.
    Returns ``(t, bound)``.  Without ``n_est`` the bound is evaluated at the
    selection sizes.  With ``n_est`` (the estimation size per dataset) it is
    the bound predicted at that size: ``P(S)`` and ``P'(S)`` are replaced by
    their one-sided Clopper-Pearson bounds at error :data:`SELECTION_ERROR` on
    the selection counts (pessimistic), rescaled to ``n_est`` counts, and the
    bound of step 3 is computed from those.  An event of probability 1e-3 that
    the other dataset never reaches (a leaked record) then scores what it would
    give on the larger estimation split, while the pessimism keeps a few lucky
    tail counts out of thousands of thresholds from winning (plug-in
    rescaling did: Laplace calibration cases fell to 0.81 of the oracle).
    ``selection_error`` is that error (default :data:`SELECTION_ERROR`).
    """
    return _best_threshold_sorted(np.sort(s_num), np.sort(s_den), delta, gamma, max_thresholds, n_est, selection_error)


def _sorted_unique(sa, sb):
    """``np.unique(np.concatenate([sa, sb]))`` of two sorted arrays, by a linear merge (timsort of two runs)."""
    x = np.sort(np.concatenate([sa, sb]), kind="stable")
    if x.size and np.isnan(x[-1]):
        return np.unique(x)  # NaNs: np.unique's own folding of them
    return x[np.append(True, x[1:] != x[:-1])] if x.size else x


def _best_threshold_sorted(sa, sb, delta, gamma, max_thresholds=4096, n_est=None, selection_error=None):
    """:func:`best_threshold` on the statistic already sorted (``sa``, ``sb``)."""
    pooled = _sorted_unique(sa, sb)
    pooled = pooled[np.isfinite(pooled)] if np.isfinite(pooled).any() else pooled
    if pooled.size > max_thresholds:
        idx = np.unique(np.linspace(0, pooled.size - 1, max_thresholds).round().astype(int))
        pooled = pooled[idx]
    # thresholds just below each candidate value: S = {s > t} includes the value itself
    cand = np.concatenate([[-np.inf], np.nextafter(pooled, -np.inf)])
    ka = sa.size - np.searchsorted(sa, cand, side="right")
    kb = sb.size - np.searchsorted(sb, cand, side="right")
    if n_est is None:

        def score(x, y):
            return _cp_eps_vector(x, sa.size, y, sb.size, delta, gamma)
    else:
        g = SELECTION_ERROR if selection_error is None else check_probability("selection_error", selection_error)

        def score(x, y):
            return _predicted_bound(x, sa.size, y, sb.size, n_est, delta, gamma, g)

    i, bound = _argmax_monotone(ka, kb, score)
    return float(cand[i]), float(bound)


def _argmax_monotone(ka, kb, score, block=64, tol=1e-12, sub=8):
    """``(i, score[i])`` for the first ``i`` maximising ``score(ka, kb)``, evaluating it on few candidates.

    ``ka`` and ``kb`` are non-increasing in the index (thresholds sorted up) and ``score`` is non-decreasing
    in its first argument and non-increasing in its second (a Clopper-Pearson bound in the two counts).  So
    on a block of indices ``i0..i1`` the score is at most ``score(ka[i0], kb[i1])``: blocks whose bound is
    below (by more than ``tol``, for rounding) the best score at the block starts cannot hold the maximum
    and are skipped.  Same index and value as ``np.argmax`` over every candidate (test: random counts and
    the audit's own scores), at a fraction of the special-function calls that dominated the selection of
    many-column outputs (4,097 per threshold search; NoisyHist1 at 10^7 calls: 8 s of 40).  The kept blocks are
    pruned once more in sub-blocks of ``sub`` (0: not) against the best value seen so far; the first maximiser
    is in a kept sub-block of a kept block, so the answer is the same (NoisyHist1, 2*10^6 calls: 473,246 ->
    186,022 evaluations over its 210 searches, each answer equal to the one-level search's).
    """
    m = ka.size
    if m <= 4 * block:
        v = score(ka, kb)
        i = int(np.argmax(v))
        return i, v[i]
    starts = np.arange(0, m, block)
    ends = np.minimum(starts + block, m) - 1
    best = np.max(score(ka[starts], kb[starts]))
    keep = score(ka[starts], kb[ends]) >= best - tol
    starts, ends = starts[keep], ends[keep]
    if sub and sub < block:
        # the kept blocks split into sub-blocks, pruned the same way against the best value seen so far (a
        # flat score keeps most blocks of 64: NoisyHist1 kept 37 of 65)
        ss = starts[:, None] + np.arange(0, block, sub)[None, :]
        inside = ss <= ends[:, None]
        se = np.minimum(ss + sub - 1, ends[:, None])[inside]
        ss = ss[inside]
        best = max(best, np.max(score(ka[ss], kb[ss])))
        keep = score(ka[ss], kb[se]) >= best - tol
        starts, ends, block = ss[keep], se[keep], sub
    idx = starts[:, None] + np.arange(block)[None, :]
    idx = idx[idx <= ends[:, None]]
    v = score(ka[idx], kb[idx])
    j = int(np.argmax(v))
    return int(idx[j]), v[j]


def _predicted_bound(ka, na, kb, nb, n_est, delta, gamma, g):
    """CP bound predicted at the estimation size ``n_est`` from selection counts ``ka/na``, ``kb/nb``: each
    probability replaced by its one-sided Clopper-Pearson bound at error ``g`` (pessimistic below 0.5, the
    median at 0.5), rescaled to ``n_est`` counts."""
    ka, kb = np.asarray(ka, dtype=np.float64), np.asarray(kb, dtype=np.float64)
    with np.errstate(all="ignore"):
        p_sel = np.where(ka > 0, special.betaincinv(np.maximum(ka, 1e-300), na - ka + 1, g), 0.0)
        q_sel = np.where(kb < nb, special.betainccinv(kb + 1, np.maximum(nb - kb, 1e-300), g), 1.0)
    return _cp_eps_vector(p_sel * n_est, n_est, np.minimum(q_sel * n_est, n_est), n_est, delta, gamma)


def best_threshold_weighted(z_num, z_den, l_num, l_den, n_num, n_den, delta, gamma, max_thresholds=2048):
    """Threshold of ``S = {z > t}`` from pooled selection outputs weighted by an estimated log-ratio.

    As :func:`best_threshold_exact`, but the event statistic ``z`` (here the raw output) and the log-ratio
    ``l = log dN/dO`` that weighs the pooled rows (``2 sigmoid(l)``, ``2 sigmoid(-l)``) are separate: ``l`` is
    an estimate (:class:`~proofs_checks.audit.smooth.SmoothLogRatio`), so only the choice of ``t`` depends on it.
    Returns ``(t, bound)`` with ``bound`` the plug-in estimate at the estimation sizes ``n_num, n_den``.
    """
    pooled = np.concatenate([z_num, z_den])
    lp = np.concatenate([l_num, l_den])
    m = pooled.size / 2.0
    order = np.argsort(-pooled, kind="stable")
    z, lo_ = pooled[order], lp[order]
    cum_n, cum_o = np.cumsum(special.expit(lo_) / m), np.cumsum(special.expit(-lo_) / m)
    return _weighted_search(z, cum_n, cum_o, n_num, n_den, delta, gamma, max_thresholds)


def _weighted_search(z, cum_n, cum_o, n_num, n_den, delta, gamma, max_thresholds=2048, last=None):
    """:func:`best_threshold_weighted` on the pooled rows already in its order: ``z`` sorted down (ties in the
    pooled order), ``cum_n``, ``cum_o`` the cumulative weights ``sigmoid(+-l) / m`` in that order; ``last`` the
    last index of each block of equal ``z`` if known."""
    if last is None:
        last = np.flatnonzero(np.append(z[1:] != z[:-1], True))
    if last.size == z.size:  # no ties: every row ends its block (no gather)
        P, Q = np.minimum(cum_n, 1.0), np.minimum(cum_o, 1.0)
    else:
        P, Q = np.minimum(cum_n[last], 1.0), np.minimum(cum_o[last], 1.0)

    def score(iq, ip):
        # the bound at P[ip], Q[iq]: on one index the event's own, on a block's (start, end) an upper bound
        return _cp_eps_vector(P[ip] * n_num, n_num, Q[iq] * n_den, n_den, delta, gamma)

    def argmax(idx):
        # P and Q grow with the index (cumulative non-negative weights) and the bound grows in P, falls in Q:
        # _argmax_monotone skips the blocks whose bound at (P[end], Q[start]) is below the best block start,
        # the same first maximiser and value as np.argmax of score(idx, idx) (NaN weights: every index)
        if not (np.isfinite(P[idx[-1]]) and np.isfinite(Q[idx[-1]])):
            v = score(idx, idx)
            j = int(np.argmax(v))
            return j, v[j]
        return _argmax_monotone(idx, idx, score)

    idx = np.unique(np.linspace(0, last.size - 1, min(last.size, max_thresholds)).round().astype(np.int64))
    j, bj = argmax(idx)
    lo, hi = idx[max(j - 1, 0)], idx[min(j + 1, idx.size - 1)]
    fine = np.arange(lo, hi + 1)
    if fine.size > max_thresholds:
        fine = np.unique(np.linspace(lo, hi, max_thresholds).round().astype(np.int64))
    k, bk = argmax(fine)
    i, best = (int(fine[k]), float(bk)) if bk >= bj else (int(idx[j]), float(bj))
    return float(np.nextafter(z[last[i]], -np.inf)), best


def best_threshold_exact(s_num, s_den, n_num, n_den, delta, gamma, max_thresholds=2048):
    """Threshold of ``S = {s > t}`` for an exact log-likelihood ratio ``s = log dN/dO``.

    Both samples together are a sample of the mixture ``(N + O)/2``, under which
    ``dN/dmix = 2 sigmoid(s)`` and ``dO/dmix = 2 sigmoid(-s)``; so
    ``N(s > t) = E_mix[1{s > t} 2 sigmoid(s)]`` and likewise for O.  These pooled,
    importance-weighted estimates use every selection output for both
    probabilities and vary much less than the two raw counts, which steadies
    the choice of t in the tails (where (eps, delta) audits find their events).
    The estimates are rescaled to the estimation sizes ``n_num, n_den``: :func:`best_threshold_weighted` with
    the statistic as its own log-ratio (the same operations, so the same bits).
    """
    return best_threshold_weighted(s_num, s_den, s_num, s_den, n_num, n_den, delta, gamma, max_thresholds)
