"""Black-box statistical audit of a DP claim by a likelihood-ratio test on one neighbouring pair.

The audit follows the "search an event, then certify it on fresh samples"
recipe of empirical DP auditing [1]_ [2]_:

1. **Sampling.**  ``N`` mechanism calls in total, half on ``D`` and half on
   ``D'``, drawn in fixed-size chunks.  Chunk ``i`` of each (phase, dataset)
   draws from its own child of a :class:`numpy.random.SeedSequence` made by
   ``spawn``; the chunking depends only on ``N`` and ``chunk_size``, never on
   the number of workers, so a result is identical whatever ``jobs`` is.
   Chunks run in parallel with :mod:`joblib` (local processes or a dask cluster, see
   :mod:`proofs_checks.parallel`).
2. **Selection split** (a fraction of the calls, capped so memory is
   bounded).  A statistic ``s(o)`` is built: the exact log-likelihood ratio
   ``log p_D(o) - log p_D'(o)`` when the mechanism gives densities
   (``log_density(data, outputs)``) or probabilities (``log_prob``);
   otherwise an estimate (the empirical log-ratio on categories for discrete
   outputs; for continuous outputs a one-dimensional projection -- the output
   itself, or the linear predictor of an L2-penalised logistic regression on
   robustly scaled output features and their squares -- followed by the
   projection itself, its negative, and a quantile-histogram estimate of the
   log-ratio).  For each candidate statistic and both directions
   (``D`` vs ``D'`` and ``D'`` vs ``D``) the threshold ``t`` of the rejection
   region ``S = {s > t}`` that maximises a Clopper-Pearson epsilon bound is
   chosen: for the exact log-ratio from pooled importance-weighted estimates of
   ``P(S)`` and ``P'(S)`` rescaled to the estimation size
   (:func:`best_threshold_exact`), otherwise from the raw selection counts
   (:func:`best_threshold`; estimated statistics are fitted on the first half
   of the selection split and judged on the second, each event scored by the
   bound predicted at the estimation size).  With ``attack="auto"`` the
   estimated statistics include the attacks of :mod:`proofs_checks.audit.classifiers`
   (cells of atoms and bins, per-coordinate and joint features, a user feature map).
3. **Estimation split** (fresh calls, never seen by step 2).  Counts
   ``k = #{o_i in S}`` among ``n`` outputs of the numerator dataset and ``k'``
   among ``n`` of the other; exact one-sided Clopper-Pearson bounds
   ``p_low`` and ``p'_high`` (:func:`statsmodels.stats.proportion.proportion_confint`,
   ``method="beta"``) each at error ``(1 - confidence)/2``, and

   ``epsilon_lower = log((p_low - delta) / p'_high)``,

   which is a lower confidence bound on the epsilon of any (eps, delta)-DP
   guarantee the mechanism can have, at the stated confidence: if M were
   (eps, delta)-DP then ``P(S) <= e^eps P'(S) + delta`` for the fixed event S,
   and with probability at least ``confidence`` both bounds hold, so
   ``eps >= epsilon_lower``.
4. **p-value** of H0 "M is (eps, delta)-DP": the smallest error level
   ``alpha`` at which the procedure of step 3 with error ``alpha`` would give
   ``epsilon_lower > eps`` (monotone in alpha, found by bisection).  The
   verdict is ``refuted`` exactly when ``epsilon_lower > eps``, i.e. when the
   p-value is below ``1 - confidence``.

Both directions and all candidate statistics compete on the selection split
only; the estimation split tests one event, so no multiplicity correction is
needed beyond the split of the error over the two binomial bounds.

References
----------
.. [1] Z. Ding, Y. Wang, G. Wang, D. Zhang and D. Kifer, "Detecting violations of differential
       privacy", CCS 2018.
.. [2] M. Jagielski, J. Ullman and A. Oprea, "Auditing differentially private machine learning:
       how private is private SGD?", NeurIPS 2020.
.. [3] C. J. Clopper and E. S. Pearson, "The use of confidence or fiducial limits illustrated in
       the case of the binomial", Biometrika 26 (1934).
"""

