"""The scores of [000 Alg. 1] and [000 Alg. 2]: the truncated empirical risk, its per-record psi terms and the
log-weights of each variant.

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
BLAS product) plus elementwise psi.

References
----------
.. [1] D. Wang and J. Xu, "Differentially private l1-norm linear regression with heavy-tailed
       data", ``000_e64de114947d2122.txt``: [000 eq. (2)], [000 Alg. 1], [000 Alg. 2], [000 Thm. 1],
       [000 Thm. 2], [000 Def. 2] (exponential mechanism).
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..validation import check_choice, check_epsilon, check_finite_array, check_positive, check_same_length
from . import _risk_kernel, _score_kernel
from .truncation import _psi_nonneg, check_theta

__all__ = [
    "VARIANTS",
    "EXPONENT_FACTORS",
    "check_iota",
    "check_regression_data",
    "record_psi_terms",
    "truncated_empirical_risk",
    "l1_loss",
    "exponent_factor",
    "log_weights",
]

VARIANTS = ("printed", "standard", "calibrated")

#: ``k`` of the log-weight ``-k eps S(w) / log theta`` of each variant (see the module docstring).
EXPONENT_FACTORS = {"printed": 1.0, "standard": 0.25, "calibrated": 0.5}


def check_iota(iota: float, name: str = "iota") -> float:
    """Return the truncation scale iota of [000 eq. (2)] as a float after checking it is finite and > 0.

    Parameters
    ----------
    iota : float
        The truncation scale.
    name : str, default "iota"
        The parameter's name, for the error message.

    Returns
    -------
    float
        ``float(iota)``.

    Raises
    ------
    TypeError
        If ``iota`` is not a real number.
    ValueError
        If ``iota`` is not finite and positive.

    References
    ----------
    .. [1] [000 eq. (2)].

    Examples
    --------
    >>> check_iota(0.5)
    0.5
    """
    return check_positive(name, iota)


def _check_variant(variant):
    return check_choice("variant", variant, VARIANTS)


def check_regression_data(X: ArrayLike, y: ArrayLike) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Validate ``X`` (n, d) and ``y`` (n,): finite, non-empty, same length.

    Parameters
    ----------
    X : array_like, shape (n, d)
        Features, finite, ``n >= 1``, ``d >= 1``.
    y : array_like, shape (n,)
        Responses, finite.

    Returns
    -------
    X : numpy.ndarray of float64, shape (n, d)
        The features.
    y : numpy.ndarray of float64, shape (n,)
        The responses.

    Raises
    ------
    TypeError
        If ``X`` or ``y`` is not an array of real numbers.
    ValueError
        If ``X`` is not 2-D with at least one column, ``y`` not 1-D, either is empty or not finite, or their
        lengths differ.

    References
    ----------
    .. [1] [000 eq. (1)] (the linear model ``y = <x, w*> + noise``).

    Examples
    --------
    >>> X, y = check_regression_data([[1.0, 2.0]], [3.0])
    >>> X.shape, y.shape
    ((1, 2), (1,))
    """
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
        t = (iota * resid) * s[:, None]  # 0 * s = 0; overflow gives +inf, psi(inf) = log theta
    return _psi_nonneg(t.ravel(), theta).reshape(t.shape)


