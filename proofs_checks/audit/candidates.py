"""The candidate statistics ``s(o)`` of the statistical audit's selection split.

The exact log-likelihood ratio when the mechanism gives densities or probabilities
(:class:`ExactLogRatio`); otherwise estimates: the empirical log-ratio per output value for few-valued
outputs (:class:`CategoryLogRatio`), else the statistics of the attacks
(:mod:`~proofs_checks.audit.classifiers`), on the outputs or on a user's features of them.
"""

from __future__ import annotations

import numpy as np

from reference.validation import check_integer

from . import float_attacks  # noqa: F401  (registers the "float" and "auto-float" attacks)
from .classifiers import FIT_THREADS, attack_fits, check_attack, run_fits
from .features import _void_rows
from .projection import Projection, _Negated

__all__ = ["ExactLogRatio", "RowTable", "CategoryLogRatio", "candidate_statistics", "MAX_CATEGORIES", "FEW_CATEGORIES"]

#: Distinct output rows up to which a black-box output is "few-valued": its category table is fitted on the
#: whole selection split and its super-level sets are scored on the same rows at error
#: :data:`~proofs_checks.audit.selection.DISCRETE_SELECTION_ERROR` (few nested candidate events, each with large
#: counts, so little winner's curse; halving the data for the ranking cost more).  Exact-law scoring of the chosen
#: event, 10^7 calls, 10 seeds (``docs/auditor.md``): SVT1 0.0726 -> 0.0741, SVT4 0.1554 -> 0.1583
#: (oracle 0.0771, 0.1592).
FEW_CATEGORIES = 64
#: Distinct output rows up to which outputs are treated as categories.
MAX_CATEGORIES = 512


class ExactLogRatio:
    """``log p_D(o) - log p_D'(o)`` from the mechanism's ``log_density`` or ``log_prob``."""

    name = "exact log-likelihood ratio"

    def __init__(self, mechanism, data, data_prime):
        self.mechanism, self.data, self.data_prime = mechanism, data, data_prime
        self._table = None
        if not hasattr(mechanism, "log_density"):
            outs, lp = mechanism.log_prob(data)
            outs2, lq = mechanism.log_prob(data_prime)
            lp, lq = np.asarray(lp, dtype=np.float64), np.asarray(lq, dtype=np.float64)
            rows = np.vstack(
                [
                    np.asarray(outs, dtype=np.float64).reshape(len(lp), -1),
                    np.asarray(outs2, dtype=np.float64).reshape(len(lq), -1),
                ]
            )
            keys, inv = np.unique(_void_rows(rows), return_inverse=True)
            a = np.full(keys.size, -np.inf)
            b = np.full(keys.size, -np.inf)
            a[inv[: lp.size]] = lp
            b[inv[lp.size :]] = lq
            with np.errstate(invalid="ignore"):
                diff = np.where((a == -np.inf) & (b == -np.inf), 0.0, a - b)
            self._table = RowTable(keys, diff)

    def __call__(self, outputs):
        if self._table is not None:
            return _quantise(self._table(outputs))
        a = np.asarray(self.mechanism.log_density(self.data, outputs), dtype=np.float64)
        b = np.asarray(self.mechanism.log_density(self.data_prime, outputs), dtype=np.float64)
        with np.errstate(invalid="ignore"):
            d = a - b
        return _quantise(np.where(np.isnan(d), 0.0, d))


def _quantise(s):
    """Round log-ratios to a grid of 2**-30 (about 1e-9).

    Without it the selection split can pick an event made of float64 rounding
    noise of the log-ratio itself (e.g. ``|x - 1| - |x|`` evaluating to 1 + 1 ulp),
    which is an artefact of the statistic, not of the mechanism.
    """
    with np.errstate(invalid="ignore", over="ignore"):
        q = np.round(s * 2.0**30) / 2.0**30
    return np.where(np.isfinite(s), q, s)


class RowTable:
    """Vectorised lookup of a value per distinct output row (``default`` for unseen rows)."""

    def __init__(self, keys, values, default=0.0):
        self.keys, self.values, self.default = keys, np.asarray(values, dtype=np.float64), default
        self.scalar = keys.dtype.itemsize == 8
        if self.scalar:  # one column: plain float keys, fast to search
            self.keys = np.sort(keys.view(np.float64))
            order = np.argsort(keys.view(np.float64), kind="stable")
            self.values = self.values[order]

    def __call__(self, outputs):
        if self.scalar:
            v = np.asarray(outputs, dtype=np.float64).reshape(len(outputs), -1)
            if v.shape[1] != 1:
                raise ValueError(f"outputs have {v.shape[1]} columns, the table has 1")
            v = v[:, 0] + 0.0
        else:
            v = _void_rows(outputs)
        idx = np.searchsorted(self.keys, v)
        idx = np.minimum(idx, self.keys.size - 1)
        hit = self.keys[idx] == v
        return np.where(hit, self.values[idx], self.default)


