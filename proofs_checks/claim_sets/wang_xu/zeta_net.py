"""Are the nets of :mod:`reference.wang_xu.nets` zeta-nets?  Their covering radius against zeta ([000 Def. 4]).

Step 1 of [000 Alg. 1] / [000 Alg. 2] needs a zeta-net: every point of W within ``zeta`` of a net point.
The proofs use it at (11) / (21) (a net point ``w~_iota`` within ``zeta`` of ``w-hat_iota``).  The check
computes the covering radius ``r(S, W) = max_{w in W} min_{s in S} ||w - s||_2`` of each net and compares it
with the ``zeta`` the net was built for:

* exactly in d = 1 (sorted points: half the largest gap, and the two ends) and in d = 2 (the maximiser of the
  distance to the nearest point is a Voronoi vertex inside W, a point where a Voronoi edge meets the boundary
  of W, a corner of W, or, on the disc, the boundary point farthest from a site inside that site's cell; every
  such candidate is generated from the perpendicular bisectors of all pairs of nearby points and the
  circumcentres of all their triples, and the largest true nearest distance over the candidates in W is ``r``);
* by adversarial search in d >= 3 (random and boundary starts, projected ascent of the nearest distance):
  a lower bound on ``r``, so it can refute a net but confirms only "no uncovered point found".

Power: a net built for ``2 zeta`` but declared a ``zeta``-net (twice as coarse) is refuted; its covering radius
is about ``2 zeta`` (the Lemma 2 claim, which samples points, leaves such a net ``inconclusive``).
"""

from __future__ import annotations

import functools
import itertools

import numpy as np
from scipy.spatial import Delaunay, QhullError, cKDTree

from reference.wang_xu.nets import BoxNet, L1BallNet, L2BallNet

from ...model import Claim, Mutant, Result
from ...verdicts import within

__all__ = ["covering_radius_exact", "covering_radius_search", "zeta_net_check", "register"]

#: Largest net (points) the exact d = 2 computation takes: pairs within 2 r of each other and their triples.
_EXACT_MAX_POINTS = 4000


def _project(net, w):
    """Euclidean projection of rows ``w`` onto the net's set W (box, l2 ball, l1 ball)."""
    if isinstance(net, BoxNet):
        return np.clip(w, net.low, net.high)
    if isinstance(net, L2BallNet):
        norms = np.linalg.norm(w, axis=1, keepdims=True)
        return w * np.minimum(1.0, net.radius / np.maximum(norms, 1e-300))
    if isinstance(net, L1BallNet):
        # Duchi et al. (2008): soft-threshold |w| at the level that puts it on the simplex of radius R.
        a = np.abs(w)
        inside = a.sum(axis=1) <= net.radius
        u = -np.sort(-a, axis=1)
        css = np.cumsum(u, axis=1) - net.radius
        k = np.arange(1, w.shape[1] + 1)
        rho = np.sum(u - css / k > 0, axis=1)
        lam = css[np.arange(w.shape[0]), rho - 1] / rho
        out = np.sign(w) * np.maximum(a - lam[:, None], 0.0)
        out[inside] = w[inside]
        return out
    raise TypeError(f"net must be a BoxNet, L2BallNet or L1BallNet, got {type(net).__name__}")


def _in_set(net, w, slack=1e-12):
    """Rows of ``w`` in W (with a rounding slack)."""
    if isinstance(net, BoxNet):
        return np.all((w >= net.low - slack) & (w <= net.high + slack), axis=1)
    if isinstance(net, L2BallNet):
        return np.linalg.norm(w, axis=1) <= net.radius * (1 + slack) + slack
    return np.abs(w).sum(axis=1) <= net.radius * (1 + slack) + slack


def _polygon(net):
    """Corners of W in d = 2 (box, l1 ball), counter-clockwise; ``None`` for the disc."""
    if isinstance(net, BoxNet):
        lo, hi = net.low, net.high
        return np.array([[lo, lo], [hi, lo], [hi, hi], [lo, hi]])
    if isinstance(net, L1BallNet):
        r = net.radius
        return np.array([[r, 0.0], [0.0, r], [-r, 0.0], [0.0, -r]])
    return None


