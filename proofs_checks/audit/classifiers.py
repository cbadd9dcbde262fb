"""Attacks of the statistical audit on multi-column and mixed discrete/continuous outputs (issue 14 item 3).

The statistical audit (:mod:`proofs_checks.audit.statistical`) tests ONE event
``S = {s(o) > t}`` on its estimation split.  This module makes more candidate
statistics ``s`` for black-box outputs (no ``log_prob``/``log_density``); they
all compete on the selection split, as the single logistic projection did.

Attacks (``attack=``):

* ``"logistic"`` -- the projection of before: the output itself (one column)
  or an L2-penalised logistic regression on arcsinh-scaled coordinates and their
  squares, its negative and its quantile-histogram log-ratio.
* ``"histogram"`` -- likelihood ratios estimated on *cells* of discretised
  outputs (:class:`CellLogRatio`): each coordinate is cut into its atoms
  (values repeated exactly, :func:`~proofs_checks.audit.features.column_atoms`)
  and quantile bins of its other values; with at most :data:`JOINT_MAX_DIM`
  columns the cells are joint (products of the per-coordinate cells: a flag
  beside a value, an index beside a noisy answer), above that the per-coordinate
  log-ratios are summed (naive Bayes); whole output rows repeated exactly are
  cells of their own.  Also the per-coordinate histogram log-ratios.
* ``"auto"`` (default) -- all of the above, plus each coordinate and its negative
  (per-coordinate features) and a logistic regression whose features add pairwise
  products (joint features) and atom indicators.

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
from scipy import optimize, special

from .features import _void_rows, column_atoms, row_atoms

__all__ = ["ATTACKS", "JOINT_MAX_DIM", "CellLogRatio", "fit_cells", "structured_candidates", "structured_fits",
           "run_fits", "check_attack", "robust_scale", "robust_z"]

#: Names accepted by ``attack=`` / ``--attack``.
ATTACKS = ("auto", "logistic", "histogram")
#: Joint cells up to this many columns; per-coordinate log-ratios summed above.
JOINT_MAX_DIM = 3
#: Target number of fitting rows per joint cell (sets the number of quantile bins); 400 against 40 raised
#: the sparse-vector target from 0.90 to 0.99 (histogram attack, 10^6 calls, 3 seeds).
ROWS_PER_CELL = 400
#: Coordinates that get their own per-coordinate candidates (the first ones).
MAX_COORDINATES = 8
#: Columns up to which the logistic regression adds pairwise products.
MAX_PRODUCT_DIM = 6
#: Columns up to which the joint logistic regression and the summed cells are fitted (memory and time
#: grow with the width; wider outputs get the per-coordinate candidates of their first columns).
MAX_WIDE_DIM = 64


def check_attack(attack):
    """``attack`` is one of :data:`ATTACKS`."""
    if not isinstance(attack, str) or attack not in ATTACKS:
        raise ValueError(f"attack must be one of {', '.join(ATTACKS)}, got {attack!r}")
    return attack


def _llr(ca, na, cb, nb):
    """Smoothed log-ratio of two counts (add 1/2, as the category table of the statistical audit)."""
    return np.log((ca + 0.5) / (na + 0.5)) - np.log((cb + 0.5) / (nb + 0.5))


#: Up to this many atoms a column's cell lookup compares with each atom instead of a binary search.
SMALL_ATOMS = 8


def _column_cells(v, atoms, edges):
    """Cell of each value: its atom's index, else ``len(atoms) + `` its quantile bin."""
    if edges.size:
        out = atoms.size + np.searchsorted(edges, v, side="right").astype(np.int64)
    else:
        out = np.full(np.shape(v), atoms.size, dtype=np.int64)
    if 0 < atoms.size <= SMALL_ATOMS:
        # a few atoms (flags, a sparse vector's codes): one comparison pass each beats a binary search per value
        # (SVT3 at 10^7 calls: 6.6 of 34 CPU seconds were these lookups); atoms are distinct, so one match at most
        for k, at in enumerate(atoms):
            out[v == at] = k
    elif atoms.size:
        i = np.minimum(np.searchsorted(atoms, v), atoms.size - 1)
        out = np.where(atoms[i] == v, i, out)
    return out


