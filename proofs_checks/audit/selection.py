"""Selection phase of the statistical audit: draw the selection split and choose the one event to test.

Every candidate statistic (:mod:`~proofs_checks.audit.candidates`) of every pair competes in both
directions; the winner is the event ``{sign * s(o) > t}`` with the largest score.  A function of the
selection draws alone, so the estimation split tests a fixed event (:mod:`~proofs_checks.audit.statistical`).
"""

from __future__ import annotations

import time

import numpy as np

from ._blas import on_one_blas_thread
from .candidates import ExactLogRatio, _few_categories, _is_raw, candidate_statistics
from .checks import DEFAULT_THRESHOLD_SCORING, check_fixed_event_scoring, check_threshold_scoring
from .cross_fit import FIXED_EVENT_ERROR, _cross_fitted_bound, _stable_orders
from .pattern_value import fit_pattern_value
from .projection import Projection
from .sampling import DEFAULT_CHUNK, draw_outputs
from .smooth import _smooth_candidates, _smooth_models, _smooth_thresholds
from .thresholds import SELECTION_ERROR, _predicted_bound, best_threshold, best_threshold_exact

__all__ = ["select_event", "DISCRETE_SELECTION_ERROR", "FIXED_EVENT_SIZE_FACTOR"]

#: Error of the pessimistic selection bounds for few-valued outputs
#: (see :data:`~proofs_checks.audit.candidates.FEW_CATEGORIES`).
DISCRETE_SELECTION_ERROR = 0.2
#: A model fixes its event for at most this many times the scoring rows: at 10^8 calls a choice for the full
#: estimation size (4.9*10^7 per input) favoured events too small for 5*10^5 scoring rows to tell from other
#: candidates (SVT3 seed 0: a good event, exact bound 0.249, scored 0.089 and lost to one of exact 0.062);
#: 8 is the ratio at 10^7 calls, where the choice was measured.
FIXED_EVENT_SIZE_FACTOR = 8


@on_one_blas_thread
def select_event(
    mechanism,
    pairs,
    sel_seeds,
    n_sel,
    n_est,
    delta,
    gamma,
    *,
    statistic="auto",
    attack="auto",
    features=None,
    jobs=1,
    chunk_size=DEFAULT_CHUNK,
    bar=None,
    scores=None,
    fixed_event_scoring="plug-in",
    threshold_scoring=DEFAULT_THRESHOLD_SCORING,
):
    """Selection phase of :func:`~proofs_checks.audit.statistical.statistical_audit`: draw ``n_sel`` outputs
    per dataset of each pair (from ``sel_seeds[j]``) and choose the one event to test on the estimation split.

    Returns ``((bound, j, stat, direction, sign, t), seconds_mechanism, seconds_auditor)`` where the
    event is ``{sign * stat(o) > t}`` with numerator ``D`` (sign +1) or ``D'`` of pair ``j`` and
    ``bound`` the score it won with.  A function of the selection draws alone.  ``scores``, a list, receives
    one dict per candidate event (statistic, direction, score, whether the model fixed it, and the event
    ``(stat, sign, t)``).  ``fixed_event_scoring`` and ``threshold_scoring`` as in
    :func:`~proofs_checks.audit.statistical.statistical_audit`.
    """
    check_fixed_event_scoring(fixed_event_scoring)
    check_threshold_scoring(threshold_scoring)
    t_mech = t_aud = 0.0
    contest = _Contest(scores)
    for j, (D, Dp) in enumerate(pairs):
        if bar is not None:
            bar.update(1)
        sa, sb = sel_seeds[j].spawn(2)
        ta = time.perf_counter()
        a = draw_outputs(mechanism, D, n_sel, sa, jobs=jobs, chunk_size=chunk_size, where="D")
        b = draw_outputs(mechanism, Dp, n_sel, sb, jobs=jobs, chunk_size=chunk_size, where="D_prime")
        t_mech += time.perf_counter() - ta
        if a.shape[1:] != b.shape[1:]:
            raise ValueError(f"outputs of inconsistent shape: {a.shape[1:]} on D, {b.shape[1:]} on D_prime")
        ta = time.perf_counter()
        _compete(
            contest,
            j,
            mechanism,
            (D, Dp),
            a,
            b,
            n_sel,
            n_est,
            delta,
            gamma,
            statistic=statistic,
            attack=attack,
            features=features,
            fixed_event_scoring=fixed_event_scoring,
            threshold_scoring=threshold_scoring,
        )
        t_aud += time.perf_counter() - ta
    return contest.best, t_mech, t_aud


