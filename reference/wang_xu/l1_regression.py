"""Private l1 regression by the exponential mechanism over a zeta-net: [000 Alg. 1] and [000 Alg. 2].

The score of a net point ``w`` is the truncated empirical risk of [000 eq. (2)],
``L-hat_iota(w, D) = (1/(n iota)) sum_i psi(iota |y_i - <x_i, w>|)``, with psi of [000 eq. (6)]
([000 Alg. 1], ``theta = 2``) or [000 eq. (16)] ([000 Alg. 2], ``1 < theta <= 2``).  Writing
``S(w) = n iota L-hat_iota(w, D) = sum_i psi(iota |r_i(w)|)``, both algorithms output ``w``
with probability proportional to ``exp(-c * S(w))`` where

* ``variant="printed"`` ([000 Alg. 1 step 2] / [000 Alg. 2 step 2] as printed):
  ``exp(-n iota eps L-hat / log theta)``, i.e. ``c = eps / log theta``;
* ``variant="standard"``: the exponential mechanism of [000 Def. 2],
  ``exp(eps u / (2 Delta))`` with ``u = -L-hat`` and the sensitivity stated in the proofs of
  [000 Thm. 1] and [000 Thm. 2], ``Delta = 2 log theta / (n iota)``, i.e. ``c = eps / (4 log theta)``;
* ``variant="calibrated"``: [000 Def. 2] with the true replace-one sensitivity
  ``Delta = log theta / (n iota)`` (the text before [000 Alg. 2]),
  ``exp(-n iota eps L-hat / (2 log theta))``, i.e. ``c = eps / (2 log theta)``: it spends the whole
  budget over replace-one neighbours, where ``standard`` spends half.

Proof note (sensitivity and privacy).  For ``t >= 0``, ``0 <= psi(t) <= log theta``
(:func:`reference.wang_xu.truncation.psi`).  Replacing one record changes exactly one term of
``S(w)``, by at most ``log theta`` in absolute value, for every ``w`` simultaneously; so
``Delta(S) = log theta`` and ``Delta(L-hat) = log theta / (n iota)`` (the paper states
``2 log theta / (n iota)`` in the proofs of [000 Thm. 1] and [000 Thm. 2] -- twice the true
value, a valid bound -- and ``2 log theta / (2 n iota)`` in the text before [000 Alg. 2]).  With log-weight
``-c S(w)``, each log-weight moves by at most ``c log theta`` and so does the log-normaliser,
so the privacy loss is at most ``2 c log theta``: ``2 eps`` for the printed variant (not the
``eps`` of [000 Thm. 1] and [000 Thm. 2]; the claim checkers measure it exactly) and ``eps / 2`` for the
standard variant (``eps``-DP, with room to spare because the stated sensitivity is loose) and
``eps`` for the calibrated one.  Over add/remove neighbours (one record added or removed, ``iota``
fixed) each log-weight moves by ``-c psi_new(w)`` in ``[-c log theta, 0]``, all in one direction, and
the log-normaliser by the same range in the other, so the loss is at most ``c log theta``: ``eps``
for the printed variant (exactly eps-DP), ``eps/4`` standard, ``eps/2`` calibrated.

Numerics.  Residuals are computed on records rescaled by a power of two per record
(exact), so records with entries up to ``1.7e308`` never give ``inf - inf``; a scaled
residual is multiplied back after the ``iota |.|`` step, where an overflow to ``inf`` is
harmless (``psi(inf) = log theta``).  The log-weights of a block of net points are
``-log prod_i q_i`` with one ``log`` per block of records and the residuals fused
(:mod:`reference.wang_xu._score_kernel`, error ``O(n u)`` absolute, stated there); the per-record
terms (rescoring) use the same in-order inner products (``_score_kernel.dot_products``, not a
BLAS product) plus elementwise psi; large nets are scored block by block with a streaming log-sum-exp
and sampled with a streaming (block-level) Gumbel-max, in memory ``O(n * block + size)``.

References
----------
.. [1] D. Wang and J. Xu, "Differentially private l1-norm linear regression with heavy-tailed
       data", ``000_e64de114947d2122.txt``: [000 eq. (2)], [000 Alg. 1], [000 Alg. 2], [000 Thm. 1],
       [000 Thm. 2], [000 Def. 2] (exponential mechanism).
"""

