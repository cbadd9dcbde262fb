"""Peeling ([002 Alg. 4]): private top-s selection by repeated report-noisy-max.

The vector ``v`` has shape ``(..., d)``: one vector per row, the leading axes a
batch of independent inputs (a single vector is a batch of one).  The sampler
runs the ``s`` rounds once for the whole batch; the exact laws are computed
row by row.

References
----------
.. [1] T. T. Cai, Y. Wang and L. Zhang, "The cost of privacy: optimal rates of convergence for
       parameter estimation with differential privacy", Annals of Statistics 2021 (ref. [13] of 002).
.. [2] Hu, Ni, Xiao and Wang, [002 Alg. 4] and [002 Lemma 10].
"""

from __future__ import annotations

import itertools
import math

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..validation import (
    RNGLike,
    as_generator,
    check_delta,
    check_epsilon,
    check_finite_result,
    check_integer,
    check_positive,
)
from ._batch import check_candidate_array, draw_public, draw_shape, flat_batch
from .recorder import record_call
from .report_noisy_max import report_noisy_max_log_prob

__all__ = ["peeling_scale", "peeling", "peeling_selection_log_prob", "peeling_support_log_prob", "Peeling"]


def peeling_scale(s: int, epsilon: float, delta: float, lam: float) -> float:
    """Laplace scale of [002 Alg. 4] steps 4 and 7: ``2 * lam * sqrt(3 s log(1/delta)) / epsilon``.

    Parameters
    ----------
    s : int
        Number of coordinates selected, ``>= 1``.
    epsilon : float
        Privacy parameter, finite and > 0.
    delta : float
        Privacy parameter, in (0, 1).
    lam : float
        The l_inf sensitivity bound ``lambda``, finite and > 0.

    Returns
    -------
    float
        The Laplace scale ``b``.

    Raises
    ------
    TypeError
        If ``s`` is not an integer or another parameter not a real number.
    ValueError
        If ``s < 1``, ``epsilon`` or ``lam`` is not finite and positive, or ``delta`` not in (0, 1).

    References
    ----------
    .. [1] [002 Alg. 4 steps 4 and 7], [002 Lemma 10].

    Examples
    --------
    >>> round(peeling_scale(2, 1.0, 1e-5, 0.5), 6)
    8.311291
    """
    s = check_integer("s", s, minimum=1)
    lam_ = check_positive("lam", lam)
    dlt = check_delta(delta)
    eps = check_epsilon(epsilon)
    scale = 2.0 * lam_ * math.sqrt(3.0 * s * math.log(1.0 / dlt)) / eps
    return check_finite_result("peeling_scale", scale, s=s, epsilon=eps, delta=dlt, lam=lam_)


def _check_v_s(v: ArrayLike, s: int) -> tuple[NDArray[np.float64], int]:
    v = check_candidate_array("v", v)
    s = check_integer("s", s, minimum=1, maximum=v.shape[-1])
    return v, s


def peeling(
    v: ArrayLike, s: int, epsilon: float, delta: float, lam: float, size: int | None = None, rng: RNGLike = None
) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """Run [002 Alg. 4] on every row of ``v``; ``size`` independent runs per row, vectorised.

    Steps: (2) S = {}; (3-6) for i = 1..s draw ``w_i ~ Lap(b)^d`` and append
    ``argmax_{j not in S} |v_j| + w_{i,j}``; (7) draw ``w~ ~ Lap(b)^d``;
    (8) return ``v_S + w~_S`` (zero outside S), with ``b`` from :func:`peeling_scale`.

    Parameters
    ----------
    v : array_like, shape (..., d)
        One vector per row, finite.
    s : int
        Number of coordinates to select, ``1 <= s <= d``.
    epsilon, delta : float
        Privacy of one run (given ``||v(D) - v(D')||_inf <= lam``, [002 Lemma 10]).
    lam : float
        The l_inf sensitivity bound ``lambda`` of ``v``, > 0.
    size : int or None, default None
        ``None``: one run per row.  An int ``>= 0``: ``size`` runs per row, leading axis ``size``.
    rng : numpy.random.Generator, int, SeedSequence or None, default None
        Source of randomness (:func:`~reference.validation.as_generator`).

    Returns
    -------
    values : numpy.ndarray of float64, shape (..., d) or (size, ..., d)
        The released vectors, zero outside the selected coordinates.
    selected : numpy.ndarray of int64, shape (..., s) or (size, ..., s)
        The indices in the order they were peeled.

    Raises
    ------
    TypeError
        If ``v`` is not an array of real numbers, ``s`` not an integer, or a privacy parameter not a real
        number.
    ValueError
        If ``v`` is a scalar, empty or not finite; ``s`` is not in ``[1, d]``; ``epsilon`` or ``lam`` is not
        finite and positive or ``delta`` not in (0, 1).

    Notes
    -----
    Runs are laid out as rows of an ``(R, d)`` array (``R`` = number of runs,
    C order of ``(size, ...)``); each round draws one ``(R, d)`` block of Laplace
    noise and the final release another, so one row and ``size = R`` runs of
    that row consume the same stream.

    References
    ----------
    .. [1] [002 Alg. 4], [002 Lemma 10].

    Examples
    --------
    >>> values, selected = peeling([0.0, 100.0, 0.0, 200.0], 2, 1.0, 1e-5, 0.01, rng=0)
    >>> sorted(selected.tolist()), bool(values[0] == 0.0 and values[2] == 0.0)
    ([1, 3], True)
    """
    v, s = _check_v_s(v, s)
    b = peeling_scale(s, epsilon, delta, lam)
    gen = as_generator(rng)
    return record_call(
        "peeling",
        data=v,
        sensitivity=lam,
        norm="linf",
        privacy={"epsilon": epsilon, "delta": delta},
        law={"v": v, "s": s, "scale": b},
        public={**draw_public(v.shape[-1:], size, v.shape[:-1]), "s": s},
        sample=lambda: _peeling_draws(v, s, b, size, gen),
        site="[002 Alg. 4]",
    )


