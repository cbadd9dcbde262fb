"""Identity [002 eq. (5)]: ``E phi(a + bZ)`` in closed form with the correction ``C-hat`` of
[002 App. A], as mathematics (mpmath) and as float64 arithmetic ("easy to implement", [002 Sec. 4]).
"""

from __future__ import annotations

import functools
import math

import mpmath as mp
import numpy as np

from reference.hu.catoni import c_hat, expected_phi

from ...formulas import catoni as F
from ...model import Result
from ...verdicts import HIGH_PRECISION_TOL, compare

__all__ = ["identity5_math_check", "float64_accuracy_check"]

#: Fixed points of the identity check: the kinks, tiny and huge magnitudes, both signs of a.
_FIXED_POINTS = [
    (0.3, 0.2),
    (1.0, 1.0),
    (1.5, 0.7),
    (-2.0, 3.0),
    (math.sqrt(2.0), 0.01),
    (-math.sqrt(2.0), 0.5),
    (0.5, 1e-10),
    (100.0, 30.0),
    (1e-5, 1e5),
    (1e-300, 1e-5),
    (1e-300, 1e300),
    (1e5, 1e5),
    (3.0, 1e-5),
    (1.41, 1e-3),
    (0.0, 2.0),
    (7.0, 4.0),
    (-0.9, 2.5),
    (2.0, 0.3),
    (1e-8, 1e-8),
    (40.0, 30.0),
]


def _identity_points(ctx):
    rng = ctx.rng()
    n = 20 if ctx.profile == "quick" else 400
    a = rng.choice([-1.0, 1.0], n) * 10.0 ** rng.uniform(-3, 2, n)
    b = 10.0 ** rng.uniform(-3, 2, n)
    return _FIXED_POINTS + list(zip(a.tolist(), b.tolist()))


@functools.lru_cache(maxsize=4096)
def _point_values(a, b, signs):
    """``(quadrature, closed form)`` of ``E phi(a + bZ)`` at one point: deterministic, so the fixed points are
    computed once per process, not once per run seed (each seed adds only its random points)."""
    ref = F.expected_phi_mp(a, b)
    try:
        closed = F.expected_phi_closed_mp(a, b, signs=signs)
    except ArithmeticError:  # the extra-precision evaluations disagree: no stable value
        closed = mp.inf
    return ref, closed


def identity5_math_check(signs=(1, 1, 1, 1, 1), tol=HIGH_PRECISION_TOL):
    """Check factory: identity (5) as mathematics, the printed C-hat against quadrature.

    The closed form ``a(1 - b^2/2) - a^3/6 + C-hat(a, b)`` (mpmath, adaptive precision) is compared
    with the split-quadrature reference of ``E phi(a + bZ)``; ``observed`` is the largest relative
    difference.  ``signs`` multiplies T1..T5 (the tests flip one).
    """

    def check(ctx):
        worst, worst_at = mp.mpf(0), None
        pts = _identity_points(ctx)
        for a, b in pts:
            ref, closed = _point_values(a, b, tuple(signs))
            with mp.workdps(F.DPS):
                err = abs(closed - ref) / (abs(ref) if ref != 0 else 1)
            if err > worst:
                worst, worst_at = (
                    err,
                    {"a": a, "b": b, "quadrature": mp.nstr(ref, 25), "closed_form": mp.nstr(closed, 25)},
                )
        observed = float(worst)
        return Result(
            compare(observed, tol, "at_most", rtol=0.0, atol=0.0),
            observed=observed,
            bound=tol,
            direction="at_most",
            method=f"mpmath quadrature ({F.DPS} digits, split at the kinks and the Gaussian mass) against "
            f"the closed form at adaptive precision, at {len(pts)} points (a, b); observed = largest "
            "relative difference, bound = the high-precision tolerance",
            reading="[002 eq. (5)] (file line 144) with C-hat = T1 + ... + T5 as printed in [002 App. A] "
            "(explicit form of C-hat(a, b), line 1083), b > 0; eta ~ N(0, 1/beta) so b sqrt(beta) "
            "eta = bZ; exact mathematics (the float64 reading is catoni.identity5.float64: refuted)",
            evidence={"worst_point": worst_at, "term_signs": list(signs)},
        )

    return check


def _report_settings(profile):
    if profile == "quick":
        return {"grid_step": 25, "n_random": 100, "reference": "closed"}
    return {"grid_step": 10, "n_random": 2000, "reference": "quad"}


