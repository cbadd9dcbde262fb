"""The smoothed threshold of a raw one-column output (``threshold_scoring="cross-fit-smooth"``).

A natural cubic spline of the log-ratio fitted by logistic regression (:class:`SmoothLogRatio`) weighs
the pooled selection outputs; the raw output's half-line is chosen on those weights and scored by its own
cross-fitted bound (the spline refitted without each held-out fold).
"""

from __future__ import annotations

import numpy as np
from scipy import special

from .cross_fit import CROSS_FIT_FOLDS, FIXED_EVENT_ERROR, _tie_positions
from .logistic import penalised_logistic_weights
from .projection import _Negated
from .thresholds import _predicted_bound, _weighted_search

__all__ = ["SmoothLogRatio", "SMOOTH_KNOT_QUANTILES", "SMOOTH_PENALTY"]

#: Knots of the natural cubic spline of the smoothed log-ratio of a raw one-column output
#: (:class:`SmoothLogRatio`), at these quantiles of the pooled selection outputs.  Fixed before the measurement
#: (docs/auditor.md, "Calibration suite, black-box Gaussian"): 5 knots; 9 knots lost laplace-correct (0.94 of
#: the oracle: the wiggles of the fitted ratio in its flat tail inflate the estimated tail probabilities).
SMOOTH_KNOT_QUANTILES = (0.02, 0.26, 0.5, 0.74, 0.98)
#: Ridge penalty of the spline's logistic fit (the basis is on the robust scale of the outputs).
SMOOTH_PENALTY = 1e-6


def _spline_basis(z, knots):
    """Natural cubic spline basis in ``z`` with the given knots (linear beyond the outer ones; Hastie, Tibshirani
    and Friedman, The Elements of Statistical Learning, 2nd ed., Sec. 5.2.1)."""
    # the outer knot's cube is the same array in every term: computed once (the same operations per element)
    outer = np.maximum(z - knots[-1], 0.0) ** 3

    def d(k):
        return (np.maximum(z - knots[k], 0.0) ** 3 - outer) / (knots[-1] - knots[k])

    last = d(knots.size - 2)
    return np.column_stack([z] + [d(k) - last for k in range(knots.size - 2)])


class SmoothLogRatio:
    """Estimated ``log dD/dD'`` of a one-column output: logistic regression on a natural cubic spline.

    Fitted on the selection rows only; it weighs the pooled selection outputs in
    :func:`~proofs_checks.audit.thresholds.best_threshold_weighted`, which chooses the threshold of the raw output
    (the event stays a half-line of the output).  The ratio enters through a few
    parameters, so the estimated tail probabilities vary much less than raw tail
    counts; a wrong fit costs power (a worse threshold), never soundness: the event is
    tested on the estimation split.
    """

    def __init__(self, a, b, sorted_x=None):
        x = np.concatenate([a, b]).astype(np.float64)
        # order statistics from the sorted outputs if given (the same values: selection on sorted data is cheap),
        # unless a zero is among them (which of -0.0 and 0.0 a selection returns depends on the order)
        xq = x if sorted_x is None or not np.all(sorted_x) else sorted_x
        with np.errstate(over="ignore", invalid="ignore"):
            self.center = float(np.median(xq))
            q = np.percentile(xq, [75, 25])
            scale = float(q[0] - q[1])
        self.scale = scale if np.isfinite(scale) and scale > 0 else 1.0
        self.ok = bool(np.isfinite(self.center) and np.isfinite(x).all())
        with np.errstate(all="ignore"):
            knots = np.unique(np.quantile(self._z(xq), SMOOTH_KNOT_QUANTILES)) if self.ok else np.zeros(0)
        self.ok = self.ok and bool(np.isfinite(knots).all())
        self.ok = self.ok and knots.size == len(SMOOTH_KNOT_QUANTILES)
        self.knots = knots
        if self.ok:
            with np.errstate(all="ignore"):
                basis = _spline_basis(self._z(x), knots)
            # outputs spread over hundreds of orders of magnitude overflow the cubes: no smoothing then
            self.ok = bool(np.isfinite(basis).all())
        if self.ok:
            with np.errstate(all="ignore"):
                self.w = penalised_logistic_weights(basis, a.size, SMOOTH_PENALTY, method="newton")
            self.ok = bool(np.isfinite(self.w).all())
        if self.ok:
            # the fitted values on the fit's own rows, from the fit's basis: the same rows, so the same floats
            # as ``self(a)``, ``self(b)`` (one product per sample, as there), without a second basis
            with np.errstate(all="ignore"):
                self.fit_values = (basis[: a.size] @ self.w[1:] + self.w[0], basis[a.size :] @ self.w[1:] + self.w[0])

    def _z(self, x):
        with np.errstate(over="ignore", invalid="ignore"):
            return (np.asarray(x, dtype=np.float64) - self.center) / self.scale

    def __call__(self, x):
        with np.errstate(all="ignore"):
            return _spline_basis(self._z(x), self.knots) @ self.w[1:] + self.w[0]


