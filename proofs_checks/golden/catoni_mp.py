"""Independent values of the Catoni golden cases in mpmath (no float64 code of ``reference``).

* ``phi`` of [002 eq. (2)]: ``x - x^3/6`` on ``[-sqrt 2, sqrt 2]``, ``+-2 sqrt(2)/3`` outside, at 60 digits;
* the printed ``C-hat(a, b)`` of [002 App. A]: its five terms in mpmath at enough digits to survive their
  cancellation (:func:`proofs_checks.formulas.catoni_reference.c_hat_mp`); ``b = 0`` has no value (the
  identity [002 eq. (5)] is stated for ``b > 0``): NaN, like the float64 golden value, which is not compared;
* ``robust_mean`` [002 eq. (4)] and ``robust_gradient`` [002 Alg. 1 step 4]: ``s`` times the mean over the
  samples of the exact ``E[phi(a + b Z)]``, ``a = x/s``, ``b = |x|/(s sqrt beta)`` from identity
  [002 eq. (5)] at adaptive precision (:func:`proofs_checks.formulas.catoni_points.reference_values`,
  ``method="closed"``, checked against split quadrature by the claim ``catoni.identity5.math``).  The
  printed and standard variants are the same mathematics, so both are held to this value.

References
----------
.. [1] L. Hu, S. Ni, H. Xiao and D. Wang, ``002_6c597657f27a60c9.txt``: [002 eq. (2)], [002 eq. (4)],
       [002 eq. (5)], [002 App. A], [002 Alg. 1 step 4].
"""

from __future__ import annotations

import mpmath
import numpy as np

from ..formulas.catoni_points import reference_values
from ..formulas.catoni_reference import c_hat_mp, phi_mp

__all__ = ["DIGITS", "PROVENANCE", "phi", "c_hat", "robust_mean"]

#: Significant digits of the values (more where a sum cancels: see :func:`c_hat`).
DIGITS = 60

#: Provenance of the values of this module.
PROVENANCE = (
    "mpmath from the printed formulas (proofs_checks/golden/catoni_mp.py): phi [002 eq. (2)] at 60 digits; "
    "C-hat [002 App. A] at 60 digits plus the decimal range of its terms; robust_mean / robust_gradient as s "
    "times the mean of exact E[phi(a + bZ)] by identity [002 eq. (5)] at adaptive precision"
)


def phi(x):
    """``phi`` of [002 eq. (2)] at each float64 of ``x`` (a list of mpf).

    Examples
    --------
    >>> [mpmath.nstr(v, 8) for v in phi([0.5, -3.0])]
    ['0.47916667', '-0.94280904']
    """
    with mpmath.workdps(DIGITS):
        return [+phi_mp(mpmath.mpf(float(v))) for v in np.ravel(np.asarray(x, dtype=np.float64))]


def _c_hat_one(a, b):
    if b == 0:
        return mpmath.nan
    with mpmath.workdps(30):
        ma, mb = abs(mpmath.mpf(a)), mpmath.mpf(b)
        big = max(ma, ma**3, ma * mb**2, mb**3, mpmath.mpf(1))
        small = min(mpmath.mpf(1), mb if mb > 0 else mpmath.mpf(1), ma if ma > 0 else mpmath.mpf(1)) ** 3
        extra = int(mpmath.log10(big / small)) + 10
    with mpmath.workdps(DIGITS + extra):
        return c_hat_mp(mpmath.mpf(a), mpmath.mpf(b))


def c_hat(a, b):
    """The printed ``C-hat(a, b)`` [002 App. A] at each pair of float64 inputs (a list of mpf; NaN at ``b = 0``).

    Examples
    --------
    >>> mpmath.nstr(c_hat([0.3], [0.2])[0], 6)
    '2.04983e-11'
    """
    a, b = np.broadcast_arrays(np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64))
    return [_c_hat_one(float(x), float(y)) for x, y in zip(a.ravel(), b.ravel())]


def robust_mean(x, s, beta, axis=0):
    """``s * mean(E[phi(x/s + |x|/(s sqrt beta) Z)])`` along ``axis`` (0 for a 2-d array): a list of mpf, in the
    order of the result's elements.

    Each ``a = x/s`` and ``b = |x|/(s sqrt beta)`` is exact in mpmath; the expectations are evaluated at
    float64 points nearest to them, which moves a term by at most an ulp of ``a`` times ``sup |phi'| = 1``.

    Examples
    --------
    >>> mpmath.nstr(robust_mean([0.0, 0.0], 1.0, 0.5)[0], 5)
    '0.0'
    """
    x = np.asarray(x, dtype=np.float64)
    cols = x.reshape(x.shape[0], -1) if x.ndim > 1 else x.reshape(-1, 1)
    del axis  # the golden cases average over axis 0 (the samples), as the port call states
    with mpmath.workdps(DIGITS):
        ms, root = mpmath.mpf(float(s)), mpmath.sqrt(mpmath.mpf(float(beta)))
        out = []
        for j in range(cols.shape[1]):
            col = [mpmath.mpf(float(v)) for v in cols[:, j]]
            a = np.array([float(v / ms) for v in col])
            b = np.array([float(abs(v) / (ms * root)) for v in col])
            terms = reference_values(a, b, method="closed")
            out.append(ms * mpmath.fsum(terms) / len(col))
        return out
