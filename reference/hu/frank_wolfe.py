"""Algorithms 1 and 2 of 002 (Hu, Ni, Xiao & Wang): private Frank-Wolfe over a polytope.

Algorithm 1 (Heavy-tailed DP-FW) selects, at each of ``T`` iterations, a vertex
of the polytope ``W = conv(V)`` by the exponential mechanism, scoring each
vertex with the coordinate-wise robust (smoothed Catoni) gradient of a fresh,
disjoint part of the data.  Algorithm 2 (Heavy-tailed private LASSO) shrinks
every entry of every record at ``K`` and runs the exponential-mechanism
Frank-Wolfe of Talwar, Thakurta and Zhang on the whole shrunken data, with a
per-iteration budget from advanced composition.

Both algorithms output a deterministic function of the sequence of selected
vertices, so their output law is finite: :func:`dp_fw_output_log_prob` and
:func:`private_lasso_output_log_prob` enumerate the ``|V|^T`` selection paths
for small instances and return the exact law of ``w^T``.

A dataset is a 2-D array of records ``[x_1, ..., x_d, y]``.

References
----------
.. [1] L. Hu, S. Ni, H. Xiao and D. Wang, ``002_6c597657f27a60c9.txt``: Algorithm 1, Theorem 1
       and its proof; Algorithm 2, Theorem 4 and its proof; Lemma 2; Section 6.2.
.. [2] K. Talwar, A. Thakurta and L. Zhang, "Nearly optimal private LASSO", NeurIPS 2015
       (ref. [50] of 002).
"""

from __future__ import annotations

import functools
import math

import numpy as np

from . import catoni
from ..losses import get_loss
from ..records import split_records
from ..mechanisms import (advanced_composition_split, exponential_log_prob, gumbel_max_sample,
                          normalize_log_weights)
from ..validation import (as_generator, check_choice, check_delta, check_epsilon, check_finite_array,
                         check_integer, check_positive)

__all__ = [
    "l1_ball_vertices", "polytope_l1_radius", "polytope_l1_diameter", "polytope_l1_norm", "NORM_READINGS", "fw_step_sizes", "data_split", "shrink_records",
    "dp_fw_sensitivity", "dp_fw_robust_gradients", "robust_gradient_matrix", "GRAD_CAP", "dp_fw_selection_log_prob",
    "heavy_tailed_dp_fw", "dp_fw_output_log_prob", "dp_fw_output_log_prob_batch", "private_lasso_output_log_prob_batch", "lasso_epsilon_step", "lasso_sensitivity",
    "lasso_gradients", "lasso_selection_log_prob", "heavy_tailed_private_lasso",
    "private_lasso_output_log_prob", "HeavyTailedDPFW", "HeavyTailedPrivateLasso", "DPFWStep",
    "PrivateLassoStep", "MAX_PATHS",
]

#: Largest number of selection paths ``|V|^T`` the exact enumerations accept.
MAX_PATHS = 200_000

STEP_SCHEDULES = ("theorem2", "section6")
LASSO_VARIANTS = ("printed", "lemma2", "standard")


# --------------------------------------------------------------------------- polytope helpers

def l1_ball_vertices(d, radius=1.0):
    """Vertices ``{+-radius e_j}`` of the l1 ball, rows ``+e_1, ..., +e_d, -e_1, ..., -e_d``.

    Examples
    --------
    >>> l1_ball_vertices(2)
    array([[ 1.,  0.],
           [ 0.,  1.],
           [-1., -0.],
           [-0., -1.]])
    """
    d = check_integer("d", d, minimum=1)
    r = check_positive("radius", radius)
    eye = np.eye(d) * r
    return np.vstack([eye, -eye])


def _check_vertices(vertices, d=None):
    V = check_finite_array("vertices", vertices, ndim=2)
    if d is not None and V.shape[1] != d:
        raise ValueError(f"vertices must have d = {d} columns, got shape {V.shape}")
    return V


def polytope_l1_radius(vertices):
    """``max_{v in V} ||v||_1``, the l1 radius of ``conv(V)`` (the ``"radius"`` reading of ``||W||_1``)."""
    V = _check_vertices(vertices)
    return float(np.max(np.sum(np.abs(V), axis=1)))


def polytope_l1_diameter(vertices):
    """``||W||_1 = max_{u, v in W} ||u - v||_1`` as [002 Sec. 3 (Notations)] defines it: the l1 diameter.

    The maximum of the convex function ``||u - v||_1`` over ``conv(V) x conv(V)`` is attained at
    a pair of vertices, so it is the largest l1 distance between two rows of ``vertices``
    (2 r on the l1 ball of radius r).
    """
    V = _check_vertices(vertices)
    return float(np.max(np.sum(np.abs(V[:, None, :] - V[None, :, :]), axis=2)))


#: Readings of ``||W||_1`` in [002 Alg. 1 step 6] and [002 Alg. 2 step 4].  ``"diameter"`` is the
#: paper's definition [002 Sec. 3 (Notations)]; ``"radius"`` (``max_v ||v||_1``, half of it on a ball
#: centred at 0) is the quantity the proofs of [002 Thm. 1] and [002 Thm. 4] bound ``||v||_1`` by.
NORM_READINGS = ("diameter", "radius")


def polytope_l1_norm(vertices, reading="radius"):
    """``||W||_1`` of ``conv(vertices)`` under ``reading`` (one of :data:`NORM_READINGS`)."""
    reading = check_choice("reading", reading, NORM_READINGS)
    return polytope_l1_diameter(vertices) if reading == "diameter" else polytope_l1_radius(vertices)


