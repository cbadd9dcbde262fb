"""The pattern x value attack on mixed discrete/continuous outputs (a sparse vector's codes around a noisy answer).

:class:`PatternValueLogRatio` estimates the log-likelihood ratio per atom pattern as a smooth function of
the row's continuous value and fixes its own event per direction (:meth:`PatternValueLogRatio.fixed_events`);
:func:`fit_pattern_value` fits one per smoothing strength.  Part of the ``"histogram"`` attack of
:mod:`~proofs_checks.audit.classifiers`.

References
----------
.. [1] M. Lyu, D. Su and N. Li, "Understanding the sparse vector technique for differential
       privacy", PVLDB 10(6), 2017.
"""

from __future__ import annotations

import numpy as np
from scipy import special

from .cells import _column_cells, _edges
from .features import column_atoms

__all__ = ["PATTERN_SMOOTHING", "MAX_PATTERNS", "PatternValueLogRatio", "fit_pattern_value"]

#: Smoothing strengths (multiples of the mean binomial weight per bin) of the pattern x value attack; each
#: is one candidate statistic, all compete on the selection split.
PATTERN_SMOOTHING = (1000.0, 3000.0, 10000.0)
#: Most frequent atom patterns kept by the pattern x value attack (rarer patterns score 0).
MAX_PATTERNS = 64
#: Pooled fitting rows per value bin of one pattern (at most :data:`PATTERN_MAX_BINS` bins).
PATTERN_ROWS_PER_BIN = 25
PATTERN_MAX_BINS = 256
#: Fewest expected fitting rows (numerator side) of an event the pattern x value model may fix.  Without it,
#: at 10^8 calls (estimation 4.9*10^7 per input) the model chose events of a few fitting rows and the
#: plug-in scoring of 6 such events picked a lucky one of the wrong direction (SVT3 seed 0: 0.0).
PATTERN_MIN_EVENT_ROWS = 400


def _smooth_logit(ca, cb, lam, iters=30):
    """Penalised binomial fit of ``logit P(numerator | bin)`` over ordered bins (second-difference penalty).

    Maximises ``sum_b ca_b eta_b - m_b log(1 + e^eta_b) - (lam w/2) ||D2 eta||^2`` by Newton steps, where
    ``m = ca + cb`` and ``w`` is the mean binomial weight ``m/4`` per bin (so ``lam`` is relative).  A large
    ``lam`` gives a logit linear in the bin rank; ``lam -> 0`` the raw per-bin log-odds.
    """
    ca, cb = np.asarray(ca, dtype=np.float64), np.asarray(cb, dtype=np.float64)
    m = ca + cb
    eta = np.log((ca + 0.5) / (cb + 0.5))
    B = eta.size
    if B < 3:
        return eta
    D = np.diff(np.eye(B), 2, axis=0)
    P = lam * max(float(m.mean()) / 4.0, 1e-12) * (D.T @ D)
    for _ in range(iters):
        pi = special.expit(eta)
        grad = ca - m * pi - P @ eta
        H = np.diag(m * pi * (1.0 - pi) + 1e-9) + P
        step = np.linalg.solve(H, grad)
        eta = eta + step
        if np.max(np.abs(step)) < 1e-9:
            break
    return eta


class PatternValueLogRatio:
    """Estimated log-likelihood ratio on (atom pattern, value) for mixed discrete/continuous outputs.

    Each column's atoms (values repeated exactly) make a row's *pattern*: which columns hold which atom and
    which hold a continuous value (a sparse vector's "below"/"aborted" codes around the one released noisy
    answer; a flag beside a value).  The row's *value* is its first continuous coordinate.  Per pattern the
    log-ratio is a smooth function of the value: the log-odds of the numerator over quantile bins of the
    pooled values, fitted by a binomial likelihood with a second-difference penalty (:func:`_smooth_logit`),
    minus the log of the two sample sizes.  Patterns without a value get their count log-ratio.  Smoothing
    pools neighbouring bins, which the plain cells cannot: on SVT3 the best event sits in narrow value
    ranges of a few patterns whose log-ratios differ from their neighbours' by 0.05-0.1.
    [Lyu, Su & Li Alg. 3]
    """

    def __init__(self, atoms, radix, keys, edges, llr, lam, pa=(), pb=(), n_fit=0):
        self.atoms, self.radix, self.keys, self.edges, self.llr = atoms, radix, keys, edges, llr
        # the fitted model's own probability of each cell on either dataset (for fixed_events) and its fitting rows
        self.pa, self.pb, self.n_fit, self.lam = pa, pb, n_fit, lam
        self.name = f"pattern x value log-ratio (atoms in {keys.size} patterns, smoothing {lam:g})"

    def codes(self, x):
        """``(pattern key, value, has value)`` of each row."""
        key = np.zeros(len(x), dtype=np.int64)
        cont = np.zeros(x.shape, dtype=bool)
        for c, at in enumerate(self.atoms):
            code = _column_cells(x[:, c], at, np.empty(0))  # atom index, or at.size if continuous
            cont[:, c] = code == at.size
            key = key + code * self.radix[c]
        has = cont.any(axis=1)
        first = np.argmax(cont, axis=1)
        value = np.where(has, x[np.arange(len(x)), first], 0.0)
        return key, value, has

    def fixed_events(self, n_est, delta, gamma):
        """The event the fitted model itself predicts best, per direction: ``[(sign, t), ...]``.

        The model's probabilities of each cell (:attr:`pa`, :attr:`pb`, its smoothed split of the pooled
        fitting counts) give ``P(S)``, ``P'(S)`` of every super-level set ``{sign s > t}``; ``t`` maximises the
        Clopper-Pearson bound with those expected counts at the estimation size ``n_est``.  A function of the
        fitting rows alone, so the scoring rows judge one event per direction instead of thousands of
        thresholds: their noisy small-event counts decide nothing but the competition between candidates.
        """
        from ._cp_bound import _cp_eps_vector

        llr, pa, pb = np.concatenate(self.llr), np.concatenate(self.pa), np.concatenate(self.pb)
        out = []
        for sign, p, q in ((1.0, pa, pb), (-1.0, pb, pa)):
            order = np.argsort(-sign * llr, kind="stable")
            z = sign * llr[order]
            last = np.flatnonzero(np.append(z[1:] != z[:-1], True))  # whole blocks of equal values
            cp, cq = np.cumsum(p[order])[last], np.cumsum(q[order])[last]
            e = _cp_eps_vector(np.minimum(cp, 1.0) * n_est, n_est, np.minimum(cq, 1.0) * n_est, n_est, delta, gamma)
            # only events the model has seen often enough to predict, and the scoring rows to check
            e = np.where(cp * self.n_fit >= PATTERN_MIN_EVENT_ROWS, e, -np.inf)
            i = int(np.argmax(e))
            out.append((sign, float(np.nextafter(z[last[i]], -np.inf))))
        return out

    def __call__(self, outputs):
        x = np.asarray(outputs, dtype=np.float64).reshape(len(outputs), -1) + 0.0
        key, value, _ = self.codes(x)
        i = np.minimum(np.searchsorted(self.keys, key), self.keys.size - 1)
        known = self.keys[i] == key
        s = np.zeros(len(x))
        for p in range(self.keys.size):
            rows = np.flatnonzero(known & (i == p))
            if rows.size:
                s[rows] = self.llr[p][np.searchsorted(self.edges[p], value[rows], side="right")]
        return s


