"""Features of structured outputs for the statistical audit: atoms and a user hook.

Mixed discrete/continuous outputs -- a flag column beside a noisy value, an
index beside a released noisy answer, a record copied into the output -- have
*atoms*: values a continuous law would repeat with probability 0, repeated
exactly across samples.  :func:`column_atoms` finds them per coordinate and
:func:`row_atoms` per whole output row, on the fitting rows of the selection
split only (see :mod:`proofs_checks.audit.classifiers` for why that keeps the
confidence valid).

:class:`UserFeatures` wraps a user's ``features(outputs) -> (samples, k)``
callable (``audit(features=...)``, ``--features MODULE:NAME``): the estimated
statistics then work on its columns instead of the raw outputs.

References
----------
.. [1] B. Bichsel, S. Steffen, I. Bogunovic and M. Vechev, "DP-Sniper: black-box discovery of
       differential privacy violations using classifiers", IEEE S&P 2021 (feature maps of outputs).
"""

from __future__ import annotations

import numpy as np

__all__ = ["ATOM_MIN_COUNT", "MAX_ATOMS", "column_atoms", "row_atoms", "UserFeatures", "check_features", "FeatureError"]

#: A value is an atom when it occurs at least this often among the fitting rows (both datasets pooled).
#: A continuous float64 law repeats a value with probability about n^2 2^-53 (< 1e-4 at n = 10^6);
#: four copies of one value do not happen by chance.
ATOM_MIN_COUNT = 4
#: Most frequent atoms kept per column, and whole-row atoms kept (bounded lookup tables).
MAX_ATOMS = 64
MAX_ROW_ATOMS = 256


class FeatureError(ValueError):
    """The user's feature map raised or returned something that is not a (samples, k) finite float array.

    Examples
    --------
    >>> UserFeatures(lambda o: o[:, :0])(np.zeros((3, 1)))
    Traceback (most recent call last):
    ...
    proofs_checks.audit.features.FeatureError: features <lambda> returned no columns (shape (3, 0))
    """


def column_atoms(x, min_count=ATOM_MIN_COUNT, max_atoms=MAX_ATOMS):
    """Per column of ``x`` (rows = outputs), the sorted values repeated at least ``min_count`` times.

    Returns a list of 1-D float64 arrays (possibly empty), one per column; at most
    ``max_atoms`` per column, the most frequent first kept.

    Examples
    --------
    >>> x = np.array([[0., 0.1], [0., 0.2], [1., 0.3], [0., 0.4], [1., 0.5], [0., 0.6], [1., 0.7], [1., 0.8]])
    >>> [a.tolist() for a in column_atoms(x)]
    [[0.0, 1.0], []]
    """
    x = np.asarray(x, dtype=np.float64).reshape(len(x), -1) + 0.0  # -0.0 folded into 0.0
    out = []
    for c in range(x.shape[1]):
        vals, counts = np.unique(x[:, c], return_counts=True)
        keep = counts >= min_count
        vals, counts = vals[keep], counts[keep]
        if vals.size > max_atoms:
            vals = vals[np.argsort(-counts, kind="stable")[:max_atoms]]
        out.append(np.sort(vals))
    return out


def _void_rows(rows):
    r = np.ascontiguousarray(np.asarray(rows, dtype=np.float64).reshape(len(rows), -1) + 0.0)
    return r.view(np.dtype((np.void, r.dtype.itemsize * r.shape[1]))).ravel()


def row_atoms(x, min_count=ATOM_MIN_COUNT, max_atoms=MAX_ROW_ATOMS):
    """Whole output rows repeated at least ``min_count`` times, as sorted opaque (void) keys.

    Examples
    --------
    >>> x = np.array([[1., 5.]] * 4 + [[0., 0.5], [0., 0.7]])
    >>> row_atoms(x).size
    1
    """
    keys, counts = np.unique(_void_rows(x), return_counts=True)
    keep = counts >= min_count
    keys, counts = keys[keep], counts[keep]
    if keys.size > max_atoms:
        keys = np.sort(keys[np.argsort(-counts, kind="stable")[:max_atoms]])
    return keys


def check_features(features):
    """``features`` is None or a callable; returns it wrapped in :class:`UserFeatures` (or None)."""
    if features is None or isinstance(features, UserFeatures):
        return features
    if not callable(features):
        raise TypeError(f"features must be a callable mapping outputs to a (samples, k) float array, got {features!r}")
    return UserFeatures(features)


class UserFeatures:
    """A user's feature map, checked on every call: ``(samples, ...)`` outputs -> ``(samples, k)`` finite floats.

    Must be a module-level callable when ``jobs > 1`` (worker processes pickle it).

    Examples
    --------
    >>> f = UserFeatures(lambda o: np.abs(o))
    >>> f(np.array([[-1.0, 2.0]])).tolist()
    [[1.0, 2.0]]
    >>> UserFeatures(lambda o: o[:1])(np.zeros((3, 1)))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    proofs_checks.audit.features.FeatureError: features <lambda> returned shape (1, 1) for 3 outputs; its first ...
    """

    def __init__(self, fn):
        self.fn = fn
        self.name = getattr(fn, "__qualname__", None) or type(fn).__name__

    def __call__(self, outputs):
        n = len(outputs)
        try:
            got = self.fn(outputs)
        except Exception as exc:
            raise FeatureError(f"features {self.name} raised {type(exc).__name__}: {exc}".splitlines()[0]) from exc
        arr = np.asarray(got)
        if arr.ndim == 0 or arr.shape[0] != n:
            raise FeatureError(
                f"features {self.name} returned shape {arr.shape} for {n} outputs; its first axis must have length {n}"
            )
        if arr.dtype == object or not (np.issubdtype(arr.dtype, np.number) or arr.dtype == bool):
            raise FeatureError(f"features {self.name} returned dtype {arr.dtype}; features must be numeric")
        arr = arr.astype(np.float64).reshape(n, -1)
        if arr.shape[1] == 0:
            raise FeatureError(f"features {self.name} returned no columns (shape {arr.shape})")
        if not np.isfinite(arr).all():
            raise FeatureError(f"features {self.name} returned non-finite values (NaN or inf)")
        return arr
