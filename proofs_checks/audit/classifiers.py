"""The attacks of the statistical audit: candidate statistics for black-box, multi-column and mixed outputs.

The statistical audit (:mod:`proofs_checks.audit.statistical`) tests ONE event
``S = {s(o) > t}`` on its estimation split.  The attacks make candidate
statistics ``s`` for black-box outputs (no ``log_prob``/``log_density``); they
all compete on the selection split.  They register here, by name, in the registry of
:mod:`~proofs_checks.audit.attacks` (``attack=`` / ``--attack``; :func:`attack_names`):

* ``"logistic"`` -- the projection: the output itself (one column) or an L2-penalised
  logistic regression on arcsinh-scaled coordinates and their squares, its negative and
  its quantile-histogram log-ratio (:func:`~proofs_checks.audit.projection.logistic_fits`).
* ``"histogram"`` -- likelihood ratios estimated on *cells* of discretised
  outputs (:class:`~proofs_checks.audit.cells.CellLogRatio`): each coordinate is cut into its atoms
  (values repeated exactly, :func:`~proofs_checks.audit.features.column_atoms`)
  and quantile bins of its other values; with at most :data:`~proofs_checks.audit.cells.JOINT_MAX_DIM`
  columns the cells are joint (products of the per-coordinate cells: a flag
  beside a value, an index beside a noisy answer), above that the per-coordinate
  log-ratios are summed (naive Bayes); whole output rows repeated exactly are
  cells of their own.  Also the per-coordinate histogram log-ratios and the pattern x value
  model of mixed outputs (:mod:`~proofs_checks.audit.pattern_value`).
* ``"per-coordinate"`` -- each coordinate and its negative (per-coordinate features).
* ``"joint-logistic"`` -- a logistic regression whose features add pairwise products (joint
  features) and atom indicators.
* ``"one-sided-atoms"`` -- output rows one dataset repeats and the other never gives
  (:mod:`~proofs_checks.audit.rare_atoms`: a raw value leaked with a small probability).
* ``"auto"`` (default) -- all of the above, and any attack registered with ``in_auto=True``.

Trees and nearest neighbours were considered and left out: on the targets
(a record leaked as a (flag, value) pair; a sparse vector releasing its noisy
answer) the joint cells already isolate the violating event, and scoring
10^7 outputs through a tree ensemble or a neighbour index costs microseconds
per output against tens of nanoseconds for the cell lookup (numpy only; no new
dependency).

Why the confidence stays valid
------------------------------
Let ``A`` be the selection split (outputs on D and D' of every candidate
pair) and ``B`` the estimation split, drawn from child seeds of one
SeedSequence after ``A``, independently of it.  Every choice made here --
the atoms and bins (fitted on the first half of ``A``), the candidate
statistics, the attack that wins, the direction and the threshold (judged on
the second half of ``A``) -- is a function of ``A`` alone, so the winning
event ``S = S(A)`` is fixed given ``A``.  Conditionally on ``A`` the counts
``k``, ``k'`` of ``B`` in ``S`` are independent binomials with the mechanism's
true ``P(S)`` and ``P'(S)``, and the one-sided Clopper-Pearson bounds each
fail with probability at most ``(1 - confidence)/2``.  If the mechanism were
(eps, delta)-DP then ``P(S) <= e^eps P'(S) + delta`` for this fixed ``S``, so
``epsilon_lower > eps`` with probability at most ``1 - confidence`` given
``A``, hence also unconditionally.  More candidates only make the search on
``A`` better or worse, never the test on ``B`` invalid: no multiplicity
correction is needed, exactly because ``B`` is used for one event.
A user feature map (``features=``) is a fixed function, so the same holds.

References
----------
.. [1] Z. Ding, Y. Wang, G. Wang, D. Zhang and D. Kifer, "Detecting violations of differential
       privacy", CCS 2018 (search an event on one sample, test it on a fresh one).
.. [2] B. Bichsel, S. Steffen, I. Bogunovic and M. Vechev, "DP-Sniper: black-box discovery of
       differential privacy violations using classifiers", IEEE S&P 2021.
.. [3] M. Lyu, D. Su and N. Li, "Understanding the sparse vector technique for differential
       privacy", PVLDB 10(6), 2017.
"""

from __future__ import annotations

import numpy as np

from .attacks import AUTO, register_attack, registered_attacks
from .cells import JOINT_MAX_DIM, ROWS_PER_CELL, CellLogRatio, fit_cells
from .features import column_atoms
from .logistic import (
    NEWTON_MAX_COLUMNS,
    NEWTON_MAX_STEPS,
    NEWTON_TOL,
    NEWTON_WARM_ROWS,
    penalised_logistic_weights,
    robust_scale,
    robust_z,
)
from .pattern_value import PatternValueLogRatio, fit_pattern_value
from .projection import logistic_fits
from .rare_atoms import one_sided_atom_fits

