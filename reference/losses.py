"""Loss functions of 002 (Hu, Ni, Xiao & Wang) with vectorised per-example gradients.

A dataset is a 2-D array of records ``[x_1, ..., x_d, y]`` (see
:func:`split_records`).  Every loss here gives per-example values ``(n,)`` and
per-example gradients ``(n, d)`` with respect to ``w``, computed for all
records at once.

Heavy tails are normal input: the inner product ``<x, w>`` and the residual
``<x, w> - y`` are formed after dividing each record by its largest entry, so
records with entries near the float64 limit give ``+-inf`` only where the
true value is beyond float64, and never NaN (an exact zero factor gives an
exact zero gradient entry).

References
----------
.. [1] L. Hu, S. Ni, H. Xiao and D. Wang, ``002_6c597657f27a60c9.txt``: squared loss of
       Algorithms 2-3, biweight loss in the footnote to Theorem 3 (Section 4), logistic and
       l2-regularised logistic loss of Sections 5.2 and 6.
"""

from __future__ import annotations

import numpy as np
from scipy.special import expit

from .validation import check_finite_array, check_positive

__all__ = ["split_records", "Loss", "SquaredLoss", "BiweightLoss", "LogisticLoss",
           "RegularizedLogisticLoss", "get_loss", "LOSS_NAMES"]


def split_records(data, d=None):
    """Split records ``[x, y]`` into ``X`` (n, d) and ``y`` (n,), checking shape and finiteness."""
    arr = check_finite_array("data", data, ndim=2)
    if arr.shape[1] < 2:
        raise ValueError(f"data must have at least 2 columns ([x, y]), got shape {arr.shape}")
    if d is not None and arr.shape[1] != d + 1:
        raise ValueError(f"data must have d + 1 = {d + 1} columns, got shape {arr.shape}")
    return arr[:, :-1], arr[:, -1]


def _scaled(X, y):
    """Row scale ``S_i = max(|x_i|, |y_i|)`` (1 for all-zero rows) and the scaled record."""
    S = np.maximum(np.max(np.abs(X), axis=1), np.abs(y))
    S = np.where(S > 0, S, 1.0)
    return S, X / S[:, None], y / S


def _residual_parts(w, X, y):
    """``<x_i, w> - y_i = S_i * r_i`` with ``|r_i| <= ||w||_1 + 1``; returns (S, X/S, r)."""
    S, Xs, ys = _scaled(X, y)
    return S, Xs, Xs @ w - ys


def _times_scale(a, S, power):
    """``a * S**power`` without forming ``S**power`` (which may overflow where the product does not)."""
    with np.errstate(over="ignore"):
        out = a
        for _ in range(power):
            out = out * S[:, None] if out.ndim == 2 else out * S
    return out


class Loss:
    """Base class: ``value(w, X, y) -> (n,)`` and ``gradient(w, X, y) -> (n, d)``."""

    name = "loss"

    def _check(self, w, X, y):
        X = check_finite_array("X", X, ndim=2)
        y = check_finite_array("y", y, ndim=1)
        w = check_finite_array("w", w, ndim=1)
        if X.shape[0] != y.shape[0]:
            raise ValueError(f"X and y must have the same length, got {X.shape[0]} and {y.shape[0]}")
        if X.shape[1] != w.shape[0]:
            raise ValueError(f"w must have length d = {X.shape[1]}, got {w.shape[0]}")
        return w, X, y

    def value(self, w, X, y):  # pragma: no cover - abstract
        raise NotImplementedError

    def gradient(self, w, X, y):  # pragma: no cover - abstract
        raise NotImplementedError

    def gradient_batch(self, W, X, y):
        """Per-example gradients at several points: ``W`` (P, d) -> (P, n, d).

        Every loss of this module overrides it with a vectorised version; this
        fallback (for user-defined losses) evaluates the points one by one.
        """
        W = check_finite_array("W", W, ndim=2)
        return np.stack([self.gradient(w, X, y) for w in W]) if W.shape[0] else \
            np.empty((0, X.shape[0], X.shape[1]))

    def empirical_risk(self, w, X, y):
        """Mean loss over the records."""
        return float(np.mean(self.value(w, X, y)))


class SquaredLoss(Loss):
    """``l(w, (x, y)) = (<w, x> - y)^2`` (002, Algorithms 2 and 3); gradient ``2 x (<x, w> - y)``.

    Examples
    --------
    >>> import numpy as np
    >>> SquaredLoss().gradient(np.array([1.0, 0.0]), np.array([[2.0, 1.0]]), np.array([1.0]))
    array([[4., 2.]])
    """

    name = "squared"

    def value(self, w, X, y):
        w, X, y = self._check(w, X, y)
        S, _, r = _residual_parts(w, X, y)
        with np.errstate(over="ignore"):
            return (r * S) ** 2

    def gradient(self, w, X, y):
        w, X, y = self._check(w, X, y)
        S, Xs, r = _residual_parts(w, X, y)
        return _times_scale(2.0 * Xs * r[:, None], S, 2)

    def gradient_batch(self, W, X, y):
        W = check_finite_array("W", W, ndim=2)
        _, X, y = self._check(W[0] if W.shape[0] else np.zeros(X.shape[1]), X, y)
        S, Xs, ys = _scaled(X, y)
        r = W @ Xs.T - ys[None, :]                       # (P, n)
        with np.errstate(over="ignore"):
            return 2.0 * Xs[None] * r[:, :, None] * S[None, :, None] * S[None, :, None]