from __future__ import annotations

import math

import numpy as np
from scipy.special import logsumexp

from .nets import L2BallNet, as_net
from ..mechanisms import normalize_log_weights
from . import _score_kernel
from . import _risk_kernel
from .truncation import _psi_nonneg, check_theta
from ..records import split_records
from ..validation import (check_choice, as_generator, check_delta, check_epsilon, check_finite_array, check_integer,
                         check_positive, check_probability, check_same_length)

__all__ = ["VARIANTS", "check_iota", "check_regression_data", "l1_loss",
           "record_psi_terms", "truncated_empirical_risk", "exponent_factor", "log_weights",
           "wang_xu_log_prob", "streaming_log_normaliser", "streaming_log_prob_chunks",
           "streaming_gumbel_max_sample", "EXPONENT_FACTORS", "algorithm1", "algorithm2", "WangXuMechanism",
           "make_mechanism", "theorem1_parameters", "theorem2_parameters"]

VARIANTS = ("printed", "standard", "calibrated")

#: ``k`` of the log-weight ``-k eps S(w) / log theta`` of each variant (see the module docstring).
EXPONENT_FACTORS = {"printed": 1.0, "standard": 0.25, "calibrated": 0.5}

#: Elements of the (records x net points) block scored at once (8 MB of float64).
DEFAULT_BLOCK_ELEMENTS = 1 << 20


def check_iota(iota, name: str = "iota") -> float:
    """Truncation scale iota of [000 eq. (2)]: a finite number > 0."""
    return check_positive(name, iota)


def _check_variant(variant):
    return check_choice("variant", variant, VARIANTS)


def check_regression_data(X, y):
    """Validate ``X`` (n, d) and ``y`` (n,): finite, non-empty, same length."""
    X = check_finite_array("X", X, ndim=2)
    y = check_finite_array("y", y, ndim=1)
    check_same_length("X", X, "y", y)
    if X.shape[1] < 1:
        raise ValueError(f"X must have at least one feature column, got shape {X.shape}")
    return X, y


def _scaled(X, y):
    """Rows of ``[X, y]`` divided by a power of two ``s_i`` so that ``max |row| in [1, 2)`` (exact)."""
    Z = np.concatenate([X, y[:, None]], axis=1)
    m = np.max(np.abs(Z), axis=1)
    _, e = np.frexp(m)
    s = np.where(m > 0, np.ldexp(1.0, e - 1), 1.0)
    Zs = Z / s[:, None]
    return Zs[:, :-1], Zs[:, -1], s


def _psi_block(W, Xs, ys, s, iota, theta):
    """``psi(iota |y_i - <x_i, w_k>|)`` for a block of net points ``W`` (k, d): array (n, k).

    The inner products summed coordinate after coordinate (:func:`reference.wang_xu._score_kernel.dot_products`,
    the residual of every scorer), then elementwise psi (no loop over records or points).
    """
    resid = np.abs(ys[:, None] - _score_kernel.dot_products(Xs, W))
    with np.errstate(over="ignore"):
        t = (iota * resid) * s[:, None]          # 0 * s = 0; overflow gives +inf, psi(inf) = log theta
    return _psi_nonneg(t.ravel(), theta).reshape(t.shape)


def record_psi_terms(W, X, y, iota, theta=2.0):
    """Matrix ``psi(iota |y_i - <x_i, w_k>|)`` of shape (n, K), the summands of [000 eq. (2)].

    Parameters
    ----------
    W : array_like, shape (K, d) or (d,)
        Parameter vectors (e.g. net points).
    X : array_like, shape (n, d)
    y : array_like, shape (n,)
    iota : float
        Truncation scale, > 0.
    theta : float
        ``2`` for [000 eq. (6)], ``(1, 2)`` for [000 eq. (16)].

    Returns
    -------
    numpy.ndarray, shape (n, K)
        Entries in ``[0, log theta]``.
    """
    X, y = check_regression_data(X, y)
    W = np.atleast_2d(check_finite_array("W", W))
    if W.ndim != 2 or W.shape[1] != X.shape[1]:
        raise ValueError(f"W must have shape (K, {X.shape[1]}), got {W.shape}")
    iota = check_iota(iota)
    theta = check_theta(theta)
    Xs, ys, s = _scaled(X, y)
    return _psi_block(W, Xs, ys, s, iota, theta)


