"""The output law of [000 Alg. 1] and [000 Alg. 2] over the net: exact in memory, or streamed block by block.

Both algorithms output a net point ``w`` with probability proportional to ``exp(log-weight(w))``
(:mod:`reference.wang_xu._l1_scores`).  :func:`wang_xu_log_prob` normalises the log-weights of the whole
net in memory; for nets larger than memory the net is scored block by block
(``DEFAULT_BLOCK_ELEMENTS`` records x net points at once) with a streaming log-sum-exp
(:func:`streaming_log_normaliser`, :func:`streaming_log_prob_chunks`) and sampled with a streaming
(block-level) Gumbel-max (:func:`streaming_gumbel_max_sample`, exactness argued there), in memory
``O(n * block + size)``.

References
----------
.. [1] D. Wang and J. Xu, "Differentially private l1-norm linear regression with heavy-tailed
       data", ``000_e64de114947d2122.txt``: [000 Alg. 1 step 2], [000 Alg. 2 step 2],
       [000 Def. 2] (exponential mechanism).
.. [2] E. J. Gumbel, "Statistical theory of extreme values and some practical applications", 1954
       (the Gumbel-max trick); C. J. Maddison, D. Tarlow and T. Minka, "A* sampling", NeurIPS 2014
       (its top-down, block-by-block form).
"""

from __future__ import annotations

import math
from collections.abc import Iterator

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.special import logsumexp

from ..mechanisms import normalize_log_weights, record_call, recorder_active
from ..validation import RNGLike, as_generator, check_integer
from ._l1_scores import _Scorer
from .nets import ArrayNet, GridNet, as_net

__all__ = [
    "DEFAULT_BLOCK_ELEMENTS",
    "wang_xu_log_prob",
    "streaming_log_normaliser",
    "streaming_log_prob_chunks",
    "streaming_gumbel_max_sample",
    "algorithm1",
    "algorithm2",
]

#: Elements of the (records x net points) block scored at once (8 MB of float64).
DEFAULT_BLOCK_ELEMENTS = 1 << 20


