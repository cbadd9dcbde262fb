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
from typing import cast

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..losses import Loss, get_loss
from ..mechanisms import exponential_log_prob, gumbel_max_sample, normalize_log_weights, record_call
from ..records import split_records
from ..validation import RNGLike, as_generator, check_epsilon, check_finite_array, check_integer, check_positive
from . import catoni
from ._fw_engine import _fw_enumerate, _fw_enumerate_batch, _fw_run, _merge_outputs, _merge_outputs_batch, fw_step_sizes
from ._fw_polytope import _check_vertices, l1_ball_vertices, polytope_l1_norm

__all__ = [
    "data_split",
    "dp_fw_sensitivity",
    "GRAD_CAP",
    "robust_gradient_matrix",
    "dp_fw_robust_gradients",
    "dp_fw_selection_log_prob",
    "heavy_tailed_dp_fw",
    "dp_fw_output_log_prob",
    "dp_fw_output_log_prob_batch",
    "HeavyTailedDPFW",
    "DPFWStep",
]


def data_split(n: int, T: int) -> list[NDArray[np.int64]]:
    """Algorithm 1 step 2 / Algorithm 3 step 3: ``T`` disjoint contiguous parts of ``range(n)``.

    Part sizes differ by at most one (``m = n/T`` when ``T`` divides ``n``).
    The split depends on ``n`` and ``T`` only, never on the data.  ``T > n``
    would leave a part empty and is an error.

    Parameters
    ----------
    n : int
        Number of records, ``>= 1``.
    T : int
        Number of parts, ``1 <= T <= n``.

    Returns
    -------
    list of numpy.ndarray of int64
        The ``T`` index ranges, in order.

    Raises
    ------
    TypeError
        If ``n`` or ``T`` is not an integer.
    ValueError
        If ``n < 1``, ``T < 1`` or ``T > n``.

    References
    ----------
    .. [1] [002 Alg. 1 step 2], [002 Alg. 3 step 3].

    Examples
    --------
    >>> [part.tolist() for part in data_split(5, 2)]
    [[0, 1], [2, 3, 4]]
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


def dp_fw_sensitivity(vertices: ArrayLike, s: float, m: int, reading: str = "radius") -> float:
    """Algorithm 1 step 6: ``Delta = 4 ||W||_1 sqrt(2) s / (3 m)``.

    ``reading`` chooses ``||W||_1`` (:data:`NORM_READINGS`): ``"diameter"`` as [002 Sec. 3] defines it
    (the printed Delta), ``"radius"`` (``max_v ||v||_1``, the implementation's default: half the printed
    Delta on the l1 ball, the smaller noise, so a privacy check of it is the stricter one).

    Parameters
    ----------
    vertices : array_like, shape (k, d)
        The vertex set ``V``, finite.
    s : float
        Scale of the robust estimator, finite and > 0.
    m : int
        Records in the part, ``>= 1``.
    reading : {"radius", "diameter"}, default "radius"
        The reading of ``||W||_1``.

    Returns
    -------
    float
        The sensitivity ``Delta`` of the score ``-<v, g~>``.

    Raises
    ------
    TypeError
        If ``vertices`` is not an array of real numbers, ``s`` not a real number or ``m`` not an integer.
    ValueError
        If ``vertices`` is not a non-empty finite 2-D array, ``s`` not finite and positive, ``m < 1``, or
        ``reading`` unknown.

    References
    ----------
    .. [1] [002 Alg. 1 step 6], [002 Thm. 1], [002 Sec. 3 (Notations)].

    Examples
    --------
    >>> V = l1_ball_vertices(2)
    >>> round(dp_fw_sensitivity(V, s=3.0, m=4), 6), round(dp_fw_sensitivity(V, 3.0, 4, "diameter"), 6)
    (1.414214, 2.828427)
    """
    s = check_positive("s", s)
    m = check_integer("m", m, minimum=1)
    return 4.0 * polytope_l1_norm(vertices, reading) * math.sqrt(2.0) * s / (3.0 * m)


#: Per-example gradient entries are evaluated at most at ``GRAD_CAP * s * min(1, sqrt(beta))`` in absolute value.
GRAD_CAP = 1e300


def robust_gradient_matrix(G: ArrayLike, s: float, beta: float, variant: str = "standard") -> NDArray[np.float64]:
    """Algorithm 1 step 4 on a matrix of per-example gradients ``G`` (m, q): the robust estimate of each column.

    The estimator sees a per-example gradient ``g`` only through ``(g/s, |g|/(s sqrt(beta)))``.
    Entries with ``|g| > 1e300 * s * min(1, sqrt(beta))`` (and overflowed ``+-inf``) are
    evaluated at that magnitude, so both arguments stay finite and <= 1e300 (the range on which
    :func:`reference.hu.catoni.expected_phi` is specified); the per-sample contribution is then
    within ~1e-300 of its limit, and every contribution stays inside the bound the privacy proof uses.

    Parameters
    ----------
    G : array_like, shape (m, q)
        Per-example gradients, one row per record; ``+-inf`` allowed, NaN not.
    s : float
        Scale of the estimator, finite and > 0.
    beta : float
        Inverse noise variance, finite and > 0.
    variant : {"standard", "printed"}, default "standard"
        As in :func:`reference.hu.catoni.robust_gradient`.

    Returns
    -------
    numpy.ndarray of float64, shape (q,)
        The robust estimate of each column.

    Raises
    ------
    TypeError
        If ``s`` or ``beta`` is not a real number.
    ValueError
        If ``G`` contains NaN or is not 2-D, ``s`` or ``beta`` is not finite and positive, ``variant`` is
        unknown, or the estimator returns a non-finite value.

    References
    ----------
    .. [1] [002 Alg. 1 step 4], [002 eq. (2)] to [002 eq. (5)].

    Examples
    --------
    >>> robust_gradient_matrix([[0.1, np.inf], [0.3, 1.0]], s=5.0, beta=1.0).round(2)
    array([0.2, 2.1])
    """
    G = np.asarray(G, dtype=np.float64)
    if np.isnan(G).any():  # the method: np.any's wrapper costs more than the test (called per law step)
        raise ValueError("per-example gradients contain NaN")
    s = check_positive("s", s)
    beta = check_positive("beta", beta)
    cap = GRAD_CAP * s * min(1.0, math.sqrt(beta))
    G = np.where(np.abs(G) > cap, np.sign(G) * cap, G)
    g = np.asarray(catoni.robust_gradient(G, s, beta, variant=variant), dtype=np.float64)
    if not np.isfinite(g).all():
        raise ValueError(f"robust_gradient (variant {variant!r}) returned non-finite values")
    return g


def dp_fw_robust_gradients(
    W: ArrayLike, X: ArrayLike, y: ArrayLike, loss: Loss | str, s: float, beta: float, variant: str = "standard"
) -> NDArray[np.float64]:
    """Algorithm 1 steps 4-5 at several points: the robust gradients ``g~(w, D_t)`` for each row of ``W``.

    Per-example gradients ``grad l(w, x_i)`` (P, m, d) go through
    :func:`robust_gradient_matrix`, which works coordinate by coordinate, so all
    P points are estimated in one call on an (m, P*d) array.

    Parameters
    ----------
    W : array_like, shape (P, d) or (d,)
        The points.
    X : array_like, shape (m, d)
        Features of the part ``D_t``.
    y : array_like, shape (m,)
        Labels of the part.
    loss : str or Loss
        The loss (:func:`reference.losses.get_loss`).
    s : float
        Scale of the estimator, finite and > 0.
    beta : float
        Inverse noise variance, finite and > 0.
    variant : {"standard", "printed"}, default "standard"
        As in :func:`reference.hu.catoni.robust_gradient`.

    Returns
    -------
    numpy.ndarray of float64, shape (P, d)
        The robust gradient at each point.

    Raises
    ------
    TypeError
        If an array is not an array of real numbers, or ``s`` or ``beta`` not a real number.
    ValueError
        If the arrays are empty, not finite or of mismatched shapes, ``loss`` is unknown, ``s`` or ``beta`` is
        not finite and positive, ``variant`` unknown, or the estimate is not finite.

    References
    ----------
    .. [1] [002 Alg. 1 steps 4-5].

    Examples
    --------
    >>> X = np.array([[1.0, 0.0], [0.0, 1.0]]); y = np.array([1.0, -1.0])
    >>> dp_fw_robust_gradients(np.zeros((3, 2)), X, y, "squared", s=5.0, beta=1.0).shape
    (3, 2)
    """
    W = np.atleast_2d(W)
    G = get_loss(loss).gradient_batch(W, X, y)  # (P, m, d)
    P, m, d = G.shape
    return robust_gradient_matrix(G.transpose(1, 0, 2).reshape(m, P * d), s, beta, variant).reshape(P, d)


def dp_fw_selection_log_prob(
    W: ArrayLike,
    X: ArrayLike,
    y: ArrayLike,
    loss: Loss | str,
    vertices: ArrayLike,
    s: float,
    beta: float,
    epsilon: float,
    *,
    variant: str = "standard",
    sensitivity: float | None = None,
) -> NDArray[np.float64]:
    """Exact law of the vertex selected at [002 Alg. 1 step 6] for each current iterate (row of ``W``).

    Scores ``u(D_t, v) = -<v, g~(w, D_t)>``; the exponential mechanism of
    [002 Def. 3], ``exp(eps u / (2 Delta))`` (weight factor 1/2 of
    :func:`reference.mechanisms.exponential_log_prob`), ``Delta`` from
    :func:`dp_fw_sensitivity` (or ``sensitivity`` when given, for audits of
    miscalibrated variants).

    Parameters
    ----------
    W : array_like, shape (P, d) or (d,)
        The current iterates.
    X : numpy.ndarray, shape (m, d)
        Features of the part ``D_t``.
    y : array_like, shape (m,)
        Labels of the part.
    loss : str or Loss
        The loss.
    vertices : array_like, shape (k, d)
        The vertex set ``V``.
    s : float
        Scale of the estimator, finite and > 0.
    beta : float
        Inverse noise variance, finite and > 0.
    epsilon : float
        Privacy budget of the step, finite and > 0.
    variant : {"standard", "printed"}, default "standard"
        As in :func:`reference.hu.catoni.robust_gradient`.
    sensitivity : float or None, default None
        Override of ``Delta``.

    Returns
    -------
    numpy.ndarray of float64, shape (P, k)
        ``log P[vertex j]`` for each iterate.

    Raises
    ------
    TypeError
        If an array is not an array of real numbers or a parameter not a real number.
    ValueError
        If an array is empty, not finite or of mismatched shape, a parameter is not finite and positive,
        ``loss`` or ``variant`` is unknown, or the robust gradient is not finite.

    References
    ----------
    .. [1] [002 Alg. 1 step 6], [002 Def. 3].

    Examples
    --------
    >>> X = np.array([[1.0, 0.0], [0.0, 1.0]]); y = np.array([1.0, -1.0])
    >>> logp = dp_fw_selection_log_prob(np.zeros(2), X, y, "squared", l1_ball_vertices(2), 5.0, 1.0, 1.0)
    >>> logp.shape, round(float(np.exp(logp).sum()), 9)
    ((1, 4), 1.0)
    """
    V = _check_vertices(vertices)
    g = dp_fw_robust_gradients(W, X, y, loss, s, beta, variant)
    delta_u = (
        dp_fw_sensitivity(V, s, np.shape(X)[0]) if sensitivity is None else check_positive("sensitivity", sensitivity)
    )
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
        return dp_fw_selection_log_prob(
            W, X[idx], y[idx], loss, V, s, beta, epsilon, variant=variant, sensitivity=sensitivity
        )

    return step_logp


def _dp_fw_declare(X, y, parts, loss, V, s, beta, epsilon, variant, sensitivity, batched):
    """The event of the selection at [002 Alg. 1 step 6], as the algorithm declares it (recorder active only)."""

    def declare(t, W):
        idx = parts[t - 1]
        delta_u = (
            dp_fw_sensitivity(V, s, idx.size) if sensitivity is None else check_positive("sensitivity", sensitivity)
        )
        public = {"t": t, "k": V.shape[0], "m": idx.size, "weight": 0.5 * epsilon / delta_u}
        if batched:
            public["batch"] = (W.shape[0],)
        return {
            "data": -(dp_fw_robust_gradients(W, X[idx], y[idx], loss, s, beta, variant) @ V.T),
            "sensitivity": delta_u,
            "norm": "linf",
            "privacy": {"epsilon": epsilon},
            "public": public,
            "site": "[002 Alg. 1 step 6]",
        }

    return declare


def heavy_tailed_dp_fw(
    data: ArrayLike,
    loss: Loss | str,
    w0: ArrayLike,
    s: float,
    T: int,
    beta: float,
    epsilon: float,
    vertices: ArrayLike | None = None,
    rng: RNGLike = None,
    *,
    variant: str = "standard",
    step_size: str | ArrayLike = "theorem2",
    sensitivity: float | None = None,
    size: int | None = None,
    return_path: bool = False,
) -> NDArray[np.float64] | tuple[NDArray[np.float64], NDArray[np.int64]]:
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

    Raises
    ------
    TypeError
        If an array is not an array of real numbers, a parameter not a real number, ``T`` or ``size`` not an
        integer, or ``rng`` not a generator or seed.
    ValueError
        If the records are not a finite 2-D array of at least 2 columns, ``w0`` or ``vertices`` does not have ``d``
        entries (columns) or is not finite, ``s``, ``beta``, ``epsilon`` (or ``sensitivity``) is not finite and
        positive, ``T`` is not in ``[1, n]``, ``size < 1``, ``loss`` is unknown, ``step_size`` invalid, or the
        robust gradient is not finite (``variant="printed"``).

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

    References
    ----------
    .. [1] [002 Alg. 1], [002 Thm. 1], [002 eq. (2)] to [002 eq. (5)], [002 Def. 3].

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
    declare = _dp_fw_declare(X, y, parts, loss, V, s, beta, epsilon, variant, sensitivity, size is not None)
    W, path = _fw_run(w0, etas, V, step, runs, gen, declare)
    if size is None:
        W, path = W[0], path[0]
    return (W, path) if return_path else W


def dp_fw_output_log_prob_batch(
    datasets: ArrayLike,
    loss: Loss | str,
    w0: ArrayLike,
    s: float,
    T: int,
    beta: float,
    epsilon: float,
    vertices: ArrayLike | None = None,
    *,
    variant: str = "standard",
    step_size: str | ArrayLike = "theorem2",
    sensitivity: float | None = None,
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Exact laws of the output of Algorithm 1 on B datasets of equal shape (e.g. a dataset and its neighbours).

    All datasets share the enumerated outputs; the robust gradients of every
    dataset at every prefix iterate are computed in one call per iteration.

    Parameters
    ----------
    datasets : array_like, shape (B, n, d + 1)
        The datasets, finite.
    loss : str or Loss
        ``"squared"``, ``"biweight"``, ``"logistic"``, ``"logistic_l2"`` or a :class:`~reference.losses.Loss`.
    w0 : array_like, shape (d,)
        Initial point.
    s : float
        Scale of the robust estimator, > 0.
    T : int
        Iterations, ``1 <= T <= n``.
    beta : float
        Smoothing parameter (noise ``N(0, 1/beta)``), > 0.
    epsilon : float
        Privacy budget, > 0.
    vertices : array_like of shape (k, d) or None, default None
        Vertex set ``V``; the unit l1 ball (:func:`l1_ball_vertices`) by default.
    variant : {"standard", "printed"}, default "standard"
        Robust-gradient variant (:func:`reference.hu.catoni.robust_gradient`).
    step_size : {"theorem2", "section6"} or array_like, default "theorem2"
        See :func:`fw_step_sizes`.
    sensitivity : float or None, default None
        Override of the step-6 sensitivity (for audits only).

    Returns
    -------
    outputs : numpy.ndarray of float64, shape (M, d)
        The distinct values of ``w^T``.
    log_prob : numpy.ndarray of float64, shape (B, M)
        Their log-probabilities under each dataset.

    Raises
    ------
    TypeError
        If an array is not an array of real numbers, a parameter not a real number, or ``T`` not an
        integer.
    ValueError
        If the records are not a finite 2-D array of at least 2 columns, ``w0`` or ``vertices`` does not have
        ``d`` entries (columns) or is not finite, ``s``, ``beta``, ``epsilon`` (or ``sensitivity``) is not
        finite and positive, ``T`` is not in ``[1, n]``, ``loss`` is unknown, ``step_size`` invalid, or the
        robust gradient is not finite (``variant="printed"``).

    References
    ----------
    .. [1] [002 Alg. 1], [002 Thm. 1].

    Examples
    --------
    >>> data = np.array([[1.0, 0.0, 1.0], [0.0, 1.0, -1.0], [1.0, 1.0, 0.5], [0.5, -1.0, 2.0]])
    >>> outputs, logp = dp_fw_output_log_prob_batch(np.stack([data, data[::-1]]), "squared", np.zeros(2),
    ...                                             s=5.0, T=2, beta=1.0, epsilon=1.0)
    >>> logp.shape[0], outputs.shape[1], np.exp(logp).sum(axis=1).round(9).tolist()
    (2, 2, [1.0, 1.0])
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


def dp_fw_output_log_prob(
    data: ArrayLike,
    loss: Loss | str,
    w0: ArrayLike,
    s: float,
    T: int,
    beta: float,
    epsilon: float,
    vertices: ArrayLike | None = None,
    *,
    variant: str = "standard",
    step_size: str | ArrayLike = "theorem2",
    sensitivity: float | None = None,
    return_paths: bool = False,
) -> tuple[NDArray[np.float64], ...]:
    """Exact law of the output ``w^T`` of Algorithm 1 by enumerating the ``|V|^T`` selection paths.

    Parameters
    ----------
    data : array_like, shape (n, d + 1)
        Records ``[x, y]``, finite.
    loss : str or Loss
        ``"squared"``, ``"biweight"``, ``"logistic"``, ``"logistic_l2"`` or a :class:`~reference.losses.Loss`.
    w0 : array_like, shape (d,)
        Initial point.
    s : float
        Scale of the robust estimator, > 0.
    T : int
        Iterations, ``1 <= T <= n``.
    beta : float
        Smoothing parameter (noise ``N(0, 1/beta)``), > 0.
    epsilon : float
        Privacy budget, > 0.
    vertices : array_like of shape (k, d) or None, default None
        Vertex set ``V``; the unit l1 ball (:func:`l1_ball_vertices`) by default.
    variant : {"standard", "printed"}, default "standard"
        Robust-gradient variant (:func:`reference.hu.catoni.robust_gradient`).
    step_size : {"theorem2", "section6"} or array_like, default "theorem2"
        See :func:`fw_step_sizes`.
    sensitivity : float or None, default None
        Override of the step-6 sensitivity (for audits only).
    return_paths : bool, default False
        Also return every selection path and its log-probability.

    Returns
    -------
    outputs : numpy.ndarray of float64, shape (M, d)
        The distinct values of ``w^T`` (as the sampler computes them).
    log_prob : numpy.ndarray of float64, shape (M,)
        Their log-probabilities.
    paths, path_log_prob : numpy.ndarray
        Only with ``return_paths``: every selection path (|V|^T, T) and its log-probability.

    Raises
    ------
    TypeError
        If an array is not an array of real numbers, a parameter not a real number, or ``T`` not an
        integer.
    ValueError
        If the records are not a finite 2-D array of at least 2 columns, ``w0`` or ``vertices`` does not have
        ``d`` entries (columns) or is not finite, ``s``, ``beta``, ``epsilon`` (or ``sensitivity``) is not
        finite and positive, ``T`` is not in ``[1, n]``, ``loss`` is unknown, ``step_size`` invalid, or the
        robust gradient is not finite (``variant="printed"``).

    References
    ----------
    .. [1] [002 Alg. 1], [002 Thm. 1].

    Examples
    --------
    >>> data = np.array([[1.0, 0.0, 1.0], [0.0, 1.0, -1.0], [1.0, 1.0, 0.5], [0.5, -1.0, 2.0]])
    >>> outputs, logp = dp_fw_output_log_prob(data, "squared", np.zeros(2), s=5.0, T=2, beta=1.0, epsilon=1.0)
    >>> outputs.shape[1], round(float(np.exp(logp).sum()), 9)
    (2, 1.0)
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
    """[002 Alg. 1] in the mechanism protocol (``data`` = records ``[x, y]``).

    ``sample(data, size, rng)`` returns ``w^T`` rows; ``log_prob(data)`` the
    exact law of ``w^T`` (small ``|V|^T``); ``path_log_prob(data)`` the law of
    the selection path; ``step(t, w, data)`` the exact single-iteration selection
    mechanism (a :class:`DPFWStep`, with ``score_terms``) and the indices of its part.

    Parameters
    ----------
    epsilon : float
        Privacy budget, finite and > 0.
    d : int
        Dimension, ``>= 1``.
    T : int
        Iterations, ``>= 1``.
    s : float
        Scale of the robust estimator, finite and > 0.
    beta : float
        Inverse noise variance, finite and > 0.
    loss : str or Loss, default "squared"
        The loss (:func:`reference.losses.get_loss`).
    w0 : array_like of shape (d,) or None, default None
        Initial point; 0 by default.
    vertices : array_like of shape (k, d) or None, default None
        Vertex set; the unit l1 ball by default.
    variant : {"standard", "printed"}, default "standard"
        Robust-gradient variant.
    step_size : {"theorem2", "section6"} or array_like, default "theorem2"
        See :func:`fw_step_sizes`.
    sensitivity : float or None, default None
        Override of the step-6 sensitivity (audits only).
    loss_params : dict or None, default None
        Constructor arguments of a named loss.

    Raises
    ------
    TypeError
        If a parameter is not a real number, ``d`` or ``T`` not an integer, or an array not an array of real
        numbers.
    ValueError
        If ``epsilon``, ``s`` or ``beta`` is not finite and positive, ``d`` or ``T`` below 1, ``loss`` unknown,
        or ``w0`` or ``vertices`` not finite with ``d`` entries (columns); from the methods, as
        :func:`heavy_tailed_dp_fw`.

    References
    ----------
    .. [1] [002 Alg. 1], [002 Thm. 1].

    Examples
    --------
    >>> algo = HeavyTailedDPFW(epsilon=1.0, d=2, T=2, s=5.0, beta=1.0)
    >>> data = np.array([[1.0, 0.0, 1.0], [0.0, 1.0, -1.0], [1.0, 1.0, 0.5], [0.5, -1.0, 2.0]])
    >>> algo.sample(data, 3, rng=0).shape, round(float(np.exp(algo.log_prob(data)[1]).sum()), 9)
    ((3, 2), 1.0)
    """

    finite_output = True

    def __init__(
        self,
        *,
        epsilon: float,
        d: int,
        T: int,
        s: float,
        beta: float,
        loss: Loss | str = "squared",
        w0: ArrayLike | None = None,
        vertices: ArrayLike | None = None,
        variant: str = "standard",
        step_size: str | ArrayLike = "theorem2",
        sensitivity: float | None = None,
        loss_params: dict[str, float] | None = None,
    ) -> None:
        self.epsilon = check_epsilon(epsilon)
        self.d = check_integer("d", d, minimum=1)
        self.T = check_integer("T", T, minimum=1)
        self.s, self.beta = check_positive("s", s), check_positive("beta", beta)
        self.loss = get_loss(loss, **(loss_params or {}))
        self.w0 = np.zeros(self.d) if w0 is None else check_finite_array("w0", w0, ndim=1, shape=(self.d,))
        self.vertices = l1_ball_vertices(self.d) if vertices is None else _check_vertices(vertices, self.d)
        self.variant, self.step_size, self.sensitivity = variant, step_size, sensitivity

    def _kw(self):
        return dict(
            vertices=self.vertices, variant=self.variant, step_size=self.step_size, sensitivity=self.sensitivity
        )

    def sample(self, data: ArrayLike, size: int | None, rng: RNGLike = None) -> NDArray[np.float64]:
        # without return_path the output alone, not the (output, path) pair
        return cast(
            NDArray[np.float64],
            heavy_tailed_dp_fw(
                data, self.loss, self.w0, self.s, self.T, self.beta, self.epsilon, rng=rng, size=size, **self._kw()
            ),
        )

    def log_prob(self, data: ArrayLike) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        out = dp_fw_output_log_prob(data, self.loss, self.w0, self.s, self.T, self.beta, self.epsilon, **self._kw())
        return out[0], out[1]

    def path_log_prob(self, data: ArrayLike) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
        out = dp_fw_output_log_prob(
            data, self.loss, self.w0, self.s, self.T, self.beta, self.epsilon, return_paths=True, **self._kw()
        )
        return cast(NDArray[np.int64], out[2]), out[3]  # with return_paths the third array is the int64 paths

    def step(self, t: int, w: ArrayLike, data: ArrayLike) -> tuple[DPFWStep, NDArray[np.int64]]:
        """The exponential mechanism of iteration ``t`` (1-based) at iterate ``w``, on its part of ``data``."""
        X, y = split_records(data, self.d)
        idx = data_split(X.shape[0], self.T)[check_integer("t", t, minimum=1, maximum=self.T) - 1]
        return DPFWStep(w, self, m=idx.size), idx


