"""Non-private baselines for the l1 regression of 000: the minimiser of the truncated loss of
[000 eq. (2)] (Zhang & Zhou, 2018) and least absolute deviation (LAD) regression.

References
----------
.. [1] D. Wang and J. Xu, ``000_e64de114947d2122.txt``: [000 eq. (2)], [000 Lemma 3].
.. [2] L. Zhang and Z.-H. Zhou, "l1-regression with heavy-tailed distributions", NeurIPS 2018.
.. [3] R. Koenker and G. Bassett, "Regression quantiles", Econometrica 1978 (statsmodels ``QuantReg``).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import cast

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import optimize

from .l1_regression import check_iota, check_regression_data, truncated_empirical_risk
from .nets import ArrayNet, BoxNet, GridNet, L1BallNet, L2BallNet, as_net
from .truncation import check_theta

__all__ = ["truncated_loss_minimiser", "lad_regression"]


def truncated_loss_minimiser(
    X: ArrayLike,
    y: ArrayLike,
    iota: float,
    theta: float = 2.0,
    *,
    net: GridNet | ArrayNet | ArrayLike,
    polish: bool = True,
    contains: Callable[[NDArray[np.float64]], bool] | None = None,
) -> tuple[NDArray[np.float64], float]:
    """Minimiser ``w-hat_iota`` of the truncated empirical risk of [000 eq. (2)] over ``W``.

    The risk with a bounded psi is not convex, so the minimum is found globally over a
    zeta-net of ``W`` (exact over the net, block-wise), then optionally polished by Nelder-Mead
    from the best net point, rejecting steps that leave ``W``.

    Parameters
    ----------
    X : array_like, shape (n, d)
        Features, finite.
    y : array_like, shape (n,)
        Responses, finite.
    iota : float
        Truncation scale, > 0.
    theta : float, default 2.0
        ``2`` for psi of [000 eq. (6)], ``(1, 2)`` for [000 eq. (16)].
    net : GridNet, ArrayNet or array_like of shape (N, d)
        A zeta-net of ``W`` (e.g. :class:`reference.wang_xu.nets.L2BallNet`).
    polish : bool, default True
        Refine the best net point by Nelder-Mead inside ``W``.
    contains : callable or None, default None
        ``contains(w) -> bool``, membership of ``W``; defaults to the net's set when it is a
        ball or box net.

    Returns
    -------
    w : numpy.ndarray of float64, shape (d,)
        The minimiser found.
    risk : float
        ``L-hat_iota(w, D)``.

    Raises
    ------
    TypeError
        If ``X``, ``y`` or an array ``net`` is not an array of real numbers, or ``iota`` or ``theta`` not a
        real number.
    ValueError
        If ``X`` or ``y`` is empty or not finite, they differ in length, the net is empty or of another
        dimension, ``iota`` is not finite and positive, or ``theta`` not in (1, 2].

    References
    ----------
    .. [1] [000 eq. (2)]; [000 Thm. 1] (the non-private minimiser the private output is compared with).

    Examples
    --------
    >>> X = np.ones((3, 1)); y = np.array([0.1, 0.2, 0.3])
    >>> w, risk = truncated_loss_minimiser(X, y, iota=1.0, net=[[0.0], [0.2], [5.0]], polish=False)
    >>> w, round(risk, 6)
    (array([0.2]), 0.066547)
    """
    X, y = check_regression_data(X, y)
    iota = check_iota(iota)
    theta = check_theta(theta)
    net = as_net(net, X.shape[1])
    best_w: NDArray[np.float64] | None = None
    best_r = np.inf
    block = max(1, (1 << 20) // X.shape[0])
    for _, pts in net.chunks(block):
        r = cast(NDArray[np.float64], truncated_empirical_risk(pts, X, y, iota, theta))  # (k, d) points: k risks
        j = int(np.argmin(r))
        if r[j] < best_r:
            best_w, best_r = pts[j].copy(), float(r[j])
    if best_w is None:
        raise ValueError("no point of the net has a finite truncated risk (every risk is inf or nan)")
    if not polish:
        return best_w, best_r
    if contains is None:
        contains = _membership(net)

    def objective(w):
        if not contains(w):
            return np.inf
        return truncated_empirical_risk(w, X, y, iota, theta)

    step = getattr(net, "zeta", None) or 1e-2
    simplex = np.vstack([best_w] + [best_w + step * e for e in np.eye(X.shape[1])])
    for k in range(1, simplex.shape[0]):
        if not contains(simplex[k]):
            simplex[k] = best_w - step * np.eye(X.shape[1])[k - 1]
            if not contains(simplex[k]):
                simplex[k] = best_w
    res = optimize.minimize(
        objective,
        best_w,
        method="Nelder-Mead",
        options={"initial_simplex": simplex, "xatol": 1e-10, "fatol": 1e-14, "maxiter": 4000},
    )
    if np.isfinite(res.fun) and res.fun <= best_r:
        return np.asarray(res.x), float(res.fun)
    return best_w, best_r


def _membership(net):
    """``contains(w)`` for the set a ball or box net covers (everything for other nets)."""
    if isinstance(net, L2BallNet):
        return lambda w: float(np.dot(w, w)) <= net.radius**2
    if isinstance(net, L1BallNet):
        return lambda w: float(np.abs(w).sum()) <= net.radius
    if isinstance(net, BoxNet):
        return lambda w: bool(np.all((w >= net.low) & (w <= net.high)))
    return lambda w: True


def lad_regression(
    X: ArrayLike, y: ArrayLike, *, fit_intercept: bool = False, max_iter: int = 5000
) -> NDArray[np.float64]:
    """Least absolute deviation regression: statsmodels ``QuantReg`` at ``q = 0.5``.

    Unconstrained.

    Parameters
    ----------
    X : array_like, shape (n, d)
        Features, finite.
    y : array_like, shape (n,)
        Responses, finite.
    fit_intercept : bool, default False
        Add a column of ones (its coefficient comes first).
    max_iter : int, default 5000
        Iterations of ``QuantReg.fit``.

    Returns
    -------
    numpy.ndarray of float64, shape (d,) or (d + 1,)
        The coefficient vector (intercept first when ``fit_intercept``).

    Raises
    ------
    TypeError
        If ``X`` or ``y`` is not an array of real numbers.
    ValueError
        If ``X`` or ``y`` is empty or not finite, or they differ in length.

    References
    ----------
    .. [1] R. Koenker and G. Bassett, "Regression quantiles", Econometrica 46 (1978); [000 eq. (1)] (the l1
       risk it minimises on the sample).

    Examples
    --------
    >>> X = np.array([[1.0], [2.0], [3.0], [4.0]]); y = np.array([2.0, 4.0, 6.0, 100.0])
    >>> lad_regression(X, y).round(3)
    array([2.])
    """
    X, y = check_regression_data(X, y)
    from statsmodels.regression.quantile_regression import QuantReg

    design = np.column_stack([np.ones(X.shape[0]), X]) if fit_intercept else X
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = QuantReg(y, design).fit(q=0.5, max_iter=max_iter)
    return np.asarray(res.params, dtype=float)
