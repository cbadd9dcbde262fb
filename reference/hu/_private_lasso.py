"""Algorithm 2 of 002 (Heavy-tailed private LASSO): the steps, the sampler, the exact output law, the protocol
objects.

Algorithm 2 shrinks every entry of every record at ``K`` and runs the exponential-mechanism Frank-Wolfe of
Talwar, Thakurta and Zhang on the whole shrunken data, with a per-iteration budget from advanced
composition (:func:`lasso_epsilon_step`, three readings in :data:`LASSO_VARIANTS`).  Its output is a
deterministic function of the selected vertices, so :func:`private_lasso_output_log_prob` enumerates the
``|V|^T`` selection paths (:mod:`reference.hu._fw_engine`) and returns the exact law of ``w^T``.

References
----------
.. [1] L. Hu, S. Ni, H. Xiao and D. Wang, ``002_6c597657f27a60c9.txt``: Algorithm 2, Theorem 4 and
       its proof; Lemma 2.
.. [2] K. Talwar, A. Thakurta and L. Zhang, "Nearly optimal private LASSO", NeurIPS 2015
       (ref. [50] of 002).
.. [3] C. Dwork and A. Roth, "The algorithmic foundations of differential privacy", Thm. 3.20
       (advanced composition).
"""

from __future__ import annotations

import functools
import math
from typing import cast

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..mechanisms import (
    advanced_composition_split,
    exponential_log_prob,
    gumbel_max_sample,
    normalize_log_weights,
    record_call,
)
from ..records import split_records
from ..validation import (
    RNGLike,
    as_generator,
    check_delta,
    check_epsilon,
    check_finite_array,
    check_integer,
    check_positive,
)
from ._fw_engine import _fw_enumerate, _fw_enumerate_batch, _fw_run, _merge_outputs, _merge_outputs_batch, fw_step_sizes
from ._fw_polytope import _check_vertices, l1_ball_vertices, polytope_l1_norm

__all__ = [
    "LASSO_VARIANTS",
    "shrink_records",
    "lasso_epsilon_step",
    "lasso_sensitivity",
    "lasso_gradients",
    "lasso_selection_log_prob",
    "heavy_tailed_private_lasso",
    "private_lasso_output_log_prob",
    "private_lasso_output_log_prob_batch",
    "HeavyTailedPrivateLasso",
    "PrivateLassoStep",
]

LASSO_VARIANTS = ("printed", "lemma2", "standard")


def shrink_records(data: ArrayLike, K: float) -> NDArray[np.float64]:
    """Algorithm 2 step 2 / Algorithm 3 step 2: ``sign(z) min(|z|, K)`` for every entry of every record.

    Parameters
    ----------
    data : array_like, shape (n, d + 1)
        Records ``[x, y]``, finite.
    K : float
        Shrinkage threshold, finite and > 0.

    Returns
    -------
    numpy.ndarray of float64, shape (n, d + 1)
        The shrunken records.

    Raises
    ------
    TypeError
        If ``data`` is not an array of real numbers or ``K`` not a real number.
    ValueError
        If ``data`` is not a non-empty finite 2-D array, or ``K`` not finite and positive.

    References
    ----------
    .. [1] [002 Alg. 2 step 2], [002 Alg. 3 step 2].

    Examples
    --------
    >>> shrink_records([[5.0, -0.5, -3.0]], K=2.0)
    array([[ 2. , -0.5, -2. ]])
    """
    arr = check_finite_array("data", data, ndim=2)
    K = check_positive("K", K)
    return np.clip(arr, -K, K)