def fw_step_sizes(T, schedule="theorem2"):
    """Step sizes ``eta_{t-1}`` used at iterations ``t = 1..T`` (Algorithm 1 step 7, Algorithm 2 step 5).

    Parameters
    ----------
    T : int
        Number of iterations, >= 1.
    schedule : {"theorem2", "section6"} or array_like
        ``"theorem2"``: ``eta_{t-1} = 2/(t+2)`` as in Theorems 2 and 5 (first step 2/3).
        ``"section6"``: ``eta_t = 2/(t+2)`` as written in Section 6.2, i.e.
        ``eta_{t-1} = 2/(t+1)`` (first step 1, the classical Frank-Wolfe schedule).
        An array gives the ``T`` values directly; each must lie in (0, 1].

    Returns
    -------
    numpy.ndarray, shape (T,)
    """
    T = check_integer("T", T, minimum=1)
    t = np.arange(1, T + 1, dtype=np.float64)
    if isinstance(schedule, str):
        if schedule == "theorem2":
            return 2.0 / (t + 2.0)
        if schedule == "section6":
            return 2.0 / (t + 1.0)
        raise ValueError(f"step_size must be one of {STEP_SCHEDULES} or an array, got {schedule!r}")
    eta = check_finite_array("step_size", schedule, ndim=1, shape=(T,))
    if np.any(eta <= 0) or np.any(eta > 1):
        raise ValueError(f"step_size entries must lie in (0, 1], got {eta}")
    return eta


def data_split(n, T):
    """Algorithm 1 step 2 / Algorithm 3 step 3: ``T`` disjoint contiguous parts of ``range(n)``.

    Part sizes differ by at most one (``m = n/T`` when ``T`` divides ``n``).
    The split depends on ``n`` and ``T`` only, never on the data.  ``T > n``
    would leave a part empty and is an error.
    """
    n = check_integer("n", n, minimum=1)
    T = check_integer("T", T, minimum=1)
    if T > n:
        raise ValueError(f"T must be <= n so that no part of the data split is empty, got T={T}, n={n}")
    bounds = np.linspace(0, n, T + 1).round().astype(np.int64)
    parts = [np.arange(bounds[i], bounds[i + 1]) for i in range(T)]
    if any(p.size == 0 for p in parts):  # cannot happen for T <= n; kept as a guard
        raise ValueError(f"data split of n={n} into T={T} parts has an empty part")
    return parts


def shrink_records(data, K):
    """Algorithm 2 step 2 / Algorithm 3 step 2: ``sign(z) min(|z|, K)`` for every entry of every record."""
    arr = check_finite_array("data", data, ndim=2)
    K = check_positive("K", K)
    return np.clip(arr, -K, K)


# --------------------------------------------------------------------------- generic FW engine

def _fw_run(w0, etas, V, step_logp, size, rng):
    """Run ``size`` independent Frank-Wolfe chains; ``step_logp(t, W) -> (P, k)``.

    Each iteration draws one vertex per chain from its row of exact
    log-probabilities ([002 Def. 3] via :func:`reference.mechanisms.gumbel_max_sample`).
    """
    W = np.repeat(w0[None, :], size, axis=0)
    path = np.empty((size, etas.size), dtype=np.int64)
    for t in range(1, etas.size + 1):  # loop over iterations only; vectorised over runs
        # Runs share at most |V|^(t-1) distinct iterates: score each distinct one once.
        if W.shape[0] == 1:   # one run: its iterate is the distinct one (np.unique would return a copy of it)
            logp = step_logp(t, W.copy())
        else:
            Wu, inv = np.unique(W, axis=0, return_inverse=True)
            logp = step_logp(t, Wu)[np.asarray(inv).ravel()]
        j = gumbel_max_sample(logp, rng=rng)
        path[:, t - 1] = j
        W = (1.0 - etas[t - 1]) * W + etas[t - 1] * V[j]
    return W, path


def _fw_enumerate(w0, etas, V, step_logp):
    """All ``|V|^T`` selection paths with their log-probabilities and final iterates."""
    k, T = V.shape[0], etas.size
    if k**T > MAX_PATHS:
        raise ValueError(f"|V|^T = {k}^{T} = {k**T} selection paths exceeds MAX_PATHS = {MAX_PATHS}")
    W = w0[None, :].copy()
    paths = np.empty((1, 0), dtype=np.int64)
    logp = np.zeros(1)
    for t in range(1, T + 1):
        lp = step_logp(t, W)                                  # (P, k)
        P = W.shape[0]
        logp = (logp[:, None] + lp).ravel()
        paths = np.hstack([np.repeat(paths, k, axis=0), np.tile(np.arange(k), P)[:, None]])
        W = ((1.0 - etas[t - 1]) * W[:, None, :] + etas[t - 1] * V[None, :, :]).reshape(P * k, -1)
    return paths, W, logp


def _fw_enumerate_batch(w0, etas, V, step_logp_batch):
    """Like :func:`_fw_enumerate` for B datasets at once: ``step_logp_batch(t, W) -> (B, P, k)``.

    The prefix iterates do not depend on the data, only their probabilities do.
    Returns ``paths (k^T, T)``, ``W (k^T, d)``, ``logp (B, k^T)``.
    """
    k, T = V.shape[0], etas.size
    if k**T > MAX_PATHS:
        raise ValueError(f"|V|^T = {k}^{T} = {k**T} selection paths exceeds MAX_PATHS = {MAX_PATHS}")
    W = w0[None, :].copy()
    paths = np.empty((1, 0), dtype=np.int64)
    logp = None
    for t in range(1, T + 1):
        lp = step_logp_batch(t, W)                            # (B, P, k)
        B, P = lp.shape[0], W.shape[0]
        logp = (lp if logp is None else logp[:, :, None] + lp).reshape(B, P * k)
        paths = np.hstack([np.repeat(paths, k, axis=0), np.tile(np.arange(k), P)[:, None]])
        W = ((1.0 - etas[t - 1]) * W[:, None, :] + etas[t - 1] * V[None, :, :]).reshape(P * k, -1)
    return paths, W, logp


