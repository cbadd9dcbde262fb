"""Tukey's biweight loss of the footnote to [002 Thm. 3] (robust regression, [002 Sec. 4])."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..validation import check_positive
from .base import Loss, scale_records, scaled_residuals

__all__ = ["BiweightLoss"]


class BiweightLoss(Loss):
    """Tukey's biweight ``l(w, (x, y)) = psi(<x, w> - y)`` of the footnote to [002 Thm. 3].

    ``psi(r) = c^2/6 * (1 - (1 - (r/c)^2)^3)`` for ``|r| <= c`` and ``c^2/6``
    otherwise; ``psi'(r) = r (1 - (r/c)^2)^2`` on ``|r| <= c``, 0 outside; the
    gradient is ``psi'(r) x``.  (The footnote writes the case condition with
    ``|t|`` for the argument ``s``; the variable is the residual.)

    Parameters
    ----------
    c : float, default 4.685
        Tuning constant, > 0.

    Raises
    ------
    TypeError
        If ``c`` is not a real number.
    ValueError
        If ``c`` is not positive and finite.

    References
    ----------
    .. [1] [002 Thm. 3] and its footnote (robust regression with a non-convex loss, [002 Sec. 4]).
    .. [2] A. E. Beaton and J. W. Tukey, "The fitting of power series, meaning polynomials, illustrated on
       band-spectroscopic data", Technometrics 16 (1974).

    Examples
    --------
    >>> loss = BiweightLoss(c=1.0)
    >>> loss.value(np.array([0.0]), np.array([[1.0], [1.0]]), np.array([0.5, 3.0]))
    array([0.09635417, 0.16666667])
    """

    name = "biweight"

    def __init__(self, c: float = 4.685) -> None:
        self.c = check_positive("c", c)

    def _residual(self, w, X, y):
        S, _, r = scaled_residuals(w, X, y)
        with np.errstate(over="ignore"):
            return r * S

    def value(self, w: ArrayLike, X: ArrayLike, y: ArrayLike) -> NDArray[np.float64]:
        w, X, y = self._check(w, X, y)
        res = self._residual(w, X, y)
        inside = np.abs(res) <= self.c
        u = np.where(inside, res / self.c, 0.0)
        return self.c**2 / 6.0 * np.where(inside, 1.0 - (1.0 - u * u) ** 3, 1.0)

    def gradient(self, w: ArrayLike, X: ArrayLike, y: ArrayLike) -> NDArray[np.float64]:
        w, X, y = self._check(w, X, y)
        res = self._residual(w, X, y)
        inside = np.abs(res) <= self.c
        u = np.where(inside, res / self.c, 0.0)
        dpsi = np.where(inside, res, 0.0) * (1.0 - u * u) ** 2
        with np.errstate(over="ignore"):
            return X * dpsi[:, None]

    def gradient_batch(self, W: ArrayLike, X: ArrayLike, y: ArrayLike) -> NDArray[np.float64]:
        W, X, y = self._check_batch(W, X, y)
        S, Xs, ys = scale_records(X, y)
        with np.errstate(over="ignore", invalid="ignore"):
            res = (W @ Xs.T - ys[None, :]) * S[None, :]  # (P, n)
        inside = np.abs(res) <= self.c
        r_in = np.where(inside, res, 0.0)
        dpsi = r_in * (1.0 - (r_in / self.c) ** 2) ** 2
        with np.errstate(over="ignore"):
            return X[None] * dpsi[:, :, None]
