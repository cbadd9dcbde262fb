"""Stress grid of ``E[phi(a + bZ)]`` with mpmath reference values, stored for the default test suite.

``python -m proofs_checks.formulas.catoni_stress [--out tests/data/catoni_stress.npz] [--check N]``
writes the points and their reference values to a compressed NPZ file:

- ``a``, ``b``: float64 points (exact);
- ``ref_hi``, ``ref_lo``: the reference as a double-double (``ref_hi + ref_lo`` carries ~32
  significant digits, far more than the float64 comparison needs);
- ``provenance``: a JSON string (reference method and precision, mpmath/numpy versions, seed,
  composition of the grid, the cross-check against the quadrature reference).

The points (about 20 000): the log grid ``a in {0} U +-10^k``, ``b in {0} U 10^k`` (k every 20
decades in [-300, 300] and every half decade in [-3, 3]); the special points of
:mod:`proofs_checks.formulas.catoni` (kinks and their float neighbours, subnormals, ``+-1.7e308``);
the switching surfaces of the kernel in :mod:`reference.hu._ephi_kernel` and their float
neighbours (``U = +-9``, ``U = 1``, ``b = 1``, ``2a/b = 0.25``, ``2 r a / b^2 = 1``, the
narrow-interval test, the ends of the table pieces of ``erfcx``, ``J_2``, ``J_3`` in ``U`` and ``V``); random log-uniform points over the whole float64
range and random points in the band ``1e-4 <= |a| <= 1e2``, ``1e-4 <= b <= 1e3``.

Reference: identity (5) with the printed C-hat evaluated in mpmath at adaptive precision
(:func:`proofs_checks.formulas.catoni.expected_phi_closed_mp`: 36 digits of the result, the working
precision raised by the digits the cancellation costs, re-evaluated with 20 more digits and
required to agree); ``phi`` itself at ``b = 0``.  Identity (5) is exact mathematics (claim
``catoni.identity5.math``); ``--check N`` recomputes N random points of the grid with the
independent split quadrature (:func:`proofs_checks.formulas.catoni.expected_phi_mp`, 36 digits)
and records the largest difference in the provenance.
"""

from __future__ import annotations

import argparse
import json
import math
import pathlib
import platform
import sys

import mpmath as mp
import numpy as np

from . import catoni as F

__all__ = ["DEFAULT_OUT", "SEED", "R", "switching_points", "stress_points", "reference", "generate", "load", "main"]

DEFAULT_OUT = pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "catoni_stress.npz"
SEED = 20240517
R = math.sqrt(2.0)


def _neighbours(x, k=2):
    out = [x]
    lo = hi = x
    for _ in range(k):
        lo = np.nextafter(lo, -np.inf)
        hi = np.nextafter(hi, np.inf)
        out += [lo, hi]
    return out


def switching_points(rng, n_each=60):
    """Points on and next to the kernel's switching surfaces (a >= 0 and b > 0, both signs of a added)."""
    a_list, b_list = [], []

    def add(a, b):
        for aa in _neighbours(float(a), 1):
            for bb in _neighbours(float(b), 1):
                if bb > 0 and np.isfinite(aa) and np.isfinite(bb):
                    a_list.append(aa)
                    b_list.append(bb)

    bs = 10.0 ** rng.uniform(-12, 3, n_each)
    for b in bs:  # U = +-9: a = r -+ 9 b
        add(max(R - 9.0 * b, 0.0), b)
        add(R + 9.0 * b, b)
    for a in 10.0 ** rng.uniform(-6, 1.2, n_each):  # b = 1
        add(a, 1.0)
    for b in 10.0 ** rng.uniform(-3, 0, n_each):  # c = 2 r a / b^2 = 1
        add(b * b / (2.0 * R), b)
    for b in 10.0 ** rng.uniform(-2, 0, n_each):  # narrow test: (a/b)((r + a)/b) = 1
        add((-R + math.sqrt(2.0 + 4.0 * b * b)) / 2.0, b)
    for b in 10.0 ** rng.uniform(-1, 0, n_each):  # U = 1 (form of the band) and 2a/b = 0.25
        add(R - b, b)
        add(0.125 * b, b)
    for _ in range(n_each):  # ends of the J_2, J_3 pieces in U and V
        b = 10.0 ** rng.uniform(-1.5, 0)
        k = rng.integers(0, 84)
        x = -1.0 + 0.125 * k
        add(abs(R - x * b), b)  # U = x
        if x * b - R > 0:
            add(x * b - R, b)  # V = x
    for _ in range(n_each):  # ends of the erfcx pieces in U and in V
        b = 10.0 ** rng.uniform(-1.5, 0)
        k = rng.integers(0, 18)
        add(abs(R - 0.5 * k * b), b)  # U = +-k/2
        a_v = 0.5 * k * b - R  # V = k/2
        if a_v > 0:
            add(a_v, b)
    a = np.array(a_list)
    b = np.array(b_list)
    sign = rng.choice([-1.0, 1.0], a.size)
    return a * sign, b