def _merge_outputs_batch(W, logp):
    """Group identical output rows once and merge each dataset's path law: ``(outputs, logp (B, M))``."""
    outputs, inverse = np.unique(W, axis=0, return_inverse=True)
    inverse = np.asarray(inverse).ravel()
    order = np.argsort(inverse, kind="stable")
    starts = np.searchsorted(inverse[order], np.arange(outputs.shape[0]))
    lp = logp[:, order]
    top = np.maximum.reduceat(lp, starts, axis=1)
    counts = np.diff(np.append(starts, lp.shape[1]))
    with np.errstate(invalid="ignore"):
        rel = np.exp(lp - np.repeat(top, counts, axis=1))
    with np.errstate(divide="ignore"):
        merged = top + np.log(np.add.reduceat(np.nan_to_num(rel), starts, axis=1))
    return outputs, np.where(np.isfinite(top), merged, -np.inf)


def _merge_plan_uncached(W):
    """The grouping of :func:`_merge_outputs`: ``(outputs, order, starts, counts)`` of the rows of ``W``."""
    outputs, inverse = np.unique(W, axis=0, return_inverse=True)
    inverse = np.asarray(inverse).ravel()
    order = np.argsort(inverse, kind="stable")
    starts = np.searchsorted(inverse[order], np.arange(outputs.shape[0]))
    return outputs, order, starts, np.diff(np.append(starts, W.shape[0]))


@functools.lru_cache(maxsize=64)
def _merge_plan_cached(shape, buffer):
    plan = _merge_plan_uncached(np.frombuffer(buffer, dtype=np.float64).reshape(shape))
    for a in plan:
        a.setflags(write=False)
    return plan


#: Largest ``W`` (entries) whose grouping is cached: the enumerated iterates depend on ``w0``, the step sizes
#: and ``V`` only, never on the data, so an exact law evaluated on many datasets (an audit's search) groups
#: the same ``W`` each time; the grouping (``np.unique`` on rows) was a quarter of such a law's cost.
_MERGE_CACHE_MAX = 1 << 14


def _merge_outputs(W, logp):
    """Group identical output rows (exact float equality, as the sampler would output them)."""
    if W.size <= _MERGE_CACHE_MAX:
        Wc = np.ascontiguousarray(W, dtype=np.float64)
        outputs, order, starts, counts = _merge_plan_cached(Wc.shape, Wc.tobytes())
        outputs = outputs.copy()
    else:
        outputs, order, starts, counts = _merge_plan_uncached(W)
    lp = logp[order]
    top = np.maximum.reduceat(lp, starts)
    with np.errstate(invalid="ignore"):
        rel = np.exp(lp - np.repeat(top, counts))
    merged = top + np.log(np.add.reduceat(np.nan_to_num(rel), starts))
    return outputs, np.where(np.isfinite(top), merged, -np.inf)


# --------------------------------------------------------------------------- Algorithm 1

def dp_fw_sensitivity(vertices, s, m, reading="radius"):
    """Algorithm 1 step 6: ``Delta = 4 ||W||_1 sqrt(2) s / (3 m)``.

    ``reading`` chooses ``||W||_1`` (:data:`NORM_READINGS`): ``"diameter"`` as [002 Sec. 3] defines it
    (the printed Delta), ``"radius"`` (``max_v ||v||_1``, the implementation's default: half the printed
    Delta on the l1 ball, the smaller noise, so a privacy check of it is the stricter one).
    """
    s = check_positive("s", s)
    m = check_integer("m", m, minimum=1)
    return 4.0 * polytope_l1_norm(vertices, reading) * math.sqrt(2.0) * s / (3.0 * m)


#: Per-example gradient entries are evaluated at most at ``GRAD_CAP * s * min(1, sqrt(beta))`` in absolute value.
GRAD_CAP = 1e300


def robust_gradient_matrix(G, s, beta, variant="standard"):
    """Algorithm 1 step 4 on a matrix of per-example gradients ``G`` (m, q): the robust estimate of each column.

    The estimator sees a per-example gradient ``g`` only through ``(g/s, |g|/(s sqrt(beta)))``.
    Entries with ``|g| > 1e300 * s * min(1, sqrt(beta))`` (and overflowed ``+-inf``) are
    evaluated at that magnitude, so both arguments stay finite and <= 1e300 (the range on which
    :func:`reference.hu.catoni.expected_phi` is specified); the per-sample contribution is then
    within ~1e-300 of its limit, and every contribution stays inside the bound the privacy proof uses.

    Returns
    -------
    numpy.ndarray, shape (q,)

    Raises
    ------
    ValueError
        If ``G`` contains NaN, or the estimator returns a non-finite value.
    """
    G = np.asarray(G, dtype=np.float64)
    if np.isnan(G).any():      # the method: np.any's wrapper costs more than the test (called per law step)
        raise ValueError("per-example gradients contain NaN")
    s = check_positive("s", s)
    beta = check_positive("beta", beta)
    cap = GRAD_CAP * s * min(1.0, math.sqrt(beta))
    G = np.where(np.abs(G) > cap, np.sign(G) * cap, G)
    g = np.asarray(catoni.robust_gradient(G, s, beta, variant=variant), dtype=np.float64)
    if not np.isfinite(g).all():
        raise ValueError(f"robust_gradient (variant {variant!r}) returned non-finite values")
    return g