def _smooth_models(a_all, b_all, half, x_sorted=None, asc=None):
    """Splines (:class:`SmoothLogRatio`) for the smoothed threshold of a one-column output, or None.

    ``[(keep, w_plus, w_minus, held_a, held_b)]``: first the fit on all selection rows (the event tested; no
    held-out rows), then for each of :data:`CROSS_FIT_FOLDS` folds of the scoring rows (``[half:]``) the fit on
    every other selection row with its held-out fold.  ``keep`` marks the fit's rows among all selection rows
    ``(a_all, b_all)`` (None: all), and ``w_plus``, ``w_minus`` are ``sigmoid(+-l) / m`` on all selection rows
    (``l`` the fitted log-ratio, ``m`` half the fit's rows; zero off them), the weights of
    :func:`~proofs_checks.audit.thresholds.best_threshold_weighted`.  Fitted once per pair, shared by the raw output
    and its negative.  None when a fit fails or gives non-finite values (outputs over hundreds of orders of
    magnitude).  ``x_sorted``, ``asc``: the output on all selection rows sorted up and its stable argsort, if known
    (each fit's order statistics from them).
    """
    sa, sb = a_all[half:], b_all[half:]
    folds = min(CROSS_FIT_FOLDS, len(sa), len(sb))
    if folds < 2:
        return None
    fa, fb = np.arange(len(sa)) % folds, np.arange(len(sb)) % folds
    head_a, head_b = np.ones(half, dtype=bool), np.ones(len(b_all) - len(sb), dtype=bool)
    parts = [(a_all, b_all, None, None, None)]
    for f in range(folds):
        parts.append(
            (
                np.concatenate([a_all[:half], sa[fa != f]]),
                np.concatenate([b_all[:half], sb[fb != f]]),
                sa[fa == f],
                sb[fb == f],
                np.concatenate([head_a, fa != f, head_b, fb != f]),
            )
        )
    out = []
    for xa, xb, ha, hb, keep in parts:
        xs = x_sorted if keep is None or x_sorted is None else x_sorted[keep[asc]]
        m = SmoothLogRatio(xa[:, 0], xb[:, 0], xs)
        if not m.ok:
            return None
        la, lb = m.fit_values
        if not (np.isfinite(la).all() and np.isfinite(lb).all()):
            return None
        lp = np.concatenate([la, lb])
        half_rows = lp.size / 2.0
        w_plus, w_minus = special.expit(lp) / half_rows, special.expit(-lp) / half_rows
        if keep is not None:
            w_plus, w_minus = _spread(w_plus, keep), _spread(w_minus, keep)
        out.append((keep, w_plus, w_minus, ha, hb))
    return out


def _spread(values, keep):
    out = np.zeros(keep.size)
    out[keep] = values
    return out


