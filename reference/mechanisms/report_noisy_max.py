"""Report-noisy-max with Laplace noise, with its exact selection distribution.

Scores have shape ``(..., K)``: one vector of ``K`` scores per row, the leading
axes a batch of independent inputs (a single vector is a batch of one).

References
----------
.. [1] C. Dwork and A. Roth, "The algorithmic foundations of differential privacy",
       Section 3.3, Claim 3.9 (2014).
.. [2] Arora et al., the Boosting step 3 of [004 App. E].
.. [3] Hu, Ni, Xiao and Wang, Peeling step 5 of [002 Alg. 4].
"""

from __future__ import annotations

import math
import warnings

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import integrate

from ..validation import RNGLike, as_generator, check_epsilon, check_finite_result, check_positive
from ._batch import argmax_of_noisy_rows, check_candidate_array, draw_public, flat_batch
from .recorder import record_call

__all__ = ["report_noisy_max_scale", "report_noisy_max", "report_noisy_max_log_prob", "ReportNoisyMax"]

#: Half-width, in noise scales, of the window outside which the integrand of
#: :func:`report_noisy_max_log_prob` is dropped (relative mass below exp(-60)).
_TAIL_SCALES = 60.0
#: Distance, in noise scales, from every score beyond which each Laplace CDF
#: factor equals its pure-exponential form to a relative exp(-40): there the
#: integrand is integrated in closed form.
_FLAT_SCALES = 40.0
#: Candidates further than this many noise scales below the best one win with
#: probability below exp(-1e12); they are reported as log-probability -inf and
#: their CDF factors (1 to within exp(-1e12)) are dropped from the others' integrands.
_NEGLIGIBLE_SCALES = 1e12


#: Rows whose scores all lie within this many noise scales of their maximum (and have at most
#: :data:`_FAST_MAX_K` candidates) take the fixed, vectorised quadrature of :func:`_fast_log_prob_rows`.
_FAST_RANGE = 80.0
_FAST_MAX_K = 64
#: Gauss-Legendre nodes per panel and the panel width (noise scales, divided by K) between scores: with 5
#: nodes the worst error against mpmath is 1e-13 in log-probability, with 6 or more float64 rounding.
_PANEL_NODES = 8
_PANEL_WIDTH = 2.0
_GL_T, _GL_W = np.polynomial.legendre.leggauss(_PANEL_NODES)
#: Rows handled per block (bounds the (nodes, K) work arrays to about 2e6 entries).
_BLOCK_ENTRIES = 2_000_000


def report_noisy_max_scale(sensitivity: float, epsilon: float, *, monotone: bool = False) -> float:
    """Laplace scale for an epsilon-DP report-noisy-max.

    ``2*Delta/epsilon`` for general scores (each score may move by +-Delta
    independently); ``Delta/epsilon`` suffices when neighbouring datasets move
    all scores in the same direction (monotone, e.g. counting queries;
    Dwork & Roth Claim 3.9).

    Parameters
    ----------
    sensitivity : float
        ``Delta``, the largest change of one score between neighbours, finite and > 0.
    epsilon : float
        Privacy parameter, finite and > 0.
    monotone : bool, default False
        Whether the scores move in the same direction between neighbours.

    Returns
    -------
    float
        The Laplace scale.

    Raises
    ------
    TypeError
        If ``sensitivity`` or ``epsilon`` is not a real number, or ``monotone`` not a bool.
    ValueError
        If ``sensitivity`` or ``epsilon`` is not finite and positive, or the scale overflows float64.

    References
    ----------
    .. [1] C. Dwork and A. Roth, "The algorithmic foundations of differential privacy", 2014, Claim 3.9.

    Examples
    --------
    >>> report_noisy_max_scale(1.0, 0.5), report_noisy_max_scale(1.0, 0.5, monotone=True)
    (4.0, 2.0)
    """
    if not isinstance(monotone, (bool, np.bool_)):
        raise TypeError(f"monotone must be a bool, got {monotone!r} of type {type(monotone).__name__}")
    d = check_positive("sensitivity", sensitivity)
    eps = check_epsilon(epsilon)
    return check_finite_result(
        "report_noisy_max_scale", (1.0 if monotone else 2.0) * d / eps, sensitivity=d, epsilon=eps
    )