from __future__ import annotations

import math
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Optional, Sequence, Union

import numpy as np

from reference.validation import check_integer, check_probability

from ..verdicts import CONFIDENCE
from ._cp_bound import _cp_eps_vector  # noqa: F401  (re-exported: calibration, benchmarks and tests import it here)
from .candidates import (  # noqa: F401  (re-exported)
    FEW_CATEGORIES,
    MAX_CATEGORIES,
    CategoryLogRatio,
    ExactLogRatio,
    RowTable,
    candidate_statistics,
)
from .checks import (  # noqa: F401  (re-exported)
    DEFAULT_THRESHOLD_SCORING,
    FIXED_EVENT_SCORINGS,
    MIN_SAMPLES,
    THRESHOLD_SCORINGS,
    check_confidence,
    check_fixed_event_scoring,
    check_samples,
    check_threshold_scoring,
)
from .confidence_bounds import (  # noqa: F401
    _eps_from_bounds,
    clopper_pearson_bounds,
    clopper_pearson_epsilon,
    dp_p_value,
)
from .cross_fit import CROSS_FIT_FOLDS, FIXED_EVENT_ERROR  # noqa: F401  (re-exported)
from .projection import BinnedLogRatio, Projection, fit_logistic  # noqa: F401  (re-exported)
from .sampling import DEFAULT_CHUNK, _chunk_sizes, _draw_task, _progress_bar, _run_tasks, draw_outputs
from .selection import DISCRETE_SELECTION_ERROR, FIXED_EVENT_SIZE_FACTOR, select_event  # noqa: F401  (re-exported)
from .smooth import SMOOTH_KNOT_QUANTILES, SMOOTH_PENALTY, SmoothLogRatio  # noqa: F401  (re-exported)
from .thresholds import (  # noqa: F401  (re-exported)
    SELECTION_ERROR,
    best_threshold,
    best_threshold_exact,
    best_threshold_weighted,
)

__all__ = [
    "StatisticalAuditResult",
    "statistical_audit",
    "clopper_pearson_bounds",
    "clopper_pearson_epsilon",
    "dp_p_value",
    "draw_outputs",
    "check_samples",
    "check_confidence",
    "check_fixed_event_scoring",
    "FIXED_EVENT_SCORINGS",
    "check_threshold_scoring",
    "THRESHOLD_SCORINGS",
    "MIN_SAMPLES",
]

#: Cap of the selection split per dataset and pair (bounded memory for any N).
SELECTION_CAP = 1_000_000


def _check_eps_delta(epsilon, delta):
    try:
        e, d = float(epsilon), float(delta)
    except (TypeError, ValueError):
        raise TypeError(f"epsilon and delta must be numbers, got {epsilon!r}, {delta!r}") from None
    if not (e >= 0) or math.isinf(e):
        raise ValueError(f"epsilon must be finite and >= 0, got {epsilon!r}")
    if not (0 <= d < 1):
        raise ValueError(f"delta must be in [0, 1), got {delta!r}")
    return e, d