def record_psi_terms(W: ArrayLike, X: ArrayLike, y: ArrayLike, iota: float, theta: float = 2.0) -> NDArray[np.float64]:
    """Matrix ``psi(iota |y_i - <x_i, w_k>|)`` of shape (n, K), the summands of [000 eq. (2)].

    Parameters
    ----------
    W : array_like, shape (K, d) or (d,)
        Parameter vectors (e.g. net points), finite.
    X : array_like, shape (n, d)
        Features, finite, ``n >= 1``, ``d >= 1``.
    y : array_like, shape (n,)
        Responses, finite.
    iota : float
        Truncation scale, > 0.
    theta : float, default 2.0
        ``2`` for [000 eq. (6)], ``(1, 2)`` for [000 eq. (16)].

    Returns
    -------
    numpy.ndarray of float64, shape (n, K)
        Entries in ``[0, log theta]``.

    Raises
    ------
    TypeError
        If an array is not an array of real numbers or a parameter not a real number.
    ValueError
        If ``X`` or ``y`` is empty or not finite, they differ in length, ``W`` does not have ``d`` columns,
        ``iota`` (or ``epsilon``) is not finite and positive, ``theta`` is not in (1, 2].

    References
    ----------
    .. [1] [000 eq. (2)] with psi of [000 eq. (6)] or [000 eq. (16)].

    Examples
    --------
    >>> record_psi_terms([[0.0], [10.0]], [[1.0], [1.0]], [0.0, 0.5], iota=1.0).round(4)
    array([[0.    , 0.6931], [0.47  , 0.6931]])
    """
    X, y = check_regression_data(X, y)
    W = np.atleast_2d(check_finite_array("W", W))
    if W.ndim != 2 or W.shape[1] != X.shape[1]:
        raise ValueError(f"W must have shape (K, {X.shape[1]}), got {W.shape}")
    iota = check_iota(iota)
    theta = check_theta(theta)
    Xs, ys, s = _scaled(X, y)
    return _psi_block(W, Xs, ys, s, iota, theta)


def truncated_empirical_risk(
    W: ArrayLike, X: ArrayLike, y: ArrayLike, iota: float, theta: float = 2.0
) -> float | NDArray[np.float64]:
    """Truncated empirical risk of [000 eq. (2)]: ``(1/(n iota)) sum_i psi(iota |y_i - <x_i, w>|)``.

    Parameters
    ----------
    W : array_like, shape (K, d) or (d,)
        Parameter vectors (e.g. net points), finite.
    X : array_like, shape (n, d)
        Features, finite, ``n >= 1``, ``d >= 1``.
    y : array_like, shape (n,)
        Responses, finite.
    iota : float
        Truncation scale, > 0.
    theta : float, default 2.0
        ``2`` for [000 eq. (6)], ``(1, 2)`` for [000 eq. (16)].

    Returns
    -------
    float or numpy.ndarray of float64, shape (K,)
        A float for ``W`` of shape (d,), an array for ``W`` of shape (K, d).

    Raises
    ------
    TypeError
        If an array is not an array of real numbers or a parameter not a real number.
    ValueError
        If ``X`` or ``y`` is empty or not finite, they differ in length, ``W`` does not have ``d`` columns,
        ``iota`` (or ``epsilon``) is not finite and positive, ``theta`` is not in (1, 2].

    References
    ----------
    .. [1] [000 eq. (2)] with psi of [000 eq. (6)] (``theta = 2``) or [000 eq. (16)].

    Examples
    --------
    >>> float(truncated_empirical_risk([0.0], [[1.0]], [0.0], iota=1.0))
    0.0
    >>> truncated_empirical_risk([[0.0], [10.0]], [[1.0], [1.0]], [0.0, 0.5], iota=1.0).round(4)
    array([0.235 , 0.6931])
    """
    single = np.ndim(W) == 1
    W2 = np.atleast_2d(W)
    if _risk_kernel.HAVE_NUMBA and not single and W2.ndim == 2 and W2.shape[0] >= 2:
        # the same sums in one compiled pass without the (n, K) matrix (~4x faster): numpy's summation of the
        # kernel's psi terms, each within psi_evaluation_error_bound of numpy's (_risk_kernel)
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


def l1_loss(W: ArrayLike, X: ArrayLike, y: ArrayLike) -> float | NDArray[np.float64]:
    """Empirical l1 risk ``(1/n) sum_i |y_i - <x_i, w>|`` (the problem of [000 eq. (1)] on the sample).

    Parameters
    ----------
    W : array_like, shape (K, d) or (d,)
        Parameter vectors, finite.
    X : array_like, shape (n, d)
        Features, finite, ``n >= 1``, ``d >= 1``.
    y : array_like, shape (n,)
        Responses, finite.

    Returns
    -------
    float or numpy.ndarray of float64, shape (K,)
        A float for ``W`` of shape (d,), an array for ``W`` of shape (K, d).

    Raises
    ------
    TypeError
        If an array is not an array of real numbers.
    ValueError
        If ``X`` or ``y`` is empty or not finite, they differ in length, or ``W`` does not have ``d`` columns.

    References
    ----------
    .. [1] [000 eq. (1)] (the population l1 risk this estimates).

    Examples
    --------
    >>> l1_loss([1.0], [[1.0], [2.0]], [0.0, 0.0])
    1.5
    """
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