def _peeling_draws(v, s, b, size, gen):
    """Steps 2-8 of [002 Alg. 4] on validated inputs, with the Laplace scale ``b``."""
    d = v.shape[-1]
    shape = draw_shape(v.shape[:-1], size)
    runs = np.broadcast_to(v, shape + (d,)).reshape(-1, d)
    n = runs.shape[0]
    absv = np.abs(runs)
    taken = np.zeros((n, d), dtype=bool)
    selected = np.empty((n, s), dtype=np.int64)
    rows = np.arange(n)
    for i in range(s):  # s rounds, each vectorised over all runs
        keys = np.where(taken, -np.inf, absv + gen.laplace(0.0, b, size=(n, d)))
        j = np.argmax(keys, axis=1)
        selected[:, i] = j
        taken[rows, j] = True
    noise = gen.laplace(0.0, b, size=(n, d))
    values = np.where(taken, runs + noise, 0.0)
    return values.reshape(shape + (d,)), selected.reshape(shape + (s,))


def peeling_selection_log_prob(
    v: ArrayLike, selected: ArrayLike, epsilon: float, delta: float, lam: float, s: int | None = None
) -> float | NDArray[np.float64]:
    """Exact log-probability that Peeling picks ``selected`` in that order, for every row.

    The rounds use independent noise, so the probability is the product of the
    report-noisy-max probabilities of each pick among the remaining coordinates.

    Parameters
    ----------
    v : array_like, shape (..., d)
        One vector per row, finite.
    selected : array_like of int, shape (..., r)
        Distinct indices (a prefix of a run when ``r < s``); broadcast against ``v``.
    epsilon, delta, lam : float
        As in :func:`peeling`.
    s : int or None, default None
        Number of rounds of the run (sets the noise scale), ``r <= s <= d``; ``r`` by default.

    Returns
    -------
    float or numpy.ndarray of float64
        Shape of the broadcast leading axes (a float for one vector).

    Raises
    ------
    TypeError
        If ``v`` is not an array of real numbers, ``s`` not an integer, or a privacy parameter not a real
        number.
    ValueError
        If ``v`` is a scalar, empty or not finite; ``selected`` is not a non-empty integer array of distinct
        indices in ``[0, d)``; ``s`` is not in ``[r, d]``; ``epsilon`` or ``lam`` is not finite and positive
        or ``delta`` not in (0, 1).

    References
    ----------
    .. [1] [002 Alg. 4].

    Examples
    --------
    >>> p = np.exp(peeling_selection_log_prob([1.0, 0.0], [0], 1.0, 0.1, 1.0))
    >>> bool(0.5 < p < 1.0)
    True
    """
    v = check_candidate_array("v", v)
    sel = np.asarray(selected)
    if sel.ndim == 0 or sel.shape[-1] == 0 or not np.issubdtype(sel.dtype, np.integer):
        raise ValueError(f"selected must be a non-empty integer array of indices, got {selected!r}")
    s = sel.shape[-1] if s is None else check_integer("s", s, minimum=sel.shape[-1], maximum=v.shape[-1])
    b = peeling_scale(s, epsilon, delta, lam)
    batch = np.broadcast_shapes(v.shape[:-1], sel.shape[:-1])
    v_rows, _ = flat_batch(np.broadcast_to(v, batch + v.shape[-1:]))
    sel_rows, _ = flat_batch(np.broadcast_to(sel, batch + sel.shape[-1:]))
    out = np.array(
        [_selection_log_prob_row(row, [int(j) for j in picks], b) for row, picks in zip(v_rows, sel_rows)]
    ).reshape(batch)
    return float(out) if out.ndim == 0 else out