@dataclass
class StatisticalAuditResult:
    """Outcome of :func:`statistical_audit` (all fields JSON-serialisable via :meth:`as_dict`).

    Parameters
    ----------
    method : str
        ``"statistical"``.
    claimed_epsilon, claimed_delta : float
        The claim under audit.
    epsilon_lower : float
        Lower confidence bound on epsilon from the estimation split: ``log((p_low - delta) / q_high)``.
    p_value : float
        p-value of "the mechanism is (claimed_epsilon, claimed_delta)-DP".
    verdict : {"refuted", "not refuted"}
        ``"refuted"`` exactly when ``epsilon_lower > claimed_epsilon``.
    confidence : float
        Confidence of the bound.
    samples : int
        Mechanism calls made, both datasets and both splits.
    direction : str
        Which dataset is the numerator of the event's ratio (``"D vs D'"`` or ``"D' vs D"``).
    statistic : str
        Name of the statistic whose event was tested.
    threshold : float
        The event is ``{statistic > threshold}`` (signed by the direction).
    counts : dict
        ``in_S_numerator``, ``in_S_other`` and ``n_each``: the estimation split's counts.
    p_low, q_high : float
        Clopper-Pearson bounds on the event's probability under the numerator dataset (lower) and the
        other (upper).
    selection_samples, estimation_samples : int
        Calls of each split, both datasets.
    pair_index : int
        Index in ``pairs`` of the pair tested.
    seed : int or None
        The seed, when it was an integer.
    jobs : int
        Workers used (no effect on the result).
    seconds, seconds_mechanism, seconds_auditor : float
        Wall time of the audit; time spent in the mechanism and in the auditor's own statistics.
    extra : dict
        The selection bound, the attack and scorings used, the features' name and the event in words.

    References
    ----------
    .. [1] C. J. Clopper and E. S. Pearson, "The use of confidence or fiducial limits illustrated in
           the case of the binomial", Biometrika 26 (1934).

    Examples
    --------
    >>> from proofs_checks.audit.calibration import LaplaceCount
    >>> lap = LaplaceCount(scale=1.0)
    >>> res = statistical_audit(lap, [lap.pair()], 0.5, samples=20_000, seed=1)
    >>> isinstance(res, StatisticalAuditResult), res.verdict, res.counts["n_each"]
    (True, 'refuted', 9000)
    """

    method: str
    claimed_epsilon: float
    claimed_delta: float
    epsilon_lower: float
    p_value: float
    verdict: str
    confidence: float
    samples: int
    direction: str
    statistic: str
    threshold: float
    counts: dict
    p_low: float
    q_high: float
    selection_samples: int
    estimation_samples: int
    pair_index: int
    seed: int | None
    jobs: int
    seconds: float
    seconds_mechanism: float
    seconds_auditor: float
    extra: dict = field(default_factory=dict)

    def as_dict(self):
        return asdict(self)