__all__ = [
    "attack_names",
    "check_attack",
    "attack_fits",
    "JOINT_MAX_DIM",
    "CellLogRatio",
    "fit_cells",
    "structured_candidates",
    "structured_fits",
    "run_fits",
    "FIT_THREADS",
    "Coordinate",
    "JointLogistic",
    "fit_joint_logistic",
    "histogram_fits",
    "coordinate_fits",
    "joint_logistic_fits",
    # re-exported from the modules they moved to
    "ROWS_PER_CELL",
    "NEWTON_MAX_COLUMNS",
    "NEWTON_MAX_STEPS",
    "NEWTON_TOL",
    "NEWTON_WARM_ROWS",
    "penalised_logistic_weights",
    "robust_scale",
    "robust_z",
    "PatternValueLogRatio",
    "fit_pattern_value",
]

#: Coordinates that get their own per-coordinate candidates (the first ones).
MAX_COORDINATES = 8
#: Columns up to which the logistic regression adds pairwise products.
MAX_PRODUCT_DIM = 6
#: Columns up to which the joint logistic regression and the summed cells are fitted (memory and time
#: grow with the width; wider outputs get the per-coordinate candidates of their first columns).
MAX_WIDE_DIM = 64


class Coordinate:
    """One coordinate of the output (a per-coordinate feature), or its negative."""

    def __init__(self, column, sign=1.0):
        self.column, self.sign = column, sign
        self.name = f"{'minus ' if sign < 0 else ''}coordinate {column}"

    def __call__(self, outputs):
        return self.sign * np.asarray(outputs, dtype=np.float64).reshape(len(outputs), -1)[:, self.column]


class JointLogistic:
    """Logistic regression on joint features: arcsinh-scaled coordinates, squares, pairwise products and atom
    indicators."""

    def __init__(self, center, scale, atoms, weights, sign=1.0):
        self.center, self.scale, self.atoms, self.weights, self.sign = center, scale, atoms, weights, sign
        self.name = f"{'minus ' if sign < 0 else ''}logistic regression on joint features and atoms"

    def features(self, x):
        z = robust_z(x, self.center, self.scale)
        parts = [z, z * z]
        d = z.shape[1]
        if 1 < d <= MAX_PRODUCT_DIM:
            i, j = np.triu_indices(d, 1)
            parts.append(z[:, i] * z[:, j])
        for c, at in enumerate(self.atoms):
            if at.size:
                parts.append((x[:, [c]] == at[None, :]).astype(np.float64))
        return np.hstack(parts)

    def __call__(self, outputs):
        x = np.asarray(outputs, dtype=np.float64).reshape(len(outputs), -1) + 0.0
        return self.sign * (self.features(x) @ self.weights[1:] + self.weights[0])

    def negated(self):
        return JointLogistic(self.center, self.scale, self.atoms, self.weights, -self.sign)


def fit_joint_logistic(a, b, penalty=1e-3, max_rows=50_000):
    """Fit :class:`JointLogistic` separating rows ``a`` (label 1) from ``b`` (label 0)."""
    a = np.asarray(a, dtype=np.float64).reshape(len(a), -1)[:max_rows] + 0.0
    b = np.asarray(b, dtype=np.float64).reshape(len(b), -1)[:max_rows] + 0.0
    x = np.vstack([a, b])
    center, scale = robust_scale(x)
    atoms = [at[:16] for at in column_atoms(x)]
    model = JointLogistic(center, scale, atoms, None)
    model.weights = penalised_logistic_weights(model.features(x), len(a), penalty)
    return model


def _rows(x):
    return np.asarray(x, dtype=np.float64).reshape(len(x), -1)


register_attack(
    "logistic",
    "logistic regression projection of the output (the output itself for one column), its "
    "negative and histogram log-ratio",
    logistic_fits,
    builtin=True,
)


@register_attack(
    "histogram",
    "histogram log-ratio on cells of atoms and quantile bins (joint, summed and per "
    "coordinate) and the pattern x value model of mixed outputs",
    builtin=True,
)
def histogram_fits(a, b):
    """The fits of the ``"histogram"`` attack: the cells of all columns (up to :data:`MAX_WIDE_DIM`), the pattern x
    value model, and the cells of each of the first :data:`MAX_COORDINATES` columns (several columns)."""
    a, b = _rows(a), _rows(b)
    d = a.shape[1]
    # once for every model fitted on these rows, by the first fit that needs them (on its thread, while the
    # audit's logistic regression runs on the other)
    atoms = _Once(lambda: column_atoms(np.vstack([a, b])))
    fits = [lambda: [fit_cells(a, b, atoms=atoms())]] if d <= MAX_WIDE_DIM else []
    fits.append(lambda: fit_pattern_value(a, b, atoms=atoms()))
    if d > 1:
        fits += [lambda c=c: [fit_cells(a, b, columns=[c], atoms=atoms())] for c in range(min(d, MAX_COORDINATES))]
    return fits