def truncated_empirical_risk(W, X, y, iota, theta=2.0):
    """Truncated empirical risk of [000 eq. (2)]: ``(1/(n iota)) sum_i psi(iota |y_i - <x_i, w>|)``.

    Returns an array of shape (K,) for ``W`` of shape (K, d), a float for ``W`` of shape (d,).

    References
    ----------
    [000 eq. (2)] with psi of [000 eq. (6)] (``theta = 2``) or [000 eq. (16)].

    Examples
    --------
    >>> float(truncated_empirical_risk([0.0], [[1.0]], [0.0], iota=1.0))
    0.0
    """
    single = np.ndim(W) == 1
    W2 = np.atleast_2d(W)
    if _risk_kernel.HAVE_NUMBA and not single and W2.ndim == 2 and W2.shape[0] >= 2:
        # the same sums in one compiled pass without the (n, K) matrix (~4x faster); the kernel's log1p and pow are
        # the C library's, numpy's its own SIMD loops on some CPUs, so within the bound of
        # tests/test_wang_xu_risk_kernel.py, bit for bit only where both run the same code
        X, y = check_regression_data(X, y)
        W2 = check_finite_array("W", W2)
        if W2.shape[1] != X.shape[1]:
            raise ValueError(f"W must have shape (K, {X.shape[1]}), got {W2.shape}")
        iota = check_iota(iota)
        theta = check_theta(theta)
        Xs, ys, s = _scaled(X, y)
        return _risk_kernel.risk_column_sums(Xs, ys, s, W2, iota, theta) / X.shape[0] / float(iota)
    T = record_psi_terms(W, X, y, iota, theta)
    n = T.shape[0]
    risk = T.sum(axis=0) / n / float(iota)
    return float(risk[0]) if single else risk


def l1_loss(W, X, y):
    """Empirical l1 risk ``(1/n) sum_i |y_i - <x_i, w>|`` (the problem of [000 eq. (1)] on the sample)."""
    X, y = check_regression_data(X, y)
    single = np.ndim(W) == 1
    W = np.atleast_2d(check_finite_array("W", W))
    if W.shape[1] != X.shape[1]:
        raise ValueError(f"W must have shape (K, {X.shape[1]}), got {W.shape}")
    Xs, ys, s = _scaled(X, y)
    # Scaled residuals are finite; weights s_i / n keep the sum finite unless the true mean overflows.
    with np.errstate(over="ignore"):
        risk = (s / X.shape[0]) @ np.abs(ys[:, None] - Xs @ W.T)
    return float(risk[0]) if single else risk


def exponent_factor(epsilon, theta=2.0, variant="printed") -> float:
    """Multiplier ``k`` with log-weight ``-k * eps * S(w) / log theta``, ``S = n iota L-hat``.

    ``printed``: ``k = 1`` (``exp(-n iota eps L-hat / log theta)``, [000 Alg. 1 step 2] and
    [000 Alg. 2 step 2]).
    ``standard``: ``k = 1/4`` (``exp(eps (-L-hat) / (2 Delta))`` with the stated
    ``Delta = 2 log theta / (n iota)``, [000 Def. 2]).
    ``calibrated``: ``k = 1/2`` (the same with the true ``Delta = log theta / (n iota)``).
    Returns ``k * eps``.
    """
    eps = check_epsilon(epsilon)
    check_theta(theta)
    _check_variant(variant)
    return eps * EXPONENT_FACTORS[variant]