def statistical_audit(
    mechanism: Any,
    pairs: Sequence[tuple],
    epsilon: float,
    delta: float = 0.0,
    *,
    samples: int = 100_000,
    confidence: float = CONFIDENCE,
    seed: Union[int, np.random.SeedSequence] = 0,
    jobs: int = 1,
    statistic: str = "auto",
    selection_fraction: Optional[float] = None,
    chunk_size: int = DEFAULT_CHUNK,
    progress: bool = False,
    attack: str = "auto",
    features: Optional[Callable] = None,
    fixed_event_scoring: str = "plug-in",
    threshold_scoring: str = DEFAULT_THRESHOLD_SCORING,
    sequential_looks: int = 0,
) -> StatisticalAuditResult:
    """Lower-bound the epsilon of ``mechanism`` at ``delta`` from ``samples`` calls; see module notes.

    Parameters
    ----------
    mechanism : object with ``sample(data, size, rng)``
        Optionally ``log_density(data, outputs)`` or ``log_prob(data)`` (exact log-ratio statistic).
    pairs : list of (D, D_prime)
        Candidate neighbouring pairs; the selection split is shared among them
        and the estimation split spent on the best one.
    epsilon, delta : float
        The claim under audit.
    samples : int
        Total mechanism calls, both datasets and both splits (>= 100).
    confidence : float
        Confidence of the lower bound, in (0, 1); default :data:`proofs_checks.verdicts.CONFIDENCE` (0.95).
    seed : int or numpy.random.SeedSequence
        Root of every draw's seed sequence.
    jobs : int
        joblib workers; the result does not depend on it.
    statistic : {"auto", "exact", "estimate"}
        ``"estimate"`` ignores any density the mechanism gives (black box).
    selection_fraction : float or None
        Share of each dataset's calls used for selection (default 0.1 with an
        exact statistic, 0.25 otherwise).
    chunk_size : int
        Outputs per chunk (part of the seed layout).
    progress : bool
        A tqdm progress bar on stderr (one step per pair's selection and per estimation dataset).
    attack : {"auto", "logistic", "histogram"}
        Estimated statistics that compete on the selection split
        (:mod:`proofs_checks.audit.classifiers`); ``"logistic"`` is the single projection of before.
    features : callable, optional
        ``features(outputs) -> (samples, k)`` floats; the estimated statistics work on these columns
        (:class:`~proofs_checks.audit.features.UserFeatures`).  Module-level when ``jobs > 1``.
    fixed_event_scoring : {"plug-in", "cross-fit"}
        How the events a model fixes itself (outputs with atoms: the pattern x value statistic of
        :mod:`~proofs_checks.audit.classifiers`) compete with searched thresholds on the selection split:
        ``"plug-in"`` scores a fixed event by its plug-in estimate and a searched threshold pessimistically;
        ``"cross-fit"`` scores both by one held-out plug-in rule (:data:`FIXED_EVENT_SCORINGS` has the
        measurements).  No effect on audits where no model fixes its events.
    threshold_scoring : {"pessimistic", "cross-fit", "cross-fit-smooth"}
        How the searched thresholds of estimated statistics compete when no model fixes its events:
        ``"pessimistic"`` by the pessimistic score of each one's best threshold on the scoring rows,
        ``"cross-fit"`` by its cross-fitted plug-in score (no winner's curse; :data:`THRESHOLD_SCORINGS`);
        ``"cross-fit-smooth"`` adds for one-column outputs the raw output's smoothed threshold as a candidate.
        The threshold tested and the estimation split are the same either way; no effect on exact
        statistics, few-valued outputs, or audits where a model fixes its events.
    sequential_looks : int, default 0
        0: the estimation split in one look.  Else (>= 2) in this many looks, stopping when refuted or when
        the claim is out of reach, each look's bound at error ``(1 - confidence) / sequential_looks``
        (:func:`~proofs_checks.audit.sequential.sequential_count`); ``samples`` then reports the calls used.

    Returns
    -------
    StatisticalAuditResult
        The lower bound, the verdict, the event tested and its counts.

    Raises
    ------
    TypeError
        ``mechanism`` has no callable ``sample``, or a parameter has the wrong type (named in the message).
    ValueError
        A parameter is out of range, ``pairs`` is empty, or ``samples`` is too small for the pairs.

    References
    ----------
    .. [1] Z. Ding, Y. Wang, G. Wang, D. Zhang and D. Kifer, "Detecting violations of differential
           privacy", CCS 2018.
    .. [2] M. Jagielski, J. Ullman and A. Oprea, "Auditing differentially private machine learning:
           how private is private SGD?", NeurIPS 2020.

    Examples
    --------
    The Laplace mechanism of scale 1 on a count is 1-DP: refuted at a claimed 0.5, not at 1.

    >>> from proofs_checks.audit.calibration import LaplaceCount
    >>> lap = LaplaceCount(scale=1.0)
    >>> res = statistical_audit(lap, [lap.pair()], 1.0, samples=20_000, seed=1)
    >>> res.verdict, res.samples, 0.5 < res.epsilon_lower < 1.0
    ('not refuted', 20000, True)
    >>> statistical_audit(lap, [lap.pair()], 0.5, samples=20_000, seed=1).verdict
    'refuted'
    """
    start = time.perf_counter()
    (
        pairs,
        epsilon,
        delta,
        samples,
        confidence,
        jobs,
        chunk_size,
        attack,
        features,
        fixed_event_scoring,
        threshold_scoring,
    ) = _checked(
        mechanism,
        pairs,
        epsilon,
        delta,
        samples,
        confidence,
        jobs,
        chunk_size,
        attack,
        features,
        fixed_event_scoring,
        threshold_scoring,
    )
    n_sel, n_est = _split_sizes(mechanism, samples, len(pairs), statistic, selection_fraction)
    gamma = (1.0 - confidence) / 2.0
    root = np.random.SeedSequence(seed) if not isinstance(seed, np.random.SeedSequence) else seed
    sel_root, est_root = root.spawn(2)
    sel_seeds = sel_root.spawn(len(pairs))

    bar = _progress_bar(len(pairs) + 2, progress)
    best, t_mech, t_aud = select_event(
        mechanism,
        pairs,
        sel_seeds,
        n_sel,
        n_est,
        delta,
        gamma,
        statistic=statistic,
        attack=attack,
        features=features,
        jobs=jobs,
        chunk_size=chunk_size,
        bar=bar,
        fixed_event_scoring=fixed_event_scoring,
        threshold_scoring=threshold_scoring,
    )
    sel_bound, j, stat, direction, sign, thr = best
    D, Dp = pairs[j]

    seq = None
    if check_integer("sequential_looks", sequential_looks, minimum=0) == 1:
        raise ValueError("sequential_looks must be 0 (one look) or at least 2, got 1")
    if sequential_looks:
        from .sequential import sequential_count

        seq = sequential_count(
            mechanism,
            (D, Dp),
            est_root,
            n_est,
            stat,
            sign,
            thr,
            epsilon,
            delta,
            confidence,
            sequential_looks,
            jobs=jobs,
            chunk_size=chunk_size,
        )
        counts = [seq["k_num"], seq["k_den"]] if sign > 0 else [seq["k_den"], seq["k_num"]]
        seconds_mechanism, seconds_auditor = seq["seconds_mechanism"], seq["seconds_auditor"]
        bar.update(2)
    else:
        counts, seconds_mechanism, seconds_auditor = _count_event(
            mechanism, (D, Dp), est_root, n_est, stat, sign, thr, jobs=jobs, chunk_size=chunk_size, bar=bar
        )
    t_mech += seconds_mechanism
    t_aud += seconds_auditor
    bar.close()
    k_num, k_den = (counts[0], counts[1]) if sign > 0 else (counts[1], counts[0])
    if seq is None:
        p_low, q_high = clopper_pearson_bounds(k_num, n_est, k_den, n_est, confidence)
        eps_lower = _eps_from_bounds(p_low, q_high, delta)
        pval = dp_p_value(k_num, n_est, k_den, n_est, epsilon, delta)
    else:
        # the look's bound at its share of the error; the p-value of the look that stopped, times the looks
        # (Bonferroni), so p < 1 - confidence iff refuted still holds
        n_est, p_low, q_high, eps_lower = seq["n"], seq["p_low"], seq["q_high"], seq["epsilon_lower"]
        pval = min(1.0, sequential_looks * dp_p_value(k_num, n_est, k_den, n_est, epsilon, delta))
    verdict = "refuted" if eps_lower > epsilon else "not refuted"
    return StatisticalAuditResult(
        method="statistical",
        claimed_epsilon=epsilon,
        claimed_delta=delta,
        epsilon_lower=eps_lower,
        p_value=pval,
        verdict=verdict,
        confidence=confidence,
        samples=2 * (n_sel * len(pairs) + n_est),
        direction=direction,
        statistic=getattr(stat, "name", type(stat).__name__),
        threshold=float(sign * thr),
        counts={"in_S_numerator": k_num, "in_S_other": k_den, "n_each": n_est},
        p_low=p_low,
        q_high=q_high,
        selection_samples=2 * n_sel * len(pairs),
        estimation_samples=2 * n_est,
        pair_index=j,
        seed=seed if isinstance(seed, (int, np.integer)) else None,
        jobs=jobs,
        seconds=time.perf_counter() - start,
        seconds_mechanism=t_mech,
        seconds_auditor=t_aud,
        extra={
            "selection_bound": sel_bound,
            "attack": attack,
            "fixed_event_scoring": fixed_event_scoring,
            "threshold_scoring": threshold_scoring,
            "features": getattr(features, "name", None),  # None or the UserFeatures that _checked made
            "region": f"{'' if sign > 0 else '-'}statistic > {thr!r} (numerator: {'D' if sign > 0 else 'D_prime'})",
            **(
                {}
                if seq is None
                else {
                    "sequential": {k: seq[k] for k in ("looks_used", "stopped", "n", "confidence_per_look")}
                    | {"looks": sequential_looks, "calls_used": 2 * seq["n"]}
                }
            ),
        },
    )