class CategoryLogRatio(RowTable):
    """Estimated log-ratio per distinct output row (discrete outputs)."""

    name = "empirical log-ratio per output value"


def _category_table(a, b):
    keys, inv = np.unique(np.concatenate([_void_rows(a), _void_rows(b)]), return_inverse=True)
    ca = np.bincount(inv[: len(a)], minlength=keys.size)
    cb = np.bincount(inv[len(a) :], minlength=keys.size)
    llr = np.log((ca + 0.5) / (len(a) + 0.5)) - np.log((cb + 0.5) / (len(b) + 0.5))
    return CategoryLogRatio(keys, llr)


def candidate_statistics(
    a, b, mechanism=None, pair=None, statistic="auto", fit_rows=None, attack="auto", features=None, threads=None
):
    """Statistics to try on the selection split ``a`` (outputs on D) and ``b`` (on D').

    Estimated statistics are fitted on the first ``fit_rows`` rows of each
    (all when None); the caller then chooses among them on the remaining rows,
    so the choice is not biased towards over-fitted estimates.  ``attack``
    names the estimated statistics (:func:`~proofs_checks.audit.classifiers.attack_names`);
    ``features`` (a :class:`~proofs_checks.audit.features.UserFeatures`) maps
    outputs to the columns they work on.  ``threads`` (default
    :data:`~proofs_checks.audit.classifiers.FIT_THREADS`): independent fits run
    at once; the candidates and their order do not depend on it, bit for bit.
    """
    if statistic not in ("auto", "exact", "estimate"):
        raise ValueError(f"statistic must be 'auto', 'exact' or 'estimate', got {statistic!r}")
    check_attack(attack)
    threads = FIT_THREADS if threads is None else check_integer("threads", threads, minimum=1)
    has_density = mechanism is not None and (hasattr(mechanism, "log_density") or hasattr(mechanism, "log_prob"))
    if statistic == "exact" and not has_density:
        raise ValueError("statistic='exact' needs a mechanism with log_density or log_prob")
    if statistic in ("auto", "exact") and has_density:
        return [ExactLogRatio(mechanism, *pair)]
    if fit_rows is not None and fit_rows >= 1:
        a, b = a[:fit_rows], b[:fit_rows]
    if features is not None:
        a, b = features(a), features(b)
        return [_OnFeatures(features, s) for s in _estimated(a, b, attack, threads)]
    return _estimated(a, b, attack, threads)


def _few_categories(a, b):
    """Whether the selection outputs take at most :data:`FEW_CATEGORIES` values, each seen often."""
    if a.shape[0] <= 4 * FEW_CATEGORIES:
        return False
    nuniq = np.unique(np.concatenate([_void_rows(a[:4096]), _void_rows(b[:4096])])).size
    return nuniq <= FEW_CATEGORIES and a.shape[0] > 4 * nuniq


def _estimated(a, b, attack, threads=1):
    discrete = not np.issubdtype(a.dtype, np.floating)
    if not discrete:
        nuniq = np.unique(np.concatenate([_void_rows(a[:4096]), _void_rows(b[:4096])])).size
        discrete = nuniq <= MAX_CATEGORIES and a.shape[0] > 4 * nuniq
    if discrete:
        return [_category_table(a, b)]
    # the logistic regression on all fitting rows is the longest fit (SVT3 at 10^7 calls: 10 of 19 s): the
    # "logistic" attack registers first, so it starts first and the other fits share the other thread
    out = [s for part in run_fits(attack_fits(a, b, attack), threads) for s in part]
    if not out:
        # an attack chosen alone that finds nothing to use on these outputs (one-sided atoms of continuous
        # outputs, per-coordinate features of one column): the logistic projection, so one event is still tested
        out = [s for part in run_fits(attack_fits(a, b, "logistic"), threads) for s in part]
    return out


class _OnFeatures:
    """A statistic of the user's features of the outputs."""

    def __init__(self, features, inner):
        self.features, self.inner = features, inner
        self.name = f"{inner.name} of features {features.name}"

    def __call__(self, outputs):
        return self.inner(self.features(outputs))


def _is_raw(stat):
    """Whether ``stat`` is the raw output or its negative (nothing fitted)."""
    inner = stat.inner if isinstance(stat, _Negated) else stat
    return isinstance(inner, Projection) and inner.weights is None