def fit_pattern_value(a, b, lams=PATTERN_SMOOTHING, atoms=None):
    """:class:`PatternValueLogRatio` statistics (one per smoothing strength) fitted on rows ``a`` and ``b``.

    Empty when no column has atoms, when no row has a continuous value, or when the patterns cannot be
    numbered in 62 bits.  ``atoms``: :func:`~proofs_checks.audit.features.column_atoms` of ``vstack([a, b])``
    if already computed.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> def draw(shift, n):
    ...     flag = rng.random(n) < 0.5
    ...     return np.column_stack([flag, np.where(flag, -1.0, rng.laplace(shift, 1, n))])
    >>> stats = fit_pattern_value(draw(0.0, 20000), draw(1.0, 20000))
    >>> s = stats[0](np.array([[0.0, -3.0], [0.0, 3.0]]))
    >>> bool(s[0] > 0 > s[1])
    True
    """
    a = np.asarray(a, dtype=np.float64).reshape(len(a), -1) + 0.0
    b = np.asarray(b, dtype=np.float64).reshape(len(b), -1) + 0.0
    x = np.vstack([a, b])
    atoms = column_atoms(x) if atoms is None else atoms
    if not any(at.size for at in atoms):
        return []
    sizes = np.array([at.size + 1 for at in atoms], dtype=np.float64)
    if np.sum(np.log2(sizes)) > 62:
        return []
    radix = np.concatenate([[1], np.cumprod(sizes[:-1])]).astype(np.int64)
    probe = PatternValueLogRatio(atoms, radix, np.empty(0, dtype=np.int64), [], [], 0.0)
    key, value, has = probe.codes(x)
    if not has.any():
        return []
    keys, inv, counts = np.unique(key, return_inverse=True, return_counts=True)
    if keys.size > MAX_PATTERNS:
        keep = np.sort(np.argsort(-counts, kind="stable")[:MAX_PATTERNS])
        remap = np.full(keys.size, -1)
        remap[keep] = np.arange(keep.size)
        keys, inv = keys[keep], remap[inv]
    in_a = np.arange(len(x)) < len(a)
    offset = np.log(len(a) + 0.5) - np.log(len(b) + 0.5)
    per_pattern = []
    for p in range(keys.size):
        rows = inv == p
        if has[rows].any():
            v = value[rows]
            bins = int(np.clip(v.size // PATTERN_ROWS_PER_BIN, 1, PATTERN_MAX_BINS))
            e = _edges(v, bins)
            cell = np.searchsorted(e, v, side="right")
            ca = np.bincount(cell[in_a[rows]], minlength=e.size + 1)
            cb = np.bincount(cell[~in_a[rows]], minlength=e.size + 1)
        else:
            e, ca, cb = np.empty(0), np.array([np.count_nonzero(in_a[rows])]), np.array([np.count_nonzero(~in_a[rows])])
        per_pattern.append((e, ca, cb))
    out = []
    for lam in lams:
        eta = [_smooth_logit(ca, cb, lam) for e, ca, cb in per_pattern]
        # the model's probability of each cell on either dataset: its smoothed split of the pooled count
        pa = [(ca + cb) * special.expit(t) / len(a) for t, (_, ca, cb) in zip(eta, per_pattern)]
        pb = [(ca + cb) * special.expit(-t) / len(b) for t, (_, ca, cb) in zip(eta, per_pattern)]
        out.append(
            PatternValueLogRatio(
                atoms,
                radix,
                keys,
                [e for e, _, _ in per_pattern],
                [t - offset for t in eta],
                lam,
                pa=pa,
                pb=pb,
                n_fit=min(len(a), len(b)),
            )
        )
    return out