class _Scorer:
    """Validated data and parameters; scores blocks of net points."""

    def __init__(self, X, y, epsilon, iota, theta, variant):
        self.X, self.y = check_regression_data(X, y)
        self.eps = check_epsilon(epsilon)
        self.iota = check_iota(iota)
        self.theta = check_theta(theta)
        self.variant = _check_variant(variant)
        self.k_eps = exponent_factor(self.eps, self.theta, self.variant)
        self.log_theta = math.log(self.theta)
        self.Xs, self.ys, self.s = _scaled(self.X, self.y)

    def terms(self, W):
        """(n, k) per-record log-weight contributions ``-k eps psi / log theta`` (each in ``[-k eps, 0]``)."""
        if _score_kernel.HAVE_NUMBA:
            # one compiled pass after the product: the numpy passes' operations (per-pair log1p: these terms
            # rescore one replaced record in O(K d)), within the bound of tests/test_wang_xu_score_kernel.py
            # (the kernel's log1p is the C library's, numpy's is its own SIMD loop on some CPUs)
            R = _score_kernel.dot_products(self.Xs, W)
            return _score_kernel.psi_terms(R, self.ys, self.s, self.iota, self.theta, -self.k_eps)
        P = _psi_block(W, self.Xs, self.ys, self.s, self.iota, self.theta)
        # In place, same two roundings as ``-k_eps * (P / log_theta)`` (bit-identical, no temporaries).
        np.divide(P, self.log_theta, out=P)
        np.multiply(P, -self.k_eps, out=P)
        return P

    def log_weights(self, W):
        """(k,) log-weights ``(S(w) / log theta) * (-k eps)``, ``S(w) = -log prod_i q_i(w)`` (one ``log`` per
        block of records, residuals fused; :func:`reference.wang_xu._score_kernel.log_weights` states the
        error, ``O(n u)`` absolute).  ``terms(W).sum(axis=0)`` is the same sum term by term."""
        return _score_kernel.log_weights(self.Xs, self.ys, self.s, W, self.iota, self.theta, -self.k_eps)


def log_weights(W, X, y, epsilon, iota, theta=2.0, variant="printed"):
    """Unnormalised log-weights ``-k eps S(w) / log theta`` of [000 Alg. 1] / [000 Alg. 2] at points ``W`` (K, d)."""
    sc = _Scorer(X, y, epsilon, iota, theta, variant)
    W = np.atleast_2d(check_finite_array("W", W))
    if W.shape[1] != sc.X.shape[1]:
        raise ValueError(f"W must have shape (K, {sc.X.shape[1]}), got {W.shape}")
    return sc.log_weights(W)


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


class WangXuMechanism:
    """Mechanism-protocol object for [000 Alg. 1] / [000 Alg. 2] on datasets of records ``[x_1, ..., x_d, y]``.

    ``log_prob(data) -> (net points (K, d), log-probabilities (K,))``;
    ``sample(data, size, rng) -> (size, d)``; ``score_terms(records) -> (m, K)`` (each record's
    additive contribution to the log-weight of each output, exponent factor included) and
    ``log_prob_from_terms(total) -> (..., K)``, so a neighbour is rescored in ``O(K d)``.
    """

    finite_output = True

    def __init__(self, net, epsilon, iota, theta=2.0, variant="printed", *,
                 block_elements=DEFAULT_BLOCK_ELEMENTS):
        self.net = as_net(net)
        self.dim = self.net.dim
        self.epsilon = check_epsilon(epsilon)
        self.iota = check_iota(iota)
        self.theta = check_theta(theta)
        self.variant = _check_variant(variant)
        self.block_elements = check_integer("block_elements", block_elements, minimum=1)
        self._points = None

    @property
    def record_width(self):
        """Length of one record ``[x_1, ..., x_d, y]`` (used by the auditor to build datasets)."""
        return self.dim + 1

    @property
    def outputs(self):
        if self._points is None:
            self._points = self.net.points()
        return self._points

    def _split(self, data):
        return split_records(data, self.dim)

    def score_terms(self, records):
        X, y = self._split(records)
        sc = _Scorer(X, y, self.epsilon, self.iota, self.theta, self.variant)
        return sc.terms(self.outputs)             # a fresh array: no copy needed

    @staticmethod
    def log_prob_from_terms(total):
        t = np.asarray(total, dtype=np.float64)
        return normalize_log_weights(t)

    def log_prob(self, data):
        X, y = self._split(data)
        return wang_xu_log_prob(X, y, self.net, self.epsilon, self.iota, self.theta, self.variant)

    def sample(self, data, size, rng=None):
        X, y = self._split(data)
        return streaming_gumbel_max_sample(X, y, self.net, self.epsilon, self.iota, self.theta, self.variant,
                                           size, rng, block_elements=self.block_elements)


