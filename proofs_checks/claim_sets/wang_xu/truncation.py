"""The truncation function psi of Wang & Xu (000): [000 eq. (6)] (theta = 2) and [000 eq. (16)].

The paper states that psi satisfies [000 eq. (3)] / [000 eq. (15)], is non-decreasing, is bounded
by ``log theta`` in absolute value (text below (6), text beside [000 Alg. 2]) and, by its third
case ``psi(x) = -psi(-x)``, is odd.  Each check evaluates the implementation
(:func:`reference.wang_xu.truncation.psi`) on one float64 grid (uniform on [-4, 4], log-spaced over
the whole float64 range, special values, and ulp-by-ulp scans near 0.25, 0.5, 0.9 and 1), finds
the point the rule of :func:`proofs_checks.verdicts.compare` judges closest to failing, and judges
that point: ``observed`` is psi there and ``bound`` what the statement compares it with.
"""

from __future__ import annotations

import math

import numpy as np

from reference.wang_xu.truncation import psi, psi_lower_envelope, psi_upper_envelope

from ...model import Claim, Result
from ...builders import compare_result
from ...verdicts import ULP_RTOL

#: psi is evaluated in float64 to its last bits: 8 ulps of max(1, |bound|) is the slack (the psi
#: checks' tolerance before issue 13; the rounding tolerance 1e-9 would hide a slip of 1e-10).
PSI_RTOL = PSI_ATOL = 2 * ULP_RTOL
from ._common import THETAS_QUICK

__all__ = ["psi_grid", "psi_inequality_check", "psi_monotone_check", "psi_bounded_check", "psi_odd_check",
           "register"]

GRID_METHOD = ("float64 evaluation on a grid of {points} points (uniform on [-4, 4], log-spaced over the float64 "
               "range, special values, ulp-by-ulp scans near 0.25, 0.5, 0.9, 1), theta in {thetas}; "
               "tolerance 8 ulps of max(1, |bound|) (verdicts.compare with rtol = atol = 2 ULP_RTOL) at the point "
               "closest to failing")


def psi_grid(profile):
    """The sorted float64 grid every psi check evaluates on."""
    lin = np.linspace(-4.0, 4.0, 40001 if profile == "quick" else 400001)
    logs = 10.0 ** np.linspace(-323.5, 308.2, 2001 if profile == "quick" else 20001)
    special = np.array([0.0, 5e-324, 2.2250738585072014e-308, 1e-300, 1e-16, 0.5, 1.0, 1e300, 1.7e308,
                        np.nextafter(1.0, 0.0), np.nextafter(1.0, 2.0)])
    ulp = np.concatenate([c + np.arange(-2000, 2001) * np.spacing(c) for c in (0.25, 0.5, 0.9, 1.0)])
    return np.unique(np.concatenate([lin, logs, -logs, special, -special, ulp, -ulp]))


def _tolerance_used(observed, bound, direction):
    """Per point: the fraction of the tolerance of :func:`~proofs_checks.verdicts.compare` that ``observed`` uses.

    Above 1 exactly where ``compare(observed, bound, direction)`` refutes; negative where the
    inequality holds strictly.  Only locates the point to judge; the verdict is
    :func:`~proofs_checks.verdicts.compare` at that point.
    """
    tol = PSI_RTOL * np.abs(bound) + PSI_ATOL
    gap = {"at_most": observed - bound, "at_least": bound - observed, "equal": np.abs(observed - bound)}[direction]
    return gap / tol


class _Closest:
    """The point closest to failing over several comparisons (thetas, sides)."""

    def __init__(self):
        self.used, self.observed, self.bound, self.direction, self.where = -math.inf, None, None, None, None

    def consider(self, observed, bound, direction, where_of):
        used = _tolerance_used(observed, bound, direction)
        j = int(np.argmax(used))
        if used[j] > self.used:
            self.used, self.observed, self.bound = float(used[j]), float(observed[j]), float(bound[j])
            self.direction, self.where = direction, {**where_of(j), "tolerance_used": self.used}


