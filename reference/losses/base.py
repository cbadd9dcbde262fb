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

from ..validation import check_finite_array, check_same_length

__all__ = ["Loss", "scale_records", "scaled_residuals", "times_scale"]


def scale_records(X, y):
    """Row scale ``S_i = max(|x_i|, |y_i|)`` (1 for all-zero rows) and the scaled records.

    Returns
    -------
    S : numpy.ndarray, shape (n,)
    Xs : numpy.ndarray, shape (n, d)
        ``X / S`` (entries in ``[-1, 1]``).
    ys : numpy.ndarray, shape (n,)
        ``y / S``.
    """
    S = np.maximum(np.max(np.abs(X), axis=1), np.abs(y))
    S = np.where(S > 0, S, 1.0)
    return S, X / S[:, None], y / S


def scaled_residuals(w, X, y):
    """``<x_i, w> - y_i = S_i * r_i`` with ``|r_i| <= ||w||_1 + 1``; returns ``(S, X / S, r)``."""
    S, Xs, ys = scale_records(X, y)
    return S, Xs, Xs @ w - ys


def times_scale(a, S, power):
    """``a * S**power`` row by row, without forming ``S**power`` (which may overflow where the product does not)."""
    with np.errstate(over="ignore"):
        out = a
        for _ in range(power):
            out = out * S[:, None] if out.ndim == 2 else out * S
    return out


class Loss:
    """Base class: ``value(w, X, y) -> (n,)`` and ``gradient(w, X, y) -> (n, d)``.

    Subclasses set :attr:`name` and implement :meth:`value` and :meth:`gradient`; the
    losses of this package also override :meth:`gradient_batch` with a vectorised version.
    """

    name = "loss"

    def _check(self, w, X, y):
        """Validate one point ``w`` and the records; bad input raises ``ValueError`` naming it."""
        X = check_finite_array("X", X, ndim=2)
        y = check_finite_array("y", y, ndim=1)
        w = check_finite_array("w", w, ndim=1)
        check_same_length("X", X, "y", y)
        if X.shape[1] != w.shape[0]:
            raise ValueError(f"w must have length d = {X.shape[1]}, got {w.shape[0]}")
        return w, X, y

    def _check_batch(self, W, X, y):
        """Validate points ``W`` (P, d), ``P >= 1``, and the records."""
        W = check_finite_array("W", W, ndim=2)
        X = check_finite_array("X", X, ndim=2)
        if W.shape[1] != X.shape[1]:
            raise ValueError(f"W must have d = {X.shape[1]} columns, got shape {W.shape}")
        _, X, y = self._check(W[0], X, y)
        return W, X, y

    def value(self, w, X, y):
        """Per-example losses, shape (n,)."""
        raise NotImplementedError(f"{type(self).__name__} does not define value()")

    def gradient(self, w, X, y):
        """Per-example gradients with respect to ``w``, shape (n, d)."""
        raise NotImplementedError(f"{type(self).__name__} does not define gradient()")

    def gradient_batch(self, W, X, y):
        """Per-example gradients at several points: ``W`` (P, d) -> (P, n, d).

        Every loss of this package overrides it with a vectorised version; this
        fallback (for user-defined losses) evaluates the points one by one.
        """
        W, X, y = self._check_batch(W, X, y)
        return np.stack([self.gradient(w, X, y) for w in W])

    def empirical_risk(self, w, X, y):
        """Mean loss over the records."""
        return float(np.mean(self.value(w, X, y)))
