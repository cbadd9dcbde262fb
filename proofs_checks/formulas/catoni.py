"""High-precision reference for ``E[phi(a + b Z)]`` ([002 eq. (2)], [002 eq. (5)]) and the accuracy report.

Reference
---------
:func:`expected_phi_mp` integrates numerically with mpmath (``dps >= 40``).  For ``a >= 0``
(the value is odd in ``a``) it uses

``E phi(a + bZ) = B * P(-a - r <= bZ <= a - r) + int_0^r p(x) n(x; a, b) (-expm1(-2 a x / b^2)) dx``

(``r = sqrt 2``, ``B = 2 sqrt(2)/3``, ``p(x) = x - x^3/6``, ``n(.; a, b)`` the ``N(a, b^2)``
density): the tails of ``phi`` are constant, and folding the odd window integrand onto
``[0, r]`` leaves a non-negative integrand, so neither part cancels and tiny values keep their
relative accuracy.  The window integral is split at the kinks ``0`` and ``r`` and at
``a + k b``, ``k in {0, +-1, +-2, +-4, +-8}``, where the Gaussian mass sits, and cut at
``a +- 60 b`` (beyond which the integrand is below ``e^-1800``).  A single ``quad`` of
``phi(x) n(x; a, b)`` over the real line misses the spike for small ``b`` and returns about 0
(:func:`naive_expected_phi_mp` shows it; a test checks the reference does not).

:func:`expected_phi_closed_mp` evaluates identity [002 eq. (5)] with the printed ``C-hat`` (the explicit
form in [002 App. A]) in mpmath at a precision raised by the number of digits the cancellation
costs; the two references are cross-checked (claim ``catoni.identity5.math``).

Report
------
:func:`accuracy_report` compares a float64 callable (``expected_phi``, or a ``C-hat`` plugged
into identity (5)) with the reference over a log-spaced grid of
``a in +-[1e-300, 1e300]``, ``b in {0} U [1e-300, 1e300]`` plus random and special points, and
returns per-region errors, the worst point, the region where the float64 form is accurate to
1e-12 and an accuracy map.
"""

from __future__ import annotations

import functools
import math

import mpmath as mp
import numpy as np

from ..verdicts import FORMULA_TOL

__all__ = ["TOLERANCE", "phi_mp", "expected_phi_mp", "expected_phi_closed_mp", "c_hat_mp",
           "naive_expected_phi_mp", "grid_points", "special_points", "random_points",
           "reference_values", "accuracy_report", "accuracy_map_figure", "load_callable"]

#: A float64 value is "accurate" when within this absolute OR relative error of the reference.
TOLERANCE = FORMULA_TOL
#: Working precision of the quadrature reference (digits).
DPS = 36


def _consts():
    r = mp.sqrt(2)
    return r, 2 * r / 3


def phi_mp(u):
    """phi of [002 eq. (2)] in mpmath."""
    u = mp.mpf(u)
    r, big_b = _consts()
    if u > r:
        return big_b
    if u < -r:
        return -big_b
    return u - u**3 / 6


#: Split points (in standard deviations from the mean) where the Gaussian mass sits.
_SPLITS = (-8, -4, 0, 4, 8)
#: Window cut (standard deviations): the integrand is below exp(-800) beyond.
_CUT = 40


def _npdf(x, mean, sd):
    return mp.exp(-((x - mean) / sd) ** 2 / 2) / (sd * mp.sqrt(2 * mp.pi))


def _quad_scaled(f, pts):
    """``mp.quad`` of ``f`` over the split points, made relative.

    mpmath stops refining when the estimated error is below ``eps`` in absolute terms, so an
    integrand of size 1e-300 would be accepted at the first level.  The integrand is divided by
    its largest value at the split points and midpoints before integrating.
    """
    probes = list(pts) + [(u + v) / 2 for u, v in zip(pts[:-1], pts[1:])]
    scale = max(abs(f(p)) for p in probes)
    if scale == 0:
        scale = mp.mpf(1)
    return scale * mp.quad(lambda t: f(t) / scale, pts, method="gauss-legendre")


