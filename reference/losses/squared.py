"""The squared loss ``l(w, (x, y)) = (<w, x> - y)^2`` of [002 Alg. 2] and [002 Alg. 3] (also 004's GLMs)."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .base import Loss, scale_records, scaled_residuals, times_scale

__all__ = ["squared_of_residual", "SquaredLoss"]


def squared_of_residual(residual: ArrayLike) -> NDArray[np.float64]:
    """Elementwise ``r^2`` of the residual ``r = <w, x> - y`` (``inf`` beyond float64, never NaN).

    Parameters
    ----------
    residual : array_like
        Residuals ``<w, x> - y``, any shape.

    Returns
    -------
    numpy.ndarray of float64
        ``residual ** 2``, the shape of ``residual``.

    References
    ----------
    .. [1] [002 Alg. 2] and [002 Alg. 3]: the squared loss ``(<w, x> - y)^2``.

    Examples
    --------
    >>> squared_of_residual(np.array([-3.0, 0.5]))
    array([9.  , 0.25])
    """
    return np.square(residual)  # what ndarray ** 2 computes, for any array_like


class SquaredLoss(Loss):
    """The squared loss ``l(w, (x, y)) = (<w, x> - y)^2``; gradient ``2 x (<x, w> - y)``.

    The methods validate their input and raise as :class:`~reference.losses.base.Loss` states.

    References
    ----------
    .. [1] [002 Alg. 2] and [002 Alg. 3] (the loss of LASSO and of sparse linear regression).

    Examples
    --------
    >>> import numpy as np
    >>> SquaredLoss().gradient(np.array([1.0, 0.0]), np.array([[2.0, 1.0]]), np.array([1.0]))
    array([[4., 2.]])
    """

    name = "squared"

    def value(self, w: ArrayLike, X: ArrayLike, y: ArrayLike) -> NDArray[np.float64]:
        w, X, y = self._check(w, X, y)
        S, _, r = scaled_residuals(w, X, y)
        with np.errstate(over="ignore"):
            return squared_of_residual(r * S)

    def gradient(self, w: ArrayLike, X: ArrayLike, y: ArrayLike) -> NDArray[np.float64]:
        w, X, y = self._check(w, X, y)
        S, Xs, r = scaled_residuals(w, X, y)
        return times_scale(2.0 * Xs * r[:, None], S, 2)

    def gradient_batch(self, W: ArrayLike, X: ArrayLike, y: ArrayLike) -> NDArray[np.float64]:
        W, X, y = self._check_batch(W, X, y)
        S, Xs, ys = scale_records(X, y)
        r = W @ Xs.T - ys[None, :]  # (P, n)
        with np.errstate(over="ignore"):
            return 2.0 * Xs[None] * r[:, :, None] * S[None, :, None] * S[None, :, None]
