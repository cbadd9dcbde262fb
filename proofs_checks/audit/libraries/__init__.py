"""Mechanisms of third-party DP libraries as black boxes the auditor can sample, each with the library's own claim.

One module per library, importable without it (the library loads when an adapter is built):
:mod:`.diffprivlib` (IBM), :mod:`.opendp` (OpenDP), :mod:`.python_dp` (Google's differential-privacy library through
python-dp).  Every adapter releases one counting query, ``q(D) = sum_i clip(D[i, 0], 0, 1)`` (sensitivity 1 under
replace-one), through the library's mechanism, unchanged; ``pair()`` gives the canonical pair (``q`` moves by 1),
``claim`` the guarantee the library states for it (``epsilon``/``delta``, ``rho`` or ``mu``), ``seeded`` whether
``sample`` draws from its ``rng`` (diffprivlib: yes, through a ``RandomState`` seeded from it; OpenDP and python-dp
draw from their own secure sources, so their audits need ``allow_unseeded=True`` and are not reproducible).
"""

from __future__ import annotations

import importlib.util

import numpy as np

__all__ = ["LIBRARIES", "available", "counting_pair", "counting_query"]

#: Adapter module -> the distribution it needs.
LIBRARIES = {"diffprivlib": "diffprivlib", "opendp": "opendp", "python_dp": "pydp"}


def available(library: str) -> bool:
    """Whether the library of adapter module ``library`` (a key of :data:`LIBRARIES`) is importable.

    Examples
    --------
    >>> available("no such library")
    Traceback (most recent call last):
    ...
    ValueError: library must be one of ['diffprivlib', 'opendp', 'python_dp'], got 'no such library'
    """
    if library not in LIBRARIES:
        raise ValueError(f"library must be one of {sorted(LIBRARIES)}, got {library!r}")
    return importlib.util.find_spec(LIBRARIES[library]) is not None


def counting_query(data) -> float:
    """``sum_i clip(D[i, 0], 0, 1)``: moves by at most 1 when one record is replaced.

    Examples
    --------
    >>> counting_query([[0.5], [3.0], [-1.0]])
    1.5
    """
    d = np.asarray(data, dtype=np.float64)
    if d.ndim != 2 or d.shape[1] < 1:
        raise ValueError(f"data must be a 2-D array of records, got shape {d.shape}")
    return float(np.clip(d[:, 0], 0.0, 1.0).sum())


def counting_pair(n: int = 4):
    """The canonical pair of :func:`counting_query`: ``n`` zero records, then record 0 replaced by 1.

    Examples
    --------
    >>> D, Dp = counting_pair(3)
    >>> counting_query(Dp) - counting_query(D)
    1.0
    """
    D = np.zeros((n, 1))
    Dp = D.copy()
    Dp[0, 0] = 1.0
    return D, Dp
