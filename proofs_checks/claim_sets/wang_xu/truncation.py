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

from ...builders import compare_result
from ...model import Claim, Mutant, Result
from ...verdicts import ULP_RTOL
from ._common import THETAS_QUICK

#: psi is evaluated in float64 to its last bits: 8 ulps of max(1, |bound|) is the slack (kept from
#: the psi checks' earlier tolerance; the rounding tolerance 1e-9 would hide a slip of 1e-10).
PSI_RTOL = PSI_ATOL = 2 * ULP_RTOL

__all__ = [
    "psi_grid",
    "psi_inequality_check",
    "psi_monotone_check",
    "psi_bounded_check",
    "psi_odd_check",
    "scaled_psi",
    "other_truncation",
    "untruncated_psi",
    "even_psi",
    "redescending_psi",
    "psi_mutants",
    "register",
]

GRID_METHOD = (
    "float64 evaluation on a grid of {points} points (uniform on [-4, 4], log-spaced over the float64 "
    "range, special values, ulp-by-ulp scans near 0.25, 0.5, 0.9, 1), theta in {thetas}; "
    "tolerance 8 ulps of max(1, |bound|) (verdicts.compare with rtol = atol = 2 ULP_RTOL) at the point "
    "closest to failing"
)


def psi_grid(profile):
    """The sorted float64 grid every psi check evaluates on."""
    lin = np.linspace(-4.0, 4.0, 40001 if profile == "quick" else 400001)
    logs = 10.0 ** np.linspace(-323.5, 308.2, 2001 if profile == "quick" else 20001)
    special = np.array(
        [
            0.0,
            5e-324,
            2.2250738585072014e-308,
            1e-300,
            1e-16,
            0.5,
            1.0,
            1e300,
            1.7e308,
            np.nextafter(1.0, 0.0),
            np.nextafter(1.0, 2.0),
        ]
    )
    ulp = np.concatenate([c + np.arange(-2000, 2001) * np.spacing(c) for c in (0.25, 0.5, 0.9, 1.0)])
    return np.unique(np.concatenate([lin, logs, -logs, special, -special, ulp, -ulp]))


def _tolerance_used(observed, bound, direction):
    """Per point: the fraction of the tolerance of :func:`~proofs_checks.verdicts.compare` that ``observed`` uses.

    Above 1 exactly where ``compare(observed, bound, direction)`` refutes; negative where the
    inequality holds strictly.  Only locates the point to judge; the verdict is
    :func:`~proofs_checks.verdicts.compare` at that point.
    """
    tol = PSI_RTOL * np.abs(bound) + PSI_ATOL
    # a non-finite psi (only a broken one) is refuted by _result before this point is judged
    with np.errstate(invalid="ignore", over="ignore"):
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
    return compare_result(
        closest.observed,
        closest.bound,
        closest.direction,
        method=method,
        reading=reading,
        evidence={**evidence, "closest_to_failing": closest.where},
        rtol=PSI_RTOL,
        atol=PSI_ATOL,
    )


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
        return _result(
            closest,
            bad,
            method=GRID_METHOD.format(points=x.size, thetas=list(thetas)),
            reading=reading + "; observed = psi(x), bound = the envelope it comes closest to crossing",
            evidence={"grid_points": int(x.size), "thetas": list(thetas)},
        )

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
            closest.consider(
                v[1:], v[:-1], "at_least", lambda j, th=th: {"theta": th, "x": float(x[j]), "x_next": float(x[j + 1])}
            )
        return _result(
            closest,
            bad,
            method=GRID_METHOD.format(points=x.size, thetas=list(thetas)),
            reading=reading + "; observed = psi(x_next), bound = psi(x) at consecutive grid points",
            evidence={"grid_points": int(x.size), "thetas": list(thetas), "exactly_non_decreasing_in_float64": exact},
        )

    return check


