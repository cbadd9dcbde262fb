"""One-dimensional projections of black-box outputs: the ``"logistic"`` attack of the statistical audit.

The output itself (one column) or the linear predictor of an L2-penalised logistic regression on
robustly scaled coordinates and their squares (:func:`fit_logistic`), its negative (:class:`_Negated`)
and its quantile-histogram log-ratio (:class:`BinnedLogRatio`).
"""

from __future__ import annotations

import numpy as np

from .logistic import penalised_logistic_weights, robust_scale, robust_z

__all__ = ["Projection", "fit_logistic", "BinnedLogRatio", "logistic_fits"]


class Projection:
    """A one-dimensional projection ``z(o)``: a coordinate, or a logistic-regression predictor."""

    def __init__(self, weights=None, center=None, scale=None, name="output"):
        self.weights, self.center, self.scale, self.name = weights, center, scale, name

    def __call__(self, outputs):
        x = np.asarray(outputs, dtype=np.float64)
        if self.weights is None:
            return x[:, 0]
        return _features(x, self.center, self.scale) @ self.weights[1:] + self.weights[0]


def _features(x, center, scale):
    with np.errstate(over="ignore", invalid="ignore"):
        z = np.arcsinh((x - center) / scale)  # robust to heavy tails: log-like growth
    if not np.isfinite(z).all():  # outputs near +-1.7e308: the overflow-safe form
        z = robust_z(x, center, scale)
    return np.hstack([z, z * z])


def fit_logistic(a, b, penalty=1e-3):
    """L2-penalised logistic regression separating rows ``a`` (label 1) from ``b`` (label 0), fitted by
    :func:`~proofs_checks.audit.classifiers.penalised_logistic_weights` (Newton's method up to 20 output
    columns, L-BFGS-B above)."""
    x = np.vstack([a, b]).astype(np.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        center = np.median(x, axis=0)
        scale = np.subtract(*np.percentile(x, [75, 25], axis=0))
    if not (np.isfinite(center).all() and np.isfinite(scale).all()):
        center, scale = robust_scale(x)  # outputs near +-1.7e308
    scale = np.where(scale > 0, scale, 1.0)
    w = penalised_logistic_weights(_features(x, center, scale), len(a), penalty)
    return Projection(w, center, scale, name="logistic regression")


class BinnedLogRatio:
    """Estimated log-ratio of a projection on quantile bins (or on categories)."""

    def __init__(self, projection, edges, llr, name):
        self.projection, self.edges, self.llr, self.name = projection, edges, llr, name

    def __call__(self, outputs):
        z = self.projection(outputs)
        return self.llr[np.searchsorted(self.edges, z, side="right")]


def _binned(projection, za, zb, bins):
    pooled = np.concatenate([za, zb])
    edges = np.unique(np.quantile(pooled, np.linspace(0, 1, bins + 1)[1:-1], method="inverted_cdf"))
    ia = np.bincount(np.searchsorted(edges, za, side="right"), minlength=edges.size + 1)
    ib = np.bincount(np.searchsorted(edges, zb, side="right"), minlength=edges.size + 1)
    llr = np.log((ia + 0.5) / (za.size + 0.5)) - np.log((ib + 0.5) / (zb.size + 0.5))
    return BinnedLogRatio(projection, edges, llr, f"histogram log-ratio of {projection.name}")


class _Negated:
    def __init__(self, inner):
        self.inner, self.name = inner, f"minus {inner.name}"

    def __call__(self, outputs):
        return -self.inner(outputs)


def logistic_fits(a, b):
    """The fits of the ``"logistic"`` attack (:mod:`~proofs_checks.audit.attacks`): one fit giving the projection
    (the output itself for one column, else :func:`fit_logistic`), its negative and its quantile-histogram
    log-ratio on ``8..64`` bins (the cube root of the fitting rows)."""

    def logistic():
        proj = Projection() if a.shape[1] == 1 else fit_logistic(a, b)
        bins = int(np.clip(a.shape[0] ** (1 / 3), 8, 64))
        za, zb = proj(a), proj(b)
        return [proj, _Negated(proj), _binned(proj, za, zb, bins)]

    return [logistic]