def dp_fw_robust_gradients(W, X, y, loss, s, beta, variant="standard"):
    """Algorithm 1 steps 4-5 at several points: the robust gradients ``g~(w, D_t)`` for each row of ``W``.

    Per-example gradients ``grad l(w, x_i)`` (P, m, d) go through
    :func:`robust_gradient_matrix`, which works coordinate by coordinate, so all
    P points are estimated in one call on an (m, P*d) array.

    Returns
    -------
    numpy.ndarray, shape (P, d)
    """
    W = np.atleast_2d(W)
    G = get_loss(loss).gradient_batch(W, X, y)                # (P, m, d)
    P, m, d = G.shape
    return robust_gradient_matrix(G.transpose(1, 0, 2).reshape(m, P * d), s, beta, variant).reshape(P, d)


def dp_fw_selection_log_prob(W, X, y, loss, vertices, s, beta, epsilon, *, variant="standard",
                             sensitivity=None):
    """Exact law of the vertex selected at [002 Alg. 1 step 6] for each current iterate (row of ``W``).

    Scores ``u(D_t, v) = -<v, g~(w, D_t)>``; the exponential mechanism of
    [002 Def. 3], ``exp(eps u / (2 Delta))`` (weight factor 1/2 of
    :func:`reference.mechanisms.exponential_log_prob`), ``Delta`` from
    :func:`dp_fw_sensitivity` (or ``sensitivity`` when given, for audits of
    miscalibrated variants).

    Returns
    -------
    numpy.ndarray, shape (P, |V|)

    References
    ----------
    .. [1] [002 Alg. 1 step 6], [002 Def. 3].
    """
    V = _check_vertices(vertices)
    g = dp_fw_robust_gradients(W, X, y, loss, s, beta, variant)
    delta_u = dp_fw_sensitivity(V, s, X.shape[0]) if sensitivity is None else check_positive("sensitivity", sensitivity)
    return exponential_log_prob(-(g @ V.T), epsilon, delta_u)


def _dp_fw_setup(data, loss, w0, s, T, beta, epsilon, vertices):
    X, y = split_records(data)
    n, d = X.shape
    w0 = check_finite_array("w0", w0, ndim=1, shape=(d,))
    V = l1_ball_vertices(d) if vertices is None else _check_vertices(vertices, d)
    check_positive("s", s)
    check_positive("beta", beta)
    check_epsilon(epsilon)
    parts = data_split(n, T)
    return X, y, w0, V, parts, get_loss(loss)


def _dp_fw_step_fn(X, y, parts, loss, V, s, beta, epsilon, variant, sensitivity):
    def step_logp(t, W):
        idx = parts[t - 1]
        return dp_fw_selection_log_prob(W, X[idx], y[idx], loss, V, s, beta, epsilon,
                                        variant=variant, sensitivity=sensitivity)
    return step_logp


def heavy_tailed_dp_fw(data, loss, w0, s, T, beta, epsilon, vertices=None, rng=None, *,
                       variant="standard", step_size="theorem2", sensitivity=None, size=None,
                       return_path=False):
    """Algorithm 1 of 002 (Heavy-tailed DP-FW); epsilon-DP by Theorem 1.

    Steps
    -----
    (1) input records ``[x, y]``, loss, ``w^0``, ``s, T, beta, eta_t``, ``epsilon``; ``W = conv(V)``.
    (2) split the data into ``T`` disjoint parts :func:`data_split` (sizes ``m_t ~ n/T``).
    (3) for ``t = 1..T``:
    (4-5) robust gradient ``g~(w^{t-1}, D_t)`` coordinate-wise by eqs. (2)-(5)
          (:func:`dp_fw_robust_gradients`, ``variant`` of :func:`reference.hu.catoni.robust_gradient`);
    (6) exponential mechanism over ``V`` with score ``-<v, g~>``, sensitivity
        ``4 ||W||_1 sqrt(2) s / (3 m_t)`` and budget ``epsilon`` (:func:`dp_fw_selection_log_prob`);
    (7) ``w^t = (1 - eta_{t-1}) w^{t-1} + eta_{t-1} w~^{t-1}`` (:func:`fw_step_sizes`).
    (9) return ``w^T``.

    Parameters
    ----------
    data : array_like, shape (n, d + 1)
        Records ``[x, y]``.
    loss : str or Loss
        ``"squared"``, ``"biweight"``, ``"logistic"``, ``"logistic_l2"`` or a :class:`Loss`.
    w0 : array_like, shape (d,)
        Initial point (Section 6.2 samples it in the unit l1 ball).
    s : float
        Scale of the robust estimator, > 0.
    T : int
        Iterations, ``1 <= T <= n``.
    beta : float
        Smoothing parameter (noise ``N(0, 1/beta)``), > 0.
    epsilon : float
        Privacy budget, > 0 (spent in full by every iteration, on disjoint data).
    vertices : array_like, shape (k, d), optional
        Vertex set ``V``; the unit l1 ball (:func:`l1_ball_vertices`) by default.
    rng : numpy.random.Generator, int or None
    variant : {"standard", "printed"}
        Robust-gradient variant, passed to :func:`reference.hu.catoni.robust_gradient`.
    step_size : {"theorem2", "section6"} or array_like
        See :func:`fw_step_sizes`.
    sensitivity : float, optional
        Override of the step-6 sensitivity (for audits only).
    size : int, optional
        Number of independent runs, vectorised; ``None`` for one run.
    return_path : bool
        Also return the selected vertex indices, shape (T,) or (size, T).

    Returns
    -------
    numpy.ndarray, shape (d,) or (size, d)
        ``w^T``.

    Notes
    -----
    Proof note (Theorem 1).  Each record lies in exactly one part ``D_t``; given
    ``w^{t-1}``, replacing it moves each coordinate of ``g~`` by at most the
    range of one per-sample contribution, ``4 sqrt(2) s/(3 m)`` when every
    contribution lies in ``[-2 sqrt(2) s/(3m), 2 sqrt(2) s/(3m)]``, hence the score by at most
    ``||v||_1`` times that.  Step 6 is then epsilon-DP and the other iterations
    do not see the record (parallel composition + post-processing).  The bound on
    the per-sample contribution is a property of the Catoni estimator (claimed by
    its own module); the claim ``hu.alg1.step6.sensitivity`` measures the score
    sensitivity through :func:`reference.hu.catoni.robust_gradient`.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> data = rng.standard_t(3, size=(40, 4))
    >>> heavy_tailed_dp_fw(data, "squared", np.zeros(3), s=5.0, T=4, beta=1.0, epsilon=1.0, rng=1).shape
    (3,)
    """
    X, y, w0, V, parts, loss = _dp_fw_setup(data, loss, w0, s, T, beta, epsilon, vertices)
    etas = fw_step_sizes(len(parts), step_size)
    gen = as_generator(rng)
    runs = 1 if size is None else check_integer("size", size, minimum=1)
    step = _dp_fw_step_fn(X, y, parts, loss, V, s, beta, epsilon, variant, sensitivity)
    W, path = _fw_run(w0, etas, V, step, runs, gen)
    if size is None:
        W, path = W[0], path[0]
    return (W, path) if return_path else W