def psi_bounded_check(
    thetas=(2.0,), psi_fn=psi, stated_bound=math.log, *, reading="text below [000 eq. (6)]: |psi| <= log 2"
):
    """``sup |psi| <= stated_bound(theta)`` (``log theta``; log 2 for eq. (6)) over the grid, psi finite."""

    def check(ctx):
        x = psi_grid(ctx.profile)
        values, bad = _evaluate(psi_fn, x, thetas)
        closest = _Closest()
        for th, v in values.items():
            a = np.abs(v)
            closest.consider(
                a, np.full_like(a, stated_bound(th)), "at_most", lambda j, th=th: {"theta": th, "x": float(x[j])}
            )
        return _result(
            closest,
            bad,
            method=GRID_METHOD.format(points=x.size, thetas=list(thetas)),
            reading=reading + "; observed = max |psi|, bound = the stated bound",
            evidence={"grid_points": int(x.size), "thetas": list(thetas)},
        )

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
        return _result(
            closest,
            bad,
            method=GRID_METHOD.format(points=x.size, thetas=list(thetas)),
            reading=reading + "; observed = psi(-x), bound = -psi(x)",
            evidence={"grid_points": int(x.size), "thetas": list(thetas), "exactly_odd_in_float64": exact},
        )

    return check


# --- mutants: broken psi's (and a broken stated bound) each check must catch -------------------------


def scaled_psi(factor):
    """``factor * psi``: a constant off in psi (x0.9, x1.1)."""

    def fn(x, theta):
        return factor * psi(x, theta)

    return fn


def other_truncation(theta_other=None):
    """The other truncation: eq. (16)'s psi at ``theta_other`` (1.5) for eq. (6), eq. (6)'s (theta = 2) for eq. (16)."""

    def fn(x, theta):
        return psi(x, theta_other if theta_other is not None else 2.0)

    return fn


def untruncated_psi(x, theta):
    """The first case of (6)/(16) on all of R (``min(|x|, 1)`` dropped): decreasing beyond 1, unbounded below."""
    t = np.abs(np.asarray(x, dtype=float))
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        val = -np.log1p(np.power(t, theta) / theta - t)
    return np.where(np.asarray(x) < 0, -val, val)


def even_psi(x, theta):
    """The third case dropped: ``psi(|x|)`` for every x (even, not odd; decreasing on x < 0)."""
    return psi(np.abs(np.asarray(x, dtype=float)), theta)


def redescending_psi(x, theta):
    """psi set to 0 beyond ``|x| > 1`` (a redescending, biweight-like truncation): not monotone."""
    x = np.asarray(x, dtype=float)
    return np.where(np.abs(x) <= 1.0, psi(x, theta), 0.0)


def _negative_side_scaled(factor):
    def fn(x, theta):
        v = psi(x, theta)
        return np.where(np.asarray(x) < 0, factor * v, v)

    return fn


def psi_mutants(prop, thetas, **kw):
    """The mutants of the psi claim ``prop`` ("inequality", "monotone", "bounded", "odd") at ``thetas``.

    Each is the claim's own factory with a broken ``psi_fn`` (or ``stated_bound``); ``kw`` goes to the factory
    (its reading).  eq. (6) is ``thetas == (2.0,)``; its other truncation is eq. (16)'s psi at theta = 1.5.
    """
    eq6 = tuple(thetas) == (2.0,)
    other = (
        "eq. (16)'s psi (theta = 1.5) in place of eq. (6)'s"
        if eq6
        else "eq. (6)'s psi (theta = 2) in place of eq. (16)'s"
    )
    other_fn = other_truncation(1.5 if eq6 else 2.0)
    if prop == "inequality":
        f = psi_inequality_check
        pairs = [
            ("psi x0.9", scaled_psi(0.9), 0.9),
            ("psi x1.1", scaled_psi(1.1), 1.1),
            ("third case dropped: psi(|x|)", even_psi, None),
        ]
        if eq6:
            pairs.append((other, other_fn, None))
        else:
            # eq. (6)'s psi satisfies (15) at every theta in (1, 2) (x^theta/theta >= x^2/2 on [0, 1] widens both
            # envelopes; beyond 1 the lower envelope is at most log theta < log 2): a sound check confirms it.
            muts = [Mutant(name, psi_inequality_check(thetas, fn, **kw), factor=fac) for name, fn, fac in pairs]
            return tuple(muts) + (
                Mutant(
                    other + " (satisfies (15) too: must be confirmed)",
                    psi_inequality_check(thetas, other_fn, **kw),
                    detected_by=("confirmed",),
                ),
            )
    elif prop == "monotone":
        f = psi_monotone_check
        pairs = [
            ("truncation at 1 dropped (first case on all of R)", untruncated_psi, None),
            ("redescending: 0 beyond |x| > 1", redescending_psi, None),
            ("third case dropped: psi(|x|)", even_psi, None),
        ]
    elif prop == "bounded":
        f = psi_bounded_check
        pairs = [
            ("psi x1.1", scaled_psi(1.1), 1.1),
            ("truncation at 1 dropped (first case on all of R)", untruncated_psi, None),
        ]
        if not eq6:
            pairs.append((other, other_fn, None))
        muts = [Mutant(name, f(thetas, fn, **kw), factor=fac) for name, fn, fac in pairs]
        return tuple(muts) + (
            Mutant(
                "stated bound x0.9 (0.9 log theta)", f(thetas, psi, lambda th: 0.9 * math.log(th), **kw), factor=0.9
            ),
        )
    elif prop == "odd":
        f = psi_odd_check
        pairs = [
            ("third case dropped: psi(|x|)", even_psi, None),
            ("negative side x0.9", _negative_side_scaled(0.9), 0.9),
        ]
    else:
        raise ValueError(f"prop must be inequality, monotone, bounded or odd, got {prop!r}")
    return tuple(Mutant(name, f(thetas, fn, **kw), factor=fac) for name, fn, fac in pairs)