def report_noisy_max(
    scores: ArrayLike, scale: float, size: int | None = None, rng: RNGLike = None
) -> int | NDArray[np.int64]:
    """Return ``argmax_j (scores_j + Lap(scale))`` for every row of ``scores`` (vectorised).

    Parameters
    ----------
    scores : array_like, shape (..., K)
        One score vector per row, finite.
    scale : float
        Laplace noise scale, finite and > 0 (see :func:`report_noisy_max_scale`).
    size : int or None, default None
        ``None``: one draw per row (a Python ``int`` for a single score vector).
        An int ``>= 0``: ``size`` independent draws per row, shape ``(size, ...)``.
    rng : numpy.random.Generator, int, SeedSequence or None, default None
        Source of randomness (:func:`~reference.validation.as_generator`).

    Returns
    -------
    int or numpy.ndarray of int64
        Index (indices) of the selected candidates.

    Raises
    ------
    TypeError
        If ``scores`` is not an array of real numbers, ``scale`` not a real number, ``size`` not an integer or
        ``rng`` not a generator or seed.
    ValueError
        If ``scores`` is a scalar, empty or not finite, ``scale`` not finite and positive, or ``size < 0``.

    Notes
    -----
    One ``Lap(scale)`` variable per (draw, candidate), drawn in C order of
    ``(size, ..., K)`` and chunked without changing the stream.

    References
    ----------
    .. [1] [004 App. E] (Boosting step 3), [002 Alg. 4] (step 5); C. Dwork and A. Roth, 2014, Claim 3.9.

    Examples
    --------
    >>> report_noisy_max([0.0, 1e6], scale=1.0, rng=0)
    1
    >>> report_noisy_max([[0.0, 1.0], [1.0, 0.0]], 1.0, size=3, rng=0).shape
    (3, 2)
    """
    b = check_positive("scale", scale)
    u = check_candidate_array("scores", scores)
    gen = as_generator(rng)
    # the caller declares no sensitivity here (an algorithm calling it declares its scores' own): inf
    out = record_call(
        "report_noisy_max",
        data=u,
        sensitivity=math.inf,
        norm="linf",
        privacy={},
        law={"scores": u, "scale": b},
        public=draw_public(u.shape[-1:], size, u.shape[:-1]),
        sample=lambda: argmax_of_noisy_rows(u, size, lambda chunk: chunk + gen.laplace(0.0, b, size=chunk.shape)),
        site="Dwork & Roth Claim 3.9",
    )
    return int(out) if out.ndim == 0 else out


def _log_laplace_cdf(t):
    """log P[Lap(1) <= t], accurate in both tails."""
    t = np.asarray(t, dtype=np.float64)
    return np.where(t < 0, t - math.log(2.0), np.log1p(-0.5 * np.exp(-np.abs(t))))


def _clusters(points, gap):
    """Group sorted points into runs whose consecutive distances are <= ``gap``."""
    runs, current = [], [points[0]]
    for p in points[1:]:
        if p - current[-1] <= gap:
            current.append(p)
        else:
            runs.append(current)
            current = [p]
    runs.append(current)
    return runs


def _log_integral_exponential(x0, x1, slope, value_at_x0):
    """log of int_{x0}^{x1} exp(value_at_x0 + slope (x - x0)) dx, for x1 > x0."""
    length = x1 - x0
    if slope == 0:
        return value_at_x0 + math.log(length)
    if slope > 0:  # dominated by the right end
        return value_at_x0 + slope * length + math.log(-math.expm1(-slope * length)) - math.log(slope)
    return value_at_x0 + math.log(-math.expm1(slope * length)) - math.log(-slope)