def _bisector_boundary_points(net, p, q):
    """Where the perpendicular bisectors of pairs ``(p, q)`` (rows) meet the boundary of W (d = 2)."""
    mid, normal = (p + q) / 2, q - p
    direction = np.column_stack([-normal[:, 1], normal[:, 0]])
    poly = _polygon(net)
    out = []
    if poly is None:  # the disc |mid + t direction| = R
        a = np.einsum("ij,ij->i", direction, direction)
        b = 2 * np.einsum("ij,ij->i", mid, direction)
        c = np.einsum("ij,ij->i", mid, mid) - net.radius**2
        disc = b * b - 4 * a * c
        ok = disc >= 0
        for sign in (-1.0, 1.0):
            t = (-b[ok] + sign * np.sqrt(disc[ok])) / (2 * a[ok])
            out.append(mid[ok] + t[:, None] * direction[ok])
        return np.vstack(out) if out else np.empty((0, 2))
    for a_pt, b_pt in zip(poly, np.roll(poly, -1, axis=0)):
        edge = b_pt - a_pt
        # mid + t direction = a + s edge: solve the 2x2 system for every pair at once.
        det = direction[:, 0] * (-edge[1]) - direction[:, 1] * (-edge[0])
        ok = np.abs(det) > 1e-14
        rhs = a_pt - mid[ok]
        s = (direction[ok, 0] * rhs[:, 1] - direction[ok, 1] * rhs[:, 0]) / det[ok]
        keep = (s >= -1e-12) & (s <= 1 + 1e-12)
        out.append(a_pt + np.clip(s[keep], 0, 1)[:, None] * edge)
    return np.vstack(out)


def _circumcentres(a, b, c):
    """Circumcentres of triangles with corner rows ``a, b, c`` (degenerate ones dropped)."""
    d = 2 * (a[:, 0] * (b[:, 1] - c[:, 1]) + b[:, 0] * (c[:, 1] - a[:, 1]) + c[:, 0] * (a[:, 1] - b[:, 1]))
    ok = np.abs(d) > 1e-14
    a, b, c, d = a[ok], b[ok], c[ok], d[ok]
    na, nb, nc = (np.einsum("ij,ij->i", v, v) for v in (a, b, c))
    ux = (na * (b[:, 1] - c[:, 1]) + nb * (c[:, 1] - a[:, 1]) + nc * (a[:, 1] - b[:, 1])) / d
    uy = (na * (c[:, 0] - b[:, 0]) + nb * (a[:, 0] - c[:, 0]) + nc * (b[:, 0] - a[:, 0])) / d
    return np.column_stack([ux, uy])


def covering_radius_exact(net, points=None):
    """The covering radius ``max_{w in W} min_s ||w - s||`` of a box, l2-ball or l1-ball net in d = 1 or 2.

    Parameters
    ----------
    net : BoxNet, L2BallNet or L1BallNet
        The net (its set W and its points), ``net.dim`` 1 or 2.
    points : ndarray, optional
        Points to use instead of ``net.points()`` (a broken net for the tests).

    Returns
    -------
    radius : float
        The covering radius (exact up to float64 rounding).
    at : list of float
        A point of W attaining it.

    Raises
    ------
    ValueError
        If ``net.dim`` is not 1 or 2, or the net has more than 4000 points in d = 2.

    References
    ----------
    .. [1] [000 Def. 4] (zeta-net), [000 Alg. 1 step 1].

    Examples
    --------
    >>> r, at = covering_radius_exact(BoxNet(0.0, 1.0, zeta=0.25, dim=1))
    >>> r, at
    (0.25, [0.0])
    """
    pts = np.asarray(net.points() if points is None else points, dtype=float)
    if net.dim == 1:
        lo, hi = (net.low, net.high) if isinstance(net, BoxNet) else (-net.radius, net.radius)
        x = np.sort(pts[:, 0])
        cand = np.concatenate([[lo, hi], (x[1:] + x[:-1]) / 2])
        dist = np.min(np.abs(cand[:, None] - x[None, :]), axis=1)
        i = int(np.argmax(dist))
        return float(dist[i]), [float(cand[i])]
    if net.dim != 2:
        raise ValueError(f"net.dim must be 1 or 2 for the exact covering radius, got {net.dim!r}")
    if pts.shape[0] > _EXACT_MAX_POINTS:
        raise ValueError(f"net must have at most {_EXACT_MAX_POINTS} points in d = 2, got {pts.shape[0]}")
    tree = cKDTree(pts)
    # Any r0 >= r bounds the pairs that can share a Voronoi edge inside W: the edge's points are within r of both.
    probe, spacing = _sample_grid(net)
    # The probe's largest distance is within (a grid step) x 2 sqrt(2) of r: an upper bound r0 >= r.
    r0 = float(tree.query(probe)[0].max()) + 2 * np.sqrt(2) * spacing
    pairs = np.array(sorted(tree.query_pairs(2 * r0)), dtype=int).reshape(-1, 2)
    cands = [pts]
    poly = _polygon(net)
    if poly is not None:
        cands.append(poly)
    else:  # the boundary point of the disc farthest from each site (and any direction for the centre)
        norms = np.linalg.norm(pts, axis=1, keepdims=True)
        cands.append(np.where(norms > 0, -pts / np.maximum(norms, 1e-300), np.array([[1.0, 0.0]])) * net.radius)
    if pairs.shape[0]:
        cands.append(_bisector_boundary_points(net, pts[pairs[:, 0]], pts[pairs[:, 1]]))
        t = _triangles(pts)
        if t.shape[0]:
            cands.append(_circumcentres(pts[t[:, 0]], pts[t[:, 1]], pts[t[:, 2]]))
    cand = np.vstack(cands)
    cand = cand[_in_set(net, cand)]
    dist, _ = tree.query(cand)
    i = int(np.argmax(dist))
    return float(dist[i]), [float(v) for v in cand[i]]


