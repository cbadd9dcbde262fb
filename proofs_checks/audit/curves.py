"""Privacy curves ``delta(eps)``: exact from two laws, and a simultaneous lower bound from one sample set.

A mechanism is (eps, delta)-DP for a whole curve of pairs: ``delta(eps)``, the smallest delta
that works at eps, is the hockey-stick divergence ``sup_S P(S) - e^eps P'(S)`` maximised over the
two directions of the neighbouring pair [1]_.  This module gives

* **exact curves** of two finite laws (:func:`exact_curve`, from ``log_prob``), of two
  one-dimensional densities (:func:`density_curve`, by adaptive quadrature) and the closed forms
  of the Laplace mechanism (:func:`laplace_curve`) and of the Gaussian mechanism
  (:func:`gaussian_curve`, the analytic formula of Balle & Wang [2]_, Theorem 8);
* **a lower confidence curve** from black-box samples (:func:`statistical_curve`): one sample
  set, split as in :mod:`~proofs_checks.audit.statistical` into selection and estimation parts.

Proof note (simultaneous confidence of :func:`statistical_curve`)
-----------------------------------------------------------------
On the selection split, for every grid point ``eps_i`` (``i = 1..G``) one event
``S_i = {sign_i s_i(o) > t_i}`` and a direction (numerator ``D`` or ``D'``) are chosen; the
estimation split is drawn afterwards, independently, so the ``S_i`` are fixed with respect to it.
On the estimation split, for every ``i``, a Clopper-Pearson lower bound ``p_i`` of
``P(S_i)`` (numerator dataset) and upper bound ``q_i`` of ``P'(S_i)`` (the other) are computed,
each at error ``alpha / (2G)`` with ``alpha = 1 - confidence``.  By Bonferroni's inequality all
``2G`` bounds hold together with probability at least ``1 - alpha``.  On that event, for every i,
``delta(eps_i) >= P(S_i) - e^{eps_i} P'(S_i) >= p_i - e^{eps_i} q_i``, so
``d_i = max(0, p_i - e^{eps_i} q_i)`` is a lower bound at every grid point at once.  Since the true
``delta(eps)`` does not increase with eps, ``max_{j >= i} d_j`` is also a lower bound at
``eps_i`` on the same event; the reported curve is this running maximum, so it holds
simultaneously over the grid (and, as a step function, for every eps between grid points) with
confidence ``1 - alpha``.  A uniform band such as DKW's was not used: its additive width
``sqrt(log(2/alpha) / (2n))`` does not shrink with the probability of the event, which hides the
small deltas (1e-5 and below) that (eps, delta) claims are about, while the Clopper-Pearson bound
pays only ``log G`` for the grid.

References
----------
.. [1] B. Balle, G. Barthe and M. Gaboardi, "Privacy amplification by subsampling: tight analyses
       via couplings and divergences", NeurIPS 2018.
.. [2] B. Balle and Y.-X. Wang, "Improving the Gaussian mechanism for differential privacy:
       analytical calibration and optimal denoising", ICML 2018.
.. [3] C. J. Clopper and E. S. Pearson, Biometrika 26 (1934).
"""

from __future__ import annotations

import math
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Optional, Sequence, Union

import numpy as np
from numpy.typing import ArrayLike
from scipy import integrate, special

from reference.validation import check_integer, check_positive, check_probability

from ..verdicts import CONFIDENCE

__all__ = [
    "DEFAULT_POINTS",
    "CurveResult",
    "check_epsilons",
    "default_grid",
    "exact_curve",
    "density_curve",
    "laplace_curve",
    "gaussian_curve",
    "statistical_curve",
]

#: Grid points of a default curve.
DEFAULT_POINTS = 21