class CellLogRatio:
    """Estimated log-likelihood ratio on cells of discretised outputs.

    ``columns`` are the coordinates used, each with its ``atoms`` and bin
    ``edges``; ``joint=True`` looks the combined cell up in ``(keys, llr)``,
    otherwise the per-coordinate log-ratios ``column_llr`` are summed.  Rows
    in ``row_keys`` (whole-row atoms) take ``row_llr`` instead.  Unseen cells
    get 0.
    """

    def __init__(self, columns, atoms, edges, joint, keys=None, llr=None, column_llr=None,
                 row_keys=None, row_llr=None, name="histogram log-ratio"):
        self.columns, self.atoms, self.edges, self.joint = columns, atoms, edges, joint
        self.sizes = np.array([a.size + e.size + 1 for a, e in zip(atoms, edges)], dtype=np.int64)
        self.strides = np.concatenate([[1], np.cumprod(self.sizes)[:-1]]).astype(np.int64)
        self.keys, self.llr, self.column_llr = keys, llr, column_llr
        self.row_keys, self.row_llr, self.name = row_keys, row_llr, name

    def cells(self, x):
        return [_column_cells(x[:, c], a, e) for c, a, e in zip(self.columns, self.atoms, self.edges)]

    def joint_key(self, cells):
        return sum(ci * s for ci, s in zip(cells, self.strides))

    def __call__(self, outputs):
        x = np.asarray(outputs, dtype=np.float64).reshape(len(outputs), -1) + 0.0
        cells = self.cells(x)
        if self.joint:
            k = self.joint_key(cells)
            i = np.minimum(np.searchsorted(self.keys, k), self.keys.size - 1)
            s = np.where(self.keys[i] == k, self.llr[i], 0.0)
        else:
            s = np.zeros(len(x))
            for ci, lc in zip(cells, self.column_llr):
                s = s + lc[ci]
        if self.row_keys is not None and self.row_keys.size:
            v = _void_rows(x)
            i = np.minimum(np.searchsorted(self.row_keys, v), self.row_keys.size - 1)
            s = np.where(self.row_keys[i] == v, self.row_llr[i], s)
        return s


def _edges(values, bins):
    if values.size == 0:
        return np.empty(0)
    q = np.quantile(values, np.linspace(0, 1, bins + 1)[1:-1], method="inverted_cdf")
    return np.unique(q)