class BiweightLoss(Loss):
    """Tukey's biweight ``l(w, (x, y)) = psi(<x, w> - y)`` of the footnote to Theorem 3 of 002.

    ``psi(r) = c^2/6 * (1 - (1 - (r/c)^2)^3)`` for ``|r| <= c`` and ``c^2/6``
    otherwise; ``psi'(r) = r (1 - (r/c)^2)^2`` on ``|r| <= c``, 0 outside; the
    gradient is ``psi'(r) x``.  (The footnote writes the case condition with
    ``|t|`` for the argument ``s``; the variable is the residual.)

    Parameters
    ----------
    c : float
        Tuning constant, > 0.
    """

    name = "biweight"

    def __init__(self, c=4.685):
        self.c = check_positive("c", c)

    def _r(self, w, X, y):
        S, Xs, r = _residual_parts(w, X, y)
        with np.errstate(over="ignore"):
            return Xs, S, r * S

    def value(self, w, X, y):
        w, X, y = self._check(w, X, y)
        _, _, res = self._r(w, X, y)
        inside = np.abs(res) <= self.c
        u = np.where(inside, res / self.c, 0.0)
        return self.c**2 / 6.0 * np.where(inside, 1.0 - (1.0 - u * u) ** 3, 1.0)

    def gradient(self, w, X, y):
        w, X, y = self._check(w, X, y)
        _, _, res = self._r(w, X, y)
        inside = np.abs(res) <= self.c
        u = np.where(inside, res / self.c, 0.0)
        dpsi = np.where(inside, np.where(inside, res, 0.0) * (1.0 - u * u) ** 2, 0.0)
        with np.errstate(over="ignore"):
            return X * dpsi[:, None]


    def gradient_batch(self, W, X, y):
        W = check_finite_array("W", W, ndim=2)
        _, X, y = self._check(W[0] if W.shape[0] else np.zeros(X.shape[1]), X, y)
        S, Xs, ys = _scaled(X, y)
        with np.errstate(over="ignore", invalid="ignore"):
            res = (W @ Xs.T - ys[None, :]) * S[None, :]                  # (P, n)
        inside = np.abs(res) <= self.c
        r_in = np.where(inside, res, 0.0)
        dpsi = r_in * (1.0 - (r_in / self.c) ** 2) ** 2
        with np.errstate(over="ignore"):
            return X[None] * dpsi[:, :, None]


class LogisticLoss(Loss):
    """``l(w, (x, y)) = log(1 + exp(-y <x, w>))`` with labels ``y`` in {-1, +1} (002, Section 6.1).

    Gradient ``-y * sigmoid(-y <x, w>) * x``.  A label 0 (``sign(0)`` in the
    data generation, probability zero) gives loss ``log 2`` and gradient 0.
    """

    name = "logistic"

    def _margin(self, w, X, y):
        S, Xs, _ = _scaled(X, np.zeros_like(y))
        with np.errstate(over="ignore", invalid="ignore"):
            m = y * ((Xs @ w) * S)
        return np.where(y == 0.0, 0.0, m)  # label 0 times an overflowed <x, w> is 0, not NaN

    def value(self, w, X, y):
        w, X, y = self._check(w, X, y)
        return np.logaddexp(0.0, -self._margin(w, X, y))

    def gradient(self, w, X, y):
        w, X, y = self._check(w, X, y)
        coef = -y * expit(-self._margin(w, X, y))
        with np.errstate(over="ignore"):
            return X * coef[:, None]


    def gradient_batch(self, W, X, y):
        W = check_finite_array("W", W, ndim=2)
        _, X, y = self._check(W[0] if W.shape[0] else np.zeros(X.shape[1]), X, y)
        S, Xs, _ = _scaled(X, np.zeros_like(y))
        with np.errstate(over="ignore", invalid="ignore"):
            m = y[None, :] * ((W @ Xs.T) * S[None, :])
        m = np.where(y[None, :] == 0.0, 0.0, m)
        coef = -y[None, :] * expit(-m)
        with np.errstate(over="ignore"):
            return X[None] * coef[:, :, None]


class RegularizedLogisticLoss(LogisticLoss):
    """Logistic loss plus ``lam/2 ||w||_2^2`` (002, Section 5.2, the l2-regularised GLM loss).

    Parameters
    ----------
    lam : float
        Regularisation strength, > 0.
    """

    name = "logistic_l2"

    def __init__(self, lam=0.01):
        self.lam = check_positive("lam", lam)

    def value(self, w, X, y):
        w, X, y = self._check(w, X, y)
        return super().value(w, X, y) + 0.5 * self.lam * float(w @ w)

    def gradient(self, w, X, y):
        w, X, y = self._check(w, X, y)
        return super().gradient(w, X, y) + self.lam * w[None, :]

    def gradient_batch(self, W, X, y):
        W = check_finite_array("W", W, ndim=2)
        return super().gradient_batch(W, X, y) + self.lam * W[:, None, :]


LOSS_NAMES = ("squared", "biweight", "logistic", "logistic_l2")


def get_loss(loss, **params):
    """A :class:`Loss` from its name (``"squared"``, ``"biweight"``, ``"logistic"``, ``"logistic_l2"``) or itself."""
    if isinstance(loss, Loss):
        return loss
    table = {"squared": SquaredLoss, "biweight": BiweightLoss, "logistic": LogisticLoss,
             "logistic_l2": RegularizedLogisticLoss}
    if loss not in table:
        raise ValueError(f"loss must be one of {LOSS_NAMES} or a Loss, got {loss!r}")
    return table[loss](**params)
