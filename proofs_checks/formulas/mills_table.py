"""Generate ``reference/hu/_mills_table.py``: polynomial pieces of ``erfcx(x/sqrt 2)``, ``J_2``, ``J_3``.

Two tables for the kernel of ``E[phi(a + bZ)]`` (:mod:`reference.hu._ephi_kernel`):

``J_k(x) = E[(Z - x)_+^k] = int_x^inf (z - x)^k phi(z) dz`` (k = 2, 3) on ``[-1, 9.5)``, pieces of
width 1/8, each the degree-9 Chebyshev interpolant (mpmath, 40 digits, at Chebyshev points)
converted to the monomial basis of the local variable for Horner's rule; on every piece the
dropped Chebyshev coefficients sum below ``max(5e-19, 2e-17 |J_k|)``.

The ``erfcx`` table:

``f(x) = 2 Q(x) exp(x^2/2)`` (``Q`` the standard normal upper tail), so ``Q(x) = exp(-x^2/2) f(x)/2``
with one exponential and no cancellation.  On ``[0, 16)`` the table holds, for each piece
``[k w, (k+1) w)`` (``w = 1/8``), the Chebyshev coefficients of degree 9 (the next one is below
4e-19 relative on every piece) of ``f`` in ``t = 2 (x - k w)/w - 1``, computed in
mpmath at 40 digits by interpolation at Chebyshev points and rounded to float64.  Beyond 16 the
kernel uses the asymptotic series (``Q(16) < 1e-57``).

Run ``python -m proofs_checks.formulas.mills_table`` to rewrite the table; the test
``tests/test_catoni_kernel.py`` checks the float64 evaluation against mpmath.
"""

from __future__ import annotations

import pathlib

import mpmath as mp

__all__ = [
    "WIDTH",
    "X_MAX",
    "DEGREE",
    "DPS",
    "f_mp",
    "chebyshev_coefficients",
    "J_LO",
    "J_HI",
    "J_WIDTH",
    "J_DEGREE",
    "j_mp",
    "monomial_coefficients",
    "j_table",
    "table",
    "write",
]

WIDTH = 0.125
X_MAX = 16.0
DEGREE = 9
DPS = 40


def f_mp(x):
    x = mp.mpf(x)
    return mp.erfc(x / mp.sqrt(2)) * mp.exp(x * x / 2)


def chebyshev_coefficients(lo, hi, degree=DEGREE):
    """Chebyshev interpolation coefficients of ``f`` on ``[lo, hi]`` (``degree + 1`` of them)."""
    n = degree + 1
    with mp.workdps(DPS):
        lo, hi = mp.mpf(lo), mp.mpf(hi)
        nodes = [mp.cos(mp.pi * (k + mp.mpf(1) / 2) / n) for k in range(n)]
        vals = [f_mp((hi - lo) / 2 * t + (hi + lo) / 2) for t in nodes]
        coeffs = []
        for j in range(n):
            c = sum(v * mp.cos(mp.pi * j * (k + mp.mpf(1) / 2) / n) for k, v in enumerate(vals)) * 2 / n
            coeffs.append(c / 2 if j == 0 else c)
        return [float(c) for c in coeffs]


#: Pieces of the truncated Gaussian moments J_2, J_3 (see :func:`j_mp`): [J_LO, J_HI), width J_WIDTH.
J_LO = -1.0
J_HI = 9.5
J_WIDTH = 0.125
J_DEGREE = 9


def j_mp(k, x):
    """``J_k(x) = E[(Z - x)_+^k] = int_x^inf (z - x)^k phi(z) dz`` for k = 2, 3, in mpmath."""
    x = mp.mpf(x)
    q = mp.ncdf(-x)
    p = mp.npdf(x)
    if k == 2:
        return (1 + x * x) * q - x * p
    if k == 3:
        return (x * x + 2) * p - x * (x * x + 3) * q
    raise ValueError(k)