def _evaluate(psi_fn, x, thetas):
    """``{theta: psi(x, theta)}``, and the first non-finite value if any (psi must be finite everywhere)."""
    values, bad = {}, None
    for th in thetas:
        v = np.asarray(psi_fn(x, th), dtype=float)
        values[th] = v
        if bad is None and not np.all(np.isfinite(v)):
            j = int(np.flatnonzero(~np.isfinite(v))[0])
            bad = {"theta": th, "x": float(x[j]), "psi": str(v[j])}
    return values, bad


def _result(closest, bad, *, method, reading, evidence):
    if bad is not None:
        return Result("refuted", method=method, reading=reading, evidence={**evidence, "non_finite_psi_at": bad})
    return compare_result(closest.observed, closest.bound, closest.direction, method=method, reading=reading,
                          evidence={**evidence, "closest_to_failing": closest.where}, rtol=PSI_RTOL, atol=PSI_ATOL)


def psi_inequality_check(thetas=(2.0,), psi_fn=psi, *, reading="[000 eq. (3)] with psi of [000 eq. (6)]"):
    """``-log(1 - x + |x|^theta/theta) <= psi(x) <= log(1 + x + |x|^theta/theta)`` on the grid.

    [000 eq. (3)] for ``theta = 2``, [000 eq. (15)] otherwise.  The envelopes are evaluated without
    overflow (:func:`reference.wang_xu.truncation.psi_lower_envelope` / ``psi_upper_envelope``).
    """

    def check(ctx):
        x = psi_grid(ctx.profile)
        values, bad = _evaluate(psi_fn, x, thetas)
        closest = _Closest()
        for th, v in values.items():
            lo, up = psi_lower_envelope(x, th), psi_upper_envelope(x, th)

            def where(j, th=th, v=v, lo=lo, up=up):
                return {"theta": th, "x": float(x[j]), "psi": float(v[j]), "lower": float(lo[j]), "upper": float(up[j])}

            closest.consider(v, up, "at_most", where)
            closest.consider(v, lo, "at_least", where)
        return _result(closest, bad, method=GRID_METHOD.format(points=x.size, thetas=list(thetas)),
                       reading=reading + "; observed = psi(x), bound = the envelope it comes closest to crossing",
                       evidence={"grid_points": int(x.size), "thetas": list(thetas)})

    return check


def psi_monotone_check(thetas=(2.0,), psi_fn=psi, *, reading="[000 eq. (6)] and the text below it"):
    """psi is non-decreasing: ``psi(x_(i+1)) >= psi(x_i)`` on consecutive points of the sorted grid.

    The evidence records whether psi is *exactly* non-decreasing in float64 (it is for eq. (6); for
    eq. (16) one rounding of the log's argument can drop it by an ulp).
    """

    def check(ctx):
        x = psi_grid(ctx.profile)
        values, bad = _evaluate(psi_fn, x, thetas)
        closest, exact = _Closest(), True
        for th, v in values.items():
            exact &= bool(np.all(np.diff(v) >= 0))
            closest.consider(v[1:], v[:-1], "at_least",
                             lambda j, th=th: {"theta": th, "x": float(x[j]), "x_next": float(x[j + 1])})
        return _result(closest, bad, method=GRID_METHOD.format(points=x.size, thetas=list(thetas)),
                       reading=reading + "; observed = psi(x_next), bound = psi(x) at consecutive grid points",
                       evidence={"grid_points": int(x.size), "thetas": list(thetas),
                                 "exactly_non_decreasing_in_float64": exact})

    return check


def psi_bounded_check(thetas=(2.0,), psi_fn=psi, stated_bound=math.log, *,
                      reading="text below [000 eq. (6)]: |psi| <= log 2"):
    """``sup |psi| <= stated_bound(theta)`` (``log theta``; log 2 for eq. (6)) over the grid, psi finite."""

    def check(ctx):
        x = psi_grid(ctx.profile)
        values, bad = _evaluate(psi_fn, x, thetas)
        closest = _Closest()
        for th, v in values.items():
            a = np.abs(v)
            closest.consider(a, np.full_like(a, stated_bound(th)), "at_most",
                             lambda j, th=th: {"theta": th, "x": float(x[j])})
        return _result(closest, bad, method=GRID_METHOD.format(points=x.size, thetas=list(thetas)),
                       reading=reading + "; observed = max |psi|, bound = the stated bound",
                       evidence={"grid_points": int(x.size), "thetas": list(thetas)})

    return check