def _log_prob_one(z, j):
    """log P[candidate j wins] for scores ``z`` in noise-scale units (max z = 0)."""
    zj = z[j]
    others = np.delete(z, j)

    def log_integrand(x):
        return -abs(x - zj) - math.log(2.0) + float(np.sum(_log_laplace_cdf(x - others)))

    # The log-integrand carries an absolute rounding error of about |z| * 1e-16,
    # i.e. a relative error of that size in the integrand: ask quad for no more.
    reach = abs(float(z.min()))
    epsrel = max(1e-11, 1e-14 * reach)
    coarse = reach > 1e3
    pieces = []
    runs = _clusters(np.unique(z), 2 * _FLAT_SCALES)
    for r, run in enumerate(runs):
        a = run[0] - (_TAIL_SCALES if r == 0 else _FLAT_SCALES)
        b = run[-1] + (_TAIL_SCALES if r == len(runs) - 1 else _FLAT_SCALES)
        pts = np.array(run)
        ref = max(log_integrand(x) for x in (a, b, *run))
        with warnings.catch_warnings():
            if coarse:
                # The log-probability (about -|gap|) keeps its relative accuracy there.
                warnings.simplefilter("ignore", integrate.IntegrationWarning)
            val, _ = integrate.quad(
                lambda x: math.exp(log_integrand(x) - ref),
                a,
                b,
                points=pts if pts.size <= 200 else None,
                limit=max(100, 4 * pts.size),
                epsabs=0.0,
                epsrel=epsrel,
            )
        if val > 0:
            pieces.append(ref + math.log(val))
        if r + 1 < len(runs):
            # Between clusters every factor is exponential in x up to a relative exp(-40):
            # F(t) = e^t/2 for the scores above, 1 for those below, f likewise.
            x0, x1 = b, runs[r + 1][0] - _FLAT_SCALES
            above = int(np.sum(others > x0))
            slope = above + (1.0 if zj > x0 else -1.0)
            pieces.append(_log_integral_exponential(x0, x1, slope, log_integrand(x0)))
    return float(np.logaddexp.reduce(pieces)) if pieces else -np.inf


def report_noisy_max_log_prob(scores: ArrayLike, scale: float) -> NDArray[np.float64]:
    """Exact log P[report-noisy-max selects j], j = 0..K-1, for every row of ``scores``.

    Rows whose scores lie within 80 noise scales of their maximum (at most 64 candidates; every
    case of the checks) are computed together by a fixed quadrature that is exact up to rounding
    (:func:`_fast_log_prob_rows`: closed form below the lowest score, exact Gauss-Legendre in
    ``e^{-x}`` above the highest, composite Gauss-Legendre between scores; within 1e-14 of mpmath
    at 50 digits in log-probability).  Other rows take the adaptive quadrature below, one row at
    a time.

    ``P[j] = int f(x - u_j) prod_{i != j} F(x - u_i) dx`` with ``f, F`` the
    Laplace(scale) density and CDF.  Scores are grouped into clusters (runs
    whose gaps are at most 80 noise scales); on each cluster the log-concave
    integrand is integrated adaptively in log space with the scores as
    breakpoints (relative tolerance 1e-11, or ``1e-14 * gap`` where the gap
    in noise scales makes float64 rounding larger); between clusters every factor is a
    pure exponential up to a relative ``exp(-40)`` and is integrated in closed
    form.  The result is renormalised; the tests check the factor is 1 to 1e-9,
    compare with the closed form for two candidates up to gaps of 1e5 and both paths
    with mpmath.

    A score more than 1e12 noise scales below the maximum gets log-probability
    ``-inf`` (its true value is below ``-1e12``).
    Ties need no special care: they have probability zero.

    Parameters
    ----------
    scores : array_like, shape (..., K)
        One score vector per row, finite.
    scale : float
        Laplace noise scale, finite and > 0.

    Returns
    -------
    numpy.ndarray of float64, shape (..., K)
        The log-probabilities of each row.

    Raises
    ------
    TypeError
        If ``scores`` is not an array of real numbers or ``scale`` not a real number.
    ValueError
        If ``scores`` is a scalar, empty or not finite, or ``scale`` not finite and positive.

    References
    ----------
    .. [1] C. Dwork and A. Roth (2014), Claim 3.9; [004 App. E]; [002 Alg. 4].

    Examples
    --------
    >>> np.exp(report_noisy_max_log_prob([0.0, 0.0], scale=1.0)).round(6)
    array([0.5, 0.5])
    >>> np.exp(report_noisy_max_log_prob([[0.0, 5.0], [5.0, 0.0]], scale=1.0)).round(4)
    array([[0.0118, 0.9882],
           [0.9882, 0.0118]])
    """
    u = check_candidate_array("scores", scores)
    b = check_positive("scale", scale)
    rows, _ = flat_batch(u)
    logp = np.empty(rows.shape, dtype=np.float64)
    if rows.shape[0]:
        with np.errstate(over="ignore"):
            z = (rows / 2 - rows.max(axis=1, keepdims=True) / 2) / b * 2.0  # as in _log_prob_row
        fast = (z.min(axis=1) >= -_FAST_RANGE) & (rows.shape[1] <= _FAST_MAX_K) & (rows.shape[1] > 1)
        if np.any(fast):
            logp[fast] = _fast_log_prob_rows(z[fast])
        for i in np.flatnonzero(~fast):  # wide or long rows: the adaptive quadrature
            logp[i] = _log_prob_row(rows[i], b)
    return logp.reshape(u.shape)


