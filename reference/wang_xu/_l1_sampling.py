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

import numpy as np
from scipy.special import logsumexp

from ._l1_scores import _Scorer
from .nets import as_net
from ..mechanisms import normalize_log_weights
from ..validation import as_generator, check_integer

__all__ = ["DEFAULT_BLOCK_ELEMENTS", "wang_xu_log_prob", "streaming_log_normaliser", "streaming_log_prob_chunks",
           "streaming_gumbel_max_sample", "algorithm1", "algorithm2"]

#: Elements of the (records x net points) block scored at once (8 MB of float64).
DEFAULT_BLOCK_ELEMENTS = 1 << 20


def _block_size(n, block_elements):
    block_elements = check_integer("block_elements", block_elements, minimum=1)
    return max(1, block_elements // max(1, n))


def wang_xu_log_prob(X, y, net, epsilon, iota, theta=2.0, variant="printed"):
    """Exact output distribution of [000 Alg. 1] (``theta = 2``) / [000 Alg. 2] over the net, in memory.

    Parameters
    ----------
    X : array_like, shape (n, d)
    y : array_like, shape (n,)
    net : net object of :mod:`reference.wang_xu.nets` or array (N, d)
        The range ``W-tilde_zeta`` of [000 Alg. 1 step 1].
    epsilon : float
        Privacy parameter, > 0.
    iota : float
        Truncation scale, > 0.
    theta : float
        ``2`` ([000 Alg. 1], psi of [000 eq. (6)]) or in ``(1, 2]`` ([000 Alg. 2], psi of [000 eq. (16)]).
    variant : {"printed", "standard", "calibrated"}
        See the module docstring.

    Returns
    -------
    points : numpy.ndarray, shape (N, d)
    log_prob : numpy.ndarray, shape (N,)
        ``log P[output = points[k]]``, normalised by log-sum-exp.

    References
    ----------
    [000 Alg. 1 step 2], [000 Alg. 2 step 2], [000 Def. 2].
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


def streaming_log_normaliser(X, y, net, epsilon, iota, theta=2.0, variant="printed", *,
                             block_elements=DEFAULT_BLOCK_ELEMENTS):
    """``log sum_w exp(log-weight(w))`` over the net, block by block (streaming log-sum-exp).

    Memory is ``O(n * block)`` whatever the net size; the net is enumerated lazily.
    """
    sc = _Scorer(X, y, epsilon, iota, theta, variant)
    net = as_net(net, sc.X.shape[1])
    total = -math.inf
    for _, _, lw in _stream(sc, net, block_elements):
        total = float(np.logaddexp(total, logsumexp(lw)))
    return total


def streaming_log_prob_chunks(X, y, net, epsilon, iota, theta=2.0, variant="printed", *,
                              block_elements=DEFAULT_BLOCK_ELEMENTS):
    """Yield ``(start, points, log_prob)`` blocks of the exact distribution (two passes over the net)."""
    log_z = streaming_log_normaliser(X, y, net, epsilon, iota, theta, variant, block_elements=block_elements)
    sc = _Scorer(X, y, epsilon, iota, theta, variant)
    net = as_net(net, sc.X.shape[1])
    for start, pts, lw in _stream(sc, net, block_elements):
        yield start, pts, lw - log_z


def streaming_gumbel_max_sample(X, y, net, epsilon, iota, theta=2.0, variant="printed", size=1, rng=None, *,
                                block_elements=DEFAULT_BLOCK_ELEMENTS, return_index=False):
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

    Returns
    -------
    numpy.ndarray, shape (size, d)
        The sampled net points (and their net indices if ``return_index``).
    """
    sc = _Scorer(X, y, epsilon, iota, theta, variant)
    net = as_net(net, sc.X.shape[1])
    size = check_integer("size", size, minimum=0)
    gen = as_generator(rng)
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
    return (best_pts, best_idx) if return_index else best_pts


def algorithm1(X, y, net, epsilon, iota, variant="printed", size=None, rng=None):
    """[000 Alg. 1] (second moment; psi of [000 eq. (6)]): ``size`` outputs (or one if ``None``)."""
    out = streaming_gumbel_max_sample(X, y, net, epsilon, iota, 2.0, variant, 1 if size is None else size, rng)
    return out[0] if size is None else out


def algorithm2(X, y, net, epsilon, iota, theta, variant="printed", size=None, rng=None):
    """[000 Alg. 2] (theta-th moment; psi of [000 eq. (16)]): ``size`` outputs (or one if ``None``)."""
    out = streaming_gumbel_max_sample(X, y, net, epsilon, iota, theta, variant, 1 if size is None else size, rng)
    return out[0] if size is None else out
