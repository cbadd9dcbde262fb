"""The pseudo-Huber loss: a robust-regression loss inside [002 Assumption 2] as printed (``psi' > 0`` on ``s > 0``)."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..validation import check_positive
from .base import Loss, scale_records, scaled_residuals

__all__ = ["PseudoHuberLoss", "pseudo_huber_psi", "pseudo_huber_dpsi"]


def pseudo_huber_psi(r: ArrayLike, delta: float = 1.0) -> NDArray[np.float64]:
    """``psi(r) = delta^2 (sqrt(1 + (r / delta)^2) - 1)``, evaluated as ``|r| * |r| / (hypot(delta, r) / delta + 1)``.

    The second form has no cancellation near 0 and no spurious overflow: ``|r| / (hypot(delta, r) / delta + 1)``
    is at most ``delta``, so the product overflows only where ``psi(r)`` itself exceeds the float64 range.

    Parameters
    ----------
    r : array_like of float
        Residuals ``<x, w> - y``.
    delta : float, default 1.0
        Scale, > 0: ``psi(r) ~ r^2 / 2`` for ``|r| << delta``, ``~ delta |r|`` for ``|r| >> delta``.

    Returns
    -------
    numpy.ndarray of float64
        ``psi(r)``, the shape of ``r``.

    Raises
    ------
    TypeError
        If ``delta`` is not a real number.
    ValueError
        If ``delta`` is not positive and finite.

    References
    ----------
    .. [1] [002 Assumption 2] (the loss ``psi`` of robust regression, [002 Sec. 4]).
    .. [2] P. J. Huber, "Robust Estimation of a Location Parameter", Ann. Math. Statist. 35 (1964); the smooth
       form: P. Charbonnier, L. Blanc-Feraud, G. Aubert and M. Barlaud, "Deterministic edge-preserving
       regularization in computed imaging", IEEE Trans. Image Process. 6 (1997).

    Examples
    --------
    >>> pseudo_huber_psi(np.array([0.0, 1.0, 1e300]))
    array([0.00000000e+000, 4.14213562e-001, 1.00000000e+300])
    """
    delta = check_positive("delta", delta)
    a = np.abs(np.asarray(r, dtype=float))
    with np.errstate(over="ignore", invalid="ignore"):
        ratio = np.where(np.isinf(a), delta, a / (np.hypot(delta, a) / delta + 1.0))
        return a * ratio


def pseudo_huber_dpsi(r: ArrayLike, delta: float = 1.0) -> NDArray[np.float64]:
    """``psi'(r) = r / sqrt(1 + (r / delta)^2)``: odd, positive for ``r > 0``, bounded by ``delta``.

    Evaluated as ``delta sign(r) / hypot(delta / r, 1)``, finite for every ``r`` (``+-delta`` at ``+-inf``, 0 at 0).

    Parameters
    ----------
    r : array_like of float
        Residuals.
    delta : float, default 1.0
        Scale, > 0.

    Returns
    -------
    numpy.ndarray of float64
        ``psi'(r)``, the shape of ``r``, in ``(-delta, delta)`` for finite ``r``.

    Raises
    ------
    TypeError
        If ``delta`` is not a real number.
    ValueError
        If ``delta`` is not positive and finite.

    References
    ----------
    .. [1] [002 Assumption 2], items 1 and 2 (``psi'`` bounded, odd, positive on ``s > 0``).

    Examples
    --------
    >>> pseudo_huber_dpsi(np.array([-np.inf, -1.0, 0.0, 1e-200]))
    array([-1.00000000e+000, -7.07106781e-001,  0.00000000e+000,  1.00000000e-200])
    """
    delta = check_positive("delta", delta)
    r = np.asarray(r, dtype=float)
    with np.errstate(divide="ignore"):
        return delta * np.sign(r) / np.hypot(delta / r, 1.0)


class PseudoHuberLoss(Loss):
    """The pseudo-Huber loss ``l(w, (x, y)) = psi(<x, w> - y)``, ``psi`` of :func:`pseudo_huber_psi`.

    Inside [002 Assumption 2] as printed, with ``C_psi = max(delta, 1)``: ``psi'(r) = r / sqrt(1 + (r/delta)^2)``
    is odd, positive for ``r > 0`` and bounded by ``delta``; ``psi''(r) = (1 + (r/delta)^2)^(-3/2)`` is in
    ``(0, 1]``, so ``h'(0) = E psi''(xi) > 0`` for every noise ``xi``.  Tukey's biweight, the example the paper
    names, has ``psi' = 0`` beyond its tuning constant, which item 2 excludes.  The gradient is ``psi'(r) x``.

    Parameters
    ----------
    delta : float, default 1.0
        Scale, > 0.

    Raises
    ------
    TypeError
        If ``delta`` is not a real number.
    ValueError
        If ``delta`` is not positive and finite.

    References
    ----------
    .. [1] [002 Assumption 2] and [002 Thm. 3] (robust regression, [002 Sec. 4]).
    .. [2] P. Charbonnier, L. Blanc-Feraud, G. Aubert and M. Barlaud, "Deterministic edge-preserving
       regularization in computed imaging", IEEE Trans. Image Process. 6 (1997).

    Examples
    --------
    >>> loss = PseudoHuberLoss()
    >>> loss.value(np.array([0.0]), np.array([[1.0], [1.0]]), np.array([1.0, 3.0]))
    array([0.41421356, 2.16227766])
    >>> loss.gradient(np.array([0.0]), np.array([[2.0]]), np.array([1.0]))
    array([[-1.41421356]])
    """

    name = "pseudo_huber"

    def __init__(self, delta: float = 1.0) -> None:
        self.delta = check_positive("delta", delta)

    def value(self, w: ArrayLike, X: ArrayLike, y: ArrayLike) -> NDArray[np.float64]:
        w, X, y = self._check(w, X, y)
        S, _, r = scaled_residuals(w, X, y)
        with np.errstate(over="ignore"):
            return pseudo_huber_psi(r * S, self.delta)

    def gradient(self, w: ArrayLike, X: ArrayLike, y: ArrayLike) -> NDArray[np.float64]:
        w, X, y = self._check(w, X, y)
        S, _, r = scaled_residuals(w, X, y)
        with np.errstate(over="ignore"):
            dpsi = pseudo_huber_dpsi(r * S, self.delta)
        return X * dpsi[:, None]

    def gradient_batch(self, W: ArrayLike, X: ArrayLike, y: ArrayLike) -> NDArray[np.float64]:
        W, X, y = self._check_batch(W, X, y)
        S, Xs, ys = scale_records(X, y)
        with np.errstate(over="ignore", invalid="ignore"):
            res = (W @ Xs.T - ys[None, :]) * S[None, :]  # (P, n)
        return X[None] * pseudo_huber_dpsi(res, self.delta)[:, :, None]
