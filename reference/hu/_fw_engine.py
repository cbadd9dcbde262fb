"""The Frank-Wolfe engine shared by 002's Algorithms 1 and 2: step sizes, sampled chains, enumerated paths.

Both algorithms output a deterministic function of the sequence of selected vertices: ``w^t =
(1 - eta_{t-1}) w^{t-1} + eta_{t-1} v_t`` ([002 Alg. 1 step 7], [002 Alg. 2 step 5]).  :func:`_fw_run`
samples ``size`` chains at once, drawing each selection from its exact log-probabilities (Gumbel-max);
:func:`_fw_enumerate` (and :func:`_fw_enumerate_batch`, for many datasets at once) lists the ``|V|^T``
selection paths with their log-probabilities, and :func:`_merge_outputs` groups the paths that end at the
same ``w^T`` (exact float equality, as the sampler computes them), so the output law is exact.  The
algorithm supplies ``step_logp(t, W)``: the law of the vertex selected at iteration ``t`` from each
current iterate (a row of ``W``).

References
----------
.. [1] L. Hu, S. Ni, H. Xiao and D. Wang, ``002_6c597657f27a60c9.txt``: [002 Alg. 1 step 7], [002 Alg. 2 step 5],
       [002 Thm. 2] and [002 Sec. 6.2] (the step sizes), [002 Def. 3] (the exponential mechanism).
"""

from __future__ import annotations

import functools

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..mechanisms import gumbel_max_sample, record_call, recorder_active
from ..validation import check_finite_array, check_integer

__all__ = ["fw_step_sizes", "MAX_PATHS", "STEP_SCHEDULES"]

#: Largest number of selection paths ``|V|^T`` the exact enumerations accept.
MAX_PATHS = 200_000

STEP_SCHEDULES = ("theorem2", "section6")


def fw_step_sizes(T: int, schedule: str | ArrayLike = "theorem2") -> NDArray[np.float64]:
    """Step sizes ``eta_{t-1}`` used at iterations ``t = 1..T`` (Algorithm 1 step 7, Algorithm 2 step 5).

    Parameters
    ----------
    T : int
        Number of iterations, >= 1.
    schedule : {"theorem2", "section6"} or array_like, default "theorem2"
        ``"theorem2"``: ``eta_{t-1} = 2/(t+2)`` as in Theorems 2 and 5 (first step 2/3).
        ``"section6"``: ``eta_t = 2/(t+2)`` as written in Section 6.2, i.e.
        ``eta_{t-1} = 2/(t+1)`` (first step 1, the classical Frank-Wolfe schedule).
        An array gives the ``T`` values directly; each must lie in (0, 1].

    Returns
    -------
    numpy.ndarray of float64, shape (T,)
        The step sizes.

    Raises
    ------
    TypeError
        If ``T`` is not an integer, or an array ``schedule`` not an array of real numbers.
    ValueError
        If ``T < 1``, ``schedule`` is an unknown name, or an array ``schedule`` is not of shape (T,), finite,
        with entries in (0, 1].

    References
    ----------
    .. [1] [002 Alg. 1 step 7], [002 Alg. 2 step 5], [002 Thm. 2], [002 Thm. 5], [002 Sec. 6.2].

    Examples
    --------
    >>> fw_step_sizes(3), fw_step_sizes(3, "section6")
    (array([0.66666667, 0.5       , 0.4       ]), array([1.        , 0.66666667, 0.5       ]))
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


def _fw_run(w0, etas, V, step_logp, size, rng, declare=None):
    """Run ``size`` independent Frank-Wolfe chains; ``step_logp(t, W) -> (P, k)``.

    Each iteration draws one vertex per chain from its row of exact
    log-probabilities ([002 Def. 3] via :func:`reference.mechanisms.gumbel_max_sample`).
    ``declare(t, W)`` gives the selection's event for an active recorder (:func:`_select_vertices`).
    """
    W = np.repeat(w0[None, :], size, axis=0)
    path = np.empty((size, etas.size), dtype=np.int64)
    for t in range(1, etas.size + 1):  # loop over iterations only; vectorised over runs
        # Runs share at most |V|^(t-1) distinct iterates: score each distinct one once.
        if W.shape[0] == 1:  # one run: its iterate is the distinct one (np.unique would return a copy of it)
            logp = step_logp(t, W.copy())
        else:
            Wu, inv = np.unique(W, axis=0, return_inverse=True)
            logp = step_logp(t, Wu)[np.asarray(inv).ravel()]
        j = _select_vertices(t, W, logp, declare, rng)
        path[:, t - 1] = j
        W = (1.0 - etas[t - 1]) * W + etas[t - 1] * V[j]
    return W, path


def _select_vertices(t, W, logp, declare, rng):
    """One Gumbel-max draw per row of ``logp``, reported to an active recorder as the algorithm declares it.

    ``declare(t, W)`` returns the event's ``data`` (the scores of every run's vertices), ``sensitivity``,
    ``norm``, ``privacy``, ``public`` and ``site``; it is called only while a recorder is active, so an
    unrecorded run computes nothing more.  ``law`` is ``logp`` itself, the array the draw consumes.
    """
    if declare is None or not recorder_active():
        return gumbel_max_sample(logp, rng=rng)
    return record_call(
        "categorical", law={"log_weights": logp}, sample=lambda: gumbel_max_sample(logp, rng=rng), **declare(t, W)
    )


def _fw_enumerate(w0, etas, V, step_logp):
    """All ``|V|^T`` selection paths with their log-probabilities and final iterates."""
    k, T = V.shape[0], etas.size
    if k**T > MAX_PATHS:
        raise ValueError(f"|V|^T = {k}^{T} = {k**T} selection paths exceeds MAX_PATHS = {MAX_PATHS}")
    W = w0[None, :].copy()
    paths = np.empty((1, 0), dtype=np.int64)
    logp = np.zeros(1)
    for t in range(1, T + 1):
        lp = step_logp(t, W)  # (P, k)
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
        lp = step_logp_batch(t, W)  # (B, P, k)
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
