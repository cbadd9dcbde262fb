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

import numpy as np
from scipy import optimize

from .l1_regression import check_iota, check_regression_data, truncated_empirical_risk
from .nets import BoxNet, L1BallNet, L2BallNet, as_net
from .truncation import check_theta

__all__ = ["truncated_loss_minimiser", "lad_regression"]


def truncated_loss_minimiser(X, y, iota, theta=2.0, *, net, polish=True, contains=None):
    """Minimiser ``w-hat_iota`` of the truncated empirical risk of [000 eq. (2)] over ``W``.

    The risk with a bounded psi is not convex, so the minimum is found globally over a
    zeta-net of ``W`` (exact over the net, block-wise), then optionally polished by Nelder-Mead
    from the best net point, rejecting steps that leave ``W``.

    Parameters
    ----------
    X : array_like, shape (n, d)
    y : array_like, shape (n,)
    iota : float
        Truncation scale, > 0.
    theta : float
        ``2`` for psi of [000 eq. (6)], ``(1, 2)`` for [000 eq. (16)].
    net : net object or array (N, d)
        A zeta-net of ``W`` (e.g. :class:`reference.wang_xu.nets.L2BallNet`).
    polish : bool
        Refine the best net point by Nelder-Mead inside ``W``.
    contains : callable or None
        ``contains(w) -> bool``, membership of ``W``; defaults to the net's set when it is a
        ball or box net.

    Returns
    -------
    w : numpy.ndarray, shape (d,)
    risk : float
        ``L-hat_iota(w, D)``.
    """
    X, y = check_regression_data(X, y)
    iota = check_iota(iota)
    theta = check_theta(theta)
    net = as_net(net, X.shape[1])
    best_w, best_r = None, np.inf
    block = max(1, (1 << 20) // X.shape[0])
    for _, pts in net.chunks(block):
        r = truncated_empirical_risk(pts, X, y, iota, theta)
        j = int(np.argmin(r))
        if r[j] < best_r:
            best_w, best_r = pts[j].copy(), float(r[j])
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
    res = optimize.minimize(objective, best_w, method="Nelder-Mead",
                            options={"initial_simplex": simplex, "xatol": 1e-10, "fatol": 1e-14, "maxiter": 4000})
    if np.isfinite(res.fun) and res.fun <= best_r:
        return np.asarray(res.x), float(res.fun)
    return best_w, best_r


def _membership(net):
    """``contains(w)`` for the set a ball or box net covers (everything for other nets)."""
    if isinstance(net, L2BallNet):
        return lambda w: float(np.dot(w, w)) <= net.radius ** 2
    if isinstance(net, L1BallNet):
        return lambda w: float(np.abs(w).sum()) <= net.radius
    if isinstance(net, BoxNet):
        return lambda w: bool(np.all((w >= net.low) & (w <= net.high)))
    return lambda w: True


def lad_regression(X, y, *, fit_intercept=False, max_iter=5000):
    """Least absolute deviation regression: statsmodels ``QuantReg`` at ``q = 0.5``.

    Returns the coefficient vector (intercept first when ``fit_intercept``).  Unconstrained.
    """
    X, y = check_regression_data(X, y)
    from statsmodels.regression.quantile_regression import QuantReg

    design = np.column_stack([np.ones(X.shape[0]), X]) if fit_intercept else X
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = QuantReg(y, design).fit(q=0.5, max_iter=max_iter)
    return np.asarray(res.params, dtype=float)