class DPFWStep:
    """One iteration of Algorithm 1 at a fixed iterate ``w`` (steps 4-6), with ``score_terms``.

    ``data`` passed to its methods is the part ``D_t`` alone (``m`` records): ``log_prob(data)`` gives
    ``(vertex indices, log-probabilities)``, ``sample(data, size, rng)`` selected vertex indices,
    ``score_terms(records)`` each record's additive contribution to each vertex's log-weight, and
    ``log_prob_from_terms(total)`` the law from summed terms.

    Parameters
    ----------
    w : array_like, shape (d,)
        The iterate ``w^{t-1}``, finite.
    algo : HeavyTailedDPFW
        The algorithm (loss, vertices, ``s``, ``beta``, ``epsilon``, variant).
    m : int
        Records in the part, ``>= 1``.

    Raises
    ------
    TypeError
        If ``w`` is not an array of real numbers or ``m`` not an integer.
    ValueError
        If ``w`` is not finite of shape (d,), ``m < 1``, or the algorithm's sensitivity override is not finite
        and positive.

    References
    ----------
    .. [1] [002 Alg. 1 steps 4-6], [002 Def. 3].

    Examples
    --------
    >>> algo = HeavyTailedDPFW(epsilon=1.0, d=2, T=2, s=5.0, beta=1.0)
    >>> data = np.array([[1.0, 0.0, 1.0], [0.0, 1.0, -1.0], [1.0, 1.0, 0.5], [0.5, -1.0, 2.0]])
    >>> step, part = algo.step(1, np.zeros(2), data)
    >>> part.tolist(), step.score_terms(data[part]).shape, step.log_prob(data[part])[1].shape
    ([0, 1], (2, 4), (4,))
    """

    finite_output = True

    def __init__(self, w: ArrayLike, algo: HeavyTailedDPFW, m: int) -> None:
        self.w = check_finite_array("w", w, ndim=1, shape=(algo.d,))
        self.algo, self.m = algo, check_integer("m", m, minimum=1)
        self.delta_u = (
            dp_fw_sensitivity(algo.vertices, algo.s, self.m)
            if algo.sensitivity is None
            else check_positive("sensitivity", algo.sensitivity)
        )

    def score_terms(self, records: ArrayLike) -> NDArray[np.float64]:
        """Each record's additive contribution to the log-weight of each vertex, shape (m, |V|)."""
        X, y = split_records(records, self.algo.d)
        G = self.algo.loss.gradient(self.w, X, y)
        # Each record's own contribution s*E[phi(.)] to the robust mean, divided by m.
        per = (
            robust_gradient_matrix(G.reshape(1, -1), self.algo.s, self.algo.beta, self.algo.variant).reshape(G.shape)
            / self.m
        )
        return (0.5 * self.algo.epsilon / self.delta_u) * -(per @ self.algo.vertices.T)

    def log_prob_from_terms(self, total: ArrayLike) -> NDArray[np.float64]:
        return normalize_log_weights(total)

    def log_prob(self, data: ArrayLike) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
        X, y = split_records(data, self.algo.d)
        lp = dp_fw_selection_log_prob(
            self.w[None],
            X,
            y,
            self.algo.loss,
            self.algo.vertices,
            self.algo.s,
            self.algo.beta,
            self.algo.epsilon,
            variant=self.algo.variant,
            sensitivity=self.delta_u,
        )[0]
        return np.arange(lp.size), lp

    def sample(self, data: ArrayLike, size: int, rng: RNGLike = None) -> NDArray[np.int64]:
        _, lp = self.log_prob(data)
        size = check_integer("size", size, minimum=0)
        return record_call(
            "categorical",
            data=lambda: self._scores(data),
            sensitivity=self.delta_u,
            norm="linf",
            privacy={"epsilon": self.algo.epsilon},
            law={"log_weights": lp},
            public={"k": lp.size, "m": self.m, "weight": 0.5 * self.algo.epsilon / self.delta_u, "batch": (size,)},
            sample=lambda: gumbel_max_sample(lp, size, rng),
            site="[002 Alg. 1 step 6]",
        )

    def _scores(self, data):
        X, y = split_records(data, self.algo.d)
        a = self.algo
        return -(dp_fw_robust_gradients(self.w[None], X, y, a.loss, a.s, a.beta, a.variant) @ a.vertices.T)[0]