def stress_points(seed=SEED, n_random=4000, n_band=9000):
    rng = np.random.default_rng(seed)
    parts = {}
    parts["grid"] = F.grid_points(20)
    parts["special"] = F.special_points()
    parts["switching"] = switching_points(rng)
    a = rng.choice([-1.0, 1.0], n_random) * 10.0 ** rng.uniform(-310, 308.2, n_random)
    b = 10.0 ** rng.uniform(-320, 308.2, n_random)
    b[:50] = 0.0
    parts["random"] = (a, b)
    a = rng.choice([-1.0, 1.0], n_band) * 10.0 ** rng.uniform(-4, 2, n_band)
    b = 10.0 ** rng.uniform(-4, 3, n_band)
    parts["band"] = (a, b)
    a = np.concatenate([p[0] for p in parts.values()])
    b = np.concatenate([p[1] for p in parts.values()])
    counts = {k: int(v[0].size) for k, v in parts.items()}
    return a, b, counts


def reference(a, b):
    """Closed-form mpmath reference (see the module docstring): the mpf values and their
    double-double ``(hi, lo)`` (below about 1e-290 ``lo`` underflows and ``hi`` alone is kept,
    still far more accurate than any absolute tolerance in float64)."""
    vals = [F._ref_closed(float(x), float(y)) for x, y in zip(a, b)]
    hi = np.empty(a.size)
    lo = np.empty(a.size)
    for i, v in enumerate(vals):
        with mp.workdps(40):
            h = float(v)
            hi[i] = h
            lo[i] = float(v - mp.mpf(h))
    return vals, hi, lo


def generate(out=DEFAULT_OUT, seed=SEED, check=2000):
    a, b, counts = stress_points(seed)
    vals, hi, lo = reference(a, b)
    check_info = None
    if check:
        rng = np.random.default_rng(seed + 1)
        idx = rng.choice(a.size, size=min(check, a.size), replace=False)
        worst_rel = mp.mpf(0)
        worst_abs = mp.mpf(0)
        for i in idx:
            q = F.expected_phi_mp(float(a[i]), float(b[i]))
            with mp.workdps(40):
                d = abs(q - vals[i])
                worst_abs = max(worst_abs, d)
                if q != 0:
                    worst_rel = max(worst_rel, d / abs(q))
        check_info = {
            "points": int(idx.size),
            "method": "split quadrature, 36 digits (expected_phi_mp)",
            "max_relative_difference": float(worst_rel),
            "max_absolute_difference": float(worst_abs),
        }
    provenance = {
        "what": "E[phi(a + bZ)], Z ~ N(0, 1), phi of 002 eq. (2); value = ref_hi + ref_lo",
        "reference": (
            "mpmath, 36 digits: identity (5) with the printed C-hat at adaptive precision "
            "(proofs_checks.formulas.catoni.expected_phi_closed_mp), phi at b = 0"
        ),
        "cross_check": check_info,
        "points": int(a.size),
        "composition": counts,
        "seed": seed,
        "command": "python -m proofs_checks.formulas.catoni_stress",
        "mpmath": mp.__version__,
        "numpy": np.__version__,
        "python": platform.python_version(),
    }
    out = pathlib.Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out, a=a, b=b, ref_hi=hi, ref_lo=lo, provenance=np.array(json.dumps(provenance)))
    return out, provenance


def load(path=DEFAULT_OUT):
    """``(a, b, ref_hi, ref_lo, provenance dict)`` from a stored stress file."""
    with np.load(path) as z:
        return z["a"], z["b"], z["ref_hi"], z["ref_lo"], json.loads(str(z["provenance"]))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default=str(DEFAULT_OUT))
    p.add_argument("--seed", type=int, default=SEED)
    p.add_argument("--check", type=int, default=2000, help="points re-checked with the quadrature reference")
    args = p.parse_args(argv)
    path, prov = generate(args.out, args.seed, args.check)
    print(f"wrote {path}: {prov['points']} points; cross-check {prov['cross_check']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
