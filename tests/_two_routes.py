"""Stated bounds between two evaluations of one formula whose elementary functions may run different code.

A formula written out by the project and the same formula inside scipy (or numpy's SIMD loops against the C
library) perform the same IEEE operations in the same order, but their ``exp``, ``log``, ``log1p`` ... are
chosen by the CPU at run time (``docs/reproducibility.md``, section 2).  Each implementation is within
``FUNCTION_ULPS`` ulps of the exact value, so two of them differ by at most ``2 FUNCTION_ULPS`` ulps, that is
:data:`FUNCTION_GAP` relative (an ulp is at most ``2u`` of a normal value); below the normal range the ulp is
the absolute ``5e-324``.  An IEEE operation applied to two inputs that already differ rounds each result once,
so it adds at most ``2u`` of its result's magnitude to the difference it receives.  The bounds below add these
up for the formulas the tests compare with scipy; they are worst cases, the measured differences are 0 or 1 ulp.
"""

import numpy as np

from reference.floating import FUNCTION_ULPS, UNIT_ROUNDOFF

U = UNIT_ROUNDOFF
#: Relative difference of two implementations of one elementary function (normal results).
FUNCTION_GAP = 4.0 * FUNCTION_ULPS * U
#: Absolute difference of two implementations where the result is subnormal: ``2 FUNCTION_ULPS`` ulps of 5e-324.
SUBNORMAL_GAP = 2.0 * FUNCTION_ULPS * 5e-324


def exp_gap(a, b, exponent_gap):
    """Largest ``|a - b|`` for ``a = exp_1(L_1)``, ``b = exp_2(L_2)`` with ``|L_1 - L_2| <= exponent_gap``.

    ``exp(L_1) = exp(L_2) e^(L_1 - L_2)`` and each implementation adds ``FUNCTION_GAP / 2`` relative.
    """
    rel = (np.expm1(exponent_gap) * (1.0 + FUNCTION_GAP) + FUNCTION_GAP) / (1.0 - FUNCTION_GAP)
    with np.errstate(invalid="ignore"):
        return rel * np.maximum(np.abs(a), np.abs(b)) + SUBNORMAL_GAP


def t_pdf_gap(x, df, a, b):
    """Bound between two evaluations of scipy 1.17's ``t.pdf`` expression (``reference/_densities.py``).

    ``exp(log(poch(df/2, 1/2)) - (log df + log pi)/2 - (df + 1)/2 log1p(x^2/df))``: four function values
    (``poch`` counted with its ``log``) each ``FUNCTION_GAP`` relative apart, four roundings of partial sums
    bounded by ``S = |log poch| + |log df| + log pi + (df + 1)/2 log1p(x^2/df)``.  ``x^2/df`` overflowing to
    ``inf`` gives ``S = inf``: both sides are then ``exp(-inf) = 0`` exactly (:func:`assert_within` requires it).
    """
    from scipy import special

    x = np.asarray(x, dtype=np.float64)
    df = float(df)
    with np.errstate(over="ignore", invalid="ignore"):
        s = (
            abs(np.log(special.poch(0.5 * df, 0.5)))
            + abs(np.log(df))
            + np.log(np.pi)
            + (df + 1) / 2 * np.log1p(x * x / df)
        )
        exponent_gap = (FUNCTION_GAP + 8 * U) * s + FUNCTION_GAP
    return exp_gap(a, b, exponent_gap)


def lomax_sf_gap(z, alpha, a, b):
    """Bound between two evaluations of scipy 1.17's ``lomax.sf`` expression ``exp(-alpha log1p(z))``.

    One function value (``log1p``, ``FUNCTION_GAP`` relative) and one rounding of the product in the exponent.
    """
    with np.errstate(invalid="ignore"):
        s = float(alpha) * np.log1p(np.asarray(z, dtype=np.float64))
    return exp_gap(a, b, (FUNCTION_GAP + 2 * U) * s)


def logsumexp_gap(w):
    """Bound between two evaluations of scipy 1.17's ``logsumexp`` arithmetic on the rows of ``w`` (finite maximum).

    ``log1p(r / c) + log c + m``, ``r`` the sum of the ``n`` terms ``exp(w_i - m)`` below the maximum ``m``
    (reached ``c`` times): the terms differ by ``FUNCTION_GAP`` relative and the two sums, in one order, by
    ``2 gamma_n r`` more; ``log1p`` has slope ``1/(1 + r/c)``; ``log1p`` and ``log`` add ``FUNCTION_GAP`` of
    their values and the two final additions ``2u`` of their results each.  Returns one bound per row (kept axis).
    """
    w = np.asarray(w, dtype=np.float64)
    n = w.shape[-1]
    gamma_n = n * U / (1 - n * U)
    m = w.max(axis=-1, keepdims=True)
    c = (w == m).sum(axis=-1, keepdims=True)
    with np.errstate(under="ignore"):
        terms = np.exp(np.where(w == m, -np.inf, w) - m)
    rho = terms.sum(axis=-1, keepdims=True) / c
    log_terms = np.log1p(rho) + np.log(c)
    return (
        (FUNCTION_GAP + 2 * gamma_n + 2 * U) * rho / (1 + rho)
        + n * SUBNORMAL_GAP
        + (FUNCTION_GAP + 4 * U) * log_terms
        + 2 * U * np.abs(m)
    )


def within(got, want, gap):
    """Element-wise: equal (infinities and NaN included) or at most ``gap`` apart."""
    got, want = np.asarray(got, dtype=np.float64), np.asarray(want, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        return (got == want) | (np.isnan(got) & np.isnan(want)) | (np.abs(got - want) <= gap)


def assert_within(got, want, gap):
    """:func:`within` everywhere, with the worst entry in the message."""
    ok = within(got, want, gap)
    if not np.all(ok):
        got, want = np.broadcast_arrays(np.asarray(got, dtype=np.float64), np.asarray(want, dtype=np.float64))
        gap = np.broadcast_to(gap, got.shape)
        i = np.flatnonzero(~ok.ravel())[0]
        raise AssertionError(
            f"{(~ok).sum()} entries beyond the stated bound; first at {i}: got {got.flat[i]!r}, "
            f"want {want.flat[i]!r}, bound {gap.flat[i]!r}"
        )