def fit_cells(a, b, columns=None, joint=None, rows_per_cell=ROWS_PER_CELL, use_row_atoms=True, atoms=None):
    """Fit a :class:`CellLogRatio` on fitting rows ``a`` (outputs on the numerator dataset) and ``b``.

    ``atoms``: the :func:`~proofs_checks.audit.features.column_atoms` of every column of ``vstack([a, b])``
    when the caller has them already (the same values; saves a sort of the rows per column).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> a = np.column_stack([rng.random(4000) < 0.5, rng.laplace(0, 1, 4000)])
    >>> b = np.column_stack([rng.random(4000) < 0.2, rng.laplace(0, 1, 4000)])
    >>> stat = fit_cells(a, b)
    >>> bool(stat(np.array([[1.0, 0.0]]))[0] > stat(np.array([[0.0, 0.0]]))[0])
    True
    """
    a = np.asarray(a, dtype=np.float64).reshape(len(a), -1) + 0.0
    b = np.asarray(b, dtype=np.float64).reshape(len(b), -1) + 0.0
    x = np.vstack([a, b])
    columns = list(range(x.shape[1])) if columns is None else list(columns)
    joint = len(columns) <= JOINT_MAX_DIM if joint is None else joint
    atoms = [column_atoms(x[:, [c]])[0] for c in columns] if atoms is None else [atoms[c] for c in columns]
    rest = []
    for c, at in zip(columns, atoms):
        v = x[:, c]
        if at.size:
            i = np.minimum(np.searchsorted(at, v), at.size - 1)
            v = v[at[i] != v]
        rest.append(v)
    n = len(x)
    cont = [r.size > 0 for r in rest]
    if joint and any(cont):
        atom_cells = float(np.prod([at.size + 1 for at in atoms]))
        per = (n / rows_per_cell / atom_cells) ** (1.0 / sum(cont))
        bins = int(np.clip(per, 2, 64))
    else:
        bins = int(np.clip(n ** (1 / 3), 8, 64))
    edges = [_edges(r, bins) for r in rest]
    stat = CellLogRatio(columns, atoms, edges, joint)
    ca, cb = stat.cells(a), stat.cells(b)
    if joint:
        ka, kb = stat.joint_key(ca), stat.joint_key(cb)
        keys, inv = np.unique(np.concatenate([ka, kb]), return_inverse=True)
        na = np.bincount(inv[:len(ka)], minlength=keys.size)
        nb = np.bincount(inv[len(ka):], minlength=keys.size)
        stat.keys, stat.llr = keys, _llr(na, len(a), nb, len(b))
    else:
        stat.column_llr = [_llr(np.bincount(p, minlength=s), len(a), np.bincount(q, minlength=s), len(b))
                           for p, q, s in zip(ca, cb, stat.sizes)]
    # a row repeated >= ATOM_MIN_COUNT times repeats each of its values as often: a column without atoms
    # (values repeated that often) rules row atoms out, and skips a sort of every row (NoisyHist: 5 columns)
    if use_row_atoms and len(columns) == x.shape[1] and x.shape[1] > 1 and all(at.size for at in atoms):
        rk = row_atoms(x)
        if rk.size:
            va, vb = _void_rows(a), _void_rows(b)
            ia = np.bincount(np.searchsorted(rk, va[np.isin(va, rk)]), minlength=rk.size)
            ib = np.bincount(np.searchsorted(rk, vb[np.isin(vb, rk)]), minlength=rk.size)
            stat.row_keys, stat.row_llr = rk, _llr(ia, len(a), ib, len(b))
    what = ("joint" if joint else "summed per-coordinate") if len(columns) > 1 else f"coordinate {columns[0]}"
    n_atoms = sum(at.size for at in atoms)
    stat.name = f"histogram log-ratio ({what} cells, {n_atoms} atoms)"
    return stat


class Coordinate:
    """One coordinate of the output (a per-coordinate feature), or its negative."""

    def __init__(self, column, sign=1.0):
        self.column, self.sign = column, sign
        self.name = f"{'minus ' if sign < 0 else ''}coordinate {column}"

    def __call__(self, outputs):
        return self.sign * np.asarray(outputs, dtype=np.float64).reshape(len(outputs), -1)[:, self.column]


def robust_scale(x):
    """Per-column centre (median, no averaging) and spread (half the IQR, else half the range, else 1), all finite.

    Halves are taken before differences so that outputs at +-1.7e308 cannot overflow.

    Examples
    --------
    >>> c, s = robust_scale(np.array([[1.7e308], [-1.7e308], [1.7e308], [-1.7e308]]))
    >>> bool(np.isfinite(c).all() and np.isfinite(s).all() and (s > 0).all())
    True
    """
    x = np.asarray(x, dtype=np.float64)
    q25, q50, q75 = np.quantile(x, [0.25, 0.5, 0.75], axis=0, method="inverted_cdf")
    half_iqr = 0.5 * q75 - 0.5 * q25
    half_range = 0.5 * np.max(x, axis=0) - 0.5 * np.min(x, axis=0)
    scale = np.where(half_iqr > 0, half_iqr, np.where(half_range > 0, half_range, 1.0))
    return q50, scale


def robust_z(x, center, scale):
    """``arcsinh((x - center) / scale)`` with the ratio clipped to +-1e300 (finite for any finite input)."""
    with np.errstate(over="ignore", invalid="ignore"):
        r = x / scale - center / scale
    return np.arcsinh(np.clip(np.nan_to_num(r, nan=0.0, posinf=1e300, neginf=-1e300), -1e300, 1e300))


class JointLogistic:
    """Logistic regression on joint features: arcsinh-scaled coordinates, squares, pairwise products, atom indicators."""

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