def _interval_mass(center, half):
    """P(center - half <= Z <= center + half), Z ~ N(0, 1), in mpmath, without cancellation.

    Intervals lying entirely beyond 1e6 standard deviations get 0 (their mass is below
    ``exp(-5e11)``; mpmath's erfc cannot take such arguments).
    """
    if half == 0:
        return mp.mpf(0)
    lo, hi = center - half, center + half
    cut = mp.mpf(10) ** 6
    if hi < -cut or lo > cut:
        return mp.mpf(0)
    if half <= mp.mpf(1) / 2:
        return half * _quad_scaled(lambda t: mp.npdf(center + half * t), [-1, 0, 1])
    lo, hi = max(lo, -cut), min(hi, cut)
    if hi <= 0:
        return mp.ncdf(hi) - mp.ncdf(lo)
    if lo >= 0:
        return mp.ncdf(-lo) - mp.ncdf(-hi)
    return (mp.erf(hi / mp.sqrt(2)) - mp.erf(lo / mp.sqrt(2))) / 2


def expected_phi_mp(a, b, dps=DPS):
    """``E[phi(a + b Z)]`` by split mpmath quadrature (see the module docstring).

    Parameters
    ----------
    a, b : float or mpf
        ``b >= 0``.
    dps : int
        Working decimal digits (>= 30).

    Returns
    -------
    mpf
    """
    with mp.workdps(dps):
        a = mp.mpf(a)
        b = mp.mpf(b)
        if b < 0:
            raise ValueError(f"b must be >= 0, got {b}")
        if b == 0:
            return phi_mp(a)
        if a < 0:
            return -expected_phi_mp(-a, b, dps)
        r, big_b = _consts()
        tails = big_b * _interval_mass(-r / b, a / b)
        window = mp.mpf(0)
        if a == 0:
            return tails

        two_a_over_b2 = 2 * a / b**2
        big = mp.mpf(3 * mp.mp.dps)  # -expm1(-t) == 1 to working precision beyond t = big
        norm = 1 / mp.sqrt(2 * mp.pi)

        def fold(x):  # p(x) [n(x; a) - n(x; -a)] / n(x; a)
            t = two_a_over_b2 * x
            return (x - x**3 / 6) * (1 if t > big else -mp.expm1(-t))

        if b < 1:
            # z-space (x = a + b z): the Gaussian spike is resolved for every small b
            zl = max(-a / b, -_CUT)
            zu = min((r - a) / b, _CUT)
            if zl < zu:
                pts = sorted({zl, zu} | {mp.mpf(k) for k in _SPLITS if zl < k < zu})
                window = _quad_scaled(lambda z: fold(a + b * z) * mp.exp(-z * z / 2) * norm, pts)
        else:
            lo = max(mp.mpf(0), a - _CUT * b)
            hi = min(r, a + _CUT * b)
            if lo < hi:
                pts = sorted({lo, hi} | {a + k * b for k in _SPLITS if lo < a + k * b < hi})
                window = _quad_scaled(lambda x: fold(x) * mp.exp(-((x - a) / b) ** 2 / 2) * norm / b, pts)
        return tails + window


def naive_expected_phi_mp(a, b, dps=DPS):
    """A single ``mp.quad`` of ``phi(x) n(x; a, b)`` over the real line: what NOT to do.

    For small ``b`` the quadrature nodes miss the Gaussian spike and the result is about 0.
    """
    with mp.workdps(dps):
        a = mp.mpf(a)
        b = mp.mpf(b)
        return mp.quad(lambda x: phi_mp(x) * _npdf(x, a, b), [-mp.inf, mp.inf])


def _ncdf(x):
    """Normal CDF in mpmath, also for |x| beyond what ``mp.erfc`` accepts (asymptotic series)."""
    if abs(x) < mp.mpf(10) ** 10:
        return mp.ncdf(x)
    # |x| >= 1e10: the tail is below exp(-5e19), zero at any precision used here
    return mp.mpf(0) if x < 0 else mp.mpf(1)


