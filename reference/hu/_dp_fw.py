"""Algorithm 1 of 002 (Heavy-tailed DP-FW): the steps, the sampler, the exact output law, the protocol objects.

Algorithm 1 selects, at each of ``T`` iterations, a vertex of the polytope ``W = conv(V)`` by the
exponential mechanism, scoring each vertex with the coordinate-wise robust (smoothed Catoni) gradient of
a fresh, disjoint part of the data.  Its output is a deterministic function of the selected vertices, so
:func:`dp_fw_output_log_prob` enumerates the ``|V|^T`` selection paths (:mod:`reference.hu._fw_engine`)
and returns the exact law of ``w^T`` for small instances.  A dataset is a 2-D array of records
``[x_1, ..., x_d, y]``.

References
----------
.. [1] L. Hu, S. Ni, H. Xiao and D. Wang, ``002_6c597657f27a60c9.txt``: Algorithm 1, Theorem 1 and its proof;
       [002 Def. 3] (exponential mechanism); [002 eq. (2)]-[002 eq. (5)] (the robust gradient).
"""

from __future__ import annotations

import math

import numpy as np

from . import catoni
from ._fw_engine import (_fw_enumerate, _fw_enumerate_batch, _fw_run, _merge_outputs, _merge_outputs_batch,
                         fw_step_sizes)
from ._fw_polytope import _check_vertices, l1_ball_vertices, polytope_l1_norm
from ..losses import get_loss
from ..mechanisms import exponential_log_prob, gumbel_max_sample, normalize_log_weights
from ..records import split_records
from ..validation import as_generator, check_epsilon, check_finite_array, check_integer, check_positive

__all__ = ["data_split", "dp_fw_sensitivity", "GRAD_CAP", "robust_gradient_matrix", "dp_fw_robust_gradients",
           "dp_fw_selection_log_prob", "heavy_tailed_dp_fw", "dp_fw_output_log_prob", "dp_fw_output_log_prob_batch",
           "HeavyTailedDPFW", "DPFWStep"]


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
