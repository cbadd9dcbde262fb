"""The accuracy report of a float64 ``E[phi(a + b Z)]`` (or a ``C-hat`` plugged into identity (5)) against
the mpmath reference, with its accuracy map.

Report
------
:func:`accuracy_report` compares a float64 callable (``expected_phi``, or a ``C-hat`` plugged
into identity (5)) with the reference over a log-spaced grid of
``a in +-[1e-300, 1e300]``, ``b in {0} U [1e-300, 1e300]`` plus random and special points, and
returns per-region errors, the worst point, the region where the float64 form is accurate to
1e-12 and an accuracy map.

References
----------
.. [1] L. Hu, S. Ni, H. Xiao and D. Wang, ``002_6c597657f27a60c9.txt``: [002 eq. (2)], [002 eq. (5)].
"""

from __future__ import annotations

import math

import mpmath as mp
import numpy as np

from ..verdicts import FORMULA_TOL
from .catoni_points import _log_grid, grid_points, random_points, reference_values, special_points

__all__ = [
    "TOLERANCE",
    "REGIONS",
    "AccuracyReport",
    "accuracy_report",
    "accurate_region",
    "accuracy_map_figure",
    "load_callable",
]

#: A float64 value is "accurate" when within this absolute OR relative error of the reference.
TOLERANCE = FORMULA_TOL

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
                out[i] = _evaluate(fn, a[i : i + 1], b[i : i + 1], target=target)[0]
            except (ValueError, TypeError, ZeroDivisionError, ArithmeticError):
                out[i], raised = math.nan, raised + 1
        return out, raised


class AccuracyReport(dict):
    """The result of :func:`accuracy_report`: a dict (JSON as it is) whose keys are also attributes.

    Keys as :func:`accuracy_report` lists them; ``report.verdict`` is ``report["verdict"]``.
    :meth:`summary` gives the few lines a reader wants first.

    Examples
    --------
    >>> rep = AccuracyReport(target="expected-phi", points=3, verdict="accurate", max_error=1e-17,
    ...                      tolerance=1e-12, inaccurate_points=0, non_finite_values=0, raised_points=0,
    ...                      worst_point={"a": 1.0, "b": 0.5, "abs_error": 1e-17},
    ...                      accurate_region={"box": None})
    >>> rep.verdict
    'accurate'
    >>> print(rep.summary())  # doctest: +NORMALIZE_WHITESPACE
    accuracy of expected-phi against mpmath
      verdict             accurate
      points              3
      max_error           1e-17 (tolerance 1e-12, the smaller of absolute and relative)
      inaccurate_points   0
      non_finite_values   0
      raised_points       0
      worst_point         a = 1, b = 0.5, absolute error 1e-17
      accurate_box        none: no tested box is accurate
    """

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(f"AccuracyReport has no field {name!r}") from None

    def summary(self) -> str:
        """A short text table: the verdict, the largest error, the worst point and the accurate box.

        Returns
        -------
        str
            One ``field  value`` row per line (plain text, as the auditor's ``AuditResult.summary()``).
        """
        worst = self.get("worst_point") or {}
        box = (self.get("accurate_region") or {}).get("box")
        rows = [
            ("verdict", str(self["verdict"])),
            ("points", str(self["points"])),
            (
                "max_error",
                f"{self['max_error']:.3g} (tolerance {self['tolerance']:g}, the smaller of absolute and relative)",
            ),
            ("inaccurate_points", str(self["inaccurate_points"])),
            ("non_finite_values", str(self["non_finite_values"])),
            ("raised_points", str(self["raised_points"])),
            (
                "worst_point",
                f"a = {worst.get('a', float('nan')):.6g}, b = {worst.get('b', float('nan')):.6g}, "
                f"absolute error {worst.get('abs_error', float('nan')):.3g}",
            ),
            ("accurate_box", box["description"] if box else "none: no tested box is accurate"),
        ]
        width = max(len(name) for name, _ in rows)
        lines = [f"accuracy of {self['target']} against mpmath"]
        lines += [f"  {name.ljust(width)}   {value}" for name, value in rows]
        return "\n".join(lines)