def _triangles(pts):
    """Delaunay triangles of the points (their circumcentres are the Voronoi vertices); every triple if few."""
    if pts.shape[0] < 3:
        return np.empty((0, 3), dtype=int)
    try:
        return Delaunay(pts).simplices
    except QhullError:  # collinear points: no triangle has a finite circumcentre anyway
        return (
            np.array(list(itertools.combinations(range(pts.shape[0]), 3)))
            if pts.shape[0] <= 60
            else np.empty((0, 3), dtype=int)
        )


def _sample_grid(net, per_axis=101):
    """A fine grid of points of W (d = 2) and its step, only to bound the pairs the exact step must consider."""
    lo, hi = (net.low, net.high) if isinstance(net, BoxNet) else (-net.radius, net.radius)
    g = np.linspace(lo, hi, per_axis)
    grid = np.array(np.meshgrid(g, g)).reshape(2, -1).T
    return grid[_in_set(net, grid)], (hi - lo) / (per_axis - 1)


def covering_radius_search(net, rng, starts=512, steps=60, points=None):
    """A lower bound on the covering radius by projected ascent of the nearest-point distance (any d).

    Parameters
    ----------
    net : BoxNet, L2BallNet or L1BallNet
        The net.
    rng : numpy.random.Generator
        Draws the starting points (uniform in W and on its boundary, and the set's corners for a box).
    starts, steps : int
        Number of starting points and of ascent steps.
    points : ndarray, optional
        Points to use instead of ``net.points()``.

    Returns
    -------
    radius : float
        The largest nearest-point distance found (a lower bound on the covering radius).
    at : list of float
        Where.

    References
    ----------
    .. [1] [000 Def. 4].

    Examples
    --------
    >>> r, _ = covering_radius_search(BoxNet(0.0, 1.0, 0.25, 1), np.random.default_rng(0))
    >>> round(r, 6)
    0.25
    """
    pts = np.asarray(net.points() if points is None else points, dtype=float)
    tree = cKDTree(pts)
    d = net.dim
    g = rng.standard_normal((starts, d))
    w = _project(net, g * rng.uniform(0.2, 3.0, size=(starts, 1)))
    if isinstance(net, BoxNet):
        corners = np.array(list(itertools.product((net.low, net.high), repeat=d)))[: starts // 4]
        w[: corners.shape[0]] = corners
    step = np.full(starts, net.zeta)
    dist, idx = tree.query(w)
    for _ in range(steps):
        away = w - pts[idx]
        norm = np.linalg.norm(away, axis=1, keepdims=True)
        direction = np.where(norm > 0, away / np.maximum(norm, 1e-300), rng.standard_normal((starts, d)))
        trial = _project(net, w + step[:, None] * direction)
        tdist, tidx = tree.query(trial)
        better = tdist > dist
        w[better], dist[better], idx[better] = trial[better], tdist[better], tidx[better]
        step = np.where(better, step * 1.2, step * 0.5)
    i = int(np.argmax(dist))
    return float(dist[i]), [float(v) for v in w[i]]


@functools.lru_cache(maxsize=2)
def _default_cases(profile="quick"):
    """(net, declared zeta): l2 ball, l1 ball, box; exact in d <= 2, searched in d = 3, 5 (full: finer nets too)."""
    fine = (0.1,) if profile == "quick" else (0.1, 0.05)
    nets = (
        [L2BallNet(1.0, z, 1) for z in (0.05, 0.3, 1.0)]
        + [L2BallNet(1.0, z, 2) for z in (*fine, 0.3, 1.0)]
        + [L1BallNet(1.0, z, d) for d, zs in ((1, (0.05, 0.3)), (2, (*fine, 0.3))) for z in zs]
        + [BoxNet(-1.0, 1.0, z, d) for d, zs in ((1, (0.05, 0.3)), (2, (*fine, 0.3))) for z in zs]
        + [L2BallNet(1.0, 0.4, 3), L1BallNet(1.0, 0.3, 3), BoxNet(-1.0, 1.0, 0.4, 3), L2BallNet(1.0, 0.9, 5)]
    )
    return tuple((net, net.zeta) for net in nets)


@functools.lru_cache(maxsize=4)
def _coarse_cases(factor=2.0, profile="quick"):
    """The same sets with nets built for ``factor zeta`` but declared ``zeta``-nets (a mutant)."""
    out = []
    for net, zeta in _default_cases(profile):
        kw = {"low": net.low, "high": net.high} if isinstance(net, BoxNet) else {"radius": net.radius}
        out.append((type(net)(zeta=zeta * factor, dim=net.dim, **kw), zeta))
    return tuple(out)


@functools.lru_cache(maxsize=4)
def _exact_rows(cases):
    return tuple(covering_radius_exact(net) if net.dim <= 2 else None for net, _ in cases)


def zeta_net_check(cases=None):
    """Check factory: every net of ``cases`` (``(net, declared zeta)``) has covering radius at most zeta.

    ``cases`` is a sequence of pairs, or a function of the profile returning one (default: the profile's
    box, l1-ball and l2-ball nets).

    Refuted when some net's covering radius (exact in d <= 2, a searched lower bound in d >= 3) exceeds its
    declared zeta beyond rounding; confirmed otherwise.  ``observed`` is the largest radius / zeta.
    """

    def check(ctx):
        rng = ctx.rng()
        if cases is None:
            chosen = _default_cases(ctx.profile)
        elif callable(cases):
            chosen = cases(ctx.profile)
        else:
            chosen = tuple(cases)
        exact = _exact_rows(chosen)
        rows = []
        for (net, zeta), ex in zip(chosen, exact):
            if ex is not None:
                r, at, how = ex[0], ex[1], "exact"
            else:
                r, at = covering_radius_search(net, rng, starts=256 if ctx.profile == "quick" else 4096)
                how = "search (lower bound)"
            rows.append(
                {
                    "net": type(net).__name__,
                    "dim": net.dim,
                    "size": int(net.size),
                    "zeta": zeta,
                    "covering_radius": r,
                    "ratio": r / zeta,
                    "method": how,
                    "at": at,
                }
            )
        worst = max(rows, key=lambda row: row["ratio"])
        holds = all(within(row["covering_radius"], row["zeta"]) for row in rows)
        return Result(
            "confirmed" if holds else "refuted",
            observed=worst["ratio"],
            bound=1.0,
            direction="at_most",
            method="covering radius max_w min_s ||w - s||: exact in d <= 2 (Voronoi vertices, bisector-boundary "
            "points, corners, farthest boundary points), projected ascent from random and boundary starts in "
            f"d >= 3 (a lower bound); {len(rows)} nets",
            reading="[000 Def. 4]: S subset W is a zeta-net when every w in W is within zeta (l2) of S; "
            "[000 Alg. 1 step 1] / [000 Alg. 2 step 1] and the steps (11), (21) of the proofs use it; "
            "observed = largest covering radius / declared zeta",
            evidence={"worst_at": {k: worst[k] for k in ("net", "dim", "zeta", "at")}, "cases": rows},
            evidence_kind="bound_search",
        )

    return check


def register(registry):
    """Register the zeta-net claim."""
    registry.add_claim(
        Claim(
            "wang-xu.nets.zeta-net",
            "[000 Def. 4] [000 Alg. 1]",
            "The nets of Step 1 (grids restricted to the l2 ball, the l1 ball, the box) are zeta-nets: every "
            "point of W is within zeta of a net point.",
            "inequality",
            zeta_net_check(),
            mutants=(
                Mutant(
                    "nets built for 2 zeta declared zeta-nets (twice as coarse)",
                    zeta_net_check(functools.partial(_coarse_cases, 2.0)),
                    factor=2.0,
                ),
                Mutant(
                    "nets built for 1.25 zeta declared zeta-nets",
                    zeta_net_check(functools.partial(_coarse_cases, 1.25)),
                    factor=1.25,
                ),
            ),
        )
    )