def lasso_epsilon_step(epsilon: float, delta: float, T: int, variant: str = "printed") -> float:
    """Per-iteration budget of Algorithm 2 step 4.

    ``"printed"``: ``eps / (2 sqrt(2 T log(1/delta)))`` as in the box of Algorithm 2;
    ``"lemma2"``: ``eps / (2 sqrt(2 T ln(2/delta)))`` as Lemma 2 (cited by the proof of Theorem 4) prints;
    ``"standard"``: the largest pure per-step budget whose T-fold advanced composition
    (Dwork-Roth Thm 3.20, slack ``delta/2``) is exactly ``eps``
    (:func:`reference.mechanisms.advanced_composition_split`, ``"standard"``).

    Parameters
    ----------
    epsilon : float
        Target privacy, finite and > 0.
    delta : float
        Target privacy, in (0, 1).
    T : int
        Iterations, ``>= 1``.
    variant : {"printed", "lemma2", "standard"}, default "printed"
        Which budget.

    Returns
    -------
    float
        The per-iteration epsilon.

    Raises
    ------
    TypeError
        If ``epsilon`` or ``delta`` is not a real number or ``T`` not an integer.
    ValueError
        If ``epsilon`` is not finite and positive, ``delta`` not in (0, 1), ``T < 1``, or ``variant`` unknown.

    References
    ----------
    .. [1] [002 Alg. 2 step 4], [002 Lemma 2], [002 Thm. 4].

    Examples
    --------
    >>> round(lasso_epsilon_step(1.0, 1e-5, 10), 6), round(lasso_epsilon_step(1.0, 1e-5, 10, "lemma2"), 6)
    (0.032951, 0.032001)
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


def lasso_sensitivity(vertices: ArrayLike, K: float, n: int, reading: str = "radius") -> float:
    """Algorithm 2 step 4: ``Delta = 8 ||W||_1 K^2 / n``; ``reading`` as in :func:`dp_fw_sensitivity`.

    Parameters
    ----------
    vertices : array_like, shape (k, d)
        The vertex set, finite.
    K : float
        Shrinkage threshold, finite and > 0.
    n : int
        Number of records, ``>= 1``.
    reading : {"radius", "diameter"}, default "radius"
        The reading of ``||W||_1``.

    Returns
    -------
    float
        The sensitivity of the score.

    Raises
    ------
    TypeError
        If ``vertices`` is not an array of real numbers, ``K`` not a real number or ``n`` not an integer.
    ValueError
        If ``vertices`` is not a non-empty finite 2-D array, ``K`` not finite and positive, ``n < 1``,
        ``reading`` unknown, or the value overflows float64 or underflows to 0.

    References
    ----------
    .. [1] [002 Alg. 2 step 4], [002 Thm. 4].

    Examples
    --------
    >>> lasso_sensitivity(l1_ball_vertices(3), K=2.0, n=100)
    0.32
    """
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


def lasso_gradients(
    W: ArrayLike, Xs: NDArray[np.float64], ys: NDArray[np.float64], n: int | None = None
) -> NDArray[np.float64]:
    """Algorithm 2 step 4: ``g~(w, D~) = (2/n) sum_i x~_i (<x~_i, w> - y~_i)`` for each row of ``W``.

    Not validated (the callers have validated and shrunk the records).

    Parameters
    ----------
    W : array_like, shape (P, d) or (d,)
        The points.
    Xs : numpy.ndarray, shape (n, d)
        Shrunken features.
    ys : numpy.ndarray, shape (n,)
        Shrunken labels.
    n : int or None, default None
        The ``n`` of the formula; the number of records by default.

    Returns
    -------
    numpy.ndarray of float64, shape (P, d)
        The gradients.

    References
    ----------
    .. [1] [002 Alg. 2 step 4].

    Examples
    --------
    >>> lasso_gradients(np.zeros(2), np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([1.0, -1.0]))
    array([[-1.,  1.]])
    """
    W = np.atleast_2d(W)
    n = Xs.shape[0] if n is None else n
    r = W @ Xs.T - ys[None, :]  # (P, n)
    return (2.0 / n) * (r @ Xs)


def lasso_selection_log_prob(
    W: ArrayLike,
    Xs: NDArray[np.float64],
    ys: NDArray[np.float64],
    vertices: ArrayLike,
    K: float,
    epsilon_step: float,
    *,
    sensitivity: float | None = None,
    n: int | None = None,
) -> NDArray[np.float64]:
    """Exact law of the vertex selected at [002 Alg. 2 step 4], for each current iterate (row of ``W``).

    The exponential mechanism of [002 Def. 3] (``exp(eps' u / (2 Delta))``) on the scores
    ``-<v, g~(w, D~)>`` of :func:`lasso_gradients`.

    Parameters
    ----------
    W : array_like, shape (P, d) or (d,)
        The current iterates.
    Xs : numpy.ndarray, shape (n, d)
        Shrunken features.
    ys : numpy.ndarray, shape (n,)
        Shrunken labels.
    vertices : array_like, shape (k, d)
        The vertex set.
    K : float
        Shrinkage threshold (sets the sensitivity), finite and > 0.
    epsilon_step : float
        The step's budget, finite and > 0.
    sensitivity : float or None, default None
        Override of the sensitivity.
    n : int or None, default None
        The ``n`` of the gradient and sensitivity; the number of records by default.

    Returns
    -------
    numpy.ndarray of float64, shape (P, k)
        ``log P[vertex j]`` for each iterate.

    Raises
    ------
    TypeError
        If ``vertices`` is not an array of real numbers, or a parameter not a real number.
    ValueError
        If ``vertices`` is not a non-empty finite 2-D array, ``K``, ``epsilon_step`` or ``sensitivity`` is not
        finite and positive, or the sensitivity overflows or underflows.

    References
    ----------
    .. [1] [002 Alg. 2 step 4], [002 Def. 3].

    Examples
    --------
    >>> Xs = np.array([[1.0, 0.0], [0.0, 1.0]]); ys = np.array([1.0, -1.0])
    >>> logp = lasso_selection_log_prob(np.zeros(2), Xs, ys, l1_ball_vertices(2), K=1.0, epsilon_step=1.0)
    >>> np.exp(logp).round(4)
    array([[0.2811, 0.2189, 0.2189, 0.2811]])
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


def _lasso_declare(Xs, ys, V, e_step, sensitivity, batched):
    """The event of the selection at [002 Alg. 2 step 4], as the algorithm declares it (recorder active only)."""

    def declare(t, W):
        delta_u = check_positive("sensitivity", sensitivity)
        public = {"t": t, "k": V.shape[0], "n": Xs.shape[0], "weight": 0.5 * e_step / delta_u}
        if batched:
            public["batch"] = (W.shape[0],)
        return {
            "data": -(lasso_gradients(W, Xs, ys, Xs.shape[0]) @ V.T),
            "sensitivity": delta_u,
            "norm": "linf",
            "privacy": {"epsilon": e_step},
            "public": public,
            "site": "[002 Alg. 2 step 4]",
        }

    return declare


def heavy_tailed_private_lasso(
    data: ArrayLike,
    w0: ArrayLike,
    K: float,
    T: int,
    epsilon: float,
    delta: float,
    vertices: ArrayLike | None = None,
    rng: RNGLike = None,
    *,
    variant: str = "printed",
    step_size: str | ArrayLike = "theorem2",
    sensitivity: float | None = None,
    size: int | None = None,
    return_path: bool = False,
) -> NDArray[np.float64] | tuple[NDArray[np.float64], NDArray[np.int64]]:
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

    Returns
    -------
    numpy.ndarray of float64, shape (d,) or (size, d)
        ``w^T``; with ``return_path`` also the selected vertex indices, shape (T,) or (size, T).

    Raises
    ------
    TypeError
        If an array is not an array of real numbers, a parameter not a real number, ``T`` or ``size`` not an
        integer, or ``rng`` not a generator or seed.
    ValueError
        If the records are not a finite 2-D array of at least 2 columns, ``w0`` or ``vertices`` does not have ``d``
        entries (columns) or is not finite, ``K`` or ``epsilon`` is not finite and positive, ``delta`` not in
        (0, 1), ``T`` not in ``[1, n]``, ``size < 1``, ``variant`` unknown, ``step_size`` invalid, or the
        sensitivity overflows or underflows.

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

    References
    ----------
    .. [1] [002 Alg. 2], [002 Thm. 4], [002 Lemma 2].

    Examples
    --------
    >>> data = np.array([[1.0, 0.0, 1.0], [0.0, 1.0, -1.0], [1.0, 1.0, 0.5], [0.5, -1.0, 2.0]])
    >>> w, path = heavy_tailed_private_lasso(data, np.zeros(2), K=2.0, T=2, epsilon=1.0, delta=1e-5, rng=0,
    ...                                      return_path=True)
    >>> w.shape, path.shape, float(np.abs(w).sum()) <= 1.0
    ((2,), (2,), True)
    """
    Xs, ys, w0, V, e_step = _lasso_setup(data, w0, K, T, epsilon, delta, vertices, variant)
    etas = fw_step_sizes(T, step_size)
    gen = as_generator(rng)
    runs = 1 if size is None else check_integer("size", size, minimum=1)
    if sensitivity is None:  # the same at every iteration: ||W||_1 of the vertex set computed once, not T times
        sensitivity = lasso_sensitivity(V, K, Xs.shape[0])
    step = lambda t, W: lasso_selection_log_prob(W, Xs, ys, V, K, e_step, sensitivity=sensitivity)  # noqa: E731
    declare = _lasso_declare(Xs, ys, V, e_step, sensitivity, size is not None)
    W, path = _fw_run(w0, etas, V, step, runs, gen, declare)
    if size is None:
        W, path = W[0], path[0]
    return (W, path) if return_path else W


def private_lasso_output_log_prob_batch(
    datasets: ArrayLike,
    w0: ArrayLike,
    K: float,
    T: int,
    epsilon: float,
    delta: float,
    vertices: ArrayLike | None = None,
    *,
    variant: str = "printed",
    step_size: str | ArrayLike = "theorem2",
    sensitivity: float | None = None,
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Exact laws of the output of Algorithm 2 on B datasets of equal shape.

    Parameters
    ----------
    datasets : array_like, shape (B, n, d + 1)
        The datasets, finite.
    w0 : array_like, shape (d,)
        Initial point, finite.
    K : float
        Shrinkage threshold, finite and > 0.
    T : int
        Iterations, ``1 <= T <= n``.
    epsilon : float
        Privacy parameter, finite and > 0.
    delta : float
        Privacy parameter, in (0, 1).
    vertices : array_like of shape (k, d) or None, default None
        Vertex set; the unit l1 ball by default.
    variant : {"printed", "lemma2", "standard"}, default "printed"
        Per-iteration budget, see :func:`lasso_epsilon_step`.
    step_size : {"theorem2", "section6"} or array_like, default "theorem2"
        See :func:`fw_step_sizes`.
    sensitivity : float or None, default None
        Override of the step-4 sensitivity (audits only).

    Returns
    -------
    outputs : numpy.ndarray of float64, shape (M, d)
        The distinct values of ``w^T``.
    log_prob : numpy.ndarray of float64, shape (B, M)
        Their log-probabilities under each dataset.

    Raises
    ------
    TypeError
        If an array is not an array of real numbers, a parameter not a real number, or ``T`` not an integer.
    ValueError
        If the records are not a finite 2-D array of at least 2 columns, ``w0`` or ``vertices`` does not have
        ``d`` entries (columns) or is not finite, ``K`` or ``epsilon`` is not finite and positive, ``delta`` not
        in (0, 1), ``T`` not in ``[1, n]``, ``variant`` unknown, ``step_size`` invalid, or the sensitivity
        overflows or underflows.

    References
    ----------
    .. [1] [002 Alg. 2], [002 Thm. 4].

    Examples
    --------
    >>> data = np.array([[1.0, 0.0, 1.0], [0.0, 1.0, -1.0], [1.0, 1.0, 0.5], [0.5, -1.0, 2.0]])
    >>> outputs, logp = private_lasso_output_log_prob_batch(np.stack([data, data[::-1]]), np.zeros(2), K=2.0, T=2,
    ...                                                     epsilon=1.0, delta=1e-5)
    >>> logp.shape[0], np.exp(logp).sum(axis=1).round(9).tolist()
    (2, [1.0, 1.0])
    """
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


def private_lasso_output_log_prob(
    data: ArrayLike,
    w0: ArrayLike,
    K: float,
    T: int,
    epsilon: float,
    delta: float,
    vertices: ArrayLike | None = None,
    *,
    variant: str = "printed",
    step_size: str | ArrayLike = "theorem2",
    sensitivity: float | None = None,
    return_paths: bool = False,
) -> tuple[NDArray[np.float64], ...]:
    """Exact law of the output of Algorithm 2 by enumerating the ``|V|^T`` selection paths.

    Parameters
    ----------
    data : array_like, shape (n, d + 1)
        Records ``[x, y]``, finite.
    w0 : array_like, shape (d,)
        Initial point, finite.
    K : float
        Shrinkage threshold, finite and > 0.
    T : int
        Iterations, ``1 <= T <= n``.
    epsilon : float
        Privacy parameter, finite and > 0.
    delta : float
        Privacy parameter, in (0, 1).
    vertices : array_like of shape (k, d) or None, default None
        Vertex set; the unit l1 ball by default.
    variant : {"printed", "lemma2", "standard"}, default "printed"
        Per-iteration budget, see :func:`lasso_epsilon_step`.
    step_size : {"theorem2", "section6"} or array_like, default "theorem2"
        See :func:`fw_step_sizes`.
    sensitivity : float or None, default None
        Override of the step-4 sensitivity (audits only).
    return_paths : bool, default False
        Also return every selection path and its log-probability.

    Returns
    -------
    outputs : numpy.ndarray of float64, shape (M, d)
        The distinct values of ``w^T``.
    log_prob : numpy.ndarray of float64, shape (M,)
        Their log-probabilities.
    paths, path_log_prob : numpy.ndarray
        Only with ``return_paths``: every selection path (|V|^T, T) and its log-probability.

    Raises
    ------
    TypeError
        If an array is not an array of real numbers, a parameter not a real number, or ``T`` not an integer.
    ValueError
        If the records are not a finite 2-D array of at least 2 columns, ``w0`` or ``vertices`` does not have
        ``d`` entries (columns) or is not finite, ``K`` or ``epsilon`` is not finite and positive, ``delta`` not
        in (0, 1), ``T`` not in ``[1, n]``, ``variant`` unknown, ``step_size`` invalid, or the sensitivity
        overflows or underflows.

    References
    ----------
    .. [1] [002 Alg. 2], [002 Thm. 4].

    Examples
    --------
    >>> data = np.array([[1.0, 0.0, 1.0], [0.0, 1.0, -1.0], [1.0, 1.0, 0.5], [0.5, -1.0, 2.0]])
    >>> outputs, logp = private_lasso_output_log_prob(data, np.zeros(2), K=2.0, T=2, epsilon=1.0, delta=1e-5)
    >>> outputs.shape[1], round(float(np.exp(logp).sum()), 9)
    (2, 1.0)
    """
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


class HeavyTailedPrivateLasso:
    """[002 Alg. 2] in the mechanism protocol (``data`` = records ``[x, y]``).

    ``sample(data, size, rng)`` returns ``w^T`` rows; ``log_prob(data)`` the exact law of ``w^T``;
    ``path_log_prob(data)`` the law of the selection path; ``step(w, n)`` one iteration's selection
    mechanism (a :class:`PrivateLassoStep`) for datasets of ``n`` records.

    Parameters
    ----------
    epsilon : float
        Privacy parameter, finite and > 0.
    delta : float
        Privacy parameter, in (0, 1).
    d : int
        Dimension, ``>= 1``.
    T : int
        Iterations, ``>= 1``.
    K : float
        Shrinkage threshold, finite and > 0.
    w0 : array_like of shape (d,) or None, default None
        Initial point; 0 by default.
    vertices : array_like of shape (k, d) or None, default None
        Vertex set; the unit l1 ball by default.
    variant : {"printed", "lemma2", "standard"}, default "printed"
        Per-iteration budget (:func:`lasso_epsilon_step`).
    step_size : {"theorem2", "section6"} or array_like, default "theorem2"
        See :func:`fw_step_sizes`.
    sensitivity : float or None, default None
        Override of the step-4 sensitivity (audits only).

    Raises
    ------
    TypeError
        If a parameter is not a real number, ``d`` or ``T`` not an integer, or an array not an array of real
        numbers.
    ValueError
        If ``epsilon`` or ``K`` is not finite and positive, ``delta`` not in (0, 1), ``d`` or ``T`` below 1,
        ``w0`` or ``vertices`` not finite with ``d`` entries (columns), or ``variant`` unknown; from the
        methods, as :func:`heavy_tailed_private_lasso`.

    References
    ----------
    .. [1] [002 Alg. 2], [002 Thm. 4].

    Examples
    --------
    >>> algo = HeavyTailedPrivateLasso(epsilon=1.0, delta=1e-5, d=2, T=2, K=2.0)
    >>> data = np.array([[1.0, 0.0, 1.0], [0.0, 1.0, -1.0], [1.0, 1.0, 0.5], [0.5, -1.0, 2.0]])
    >>> algo.sample(data, 3, rng=0).shape, algo.step(np.zeros(2), 4).log_prob(data)[1].shape
    ((3, 2), (4,))
    """

    finite_output = True

    def __init__(
        self,
        *,
        epsilon: float,
        delta: float,
        d: int,
        T: int,
        K: float,
        w0: ArrayLike | None = None,
        vertices: ArrayLike | None = None,
        variant: str = "printed",
        step_size: str | ArrayLike = "theorem2",
        sensitivity: float | None = None,
    ) -> None:
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
        return dict(
            vertices=self.vertices, variant=self.variant, step_size=self.step_size, sensitivity=self.sensitivity
        )

    def sample(self, data: ArrayLike, size: int | None, rng: RNGLike = None) -> NDArray[np.float64]:
        # without return_path the output alone, not the (output, path) pair
        return cast(
            NDArray[np.float64],
            heavy_tailed_private_lasso(
                data, self.w0, self.K, self.T, self.epsilon, self.delta, rng=rng, size=size, **self._kw()
            ),
        )

    def log_prob(self, data: ArrayLike) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        out = private_lasso_output_log_prob(data, self.w0, self.K, self.T, self.epsilon, self.delta, **self._kw())
        return out[0], out[1]

    def path_log_prob(self, data: ArrayLike) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
        out = private_lasso_output_log_prob(
            data, self.w0, self.K, self.T, self.epsilon, self.delta, return_paths=True, **self._kw()
        )
        return cast(NDArray[np.int64], out[2]), out[3]  # with return_paths the third array is the int64 paths

    def step(self, w: ArrayLike, n: int) -> PrivateLassoStep:
        """The exponential mechanism of one iteration at iterate ``w`` for datasets of ``n`` records."""
        return PrivateLassoStep(w, self, n)


class PrivateLassoStep:
    """One iteration of Algorithm 2 at a fixed iterate ``w`` (step 4), with ``score_terms``.

    ``log_prob(data)`` gives ``(vertex indices, log-probabilities)``, ``sample(data, size, rng)`` selected
    vertex indices, ``score_terms(records)`` each record's additive contribution to each vertex's
    log-weight, ``log_prob_from_terms(total)`` the law from summed terms.

    Parameters
    ----------
    w : array_like, shape (d,)
        The iterate, finite.
    algo : HeavyTailedPrivateLasso
        The algorithm (``K``, vertices, per-step budget).
    n : int
        Records of the datasets, ``>= 1``.

    Raises
    ------
    TypeError
        If ``w`` is not an array of real numbers or ``n`` not an integer.
    ValueError
        If ``w`` is not finite of shape (d,), ``n < 1``, or the sensitivity is not finite and positive.

    References
    ----------
    .. [1] [002 Alg. 2 step 4], [002 Def. 3].

    Examples
    --------
    >>> algo = HeavyTailedPrivateLasso(epsilon=1.0, delta=1e-5, d=2, T=2, K=2.0)
    >>> data = np.array([[1.0, 0.0, 1.0], [0.0, 1.0, -1.0]])
    >>> step = algo.step(np.zeros(2), 2)
    >>> step.score_terms(data).shape, step.sample(data, 5, rng=0).shape
    ((2, 4), (5,))
    """

    finite_output = True

    def __init__(self, w: ArrayLike, algo: HeavyTailedPrivateLasso, n: int) -> None:
        self.w = check_finite_array("w", w, ndim=1, shape=(algo.d,))
        self.algo, self.n = algo, check_integer("n", n, minimum=1)
        self.delta_u = (
            lasso_sensitivity(algo.vertices, algo.K, self.n)
            if algo.sensitivity is None
            else check_positive("sensitivity", algo.sensitivity)
        )

    def score_terms(self, records: ArrayLike) -> NDArray[np.float64]:
        sh = shrink_records(records, self.algo.K)
        Xs, ys = sh[:, :-1], sh[:, -1]
        per = (2.0 / self.n) * (Xs @ self.w - ys)[:, None] * Xs  # (m, d)
        return (0.5 * self.algo.epsilon_step / self.delta_u) * -(per @ self.algo.vertices.T)

    def log_prob_from_terms(self, total: ArrayLike) -> NDArray[np.float64]:
        return normalize_log_weights(total)

    def log_prob(self, data: ArrayLike) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
        sh = shrink_records(data, self.algo.K)
        lp = lasso_selection_log_prob(
            self.w[None],
            sh[:, :-1],
            sh[:, -1],
            self.algo.vertices,
            self.algo.K,
            self.algo.epsilon_step,
            sensitivity=self.delta_u,
            n=self.n,
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
            privacy={"epsilon": self.algo.epsilon_step},
            law={"log_weights": lp},
            public={"k": lp.size, "n": self.n, "weight": 0.5 * self.algo.epsilon_step / self.delta_u, "batch": (size,)},
            sample=lambda: gumbel_max_sample(lp, size, rng),
            site="[002 Alg. 2 step 4]",
        )

    def _scores(self, data):
        sh = shrink_records(data, self.algo.K)
        return -(lasso_gradients(self.w[None], sh[:, :-1], sh[:, -1], self.n) @ self.algo.vertices.T)[0]