def accuracy_report(
    fn, *, target="expected-phi", rng=None, grid_step=25, n_random=200, tolerance=TOLERANCE, reference="quad"
):
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
    AccuracyReport
        A dict whose keys are also attributes, with :meth:`AccuracyReport.summary`: ``target, points, max_abs_error, max_rel_error, worst_point, verdict`` (``accurate`` when
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
            regions[name] = {
                "points": int(m.sum()),
                "max_abs_error": float(np.max(abs_err[m])),
                "max_rel_error": float(np.max(rel_err[m])),
                "max_rel_error_normal_range": float(np.max(rel_err[mn])) if np.any(mn) else None,
                "inaccurate": int((~ok[m]).sum()),
            }
    report = AccuracyReport(
        {
            "target": target,
            "points": int(a.size),
            "max_abs_error": float(np.max(abs_err)),
            "max_rel_error": float(np.max(rel_err)),
            "max_rel_error_normal_range": float(np.max(rel_err[normal])) if np.any(normal) else None,
            "reference": reference,
            "worst_point": {
                "a": float(a[worst]),
                "b": float(b[worst]),
                "value": float(values[worst]),
                "reference": mp.nstr(refs[worst], 20),
                "abs_error": float(abs_err[worst]),
            },
            "verdict": "accurate" if bool(np.all(ok)) else "inaccurate",
            # a point is accurate when the smaller of its two errors is within the tolerance
            "max_error": float(np.max(np.minimum(abs_err, rel_err))),
            "tolerance": tolerance,
            "inaccurate_points": int((~ok).sum()),
            "non_finite_values": int((~np.isfinite(values)).sum()),
            "raised_points": raised,
            "regions": regions,
            "accurate_region": accurate_region(a, b, ok),
            "_a": a,
            "_b": b,
            "_ok": ok,
            "_abs": abs_err,
            "_rel": rel_err,
        }
    )
    return report


def accurate_region(a, b, ok):
    """Where the float64 form is within tolerance: a frontier per ``b`` and the largest box.

    Returns ``frontier``: for each tested ``b > 0`` of the grid, the largest ``A`` (a grid
    magnitude) such that every tested point with that ``b`` and ``|a| <= A`` is accurate (None
    when no tested point with that ``b`` below the first failure is accurate); and ``box``: the box
    ``|a| <= A``, ``b_min <= b <= b_max`` (grid magnitudes) containing only accurate points and the
    most of them (None when no tested point is accurate); and whether ``b = 0`` is accurate.  A range
    is never called accurate on the strength of no tested point: a port that returns NaN everywhere
    gets no box, no frontier and no b-range.
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
        tested = np.any(row & ok & (absa < limit))
        frontier.append({"b": float(bv), "max_abs_a": float(good.max()) if good.size and tested else None})
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
            if covered and (best is None or covered > best[0]):
                best = (covered, good.max(), lo, hi)
    out = {"b=0 accurate": bool(np.all(ok[b == 0])) if np.any(b == 0) else None}
    if best is None:
        out["box"] = None
    else:
        out["box"] = {
            "max_abs_a": float(best[1]),
            "min_b": float(best[2]),
            "max_b": float(best[3]),
            "description": f"every tested point with |a| <= {best[1]:.3g} and "
            f"{best[2]:.3g} <= b <= {best[3]:.3g} is within {TOLERANCE:g}",
        }
    out["b_range_for_abs_a_up_to"] = _b_ranges(absa, b, ok, cand)
    out["frontier"] = frontier
    return out


def _b_ranges(absa, b, ok, cand):
    """For |a| <= A (A in a few magnitudes), the widest grid range [b_lo, b_hi] (log scale) of b > 0
    free of inaccurate points, i.e. the largest gap between the b values of inaccurate points."""
    out = []
    for big_a in (1e-10, 1e-3, 1.0, 10.0, 10.0**1.5, 100.0):
        bad_b = np.unique(b[(~ok) & (b > 0) & (absa <= big_a)])
        good_b = b[ok & (b > 0) & (absa <= big_a)]
        edges = np.concatenate([[0.0], bad_b, [np.inf]])
        best = None
        for lo_bad, hi_bad in zip(edges[:-1], edges[1:]):
            inside = cand[(cand > lo_bad) & (cand < hi_bad)]
            tested = np.any((good_b > lo_bad) & (good_b < hi_bad))
            if (
                inside.size
                and tested
                and (
                    best is None
                    or math.log10(inside.max()) - math.log10(inside.min()) > math.log10(best[1]) - math.log10(best[0])
                )
            ):
                best = (inside.min(), inside.max())
        out.append(
            {"max_abs_a": big_a, "b_min": float(best[0]) if best else None, "b_max": float(best[1]) if best else None}
        )
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
        ax.scatter(
            x[bad],
            y[bad],
            s=14,
            facecolors="none",
            edgecolors="red",
            linewidths=0.5,
            label=f"error > {TOLERANCE:g} ({int(bad.sum())})",
        )
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
