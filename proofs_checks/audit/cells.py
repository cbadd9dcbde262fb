"""The histogram attack's cells: outputs cut into atoms and quantile bins per coordinate, log-ratios per cell.

A coordinate's *cell* is its atom (a value repeated exactly,
:func:`~proofs_checks.audit.features.column_atoms`) or its quantile bin among the other values; joint
cells combine the cells of a few coordinates (a flag beside a value, an index beside a noisy answer).
:class:`CellLogRatio` is the smoothed log-ratio of the two datasets' counts per cell
(:func:`fit_cells`).  Used by the ``"histogram"`` attack of :mod:`~proofs_checks.audit.classifiers`
and by the pattern x value model of :mod:`~proofs_checks.audit.pattern_value`.
"""

from __future__ import annotations

import numpy as np

from .features import _void_rows, column_atoms, row_atoms

__all__ = ["JOINT_MAX_DIM", "ROWS_PER_CELL", "CellLogRatio", "fit_cells"]

#: Joint cells up to this many columns; per-coordinate log-ratios summed above.
JOINT_MAX_DIM = 3
#: Target number of fitting rows per joint cell (sets the number of quantile bins); 400 against 40 raised
#: the sparse-vector target from 0.90 to 0.99 (histogram attack, 10^6 calls, 3 seeds).
ROWS_PER_CELL = 400


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

    def __init__(
        self,
        columns,
        atoms,
        edges,
        joint,
        keys=None,
        llr=None,
        column_llr=None,
        row_keys=None,
        row_llr=None,
        name="histogram log-ratio",
    ):
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
        na = np.bincount(inv[: len(ka)], minlength=keys.size)
        nb = np.bincount(inv[len(ka) :], minlength=keys.size)
        stat.keys, stat.llr = keys, _llr(na, len(a), nb, len(b))
    else:
        stat.column_llr = [
            _llr(np.bincount(p, minlength=s), len(a), np.bincount(q, minlength=s), len(b))
            for p, q, s in zip(ca, cb, stat.sizes)
        ]
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
