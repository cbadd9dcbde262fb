"""scipy.stats densities on the hot paths of the quadratures, scipy's expressions without its per-call overhead.

``scipy.stats.t.pdf`` and ``lomax.sf`` spend about 1 ms a call on argument handling (``rv_continuous``'s
checks and ``apply_where``), which the rate checks of 000 and 002 paid at every quadrature node. These
functions evaluate the same expressions in the same order as scipy 1.17's ``t._logpdf`` and ``lomax._sf``.
Their ``exp``, ``log`` and ``log1p`` are numpy's, whose code the CPU chooses (``docs/reproducibility.md``,
section 2), and scipy decides how it calls them, so the promise is a stated bound, not scipy's bits: a few
ulps of the exponent (``tests/_two_routes.py``; measured: the same bits on the native and the baseline path).
``tests/test_wang_xu_data_fast.py`` and ``tests/test_rates_hu.py`` check that bound against scipy from 0 to
inf, subnormals and nan included, and that it rejects a value off by 1e-12 relative, so a scipy that changes
its formula is noticed.

References
----------
.. [1] SciPy 1.17, ``scipy/stats/_continuous_distns.py``: ``t_gen._logpdf``, ``lomax_gen._sf``.
"""

from __future__ import annotations

import numpy as np
from scipy import special

__all__ = ["lomax_sf", "t_pdf"]


def t_pdf(x, df):
    """``scipy.stats.t.pdf(x, df)`` for finite ``df``: its expression, within the bound of the module docstring.

    ``exp(log(poch(df/2, 1/2)) - (log df + log pi)/2 - (df + 1)/2 log1p(x^2/df))``; a 0-d input gives a
    scalar.  ``x^2`` overflows to inf for ``|x| > 1e154``: ``log1p(inf) = inf`` and the density is 0, as
    scipy's (no warning).

    >>> from scipy import stats
    >>> bool(abs(t_pdf(0.7, 3.0) / stats.t.pdf(0.7, 3.0) - 1) <= 1.1e-14)   # the stated bound at this point
    True
    """
    x = np.asarray(x, dtype=np.float64)
    df = np.asarray(float(df))
    with np.errstate(over="ignore"):
        out = np.exp(
            np.log(special.poch(0.5 * df, 0.5))
            - 0.5 * (np.log(df) + np.log(np.pi))
            - (df + 1) / 2 * np.log1p(x * x / df)
        )
    return out[()] if out.ndim == 0 else out


def lomax_sf(z, alpha):
    """``scipy.stats.lomax.sf(z, alpha)`` for ``z >= 0`` (or nan), its expression ``exp(-alpha log1p(z))``.

    >>> from scipy import stats
    >>> bool(abs(lomax_sf(0.7, 2.5) / stats.lomax.sf(0.7, 2.5) - 1) <= 4.5e-15)   # the stated bound at this point
    True
    """
    z = np.asarray(z, dtype=np.float64)
    out = np.exp(-np.asarray(float(alpha)) * special.log1p(z))
    return out[()] if out.ndim == 0 else out