@register_attack(
    "per-coordinate", "each of the first coordinates of a multi-column output and its negative", builtin=True
)
def coordinate_fits(a, b):
    """The fits of the ``"per-coordinate"`` attack: :class:`Coordinate` of each of the first :data:`MAX_COORDINATES`
    columns and its negative (several columns only)."""
    d = _rows(a).shape[1]
    return [lambda: [Coordinate(c, s) for c in range(min(d, MAX_COORDINATES)) for s in (1.0, -1.0)]] if d > 1 else []


@register_attack(
    "joint-logistic",
    "logistic regression on joint features (pairwise products) and atom indicators of a multi-column output",
    builtin=True,
)
def joint_logistic_fits(a, b):
    """The fits of the ``"joint-logistic"`` attack: :func:`fit_joint_logistic` and its negative (2 to
    :data:`MAX_WIDE_DIM` columns)."""
    a, b = _rows(a), _rows(b)
    if not 1 < a.shape[1] <= MAX_WIDE_DIM:
        return []

    def joint():
        jl = fit_joint_logistic(a, b)
        return [jl, jl.negated()]

    return [joint]


register_attack(
    "one-sided-atoms",
    "output rows one dataset repeats and the other never gives (a rare leak of a raw value)",
    one_sided_atom_fits,
    builtin=True,
)


def attack_names() -> tuple[str, ...]:
    """The values of ``attack=`` / ``--attack``: ``"auto"`` and every registered attack, the auditor's own first.

    Returns
    -------
    tuple of str
        ``"auto"``, then the names of :func:`~proofs_checks.audit.attacks.registered_attacks` (complete: this
        module registers the auditor's own attacks when it is imported).

    Examples
    --------
    >>> attack_names()[:5]
    ('auto', 'logistic', 'histogram', 'per-coordinate', 'joint-logistic')
    """
    return (AUTO,) + tuple(entry.name for entry in registered_attacks())


def check_attack(attack: str) -> str:
    """``attack`` is one of :func:`attack_names` (a str; nothing is coerced)."""
    names = attack_names()
    if not isinstance(attack, str) or attack not in names:
        raise ValueError(f"attack must be one of {', '.join(names)}, got {attack!r}")
    return attack


def _selected(attack):
    check_attack(attack)
    return [e for e in registered_attacks() if (e.in_auto if attack == AUTO else e.name == attack)]


def attack_fits(a: np.ndarray, b: np.ndarray, attack: str = AUTO) -> list:
    """The fits of the attacks ``attack`` selects, in registry order: zero-argument callables, each returning a
    list of candidate statistics fitted on the rows ``a`` (numerator dataset) and ``b``."""
    return [fit for entry in _selected(attack) for fit in entry.fits(a, b)]


def structured_candidates(a, b, attack="auto", threads=1):
    """Candidate statistics of the attacks ``attack`` selects, but the logistic projection's.

    ``a``, ``b``: fitting rows of the selection split on the numerator dataset
    and on the other.  ``threads``: fits run at once (:func:`run_fits`; the same candidates, in the same order,
    bit for bit).
    """
    return [s for part in run_fits(structured_fits(a, b, attack), threads) for s in part]


def structured_fits(a, b, attack="auto"):
    """:func:`structured_candidates` as independent fits: :func:`attack_fits` without the ``"logistic"`` attack's."""
    return [fit for entry in _selected(attack) if entry.name != "logistic" for fit in entry.fits(a, b)]


class _Once:
    """``f()`` computed on the first call only (thread-safe); later calls return the same object."""

    def __init__(self, f):
        import threading

        self.f, self.lock, self.done, self.value = f, threading.Lock(), False, None

    def __call__(self):
        with self.lock:
            if not self.done:
                self.value, self.done = self.f(), True
            return self.value


#: Threads on which the statistical audit fits its candidate statistics (:func:`run_fits`).
FIT_THREADS = 2


def run_fits(fits, threads=FIT_THREADS):
    """``[f() for f in fits]``, on up to ``threads`` threads; results in the order of ``fits``.

    The fits are independent and deterministic functions of the fitting rows, and numpy, scipy and the
    BLAS release the GIL in their loops, so two fits run at once on two cores.  A thread changes only when
    a fit runs, never what it computes: the BLAS keeps its own thread count whichever thread calls it
    (tested: the same candidates, bit for bit, with 1 and 2 threads).  The fits start in their order, so
    the longest goes first (the audit's logistic regression on all fitting rows) and the others share the
    second thread.

    Examples
    --------
    >>> run_fits([lambda: 1, lambda: 2, lambda: 3], threads=2)
    [1, 2, 3]
    """
    fits = list(fits)
    if threads <= 1 or len(fits) <= 1:
        return [f() for f in fits]
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=min(threads, len(fits)), thread_name_prefix="audit-fit") as pool:
        futures = [pool.submit(f) for f in fits]
        return [f.result() for f in futures]
