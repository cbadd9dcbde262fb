"""The :class:`Loss` interface and the record scaling shared by the loss families.

A loss of this package maps a parameter ``w`` (d,) and records ``X`` (n, d), ``y`` (n,)
to per-example values ``(n,)`` and per-example gradients ``(n, d)``, computed for all
records at once; :meth:`Loss.gradient_batch` evaluates the gradients at several points
``W`` (P, d) at once.

Heavy tails are normal input: the inner product ``<x, w>`` and the residual
``<x, w> - y`` are formed after dividing each record by its largest entry
(:func:`scale_records`), so records with entries near the float64 limit give ``+-inf``
only where the true value is beyond float64, and never NaN (an exact zero factor gives
an exact zero gradient entry).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..validation import check_finite_array, check_same_length

__all__ = ["Loss", "scale_records", "scaled_residuals", "times_scale"]


def scale_records(
    X: NDArray[np.float64], y: NDArray[np.float64]
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """Row scale ``S_i = max(|x_i|, |y_i|)`` (1 for all-zero rows) and the scaled records.

    Parameters
    ----------
    X : numpy.ndarray of float64, shape (n, d)
        Finite features (not validated here: the losses validate first).
    y : numpy.ndarray of float64, shape (n,)
        Finite labels.

    Returns
    -------
    S : numpy.ndarray of float64, shape (n,)
        The row scales, positive.
    Xs : numpy.ndarray of float64, shape (n, d)
        ``X / S`` (entries in ``[-1, 1]``).
    ys : numpy.ndarray of float64, shape (n,)
        ``y / S``.

    References
    ----------
    .. [1] N. J. Higham, "Accuracy and Stability of Numerical Algorithms", 2nd ed., SIAM 2002, Sec. 27.8
       (scaling to avoid overflow).

    Examples
    --------
    >>> S, Xs, ys = scale_records(np.array([[4.0, -2.0], [0.0, 0.0]]), np.array([1.0, 0.0]))
    >>> S, Xs, ys
    (array([4., 1.]), array([[ 1. , -0.5], [ 0. ,  0. ]]), array([0.25, 0.  ]))
    """
    S = np.maximum(np.max(np.abs(X), axis=1), np.abs(y))
    S = np.where(S > 0, S, 1.0)
    return S, X / S[:, None], y / S


def scaled_residuals(
    w: NDArray[np.float64], X: NDArray[np.float64], y: NDArray[np.float64]
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """The residuals ``<x_i, w> - y_i = S_i * r_i`` as scale and scaled residual, ``|r_i| <= ||w||_1 + 1``.

    Parameters
    ----------
    w : numpy.ndarray of float64, shape (d,)
        The parameter.
    X : numpy.ndarray of float64, shape (n, d)
        Finite features (not validated here).
    y : numpy.ndarray of float64, shape (n,)
        Finite labels.

    Returns
    -------
    S : numpy.ndarray of float64, shape (n,)
        The row scales of :func:`scale_records`.
    Xs : numpy.ndarray of float64, shape (n, d)
        ``X / S``.
    r : numpy.ndarray of float64, shape (n,)
        ``Xs @ w - y / S``.

    References
    ----------
    .. [1] N. J. Higham, "Accuracy and Stability of Numerical Algorithms", 2nd ed., SIAM 2002, Sec. 27.8.

    Examples
    --------
    >>> S, Xs, r = scaled_residuals(np.array([1.0, 1.0]), np.array([[4.0, -2.0]]), np.array([1.0]))
    >>> float(S[0] * r[0])
    1.0
    """
    S, Xs, ys = scale_records(X, y)
    return S, Xs, Xs @ w - ys


def times_scale(a: NDArray[np.float64], S: NDArray[np.float64], power: int) -> NDArray[np.float64]:
    """``a * S**power`` row by row, without forming ``S**power`` (which may overflow where the product does not).

    Parameters
    ----------
    a : numpy.ndarray of float64, shape (n,) or (n, d)
        The scaled values.
    S : numpy.ndarray of float64, shape (n,)
        The row scales.
    power : int
        How many times to multiply by ``S``, ``>= 0``.

    Returns
    -------
    numpy.ndarray of float64
        The shape of ``a``; ``+-inf`` only where the product itself overflows.

    References
    ----------
    .. [1] N. J. Higham, "Accuracy and Stability of Numerical Algorithms", 2nd ed., SIAM 2002, Sec. 27.8.

    Examples
    --------
    >>> times_scale(np.array([[1e-300, 1.0]]), np.array([1e200]), 2)
    array([[1.e+100,     inf]])
    """
    with np.errstate(over="ignore"):
        out = a
        for _ in range(power):
            out = out * S[:, None] if out.ndim == 2 else out * S
    return out


class Loss:
    """Base class of the losses: per-example values ``(n,)`` and gradients ``(n, d)`` for all records at once.

    Subclasses set :attr:`name` and implement :meth:`value` and :meth:`gradient`; the losses of this package
    also override :meth:`gradient_batch` with a vectorised version.  Every method validates ``w`` (or ``W``),
    ``X`` and ``y`` and raises as listed below.

    Raises
    ------
    TypeError
        From the methods, if ``w``, ``W``, ``X`` or ``y`` is not an array of real numbers.
    ValueError
        From the methods, if one of them is empty, not finite or of the wrong dimension, if ``X`` and ``y``
        differ in length, or if ``w`` (the columns of ``W``) does not have ``d`` entries.
    NotImplementedError
        From :meth:`value` and :meth:`gradient` of a subclass that does not define them.

    References
    ----------
    .. [1] [002 Sec. 3]: the loss ``l(w, z)`` of a record ``z = (x, y)``, its empirical and population risks.

    Examples
    --------
    >>> from reference.losses import SquaredLoss
    >>> loss = SquaredLoss()
    >>> isinstance(loss, Loss), loss.empirical_risk(np.array([1.0]), np.array([[2.0], [0.0]]), np.array([1.0, 1.0]))
    (True, 1.0)
    """

    name = "loss"

    def _check(
        self, w: ArrayLike, X: ArrayLike, y: ArrayLike
    ) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
        """Validate one point ``w`` and the records; bad input raises ``ValueError`` naming it."""
        X = check_finite_array("X", X, ndim=2)
        y = check_finite_array("y", y, ndim=1)
        w = check_finite_array("w", w, ndim=1)
        check_same_length("X", X, "y", y)
        if X.shape[1] != w.shape[0]:
            raise ValueError(f"w must have length d = {X.shape[1]}, got {w.shape[0]}")
        return w, X, y

    def _check_batch(
        self, W: ArrayLike, X: ArrayLike, y: ArrayLike
    ) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
        """Validate points ``W`` (P, d), ``P >= 1``, and the records."""
        W = check_finite_array("W", W, ndim=2)
        X = check_finite_array("X", X, ndim=2)
        if W.shape[1] != X.shape[1]:
            raise ValueError(f"W must have d = {X.shape[1]} columns, got shape {W.shape}")
        _, X, y = self._check(W[0], X, y)
        return W, X, y

    def value(self, w: ArrayLike, X: ArrayLike, y: ArrayLike) -> NDArray[np.float64]:
        """Per-example losses, shape (n,)."""
        raise NotImplementedError(f"{type(self).__name__} does not define value()")

    def gradient(self, w: ArrayLike, X: ArrayLike, y: ArrayLike) -> NDArray[np.float64]:
        """Per-example gradients with respect to ``w``, shape (n, d)."""
        raise NotImplementedError(f"{type(self).__name__} does not define gradient()")

    def gradient_batch(self, W: ArrayLike, X: ArrayLike, y: ArrayLike) -> NDArray[np.float64]:
        """Per-example gradients at several points: ``W`` (P, d) -> (P, n, d).

        Every loss of this package overrides it with a vectorised version; this
        fallback (for user-defined losses) evaluates the points one by one.
        """
        W, X, y = self._check_batch(W, X, y)
        return np.stack([self.gradient(w, X, y) for w in W])

    def empirical_risk(self, w: ArrayLike, X: ArrayLike, y: ArrayLike) -> float:
        """Mean loss over the records."""
        return float(np.mean(self.value(w, X, y)))