def _gauss_exp(v):
    """exp(-v^2/2), returning 0 beyond |v| = 1e10 (below exp(-5e19))."""
    return mp.exp(-v * v / 2) if abs(v) < mp.mpf(10) ** 10 else mp.mpf(0)


def c_hat_mp(a, b, signs=(1, 1, 1, 1, 1)):
    """Printed ``C-hat(a, b)`` = T1 + ... + T5 [002 App. A] in the current mpmath precision (``b > 0``).

    ``signs`` multiplies each term (a test flips one to show the checks reject it).
    """
    a = mp.mpf(a)
    b = mp.mpf(b)
    r, big_b = _consts()
    v_minus = (r - a) / b
    v_plus = (r + a) / b
    f_minus = _ncdf(-v_minus)
    f_plus = _ncdf(-v_plus)
    e_minus = _gauss_exp(v_minus)
    e_plus = _gauss_exp(v_plus)
    s2pi = mp.sqrt(2 * mp.pi)
    t = (big_b * (f_minus - f_plus),
         -(a - a**3 / 6) * (f_minus + f_plus),
         b / s2pi * (1 - a**2 / 2) * (e_plus - e_minus),
         a * b**2 / 2 * (f_plus + f_minus + (v_plus * e_plus + v_minus * e_minus) / s2pi),
         b**3 / (6 * s2pi) * ((2 + v_minus**2) * e_minus - (2 + v_plus**2) * e_plus))
    return sum(sgn * term for sgn, term in zip(signs, t))


def expected_phi_closed_mp(a, b, dps=DPS, signs=(1, 1, 1, 1, 1), _retries=3):
    """Identity (5) with the printed C-hat, in mpmath with enough digits to survive cancellation.

    The polynomial part ``a(1 - b^2/2) - a^3/6`` and ``C-hat`` cancel down to a value of size at
    most ``B``; the precision is raised by the digits between the largest term
    (``max(|a|, |a|^3, |a| b^2, b^3)``) and a lower estimate of the result, then the evaluation is
    repeated with 20 more digits and must agree.
    """
    a = mp.mpf(a)
    b = mp.mpf(b)
    if b == 0:
        raise ValueError("identity (5) is stated for b > 0")
    with mp.workdps(30):
        aa = abs(a) if a != 0 else mp.mpf(1)
        largest = max(aa, aa**3, aa * b**2, b**3, mp.mpf(1))   # size of the terms that cancel (T2, T4, T5)
        smallest = min(aa, mp.mpf(1)) / (10 * max(b, mp.mpf(1)))  # lower estimate of |result|
        extra = max(0, int(mp.log10(largest / smallest))) + 10
    with mp.workdps(dps + extra):
        first = a * (1 - b**2 / 2) - a**3 / 6 + c_hat_mp(a, b, signs)
    with mp.workdps(dps + extra + 20):
        second = a * (1 - b**2 / 2) - a**3 / 6 + c_hat_mp(a, b, signs)
    with mp.workdps(dps):
        if second != 0 and abs(first - second) > abs(second) * mp.mpf(10) ** (-dps + 5):
            if _retries == 0:
                raise ArithmeticError(f"closed form did not converge at a={a}, b={b}")
            return expected_phi_closed_mp(a, b, dps + extra + 40, signs, _retries - 1)
        return +second


# --------------------------------------------------------------------------- points

def _log_grid(n_decades_step):
    exps = np.unique(np.concatenate([np.arange(-300, 301, n_decades_step), np.arange(-3, 3.01, 0.5)]))
    return 10.0 ** exps


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


# --------------------------------------------------------------------------- report