def _checked(
    mechanism,
    pairs,
    epsilon,
    delta,
    samples,
    confidence,
    jobs,
    chunk_size,
    attack,
    features,
    fixed_event_scoring,
    threshold_scoring,
):
    """The arguments of :func:`statistical_audit` checked, in its order (TypeError / ValueError naming them)."""
    if not hasattr(mechanism, "sample") or not callable(mechanism.sample):
        raise TypeError(f"mechanism {mechanism!r} has no callable sample(data, size, rng)")
    epsilon, delta = _check_eps_delta(epsilon, delta)
    samples = check_samples(samples)
    confidence = check_confidence(confidence)
    jobs = check_integer("jobs", jobs, minimum=1)
    chunk_size = check_integer("chunk_size", chunk_size, minimum=1)
    from .classifiers import check_attack
    from .features import check_features

    attack = check_attack(attack)
    features = check_features(features)
    fixed_event_scoring = check_fixed_event_scoring(fixed_event_scoring)
    threshold_scoring = check_threshold_scoring(threshold_scoring)
    pairs = list(pairs)
    if not pairs:
        raise ValueError("pairs must contain at least one (D, D_prime) pair")
    return (
        pairs,
        epsilon,
        delta,
        samples,
        confidence,
        jobs,
        chunk_size,
        attack,
        features,
        fixed_event_scoring,
        threshold_scoring,
    )