#: Logistic fits with at most this many columns (intercept included) use Newton's method, wider ones
#: L-BFGS-B: a Newton step forms the k x k Hessian in ``n k^2`` flops against ``n k`` for a loss
#: evaluation, so past some width the L-BFGS-B evaluations are cheaper: on well-conditioned synthetic rows
#: they tie at 31 columns, but SVT3's 40-column joint fit is 3x faster with Newton (docs/auditor.md,
#: "Newton's method for the logistic regression").
NEWTON_MAX_COLUMNS = 41
#: Newton stops once the predicted decrease of the objective (half the Newton decrement ``g . H^-1 g``) is
#: below this fraction of the objective: float64 cannot resolve a smaller change of a mean over the rows.
NEWTON_TOL = 1e-15
#: Newton steps at most (3-8 on the benchmark mechanisms); past them L-BFGS-B finishes from the last iterate.
NEWTON_MAX_STEPS = 50
#: Fits on at least 16 times this many rows first run Newton on every m-th row (m >= 16, about this many
#: rows) and start the full-data Newton from that minimiser: NoisyHist2 at 10^7 calls (10^6 rows) needs 3
#: full-data steps instead of 7; where Newton from zero takes 3 steps anyway (SVT3) the subsample costs
#: about 1/m of a step per step (with m = 6, on 2*10^5 rows, it cost more than it saved: measured).
NEWTON_WARM_ROWS = 2**15
_LOGISTIC_METHODS = ("auto", "newton", "lbfgs")