REGIONS = (
    ("b=0", lambda a, b: b == 0),
    ("|a|<=10,0<b<=10", lambda a, b: (np.abs(a) <= 10) & (b > 0) & (b <= 10)),
    ("|a|<=1e3,10<b<=1e3", lambda a, b: (np.abs(a) <= 1e3) & (b > 10) & (b <= 1e3)),
    ("10<|a|<=1e3,0<b<=10", lambda a, b: (np.abs(a) > 10) & (np.abs(a) <= 1e3) & (b > 0) & (b <= 10)),
    ("|a|>1e3 or b>1e3", lambda a, b: ((np.abs(a) > 1e3) | (b > 1e3)) & (b > 0)),
)


def _errors(values, refs):
    """Absolute and relative errors of float64 values against mpf references (inf for NaN)."""
    abs_err = np.empty(len(refs))
    rel_err = np.empty(len(refs))
    for i, (v, r) in enumerate(zip(values, refs)):
        if not math.isfinite(v):
            abs_err[i] = rel_err[i] = math.inf
            continue
        d = abs(mp.mpf(v) - r)
        abs_err[i] = float(d)
        rel_err[i] = float(d / abs(r)) if r != 0 else (0.0 if d == 0 else math.inf)
    return abs_err, rel_err


def _evaluate(fn, a, b, *, target):
    with np.errstate(all="ignore"):
        if target == "c-hat":
            c = np.asarray(fn(a, b), dtype=np.float64)
            vals = a * (1.0 - b**2 / 2.0) - a**3 / 6.0 + c
        else:
            vals = np.asarray(fn(a, b), dtype=np.float64)
    return np.broadcast_to(vals, a.shape).astype(np.float64)


def _safe_call(fn, a, b, target):
    """Evaluate the candidate; if it raises on the whole batch, evaluate pointwise (NaN where it raises)."""
    try:
        return _evaluate(fn, a, b, target=target), 0
    except (ValueError, TypeError, ZeroDivisionError, ArithmeticError):
        out = np.empty(a.shape)
        raised = 0
        for i in range(a.size):
            try:
                out[i] = _evaluate(fn, a[i:i + 1], b[i:i + 1], target=target)[0]
            except (ValueError, TypeError, ZeroDivisionError, ArithmeticError):
                out[i], raised = math.nan, raised + 1
        return out, raised


