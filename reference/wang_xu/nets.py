"""zeta-nets of bounded constraint sets W ([000 Def. 4]) and the covering bound of [000 Lemma 2].

Every net here is a rectangular grid restricted to W, so its points lie in W
([000 Def. 4] asks for ``S subset W``) and it can be enumerated lazily in
chunks: a net of 10^7 points in d = 2 never has to be held in memory.

References
----------
.. [1] D. Wang and J. Xu, ``000_e64de114947d2122.txt``: [000 Def. 4] (zeta-net), [000 Lemma 2]
       (covering number ``N(W, zeta) <= (3 Delta / zeta)^d``), [000 Alg. 1 step 1].
.. [2] R. Vershynin, *High-dimensional probability*, Cambridge University Press, 2018, Section 4.2.
"""

from __future__ import annotations

import math

import numpy as np

from ..validation import check_finite_array, check_integer, check_positive

__all__ = ["GridNet", "BoxNet", "L2BallNet", "L1BallNet", "ArrayNet", "as_net", "covering_bound",
           "volumetric_lower_bound", "check_zeta"]


def check_zeta(zeta, name: str = "zeta") -> float:
    """Net resolution: a finite number > 0."""
    return check_positive(name, zeta)


def covering_bound(diameter, zeta, dim) -> float:
    """[000 Lemma 2]: ``N(W, zeta) <= (3 Delta / zeta)^d`` for ``W`` of diameter ``Delta``.

    Returned as a float (may be ``inf`` for astronomically large values).
    """
    diameter = check_positive("diameter", diameter)
    zeta = check_zeta(zeta)
    dim = check_integer("dim", dim, minimum=1)
    with np.errstate(over="ignore"):
        return float(np.float64(3.0 * diameter / zeta) ** dim)


def volumetric_lower_bound(volume, zeta, dim) -> float:
    """``vol(W) / vol(B(zeta))``: every zeta-net of ``W`` has at least this many points."""
    volume = check_positive("volume", volume)
    zeta = check_zeta(zeta)
    dim = check_integer("dim", dim, minimum=1)
    log_ball = (dim / 2) * math.log(math.pi) - math.lgamma(dim / 2 + 1) + dim * math.log(zeta)
    return math.exp(min(700.0, math.log(volume) - log_ball))