def penalised_logistic_weights(f, n_first, penalty, method="auto"):
    """Weights ``(intercept, w)`` of a ridge-penalised logistic regression of ``f``'s first ``n_first`` rows
    (label 1) against the rest (label 0): the minimiser of mean log-loss plus ``penalty * ||w||^2``
    (intercept free).

    Parameters
    ----------
    f : ndarray, shape (n, k - 1)
        Features (finite).
    n_first : int
        Rows ``f[:n_first]`` have label 1.
    penalty : float
        Ridge strength (> 0 keeps the weights bounded on separable data).
    method : {"auto", "newton", "lbfgs"}
        ``newton``: Newton's method with the exact Hessian and a backtracking (Armijo) line search from
        zero (on ``16 * NEWTON_WARM_ROWS`` rows or more, from the minimiser on every m-th row), stopped
        when the predicted decrease is below :data:`NEWTON_TOL` of the objective; a singular Hessian is
        solved by least squares, and if a step is no descent direction, the line search fails before
        convergence, or :data:`NEWTON_MAX_STEPS` pass, L-BFGS-B continues from the last iterate (it never
        returns a worse point than its start).  ``lbfgs``: scipy's L-BFGS-B from zero (default
        tolerances), as before branch lnewt.  ``auto``: ``newton`` up to :data:`NEWTON_MAX_COLUMNS` columns
        with both labels present, else ``lbfgs``.

    Returns
    -------
    ndarray, shape (k,)

    Notes
    -----
    The loss is evaluated on all fitting rows (SVT3 at 10^7 calls: 10^6 rows x 21 columns; L-BFGS-B took 29
    evaluations, 1.7 s CPU on one BLAS thread, and stopped 5.4e-6 relative above the minimum; Newton 3 steps
    of one evaluation, one gradient and one Hessian each, 0.5-0.9 s), so it works in preallocated buffers and
    touches only the label-1 rows for the labels: with ``y`` 1 on the first rows and 0 on the others,
    ``log(1 + e^eta) - y eta`` and ``expit(eta) - y`` are the same floats as computed with the label vector
    (``x - 0`` is ``x``), summed in the same order (test: L-BFGS-B against the label-vector formula, bit for
    bit).  Newton's objective is at most L-BFGS-B's, or equal to 1e-12 relative
    (tests/test_logistic_newton.py).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> f = np.vstack([rng.normal(1.0, 1.0, (500, 2)), rng.normal(0.0, 1.0, (500, 2))])
    >>> w_n = penalised_logistic_weights(f, 500, 1e-3, method="newton")
    >>> w_l = penalised_logistic_weights(f, 500, 1e-3, method="lbfgs")
    >>> bool(np.allclose(w_n, w_l, atol=1e-4))
    True
    """
    if method not in _LOGISTIC_METHODS:
        raise ValueError(f"method must be one of {', '.join(_LOGISTIC_METHODS)}, got {method!r}")
    n = len(f)
    X = np.hstack([np.ones((n, 1)), f])
    problem = _PenalisedLogistic(X, n_first, penalty)
    if method == "auto":
        method = "newton" if X.shape[1] <= NEWTON_MAX_COLUMNS and 0 < n_first < n else "lbfgs"
    if method == "lbfgs":
        return problem.lbfgs(np.zeros(X.shape[1]))
    w0 = np.zeros(X.shape[1])
    stride = n // NEWTON_WARM_ROWS
    n1 = -(-n_first // max(stride, 1))             # label-1 rows among X[::stride]
    if stride >= 16 and 0 < n1 < len(X[::stride]):
        # the same problem on every stride-th row first: its minimiser is within about 1/sqrt(rows) of the
        # full one, so the full-data Newton steps start close (the answer is the full minimiser either way)
        w0 = _PenalisedLogistic(np.ascontiguousarray(X[::stride]), n1, penalty).newton(w0)
    return problem.newton(w0)


class _PenalisedLogistic:
    """Mean log-loss + ``penalty * ||w[1:]||^2`` of design ``X`` (first column ones; rows ``X[:n_first]``
    label 1) in preallocated buffers, minimised by L-BFGS-B or Newton's method."""

    def __init__(self, X, n_first, penalty):
        self.X, self.n_first, self.penalty = X, n_first, penalty
        self.buf, self.res = np.empty(len(X)), np.empty(len(X))

    def objective(self, eta, w):
        buf, n1 = self.buf, self.n_first
        np.logaddexp(0.0, eta, out=buf)
        np.subtract(buf[:n1], eta[:n1], out=buf[:n1])
        return np.sum(buf) / len(buf) + self.penalty * np.dot(w[1:], w[1:])

    def gradient(self, eta, w):
        """The gradient; leaves ``expit(eta) - y`` in ``self.res``."""
        special.expit(eta, out=self.res)
        self.res[:self.n_first] -= 1.0
        grad = self.X.T @ self.res / len(self.res)
        grad[1:] += 2 * self.penalty * w[1:]
        return grad

    def loss(self, w):
        eta = self.X @ w
        return self.objective(eta, w), self.gradient(eta, w)

    def lbfgs(self, w0):
        return optimize.minimize(self.loss, w0, jac=True, method="L-BFGS-B").x

    def newton(self, w):
        X, n1 = self.X, self.n_first
        n, k = X.shape
        ridge = np.full(k, 2.0 * self.penalty)
        ridge[0] = 0.0                                  # the intercept is not penalised
        weighted = np.empty_like(X)
        eta = X @ w
        val = self.objective(eta, w)
        for _ in range(NEWTON_MAX_STEPS):
            grad = self.gradient(eta, w)
            if not np.any(grad):
                return w                                # stationary: the minimiser (the objective is convex)
            # p (1 - p) from res = p - y: p is res on label-0 rows and res + 1 on label-1 rows
            s = self.res.copy()
            s[:n1] += 1.0
            s *= 1.0 - s
            np.multiply(X, s[:, None], out=weighted)
            hess = _gram(weighted, X) / n
            hess[np.diag_indices(k)] += ridge
            try:
                step = np.linalg.solve(hess, grad)
            except np.linalg.LinAlgError:               # singular (all rows far on one side, no penalty on
                step = np.linalg.lstsq(hess, grad, rcond=None)[0]       # the intercept): least squares
            dec = float(grad @ step)                    # Newton decrement^2: twice the predicted decrease
            if not (np.isfinite(dec) and dec > 0.0):    # no descent direction (rounding of a near-singular H)
                return self.lbfgs(w)
            if dec <= 2.0 * NEWTON_TOL * abs(val):
                # converged: the last step is kept unless it raises the objective (its decrease is below
                # rounding)
                w1 = w - step
                return w1 if self.objective(X @ w1, w1) <= val else w
            t = 1.0
            for _ in range(40):
                w1 = w - t * step
                eta1 = X @ w1
                val1 = self.objective(eta1, w1)
                if val1 <= val - 1e-4 * t * dec:        # Armijo
                    break
                t *= 0.5
            else:
                return self.lbfgs(w)                    # no decrease along a descent direction: hand over
            w, eta, val = w1, eta1, val1
        return self.lbfgs(w)


def _gram(a, b):
    """``a.T @ b`` for tall ``a``, ``b`` (n x k) as a sum of products of row blocks of at most 2^17 / k^2 rows.

    One ``a.T @ b`` on 10^6 rows is a single large GEMM that OpenBLAS splits across its threads; on this
    2-core machine under load (load average 4-5) it took 0.35-10 s instead of 0.16 s (n = 2*10^6, k = 21),
    as one descheduled thread stalls the others.  Blocks this small run on one BLAS thread each (stacked
    ``matmul``, no Python loop), 0.15-0.2 s under the same load, and the same bits whatever the BLAS thread
    count (measured with 1 and 2 threads).  Inside the audit's ``select_event`` the BLAS is pinned to one
    thread anyway (module ``_blas``); there the blocks cost what one single-threaded GEMM costs (0.16 s).
    """
    n, k = a.shape
    rows = int(min(1024, max(16, 2**17 // (k * k))))
    m = n - n % rows
    blocks = np.matmul(a[:m].reshape(-1, rows, k).transpose(0, 2, 1), b[:m].reshape(-1, rows, k))
    return blocks.sum(axis=0) + a[m:].T @ b[m:]


def structured_candidates(a, b, attack="auto", threads=1):
    """Candidate statistics of the ``histogram`` attack (and, for ``auto``, the per-coordinate and joint ones).

    ``a``, ``b``: fitting rows of the selection split on the numerator dataset
    and on the other.  The ``logistic`` attack's candidates are made by the
    statistical audit itself; this adds the rest.  ``threads``: fits run at
    once (:func:`run_fits`; the same candidates, in the same order, bit for bit).
    """
    return [s for part in run_fits(structured_fits(a, b, attack), threads) for s in part]


def structured_fits(a, b, attack="auto"):
    """:func:`structured_candidates` as independent fits: zero-argument callables, each returning a list of
    candidates; their concatenation in this order is the candidate list."""
    check_attack(attack)
    if attack == "logistic":
        return []
    a = np.asarray(a, dtype=np.float64).reshape(len(a), -1)
    b = np.asarray(b, dtype=np.float64).reshape(len(b), -1)
    d = a.shape[1]
    # once for every model fitted on these rows, by the first fit that needs them (on its thread, while the
    # audit's logistic regression runs on the other)
    atoms = _Once(lambda: column_atoms(np.vstack([a, b])))
    fits = [lambda: [fit_cells(a, b, atoms=atoms())]] if d <= MAX_WIDE_DIM else []
    fits.append(lambda: fit_pattern_value(a, b, atoms=atoms()))
    if d > 1:
        fits += [lambda c=c: [fit_cells(a, b, columns=[c], atoms=atoms())] for c in range(min(d, MAX_COORDINATES))]
    if attack == "auto" and d > 1:
        fits.append(lambda: [Coordinate(c, s) for c in range(min(d, MAX_COORDINATES)) for s in (1.0, -1.0)])
        if d <= MAX_WIDE_DIM:
            def joint():
                jl = fit_joint_logistic(a, b)
                return [jl, jl.negated()]
            fits.append(joint)
    return fits


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
            code = _column_cells(x[:, c], at, np.empty(0))          # atom index, or at.size if continuous
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
            last = np.flatnonzero(np.append(z[1:] != z[:-1], True))     # whole blocks of equal values
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
        out.append(PatternValueLogRatio(atoms, radix, keys, [e for e, _, _ in per_pattern], [t - offset for t in eta],
                                        lam, pa=pa, pb=pb, n_fit=min(len(a), len(b))))
    return out