def accuracy_report(fn, *, target="expected-phi", rng=None, grid_step=25, n_random=200,
                    tolerance=TOLERANCE, reference="quad"):
    """Errors of a float64 callable against the mpmath reference.

    Parameters
    ----------
    fn : callable
        ``fn(a, b)`` on float64 arrays.  For ``target="expected-phi"`` it claims to return
        ``E[phi(a + bZ)]``; for ``target="c-hat"`` it claims to return ``C-hat(a, b)`` and is
        plugged into identity (5) in float64 (``a(1 - b^2/2) - a^3/6 + C``).
    target : {"expected-phi", "c-hat"}
    rng : numpy Generator or seed
        For the random points.
    grid_step : int
        Decades between grid magnitudes outside [1e-3, 1e3].
    n_random : int
        Random log-uniform points added to the grid and the special points.
    reference : {"quad", "closed"}
        Which mpmath reference (see :func:`reference_values`).

    Returns
    -------
    dict
        ``target, points, max_abs_error, max_rel_error, worst_point, verdict`` (``accurate`` when
        every point is within ``tolerance`` absolute or relative, i.e. when ``max_error``, the largest
        over the points of the smaller of the two errors, is within it), ``regions`` (per-region max
        errors), ``accurate_region`` (a description of where the form is within tolerance),
        ``inaccurate_points`` (count) and private arrays ``_a, _b, _ok, _abs`` for the figure.
    """
    if target not in ("expected-phi", "c-hat"):
        raise ValueError(f"target must be 'expected-phi' or 'c-hat', got {target!r}")
    gen = np.random.default_rng(rng)
    ga, gb = grid_points(grid_step)
    sa, sb = special_points()
    ra, rb = random_points(gen, n_random)
    a = np.concatenate([ga, sa, ra])
    b = np.concatenate([gb, sb, rb])
    values, raised = _safe_call(fn, a, b, target)
    refs = reference_values(a, b, reference)
    abs_err, rel_err = _errors(values, refs)
    normal = np.array([abs(r) >= 2.2250738585072014e-308 for r in refs])
    ok = (abs_err <= tolerance) | (rel_err <= tolerance)
    worst = int(np.argmax(np.where(ok, 0.0, 1.0) * 1e300 + np.nan_to_num(abs_err, posinf=1e308)))
    regions = {}
    for name, sel in REGIONS:
        m = sel(a, b)
        if np.any(m):
            mn = m & normal
            regions[name] = {"points": int(m.sum()), "max_abs_error": float(np.max(abs_err[m])),
                             "max_rel_error": float(np.max(rel_err[m])),
                             "max_rel_error_normal_range": float(np.max(rel_err[mn])) if np.any(mn) else None,
                             "inaccurate": int((~ok[m]).sum())}
    report = {
        "target": target,
        "points": int(a.size),
        "max_abs_error": float(np.max(abs_err)),
        "max_rel_error": float(np.max(rel_err)),
        "max_rel_error_normal_range": float(np.max(rel_err[normal])) if np.any(normal) else None,
        "reference": reference,
        "worst_point": {"a": float(a[worst]), "b": float(b[worst]), "value": float(values[worst]),
                        "reference": mp.nstr(refs[worst], 20), "abs_error": float(abs_err[worst])},
        "verdict": "accurate" if bool(np.all(ok)) else "inaccurate",
        # a point is accurate when the smaller of its two errors is within the tolerance
        "max_error": float(np.max(np.minimum(abs_err, rel_err))),
        "tolerance": tolerance,
        "inaccurate_points": int((~ok).sum()),
        "non_finite_values": int((~np.isfinite(values)).sum()),
        "raised_points": raised,
        "regions": regions,
        "accurate_region": accurate_region(a, b, ok),
        "_a": a, "_b": b, "_ok": ok, "_abs": abs_err, "_rel": rel_err,
    }
    return report


def accurate_region(a, b, ok):
    """Where the float64 form is within tolerance: a frontier per ``b`` and the largest box.

    Returns ``frontier``: for each tested ``b > 0`` of the grid, the largest ``A`` (a grid
    magnitude) such that every tested point with that ``b`` and ``|a| <= A`` is accurate (None
    when even the smallest ``|a|`` fails); and ``box``: the box ``|a| <= A``,
    ``b_min <= b <= b_max`` (grid magnitudes) containing only accurate points that maximises
    ``log10 A + log10(b_max / b_min)``; and whether ``b = 0`` is accurate.
    """
    cand = np.unique(np.concatenate([_log_grid(25), 10.0 ** np.arange(-300.0, 301.0, 10.0)]))
    absa = np.abs(a)
    frontier = []
    for bv in np.unique(b[b > 0]):
        if not np.any(np.isclose(bv, cand, rtol=1e-9, atol=0.0)):
            continue
        row = b == bv
        bad = row & ~ok
        limit = np.min(absa[bad]) if np.any(bad) else np.inf
        good = cand[cand < limit]
        frontier.append({"b": float(bv), "max_abs_a": float(good.max()) if good.size else None})
    bad_a, bad_b = absa[~ok & (b > 0)], b[~ok & (b > 0)]
    pos_a, pos_b = absa[b > 0], b[b > 0]
    best = None
    for i, lo in enumerate(cand):
        for hi in cand[i:]:
            band = (bad_b >= lo) & (bad_b <= hi)
            limit = np.min(bad_a[band]) if np.any(band) else np.inf
            good = cand[cand < limit]
            if not good.size:
                continue
            covered = int(np.sum((pos_b >= lo) & (pos_b <= hi) & (pos_a <= good.max())))
            if best is None or covered > best[0]:
                best = (covered, good.max(), lo, hi)
    out = {"b=0 accurate": bool(np.all(ok[b == 0])) if np.any(b == 0) else None}
    if best is None:
        out["box"] = None
    else:
        out["box"] = {"max_abs_a": float(best[1]), "min_b": float(best[2]), "max_b": float(best[3]),
                      "description": f"every tested point with |a| <= {best[1]:.3g} and "
                                     f"{best[2]:.3g} <= b <= {best[3]:.3g} is within {TOLERANCE:g}"}
    out["b_range_for_abs_a_up_to"] = _b_ranges(absa, b, ok, cand)
    out["frontier"] = frontier
    return out