def dp_fw_output_log_prob_batch(datasets, loss, w0, s, T, beta, epsilon, vertices=None, *, variant="standard",
                                step_size="theorem2", sensitivity=None):
    """Exact laws of the output of Algorithm 1 on B datasets of equal shape (e.g. a dataset and its neighbours).

    All datasets share the enumerated outputs; the robust gradients of every
    dataset at every prefix iterate are computed in one call per iteration.

    Returns
    -------
    outputs : ndarray (M, d)
    log_prob : ndarray (B, M)
    """
    Dsets = check_finite_array("datasets", datasets, ndim=3)
    B, n, width = Dsets.shape
    d = width - 1
    X0, y0, w0, V, parts, loss = _dp_fw_setup(Dsets[0], loss, w0, s, T, beta, epsilon, vertices)
    etas = fw_step_sizes(len(parts), step_size)

    def step(t, W):
        idx = parts[t - 1]
        m = idx.size
        G = np.stack([loss.gradient_batch(W, Dsets[b, idx, :-1], Dsets[b, idx, -1]) for b in range(B)])
        P = W.shape[0]
        g = robust_gradient_matrix(G.transpose(2, 0, 1, 3).reshape(m, B * P * d), s, beta, variant)
        g = g.reshape(B * P, d)
        delta_u = dp_fw_sensitivity(V, s, m) if sensitivity is None else check_positive("sensitivity", sensitivity)
        return exponential_log_prob(-(g @ V.T).reshape(B, P, V.shape[0]), epsilon, delta_u)

    _, W, logp = _fw_enumerate_batch(w0, etas, V, step)
    return _merge_outputs_batch(W, logp)


def dp_fw_output_log_prob(data, loss, w0, s, T, beta, epsilon, vertices=None, *, variant="standard",
                          step_size="theorem2", sensitivity=None, return_paths=False):
    """Exact law of the output ``w^T`` of Algorithm 1 by enumerating the ``|V|^T`` selection paths.

    Returns
    -------
    outputs : ndarray, shape (M, d)
        The distinct values of ``w^T`` (as the sampler computes them).
    log_prob : ndarray, shape (M,)
    paths, path_log_prob : ndarray
        Only with ``return_paths``: every selection path (|V|^T, T) and its log-probability.
    """
    X, y, w0, V, parts, loss = _dp_fw_setup(data, loss, w0, s, T, beta, epsilon, vertices)
    etas = fw_step_sizes(len(parts), step_size)
    step = _dp_fw_step_fn(X, y, parts, loss, V, s, beta, epsilon, variant, sensitivity)
    paths, W, logp = _fw_enumerate(w0, etas, V, step)
    outputs, merged = _merge_outputs(W, logp)
    if return_paths:
        return outputs, merged, paths, logp
    return outputs, merged


# --------------------------------------------------------------------------- Algorithm 2

def lasso_epsilon_step(epsilon, delta, T, variant="printed"):
    """Per-iteration budget of Algorithm 2 step 4.

    ``"printed"``: ``eps / (2 sqrt(2 T log(1/delta)))`` as in the box of Algorithm 2;
    ``"lemma2"``: ``eps / (2 sqrt(2 T ln(2/delta)))`` as Lemma 2 (cited by the proof of Theorem 4) prints;
    ``"standard"``: the largest pure per-step budget whose T-fold advanced composition
    (Dwork-Roth Thm 3.20, slack ``delta/2``) is exactly ``eps``
    (:func:`reference.mechanisms.advanced_composition_split`, ``"standard"``).
    """
    eps = check_epsilon(epsilon)
    dlt = check_delta(delta)
    T = check_integer("T", T, minimum=1)
    if variant not in LASSO_VARIANTS:
        raise ValueError(f"variant must be one of {LASSO_VARIANTS}, got {variant!r}")
    return _lasso_epsilon_step(float(eps), float(dlt), T, variant)


