"""Algorithms 3 and 5 of 002 (Hu, Ni, Xiao & Wang): private sparse learning by noisy hard thresholding.

Algorithm 3 (heavy-tailed private sparse linear regression) shrinks every
entry at ``K``, splits the data into ``T`` disjoint parts and runs iterative
hard thresholding where the thresholding is Peeling (Algorithm 4,
:func:`reference.mechanisms.peeling`), followed by the projection onto the
unit l2 ball.  Algorithm 5 (heavy-tailed private sparse optimisation) replaces
the shrunken gradient by the coordinate-wise robust (smoothed Catoni)
gradient and has no projection.

Outputs are continuous (Laplace noise on the selected coordinates).  What is
finite and exact is the law of the *selection* of one iteration:
:class:`IHTPeelingStep` / :class:`SparseOptPeelingStep` expose it through
:func:`reference.mechanisms.peeling_support_log_prob`.

A dataset is a 2-D array of records ``[x_1, ..., x_d, y]``.

References
----------
.. [1] L. Hu, S. Ni, H. Xiao and D. Wang, ``002_6c597657f27a60c9.txt``: Algorithms 3-5,
       Theorems 6 and 8 and their proofs, Lemma 10 (Lemma 3.3 of Cai, Wang and Zhang), Section 6.2.
.. [2] T. T. Cai, Y. Wang and L. Zhang, "The cost of privacy", Ann. Statist. 2021 (ref. [13] of 002).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..losses import Loss, get_loss
from ..mechanisms import peeling, peeling_scale, peeling_support_log_prob, record_call
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
from .frank_wolfe import data_split, dp_fw_robust_gradients, shrink_records

__all__ = [
    "project_l2_ball",
    "iht_lambda",
    "iht_half_step",
    "heavy_tailed_sparse_linear_regression",
    "sparse_opt_lambda",
    "sparse_opt_half_step",
    "heavy_tailed_sparse_optimization",
    "check_sparse_start",
    "SparseLinearRegression",
    "SparseOptimization",
    "IHTPeelingStep",
    "SparseOptPeelingStep",
    "LaggedSparseOptPeelingStep",
]


def project_l2_ball(W: ArrayLike, radius: float = 1.0) -> NDArray[np.float64]:
    """Euclidean projection of each row of ``W`` onto the l2 ball (Algorithm 3 step 7).

    The norm is computed after dividing by the largest entry, so rows with
    entries near 1e308 are projected without overflow.

    Parameters
    ----------
    W : array_like, shape (P, d) or (d,)
        The points (not validated).
    radius : float, default 1.0
        Radius of the ball, finite and > 0.

    Returns
    -------
    numpy.ndarray of float64
        The projections, the shape of ``W``.

    Raises
    ------
    TypeError
        If ``radius`` is not a real number.
    ValueError
        If ``radius`` is not finite and positive.

    References
    ----------
    .. [1] [002 Alg. 3 step 7].

    Examples
    --------
    >>> project_l2_ball([[3.0, 4.0], [0.3, 0.4]])
    array([[0.6, 0.8],
           [0.3, 0.4]])
    """
    W = np.asarray(W, dtype=np.float64)
    r = check_positive("radius", radius)
    single = W.ndim == 1
    W2 = np.atleast_2d(W)
    big = np.max(np.abs(W2), axis=1)
    safe = np.where(big > 0, big, 1.0)
    U = W2 / safe[:, None]  # largest entry +-1, so no overflow below
    unorm = np.linalg.norm(U, axis=1)
    with np.errstate(over="ignore"):
        norm = safe * unorm
    out = np.where((norm > r)[:, None], U * (r / np.where(unorm > 0, unorm, 1.0))[:, None], W2)
    return out[0] if single else out


def check_sparse_start(w1: ArrayLike, d: int, s: int, *, l2_radius: float | None = None) -> NDArray[np.float64]:
    """Check that ``w1`` has length ``d``, at most ``s`` non-zeros and (optionally) ``||w1||_2 <= l2_radius``.

    Parameters
    ----------
    w1 : array_like, shape (d,)
        The starting point, finite.
    d : int
        Dimension.
    s : int
        Sparsity.
    l2_radius : float or None, default None
        Bound on ``||w1||_2`` (with a relative margin of 1e-12); ``None`` checks none.

    Returns
    -------
    numpy.ndarray of float64, shape (d,)
        ``w1``.

    Raises
    ------
    TypeError
        If ``w1`` is not an array of real numbers.
    ValueError
        If ``w1`` is not finite of shape (d,), has more than ``s`` non-zeros, or exceeds ``l2_radius``.

    References
    ----------
    .. [1] [002 Alg. 3 step 1], [002 Alg. 5 step 1] (an s-sparse start, in the unit l2 ball for Alg. 3).

    Examples
    --------
    >>> check_sparse_start([0.0, 0.5, 0.0], d=3, s=1, l2_radius=1.0)
    array([0. , 0.5, 0. ])
    >>> check_sparse_start([0.1, 0.5, 0.0], d=3, s=1)
    Traceback (most recent call last):
    ValueError: w1 must be s-sparse (s=1), got 2 non-zero entries
    """
    w1 = check_finite_array("w1", w1, ndim=1, shape=(d,))
    nnz = int(np.count_nonzero(w1))
    if nnz > s:
        raise ValueError(f"w1 must be s-sparse (s={s}), got {nnz} non-zero entries")
    if l2_radius is not None:
        norm = float(project_norm(w1))
        if norm > l2_radius * (1 + 1e-12):
            raise ValueError(f"w1 must satisfy ||w1||_2 <= {l2_radius}, got {norm!r}")
    return w1


def project_norm(w):
    """Overflow-safe l2 norm of a vector."""
    w = np.asarray(w, dtype=np.float64)
    big = float(np.max(np.abs(w))) if w.size else 0.0
    return 0.0 if big == 0 else big * float(np.linalg.norm(w / big))


# --------------------------------------------------------------------------- Algorithm 3


def iht_lambda(K: float, eta0: float, s: int, m: int) -> float:
    """Algorithm 3 step 6: Peeling noise parameter ``lambda = 2 K^2 eta0 (sqrt(s) + 1) / m``.

    Parameters
    ----------
    K : float
        Shrinkage threshold, finite and > 0.
    eta0 : float
        Step size, finite and > 0.
    s : int
        Sparsity, ``>= 1``.
    m : int
        Records in the part, ``>= 1``.

    Returns
    -------
    float
        ``lambda``.

    Raises
    ------
    TypeError
        If ``K`` or ``eta0`` is not a real number, or ``s`` or ``m`` not an integer.
    ValueError
        If ``K`` or ``eta0`` is not finite and positive, ``s`` or ``m`` below 1, or the value overflows or
        underflows to 0.

    References
    ----------
    .. [1] [002 Alg. 3 step 6], [002 Thm. 6].

    Examples
    --------
    >>> iht_lambda(K=1.0, eta0=0.5, s=4, m=10)
    0.3
    """
    K, eta0 = check_positive("K", K), check_positive("eta0", eta0)
    s = check_integer("s", s, minimum=1)
    m = check_integer("m", m, minimum=1)
    value = 2.0 * K * K * eta0 * (math.sqrt(s) + 1.0) / m
    if not math.isfinite(value):
        raise ValueError(f"K={K!r}, eta0={eta0!r} are too large: lambda = 2 K^2 eta0 (sqrt(s)+1)/m overflows float64")
    if value == 0.0:
        raise ValueError(f"K={K!r}, eta0={eta0!r} are too small: lambda = 2 K^2 eta0 (sqrt(s)+1)/m underflows to 0")
    return value


def iht_half_step(W: ArrayLike, Xs: NDArray[np.float64], ys: NDArray[np.float64], eta0: float) -> NDArray[np.float64]:
    """Algorithm 3 step 5: ``w^{t+0.5} = w^t - (eta0/m) sum_{D~_t} x~(<x~, w^t> - y~)`` for each row of ``W``.

    Not validated (the callers have validated and shrunk the records).

    Parameters
    ----------
    W : array_like, shape (P, d) or (d,)
        The iterates.
    Xs : numpy.ndarray, shape (m, d)
        Shrunken features of the part.
    ys : numpy.ndarray, shape (m,)
        Shrunken labels of the part.
    eta0 : float
        Step size.

    Returns
    -------
    numpy.ndarray of float64, shape (P, d)
        The half steps.

    References
    ----------
    .. [1] [002 Alg. 3 step 5].

    Examples
    --------
    >>> iht_half_step(np.zeros(2), np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([1.0, -1.0]), eta0=0.5)
    array([[ 0.25, -0.25]])
    """
    W = np.atleast_2d(W)
    m = Xs.shape[0]
    r = W @ Xs.T - ys[None, :]
    return W - (eta0 / m) * (r @ Xs)


def _check_iht(
    data, w1, K, T, eta0, s, epsilon, delta
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64], list[NDArray[np.int64]], float, float, int]:
    X, y = split_records(data)
    n, d = X.shape
    K = check_positive("K", K)
    eta0 = check_positive("eta0", eta0)
    s = check_integer("s", s, minimum=1, maximum=d)
    check_epsilon(epsilon)
    check_delta(delta)
    parts = data_split(n, T)
    w1 = check_sparse_start(w1, d, s, l2_radius=1.0)
    # split_records has validated data (finite, 2-d): shrink_records without its second finiteness pass.
    # Features already inside [-K, K] (the usual case: K grows with n) are used as they are, a view: clipping
    # would copy the whole (n, d) array for nothing (same values, same strides, so the same bits downstream).
    arr = np.asarray(data, dtype=np.float64)
    Xs = arr[:, :-1]
    if Xs.max() > K or Xs.min() < -K:
        Xs = np.clip(arr, -K, K)[:, :-1]
    return Xs, np.clip(arr[:, -1], -K, K), w1, parts, K, eta0, s


def heavy_tailed_sparse_linear_regression(
    data: ArrayLike,
    w1: ArrayLike,
    K: float,
    T: int,
    eta0: float,
    s: int,
    epsilon: float,
    delta: float,
    rng: RNGLike = None,
    *,
    lam: float | None = None,
    size: int | None = None,
) -> NDArray[np.float64]:
    """Algorithm 3 of 002 (heavy-tailed private sparse linear regression); (eps, delta)-DP by Theorem 6.

    Steps
    -----
    (1) input records, squared loss, ``w^1`` s-sparse with ``||w^1||_2 <= 1``, ``K, T, eta0, s``, ``eps, delta``.
    (2) shrink every entry at ``K`` (:func:`reference.hu.frank_wolfe.shrink_records`).
    (3) split into ``T`` disjoint parts of ``m ~ n/T`` records (:func:`reference.hu.frank_wolfe.data_split`).
    (4) for ``t = 1..T``:
    (5) ``w^{t+0.5} = w^t - (eta0/m) sum x~(<x~, w^t> - y~)`` (:func:`iht_half_step`);
    (6) ``w^{t+0.75} = Peeling(w^{t+0.5}, s, eps, delta, 2 K^2 eta0 (sqrt(s)+1)/m)`` (:func:`iht_lambda`);
    (7) ``w^{t+1} = Pi_W(w^{t+0.75})``, the projection onto the unit l2 ball.
    (9) return ``w^{T+1}``.

    Parameters
    ----------
    data : array_like (n, d + 1)
    w1 : array_like (d,)
        s-sparse, ``||w1||_2 <= 1``.
    K : float
        Shrinkage threshold, > 0.
    T : int
        ``1 <= T <= n``.
    eta0 : float
        Step size, > 0 (Section 6.2 uses 0.5; Theorem 7 uses ``eta/gamma`` with ``eta = 2/(3 gamma)``).
    s : int
        Sparsity of the iterates, ``1 <= s <= d``.
    epsilon, delta : float
        Privacy of each Peeling call (and of the whole algorithm, Theorem 6), ``delta`` in (0, 1).
    rng : numpy.random.Generator, int, SeedSequence or None, default None
        Source of randomness (:func:`~reference.validation.as_generator`).
    lam : float, optional
        Override of the step-6 noise parameter (audits only).
    size : int, optional
        Independent runs, vectorised.

    Returns
    -------
    numpy.ndarray of float64, shape (d,) or (size, d)
        ``w^{T+1}``.

    Raises
    ------
    TypeError
        If ``data`` or ``w1`` is not an array of real numbers, a parameter not a real number, ``T``, ``s`` or
        ``size`` not an integer, or ``rng`` not a generator or seed.
    ValueError
        If the records are not a finite 2-D array of at least 2 columns, ``K``, ``eta0``, ``epsilon`` (or ``lam``)
        is not finite and positive, ``delta`` not in (0, 1), ``s`` not in ``[1, d]``, ``T`` not in ``[1, n]``,
        ``w1`` not a finite s-sparse vector of length ``d`` in the unit l2 ball, ``size < 1``, or ``lambda``
        overflows or underflows.

    Notes
    -----
    Proof note (Theorem 6).  Given ``w^t`` (s-sparse, ``||w^t||_2 <= 1``, so
    ``|<x~, w^t>| <= sqrt(s) K``), replacing one record of ``D_t`` moves
    ``w^{t+0.5}`` by ``(eta0/m)`` times a difference of two vectors with entries
    bounded by ``K^2 (sqrt(s) + 1)``: the l_inf sensitivity is ``lambda`` of step 6,
    so Peeling is (eps, delta)-DP (Lemma 10); the other parts are untouched
    (parallel composition), and the projection is post-processing.

    References
    ----------
    .. [1] [002 Alg. 3], [002 Alg. 4], [002 Thm. 6], [002 Lemma 10].

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> data = np.column_stack([rng.standard_normal((40, 3)), rng.standard_normal(40)])
    >>> w = heavy_tailed_sparse_linear_regression(data, np.zeros(3), K=2.0, T=2, eta0=0.5, s=1, epsilon=1.0,
    ...                                           delta=1e-5, rng=1)
    >>> w.shape, int(np.count_nonzero(w)) <= 1, float(np.linalg.norm(w)) <= 1.0
    ((3,), True, True)
    """
    Xs, ys, w1, parts, K, eta0, s = _check_iht(data, w1, K, T, eta0, s, epsilon, delta)
    gen = as_generator(rng)
    runs = 1 if size is None else check_integer("size", size, minimum=1)
    W = np.repeat(w1[None, :], runs, axis=0)
    for idx in parts:  # loop over iterations only
        part = slice(int(idx[0]), int(idx[-1]) + 1)  # data_split's parts are contiguous: views, not copies
        half = iht_half_step(W, Xs[part], ys[part], eta0)
        lam_t = iht_lambda(K, eta0, s, idx.size) if lam is None else check_positive("lam", lam)
        # [002 Alg. 4] on every run's iterate at once (one row per run)
        W = project_l2_ball(_declared_peeling(half, s, epsilon, delta, lam_t, gen, size, "[002 Alg. 3 step 6]")[0])
    return W[0] if size is None else W


def _declared_peeling(half, s, epsilon, delta, lam, gen, size, site):
    """[002 Alg. 4] on every run's row of ``half``, reported as the algorithm's step ``site``.

    The runs' rows are a batch only when the caller asked for ``size`` runs: one run is one Peeling call.
    """
    public = {"shape": half.shape[-1:], "s": s}
    if size is not None:
        public["batch"] = half.shape[:-1]
    return record_call(
        "peeling",
        data=half,
        sensitivity=lam,
        norm="linf",
        privacy={"epsilon": epsilon, "delta": delta},
        law=lambda: {"v": half, "s": s, "scale": peeling_scale(s, epsilon, delta, lam)},
        public=public,
        sample=lambda: peeling(half, s, epsilon, delta, lam, rng=gen),
        site=site,
    )


# --------------------------------------------------------------------------- Algorithm 5


def sparse_opt_lambda(k: float, eta: float, m: int, *, bound: str = "printed") -> float:
    """Algorithm 5 step 7: Peeling noise parameter ``lambda = 4 k sqrt(2) eta / m``.

    ``bound="proof"`` gives the sensitivity bound the proof of Theorem 8 derives,
    ``4 sqrt(2) eta k / (3m)``, three times smaller (attained by the robust gradient);
    the default is the box's value.

    Parameters
    ----------
    k : float
        Scale of the robust estimator, finite and > 0.
    eta : float
        Step size, finite and > 0.
    m : int
        Records in the part, ``>= 1``.
    bound : {"printed", "proof"}, default "printed"
        The box's value or the proof's.

    Returns
    -------
    float
        ``lambda``.

    Raises
    ------
    TypeError
        If ``k`` or ``eta`` is not a real number or ``m`` not an integer.
    ValueError
        If ``k`` or ``eta`` is not finite and positive, ``m < 1``, or ``bound`` unknown.

    References
    ----------
    .. [1] [002 Alg. 5 step 7], [002 Thm. 8] and its proof.

    Examples
    --------
    >>> round(sparse_opt_lambda(3.0, 0.5, 7) / sparse_opt_lambda(3.0, 0.5, 7, bound="proof"), 12)
    3.0
    """
    k, eta = check_positive("k", k), check_positive("eta", eta)
    m = check_integer("m", m, minimum=1)
    if bound not in ("printed", "proof"):
        raise ValueError(f"bound must be 'printed' or 'proof', got {bound!r}")
    lam = 4.0 * k * math.sqrt(2.0) * eta / m
    return lam if bound == "printed" else lam / 3.0


def sparse_opt_half_step(
    W: ArrayLike,
    X: ArrayLike,
    y: ArrayLike,
    loss: Loss | str,
    k: float,
    beta: float,
    eta: float,
    variant: str = "standard",
) -> NDArray[np.float64]:
    """Algorithm 5 steps 4-6: ``w^{t+0.5} = w^t - eta g~(w^t, D_t)`` for each row of ``W`` (P, d).

    ``g~`` is the coordinate-wise robust gradient with scale ``k`` and smoothing
    ``beta`` (:func:`reference.hu.catoni.robust_gradient`, ``variant``), computed for
    all rows in one call.  Per-example gradient entries beyond ``1e300 k min(1, sqrt(beta))`` (overflowed
    ones included) are evaluated at that magnitude (:func:`reference.hu.frank_wolfe.robust_gradient_matrix`).

    Parameters
    ----------
    W : array_like, shape (P, d) or (d,)
        The iterates.
    X : array_like, shape (m, d)
        Features of the part.
    y : array_like, shape (m,)
        Labels of the part.
    loss : str or Loss
        The loss.
    k : float
        Scale of the robust estimator, finite and > 0.
    beta : float
        Inverse noise variance, finite and > 0.
    eta : float
        Step size.
    variant : {"standard", "printed"}, default "standard"
        Robust-gradient variant.

    Returns
    -------
    numpy.ndarray of float64, shape (P, d)
        The half steps.

    Raises
    ------
    TypeError
        If an array is not an array of real numbers, or ``k`` or ``beta`` not a real number.
    ValueError
        If the arrays are empty, not finite or of mismatched shapes, ``loss`` or ``variant`` unknown, ``k`` or
        ``beta`` not finite and positive, or the robust gradient not finite.

    References
    ----------
    .. [1] [002 Alg. 5 steps 4-6].

    Examples
    --------
    >>> X = np.array([[1.0, 0.0], [0.0, 1.0]]); y = np.array([1.0, -1.0])
    >>> sparse_opt_half_step(np.zeros(2), X, y, "squared", k=5.0, beta=1.0, eta=0.5).shape
    (1, 2)
    """
    W = np.atleast_2d(W)
    return W - eta * dp_fw_robust_gradients(W, X, y, loss, k, beta, variant)


def heavy_tailed_sparse_optimization(
    data: ArrayLike,
    loss: Loss | str,
    w1: ArrayLike,
    s: int,
    beta: float,
    k: float,
    T: int,
    eta: float,
    epsilon: float,
    delta: float,
    rng: RNGLike = None,
    *,
    variant: str = "standard",
    lam: float | None = None,
    size: int | None = None,
    gradient_at: str = "current",
    path: bool = False,
) -> NDArray[np.float64]:
    """Algorithm 5 of 002 (heavy-tailed private sparse optimisation); (eps, delta)-DP by Theorem 8.

    Steps
    -----
    (1) input records, loss, ``w^1`` s-sparse, ``s, beta, k, T, eta``, ``eps, delta``.
    (2) split into ``T`` disjoint parts of ``m ~ n/T`` records.
    (3) for ``t = 1..T``:
    (4-5) robust gradient ``g~`` of the part ``D_t`` coordinate-wise by eqs. (2)-(5) with scale ``k``;
    (6) ``w^{t+0.5} = w^t - eta g~`` (:func:`sparse_opt_half_step`);
    (7) ``w^{t+1} = Peeling(w^{t+0.5}, s, eps, delta, 4 k sqrt(2) eta / m)`` (:func:`sparse_opt_lambda`).
    (9) return ``w^{T+1}``.

    Index readings of steps 4-6.  The box evaluates the gradient at ``w^{t-1}``
    but updates ``w^t`` (``w^{t+0.5} = w^t - eta g~(w^{t-1}, D_t)``), and the
    proof of Theorem 8 repeats ``g~^t = g~(w^{t-1}, D_t)``; the analysis it
    refers to (the proof of Theorem 7) expands the loss around the point where
    the gradient is taken, ``g^t = grad L(w^t)``.  ``gradient_at="current"``
    (default) takes the gradient at ``w^t`` (reading B, the analysis');
    ``gradient_at="previous"`` takes it at ``w^{t-1}`` as printed (reading A, a
    lagged gradient step), with ``w^0 := w^1`` since the box defines no ``w^0``.

    Parameters
    ----------
    data : array_like (n, d + 1)
    loss : str or Loss
    w1 : array_like (d,)
        s-sparse start.
    s : int
        ``1 <= s <= d``.
    beta : float
        > 0.
    k : float
        Scale of the robust estimator, > 0.
    T : int
        ``1 <= T <= n``.
    eta : float
        Step size, > 0 (Section 6.2: 0.5; Theorem 8: ``2/(3 gamma_r)``).
    epsilon, delta, rng, lam, size
        As in :func:`heavy_tailed_sparse_linear_regression`.
    variant : {"standard", "printed"}
        Robust-gradient variant.
    gradient_at : {"current", "previous"}
        Where step 4 evaluates the gradient: ``w^t`` (reading B) or ``w^{t-1}`` (reading A, as printed).
    path : bool
        Return every iterate ``w^1, ..., w^{T+1}`` (shape ``(T + 1, d)``, or ``(T + 1, size, d)``)
        instead of ``w^{T+1}`` only.

    Returns
    -------
    numpy.ndarray of float64
        ``w^{T+1}``, shape (d,) or (size, d); with ``path``, every iterate, shape (T + 1, d) or (T + 1, size, d).

    Raises
    ------
    TypeError
        If ``data`` or ``w1`` is not an array of real numbers, a parameter not a real number, ``T``, ``s`` or
        ``size`` not an integer, or ``rng`` not a generator or seed.
    ValueError
        If the records are not a finite 2-D array of at least 2 columns, ``beta``, ``k``, ``eta``, ``epsilon``
        (or ``lam``) is not finite and positive, ``delta`` not in (0, 1), ``s`` not in ``[1, d]``, ``T`` not in
        ``[1, n]``, ``w1`` not a finite s-sparse vector of length ``d``, ``loss``, ``variant`` or ``gradient_at``
        unknown, ``size < 1``, or the robust gradient not finite.

    Notes
    -----
    Proof note (Theorem 8).  Given ``w^t``, replacing a record of ``D_t`` moves
    each coordinate of ``g~`` by at most the range of one per-sample
    contribution, ``4 sqrt(2) k / (3 m)`` (a property of the Catoni estimator),
    so ``w^{t+0.5}`` moves by at most ``eta`` times that in l_inf, which is below
    the step-7 ``lambda``; Peeling is then (eps, delta)-DP (Lemma 10) and the
    parts are disjoint.

    References
    ----------
    .. [1] [002 Alg. 5], [002 Alg. 4], [002 Thm. 8] and its proof, [002 Lemma 10].

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> data = np.column_stack([rng.standard_normal((40, 3)), rng.standard_normal(40)])
    >>> P = heavy_tailed_sparse_optimization(data, "squared", np.zeros(3), s=1, beta=1.0, k=5.0, T=2, eta=0.5,
    ...                                      epsilon=1.0, delta=1e-5, rng=1, path=True)
    >>> P.shape, int(np.count_nonzero(P[-1])) <= 1
    ((3, 3), True)
    """
    X, y = split_records(data)
    n, d = X.shape
    s = check_integer("s", s, minimum=1, maximum=d)
    check_positive("beta", beta)
    check_positive("k", k)
    eta = check_positive("eta", eta)
    check_epsilon(epsilon)
    check_delta(delta)
    parts = data_split(n, T)
    w1 = check_sparse_start(w1, d, s)
    loss = get_loss(loss)
    gen = as_generator(rng)
    if gradient_at not in ("current", "previous"):
        raise ValueError(f"gradient_at must be 'current' or 'previous', got {gradient_at!r}")
    runs = 1 if size is None else check_integer("size", size, minimum=1)
    W = np.repeat(w1[None, :], runs, axis=0)
    W_prev, iterates = W, [W]
    for idx in parts:  # loop over iterations only
        at = W if gradient_at == "current" else W_prev  # [002 Alg. 5 step 4]: g~(w^{t-1}, D_t) as printed
        part = slice(int(idx[0]), int(idx[-1]) + 1)  # data_split's parts are contiguous: views, not copies
        half = W - eta * dp_fw_robust_gradients(at, X[part], y[part], loss, k, beta, variant)
        lam_t = sparse_opt_lambda(k, eta, idx.size) if lam is None else check_positive("lam", lam)
        W_prev, W = W, _declared_peeling(half, s, epsilon, delta, lam_t, gen, size, "[002 Alg. 5 step 7]")[0]
        iterates.append(W)
    if path:
        P = np.stack(iterates)
        return P[:, 0] if size is None else P
    return W[0] if size is None else W


# --------------------------------------------------------------------------- mechanism-protocol objects


class SparseLinearRegression:
    """[002 Alg. 3] in the mechanism protocol: ``sample(data, size, rng)`` returns ``w^{T+1}`` rows.

    The output is continuous; the exact law of one iteration's Peeling selection
    is :class:`IHTPeelingStep` (``step(w, m)``).

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
    s : int
        Sparsity, ``1 <= s <= d``.
    eta0 : float, default 0.5
        Step size, finite and > 0.
    w1 : array_like of shape (d,) or None, default None
        s-sparse start in the unit l2 ball; 0 by default.
    lam : float or None, default None
        Override of the step-6 noise parameter (audits only).

    Raises
    ------
    TypeError
        If a parameter is not a real number, ``d``, ``T`` or ``s`` not an integer, or ``w1`` not an array of
        real numbers.
    ValueError
        If ``epsilon``, ``K`` or ``eta0`` is not finite and positive, ``delta`` not in (0, 1), ``d`` or ``T``
        below 1, ``s`` not in ``[1, d]``, or ``w1`` not a finite s-sparse vector of length ``d`` in the unit l2
        ball.

    References
    ----------
    .. [1] [002 Alg. 3], [002 Thm. 6].

    Examples
    --------
    >>> algo = SparseLinearRegression(epsilon=1.0, delta=1e-5, d=3, T=2, K=2.0, s=1)
    >>> rng = np.random.default_rng(0)
    >>> data = np.column_stack([rng.standard_normal((40, 3)), rng.standard_normal(40)])
    >>> algo.sample(data, 4, rng=1).shape, algo.step(np.zeros(3), 20).log_prob(data[:20])[0].shape
    ((4, 3), (3, 1))
    """

    finite_output = False

    def __init__(
        self,
        *,
        epsilon: float,
        delta: float,
        d: int,
        T: int,
        K: float,
        s: int,
        eta0: float = 0.5,
        w1: ArrayLike | None = None,
        lam: float | None = None,
    ) -> None:
        self.epsilon, self.delta = check_epsilon(epsilon), check_delta(delta)
        self.d = check_integer("d", d, minimum=1)
        self.T = check_integer("T", T, minimum=1)
        self.K, self.eta0 = check_positive("K", K), check_positive("eta0", eta0)
        self.s = check_integer("s", s, minimum=1, maximum=self.d)
        self.w1 = np.zeros(self.d) if w1 is None else check_sparse_start(w1, self.d, self.s, l2_radius=1.0)
        self.lam = lam

    def sample(self, data: ArrayLike, size: int | None, rng: RNGLike = None) -> NDArray[np.float64]:
        return heavy_tailed_sparse_linear_regression(
            data, self.w1, self.K, self.T, self.eta0, self.s, self.epsilon, self.delta, rng, lam=self.lam, size=size
        )

    def step(self, w: ArrayLike, m: int) -> IHTPeelingStep:
        """Peeling selection of one iteration at iterate ``w`` for parts of ``m`` records."""
        return IHTPeelingStep(
            w=w, m=m, epsilon=self.epsilon, delta=self.delta, K=self.K, s=self.s, eta0=self.eta0, lam=self.lam
        )


class _PeelingOfVector:
    """Exact law and sampler of Peeling's ordered selection ([002 Alg. 4]) on the vector ``v(data)``.

    Subclasses define ``v(data)`` and the attributes ``w, s, epsilon, delta, lam``.
    Both methods are those of :func:`reference.mechanisms.peeling` and
    :func:`reference.mechanisms.peeling_support_log_prob` on ``v(data)``.

    References
    ----------
    .. [1] [002 Alg. 4], [002 Lemma 10].
    """

    finite_output = True

    def log_prob(self, data):
        return peeling_support_log_prob(self.v(data), self.s, self.epsilon, self.delta, self.lam)

    def sample(self, data, size, rng=None):
        size = check_integer("size", size, minimum=0)
        return peeling(self.v(data), self.s, self.epsilon, self.delta, self.lam, size=size, rng=rng)[1]


class IHTPeelingStep(_PeelingOfVector):
    """Algorithm 3 steps 5-6 at a fixed iterate ``w`` as a finite mechanism: the ordered Peeling selection.

    ``data`` is the part ``D_t`` (raw records; shrinkage at ``K`` is applied here).
    ``v(data)`` is ``w^{t+0.5}``; ``log_prob(data)`` is the exact law of the ordered
    selection (:func:`reference.mechanisms.peeling_support_log_prob`); ``sample``
    returns selections.  ``noise_scale`` is the Laplace scale of the released values.

    Parameters
    ----------
    w : array_like, shape (d,)
        The iterate, finite.
    m : int
        Records in the part, ``>= 1``.
    epsilon : float
        Privacy parameter, finite and > 0.
    delta : float
        Privacy parameter, in (0, 1).
    K : float
        Shrinkage threshold, finite and > 0.
    s : int
        Sparsity, ``1 <= s <= d``.
    eta0 : float, default 0.5
        Step size, finite and > 0.
    lam : float or None, default None
        Override of the noise parameter; :func:`iht_lambda` by default.

    Raises
    ------
    TypeError
        If a parameter is not a real number, ``s`` or ``m`` not an integer, or ``w`` not an array of real numbers.
    ValueError
        If ``K``, ``eta0``, ``epsilon`` or ``lam`` is not finite and positive, ``delta`` not in (0, 1), ``w`` not
        a finite vector, ``s`` not in ``[1, d]``, ``m < 1``; from ``v``, if ``data`` does not have ``m`` records.

    References
    ----------
    .. [1] [002 Alg. 3 steps 5-6], [002 Alg. 4], [002 Lemma 10].

    Examples
    --------
    >>> step = IHTPeelingStep(w=np.zeros(3), m=2, epsilon=1.0, delta=1e-5, K=2.0, s=1)
    >>> data = np.array([[1.0, 0.0, 0.0, 1.0], [0.0, 1.0, 0.0, -1.0]])
    >>> step.v(data), step.sample(data, 3, rng=0).shape
    (array([ 0.25, -0.25,  0.  ]), (3, 1))
    """

    finite_output = True

    def __init__(
        self,
        *,
        w: ArrayLike,
        m: int,
        epsilon: float,
        delta: float,
        K: float,
        s: int,
        eta0: float = 0.5,
        lam: float | None = None,
    ) -> None:
        self.K, self.eta0 = check_positive("K", K), check_positive("eta0", eta0)
        self.w = check_finite_array("w", w, ndim=1)
        self.s = check_integer("s", s, minimum=1, maximum=self.w.size)
        self.m = check_integer("m", m, minimum=1)
        self.epsilon, self.delta = check_epsilon(epsilon), check_delta(delta)
        self.lam = iht_lambda(self.K, self.eta0, self.s, self.m) if lam is None else check_positive("lam", lam)
        self.noise_scale = peeling_scale(self.s, self.epsilon, self.delta, self.lam)

    def v(self, data: ArrayLike) -> NDArray[np.float64]:
        sh = shrink_records(data, self.K)
        if sh.shape[0] != self.m:
            raise ValueError(f"data must have m = {self.m} records, got {sh.shape[0]}")
        return iht_half_step(self.w[None], sh[:, :-1], sh[:, -1], self.eta0)[0]


class SparseOptimization:
    """[002 Alg. 5] in the mechanism protocol: ``sample(data, size, rng)`` returns ``w^{T+1}`` rows.

    ``step(w, m)`` is one iteration's Peeling selection (:class:`SparseOptPeelingStep`).

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
    s : int
        Sparsity, ``1 <= s <= d``.
    k : float
        Scale of the robust estimator, finite and > 0.
    beta : float, default 1.0
        Inverse noise variance, finite and > 0.
    eta : float, default 0.5
        Step size, finite and > 0.
    loss : str or Loss, default "logistic_l2"
        The loss.
    w1 : array_like of shape (d,) or None, default None
        s-sparse start; 0 by default.
    variant : {"standard", "printed"}, default "standard"
        Robust-gradient variant.
    lam : float or None, default None
        Override of the step-7 noise parameter (audits only).
    loss_params : dict or None, default None
        Constructor arguments of a named loss.

    Raises
    ------
    TypeError
        If a parameter is not a real number, ``d``, ``T`` or ``s`` not an integer, or ``w1`` not an array of
        real numbers.
    ValueError
        If ``epsilon``, ``k``, ``beta`` or ``eta`` is not finite and positive, ``delta`` not in (0, 1), ``d`` or
        ``T`` below 1, ``s`` not in ``[1, d]``, ``loss`` unknown, or ``w1`` not a finite s-sparse vector of
        length ``d``.

    References
    ----------
    .. [1] [002 Alg. 5], [002 Thm. 8].

    Examples
    --------
    >>> algo = SparseOptimization(epsilon=1.0, delta=1e-5, d=3, T=2, s=1, k=5.0, loss="squared")
    >>> rng = np.random.default_rng(0)
    >>> data = np.column_stack([rng.standard_normal((40, 3)), rng.standard_normal(40)])
    >>> algo.sample(data, 4, rng=1).shape
    (4, 3)
    """

    finite_output = False

    def __init__(
        self,
        *,
        epsilon: float,
        delta: float,
        d: int,
        T: int,
        s: int,
        k: float,
        beta: float = 1.0,
        eta: float = 0.5,
        loss: Loss | str = "logistic_l2",
        w1: ArrayLike | None = None,
        variant: str = "standard",
        lam: float | None = None,
        loss_params: dict[str, float] | None = None,
    ) -> None:
        self.epsilon, self.delta = check_epsilon(epsilon), check_delta(delta)
        self.d = check_integer("d", d, minimum=1)
        self.T = check_integer("T", T, minimum=1)
        self.s = check_integer("s", s, minimum=1, maximum=self.d)
        self.k, self.beta, self.eta = check_positive("k", k), check_positive("beta", beta), check_positive("eta", eta)
        self.loss = get_loss(loss, **(loss_params or {}))
        self.w1 = np.zeros(self.d) if w1 is None else check_sparse_start(w1, self.d, self.s)
        self.variant, self.lam = variant, lam

    def sample(self, data: ArrayLike, size: int | None, rng: RNGLike = None) -> NDArray[np.float64]:
        return heavy_tailed_sparse_optimization(
            data,
            self.loss,
            self.w1,
            self.s,
            self.beta,
            self.k,
            self.T,
            self.eta,
            self.epsilon,
            self.delta,
            rng,
            variant=self.variant,
            lam=self.lam,
            size=size,
        )

    def step(self, w: ArrayLike, m: int) -> SparseOptPeelingStep:
        return SparseOptPeelingStep(
            w=w,
            m=m,
            epsilon=self.epsilon,
            delta=self.delta,
            s=self.s,
            k=self.k,
            beta=self.beta,
            eta=self.eta,
            loss=self.loss,
            variant=self.variant,
            lam=self.lam,
        )


class SparseOptPeelingStep(_PeelingOfVector):
    """Algorithm 5 steps 4-7 at a fixed iterate ``w``: the ordered Peeling selection as a finite mechanism.

    ``v(data)`` is ``w^{t+0.5}`` on the part ``data``; ``log_prob(data)`` the exact law of the ordered selection;
    ``sample(data, size, rng)`` selections; ``noise_scale`` the Laplace scale of the released values.

    Parameters
    ----------
    w : array_like, shape (d,)
        The iterate ``w^t``, finite.
    m : int
        Records in the part, ``>= 1``.
    epsilon : float
        Privacy parameter, finite and > 0.
    delta : float
        Privacy parameter, in (0, 1).
    s : int
        Sparsity, ``1 <= s <= d``.
    k : float
        Scale of the robust estimator, finite and > 0.
    beta : float, default 1.0
        Inverse noise variance, finite and > 0.
    eta : float, default 0.5
        Step size, finite and > 0.
    loss : str or Loss, default "logistic_l2"
        The loss.
    variant : {"standard", "printed"}, default "standard"
        Robust-gradient variant.
    lam : float or None, default None
        Override of the noise parameter; :func:`sparse_opt_lambda` by default.

    Raises
    ------
    TypeError
        If a parameter is not a real number, ``s`` or ``m`` not an integer, or ``w`` not an array of real numbers.
    ValueError
        If ``k``, ``beta``, ``eta``, ``epsilon`` or ``lam`` is not finite and positive, ``delta`` not in (0, 1),
        ``w`` not a finite vector, ``s`` not in ``[1, d]``, ``m < 1``, ``loss`` unknown; from ``v``, if
        ``data`` does not have ``m`` records.

    References
    ----------
    .. [1] [002 Alg. 5 steps 4-7], [002 Alg. 4], [002 Lemma 10].

    Examples
    --------
    >>> step = SparseOptPeelingStep(w=np.zeros(3), m=2, epsilon=1.0, delta=1e-5, s=2, k=5.0, loss="squared")
    >>> data = np.array([[1.0, 0.0, 0.0, 1.0], [0.0, 1.0, 0.0, -1.0]])
    >>> seqs, logp = step.log_prob(data)
    >>> seqs.shape, round(float(np.exp(logp).sum()), 9)
    ((6, 2), 1.0)
    """

    finite_output = True

    def __init__(
        self,
        *,
        w: ArrayLike,
        m: int,
        epsilon: float,
        delta: float,
        s: int,
        k: float,
        beta: float = 1.0,
        eta: float = 0.5,
        loss: Loss | str = "logistic_l2",
        variant: str = "standard",
        lam: float | None = None,
    ) -> None:
        self.w = check_finite_array("w", w, ndim=1)
        self.s = check_integer("s", s, minimum=1, maximum=self.w.size)
        self.m = check_integer("m", m, minimum=1)
        self.k, self.beta, self.eta = check_positive("k", k), check_positive("beta", beta), check_positive("eta", eta)
        self.epsilon, self.delta = check_epsilon(epsilon), check_delta(delta)
        self.loss, self.variant = get_loss(loss), variant
        self.lam = sparse_opt_lambda(self.k, self.eta, self.m) if lam is None else check_positive("lam", lam)
        self.noise_scale = peeling_scale(self.s, self.epsilon, self.delta, self.lam)

    def v(self, data: ArrayLike) -> NDArray[np.float64]:
        X, y = split_records(data, self.w.size)
        if X.shape[0] != self.m:
            raise ValueError(f"data must have m = {self.m} records, got {X.shape[0]}")
        return sparse_opt_half_step(self.w[None], X, y, self.loss, self.k, self.beta, self.eta, self.variant)[0]


class LaggedSparseOptPeelingStep(SparseOptPeelingStep):
    """Algorithm 5 steps 4-7 under the printed indices (reading A): ``v = w^t - eta g~(w^{t-1}, D_t)``.

    The gradient is taken at ``w_grad`` (``w^{t-1}``), the step starts from ``w`` (``w^t``); both
    are fixed (earlier outputs, computed from other parts of the data).  The ordered Peeling
    selection on ``v(data)`` is a finite mechanism, as for :class:`SparseOptPeelingStep` (whose
    parameters it takes), which is the case ``w_grad = w`` (reading B).

    Parameters
    ----------
    w : array_like, shape (d,)
        The iterate ``w^t``, finite.
    w_grad : array_like, shape (d,)
        Where the gradient is taken, ``w^{t-1}``, finite.
    **params
        The other parameters of :class:`SparseOptPeelingStep`: ``m``, ``epsilon``, ``delta``, ``s``, ``k``,
        ``beta``, ``eta``, ``loss``, ``variant``, ``lam``.

    Raises
    ------
    TypeError
        If a parameter is not a real number, ``s`` or ``m`` not an integer, or ``w`` not an array of real numbers.
    ValueError
        If ``k``, ``beta``, ``eta``, ``epsilon`` or ``lam`` is not finite and positive, ``delta`` not in (0, 1),
        ``w`` not a finite vector, ``s`` not in ``[1, d]``, ``m < 1``, ``loss`` unknown, or ``w_grad`` not of
        the shape of ``w``; from ``v``, if ``data`` does not have ``m`` records.

    References
    ----------
    .. [1] [002 Alg. 5 steps 4-7], [002 Thm. 8] and its proof [002 App. A].

    Examples
    --------
    >>> step = LaggedSparseOptPeelingStep(w=np.zeros(3), w_grad=np.array([0.5, 0.0, 0.0]), m=2, epsilon=1.0,
    ...                                   delta=1e-5, s=1, k=5.0, loss="squared")
    >>> data = np.array([[1.0, 0.0, 0.0, 1.0], [0.0, 1.0, 0.0, -1.0]])
    >>> step.v(data).round(4)
    array([ 0.2433, -0.4468,  0.    ])
    """

    def __init__(self, *, w: ArrayLike, w_grad: ArrayLike, **params: Any) -> None:
        super().__init__(w=w, **params)
        self.w_grad = check_finite_array("w_grad", w_grad, ndim=1)
        if self.w_grad.shape != self.w.shape:
            raise ValueError(f"w_grad must have the shape of w {self.w.shape}, got {self.w_grad.shape}")

    def v(self, data: ArrayLike) -> NDArray[np.float64]:
        X, y = split_records(data, self.w.size)
        if X.shape[0] != self.m:
            raise ValueError(f"data must have m = {self.m} records, got {X.shape[0]}")
        g = dp_fw_robust_gradients(self.w_grad[None], X, y, self.loss, self.k, self.beta, self.variant)[0]
        return self.w - self.eta * g