def _smooth_thresholds(x, asc, n_first, models, n_est, delta, gamma):
    """Thresholds of the smoothed half-lines of the raw one-column output ``x`` and its negative on every fit.

    ``x`` is the output on all selection rows (the ``n_first`` rows of ``D``, then those of ``D'``), ``asc`` its
    stable argsort, and
    ``models`` the fits of :func:`_smooth_models`.  Returns ``{(negated, sign): [t per fit]}``: the threshold of
    ``{sign * s > t}`` (numerator ``D`` for sign +1) for ``s = -x`` (negated) or ``x``, chosen on the fit's rows
    weighted by its spline (:func:`~proofs_checks.audit.thresholds.best_threshold_weighted`, the plain form sorting
    each fit's rows anew).  A fit's rows keep their relative order, so each search's order is one stable sort of all
    rows restricted to them (:func:`~proofs_checks.audit.cross_fit._tie_positions` gives the other three orders),
    and the searches of equal orders share their
    cumulative weights (``x`` sign -1 and ``-x`` sign +1 without shared values between the datasets; ``x`` sign
    +1 and ``-x`` sign -1 likewise): one sort instead of twenty, the same rows, ties and sums.
    """
    xs = x[asc]
    is_first = asc < n_first
    out = {key: [] for key in ((False, 1.0), (False, -1.0), (True, 1.0), (True, -1.0))}
    for keep, w_plus, w_minus, _, _ in models:
        if keep is None:
            z_up, f_up, wp, wm = xs, is_first, w_plus[asc], w_minus[asc]
        else:
            k = keep[asc]
            z_up, f_up, wp, wm = xs[k], is_first[k], w_plus[asc][k], w_minus[asc][k]
        down, swap = _tie_positions(z_up, f_up)
        every = np.arange(z_up.size) if down is None else None  # no ties: each row its own block

        def reorder(p, arrays=(z_up, wp, wm)):
            return tuple(a[::-1] for a in arrays) if p is None else tuple(a[p] for a in arrays)

        seq = {"up": (z_up, wp, wm), "down": reorder(down)}
        seq["up_swapped"] = seq["up"] if swap is None else reorder(swap)
        seq["down_swapped"] = seq["down"] if swap is None else reorder(swap[::-1] if down is None else swap[down])
        cums, negs = {}, {}

        def cum(w):
            if id(w) not in cums:
                cums[id(w)] = np.cumsum(w)
            return cums[id(w)]

        def neg(z):
            if id(z) not in negs:
                negs[id(z)] = -z
            return negs[id(z)]

        # (statistic negated, sign) -> its order and the sign of its pooled values (see best_threshold_weighted)
        for (negated, sign), name, flip in (
            ((False, 1.0), "down", False),
            ((False, -1.0), "up_swapped", True),
            ((True, 1.0), "up", True),
            ((True, -1.0), "down_swapped", False),
        ):
            z, wp_s, wm_s = seq[name]
            w_num, w_den = (wp_s, wm_s) if sign > 0 else (wm_s, wp_s)
            t, _ = _weighted_search(
                neg(z) if flip else z, cum(w_num), cum(w_den), n_est, n_est, delta, gamma, last=every
            )
            out[(negated, sign)].append(t)
    return out


def _smooth_candidates(stat, models, thresholds, n_est, delta, gamma):
    """Smoothed-threshold events of the raw one-column statistic ``stat`` with their cross-fitted scores.

    The event tested is chosen with the spline fitted on all selection rows; for its score each held-out fold
    of the scoring rows counts the event chosen by the spline fitted without it (:func:`_smooth_models`,
    thresholds from :func:`_smooth_thresholds`), and the pooled counts are scored at
    :data:`~proofs_checks.audit.cross_fit.FIXED_EVENT_ERROR` at
    the estimation size, as :func:`~proofs_checks.audit.cross_fit._cross_fitted_bound` scores a searched threshold.
    Returns ``[(sign, t, score)]``.
    """
    negated = isinstance(stat, _Negated)
    folds = models[1:]
    n_held = sum(len(m[3]) for m in folds)
    out = []
    for sign in (1.0, -1.0):
        ts = thresholds[(negated, sign)]
        k_num = k_den = 0
        for (_, _, _, ha, hb), tf in zip(folds, ts[1:]):
            num, den = (stat(ha), stat(hb)) if sign > 0 else (-stat(hb), -stat(ha))
            k_num += np.count_nonzero(num > tf)
            k_den += np.count_nonzero(den > tf)
        out.append(
            (sign, ts[0], float(_predicted_bound(k_num, n_held, k_den, n_held, n_est, delta, gamma, FIXED_EVENT_ERROR)))
        )
    return out