def monomial_coefficients(f, lo, hi, degree):
    """Coefficients ``m_0..m_degree`` of the Chebyshev interpolant of ``f`` on ``[lo, hi]`` in the
    monomial basis of ``t = 2 (x - lo)/(hi - lo) - 1`` (for Horner's rule), converted in mpmath."""
    n = degree + 1
    with mp.workdps(DPS + 20):
        lo, hi = mp.mpf(lo), mp.mpf(hi)
        nodes = [mp.cos(mp.pi * (k + mp.mpf(1) / 2) / n) for k in range(n)]
        vals = [f((hi - lo) / 2 * t + (hi + lo) / 2) for t in nodes]
        cheb = []
        for j in range(n):
            c = sum(v * mp.cos(mp.pi * j * (k + mp.mpf(1) / 2) / n) for k, v in enumerate(vals)) * 2 / n
            cheb.append(c / 2 if j == 0 else c)
        # T_j in the monomial basis: T_0 = 1, T_1 = t, T_{j+1} = 2 t T_j - T_{j-1}
        mono = [mp.mpf(0)] * n
        t_prev, t_cur = [mp.mpf(1)] + [mp.mpf(0)] * degree, [mp.mpf(0), mp.mpf(1)] + [mp.mpf(0)] * (degree - 1)
        for j in range(n):
            tj = t_prev if j == 0 else t_cur
            for i in range(n):
                mono[i] += cheb[j] * tj[i]
            if j >= 1:
                nxt = [2 * (tj[i - 1] if i else 0) - t_prev[i] for i in range(n)]
                t_prev, t_cur = t_cur, nxt
        return [float(m) for m in mono]


def j_table():
    """Rows ``(J_2 coefficients..., J_3 coefficients...)``, one per piece of ``[J_LO, J_HI)``."""
    pieces = int(round((J_HI - J_LO) / J_WIDTH))
    rows = []
    with mp.workdps(DPS):
        for k in range(pieces):
            lo, hi = J_LO + k * J_WIDTH, J_LO + (k + 1) * J_WIDTH
            rows.append(
                monomial_coefficients(lambda x: j_mp(2, x), lo, hi, J_DEGREE)
                + monomial_coefficients(lambda x: j_mp(3, x), lo, hi, J_DEGREE)
            )
    return rows


def table():
    pieces = int(X_MAX / WIDTH)
    return [chebyshev_coefficients(k * WIDTH, (k + 1) * WIDTH) for k in range(pieces)]


def write(path=None):
    path = pathlib.Path(path or pathlib.Path(__file__).resolve().parents[2] / "reference" / "hu" / "_mills_table.py")
    rows = table()
    lines = [
        f'"""Chebyshev pieces of ``erfcx(x/sqrt 2)`` on ``[0, {X_MAX:g})``, width {WIDTH}, degree {DEGREE}, and of',
        f"``J_2``, ``J_3`` on ``[{J_LO:g}, {J_HI:g})`` (generated).",
        "",
        f"Provenance: mpmath, {DPS} digits, interpolation at Chebyshev points; written by",
        "``python -m proofs_checks.formulas.mills_table`` (do not edit by hand).",
        '"""',
        "",
        f"WIDTH = {WIDTH!r}",
        f"X_MAX = {X_MAX!r}",
        f"DEGREE = {DEGREE!r}",
        "COEFFS = (",
    ]
    for row in rows:
        lines.append("    (" + ", ".join(repr(c) for c in row) + "),")
    lines.append(")")
    lines += [
        "",
        f"# J_2(x), J_3(x) (J_k(x) = E[(Z - x)_+^k]) on [{J_LO}, {J_HI}), pieces of width {J_WIDTH}: per piece the",
        f"# monomial coefficients (degree {J_DEGREE}) in t = 2 (x - lo)/width - 1 of J_2, then of J_3.",
        f"J_LO = {J_LO!r}",
        f"J_HI = {J_HI!r}",
        f"J_WIDTH = {J_WIDTH!r}",
        f"J_DEGREE = {J_DEGREE!r}",
        "J_COEFFS = (",
    ]
    for row in j_table():
        lines.append("    (" + ", ".join(repr(c) for c in row) + "),")
    lines.append(")")
    path.write_text("\n".join(lines) + "\n")
    return path


if __name__ == "__main__":
    print(write())
