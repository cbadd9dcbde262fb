"""The points of the accuracy report of ``E[phi(a + b Z)]`` and their mpmath reference values (cached).

A log-spaced grid over the float64 range (:func:`grid_points`), the kinks and extremes
(:func:`special_points`) and random log-uniform points (:func:`random_points`); :func:`reference_values`
evaluates a reference of :mod:`proofs_checks.formulas.catoni_reference` at each (odd in ``a``: negative
``a`` reuse the positive one, negated without rounding).

References
----------
.. [1] L. Hu, S. Ni, H. Xiao and D. Wang, ``002_6c597657f27a60c9.txt``: [002 eq. (2)], [002 eq. (5)].
"""

from __future__ import annotations

import functools
import math

import mpmath as mp
import numpy as np

from .catoni_reference import DPS, expected_phi_closed_mp, expected_phi_mp, phi_mp

__all__ = ["grid_points", "special_points", "random_points", "REFERENCES", "reference_values"]


def _log_grid(n_decades_step):
    exps = np.unique(np.concatenate([np.arange(-300, 301, n_decades_step), np.arange(-3, 3.01, 0.5)]))
    return 10.0**exps


def grid_points(step=25):
    """Log-spaced grid: ``a in {0} U +-10^k``, ``b in {0} U 10^k`` (k every ``step`` decades in
    [-300, 300] plus every half decade in [-3, 3]).  Returns (a, b) float64 arrays."""
    mags = _log_grid(step)
    a_vals = np.concatenate([-mags[::-1], [0.0], mags])
    b_vals = np.concatenate([[0.0], mags])
    aa, bb = np.meshgrid(a_vals, b_vals, indexing="ij")
    return aa.ravel(), bb.ravel()


def special_points():
    """Kinks, their float neighbours, subnormals and the largest floats."""
    r = math.sqrt(2.0)
    a_list = [r, np.nextafter(r, 0), np.nextafter(r, 3), -r, 1.0, 1.5, 5e-324, 1e-310, 1.7e308, -1.7e308, 0.0]
    b_list = [5e-324, 1e-310, 1e-17, 1e-8, 0.01, 0.999999, 1.0, 1.000001, 30.0, 1.7e308]
    aa, bb = np.meshgrid(a_list, b_list, indexing="ij")
    return aa.ravel(), bb.ravel()


def random_points(rng, n):
    """``n`` random points, log-uniform magnitudes over the float64 range and random signs."""
    a = rng.choice([-1.0, 1.0], n) * 10.0 ** rng.uniform(-305, 305, n)
    b = 10.0 ** rng.uniform(-305, 305, n)
    # half of them in the interesting band
    k = n // 2
    a[:k] = rng.choice([-1.0, 1.0], k) * 10.0 ** rng.uniform(-4, 4, k)
    b[:k] = 10.0 ** rng.uniform(-4, 4, k)
    return a, b


def _negate(v):
    """``-v`` without rounding to the caller's precision (mpmath rounds ``-v`` to the current one,
    53 bits by default)."""
    with mp.workprec(max(v.context.prec, v._mpf_[3] if v else 0, 64) + 10):
        return -v


@functools.lru_cache(maxsize=200_000)
def _ref_quad(a, b):
    if a < 0:
        return _negate(_ref_quad(-a, b))
    return expected_phi_mp(a, b)


@functools.lru_cache(maxsize=200_000)
def _ref_closed(a, b):
    if b == 0:
        with mp.workdps(DPS):
            return phi_mp(a)
    if a < 0:
        return _negate(_ref_closed(-a, b))
    return expected_phi_closed_mp(a, b)


REFERENCES = ("quad", "closed")


def reference_values(a, b, method="quad"):
    """mpmath reference ``E phi(a + bZ)`` at float64 points (a list of mpf).

    ``method="quad"``: split quadrature (:func:`expected_phi_mp`, ~10-50 ms a point).
    ``method="closed"``: identity (5) in mpmath at adaptive precision (~1 ms a point); exact
    mathematics once identity (5) is confirmed, which the claim ``catoni.identity5.math`` checks
    against the quadrature.
    """
    if method not in REFERENCES:
        raise ValueError(f"reference method must be one of {REFERENCES}, got {method!r}")
    fn = _ref_quad if method == "quad" else _ref_closed
    return [fn(float(x), float(y)) for x, y in zip(np.ravel(a), np.ravel(b))]