class GridNet:
    """A grid ``{origin + k * spacing}`` (k integer, |k_j| <= half_counts) restricted to a set.

    Subclasses define :meth:`_keep` (membership of W).  Points are enumerated
    slice by slice along the first axis, in a fixed order: the ``i``-th point of
    :meth:`chunks` is the ``i``-th row of :meth:`points`.
    """

    dim: int
    spacing: float
    zeta: float
    diameter: float
    volume: float

    def _axis(self) -> np.ndarray:  # grid coordinates along one axis
        raise NotImplementedError

    def _keep(self, pts: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def _slices(self, rows_per_slice: int):
        axis = self._axis()
        for start in range(0, axis.size, rows_per_slice):
            first = axis[start:start + rows_per_slice]
            grids = np.meshgrid(first, *([axis] * (self.dim - 1)), indexing="ij")
            pts = np.stack([g.ravel() for g in grids], axis=1)
            yield pts[self._keep(pts)]

    def chunks(self, chunk_size: int = 1 << 18):
        """Yield ``(start_index, points)`` blocks of at most about ``chunk_size`` points, in order."""
        chunk_size = check_integer("chunk_size", chunk_size, minimum=1)
        axis_len = self._axis().size
        per_row = max(1, axis_len ** (self.dim - 1))
        rows = max(1, chunk_size // per_row)
        start = 0
        for pts in self._slices(rows):
            for s in range(0, pts.shape[0], chunk_size):
                block = pts[s:s + chunk_size]
                if block.shape[0]:
                    yield start, block
                    start += block.shape[0]

    @property
    def size(self) -> int:
        if getattr(self, "_size", None) is None:
            self._size = int(sum(b.shape[0] for _, b in self.chunks()))
        return self._size

    def __len__(self) -> int:
        return self.size

    def points(self) -> np.ndarray:
        """All net points as an ``(N, d)`` array (only for nets that fit in memory)."""
        return np.concatenate([b for _, b in self.chunks()], axis=0)

    def covering_bound(self) -> float:
        """[000 Lemma 2] for this set: ``(3 Delta / zeta)^d``."""
        return covering_bound(self.diameter, self.zeta, self.dim)

    def __repr__(self):
        return f"{type(self).__name__}(dim={self.dim}, zeta={self.zeta}, size={self.size})"


class BoxNet(GridNet):
    """zeta-net of the box ``[low, high]^d``: cell centres of a grid with cell diagonal ``<= 2 zeta``.

    Proof note.  With ``m = ceil((high - low) / h)`` cells per axis of width
    ``(high - low)/m <= h = 2 zeta / sqrt(d)``, every point of the box lies in a cell whose
    centre is at distance ``<= sqrt(d) h / 2 = zeta``; centres lie in the box.

    Parameters
    ----------
    low, high : float
        Box bounds, ``low < high`` (the same for every coordinate).
    zeta : float
        Net resolution, > 0.
    dim : int
        Dimension d >= 1.
    """

    def __init__(self, low, high, zeta, dim):
        self.low = float(check_finite_array("low", low, ndim=0))
        self.high = float(check_finite_array("high", high, ndim=0))
        if not self.low < self.high:
            raise ValueError(f"high must exceed low, got low={low!r}, high={high!r}")
        self.zeta = check_zeta(zeta)
        self.dim = check_integer("dim", dim, minimum=1)
        width = self.high - self.low
        h = 2.0 * self.zeta / math.sqrt(self.dim)
        self.cells = max(1, int(math.ceil(width / h)))
        self.spacing = width / self.cells
        self.diameter = width * math.sqrt(self.dim)
        self.volume = width ** self.dim
        self._size = self.cells ** self.dim

    def _axis(self):
        return self.low + (np.arange(self.cells) + 0.5) * self.spacing

    def _keep(self, pts):
        return np.ones(pts.shape[0], dtype=bool)


class L2BallNet(GridNet):
    """zeta-net of the Euclidean ball ``{||w||_2 <= radius}``: grid of spacing ``zeta / sqrt(d)``.

    Proof note.  Let ``||w|| <= R`` and ``w' = (1 - zeta/(2R)) w`` (or ``w' = 0`` when
    ``zeta >= 2R``).  The grid point ``g`` nearest to ``w'`` satisfies
    ``||g - w'|| <= sqrt(d) h / 2 = zeta / 2``, so ``||g|| <= ||w'|| + zeta/2 <= R`` (g is kept)
    and ``||g - w|| <= zeta/2 + (zeta/(2R)) ||w|| <= zeta``.  When ``zeta >= 2R`` the origin
    (a grid point) is within ``R <= zeta/2`` of every point.
    """

    def __init__(self, radius, zeta, dim):
        self.radius = check_positive("radius", radius)
        self.zeta = check_zeta(zeta)
        self.dim = check_integer("dim", dim, minimum=1)
        self.spacing = self.zeta / math.sqrt(self.dim)
        self.half = int(math.floor(self.radius / self.spacing))
        self.diameter = 2.0 * self.radius
        self.volume = math.exp((self.dim / 2) * math.log(math.pi) - math.lgamma(self.dim / 2 + 1)
                               + self.dim * math.log(self.radius))
        self._size = None

    def _axis(self):
        return np.arange(-self.half, self.half + 1) * self.spacing

    def _keep(self, pts):
        return np.einsum("ij,ij->i", pts, pts) <= self.radius ** 2


class L1BallNet(GridNet):
    """zeta-net of the l1 ball ``{||w||_1 <= radius}``: grid of spacing ``2 zeta / (d + sqrt d)``.

    Proof note.  With ``a = d h / 2`` (l1 half-diagonal of a cell) and ``w' = (1 - a/R) w``
    (``w' = 0`` if ``a >= R``), the grid point ``g`` nearest to ``w'`` has
    ``||g - w'||_1 <= a`` so ``||g||_1 <= R`` (kept), and
    ``||g - w||_2 <= sqrt(d) h / 2 + a ||w||_2 / R <= (sqrt(d) + d) h / 2 = zeta``.
    If ``a >= R`` the origin is within ``||w||_2 <= R <= a < zeta``.
    """

    def __init__(self, radius, zeta, dim):
        self.radius = check_positive("radius", radius)
        self.zeta = check_zeta(zeta)
        self.dim = check_integer("dim", dim, minimum=1)
        self.spacing = 2.0 * self.zeta / (self.dim + math.sqrt(self.dim))
        self.half = int(math.floor(self.radius / self.spacing))
        self.diameter = 2.0 * self.radius
        self.volume = math.exp(self.dim * math.log(2.0 * self.radius) - math.lgamma(self.dim + 1))
        self._size = None

    def _axis(self):
        return np.arange(-self.half, self.half + 1) * self.spacing

    def _keep(self, pts):
        return np.abs(pts).sum(axis=1) <= self.radius


class ArrayNet:
    """An explicit finite output set given as an ``(N, d)`` array (validated: non-empty, finite)."""

    def __init__(self, points, zeta=None):
        pts = check_finite_array("net", points, ndim=2)
        if pts.shape[1] < 1:
            raise ValueError(f"net must have at least one coordinate, got shape {pts.shape}")
        self._points = pts
        self.dim = pts.shape[1]
        self.zeta = None if zeta is None else check_zeta(zeta)
        self.size = pts.shape[0]

    def __len__(self):
        return self.size

    def points(self):
        return self._points

    def chunks(self, chunk_size: int = 1 << 18):
        chunk_size = check_integer("chunk_size", chunk_size, minimum=1)
        for s in range(0, self.size, chunk_size):
            yield s, self._points[s:s + chunk_size]

    def __repr__(self):
        return f"ArrayNet(dim={self.dim}, size={self.size})"


def as_net(net, dim=None):
    """Accept a net object or an ``(N, d)`` array; check it is non-empty and of dimension ``dim``."""
    if isinstance(net, (GridNet, ArrayNet)):
        obj = net
    else:
        obj = ArrayNet(net)
    if obj.size == 0:
        raise ValueError(f"net must not be empty, got {obj!r}")
    if dim is not None and obj.dim != dim:
        raise ValueError(f"net has dimension {obj.dim} but the data have {dim} features")
    return obj