@functools.lru_cache(maxsize=256)
def _lasso_epsilon_step(eps, dlt, T, variant):
    # deterministic in its arguments; "standard" solves for the split by a root search, which an exact law
    # evaluated on many datasets repeated each time (14 % of the law's cost)
    if variant == "printed":
        return eps / (2.0 * math.sqrt(2.0 * T * math.log(1.0 / dlt)))
    if variant == "lemma2":
        return advanced_composition_split(eps, dlt, T, "printed").epsilon_step
    if variant == "standard":
        return advanced_composition_split(eps, dlt, T, "standard").epsilon_step
    raise ValueError(f"variant must be one of {LASSO_VARIANTS}, got {variant!r}")


def lasso_sensitivity(vertices, K, n, reading="radius"):
    """Algorithm 2 step 4: ``Delta = 8 ||W||_1 K^2 / n``; ``reading`` as in :func:`dp_fw_sensitivity`."""
    K = check_positive("K", K)
    n = check_integer("n", n, minimum=1)
    norm = polytope_l1_norm(vertices, reading)
    with np.errstate(over="ignore"):
        value = 8.0 * norm * K * K / n
    if not math.isfinite(value):
        raise ValueError(f"K={K!r} is too large: the sensitivity 8 ||W||_1 K^2 / n overflows float64")
    if value == 0.0:
        raise ValueError(f"K={K!r} is too small: the sensitivity 8 ||W||_1 K^2 / n underflows to 0")
    return value


def lasso_gradients(W, Xs, ys, n=None):
    """Algorithm 2 step 4: ``g~(w, D~) = (2/n) sum_i x~_i (<x~_i, w> - y~_i)`` for each row of ``W``.

    ``n`` defaults to the number of records.  Returns shape (P, d).
    """
    W = np.atleast_2d(W)
    n = Xs.shape[0] if n is None else n
    r = W @ Xs.T - ys[None, :]                                # (P, n)
    return (2.0 / n) * (r @ Xs)


def lasso_selection_log_prob(W, Xs, ys, vertices, K, epsilon_step, *, sensitivity=None, n=None):
    """Exact law of the vertex selected at [002 Alg. 2 step 4], for each current iterate (row of ``W``).

    The exponential mechanism of [002 Def. 3] (``exp(eps' u / (2 Delta))``) on the scores
    ``-<v, g~(w, D~)>`` of :func:`lasso_gradients`; returns shape (P, |V|).

    References
    ----------
    .. [1] [002 Alg. 2 step 4], [002 Def. 3].
    """
    V = _check_vertices(vertices)
    n = Xs.shape[0] if n is None else n
    delta_u = lasso_sensitivity(V, K, n) if sensitivity is None else check_positive("sensitivity", sensitivity)
    return exponential_log_prob(-(lasso_gradients(W, Xs, ys, n) @ V.T), epsilon_step, delta_u)


def _lasso_setup(data, w0, K, T, epsilon, delta, vertices, variant):
    X, y = split_records(data)
    n, d = X.shape
    K = check_positive("K", K)
    T = check_integer("T", T, minimum=1)
    if T > n:
        raise ValueError(f"T must be <= n, got T={T}, n={n}")
    w0 = check_finite_array("w0", w0, ndim=1, shape=(d,))
    V = l1_ball_vertices(d) if vertices is None else _check_vertices(vertices, d)
    e_step = lasso_epsilon_step(epsilon, delta, T, variant)
    shrunk = shrink_records(data, K)
    return shrunk[:, :-1], shrunk[:, -1], w0, V, e_step


def heavy_tailed_private_lasso(data, w0, K, T, epsilon, delta, vertices=None, rng=None, *,
                               variant="printed", step_size="theorem2", sensitivity=None, size=None,
                               return_path=False):
    """Algorithm 2 of 002 (Heavy-tailed private LASSO); (epsilon, delta)-DP by Theorem 4.

    Steps
    -----
    (1) input records ``[x, y]``, squared loss, ``w^0``, ``K, T, eta_t``, ``epsilon, delta``;
        ``W`` the l1 ball with vertex set ``V``.
    (2) shrink every entry of ``x_i`` and ``y_i`` at ``K`` (:func:`shrink_records`).
    (3) for ``t = 1..T``:
    (4) exponential mechanism over ``V`` with score ``-<v, g~(w^{t-1}, D~)>``,
        ``g~ = (2/n) sum x~_i(<x~_i, w> - y~_i)`` (:func:`lasso_gradients`), sensitivity
        ``8 ||W||_1 K^2 / n`` and budget :func:`lasso_epsilon_step` (``variant``);
    (5) ``w^t = (1 - eta_{t-1}) w^{t-1} + eta_{t-1} w~^{t-1}``.
    (7) return ``w^T``.

    Parameters
    ----------
    data : array_like, shape (n, d + 1)
    w0 : array_like, shape (d,)
    K : float
        Shrinkage threshold, > 0.
    T : int
        Iterations, ``1 <= T <= n``.
    epsilon, delta : float
        Target privacy; Theorem 4 assumes ``0 < epsilon, delta < 1``.
    vertices : array_like, optional
        Vertex set; the unit l1 ball by default (the LASSO setting of Section 4).
    variant : {"printed", "lemma2", "standard"}
        Per-iteration budget, see :func:`lasso_epsilon_step`.
    step_size, sensitivity, size, return_path, rng
        As in :func:`heavy_tailed_dp_fw`.

    Notes
    -----
    Proof note (Theorem 4).  After shrinkage ``|x~_ij|, |y~_i| <= K``; replacing a
    record moves ``g~`` by ``(2/n)`` times the difference of two terms
    ``x~(<x~, w> - y~)``, each bounded entrywise by ``K (K ||w||_1 + K)``.  With
    ``||w||_1 <= 1`` this is ``2K^2``, giving ``8 ||W||_1 K^2 / n`` for the score;
    for an l1 ball of radius ``r > 1`` the same argument gives
    ``4 r (r + 1) K^2 / n``, which exceeds the printed value (claim
    ``hu.alg2.step4.sensitivity-radius``).  Each step is then pure
    ``eps'``-DP and the ``T`` steps compose by advanced composition.
    (Theorem 4 as printed names "Algorithm 1"; it is about Algorithm 2.)
    """
    Xs, ys, w0, V, e_step = _lasso_setup(data, w0, K, T, epsilon, delta, vertices, variant)
    etas = fw_step_sizes(T, step_size)
    gen = as_generator(rng)
    runs = 1 if size is None else check_integer("size", size, minimum=1)
    if sensitivity is None:   # the same at every iteration: ||W||_1 of the vertex set computed once, not T times
        sensitivity = lasso_sensitivity(V, K, Xs.shape[0])
    step = lambda t, W: lasso_selection_log_prob(W, Xs, ys, V, K, e_step, sensitivity=sensitivity)  # noqa: E731
    W, path = _fw_run(w0, etas, V, step, runs, gen)
    if size is None:
        W, path = W[0], path[0]
    return (W, path) if return_path else W


