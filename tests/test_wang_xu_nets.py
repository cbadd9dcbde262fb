"""zeta-nets (Definition 4 of 000): covering, membership, lazy enumeration, Lemma 2 bound, bad input."""

import math
from itertools import product

import numpy as np
import pytest
from scipy.spatial import cKDTree

from reference.wang_xu.nets import (ArrayNet, BoxNet, L1BallNet, L2BallNet, as_net, covering_bound,
                            volumetric_lower_bound)

CASES = [(L2BallNet, (1.0,)), (L1BallNet, (1.0,)), (BoxNet, (-1.0, 1.0))]


def _points_of_W(net, rng, m=4000):
    """Random points of W, points on its boundary, its vertices / axis points, and net-cell corners."""
    d = net.dim
    g = rng.standard_normal((m, d))
    if isinstance(net, L2BallNet):
        u = g / np.linalg.norm(g, axis=1, keepdims=True)
        w = np.vstack([u * net.radius, u * net.radius * rng.uniform(size=(m, 1)) ** (1 / d)])
    elif isinstance(net, L1BallNet):
        u = g / np.abs(g).sum(axis=1, keepdims=True)
        w = np.vstack([u * net.radius, u * net.radius * rng.uniform(size=(m, 1)) ** (1 / d)])
    else:
        corners = np.array(list(product([net.low, net.high], repeat=d)))
        w = np.vstack([rng.uniform(net.low, net.high, size=(m, d)), corners])
    axes = np.vstack([s * net.radius * np.eye(d) for s in (1, -1)]) if hasattr(net, "radius") else w[:0]
    # Points midway between grid points (where the distance to the grid is largest), kept inside W.
    pts = net.points()
    mid = pts + 0.5 * net.spacing
    inside = _inside(net, mid)
    return np.vstack([w, axes, mid[inside]])


def _inside(net, w):
    if isinstance(net, L2BallNet):
        return np.linalg.norm(w, axis=1) <= net.radius
    if isinstance(net, L1BallNet):
        return np.abs(w).sum(axis=1) <= net.radius
    return np.all((w >= net.low) & (w <= net.high), axis=1)


@pytest.mark.parametrize("cls,args", CASES)
@pytest.mark.parametrize("dim", [1, 2, 3])
@pytest.mark.parametrize("zeta", [0.07, 0.3, 1.0, 2.5])
def test_every_point_of_W_is_within_zeta_and_net_lies_in_W(cls, args, dim, zeta):
    net = cls(*args, zeta, dim)
    pts = net.points()
    assert pts.shape == (len(net), dim)
    assert np.all(_inside(net, pts))                       # S subset of W (Definition 4)
    w = _points_of_W(net, np.random.default_rng(dim))
    dist, _ = cKDTree(pts).query(w)
    assert dist.max() <= zeta * (1 + 1e-12)
    assert len(net) <= covering_bound(net.diameter, zeta, dim)          # beside Lemma 2
    assert len(net) >= volumetric_lower_bound(net.volume, zeta, dim) * (1 - 1e-12)  # any zeta-net must


@pytest.mark.parametrize("cls,args", CASES)
def test_chunks_enumerate_points_in_order(cls, args):
    net = cls(*args, 0.1, 2)
    starts, blocks = zip(*net.chunks(37))
    allp = np.concatenate(blocks)
    np.testing.assert_array_equal(allp, net.points())
    assert list(starts) == list(np.cumsum([0] + [b.shape[0] for b in blocks[:-1]]))
    assert max(b.shape[0] for b in blocks) <= 37


def test_covering_bound_values():
    assert covering_bound(2.0, 0.5, 2) == pytest.approx(144.0)
    assert math.isinf(covering_bound(2.0, 1e-300, 5))
    # unit-ball volume in 2-d over the area of a zeta-disc
    assert volumetric_lower_bound(math.pi, 0.1, 2) == pytest.approx(100.0)


@pytest.mark.parametrize("bad", [0.0, -0.1, float("nan"), float("inf")])
def test_bad_zeta_rejected(bad):
    for cls, args in CASES:
        with pytest.raises(ValueError, match="zeta"):
            cls(*args, bad, 2)


def test_bad_sets_rejected():
    with pytest.raises(ValueError, match="radius"):
        L2BallNet(-1.0, 0.1, 2)
    with pytest.raises(ValueError, match="high"):
        BoxNet(1.0, 1.0, 0.1, 2)
    with pytest.raises(ValueError, match="dim"):
        L1BallNet(1.0, 0.1, 0)


def test_array_net_validation():
    with pytest.raises(ValueError, match="net"):
        as_net(np.zeros((0, 2)))
    with pytest.raises(ValueError, match="net"):
        as_net(np.zeros(3))
    with pytest.raises(ValueError, match="dimension"):
        as_net(np.zeros((4, 2)), dim=3)
    with pytest.raises(ValueError, match="net"):
        as_net([[0.0, np.nan]])
    assert as_net(ArrayNet([[0.0, 1.0]])).size == 1