def register(registry):
    """Register the eight psi claims (eqs. (6) and (16): inequality, monotone, bounded, odd)."""
    claim = registry.add_claim
    eq16 = "[000 eq. (16)]"
    claim(
        Claim(
            "wang-xu.psi.eq6.inequality-3",
            "[000 eq. (3)] [000 eq. (6)]",
            "psi of (6) satisfies -log(1 - x + x^2/2) <= psi(x) <= log(1 + x + x^2/2).",
            "inequality",
            psi_inequality_check((2.0,)),
            algorithm="wang-xu-1",
            mutants=psi_mutants("inequality", (2.0,)),
        )
    )
    claim(
        Claim(
            "wang-xu.psi.eq6.non-decreasing",
            "[000 eq. (6)]",
            "psi of (6) is non-decreasing.",
            "inequality",
            psi_monotone_check((2.0,)),
            algorithm="wang-xu-1",
            mutants=psi_mutants("monotone", (2.0,)),
        )
    )
    claim(
        Claim(
            "wang-xu.psi.eq6.bounded",
            "[000 eq. (6)]",
            "psi of (6) is bounded by log 2 in absolute value.",
            "inequality",
            psi_bounded_check((2.0,)),
            algorithm="wang-xu-1",
            mutants=psi_mutants("bounded", (2.0,)),
        )
    )
    claim(
        Claim(
            "wang-xu.psi.eq6.odd",
            "[000 eq. (6)]",
            "psi of (6) is odd: psi(-x) = -psi(x).",
            "inequality",
            psi_odd_check((2.0,)),
            algorithm="wang-xu-1",
            mutants=psi_mutants("odd", (2.0,)),
        )
    )
    claim(
        Claim(
            "wang-xu.psi.eq16.odd",
            eq16,
            "psi of (16) is odd: psi(-x) = -psi(x).",
            "inequality",
            psi_odd_check(THETAS_QUICK, reading=f"third case of {eq16}: psi(x) = -psi(-x)"),
            algorithm="wang-xu-2",
            mutants=psi_mutants("odd", THETAS_QUICK),
        )
    )
    claim(
        Claim(
            "wang-xu.psi.eq16.inequality-15",
            "[000 eq. (15)] [000 eq. (16)]",
            "psi of (16) satisfies -log(1 - x + |x|^theta/theta) <= psi(x) <= log(1 + x + |x|^theta/theta).",
            "inequality",
            psi_inequality_check(THETAS_QUICK, reading=f"[000 eq. (15)] with psi of {eq16}"),
            algorithm="wang-xu-2",
            mutants=psi_mutants("inequality", THETAS_QUICK),
        )
    )
    claim(
        Claim(
            "wang-xu.psi.eq16.non-decreasing",
            eq16,
            "psi of (16) is non-decreasing.",
            "inequality",
            psi_monotone_check(THETAS_QUICK, reading=f"{eq16} and the text of [000 Sec. IV-B] before it"),
            algorithm="wang-xu-2",
            mutants=psi_mutants("monotone", THETAS_QUICK),
        )
    )
    claim(
        Claim(
            "wang-xu.psi.eq16.bounded",
            eq16,
            "psi of (16) is bounded by log theta in absolute value.",
            "inequality",
            psi_bounded_check(THETAS_QUICK, reading="text beside [000 Alg. 2]: |psi| <= log theta"),
            algorithm="wang-xu-2",
            mutants=psi_mutants("bounded", THETAS_QUICK),
        )
    )
