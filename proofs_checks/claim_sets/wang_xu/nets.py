"""Lemma 2 of Wang & Xu (000) on concrete sets: the covering number ``N(W, zeta) <= (3 Delta / zeta)^d``.

[000 Lemma 2] (Vershynin 2018) bounds the covering number of [000 Def. 4] of a bounded
``W subset R^d`` of diameter ``Delta``.  An explicit grid net that covers ``W`` (checked on random
and boundary points) and has at most ``(3 Delta / zeta)^d`` points confirms the bound for that
set; a volumetric lower bound on every zeta-net, ``vol(W) / vol(B(zeta))``, above it refutes.

Power: the check refutes a bound below the volumetric lower bound (for a ball, ``(Delta / (2 zeta))^d``),
e.g. the constant 3 replaced by 0.4 or the bound x0.1.  It cannot refute ``(Delta / zeta)^d``: that
smaller bound is true on these sets for ``zeta < Delta`` (d = 1: ``N = ceil(Delta / (2 zeta)) <= Delta / zeta``;
the disc: 7 discs of radius 1/2 cover the unit disc, against ``(2 / 0.5)^2 = 16``), so a grid net
larger than it makes it ``inconclusive``, which is right (it is no wrong bound).
"""

from __future__ import annotations

import functools

import numpy as np
from scipy.spatial import cKDTree

from reference.wang_xu.nets import BoxNet, L1BallNet, L2BallNet, covering_bound, volumetric_lower_bound

from ...model import Claim, Mutant, Result
from ...verdicts import within

__all__ = ["covering_check", "register"]


def _sample_in(net, m, rng):
    """``m`` points of the net's set W: a quarter on the boundary (balls), the rest inside."""
    d = net.dim
    g = rng.standard_normal((m, d))
    if isinstance(net, L2BallNet):
        w = g / np.linalg.norm(g, axis=1, keepdims=True)
        return w * net.radius * np.concatenate([np.ones(m // 4), rng.uniform(size=m - m // 4) ** (1 / d)])[:, None]
    if isinstance(net, L1BallNet):
        e = rng.exponential(size=(m, d + 1))
        w = np.sign(g) * e[:, :d] / e.sum(axis=1, keepdims=True)
        w[: m // 4] = np.sign(g[: m // 4]) * e[: m // 4, :d] / e[: m // 4, :d].sum(axis=1, keepdims=True)
        return w * net.radius
    return rng.uniform(net.low, net.high, size=(m, d))


def _default_nets():
    return (
        [L2BallNet(1.0, z, d) for d in (1, 2, 3) for z in (0.05, 0.3, 1.0)]
        + [L1BallNet(1.0, z, d) for d in (1, 2, 3) for z in (0.05, 0.3)]
        + [BoxNet(-1.0, 1.0, z, d) for d in (1, 2, 3) for z in (0.05, 0.3)]
    )


@functools.lru_cache(maxsize=1)
def _default_net_trees():
    """``(net, points, KD-tree)`` of :func:`_default_nets`: data-independent, built once per process and shared
    by the run seeds and the mutants (rebuilding them was ~0.17 s a seed)."""
    out = []
    for net in _default_nets():
        pts = net.points()
        out.append((net, pts, cKDTree(pts)))
    return tuple(out)


def _net_trees(nets):
    if nets is None:
        return _default_net_trees()
    return tuple((net, pts, cKDTree(pts)) for net, pts in ((net, net.points()) for net in nets))


def scaled_covering_bound(constant=3.0, factor=1.0):
    """``factor (constant Delta / zeta)^d``: Lemma 2's bound with its constant 3 or its value changed (mutants)."""

    def bound(diameter, zeta, dim):
        return factor * (constant / 3.0) ** dim * covering_bound(diameter, zeta, dim)

    return bound


def covering_check(bound=covering_bound, nets=None):
    """Check factory: Lemma 2 on concrete sets (l2 and l1 balls, boxes in d = 1, 2, 3).

    Refuted when the volumetric lower bound of some set exceeds ``bound(diameter, zeta, d)``;
    confirmed when every net covers its set and has at most ``bound`` points; inconclusive
    otherwise (a net that does not cover proves nothing).  ``observed`` is the largest
    net size over the bound (the largest lower bound over the bound when refuted).
    """

    def check(ctx):
        rng = ctx.rng()
        m = 2000 if ctx.profile == "quick" else 50000
        rows, all_confirm, any_refute = [], True, False
        for net, pts, tree in _net_trees(nets):
            dist, _ = tree.query(_sample_in(net, m, rng))
            covers = within(float(dist.max()), net.zeta)
            b = bound(net.diameter, net.zeta, net.dim)
            lower = volumetric_lower_bound(net.volume, net.zeta, net.dim)
            rows.append(
                {
                    "net": type(net).__name__,
                    "dim": net.dim,
                    "zeta": net.zeta,
                    "size": int(pts.shape[0]),
                    "bound": b,
                    "volumetric_lower_bound": lower,
                    "covers": covers,
                    "max_distance_over_zeta": float(dist.max() / net.zeta),
                }
            )
            all_confirm &= covers and within(pts.shape[0], b)
            any_refute |= not within(lower, b)
        if any_refute:
            verdict, observed = "refuted", max(r["volumetric_lower_bound"] / r["bound"] for r in rows)
        else:
            verdict = "confirmed" if all_confirm else "inconclusive"
            observed = max(r["size"] / r["bound"] for r in rows)
        return Result(
            verdict,
            observed=observed,
            bound=1.0,
            direction="at_most",
            method=f"explicit grid nets, covering verified on {m} random and boundary points of each set; "
            "volumetric lower bound vol(W) / vol(B(zeta)) on every zeta-net",
            reading="[000 Lemma 2]: N(W, zeta) <= (3 Delta / zeta)^d, Delta the diameter of W; "
            "zeta-net and covering number of [000 Def. 4]",
            evidence={
                "observed_is": "largest lower bound / stated bound"
                if any_refute
                else "largest verified net size / stated bound",
                "cases": rows,
            },
        )

    return check


def register(registry):
    """Register the Lemma 2 claim."""
    registry.add_claim(
        Claim(
            "wang-xu.lemma2.covering-number",
            "[000 Lemma 2]",
            "A bounded W in R^d of diameter Delta has covering number N(W, zeta) <= (3 Delta / zeta)^d.",
            "inequality",
            covering_check(),
            mutants=(
                Mutant("bound x0.1", covering_check(scaled_covering_bound(factor=0.1)), factor=0.1),
                Mutant(
                    "constant 3 -> 0.4: (0.4 Delta / zeta)^d",
                    covering_check(scaled_covering_bound(0.4)),
                    factor=0.4 / 3,
                ),
                Mutant(
                    "constant 3 -> 1: (Delta / zeta)^d (true on these sets; expected inconclusive)",
                    covering_check(scaled_covering_bound(1.0)),
                    factor=1 / 3,
                    detected_by=("refuted", "inconclusive"),
                ),
            ),
        )
    )
