"""The logistic loss of [002 Sec. 6.1] (also 004's GLMs) and its l2-regularised form of [002 Sec. 5.2].

Labels are ``y`` in {-1, +1}.  A label 0 (``sign(0)`` in the data generation of
[002 Sec. 6.1], probability zero) gives loss ``log 2`` and gradient 0.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.special import expit

from ..validation import check_positive
from .base import Loss, scale_records

__all__ = ["logistic_of_margin", "LogisticLoss", "RegularizedLogisticLoss"]


def logistic_of_margin(margin: ArrayLike) -> NDArray[np.float64]:
    """Elementwise ``log(1 + exp(-m))`` of the margin ``m = y <w, x>`` (by ``logaddexp``: finite for finite ``m``).

    Parameters
    ----------
    margin : array_like
        Margins ``y <w, x>``, any shape.

    Returns
    -------
    numpy.ndarray of float64
        ``numpy.logaddexp(0, -margin)``, the shape of ``margin``.

    References
    ----------
    .. [1] [002 Sec. 6.1] (logistic regression); [004 Lemma D.4] (GLM losses).

    Examples
    --------
    >>> np.round(logistic_of_margin(np.array([0.0, 1000.0])), 6)
    array([0.693147, 0.      ])
    """
    return np.logaddexp(0.0, np.negative(margin))


def _zero_label_margin(m, y):
    """Margin 0 where the label is 0: a label 0 times an overflowed ``<x, w>`` is 0, not NaN."""
    return np.where(y == 0.0, 0.0, m)


class LogisticLoss(Loss):
    """The logistic loss ``l(w, (x, y)) = log(1 + exp(-y <x, w>))`` with labels ``y`` in {-1, +1}.

    Gradient ``-y * sigmoid(-y <x, w>) * x``.  The methods validate their input and raise as
    :class:`~reference.losses.base.Loss` states.

    References
    ----------
    .. [1] [002 Sec. 6.1] (the logistic regression of the experiments).

    Examples
    --------
    >>> loss = LogisticLoss()
    >>> np.round(loss.value(np.array([1.0]), np.array([[2.0]]), np.array([-1.0])), 6)
    array([2.126928])
    """

    name = "logistic"

    def _margin(self, w, X, y):
        S, Xs, _ = scale_records(X, np.zeros_like(y))
        with np.errstate(over="ignore", invalid="ignore"):
            m = y * ((Xs @ w) * S)
        return _zero_label_margin(m, y)

    def value(self, w: ArrayLike, X: ArrayLike, y: ArrayLike) -> NDArray[np.float64]:
        w, X, y = self._check(w, X, y)
        return logistic_of_margin(self._margin(w, X, y))

    def gradient(self, w: ArrayLike, X: ArrayLike, y: ArrayLike) -> NDArray[np.float64]:
        w, X, y = self._check(w, X, y)
        coef = -y * expit(-self._margin(w, X, y))
        with np.errstate(over="ignore"):
            return X * coef[:, None]

    def gradient_batch(self, W: ArrayLike, X: ArrayLike, y: ArrayLike) -> NDArray[np.float64]:
        W, X, y = self._check_batch(W, X, y)
        S, Xs, _ = scale_records(X, np.zeros_like(y))
        with np.errstate(over="ignore", invalid="ignore"):
            m = y[None, :] * ((W @ Xs.T) * S[None, :])
        coef = -y[None, :] * expit(-_zero_label_margin(m, y[None, :]))
        with np.errstate(over="ignore"):
            return X[None] * coef[:, :, None]


class RegularizedLogisticLoss(LogisticLoss):
    """The logistic loss plus ``lam/2 ||w||_2^2``, the l2-regularised GLM loss.

    Parameters
    ----------
    lam : float, default 0.01
        Regularisation strength, > 0.

    Raises
    ------
    TypeError
        If ``lam`` is not a real number.
    ValueError
        If ``lam`` is not positive and finite.

    References
    ----------
    .. [1] [002 Sec. 5.2] (sparse learning with a strongly convex loss).

    Examples
    --------
    >>> loss = RegularizedLogisticLoss(lam=0.5)
    >>> loss.gradient(np.array([2.0]), np.array([[0.0]]), np.array([1.0]))
    array([[1.]])
    """

    name = "logistic_l2"

    def __init__(self, lam: float = 0.01) -> None:
        self.lam = check_positive("lam", lam)

    def value(self, w: ArrayLike, X: ArrayLike, y: ArrayLike) -> NDArray[np.float64]:
        w, X, y = self._check(w, X, y)
        return super().value(w, X, y) + 0.5 * self.lam * float(w @ w)

    def gradient(self, w: ArrayLike, X: ArrayLike, y: ArrayLike) -> NDArray[np.float64]:
        w, X, y = self._check(w, X, y)
        return super().gradient(w, X, y) + self.lam * w[None, :]

    def gradient_batch(self, W: ArrayLike, X: ArrayLike, y: ArrayLike) -> NDArray[np.float64]:
        W, X, y = self._check_batch(W, X, y)
        return super().gradient_batch(W, X, y) + self.lam * W[:, None, :]