class _Contest:
    """The events competing on the selection split: the best so far (the first of equal scores) and, if a
    list is given, every candidate's score."""

    def __init__(self, scores=None):
        self.best, self.scores = None, scores

    def offer(self, bound, j, stat, direction, sign, t, *, name, fixed):
        """Event ``{sign * stat(o) > t}`` of pair ``j`` with score ``bound``."""
        if self.scores is not None:
            self.scores.append(
                {"statistic": name, "direction": direction, "score": bound, "fixed": fixed, "event": (stat, sign, t)}
            )
        if self.best is None or bound > self.best[0]:
            self.best = (bound, j, stat, direction, sign, t)


def _name(stat):
    return getattr(stat, "name", type(stat).__name__)


def _direction(sign):
    return "D vs D'" if sign > 0 else "D' vs D"


def _compete(
    contest,
    j,
    mechanism,
    pair,
    a,
    b,
    n_sel,
    n_est,
    delta,
    gamma,
    *,
    statistic,
    attack,
    features,
    fixed_event_scoring,
    threshold_scoring,
):
    """Offer every candidate event of pair ``j`` (selection outputs ``a`` on D, ``b`` on D') to ``contest``."""
    # few-valued black-box outputs: the category table on all selection rows, scored on the same rows
    few = (
        (statistic == "estimate" or not hasattr(mechanism, "log_density") and not hasattr(mechanism, "log_prob"))
        and features is None
        and _few_categories(a, b)
    )
    cands = candidate_statistics(
        a, b, mechanism, pair, statistic, fit_rows=None if few else n_sel // 2, attack=attack, features=features
    )
    fit_a, fit_b = a[: n_sel // 2], b[: n_sel // 2]
    all_a, all_b = a, b
    if not few and not isinstance(cands[0], ExactLogRatio):
        # estimated statistics were fitted on the first half: judge them on the second
        a, b = a[n_sel // 2 :], b[n_sel // 2 :]
    # a model that fixes its own events competes with searched thresholds: score every candidate by the
    # same plug-in rule on rows that did not choose its event (cross-fitting, _cross_fitted_bound)
    fixing = any(hasattr(stat, "fixed_events") for stat in cands)
    fair = fixed_event_scoring == "cross-fit" and not few and fixing
    # searched thresholds only (no model fixes its events): rank them by held-out counts, free of the
    # winner's curse of many thresholds (THRESHOLD_SCORINGS)
    xfit = threshold_scoring in ("cross-fit", "cross-fit-smooth") and not few and not fixing
    smooth = (
        threshold_scoring == "cross-fit-smooth"
        and xfit
        and features is None
        and a.shape[1] == 1
        and not isinstance(cands[0], ExactLogRatio)
    )
    swapped = {}
    if fair:
        # the same models fitted on the scoring rows, their events counted on the fitting rows: the fixed
        # events' scores then use every selection row, as the searched thresholds' cross-fitted scores do
        swapped = {m.lam: m for m in fit_pattern_value(a, b)}
    for stat in cands:
        s_a, s_b = stat(a), stat(b)
        if hasattr(stat, "fixed_events"):
            other = swapped.get(getattr(stat, "lam", None))
            _offer_fixed_events(contest, j, stat, s_a, s_b, other, fit_a, fit_b, len(a), n_est, delta, gamma)
            continue
        _offer_thresholds(contest, j, stat, s_a, s_b, few, fair or xfit, n_est, delta, gamma)
        if smooth and _is_raw(stat):
            if smooth is True:
                x = Projection()(np.concatenate([all_a, all_b]))
                asc = np.argsort(x, kind="stable")
                models = _smooth_models(all_a, all_b, n_sel // 2, x[asc], asc)
                smooth = models and (models, _smooth_thresholds(x, asc, len(all_a), models, n_est, delta, gamma))
            for sign, t, bound in _smooth_candidates(stat, *smooth, n_est, delta, gamma) if smooth else ():
                contest.offer(
                    bound, j, stat, _direction(sign), sign, t, name=_name(stat) + " (smoothed threshold)", fixed=False
                )


def _offer_fixed_events(contest, j, stat, s_a, s_b, other, fit_a, fit_b, n_scoring, n_est, delta, gamma):
    """The events a model fixes itself, scored by their plug-in estimate on the scoring rows (pooled with the
    held-out counts of ``other``, the same model fitted on the scoring rows, when given)."""
    size = min(n_est, FIXED_EVENT_SIZE_FACTOR * n_scoring)
    other_events = dict(other.fixed_events(size, delta, gamma)) if other is not None else {}
    o_a, o_b = (other(fit_a), other(fit_b)) if other is not None else (None, None)
    for sign, t in stat.fixed_events(size, delta, gamma):
        num, den = (s_a, s_b) if sign > 0 else (-s_b, -s_a)
        k_num, k_den, n_num, n_den = np.count_nonzero(num > t), np.count_nonzero(den > t), num.size, den.size
        if hasattr(stat, "pooled_counts"):  # rare events: the fitting rows' counts too (rare_atoms)
            k_num, n_num, k_den, n_den = stat.pooled_counts(sign, k_num, n_num, k_den, n_den)
        event = (stat, sign, t)
        if sign in other_events:
            # pooled held-out counts of the two models' events score the model; the event tested is
            # the one whose own held-out counts look better
            t2 = other_events[sign]
            num2, den2 = (o_a, o_b) if sign > 0 else (-o_b, -o_a)
            k2_num, k2_den = np.count_nonzero(num2 > t2), np.count_nonzero(den2 > t2)
            own = _predicted_bound(k_num, n_num, k_den, n_den, n_est, delta, gamma, FIXED_EVENT_ERROR)
            swp = _predicted_bound(k2_num, num2.size, k2_den, den2.size, n_est, delta, gamma, FIXED_EVENT_ERROR)
            if swp > own:
                event = (other, sign, t2)
            k_num, k_den, n_num, n_den = k_num + k2_num, k_den + k2_den, n_num + num2.size, n_den + den2.size
        bound = float(_predicted_bound(k_num, n_num, k_den, n_den, n_est, delta, gamma, FIXED_EVENT_ERROR))
        contest.offer(bound, j, event[0], _direction(sign), sign, event[2], name=_name(stat), fixed=True)


def _offer_thresholds(contest, j, stat, s_a, s_b, few, cross_fitted, n_est, delta, gamma):
    """The best threshold of ``stat`` in each direction, scored pessimistically or by its cross-fitted score."""
    orders = _stable_orders(s_a, s_b) if cross_fitted and not isinstance(stat, ExactLogRatio) else None
    for direction, sign, num, den in (("D vs D'", 1.0, s_a, s_b), ("D' vs D", -1.0, -s_b, -s_a)):
        if isinstance(stat, ExactLogRatio):
            t, bound = best_threshold_exact(num, den, n_est, n_est, delta, gamma)
        else:
            err = DISCRETE_SELECTION_ERROR if few else SELECTION_ERROR
            t, bound = best_threshold(num, den, delta, gamma, n_est=n_est, selection_error=err)
            if cross_fitted:
                bound = _cross_fitted_bound(num, den, delta, gamma, n_est, err, orders[sign])
        contest.offer(bound, j, stat, direction, sign, t, name=_name(stat), fixed=False)
