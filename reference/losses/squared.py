"""The squared loss ``l(w, (x, y)) = (<w, x> - y)^2`` of [002 Alg. 2] and [002 Alg. 3] (also 004's GLMs)."""

from __future__ import annotations

import numpy as np

from .base import Loss, scale_records, scaled_residuals, times_scale

__all__ = ["squared_of_residual", "SquaredLoss"]


def squared_of_residual(residual):
    """Elementwise ``r^2`` of the residual ``r = <w, x> - y`` (``inf`` beyond float64, never NaN)."""
    return residual ** 2


class SquaredLoss(Loss):
    """``l(w, (x, y)) = (<w, x> - y)^2`` ([002 Alg. 2], [002 Alg. 3]); gradient ``2 x (<x, w> - y)``.

    Examples
    --------
    >>> import numpy as np
    >>> SquaredLoss().gradient(np.array([1.0, 0.0]), np.array([[2.0, 1.0]]), np.array([1.0]))
    array([[4., 2.]])
    """

    name = "squared"

    def value(self, w, X, y):
        w, X, y = self._check(w, X, y)
        S, _, r = scaled_residuals(w, X, y)
        with np.errstate(over="ignore"):
            return squared_of_residual(r * S)

    def gradient(self, w, X, y):
        w, X, y = self._check(w, X, y)
        S, Xs, r = scaled_residuals(w, X, y)
        return times_scale(2.0 * Xs * r[:, None], S, 2)

    def gradient_batch(self, W, X, y):
        W, X, y = self._check_batch(W, X, y)
        S, Xs, ys = scale_records(X, y)
        r = W @ Xs.T - ys[None, :]                       # (P, n)
        with np.errstate(over="ignore"):
            return 2.0 * Xs[None] * r[:, :, None] * S[None, :, None] * S[None, :, None]