def check_epsilons(epsilons: ArrayLike, name: str = "curve epsilons") -> np.ndarray:
    """A non-empty 1-D float array of finite values >= 0, sorted and without repeats; else ValueError."""
    if isinstance(epsilons, (str, bytes)):
        raise TypeError(f"{name} must be a sequence of numbers, got {epsilons!r}")
    try:
        arr = np.asarray(epsilons, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a sequence of numbers, got {epsilons!r}") from None
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-D sequence, got shape {arr.shape}")
    if not np.all(np.isfinite(arr)) or np.any(arr < 0):
        raise ValueError(f"{name} must be finite and >= 0, got {arr.tolist()}")
    return np.unique(arr)


def default_grid(epsilon: float, upper: Optional[float] = None, points: int = DEFAULT_POINTS) -> np.ndarray:
    """``points`` evenly spaced values from 0 to ``max(2 epsilon, 1.25 upper)``, with ``epsilon`` itself.

    ``upper`` is typically the epsilon an audit found; an infinite or missing one is ignored.
    """
    top = 2.0 * float(epsilon)
    if upper is not None and math.isfinite(upper):
        top = max(top, 1.25 * float(upper))
    return np.unique(np.append(np.linspace(0.0, top, points), float(epsilon)))


def _directed_deltas(p, q, eps):
    """``sum_o (p(o) - e^eps q(o))_+`` for each eps (log inputs; p's -inf outputs contribute 0).

    One pass over the K outputs per grid point (G is small), so memory stays O(K) for large laws.
    """
    keep = p > -np.inf
    p, q = p[keep], q[keep]
    mass = np.exp(p)
    out = np.empty(eps.size)
    with np.errstate(over="ignore", invalid="ignore"):
        for i, e in enumerate(eps):
            # p (1 - e^{q + eps - p})_+ : exact for tiny probabilities and for q = -inf
            out[i] = np.sum(mass * -np.expm1(np.minimum(q + e - p, 0.0)))
    return out


def exact_curve(logp: ArrayLike, logq: ArrayLike, epsilons: ArrayLike) -> np.ndarray:
    """Exact ``delta(eps)`` of two finite laws on the same outputs, both directions.

    Parameters
    ----------
    logp, logq : array_like, shape (K,)
        Log-probabilities of the same K outputs (aligned, e.g. by
        :func:`~proofs_checks.audit.laws.align_laws`); ``-inf`` for probability 0.
    epsilons : array_like
        Grid (checked by :func:`check_epsilons`).

    Returns
    -------
    ndarray
        ``max(H_eps(P || Q), H_eps(Q || P))`` at each eps, with
        ``H_eps(P || Q) = sum_o (p(o) - e^eps q(o))_+`` [1]_ (the best event is
        ``{o : p(o) > e^eps q(o)}``).  Cost O(K G) time, O(K) memory.

    Raises
    ------
    ValueError
        The vectors are not 1-D of equal non-zero length, hold NaN or +inf, or the grid is invalid.

    Examples
    --------
    >>> import numpy as np
    >>> lp, lq = np.log([0.75, 0.25]), np.log([0.25, 0.75])     # randomized response, eps = log 3
    >>> exact_curve(lp, lq, [0.0, np.log(3)]).round(12).tolist()
    [0.5, 0.0]
    """
    p = np.asarray(logp, dtype=np.float64)
    q = np.asarray(logq, dtype=np.float64)
    if p.shape != q.shape or p.ndim != 1 or p.size == 0:
        raise ValueError(f"logp and logq must be 1-D of equal non-zero length, got {p.shape} and {q.shape}")
    if np.isnan(p).any() or np.isnan(q).any() or (p == np.inf).any() or (q == np.inf).any():
        raise ValueError("logp and logq must be finite or -inf (no NaN, no +inf)")
    eps = check_epsilons(epsilons)
    return np.minimum(np.maximum(_directed_deltas(p, q, eps), _directed_deltas(q, p, eps)), 1.0)


def laplace_curve(epsilons: ArrayLike, scale: float, sensitivity: float = 1.0) -> np.ndarray:
    """``delta(eps) = max(0, 1 - exp((eps - eps0)/2))``, ``eps0 = sensitivity/scale``: Laplace mechanism.

    Derivation: with ``D`` at 0 and ``D'`` at ``Delta``, the best event at eps is the half-line
    ``{x <= t}`` with ``t = (Delta - b eps)/2`` (log-ratio ``(|x - Delta| - |x|)/b > eps``), where
    ``P = 1 - e^{-t/b}/2`` and ``P' = e^{(t - Delta)/b}/2``; substituting gives the formula.

    Parameters
    ----------
    epsilons : array_like
        The grid (checked by :func:`check_epsilons`).
    scale : float
        The Laplace scale ``b`` (> 0).
    sensitivity : float
        The distance ``Delta`` between the two answers (> 0).

    Returns
    -------
    numpy.ndarray
        ``delta(eps)`` at each grid point (sorted, without repeats).

    Raises
    ------
    ValueError
        A non-positive ``scale`` or ``sensitivity``, or an invalid grid.

    Examples
    --------
    >>> # numpy's expm1 and the C library's exp, 4 ulps each of 0.39 and 0.61 (1 - exp(-0.5) is exact): 6.7e-16
    >>> abs(float(laplace_curve([0.0], 1.0)[0]) - (1 - math.exp(-0.5))) <= 6.7e-16
    True
    """
    eps = check_epsilons(epsilons)
    scale, sensitivity = check_positive("scale", scale), check_positive("sensitivity", sensitivity)
    with np.errstate(over="ignore", under="ignore"):
        eps0 = sensitivity / scale  # inf or 0 at the ends of the float range: the limits are right
    return np.where(eps < eps0, -np.expm1(np.minimum(eps - eps0, 0.0) / 2.0), 0.0)


def gaussian_curve(epsilons: ArrayLike, sigma: float, sensitivity: float = 1.0) -> np.ndarray:
    """Balle & Wang's exact ``delta(eps)`` of the Gaussian mechanism [2]_ (Theorem 8).

    ``delta(eps) = Phi(Delta/(2 sigma) - eps sigma/Delta) - e^eps Phi(-Delta/(2 sigma) - eps sigma/Delta)``,
    the second term evaluated as ``exp(eps + log Phi(.))`` so that it neither overflows nor loses
    the tail.

    Parameters
    ----------
    epsilons : array_like
        The grid (checked by :func:`check_epsilons`).
    sigma : float
        Standard deviation of the Gaussian noise (> 0).
    sensitivity : float
        The l2 distance ``Delta`` between the two answers (> 0).

    Returns
    -------
    numpy.ndarray
        ``delta(eps)`` at each grid point (sorted, without repeats).

    Raises
    ------
    ValueError
        A non-positive ``sigma`` or ``sensitivity``, or an invalid grid.

    References
    ----------
    .. [2] B. Balle and Y.-X. Wang, "Improving the Gaussian mechanism for differential privacy:
           analytical calibration and optimal denoising", ICML 2018.

    Examples
    --------
    >>> round(float(gaussian_curve([0.0], 1.0)[0]), 12) == round(2 * 0.6914624612740131 - 1, 12)
    True
    """
    eps = check_epsilons(epsilons)
    sigma, sensitivity = check_positive("sigma", sigma), check_positive("sensitivity", sensitivity)
    with np.errstate(over="ignore", under="ignore", divide="ignore", invalid="ignore"):
        mu = sensitivity / sigma
        if mu == 0.0:  # underflow: the limit mu -> 0 is delta = 0 at every eps >= 0
            return np.zeros(eps.size)
        a = special.log_ndtr(mu / 2.0 - eps / mu)
        b = eps + special.log_ndtr(-mu / 2.0 - eps / mu)
        # exp(a) - exp(b) = exp(a) (1 - exp(b - a)), accurate when both are tiny; delta <= exp(a), so
        # a = -inf (where b - a would be -inf + inf) gives 0
        delta = np.exp(a) * -np.expm1(np.minimum(b - a, 0.0))
    return np.where(a == -np.inf, 0.0, np.maximum(delta, 0.0))


def density_curve(
    log_density_p: Callable,
    log_density_q: Callable,
    epsilons: ArrayLike,
    breakpoints: Sequence[float] = (),
    tol: float = 1e-12,
) -> np.ndarray:
    """Exact ``delta(eps)`` of two one-dimensional densities by adaptive quadrature, both directions.

    ``integral (p(x) - e^eps q(x))_+ dx`` with :func:`scipy.integrate.quad` on the pieces between
    ``breakpoints`` (sorted; put them where the densities have kinks or mass, e.g. the two
    locations) and the two infinite tails.  Absolute tolerance ``tol`` per piece.

    Parameters
    ----------
    log_density_p, log_density_q : callable
        Vectorised ``x (1-D array) -> log density``.
    epsilons : array_like
        The grid (checked by :func:`check_epsilons`).
    breakpoints : sequence of float
        Finite points splitting the real line into the quadrature's pieces (default: 0).
    tol : float
        Absolute tolerance of each piece's quadrature.

    Returns
    -------
    numpy.ndarray
        ``max(H_eps(P || Q), H_eps(Q || P))`` at each grid point, clipped to [0, 1].

    Raises
    ------
    ValueError
        A breakpoint is not finite, or the grid is invalid.

    Examples
    --------
    The Laplace densities at 0 and 1 (scale 1) against their closed form :func:`laplace_curve`:

    >>> import numpy as np
    >>> lp = lambda x: -np.abs(x) - np.log(2.0)
    >>> lq = lambda x: -np.abs(x - 1.0) - np.log(2.0)
    >>> got = density_curve(lp, lq, [0.0, 0.5, 1.0], breakpoints=[0.0, 1.0])
    >>> bool(np.allclose(got, laplace_curve([0.0, 0.5, 1.0], 1.0), rtol=0, atol=1e-10))
    True
    """
    eps = check_epsilons(epsilons)
    pts = np.unique(np.asarray(breakpoints, dtype=np.float64))
    if not np.all(np.isfinite(pts)):
        raise ValueError(f"breakpoints must be finite, got {pts.tolist()}")
    edges = [-np.inf, *pts.tolist(), np.inf] if pts.size else [-np.inf, 0.0, np.inf]

    def f(x):
        # both directions at every eps in one vector, so each density is evaluated once per node
        a = float(log_density_p(np.array([x]))[0])
        b = float(log_density_q(np.array([x]))[0])
        with np.errstate(over="ignore", invalid="ignore"):
            fwd = np.exp(a) * -np.expm1(np.minimum(b + eps - a, 0.0)) if a > -np.inf else np.zeros(eps.size)
            bwd = np.exp(b) * -np.expm1(np.minimum(a + eps - b, 0.0)) if b > -np.inf else np.zeros(eps.size)
        return np.concatenate([fwd, bwd])

    total = sum(
        integrate.quad_vec(f, lo, hi, epsabs=tol, epsrel=1e-10, limit=400)[0] for lo, hi in zip(edges[:-1], edges[1:])
    )
    out = np.maximum(total[: eps.size], total[eps.size :])
    return np.clip(out, 0.0, 1.0)


# --------------------------------------------------------------------------- statistical curve


def _cp_low(k, n, gamma):
    k = np.asarray(k, dtype=np.float64)
    with np.errstate(all="ignore"):
        return np.where(k > 0, special.betaincinv(np.maximum(k, 1e-300), n - k + 1, gamma), 0.0)


def _cp_high(k, n, gamma):
    k = np.asarray(k, dtype=np.float64)
    with np.errstate(all="ignore"):
        return np.where(k < n, special.betainccinv(k + 1, np.maximum(n - k, 1e-300), gamma), 1.0)


def _count_task(mechanism, data, size, seed_seq, where, statistics, regions):
    """One estimation chunk: counts of ``regions`` = [(stat index, sign, threshold)]."""
    from .sampling import _as_rows

    gen = np.random.default_rng(seed_seq)
    out = _as_rows(mechanism.sample(data, size, gen), size, where)
    values = {j: statistics[j](out) for j in {r[0] for r in regions}}
    return np.array([np.count_nonzero(sign * values[j] > thr) for j, sign, thr in regions], dtype=np.int64)


def _tail_fractions(num, den, exact, max_thresholds=2048):
    """Thresholds t and estimated ``(P(s > t), P'(s > t))`` on the selection split.

    With an exact log-likelihood ratio ``s``, importance-weighted pooled estimates as in
    :func:`~proofs_checks.audit.statistical.best_threshold_exact`; otherwise raw fractions.
    """
    pooled = np.unique(np.concatenate([num, den]))
    pooled = pooled[np.isfinite(pooled)] if np.isfinite(pooled).any() else pooled
    if pooled.size > max_thresholds:
        pooled = pooled[np.unique(np.linspace(0, pooled.size - 1, max_thresholds).round().astype(int))]
    t = np.concatenate([[-np.inf], np.nextafter(pooled, -np.inf)])
    if exact:
        z = np.sort(np.concatenate([num, den]))
        m = z.size / 2.0
        wn = np.cumsum(special.expit(z)[::-1])[::-1] / m  # sum over z_k >= z_i
        wo = np.cumsum(special.expit(-z)[::-1])[::-1] / m
        idx = np.searchsorted(z, t, side="right")
        P = np.where(idx < z.size, wn[np.minimum(idx, z.size - 1)], 0.0)
        Q = np.where(idx < z.size, wo[np.minimum(idx, z.size - 1)], 0.0)
        return t, np.minimum(P, 1.0), np.minimum(Q, 1.0)
    sa, sb = np.sort(num), np.sort(den)
    P = (sa.size - np.searchsorted(sa, t, side="right")) / sa.size
    Q = (sb.size - np.searchsorted(sb, t, side="right")) / sb.size
    return t, P, Q


@dataclass
class CurveResult:
    """A lower confidence curve: ``delta_lower[i]`` at ``epsilons[i]``, simultaneous over the grid.

    Made by :func:`statistical_curve`; the fields are the constructor's parameters.

    Parameters
    ----------
    epsilons : list of float
        The grid.
    delta_lower : list of float
        Lower bound on ``delta(eps)`` at each grid point, all holding together at ``confidence``.
    confidence : float
        Simultaneous confidence over the grid.
    samples, selection_samples, estimation_samples : int
        Mechanism calls in all, in the selection split and in the estimation split (both datasets).
    correction : str
        The multiplicity correction, in words (Bonferroni over the grid).
    events : list of dict
        Per grid point the event certified: statistic, region, numerator dataset, counts and bounds.
    seconds : float
        Wall time.
    extra : dict
        ``delta_lower_pointwise``: the bounds before the running maximum.

    Examples
    --------
    >>> cur = CurveResult([0.0, 1.0], [0.25, 0.0], 0.95, 2000, 200, 1800, "Bonferroni over 2 grid points", [], 0.1)
    >>> cur.as_dict()["delta_lower"], cur.extra
    ([0.25, 0.0], {})
    """

    epsilons: list
    delta_lower: list
    confidence: float
    samples: int
    selection_samples: int
    estimation_samples: int
    correction: str
    events: list
    seconds: float
    extra: dict = field(default_factory=dict)

    def as_dict(self):
        return asdict(self)


def statistical_curve(
    mechanism: Any,
    pair: tuple,
    epsilons: ArrayLike,
    *,
    samples: int = 100_000,
    confidence: float = CONFIDENCE,
    seed: Union[int, np.random.SeedSequence] = 0,
    jobs: int = 1,
    statistic: str = "auto",
    selection_fraction: Optional[float] = None,
    chunk_size: Optional[int] = None,
    progress: bool = False,
) -> CurveResult:
    """Lower confidence curve ``delta_lower(eps)`` of one neighbouring pair from ``samples`` calls.

    One sample set: the selection split chooses, per grid point, the event and direction that
    maximise the expected bound; the estimation split (fresh calls) certifies all of them, with
    Bonferroni over the ``2 G`` Clopper-Pearson bounds (see the module's proof note).

    Parameters
    ----------
    mechanism : object
        ``sample(data, size, rng)``, and optionally ``log_prob`` / ``log_density`` (exact log-ratio statistic).
    pair : (D, D_prime)
        The neighbouring pair.
    epsilons : array_like
        The grid (checked by :func:`check_epsilons`).
    samples : int
        Total calls (both datasets, both splits), >= 100.
    confidence : float
        In (0, 1), simultaneous over the grid; default :data:`proofs_checks.verdicts.CONFIDENCE` (0.95).
    seed : int or numpy.random.SeedSequence
        Root of every draw's seed sequence.
    jobs : int
        joblib workers; the result does not depend on it.
    statistic : {"auto", "exact", "estimate"}
        As in :func:`~proofs_checks.audit.statistical.statistical_audit`.
    selection_fraction : float or None
        Share of each dataset's calls used for selection (default 0.1 with an exact statistic, 0.25
        otherwise).
    chunk_size : int or None
        Outputs per chunk (part of the seed layout; default that of the statistical audit).
    progress : bool
        A tqdm bar on stderr (selection, then each estimation dataset).

    Returns
    -------
    CurveResult
        The lower curve, its events and their counts.

    Raises
    ------
    ValueError
        An invalid grid, an out-of-range parameter, too few samples, or outputs of different shapes on
        the two datasets.

    References
    ----------
    .. [3] C. J. Clopper and E. S. Pearson, Biometrika 26 (1934).

    Examples
    --------
    The Laplace mechanism of scale 1 is (eps, delta(eps))-DP with ``delta(1) = 0``; the lower curve
    stays below the exact one at every grid point:

    >>> from proofs_checks.audit.calibration import LaplaceCount
    >>> lap = LaplaceCount(scale=1.0)
    >>> cur = statistical_curve(lap, lap.pair(), [0.0, 0.5, 1.0], samples=20_000, seed=1)
    >>> exact = laplace_curve([0.0, 0.5, 1.0], 1.0)
    >>> all(low <= d for low, d in zip(cur.delta_lower, exact)), cur.delta_lower[-1]
    (True, 0.0)
    """
    from .candidates import ExactLogRatio, candidate_statistics
    from .checks import check_confidence, check_samples
    from .sampling import DEFAULT_CHUNK, _chunk_sizes, _progress_bar, _run_tasks, draw_outputs
    from .statistical import SELECTION_CAP

    start = time.perf_counter()
    eps = check_epsilons(epsilons)
    samples = check_samples(samples)
    confidence = check_confidence(confidence)
    jobs = check_integer("jobs", jobs, minimum=1)
    chunk_size = DEFAULT_CHUNK if chunk_size is None else check_integer("chunk_size", chunk_size, minimum=1)
    D, Dp = pair
    exact_stat = statistic != "estimate" and (hasattr(mechanism, "log_density") or hasattr(mechanism, "log_prob"))
    if selection_fraction is None:
        selection_fraction = 0.1 if exact_stat else 0.25
    selection_fraction = check_probability("selection_fraction", selection_fraction)
    per_side = samples // 2
    n_sel = max(1, min(SELECTION_CAP, int(per_side * selection_fraction)))
    n_est = per_side - n_sel
    if n_est < 1:
        raise ValueError(f"samples={samples} too small for a curve")
    G = eps.size
    gamma = (1.0 - confidence) / (2.0 * G)
    root = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    sel_root, est_root = root.spawn(2)
    sa, sb = sel_root.spawn(2)
    bar = _progress_bar(3, bool(progress))
    bar.set_description("curve")
    a = draw_outputs(mechanism, D, n_sel, sa, jobs=jobs, chunk_size=chunk_size, where="D")
    b = draw_outputs(mechanism, Dp, n_sel, sb, jobs=jobs, chunk_size=chunk_size, where="D_prime")
    if a.shape[1:] != b.shape[1:]:
        raise ValueError(f"outputs of inconsistent shape: {a.shape[1:]} on D, {b.shape[1:]} on D_prime")
    bar.update(1)
    cands = candidate_statistics(a, b, mechanism, (D, Dp), statistic, fit_rows=n_sel // 2)
    exact = isinstance(cands[0], ExactLogRatio)
    if not exact:
        a, b = a[n_sel // 2 :], b[n_sel // 2 :]
    best = _choose_events(cands, a, b, exact, eps, n_est, gamma)
    regions = sorted(set(best), key=lambda r: (r[0], r[1], r[2]))
    where_of = {r: i for i, r in enumerate(regions)}
    # Estimation split: fresh calls, every chosen event counted on both datasets.
    ea, eb = est_root.spawn(2)
    counts = []
    for data, ss, where in ((D, ea, "D"), (Dp, eb, "D_prime")):
        sizes = _chunk_sizes(n_est, chunk_size)
        tasks = [
            (_count_task, (mechanism, data, m, c, where, cands, regions)) for m, c in zip(sizes, ss.spawn(len(sizes)))
        ]
        counts.append(np.sum(np.stack(_run_tasks(tasks, jobs)), axis=0))
        bar.update(1)
    bar.close()
    d_raw, events = _pointwise_bounds(
        best,
        [counts[0][where_of[r]] for r in best],
        [counts[1][where_of[r]] for r in best],
        cands,
        eps,
        n_est,
        2.0 * gamma,
    )
    # delta(eps) is non-increasing: a bound at a larger eps also bounds every smaller one
    d_low = np.maximum.accumulate(d_raw[::-1])[::-1]
    return CurveResult(
        eps.tolist(),
        d_low.tolist(),
        confidence,
        2 * (n_sel + n_est),
        2 * n_sel,
        2 * n_est,
        f"Bonferroni over {G} grid points: each of the {2 * G} Clopper-Pearson bounds at error {gamma:.3g}",
        events,
        time.perf_counter() - start,
        {"delta_lower_pointwise": d_raw.tolist()},
    )


def _pointwise_bounds(best, on_D, on_D_prime, cands, eps, n_est, alpha):
    """``(d, events)``: ``d[i] = max(0, p_low - e^eps_i q_high)`` of the event ``best[i]`` from its estimation counts
    on D and D' (Clopper-Pearson bounds, two-sided level ``alpha`` each), and a record of each event."""
    from statsmodels.stats.proportion import proportion_confint  # here: statsmodels costs ~0.6 s at import

    d_raw, events = np.zeros(eps.size), []
    for i, r in enumerate(best):
        c_D, c_Dp = int(on_D[i]), int(on_D_prime[i])
        k_num, k_den = (c_D, c_Dp) if r[1] > 0 else (c_Dp, c_D)
        p_low = float(proportion_confint(k_num, n_est, alpha=alpha, method="beta")[0])
        q_high = float(proportion_confint(k_den, n_est, alpha=alpha, method="beta")[1])
        d_raw[i] = max(0.0, p_low - math.exp(eps[i]) * q_high)
        events.append(
            {
                "epsilon": float(eps[i]),
                "statistic": getattr(cands[r[0]], "name", type(cands[r[0]]).__name__),
                "region": f"{'' if r[1] > 0 else '-'}statistic > {r[2]!r}",
                "numerator": "D" if r[1] > 0 else "D_prime",
                "in_S_numerator": k_num,
                "in_S_other": k_den,
                "p_low": p_low,
                "q_high": q_high,
            }
        )
    return d_raw, events


def _choose_events(cands, a, b, exact, eps, n_est, gamma):
    """Per grid point, the event ``(candidate index, sign, threshold)`` of the selection outputs ``a``, ``b`` whose
    expected lower bound on ``delta(eps)`` at the estimation size is largest (the first of equal ones)."""
    G = eps.size
    growth = np.exp(eps)[:, None]
    best_val = np.full(G, -np.inf)
    best = [None] * G
    for j, stat in enumerate(cands):
        s_a, s_b = stat(a), stat(b)
        for sign, num, den in ((1.0, s_a, s_b), (-1.0, -s_b, -s_a)):
            t, P, Q = _tail_fractions(num, den, exact)
            score = _cp_low(P * n_est, n_est, gamma)[None, :] - growth * _cp_high(Q * n_est, n_est, gamma)[None, :]
            k = np.argmax(score, axis=1)
            val = score[np.arange(G), k]
            better = val > best_val
            for i in np.flatnonzero(better):
                best[i] = (j, sign, float(t[k[i]]))
            best_val = np.where(better, val, best_val)
    return best


# --------------------------------------------------------------------------- audit hook


def _density_breakpoints(mechanism, D, Dp, rng, draws=4000):
    """Quantiles of a few outputs of both datasets: where a 1-D density's mass and kinks lie."""
    from .sampling import _as_rows

    x = np.concatenate(
        [_as_rows(mechanism.sample(d, draws, rng), draws, w)[:, 0] for d, w in ((D, "D"), (Dp, "D_prime"))]
    )
    return np.quantile(x, [1e-3, 0.05, 0.25, 0.5, 0.75, 0.95, 1 - 1e-3])


def add_curve(result, mechanism, grid, samples, confidence, seed, jobs=1, statistic="auto", progress=False):
    """Put the curve of ``result``'s worst pair into ``result.details["curve"]`` (used by ``audit(curve=...)``).

    ``grid`` is ``True`` (:func:`default_grid` around the claim and the epsilon found) or an array.
    Exact audits: ``delta_exact`` from the two aligned laws.  Statistical audits: ``delta_lower``
    from :func:`statistical_curve` with ``samples`` new calls on the worst pair (its own seed
    stream, so it is independent of the data that chose the pair), and ``delta_exact`` when the
    mechanism gives ``log_prob``, or ``log_density`` with one-dimensional outputs.
    """
    from .laws import align_laws
    from .neighbours import mechanism_law

    ce = result.details["counterexample"]
    D, Dp = np.asarray(ce["D"]), np.asarray(ce["D_prime"])
    eps = default_grid(result.claimed_epsilon, result.epsilon_lower) if grid is True else check_epsilons(grid)
    out = {"epsilons": eps.tolist(), "claimed": [result.claimed_epsilon, result.claimed_delta]}
    if result.method == "exact":
        _, lp, lq = align_laws(mechanism_law(mechanism, D, "D"), mechanism_law(mechanism, Dp, "D_prime"))
        out.update(method="exact", delta_exact=exact_curve(lp, lq, eps).tolist())
    else:
        ss = np.random.SeedSequence([int(seed), 7])
        cur = statistical_curve(
            mechanism,
            (D, Dp),
            eps,
            samples=samples,
            confidence=confidence,
            seed=ss,
            jobs=jobs,
            statistic=statistic,
            progress=progress,
        )
        out.update(method="statistical", **{k: v for k, v in cur.as_dict().items() if k != "epsilons"})
        if callable(getattr(mechanism, "log_prob", None)):
            _, lp, lq = align_laws(mechanism_law(mechanism, D, "D"), mechanism_law(mechanism, Dp, "D_prime"))
            out["delta_exact"] = exact_curve(lp, lq, eps).tolist()
        elif (
            callable(getattr(mechanism, "log_density", None))
            and np.asarray(mechanism.sample(D, 1, np.random.default_rng(ss.spawn(1)[0]))).reshape(1, -1).shape[1] == 1
        ):
            pts = _density_breakpoints(mechanism, D, Dp, np.random.default_rng(ss.spawn(2)[1]))
            out["delta_exact"] = density_curve(
                lambda x: mechanism.log_density(D, x[:, None]),
                lambda x: mechanism.log_density(Dp, x[:, None]),
                eps,
                pts,
            ).tolist()
    result.details["curve"] = out
    return result