_READINGS = {
    "c-hat": "[002 eq. (5)] (file line 144) with C-hat of [002 App. A] (line 1083) evaluated in float64, as [002 Alg. "
    "1 step 4] computes the robust gradient ('a correction form which is easy to implement', [002 Sec. 4], "
    "line 146); E phi(a + bZ) for every finite a and b > 0.  The paper claims no float64 accuracy in so "
    "many words: the claim is the reading that implementing the printed form gives the estimator; as exact "
    "mathematics it does (catoni.identity5.math: confirmed), so the finding is about floating point.  "
    "Judged on b > 0 (the paper's domain of C-hat) and finite values only; NaN/inf values (b = 0, "
    "b < ~1e-154, overflow) are counted in the evidence, never the verdict",
    "expected-phi": "E phi(a + bZ) of [002 eq. (4)] to [002 eq. (5)] (file lines 140-144) as this project evaluates it (no cancelling "
    "terms; reference.hu.catoni.expected_phi), for every finite a and b >= 0",
}


def float64_accuracy_check(fn=None, target="expected-phi", companion=None):
    """Check factory: float64 accuracy of ``fn`` against the mpmath reference over the float64 range.

    ``fn`` is ``E phi`` (``target="expected-phi"``) or a C-hat plugged into identity (5)
    (``target="c-hat"``), evaluated on the log grid, the special points and random points of
    :func:`proofs_checks.formulas.catoni.accuracy_report`.  ``observed`` is the largest error
    (the smaller of absolute and relative at each point) against :data:`~proofs_checks.verdicts.FORMULA_TOL`.
    Writes the accuracy map ``<claim id>_accuracy_map.png`` when the context has an output folder;
    ``companion`` (a (title, fn, target) triple) adds a second panel to it.
    """
    if fn is None:
        fn = expected_phi if target == "expected-phi" else c_hat

    def check(ctx):
        settings = _report_settings(ctx.profile)
        # The points come from a named sub-stream, so both panels of the figure share them.
        rep = F.accuracy_report(fn, target=target, rng=ctx.rng("points"), **settings)
        figures = []
        if ctx.out_dir is not None:
            panels = [(f"{target}: {getattr(fn, '__name__', 'callable')}", rep)]
            if companion is not None:
                title, fn2, target2 = companion
                panels.append((title, F.accuracy_report(fn2, target=target2, rng=ctx.rng("points"), **settings)))
            name = f"{ctx.claim_id.replace('.', '_')}_accuracy_map.png"
            F.accuracy_map_figure(panels, ctx.out_dir / name)
            figures.append(name)
        ev = {k: v for k, v in rep.items() if not k.startswith("_") and k not in ("verdict", "max_error", "tolerance")}
        ev["frontier"] = ev["accurate_region"].pop("frontier")
        observed = rep["max_error"]
        if target == "c-hat":
            # The paper's C-hat needs b > 0: judge only b > 0 and finite values (a refutation must
            # not rest on NaN at b = 0); the non-finite values are counted, never the verdict.
            b, err = rep["_b"], np.minimum(rep["_abs"], rep["_rel"])
            judged = (b > 0) & np.isfinite(err)
            i = int(np.flatnonzero(judged)[np.argmax(err[judged])])
            observed = float(err[i])
            ev["judged_points_b_positive_finite"] = int(judged.sum())
            ev["non_finite_at_b_zero_not_judged"] = int(np.sum((b == 0) & ~np.isfinite(err)))
            ev["non_finite_at_b_positive_not_judged"] = int(np.sum((b > 0) & ~np.isfinite(err)))
            ev["worst_finite_point"] = {"a": float(rep["_a"][i]), "b": float(b[i]), "error": observed}
        return Result(
            compare(observed, rep["tolerance"], "at_most", rtol=0.0, atol=0.0),
            observed=observed,
            bound=rep["tolerance"],
            direction="at_most",
            method=f"float64 against the mpmath reference ({settings['reference']}) at {rep['points']} "
            "points "
            f"(log grid every {settings['grid_step']} decades of |a|, b in [1e-300, 1e300] and 0, "
            f"special points, {settings['n_random']} random); accurate = within {rep['tolerance']:g} "
            "absolute or relative at every point",
            reading=_READINGS[target],
            evidence=ev,
            figures=figures,
        )

    return check