def psi_odd_check(thetas=(2.0,), psi_fn=psi, *, reading="third case of [000 eq. (6)]: psi(x) = -psi(-x)"):
    """``psi(-x) = -psi(x)`` on the non-negative half of the grid (the proofs use it).

    The evidence records whether psi is *exactly* odd in float64 (the implementation is, by construction).
    """

    def check(ctx):
        x = psi_grid(ctx.profile)
        x = x[x >= 0]
        values, bad = _evaluate(psi_fn, x, thetas)
        negated, bad_negated = _evaluate(psi_fn, -x, thetas)
        bad = bad or bad_negated
        closest, exact = _Closest(), True
        for th, v in values.items():
            exact &= bool(np.all(negated[th] == -v))
            closest.consider(negated[th], -v, "equal", lambda j, th=th: {"theta": th, "x": float(x[j])})
        return _result(closest, bad, method=GRID_METHOD.format(points=x.size, thetas=list(thetas)),
                       reading=reading + "; observed = psi(-x), bound = -psi(x)",
                       evidence={"grid_points": int(x.size), "thetas": list(thetas), "exactly_odd_in_float64": exact})

    return check


def register(registry):
    """Register the eight psi claims (eqs. (6) and (16): inequality, monotone, bounded, odd)."""
    claim = registry.add_claim
    eq16 = "[000 eq. (16)]"
    claim(Claim("wang-xu.psi.eq6.inequality-3", "[000 eq. (3)] [000 eq. (6)]",
                "psi of (6) satisfies -log(1 - x + x^2/2) <= psi(x) <= log(1 + x + x^2/2).",
                "inequality", psi_inequality_check((2.0,)), algorithm="wang-xu-1"))
    claim(Claim("wang-xu.psi.eq6.non-decreasing", "[000 eq. (6)]",
                "psi of (6) is non-decreasing.", "inequality", psi_monotone_check((2.0,)), algorithm="wang-xu-1"))
    claim(Claim("wang-xu.psi.eq6.bounded", "[000 eq. (6)]",
                "psi of (6) is bounded by log 2 in absolute value.", "inequality", psi_bounded_check((2.0,)),
                algorithm="wang-xu-1"))
    claim(Claim("wang-xu.psi.eq6.odd", "[000 eq. (6)]",
                "psi of (6) is odd: psi(-x) = -psi(x).", "inequality", psi_odd_check((2.0,)),
                algorithm="wang-xu-1"))
    claim(Claim("wang-xu.psi.eq16.odd", eq16,
                "psi of (16) is odd: psi(-x) = -psi(x).", "inequality",
                psi_odd_check(THETAS_QUICK, reading=f"third case of {eq16}: psi(x) = -psi(-x)"),
                algorithm="wang-xu-2"))
    claim(Claim("wang-xu.psi.eq16.inequality-15", "[000 eq. (15)] [000 eq. (16)]",
                "psi of (16) satisfies -log(1 - x + |x|^theta/theta) <= psi(x) <= log(1 + x + |x|^theta/theta).",
                "inequality", psi_inequality_check(THETAS_QUICK, reading=f"[000 eq. (15)] with psi of {eq16}"),
                algorithm="wang-xu-2"))
    claim(Claim("wang-xu.psi.eq16.non-decreasing", eq16,
                "psi of (16) is non-decreasing.", "inequality",
                psi_monotone_check(THETAS_QUICK, reading=f"{eq16} and the text of [000 Sec. IV-B] before it"),
                algorithm="wang-xu-2"))
    claim(Claim("wang-xu.psi.eq16.bounded", eq16,
                "psi of (16) is bounded by log theta in absolute value.", "inequality",
                psi_bounded_check(THETAS_QUICK, reading="text beside [000 Alg. 2]: |psi| <= log theta"),
                algorithm="wang-xu-2"))