def private_lasso_output_log_prob_batch(datasets, w0, K, T, epsilon, delta, vertices=None, *, variant="printed",
                                       step_size="theorem2", sensitivity=None):
    """Exact laws of the output of Algorithm 2 on B datasets of equal shape: ``(outputs (M, d), log_prob (B, M))``."""
    Dsets = check_finite_array("datasets", datasets, ndim=3)
    B, n, _ = Dsets.shape
    _, _, w0, V, e_step = _lasso_setup(Dsets[0], w0, K, T, epsilon, delta, vertices, variant)
    sh = shrink_records(Dsets.reshape(B * n, -1), K).reshape(Dsets.shape)
    Xs, ys = sh[:, :, :-1], sh[:, :, -1]
    etas = fw_step_sizes(T, step_size)
    delta_u = lasso_sensitivity(V, K, n) if sensitivity is None else check_positive("sensitivity", sensitivity)

    def step(t, W):
        R = np.einsum("pd,bnd->bpn", W, Xs) - ys[:, None, :]
        G = (2.0 / n) * np.einsum("bpn,bnd->bpd", R, Xs)
        P = W.shape[0]
        return exponential_log_prob(-(G.reshape(B * P, -1) @ V.T).reshape(B, P, V.shape[0]), e_step, delta_u)

    _, W, logp = _fw_enumerate_batch(w0, etas, V, step)
    return _merge_outputs_batch(W, logp)


def private_lasso_output_log_prob(data, w0, K, T, epsilon, delta, vertices=None, *, variant="printed",
                                  step_size="theorem2", sensitivity=None, return_paths=False):
    """Exact law of the output of Algorithm 2 by enumerating the ``|V|^T`` selection paths."""
    Xs, ys, w0, V, e_step = _lasso_setup(data, w0, K, T, epsilon, delta, vertices, variant)
    etas = fw_step_sizes(T, step_size)
    # the sensitivity once, not at every step (the value lasso_selection_log_prob would compute)
    delta_u = lasso_sensitivity(V, K, Xs.shape[0]) if sensitivity is None else sensitivity
    step = lambda t, W: lasso_selection_log_prob(W, Xs, ys, V, K, e_step, sensitivity=delta_u)  # noqa: E731
    paths, W, logp = _fw_enumerate(w0, etas, V, step)
    outputs, merged = _merge_outputs(W, logp)
    if return_paths:
        return outputs, merged, paths, logp
    return outputs, merged


# --------------------------------------------------------------------------- mechanism-protocol objects

class HeavyTailedDPFW:
    """Mechanism-protocol object for Algorithm 1 (``data`` = records ``[x, y]``).

    ``sample(data, size, rng)`` returns ``w^T`` rows; ``log_prob(data)`` the
    exact law of ``w^T`` (small ``|V|^T``); ``path_log_prob(data)`` the law of
    the selection path; ``step(t, w, data)`` the exact single-iteration selection
    mechanism (with ``score_terms``).
    """

    finite_output = True

    def __init__(self, *, epsilon, d, T, s, beta, loss="squared", w0=None, vertices=None,
                 variant="standard", step_size="theorem2", sensitivity=None, loss_params=None):
        self.epsilon = check_epsilon(epsilon)
        self.d = check_integer("d", d, minimum=1)
        self.T = check_integer("T", T, minimum=1)
        self.s, self.beta = check_positive("s", s), check_positive("beta", beta)
        self.loss = get_loss(loss, **(loss_params or {}))
        self.w0 = np.zeros(self.d) if w0 is None else check_finite_array("w0", w0, ndim=1, shape=(self.d,))
        self.vertices = l1_ball_vertices(self.d) if vertices is None else _check_vertices(vertices, self.d)
        self.variant, self.step_size, self.sensitivity = variant, step_size, sensitivity

    def _kw(self):
        return dict(vertices=self.vertices, variant=self.variant, step_size=self.step_size,
                    sensitivity=self.sensitivity)

    def sample(self, data, size, rng=None):
        return heavy_tailed_dp_fw(data, self.loss, self.w0, self.s, self.T, self.beta, self.epsilon,
                                  rng=rng, size=size, **self._kw())

    def log_prob(self, data):
        return dp_fw_output_log_prob(data, self.loss, self.w0, self.s, self.T, self.beta, self.epsilon,
                                     **self._kw())

    def path_log_prob(self, data):
        out = dp_fw_output_log_prob(data, self.loss, self.w0, self.s, self.T, self.beta, self.epsilon,
                                    return_paths=True, **self._kw())
        return out[2], out[3]

    def step(self, t, w, data):
        """The exponential mechanism of iteration ``t`` (1-based) at iterate ``w``, on its part of ``data``."""
        X, y = split_records(data, self.d)
        idx = data_split(X.shape[0], self.T)[check_integer("t", t, minimum=1, maximum=self.T) - 1]
        return DPFWStep(w, self, m=idx.size), idx