def _b_ranges(absa, b, ok, cand):
    """For |a| <= A (A in a few magnitudes), the widest grid range [b_lo, b_hi] (log scale) of b > 0
    free of inaccurate points, i.e. the largest gap between the b values of inaccurate points."""
    out = []
    for big_a in (1e-10, 1e-3, 1.0, 10.0, 10.0 ** 1.5, 100.0):
        bad_b = np.unique(b[(~ok) & (b > 0) & (absa <= big_a)])
        edges = np.concatenate([[0.0], bad_b, [np.inf]])
        best = None
        for lo_bad, hi_bad in zip(edges[:-1], edges[1:]):
            inside = cand[(cand > lo_bad) & (cand < hi_bad)]
            if inside.size and (best is None or math.log10(inside.max()) - math.log10(inside.min())
                                > math.log10(best[1]) - math.log10(best[0])):
                best = (inside.min(), inside.max())
        out.append({"max_abs_a": big_a, "b_min": float(best[0]) if best else None,
                    "b_max": float(best[1]) if best else None})
    return out


def accuracy_map_figure(reports, path):
    """Accuracy map: log10 absolute error over (signed log10 |a|, log10 b), one panel per report."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(reports), figsize=(6 * len(reports), 5), squeeze=False)
    for ax, (title, rep) in zip(axes[0], reports):
        a, b, err = rep["_a"], rep["_b"], rep["_abs"]
        x = np.sign(a) * np.log10(np.maximum(np.abs(a), 1e-310)) / 1.0
        x = np.where(a == 0, 0.0, np.sign(a) * (np.log10(np.maximum(np.abs(a), 1e-320)) + 330))
        y = np.where(b == 0, -330.0, np.log10(np.maximum(b, 1e-320)))
        e = np.log10(np.clip(np.nan_to_num(err, nan=1e300, posinf=1e300), 1e-20, 1e300))
        sc = ax.scatter(x, y, c=e, s=10, cmap="viridis", vmin=-20, vmax=10)
        bad = ~rep["_ok"]
        ax.scatter(x[bad], y[bad], s=14, facecolors="none", edgecolors="red", linewidths=0.5,
                   label=f"error > {TOLERANCE:g} ({int(bad.sum())})")
        ax.set_title(title)
        ax.set_xlabel("sign(a) * (log10|a| + 330)   (0: a = 0)")
        ax.set_ylabel("log10 b   (-330: b = 0)")
        ax.legend(loc="lower right", fontsize=8)
        fig.colorbar(sc, ax=ax, label="log10 absolute error (clipped to [-20, 10])")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def load_callable(spec):
    """Import ``MODULE:NAME`` and return the attribute (a port's function)."""
    import importlib

    if not isinstance(spec, str) or spec.count(":") != 1:
        raise ValueError(f"--port must look like MODULE:NAME, got {spec!r}")
    mod_name, attr = spec.split(":")
    try:
        mod = importlib.import_module(mod_name)
    except ImportError as exc:
        raise ValueError(f"cannot import module {mod_name!r} of --port {spec!r}: {exc}") from None
    try:
        fn = getattr(mod, attr)
    except AttributeError:
        raise ValueError(f"module {mod_name!r} has no attribute {attr!r} (--port {spec!r})") from None
    if not callable(fn):
        raise TypeError(f"--port {spec!r} is not callable")
    return fn