def _fast_log_prob_rows(z):
    """Exact log P[j wins] for rows ``z`` (R, K) in noise-scale units, max 0 and min >= -80, in one pass.

    ``P_j = int f(x - z_j) prod_{i != j} F(x - z_i) dx`` splits at the sorted scores
    ``s_0 <= ... <= s_{K-1} = 0`` into three parts, each without cancellation:

    * below ``s_0`` every factor is ``e^{x - z_i}/2``: the integral is
      ``exp(sum_i (s_0 - z_i)) / (K 2^K)`` in closed form;
    * above ``0``, with ``y = e^{-x}`` the integrand is the polynomial
      ``(e^{z_j}/2) prod_{i != j} (1 - y e^{z_i}/2)`` of degree ``K - 1`` on ``[0, 1]``: Gauss-Legendre
      with ``ceil(K/2)`` or more nodes is exact;
    * between consecutive scores every factor is entire (``e^{t}/2`` or ``1 - e^{-t}/2``): composite
      Gauss-Legendre, 8 nodes per panel of width at most ``2/K`` (the log-integrand's slope is at most
      ``K``).  All terms are positive, so each ``P_j`` keeps its own relative accuracy (tests: within
      about 1e-14 relative of mpmath at 50 digits).

    The nodes are shared by all ``j``: the integrand of ``j`` is ``G(x) f(x - z_j)/F(x - z_j)`` with
    ``G = prod_i F(x - z_i)``.  Results are renormalised like :func:`_log_prob_row`; every row's
    value depends on that row only (segment reductions), so a batch equals its rows one by one.
    """
    R, K = z.shape
    per_row = int(np.ceil(_FAST_RANGE * K / _PANEL_WIDTH)) * _PANEL_NODES + K
    block = max(1, _BLOCK_ENTRIES // (per_row * K))
    out = np.empty((R, K))
    for start in range(0, R, block):  # blocks of rows bound the memory, not a loop over draws
        out[start : start + block] = _fast_block(z[start : start + block])
    return out


def _fast_block(z):
    """:func:`_fast_log_prob_rows` on one block of rows."""
    R, K = z.shape
    s = np.sort(z, axis=1)
    gaps = np.diff(s, axis=1).ravel()  # (R (K-1),)
    npan = np.ceil(gaps * (K / _PANEL_WIDTH)).astype(np.int64)  # 0 for ties
    total = int(npan.sum())
    gap_of = np.repeat(np.arange(gaps.size), npan)
    first = np.cumsum(npan) - npan
    pos = np.arange(total) - first[gap_of]
    width = np.divide(gaps, npan, out=np.zeros_like(gaps), where=npan > 0)[gap_of]
    left = s[:, :-1].ravel()[gap_of] + pos * width
    x_mid = (left[:, None] + width[:, None] * ((_GL_T + 1.0) / 2.0)).ravel()
    logw_mid = (np.log(width / 2.0)[:, None] + np.log(_GL_W)).ravel()
    row_mid = np.repeat(gap_of // (K - 1), _PANEL_NODES)
    # upper tail: y = e^{-x} in (0, 1), dx = dy / y
    m = (K + 1) // 2
    ty, wy = np.polynomial.legendre.leggauss(m)
    y = (ty + 1.0) / 2.0
    x_top = np.tile(-np.log(y), R)
    logw_top = np.tile(np.log(wy / 2.0) - np.log(y), R)
    row_top = np.repeat(np.arange(R), m)
    x = np.concatenate([x_mid, x_top])
    logw = np.concatenate([logw_mid, logw_top])
    row = np.concatenate([row_mid, row_top])
    order = np.argsort(row, kind="stable")  # each row's nodes contiguous
    x, logw, row = x[order], logw[order], row[order]
    t = x[:, None] - z[row]  # (N, K)
    log_cdf = _log_laplace_cdf(t)
    log_g = np.sum(log_cdf, axis=1, keepdims=True)
    log_int = log_g - log_cdf - np.abs(t) - math.log(2.0) + logw[:, None]
    starts = np.searchsorted(row, np.arange(R))
    ref = np.maximum.reduceat(log_int, starts, axis=0)
    total_mid = np.log(np.add.reduceat(np.exp(log_int - ref[row]), starts, axis=0)) + ref
    low = np.sum(s[:, :1] - z, axis=1) - K * math.log(2.0) - math.log(K)
    logp = np.logaddexp(total_mid, low[:, None])
    mx = np.max(logp, axis=1, keepdims=True)
    return logp - (mx + np.log(np.sum(np.exp(logp - mx), axis=1, keepdims=True)))


def _log_prob_row(u, b):
    """:func:`report_noisy_max_log_prob` for one score vector ``u`` (K,) and scale ``b``."""
    k = u.size
    if k == 1:
        return np.zeros(1)
    with np.errstate(over="ignore"):
        z = (u / 2 - u.max() / 2) / b * 2.0  # noise-scale units; -inf when the gap overflows
    finite = z >= -_NEGLIGIBLE_SCALES
    logp = np.full(k, -np.inf)
    zf = z[finite]
    idx = np.flatnonzero(finite)
    if zf.size == 1:
        logp[idx] = 0.0
        return logp
    with np.errstate(over="ignore"):  # sums near -1.8e308 overflow to -inf: probability 0, honestly
        for pos, j in enumerate(idx):
            logp[j] = _log_prob_one(zf, pos)
    m = np.max(logp)
    return logp - (m + math.log(np.sum(np.exp(logp - m))))


class ReportNoisyMax:
    """Report-noisy-max in the mechanism protocol; ``data`` is the score vector.

    ``sample(data, size, rng)`` returns ``size`` selected indices; ``log_prob(data)`` returns
    ``(outputs, log_probabilities)``; ``ReportNoisyMax.from_privacy(sensitivity, epsilon, monotone=...)``
    calibrates the scale by :func:`report_noisy_max_scale`.

    Parameters
    ----------
    scale : float
        Laplace noise scale, finite and > 0.

    Raises
    ------
    TypeError
        If ``scale`` is not a real number.
    ValueError
        If ``scale`` is not finite and positive.

    References
    ----------
    .. [1] C. Dwork and A. Roth (2014), Claim 3.9; [004 App. E]; [002 Alg. 4].

    Examples
    --------
    >>> mech = ReportNoisyMax.from_privacy(1.0, 1.0)
    >>> mech.scale
    2.0
    >>> outputs, logp = mech.log_prob([0.0, 0.0])
    >>> outputs, np.exp(logp).round(6)
    (array([0, 1]), array([0.5, 0.5]))
    """

    finite_output = True

    def __init__(self, scale: float) -> None:
        self.scale = check_positive("scale", scale)

    @classmethod
    def from_privacy(cls, sensitivity: float, epsilon: float, *, monotone: bool = False) -> ReportNoisyMax:
        return cls(report_noisy_max_scale(sensitivity, epsilon, monotone=monotone))

    def log_prob(self, data: ArrayLike) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
        logp = report_noisy_max_log_prob(data, self.scale)
        return np.arange(logp.shape[-1]), logp

    def sample(self, data: ArrayLike, size: int, rng: RNGLike = None) -> int | NDArray[np.int64]:
        return report_noisy_max(data, self.scale, size, rng)