def _split_sizes(mechanism, samples, n_pairs, statistic, selection_fraction):
    """``(n_sel, n_est)``: selection draws per dataset of each pair and estimation draws per dataset."""
    exact_stat = statistic != "estimate" and (hasattr(mechanism, "log_density") or hasattr(mechanism, "log_prob"))
    if selection_fraction is None:
        selection_fraction = 0.1 if exact_stat else 0.25
    selection_fraction = check_probability("selection_fraction", selection_fraction)
    per_side = samples // 2
    n_sel = max(1, min(SELECTION_CAP, int(per_side * selection_fraction) // n_pairs))
    n_est = per_side - n_sel * n_pairs
    if n_est < 1:
        raise ValueError(f"samples={samples} too small for {n_pairs} pairs; give more samples or fewer pairs")
    return n_sel, n_est


def _count_event(mechanism, pair, est_root, n_est, stat, sign, thr, *, jobs, chunk_size, bar):
    """Estimation split: ``n_est`` fresh calls on each dataset of ``pair`` counted in ``{sign * stat > thr}``, in
    chunks (bounded memory); ``([count on D, count on D'], seconds of the mechanism, seconds of the auditor)``."""
    ea, eb = est_root.spawn(2)
    counts, t_mech, t_aud = [], 0.0, 0.0
    for data, ss, where in ((pair[0], ea, "D"), (pair[1], eb, "D_prime")):
        sizes = _chunk_sizes(n_est, chunk_size)
        tasks = [
            (_draw_task, (mechanism, data, m, c, where, stat, [(sign, thr)]))
            for m, c in zip(sizes, ss.spawn(len(sizes)))
        ]
        res = _run_tasks(tasks, jobs)
        bar.update(1)
        counts.append(int(sum(r[0][0] for r in res)))
        t_mech += sum(r[1] for r in res)
        t_aud += sum(r[2] for r in res)
    return counts, t_mech, t_aud
