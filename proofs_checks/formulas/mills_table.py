"""Generate ``reference/hu/_mills_table.py``: Chebyshev pieces of ``f(x) = erfcx(x/sqrt 2)``.

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


def table():
    pieces = int(X_MAX / WIDTH)
    return [chebyshev_coefficients(k * WIDTH, (k + 1) * WIDTH) for k in range(pieces)]


def write(path=None):
    path = pathlib.Path(path or pathlib.Path(__file__).resolve().parents[2] / "reference" / "hu" / "_mills_table.py")
    rows = table()
    lines = [f'"""Chebyshev pieces of ``erfcx(x/sqrt 2)`` on ``[0, {X_MAX:g})``, width {WIDTH}, degree {DEGREE} (generated).',
             "",
             f"Provenance: mpmath, {DPS} digits, interpolation at Chebyshev points; written by",
             "``python -m proofs_checks.formulas.mills_table`` (do not edit by hand).",
             '"""',
             "",
             f"WIDTH = {WIDTH!r}",
             f"X_MAX = {X_MAX!r}",
             f"DEGREE = {DEGREE!r}",
             "COEFFS = ("]
    for row in rows:
        lines.append("    (" + ", ".join(repr(c) for c in row) + "),")
    lines.append(")")
    path.write_text("\n".join(lines) + "\n")
    return path


if __name__ == "__main__":
    print(write())