def _block_size(n, block_elements):
    block_elements = check_integer("block_elements", block_elements, minimum=1)
    return max(1, block_elements // max(1, n))


def wang_xu_log_prob(
    X: ArrayLike,
    y: ArrayLike,
    net: GridNet | ArrayNet | ArrayLike,
    epsilon: float,
    iota: float,
    theta: float = 2.0,
    variant: str = "printed",
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Exact output distribution of [000 Alg. 1] (``theta = 2``) / [000 Alg. 2] over the net, in memory.

    Parameters
    ----------
    X : array_like, shape (n, d)
        Features, finite.
    y : array_like, shape (n,)
        Responses, finite.
    net : GridNet, ArrayNet or array_like of shape (N, d)
        The range ``W-tilde_zeta`` of [000 Alg. 1 step 1] (:func:`~reference.wang_xu.nets.as_net`).
    epsilon : float
        Privacy parameter, finite and > 0.
    iota : float
        Truncation scale, finite and > 0.
    theta : float, default 2.0
        ``2`` ([000 Alg. 1], psi of [000 eq. (6)]) or in ``(1, 2]`` ([000 Alg. 2], psi of [000 eq. (16)]).
    variant : {"printed", "standard", "calibrated"}, default "printed"
        The exponent (:func:`~reference.wang_xu.l1_regression.exponent_factor`).

    Returns
    -------
    points : numpy.ndarray of float64, shape (N, d)
        The net points.
    log_prob : numpy.ndarray of float64, shape (N,)
        ``log P[output = points[k]]``, normalised by log-sum-exp.

    Raises
    ------
    TypeError
        If an array is not an array of real numbers, a parameter not a real number.
    ValueError
        If ``X`` or ``y`` is empty or not finite, they differ in length, the net is empty or its dimension is
        not ``d``, ``epsilon`` or ``iota`` is not finite and positive, ``theta`` not in (1, 2], or ``variant``
        unknown.

    References
    ----------
    .. [1] [000 Alg. 1 step 2], [000 Alg. 2 step 2], [000 Def. 2].

    Examples
    --------
    >>> X = np.array([[1.0], [1.0], [1.0]]); y = np.array([0.1, 0.2, 0.3])
    >>> net = np.array([[0.0], [0.2], [5.0]])
    >>> points, logp = wang_xu_log_prob(X, y, net, epsilon=1.0, iota=1.0)
    >>> np.exp(logp).round(3)
    array([0.347, 0.612, 0.041])
    """
    sc = _Scorer(X, y, epsilon, iota, theta, variant)
    net = as_net(net, sc.X.shape[1])
    pts = net.points()
    lw = sc.log_weights(pts)
    return pts, normalize_log_weights(lw)


def _stream(sc, net, block_elements):
    size = _block_size(sc.X.shape[0], block_elements)
    for start, pts in net.chunks(size):
        yield start, pts, sc.log_weights(pts)


def streaming_log_normaliser(
    X: ArrayLike,
    y: ArrayLike,
    net: GridNet | ArrayNet | ArrayLike,
    epsilon: float,
    iota: float,
    theta: float = 2.0,
    variant: str = "printed",
    *,
    block_elements: int = DEFAULT_BLOCK_ELEMENTS,
) -> float:
    """``log sum_w exp(log-weight(w))`` over the net, block by block (streaming log-sum-exp).

    Memory is ``O(n * block)`` whatever the net size; the net is enumerated lazily.

    Parameters
    ----------
    X : array_like, shape (n, d)
        Features, finite.
    y : array_like, shape (n,)
        Responses, finite.
    net : GridNet, ArrayNet or array_like of shape (N, d)
        The range ``W-tilde_zeta`` of [000 Alg. 1 step 1] (:func:`~reference.wang_xu.nets.as_net`).
    epsilon : float
        Privacy parameter, finite and > 0.
    iota : float
        Truncation scale, finite and > 0.
    theta : float, default 2.0
        ``2`` ([000 Alg. 1], psi of [000 eq. (6)]) or in ``(1, 2]`` ([000 Alg. 2], psi of [000 eq. (16)]).
    variant : {"printed", "standard", "calibrated"}, default "printed"
        The exponent (:func:`~reference.wang_xu.l1_regression.exponent_factor`).
    block_elements : int, default DEFAULT_BLOCK_ELEMENTS
        About how many (record, net point) pairs are scored at once: memory is ``O(block_elements)``.

    Returns
    -------
    float
        The log-normaliser of the mechanism's weights.

    Raises
    ------
    TypeError
        If an array is not an array of real numbers, a parameter not a real number.
    ValueError
        If ``X`` or ``y`` is empty or not finite, they differ in length, the net is empty or its dimension is
        not ``d``, ``epsilon`` or ``iota`` is not finite and positive, ``theta`` not in (1, 2], or ``variant``
        unknown.

    References
    ----------
    .. [1] [000 Alg. 1 step 2], [000 Alg. 2 step 2], [000 Def. 2].

    Examples
    --------
    >>> X = np.array([[1.0], [1.0], [1.0]]); y = np.array([0.1, 0.2, 0.3])
    >>> net = np.array([[0.0], [0.2], [5.0]])
    >>> round(streaming_log_normaliser(X, y, net, epsilon=1.0, iota=1.0), 4)
    0.2028
    """
    sc = _Scorer(X, y, epsilon, iota, theta, variant)
    net = as_net(net, sc.X.shape[1])
    total = -math.inf
    for _, _, lw in _stream(sc, net, block_elements):
        total = float(np.logaddexp(total, logsumexp(lw)))
    return total


def streaming_log_prob_chunks(
    X: ArrayLike,
    y: ArrayLike,
    net: GridNet | ArrayNet | ArrayLike,
    epsilon: float,
    iota: float,
    theta: float = 2.0,
    variant: str = "printed",
    *,
    block_elements: int = DEFAULT_BLOCK_ELEMENTS,
) -> Iterator[tuple[int, NDArray[np.float64], NDArray[np.float64]]]:
    """Yield ``(start, points, log_prob)`` blocks of the exact distribution (two passes over the net).

    Parameters
    ----------
    X : array_like, shape (n, d)
        Features, finite.
    y : array_like, shape (n,)
        Responses, finite.
    net : GridNet, ArrayNet or array_like of shape (N, d)
        The range ``W-tilde_zeta`` of [000 Alg. 1 step 1] (:func:`~reference.wang_xu.nets.as_net`).
    epsilon : float
        Privacy parameter, finite and > 0.
    iota : float
        Truncation scale, finite and > 0.
    theta : float, default 2.0
        ``2`` ([000 Alg. 1], psi of [000 eq. (6)]) or in ``(1, 2]`` ([000 Alg. 2], psi of [000 eq. (16)]).
    variant : {"printed", "standard", "calibrated"}, default "printed"
        The exponent (:func:`~reference.wang_xu.l1_regression.exponent_factor`).
    block_elements : int, default DEFAULT_BLOCK_ELEMENTS
        About how many (record, net point) pairs are scored at once: memory is ``O(block_elements)``.

    Yields
    ------
    start : int
        Index of the block's first point in the net's order.
    points : numpy.ndarray of float64, shape (B, d)
        The block's net points.
    log_prob : numpy.ndarray of float64, shape (B,)
        Their log-probabilities.

    Raises
    ------
    TypeError
        If an array is not an array of real numbers, a parameter not a real number.
    ValueError
        If ``X`` or ``y`` is empty or not finite, they differ in length, the net is empty or its dimension is
        not ``d``, ``epsilon`` or ``iota`` is not finite and positive, ``theta`` not in (1, 2], or ``variant``
        unknown.

    References
    ----------
    .. [1] [000 Alg. 1 step 2], [000 Alg. 2 step 2], [000 Def. 2].

    Examples
    --------
    >>> X = np.array([[1.0], [1.0], [1.0]]); y = np.array([0.1, 0.2, 0.3])
    >>> net = np.array([[0.0], [0.2], [5.0]])
    >>> [(start, pts.shape) for start, pts, logp in streaming_log_prob_chunks(X, y, net, 1.0, 1.0)]
    [(0, (3, 1))]
    """
    log_z = streaming_log_normaliser(X, y, net, epsilon, iota, theta, variant, block_elements=block_elements)
    sc = _Scorer(X, y, epsilon, iota, theta, variant)
    net = as_net(net, sc.X.shape[1])
    for start, pts, lw in _stream(sc, net, block_elements):
        yield start, pts, lw - log_z


def streaming_gumbel_max_sample(
    X: ArrayLike,
    y: ArrayLike,
    net: GridNet | ArrayNet | ArrayLike,
    epsilon: float,
    iota: float,
    theta: float = 2.0,
    variant: str = "printed",
    size: int = 1,
    rng: RNGLike = None,
    *,
    block_elements: int = DEFAULT_BLOCK_ELEMENTS,
    return_index: bool = False,
) -> NDArray[np.float64] | tuple[NDArray[np.float64], NDArray[np.int64]]:
    """``size`` independent outputs of [000 Alg. 1] / [000 Alg. 2] by a streaming (two-level) Gumbel-max over the net.

    The net is scored block by block in one pass.  For block ``b`` with log-mass
    ``l_b = logsumexp(log-weights in b)``, every draw gets the key ``l_b + G`` (``G`` standard
    Gumbel); a draw whose key beats its running best moves to block ``b`` and picks a point
    inside ``b`` from the block's normalised weights (inverse CDF, fresh uniforms).

    Exactness.  ``max_{w in b} (lw(w) + G_w)`` has the law of ``l_b + G``, and the arg-max inside
    the block is independent of that maximum and has law ``softmax`` over ``b`` (Gumbel-max
    trick).  Hence the final block of a draw is ``b`` with probability ``Z_b / Z`` and its point
    is ``w`` with probability ``exp(lw(w)) / Z_b``: the product is the exponential mechanism.
    No normaliser is needed; memory is ``O(n * block + size)`` and time ``O(N n d)`` plus
    ``O(size log N)`` for the (expected ``O(log #blocks)``) moves of each draw.

    Parameters
    ----------
    X : array_like, shape (n, d)
        Features, finite.
    y : array_like, shape (n,)
        Responses, finite.
    net : GridNet, ArrayNet or array_like of shape (N, d)
        The range ``W-tilde_zeta`` of [000 Alg. 1 step 1].
    epsilon : float
        Privacy parameter, finite and > 0.
    iota : float
        Truncation scale, finite and > 0.
    theta : float, default 2.0
        Moment order in (1, 2] (2: [000 Alg. 1]).
    variant : {"printed", "standard", "calibrated"}, default "printed"
        The exponent (:func:`~reference.wang_xu.l1_regression.exponent_factor`).
    size : int, default 1
        Number of independent outputs, ``>= 0``.
    rng : numpy.random.Generator, int, SeedSequence or None, default None
        Source of randomness (:func:`~reference.validation.as_generator`).
    block_elements : int, default DEFAULT_BLOCK_ELEMENTS
        About how many (record, net point) pairs are scored at once.
    return_index : bool, default False
        Also return the net indices of the outputs.

    Returns
    -------
    numpy.ndarray, shape (size, d)
        The sampled net points (and their net indices if ``return_index``).

    Raises
    ------
    TypeError
        If an array is not an array of real numbers, a parameter not a real number, ``size`` not an integer or
        ``rng`` not a generator or seed.
    ValueError
        If ``X`` or ``y`` is empty or not finite, they differ in length, the net is empty or its dimension is not
        ``d``, ``epsilon`` or ``iota`` is not finite and positive, ``theta`` not in (1, 2], ``variant`` unknown,
        or ``size < 0``.

    References
    ----------
    .. [1] [000 Alg. 1 step 2], [000 Alg. 2 step 2]; the Gumbel-max trick (C. J. Maddison, D. Tarlow and
       T. Minka, "A* sampling", NeurIPS 2014).

    Examples
    --------
    >>> X = np.array([[1.0], [1.0], [1.0]]); y = np.array([0.1, 0.2, 0.3])
    >>> points, index = streaming_gumbel_max_sample(X, y, [[0.0], [0.2], [5.0]], 1.0, 1.0, size=5, rng=0,
    ...                                             return_index=True)
    >>> points.shape, bool((points[:, 0] == np.array([0.0, 0.2, 5.0])[index]).all())
    ((5, 1), True)
    """
    sc = _Scorer(X, y, epsilon, iota, theta, variant)
    net = as_net(net, sc.X.shape[1])
    size = check_integer("size", size, minimum=0)
    gen = as_generator(rng)
    best_pts, best_idx = _recorded_draws(sc, net, size, gen, block_elements, (size,))
    return (best_pts, best_idx) if return_index else best_pts


def _recorded_draws(sc, net, size, gen, block_elements, batch):
    """:func:`_streaming_draws`, reported to an active recorder as the exponential mechanism over the net.

    The event ([000 Alg. 1 step 2], [000 Alg. 2 step 2]) has ``law = {"log_weights": the net's log-weights}``
    (the blocks the draw consumed, concatenated in the net's order; its within-block inverse CDF is exact up to
    rounding), ``output`` the net indices, ``data`` the scores ``u(w) = log-weight / (k eps)`` (minus the
    truncated empirical risk in units where each record contributes ``[-1, 0]``, so their replace-one
    sensitivity is 1), ``weight = k eps`` and the budget ``epsilon`` the paper claims.  ``batch``: the run axis
    (``None``: one run).  Replaying, the points of the forced indices are read from the net.
    """
    if not recorder_active():
        return _streaming_draws(sc, net, size, gen, block_elements)
    drawn = []
    log_weights = []

    def all_log_weights():
        if not log_weights:
            log_weights.append(np.concatenate([lw for _, _, lw in _stream(sc, net, block_elements)]))
        return log_weights[0]

    public = {"k": len(net), "shape": (sc.X.shape[1],), "weight": sc.k_eps, "variant": sc.variant}
    if batch is not None:
        public["batch"] = batch
    index = record_call(
        "categorical",
        data=lambda: all_log_weights() / sc.k_eps,
        sensitivity=1.0,
        norm="linf",
        privacy={"epsilon": sc.eps},
        law=lambda: {"log_weights": all_log_weights()},
        public=public,
        sample=lambda: drawn.append(_streaming_draws(sc, net, size, gen, block_elements)) or drawn[0][1],
        site="[000 Alg. 1 step 2]" if sc.theta == 2.0 else "[000 Alg. 2 step 2]",
    )
    points, own_index = drawn[0]
    if not np.array_equal(index, own_index):  # replaying: the forced output's points
        points = np.asarray(net.points(), dtype=np.float64)[index]
    return points, index


def _streaming_draws(sc, net, size, gen, block_elements):
    """``size`` draws of the two-level Gumbel-max of :func:`streaming_gumbel_max_sample`: (points, indices)."""
    d = sc.X.shape[1]
    best_key = np.full(size, -np.inf)
    best_pts = np.zeros((size, d))
    best_idx = np.full(size, -1, dtype=np.int64)
    for start, pts, lw in _stream(sc, net, block_elements):
        lse = logsumexp(lw)
        keys = lse + gen.gumbel(size=size)
        better = keys > best_key
        m = int(np.count_nonzero(better))
        if m == 0:
            continue
        best_key[better] = keys[better]
        cdf = np.cumsum(np.exp(lw - lse))
        j = np.searchsorted(cdf, gen.random(m) * cdf[-1], side="right")
        j = np.minimum(j, lw.size - 1)
        best_pts[better] = pts[j]
        best_idx[better] = start + j
    return best_pts, best_idx


def algorithm1(
    X: ArrayLike,
    y: ArrayLike,
    net: GridNet | ArrayNet | ArrayLike,
    epsilon: float,
    iota: float,
    variant: str = "printed",
    size: int | None = None,
    rng: RNGLike = None,
) -> NDArray[np.float64]:
    """[000 Alg. 1] (second moment; psi of [000 eq. (6)]): ``size`` outputs (or one if ``None``).

    Parameters
    ----------
    X : array_like, shape (n, d)
        Features, finite.
    y : array_like, shape (n,)
        Responses, finite.
    net : GridNet, ArrayNet or array_like of shape (N, d)
        The range ``W-tilde_zeta`` of [000 Alg. 1 step 1] (:func:`~reference.wang_xu.nets.as_net`).
    epsilon : float
        Privacy parameter, finite and > 0.
    iota : float
        Truncation scale, finite and > 0.
    variant : {"printed", "standard", "calibrated"}, default "printed"
        The exponent (:func:`~reference.wang_xu.l1_regression.exponent_factor`).
    size : int or None, default None
        Number of independent outputs, ``>= 0``; ``None`` for one.
    rng : numpy.random.Generator, int, SeedSequence or None, default None
        Source of randomness (:func:`~reference.validation.as_generator`).

    Returns
    -------
    numpy.ndarray of float64, shape (d,) or (size, d)
        The output net point(s).

    Raises
    ------
    TypeError
        If an array is not an array of real numbers, a parameter not a real number, ``size`` not an integer or
        ``rng`` not a generator or seed.
    ValueError
        If ``X`` or ``y`` is empty or not finite, they differ in length, the net is empty or its dimension is
        not ``d``, ``epsilon`` or ``iota`` is not finite and positive, or ``variant``
        unknown, or ``size < 0``.

    References
    ----------
    .. [1] [000 Alg. 1], [000 Thm. 1].

    Examples
    --------
    >>> X = np.array([[1.0], [1.0], [1.0]]); y = np.array([0.1, 0.2, 0.3])
    >>> net = np.array([[0.0], [0.2], [5.0]])
    >>> algorithm1(X, y, net, epsilon=1.0, iota=1.0, rng=0).shape, algorithm1(X, y, net, 1.0, 1.0, size=4, rng=0).shape
    ((1,), (4, 1))
    """
    out = _algorithm_draws(X, y, net, epsilon, iota, 2.0, variant, size, rng)
    return out[0] if size is None else out


def algorithm2(
    X: ArrayLike,
    y: ArrayLike,
    net: GridNet | ArrayNet | ArrayLike,
    epsilon: float,
    iota: float,
    theta: float,
    variant: str = "printed",
    size: int | None = None,
    rng: RNGLike = None,
) -> NDArray[np.float64]:
    """[000 Alg. 2] (theta-th moment; psi of [000 eq. (16)]): ``size`` outputs (or one if ``None``).

    Parameters
    ----------
    X : array_like, shape (n, d)
        Features, finite.
    y : array_like, shape (n,)
        Responses, finite.
    net : GridNet, ArrayNet or array_like of shape (N, d)
        The range ``W-tilde_zeta`` of [000 Alg. 1 step 1] (:func:`~reference.wang_xu.nets.as_net`).
    epsilon : float
        Privacy parameter, finite and > 0.
    iota : float
        Truncation scale, finite and > 0.
    theta : float
        Moment order in (1, 2].
    variant : {"printed", "standard", "calibrated"}, default "printed"
        The exponent (:func:`~reference.wang_xu.l1_regression.exponent_factor`).
    size : int or None, default None
        Number of independent outputs, ``>= 0``; ``None`` for one.
    rng : numpy.random.Generator, int, SeedSequence or None, default None
        Source of randomness (:func:`~reference.validation.as_generator`).

    Returns
    -------
    numpy.ndarray of float64, shape (d,) or (size, d)
        The output net point(s).

    Raises
    ------
    TypeError
        If an array is not an array of real numbers, a parameter not a real number, ``size`` not an integer or
        ``rng`` not a generator or seed.
    ValueError
        If ``X`` or ``y`` is empty or not finite, they differ in length, the net is empty or its dimension is
        not ``d``, ``epsilon`` or ``iota`` is not finite and positive, ``theta`` not in (1, 2], or ``variant``
        unknown, or ``size < 0``.

    References
    ----------
    .. [1] [000 Alg. 2], [000 Thm. 2].

    Examples
    --------
    >>> X = np.array([[1.0], [1.0], [1.0]]); y = np.array([0.1, 0.2, 0.3])
    >>> net = np.array([[0.0], [0.2], [5.0]])
    >>> algorithm2(X, y, net, epsilon=1.0, iota=1.0, theta=1.5, size=3, rng=0).shape
    (3, 1)
    """
    out = _algorithm_draws(X, y, net, epsilon, iota, theta, variant, size, rng)
    return out[0] if size is None else out


def _algorithm_draws(X, y, net, epsilon, iota, theta, variant, size, rng) -> NDArray[np.float64]:
    """The points of :func:`streaming_gumbel_max_sample` (``size=None``: one run, recorded without a batch)."""
    sc = _Scorer(X, y, epsilon, iota, theta, variant)
    net = as_net(net, sc.X.shape[1])
    runs = check_integer("size", 1 if size is None else size, minimum=0)
    gen = as_generator(rng)
    return _recorded_draws(sc, net, runs, gen, DEFAULT_BLOCK_ELEMENTS, None if size is None else (runs,))[0]
