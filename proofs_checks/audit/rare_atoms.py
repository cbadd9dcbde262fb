"""The one-sided atoms attack: output rows one dataset repeats and the other never gives (a rare leak).

A mechanism that releases a record's raw value with a small probability ``p`` (a debugging path, a
fallback, an unclipped branch) has an atom -- one exact output row -- that ``D`` gives and ``D'`` never
does.  The event "the output is one of those rows" has ``P(S) = p`` and ``P'(S) = 0``; with ``n``
estimation calls per dataset it refutes ``(eps, delta)`` once ``p`` is a few times ``delta`` and ``p n`` some
tens (module :mod:`~proofs_checks.audit.statistical`).  The histogram cells find such atoms too, but
only among ``MAX_ATOMS`` per column and after ``ATOM_MIN_COUNT`` repeats, and their events mix the atom with
bins of the continuous part, whose scores win the competition at small counts.

:func:`one_sided_atom_fits` (the ``"one-sided-atoms"`` attack, in ``auto``) takes, on the fitting rows of the
selection split, the whole output rows repeated at least :data:`ONE_SIDED_MIN_COUNT` times on one dataset
and absent from the other's fitting rows; :class:`OneSidedAtoms` is +1 on those of ``D``, -1 on those of
``D'``, 0 elsewhere, and fixes one event per direction (:meth:`OneSidedAtoms.fixed_events`), scored like the
other fixed events on the scoring rows.  A continuous law repeats no float64 row (probability about
``n^2 2^-53``), so two copies suffice; outputs without repeated rows get no candidate at all, and neither do
outputs with a row both datasets give (atoms or ties of the law itself: flags, counts, rounded values), where
two copies mean nothing and the histogram cells and the category table judge the atoms.

Why the confidence stays valid: the atoms are a function of the fitting rows, the event of the selection
split alone (:mod:`~proofs_checks.audit.classifiers`, "Why the confidence stays valid").

References
----------
.. [1] Z. Ding, Y. Wang, G. Wang, D. Zhang and D. Kifer, "Detecting violations of differential
       privacy", CCS 2018 (search an event on one sample, test it on a fresh one).
"""

from __future__ import annotations

import numpy as np

from .features import _void_rows

__all__ = ["ONE_SIDED_MIN_COUNT", "MAX_ONE_SIDED_ATOMS", "OneSidedAtoms", "fit_one_sided_atoms", "one_sided_atom_fits"]

#: Copies of an output row among one dataset's fitting rows that make it an atom of that dataset (with none on
#: the other): 2, as a continuous float64 law repeats no row by chance.  At 10^6 calls a leak of
#: probability 1e-4 has 6.25 expected copies among 62,500 fitting rows: two or more with probability 0.986,
#: four or more (the histogram cells' rule) with 0.87.
ONE_SIDED_MIN_COUNT = 2
#: Most one-sided atoms kept per dataset (the most frequent; a bounded lookup table).
MAX_ONE_SIDED_ATOMS = 4096


class OneSidedAtoms:
    """+1 on the output rows of ``keys_a`` (atoms of the numerator dataset only), -1 on ``keys_b``, 0 elsewhere.

    Parameters
    ----------
    keys_a, keys_b : numpy.ndarray
        Sorted whole-row keys (:func:`~proofs_checks.audit.features._void_rows`) of the two datasets' atoms.
    width : int
        Columns of an output row.

    Examples
    --------
    >>> a = np.array([[0.25], [0.25], [1.3], [2.1]])
    >>> b = np.array([[0.9], [1.7], [0.4], [0.4]])
    >>> stat = fit_one_sided_atoms(a, b)
    >>> stat(np.array([[0.25], [0.4], [5.0]])).tolist()
    [1.0, -1.0, 0.0]
    >>> stat.fixed_events(1000, 1e-5, 0.05)
    [(1.0, 0.5), (-1.0, 0.5)]
    """

    def __init__(self, keys_a, keys_b, width, excess=(0, 0), n_fit=(0, 0)):
        self.keys_a, self.keys_b, self.width = keys_a, keys_b, width
        # copies beyond the first of each atom among its own dataset's fitting rows, and those rows' numbers
        self.excess, self.n_fit = excess, n_fit
        self.name = f"one-sided atoms ({keys_a.size} of D, {keys_b.size} of D')"

    @staticmethod
    def _member(keys, rows):
        if keys.size == 0:
            return np.zeros(rows.size, dtype=bool)
        i = np.minimum(np.searchsorted(keys, rows), keys.size - 1)
        return keys[i] == rows

    def __call__(self, outputs):
        x = np.asarray(outputs, dtype=np.float64).reshape(len(outputs), -1)
        if x.shape[1] != self.width:
            raise ValueError(f"outputs have {x.shape[1]} columns, the atoms {self.width}")
        rows = _void_rows(x)
        return self._member(self.keys_a, rows).astype(np.float64) - self._member(self.keys_b, rows)

    def pooled_counts(self, sign, k_num, n_num, k_den, n_den):
        """Scoring counts of the event of direction ``sign`` pooled with the fitting rows, for the competition only.

        A leak of probability 1e-4 has about 6 copies among 62,500 scoring rows (10^6 calls), too few to
        predict its bound against a zero count on the other side.  The fitting rows add their copies beyond the
        first of each atom (the first is what made it an atom: the selection bias of a two-copy rule, one copy,
        is removed), and on the other side their zero count (absent there by construction, so ``P'(S)`` is
        estimated low: at worst this event wins and then tests worse than another would have; the bound of
        the estimation split is not affected).
        """
        i = 0 if sign > 0 else 1
        return k_num + self.excess[i], n_num + self.n_fit[i], k_den, n_den + self.n_fit[1 - i]

    def fixed_events(self, n_est, delta, gamma):
        """``[(sign, t), ...]``: the atoms of ``D`` (sign +1) and of ``D'`` (sign -1), each present, as
        ``{sign s > 0.5}``; the arguments (the estimation size and the claim) are not needed."""
        return [(sign, 0.5) for sign, keys in ((1.0, self.keys_a), (-1.0, self.keys_b)) if keys.size]