def exponent_factor(epsilon: float, theta: float = 2.0, variant: str = "printed") -> float:
    """Multiplier ``k eps`` of the log-weight ``-k * eps * S(w) / log theta``, ``S = n iota L-hat``.

    ``printed``: ``k = 1`` (``exp(-n iota eps L-hat / log theta)``, [000 Alg. 1 step 2] and
    [000 Alg. 2 step 2]).
    ``standard``: ``k = 1/4`` (``exp(eps (-L-hat) / (2 Delta))`` with the stated
    ``Delta = 2 log theta / (n iota)``, [000 Def. 2]).
    ``calibrated``: ``k = 1/2`` (the same with the true ``Delta = log theta / (n iota)``).

    Parameters
    ----------
    epsilon : float
        Privacy parameter, finite and > 0.
    theta : float, default 2.0
        Moment order in (1, 2] (validated only).
    variant : {"printed", "standard", "calibrated"}, default "printed"
        Which exponent.

    Returns
    -------
    float
        ``k * eps``.

    Raises
    ------
    TypeError
        If ``epsilon`` or ``theta`` is not a real number.
    ValueError
        If ``epsilon`` is not finite and positive, ``theta`` not in (1, 2], or ``variant`` unknown.

    References
    ----------
    .. [1] [000 Alg. 1 step 2], [000 Alg. 2 step 2], [000 Def. 2].

    Examples
    --------
    >>> [exponent_factor(1.0, variant=v) for v in ("printed", "standard", "calibrated")]
    [1.0, 0.25, 0.5]
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
            # one compiled pass after the product: the operations of the numpy passes below, the same bits
            # but for psi's log1p/pow (the C library's, within psi_evaluation_error_bound of numpy's; per-pair
            # log1p: these terms rescore one replaced record in O(K d))
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


def log_weights(
    W: ArrayLike, X: ArrayLike, y: ArrayLike, epsilon: float, iota: float, theta: float = 2.0, variant: str = "printed"
) -> NDArray[np.float64]:
    """Unnormalised log-weights ``-k eps S(w) / log theta`` of [000 Alg. 1] / [000 Alg. 2] at points ``W`` (K, d).

    Parameters
    ----------
    W : array_like, shape (K, d) or (d,)
        Net points, finite.
    X : array_like, shape (n, d)
        Features, finite, ``n >= 1``, ``d >= 1``.
    y : array_like, shape (n,)
        Responses, finite.
    epsilon : float
        Privacy parameter, finite and > 0.
    iota : float
        Truncation scale, finite and > 0.
    theta : float, default 2.0
        Moment order in (1, 2].
    variant : {"printed", "standard", "calibrated"}, default "printed"
        The exponent (:func:`exponent_factor`).

    Returns
    -------
    numpy.ndarray of float64, shape (K,)
        The log-weights, ``<= 0``.

    Raises
    ------
    TypeError
        If an array is not an array of real numbers or a parameter not a real number.
    ValueError
        If ``X`` or ``y`` is empty or not finite, they differ in length, ``W`` does not have ``d`` columns,
        ``iota`` (or ``epsilon``) is not finite and positive, ``theta`` is not in (1, 2], or ``variant`` is unknown.

    References
    ----------
    .. [1] [000 Alg. 1 step 2], [000 Alg. 2 step 2].

    Examples
    --------
    >>> log_weights([[0.0], [10.0]], [[1.0], [1.0]], [0.0, 0.5], epsilon=1.0, iota=1.0).round(4)
    array([-0.6781, -2.    ])
    """
    sc = _Scorer(X, y, epsilon, iota, theta, variant)
    W = np.atleast_2d(check_finite_array("W", W))
    if W.shape[1] != sc.X.shape[1]:
        raise ValueError(f"W must have shape (K, {sc.X.shape[1]}), got {W.shape}")
    return sc.log_weights(W)
