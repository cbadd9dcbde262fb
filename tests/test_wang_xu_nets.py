"""zeta-nets (Definition 4 of 000): covering, membership, lazy enumeration, Lemma 2 bound, bad input."""

import math
from itertools import product

import numpy as np
import pytest
from scipy.spatial import cKDTree

from reference.wang_xu.nets import (
    ArrayNet,
    BoxNet,
    L1BallNet,
    L2BallNet,
    as_net,
    covering_bound,
    volumetric_lower_bound,
)

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
    assert np.all(_inside(net, pts))  # S subset of W (Definition 4)
    w = _points_of_W(net, np.random.default_rng(dim))
    dist, _ = cKDTree(pts).query(w)
    assert dist.max() <= zeta * (1 + 1e-12)
    assert len(net) <= covering_bound(net.diameter, zeta, dim)  # beside Lemma 2
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


def _slice_chunks(net, chunk_size):
    """The earlier enumeration (provenance: reference/wang_xu/nets.py at 21eb884): whole slices of
    ``max(1, chunk_size // axis^(d-1))`` first-axis rows, materialised by meshgrid, filtered, cut."""
    # private: _axis, _keep: the earlier enumeration is rebuilt from the net's own axis and filter
    axis = net._axis()
    rows = max(1, chunk_size // max(1, axis.size ** (net.dim - 1)))
    start = 0
    for s0 in range(0, axis.size, rows):
        grids = np.meshgrid(axis[s0 : s0 + rows], *([axis] * (net.dim - 1)), indexing="ij")
        pts = np.stack([g.ravel() for g in grids], axis=1)
        pts = pts[net._keep(pts)]
        for s in range(0, pts.shape[0], chunk_size):
            if pts[s : s + chunk_size].shape[0]:
                yield start, pts[s : s + chunk_size]
                start += pts[s : s + chunk_size].shape[0]


@pytest.mark.parametrize(
    "net",
    [
        L2BallNet(1.0, 0.3, 3),
        L2BallNet(1.0, 0.05, 2),
        L1BallNet(1.0, 0.3, 3),
        L1BallNet(2.0, 0.9, 4),
        BoxNet(-1.0, 2.0, 0.3, 3),
        L2BallNet(1.0, 0.7, 5),
        L2BallNet(0.5, 0.3, 1),
    ],
)
@pytest.mark.parametrize("chunk_size", [1, 5, 64, 5000, 1 << 18])
def test_chunks_identical_to_slice_enumeration(net, chunk_size):
    """Same points, same order and the same block boundaries as the slice enumeration (the streaming
    sampler draws one Gumbel per block, so the boundaries are part of Algorithms 1-2's random stream)."""
    new, old = list(net.chunks(chunk_size)), list(_slice_chunks(net, chunk_size))
    assert [s for s, _ in new] == [s for s, _ in old]
    assert all(np.array_equal(a, b) for (_, a), (_, b) in zip(new, old))


def _peak_bytes_until_full_block(net, block):
    import tracemalloc

    tracemalloc.start()
    try:
        for _, pts in net.chunks(block):
            if pts.shape[0] == block:
                break
        return tracemalloc.get_traced_memory()[1], pts
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("dim, zeta, block", [(2, 3e-4, 1024), (5, 0.1, 4096), (8, 0.25, 4096)])
def test_block_memory_is_of_order_block_times_d(dim, zeta, block):
    """A block of ``L2BallNet(1, 0.1, 5)`` once peaked at 348 MB (a whole axis^(d-1) slice).
    Now the peak until the first full block is O(max(block, axis) * d): bound 40x the block's bytes,
    while one slice would be axis^(d-1) / block = 10^2 to 10^6 times larger."""
    net = L2BallNet(1.0, zeta, dim)
    axis = net._axis().size
    assert axis ** (dim - 1) > 2 * block
    peak, pts = _peak_bytes_until_full_block(net, block)
    assert pts.shape == (block, dim)
    assert peak <= 40 * max(block, axis) * dim * 8, (peak, pts.nbytes)