def _atoms_absent_from(x_rows, y_rows, min_count, max_atoms):
    """Sorted keys of the rows of ``x_rows`` repeated ``min_count`` times and absent from ``y_rows``, and the sum
    of their copies beyond the first."""
    keys, counts = np.unique(x_rows, return_counts=True)
    keep = counts >= min_count
    keys, counts = keys[keep], counts[keep]
    if keys.size and y_rows.size:
        ys = np.sort(y_rows)
        i = np.minimum(np.searchsorted(ys, keys), ys.size - 1)
        absent = ys[i] != keys
        keys, counts = keys[absent], counts[absent]
    if keys.size > max_atoms:
        top = np.argsort(-counts, kind="stable")[:max_atoms]
        keys, counts = keys[top], counts[top]
        order = np.argsort(keys)
        keys, counts = keys[order], counts[order]
    return keys, int(np.sum(counts - 1))


def fit_one_sided_atoms(a, b, min_count=ONE_SIDED_MIN_COUNT, max_atoms=MAX_ONE_SIDED_ATOMS):
    """:class:`OneSidedAtoms` of the fitting rows ``a`` (numerator dataset) and ``b``, or None without any.

    Parameters
    ----------
    a, b : array_like
        Fitting rows of the two datasets' selection outputs (first axis: rows).
    min_count : int
        Copies among one dataset's rows that make a row its atom (it must be absent from the other's).
    max_atoms : int
        Most atoms kept per dataset (the most frequent).

    Returns
    -------
    OneSidedAtoms or None
        None when neither dataset has a one-sided atom, or when some output row occurs on both datasets (a law
        with atoms or ties of its own: the rule "two copies make an atom" holds for continuous laws only);
        the attack then offers nothing.
    """
    x = np.asarray(a, dtype=np.float64).reshape(len(a), -1)
    y = np.asarray(b, dtype=np.float64).reshape(len(b), -1)
    if x.shape[1] != y.shape[1]:
        raise ValueError(f"a and b must have the same columns, got {x.shape[1]} and {y.shape[1]}")
    rx, ry = _void_rows(x), _void_rows(y)
    if np.intersect1d(rx, ry).size:
        # an output row both datasets give: the law has atoms (or ties, rounded outputs) of its own, against
        # which two copies mean nothing; the histogram cells and the category table judge such outputs
        return None
    keys_a, excess_a = _atoms_absent_from(rx, ry, min_count, max_atoms)
    keys_b, excess_b = _atoms_absent_from(ry, rx, min_count, max_atoms)
    if keys_a.size == 0 and keys_b.size == 0:
        return None
    return OneSidedAtoms(keys_a, keys_b, x.shape[1], (excess_a, excess_b), (len(x), len(y)))


def one_sided_atom_fits(a, b):
    """The fits of the ``"one-sided-atoms"`` attack: :func:`fit_one_sided_atoms` when it finds atoms."""

    def fit():
        stat = fit_one_sided_atoms(a, b)
        return [] if stat is None else [stat]

    return [fit]