class DPFWStep:
    """One iteration of Algorithm 1 at a fixed iterate ``w`` (steps 4-6), with ``score_terms``.

    ``data`` passed to its methods is the part ``D_t`` alone (``m`` records).
    """

    finite_output = True

    def __init__(self, w, algo: HeavyTailedDPFW, m):
        self.w = check_finite_array("w", w, ndim=1, shape=(algo.d,))
        self.algo, self.m = algo, check_integer("m", m, minimum=1)
        self.delta_u = (dp_fw_sensitivity(algo.vertices, algo.s, self.m) if algo.sensitivity is None
                        else check_positive("sensitivity", algo.sensitivity))

    def score_terms(self, records):
        """Each record's additive contribution to the log-weight of each vertex, shape (m, |V|)."""
        X, y = split_records(records, self.algo.d)
        G = self.algo.loss.gradient(self.w, X, y)
        # Each record's own contribution s*E[phi(.)] to the robust mean, divided by m.
        per = robust_gradient_matrix(G.reshape(1, -1), self.algo.s, self.algo.beta,
                                     self.algo.variant).reshape(G.shape) / self.m
        return (0.5 * self.algo.epsilon / self.delta_u) * -(per @ self.algo.vertices.T)

    def log_prob_from_terms(self, total):
        return normalize_log_weights(total)

    def log_prob(self, data):
        X, y = split_records(data, self.algo.d)
        lp = dp_fw_selection_log_prob(self.w[None], X, y, self.algo.loss, self.algo.vertices, self.algo.s,
                                      self.algo.beta, self.algo.epsilon, variant=self.algo.variant,
                                      sensitivity=self.delta_u)[0]
        return np.arange(lp.size), lp

    def sample(self, data, size, rng=None):
        _, lp = self.log_prob(data)
        return gumbel_max_sample(lp, check_integer("size", size, minimum=0), rng)


class HeavyTailedPrivateLasso:
    """Mechanism-protocol object for Algorithm 2 (``data`` = records ``[x, y]``)."""

    finite_output = True

    def __init__(self, *, epsilon, delta, d, T, K, w0=None, vertices=None, variant="printed",
                 step_size="theorem2", sensitivity=None):
        self.epsilon, self.delta = check_epsilon(epsilon), check_delta(delta)
        self.d = check_integer("d", d, minimum=1)
        self.T = check_integer("T", T, minimum=1)
        self.K = check_positive("K", K)
        self.w0 = np.zeros(self.d) if w0 is None else check_finite_array("w0", w0, ndim=1, shape=(self.d,))
        self.vertices = l1_ball_vertices(self.d) if vertices is None else _check_vertices(vertices, self.d)
        if variant not in LASSO_VARIANTS:
            raise ValueError(f"variant must be one of {LASSO_VARIANTS}, got {variant!r}")
        self.variant, self.step_size, self.sensitivity = variant, step_size, sensitivity
        self.epsilon_step = lasso_epsilon_step(self.epsilon, self.delta, self.T, variant)

    def _kw(self):
        return dict(vertices=self.vertices, variant=self.variant, step_size=self.step_size,
                    sensitivity=self.sensitivity)

    def sample(self, data, size, rng=None):
        return heavy_tailed_private_lasso(data, self.w0, self.K, self.T, self.epsilon, self.delta, rng=rng,
                                          size=size, **self._kw())

    def log_prob(self, data):
        return private_lasso_output_log_prob(data, self.w0, self.K, self.T, self.epsilon, self.delta,
                                             **self._kw())

    def path_log_prob(self, data):
        out = private_lasso_output_log_prob(data, self.w0, self.K, self.T, self.epsilon, self.delta,
                                            return_paths=True, **self._kw())
        return out[2], out[3]

    def step(self, w, n):
        """The exponential mechanism of one iteration at iterate ``w`` for datasets of ``n`` records."""
        return PrivateLassoStep(w, self, n)


class PrivateLassoStep:
    """One iteration of Algorithm 2 at a fixed iterate ``w`` (step 4), with ``score_terms``."""

    finite_output = True

    def __init__(self, w, algo: HeavyTailedPrivateLasso, n):
        self.w = check_finite_array("w", w, ndim=1, shape=(algo.d,))
        self.algo, self.n = algo, check_integer("n", n, minimum=1)
        self.delta_u = (lasso_sensitivity(algo.vertices, algo.K, self.n) if algo.sensitivity is None
                        else check_positive("sensitivity", algo.sensitivity))

    def score_terms(self, records):
        sh = shrink_records(records, self.algo.K)
        Xs, ys = sh[:, :-1], sh[:, -1]
        per = (2.0 / self.n) * (Xs @ self.w - ys)[:, None] * Xs        # (m, d)
        return (0.5 * self.algo.epsilon_step / self.delta_u) * -(per @ self.algo.vertices.T)

    def log_prob_from_terms(self, total):
        return normalize_log_weights(total)

    def log_prob(self, data):
        sh = shrink_records(data, self.algo.K)
        lp = lasso_selection_log_prob(self.w[None], sh[:, :-1], sh[:, -1], self.algo.vertices, self.algo.K,
                                      self.algo.epsilon_step, sensitivity=self.delta_u, n=self.n)[0]
        return np.arange(lp.size), lp

    def sample(self, data, size, rng=None):
        _, lp = self.log_prob(data)
        return gumbel_max_sample(lp, check_integer("size", size, minimum=0), rng)