def _selection_log_prob_row(v, sel, b):
    if len(set(sel)) != len(sel) or any(j < 0 or j >= v.size for j in sel):
        raise ValueError(f"selected must be distinct indices in [0, {v.size}), got {sel}")
    remaining = list(range(v.size))
    total = 0.0
    for j in sel:
        logp = report_noisy_max_log_prob(np.abs(v[remaining]), b)
        total += logp[remaining.index(j)]
        remaining.remove(j)
    return total


def peeling_support_log_prob(
    v: ArrayLike, s: int, epsilon: float, delta: float, lam: float
) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
    """Exact law of the ordered selection over all ``d!/(d-s)!`` sequences, for every row (small d only).

    Parameters
    ----------
    v : array_like, shape (..., d)
        One vector per row, finite.
    s : int
        Number of coordinates selected, ``1 <= s <= d``.
    epsilon, delta, lam : float
        As in :func:`peeling`.

    Returns
    -------
    sequences : numpy.ndarray of int64, shape (m, s)
        Every ordered selection, shared by all rows (``m = d!/(d-s)!``).
    log_probabilities : numpy.ndarray of float64, shape (..., m)
        The log-probability of each sequence, per row.

    Raises
    ------
    TypeError
        If ``v`` is not an array of real numbers, ``s`` not an integer, or a privacy parameter not a real
        number.
    ValueError
        If ``v`` is a scalar, empty or not finite; ``s`` is not in ``[1, d]``; ``epsilon`` or ``lam`` is not
        finite and positive or ``delta`` not in (0, 1).
        Also if ``d!/(d-s)!`` exceeds 200,000 sequences.

    References
    ----------
    .. [1] [002 Alg. 4].

    Examples
    --------
    >>> seqs, logp = peeling_support_log_prob([3.0, 1.0, 2.0], 2, 1.0, 0.1, 1.0)
    >>> seqs.shape, round(float(np.exp(logp).sum()), 9)
    ((6, 2), 1.0)
    """
    v, s = _check_v_s(v, s)
    d = v.shape[-1]
    if math.perm(d, s) > 200_000:
        raise ValueError(f"d={d}, s={s} gives {math.perm(d, s)} sequences; too many to enumerate")
    b = peeling_scale(s, epsilon, delta, lam)
    seqs = np.array(list(itertools.permutations(range(d), s)), dtype=np.int64)
    rows, batch_shape = flat_batch(v)
    logp = np.array([_support_log_prob_row(np.abs(row), seqs, b) for row in rows])
    return seqs, logp.reshape(batch_shape + (seqs.shape[0],))


def _support_log_prob_row(absv, seqs, b):
    # Each round is report-noisy-max over the coordinates not yet taken; its law depends only
    # on that set, so it is computed once per set (sum_i C(d, i) sets instead of d!/(d-s)! paths).
    round_law = {}

    def law(taken):
        if taken not in round_law:
            remaining = [j for j in range(absv.size) if j not in taken]
            round_law[taken] = dict(zip(remaining, report_noisy_max_log_prob(absv[remaining], b)))
        return round_law[taken]

    return np.array([sum(law(frozenset(q[:i]))[q[i]] for i in range(seqs.shape[1])) for q in seqs])


class Peeling:
    """Peeling's selection step in the mechanism protocol; ``data`` is the vector ``v(D)``.

    ``sample(data, size, rng)`` returns the ordered selected indices (one row per run); ``log_prob(data)``
    their exact distribution as ``(sequences, log_probabilities)``.  The released values add continuous
    Laplace noise on top (use :func:`peeling` for them).

    Parameters
    ----------
    s : int
        Number of coordinates selected, ``>= 1``.
    epsilon : float
        Privacy parameter, finite and > 0.
    delta : float
        Privacy parameter, in (0, 1).
    lam : float
        The l_inf sensitivity bound of ``v``, finite and > 0.

    Raises
    ------
    TypeError
        If ``s`` is not an integer or another parameter not a real number.
    ValueError
        If ``s < 1``, ``epsilon`` or ``lam`` is not finite and positive, or ``delta`` not in (0, 1).

    References
    ----------
    .. [1] [002 Alg. 4], [002 Lemma 10].

    Examples
    --------
    >>> mech = Peeling(s=1, epsilon=1.0, delta=0.1, lam=1.0)
    >>> seqs, logp = mech.log_prob([2.0, 0.0])
    >>> seqs.tolist(), mech.sample([2.0, 0.0], 3, rng=0).shape
    ([[0], [1]], (3, 1))
    """

    finite_output = True

    def __init__(self, s: int, epsilon: float, delta: float, lam: float) -> None:
        self.s = check_integer("s", s, minimum=1)
        self.epsilon, self.delta, self.lam = check_epsilon(epsilon), check_delta(delta), check_positive("lam", lam)

    def log_prob(self, data: ArrayLike) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
        return peeling_support_log_prob(data, self.s, self.epsilon, self.delta, self.lam)

    def sample(self, data: ArrayLike, size: int, rng: RNGLike = None) -> NDArray[np.int64]:
        return peeling(data, self.s, self.epsilon, self.delta, self.lam, size, rng)[1]