def make_mechanism(algorithm=1, variant="printed", epsilon=1.0, delta=None, *, net=None, dim=1, radius=1.0,
                   zeta=0.25, iota=1.0, theta=None, block_elements=DEFAULT_BLOCK_ELEMENTS):
    """Factory for the registry: [000 Alg. 1] (``theta = 2``) or [000 Alg. 2] (``theta`` default 1.5).

    ``delta`` is accepted for the protocol and unused (the claims are pure eps-DP); when given
    it must be a valid delta or 0.  Without ``net`` an l2-ball net of ``radius`` and ``zeta``
    in ``dim`` dimensions is built.
    """
    if algorithm not in (1, 2):
        raise ValueError(f"algorithm must be 1 or 2, got {algorithm!r}")
    if delta is not None and delta != 0:
        check_delta(delta)
    if algorithm == 1:
        if theta is not None and theta != 2.0:
            raise ValueError(f"theta must be 2 for [000 Alg. 1] (psi of [000 eq. (6)]), got {theta!r}")
        theta = 2.0
    elif theta is None:
        theta = 1.5
    if net is None:
        net = L2BallNet(radius, zeta, dim)
    return WangXuMechanism(net, epsilon, iota, theta, variant, block_elements=block_elements)


def theorem1_parameters(n, d, epsilon, eta, tau, assumption=1):
    """zeta and iota of [000 Thm. 1], O-constants set to 1.

    [000 Assumption 1] (``E||x||_2^2 <= tau^2``), [000 eq. (7)]: ``zeta = 1/n``,
    ``iota = sqrt(d log n log(1/eta) / (n eps tau^2))``.
    [000 Assumption 2] (``E x_j^2 <= tau^2``), [000 eq. (8)]: ``zeta = 1/n``,
    ``iota = sqrt(log n log(1/eta) / (tau^2 n eps))``.

    Returns
    -------
    dict with ``zeta``, ``iota`` and ``rate`` (the right-hand side of [000 eq. (7)] / [000 eq. (8)] without O).
    """
    n = check_integer("n", n, minimum=2)
    d = check_integer("d", d, minimum=1)
    eps = check_epsilon(epsilon)
    eta = check_probability("eta", eta)
    tau = check_positive("tau", tau)
    if assumption not in (1, 2):
        raise ValueError(f"assumption must be 1 or 2 for [000 Thm. 1], got {assumption!r}")
    L = math.log(n) * math.log(1 / eta)
    if assumption == 1:
        iota = math.sqrt(d * L / (n * eps * tau ** 2))
        rate = tau * math.sqrt(d * L / (n * eps))
    else:
        iota = math.sqrt(L / (tau ** 2 * n * eps))
        rate = tau * math.sqrt(d ** 2 * L / (n * eps))
    return {"zeta": 1.0 / n, "iota": iota, "rate": rate}


def theorem2_parameters(n, d, epsilon, eta, tau, theta, assumption=3):
    """zeta and iota of [000 Thm. 2], as printed, O-constants set to 1.

    [000 Assumption 3], [000 eq. (18)]: ``zeta = 1/n``, ``iota = (1/tau) (d log(1/eta) / (n eps))^(1/theta)``
    (the theorem writes the failure probability as zeta; here it is ``eta``).
    [000 Assumption 4], [000 eq. (19)]: ``zeta = 1/n``,
    ``iota = (1/tau) (log n log(1/eta) / (n eps))^((theta-1)/theta)`` -- exponent as printed; the
    balance of ``iota^(theta-1)`` against ``1/(n iota eps)`` in [000 eq. (27)] would give ``1/theta``.

    Returns
    -------
    dict with ``zeta``, ``iota`` and ``rate`` (right-hand side of [000 eq. (18)] / [000 eq. (19)] without O).
    """
    n = check_integer("n", n, minimum=2)
    d = check_integer("d", d, minimum=1)
    eps = check_epsilon(epsilon)
    eta = check_probability("eta", eta)
    tau = check_positive("tau", tau)
    theta = check_theta(theta)
    if assumption not in (3, 4):
        raise ValueError(f"assumption must be 3 or 4 for [000 Thm. 2], got {assumption!r}")
    p = (theta - 1) / theta
    if assumption == 3:
        iota = (d * math.log(1 / eta) / (n * eps)) ** (1 / theta) / tau
        rate = tau * (d * math.log(n) * math.log(1 / eta) / (n * eps)) ** p
    else:
        iota = (math.log(n) * math.log(1 / eta) / (n * eps)) ** p / tau
        rate = tau * d * (math.log(n) * math.log(1 / eta) / (n * eps)) ** p
    return {"zeta": 1.0 / n, "iota": iota, "rate": rate}
