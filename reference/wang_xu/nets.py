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
from collections.abc import Iterator

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..validation import check_finite_array, check_integer, check_positive

__all__ = [
    "GridNet",
    "BoxNet",
    "L2BallNet",
    "L1BallNet",
    "ArrayNet",
    "as_net",
    "covering_bound",
    "volumetric_lower_bound",
    "check_zeta",
]


def check_zeta(zeta: float, name: str = "zeta") -> float:
    """Return the net resolution ``zeta`` as a float after checking it is finite and > 0.

    Parameters
    ----------
    zeta : float
        The net resolution.
    name : str, default "zeta"
        The parameter's name, for the error message.

    Returns
    -------
    float
        ``float(zeta)``.

    Raises
    ------
    TypeError
        If ``zeta`` is not a real number.
    ValueError
        If ``zeta`` is not finite and positive.

    References
    ----------
    .. [1] [000 Def. 4] (zeta-nets) and [000 Lemma 2].

    Examples
    --------
    >>> check_zeta(0.1)
    0.1
    """
    return check_positive(name, zeta)


def covering_bound(diameter: float, zeta: float, dim: int) -> float:
    """[000 Lemma 2]: ``N(W, zeta) <= (3 Delta / zeta)^d`` for ``W`` of diameter ``Delta``.

    Parameters
    ----------
    diameter : float
        The diameter ``Delta`` of ``W``, finite and > 0.
    zeta : float
        Net resolution, finite and > 0.
    dim : int
        Dimension ``d >= 1``.

    Returns
    -------
    float
        The bound; ``inf`` where it overflows float64.

    Raises
    ------
    TypeError
        If ``diameter`` or ``zeta`` is not a real number, or ``dim`` not an integer.
    ValueError
        If ``diameter`` or ``zeta`` is not finite and positive, or ``dim < 1``.

    References
    ----------
    .. [1] [000 Lemma 2].

    Examples
    --------
    >>> covering_bound(2.0, 0.5, 2)
    144.0
    """
    diameter = check_positive("diameter", diameter)
    zeta = check_zeta(zeta)
    dim = check_integer("dim", dim, minimum=1)
    with np.errstate(over="ignore"):
        return float(np.float64(3.0 * diameter / zeta) ** dim)


def volumetric_lower_bound(volume: float, zeta: float, dim: int) -> float:
    """``vol(W) / vol(B(zeta))``: every zeta-net of ``W`` has at least this many points.

    Parameters
    ----------
    volume : float
        The volume of ``W``, finite and > 0.
    zeta : float
        Net resolution, finite and > 0.
    dim : int
        Dimension ``d >= 1``.

    Returns
    -------
    float
        The bound, capped at ``exp(700)``.

    Raises
    ------
    TypeError
        If ``volume`` or ``zeta`` is not a real number, or ``dim`` not an integer.
    ValueError
        If ``volume`` or ``zeta`` is not finite and positive, or ``dim < 1``.

    References
    ----------
    .. [1] R. Vershynin, "High-Dimensional Probability", Cambridge 2018, Prop. 4.2.12 (the volumetric
       argument); [000 Lemma 2] (its upper counterpart).

    Examples
    --------
    >>> round(volumetric_lower_bound(4.0, 0.5, 2), 4)      # the square [-1, 1]^2 against discs of radius 1/2
    5.093
    """
    volume = check_positive("volume", volume)
    zeta = check_zeta(zeta)
    dim = check_integer("dim", dim, minimum=1)
    log_ball = (dim / 2) * math.log(math.pi) - math.lgamma(dim / 2 + 1) + dim * math.log(zeta)
    return math.exp(min(700.0, math.log(volume) - log_ball))


class GridNet:
    """A grid ``{origin + k * spacing}`` (k integer, |k_j| <= half_counts) restricted to a set: a zeta-net.

    Subclasses define :meth:`_keep` (membership of W) and ``_axis`` (the grid coordinates along one axis).
    Points are enumerated slice by slice along the first axis, in a fixed order: the ``i``-th point of
    :meth:`chunks` is the ``i``-th row of :meth:`points`.

    Raises
    ------
    TypeError, ValueError
        From :meth:`chunks`, if ``chunk_size`` is not an integer ``>= 1``.

    References
    ----------
    .. [1] [000 Def. 4] (zeta-nets), [000 Lemma 2] (their size), [000 Alg. 1 step 1] (the output set).

    Examples
    --------
    >>> net = BoxNet(-1.0, 1.0, zeta=0.5, dim=2)
    >>> isinstance(net, GridNet), net.size, net.points().shape
    (True, 9, (9, 2))
    """

    dim: int
    spacing: float
    zeta: float
    diameter: float
    volume: float
    _size: int | None  # the number of points, None until first counted

    def _axis(self) -> np.ndarray:  # grid coordinates along one axis
        raise NotImplementedError

    def _keep(self, pts: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def _prefix_may_keep(self, prefix: np.ndarray) -> np.ndarray:
        """Whether some completion of each row of ``prefix`` (the first k coordinates) may be kept.

        A superset test (True is always safe): it only lets :meth:`chunks` skip grid blocks
        that :meth:`_keep` would reject wholesale; membership itself is always decided by
        :meth:`_keep`, so the point set and its order do not depend on this test.
        """
        return np.ones(prefix.shape[0], dtype=bool)

    @staticmethod
    def _coords(axis: np.ndarray, flat: np.ndarray, width: int) -> np.ndarray:
        """Rows of grid coordinates for lexicographic indices ``flat`` over ``axis^width`` (last axis fastest)."""
        out = np.empty((flat.size, width))
        rest = flat
        for j in range(width - 1, -1, -1):  # loop over coordinates, not points
            rest, r = np.divmod(rest, axis.size)
            out[:, j] = axis[r]
        return out

    def _prefixes(self, axis: np.ndarray, prefix: np.ndarray, k: int, work: int):
        """Feasible extensions of ``prefix`` rows to ``k`` coordinates, lexicographic, <= ``max(work, axis)`` rows a piece.

        Depth first, one coordinate at a time, pruning with :meth:`_prefix_may_keep` at every level,
        so an infeasible prefix is never extended (what makes a first block in d = 8 cheap).
        """
        if prefix.shape[1] == k:
            yield prefix
            return
        step = max(1, work // axis.size)
        for p0 in range(0, prefix.shape[0], step):
            pre = prefix[p0 : p0 + step]
            nxt = np.empty((pre.shape[0] * axis.size, pre.shape[1] + 1))
            nxt[:, :-1] = np.repeat(pre, axis.size, axis=0)
            nxt[:, -1] = np.tile(axis, pre.shape[0])
            nxt = nxt[self._prefix_may_keep(nxt)]
            if nxt.shape[0]:
                yield from self._prefixes(axis, nxt, k, work)

    def _kept_in_rows(self, axis: np.ndarray, first: int, last: int, work: int):
        """Kept points of the grid rows ``first <= k_1 < last``, in lexicographic order, in pieces.

        The coordinates are split into a prefix (the first ``k``) and a suffix block of
        ``axis^(d-k) <= work`` points; feasible prefixes come from :meth:`_prefixes`, so no
        piece holds more than about ``2 * max(work, axis)`` points, whatever ``d``.
        """
        a, d = axis.size, self.dim
        k = 1
        while k < d and a ** (d - k) > work:
            k += 1
        suffix = self._coords(axis, np.arange(a ** (d - k), dtype=np.int64), d - k)
        per_prefix = suffix.shape[0]
        group = max(1, work // per_prefix)
        first_coords = axis[first:last, None]
        for prefix in self._prefixes(axis, first_coords[self._prefix_may_keep(first_coords)], k, work):
            for g0 in range(0, prefix.shape[0], group):
                pre = prefix[g0 : g0 + group]
                pts = np.empty((pre.shape[0] * per_prefix, d))
                pts[:, :k] = np.repeat(pre, per_prefix, axis=0)
                pts[:, k:] = np.tile(suffix, (pre.shape[0], 1))
                kept = pts[self._keep(pts)]
                if kept.shape[0]:
                    yield kept

    def chunks(self, chunk_size: int = 1 << 18) -> Iterator[tuple[int, NDArray[np.float64]]]:
        """Yield ``(start_index, points)`` blocks of at most ``chunk_size`` points, in order.

        Blocks are those of the slice-by-slice enumeration: a slice is ``max(1, chunk_size //
        axis^(d-1))`` consecutive values of the first coordinate, and each slice's kept points
        are cut into pieces of ``chunk_size`` (the last one shorter).  A slice is never
        materialised: its kept points are generated in pieces of ``O(chunk_size)`` grid points
        (``O(chunk_size * d)`` memory in any ``d``) and buffered up to one block.
        """
        chunk_size = check_integer("chunk_size", chunk_size, minimum=1)
        axis = self._axis()
        per_row = max(1, axis.size ** (self.dim - 1))
        rows = max(1, chunk_size // per_row)
        work = max(chunk_size, 4096)
        start = 0
        for first in range(0, axis.size, rows):
            pending, held = [], 0
            for kept in self._kept_in_rows(axis, first, min(axis.size, first + rows), work):
                pending.append(kept)
                held += kept.shape[0]
                while held >= chunk_size:
                    buf = np.concatenate(pending) if len(pending) > 1 else pending[0]
                    yield start, buf[:chunk_size]
                    start += chunk_size
                    rest = buf[chunk_size:]
                    pending, held = ([rest] if rest.shape[0] else []), rest.shape[0]
            if held:
                yield start, np.concatenate(pending) if len(pending) > 1 else pending[0]
                start += held

    @property
    def size(self) -> int:
        size = getattr(self, "_size", None)
        if size is None:
            size = self._size = int(sum(b.shape[0] for _, b in self.chunks()))
        return size

    def __len__(self) -> int:
        return self.size

    def points(self) -> NDArray[np.float64]:
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

    Raises
    ------
    TypeError
        If ``low``, ``high`` or ``zeta`` is not a real number, or ``dim`` not an integer.
    ValueError
        If ``low`` or ``high`` is not a finite scalar, ``high <= low``, ``zeta`` is not finite and positive,
        or ``dim < 1``.

    References
    ----------
    .. [1] [000 Def. 4], [000 Lemma 2].

    Examples
    --------
    >>> BoxNet(0.0, 1.0, zeta=0.25, dim=1).points().ravel()
    array([0.25, 0.75])
    """

    def __init__(self, low: float, high: float, zeta: float, dim: int) -> None:
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
        self.volume = width**self.dim
        self._size = self.cells**self.dim

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

    Parameters
    ----------
    radius : float
        Radius of the ball, finite and > 0.
    zeta : float
        Net resolution, finite and > 0.
    dim : int
        Dimension ``d >= 1``.

    Raises
    ------
    TypeError
        If ``radius`` or ``zeta`` is not a real number, or ``dim`` not an integer.
    ValueError
        If ``radius`` or ``zeta`` is not finite and positive, or ``dim < 1``.

    References
    ----------
    .. [1] [000 Def. 4], [000 Lemma 2]; the output sets of [000 Alg. 1] and [000 Alg. 2].

    Examples
    --------
    >>> net = L2BallNet(1.0, zeta=0.5, dim=2)
    >>> round(net.spacing, 6), net.size
    (0.353553, 25)
    """

    def __init__(self, radius: float, zeta: float, dim: int) -> None:
        self.radius = check_positive("radius", radius)
        self.zeta = check_zeta(zeta)
        self.dim = check_integer("dim", dim, minimum=1)
        self.spacing = self.zeta / math.sqrt(self.dim)
        self.half = int(math.floor(self.radius / self.spacing))
        self.diameter = 2.0 * self.radius
        self.volume = math.exp(
            (self.dim / 2) * math.log(math.pi) - math.lgamma(self.dim / 2 + 1) + self.dim * math.log(self.radius)
        )
        self._size = None

    def _axis(self):
        return np.arange(-self.half, self.half + 1) * self.spacing

    def _keep(self, pts):
        return np.einsum("ij,ij->i", pts, pts) <= self.radius**2

    def _prefix_may_keep(self, prefix):
        # The axis contains 0, so the smallest completion norm is the prefix's own; the margin
        # covers rounding of this sum against the one _keep computes.
        return np.einsum("ij,ij->i", prefix, prefix) <= self.radius**2 * (1.0 + 1e-9)


class L1BallNet(GridNet):
    """zeta-net of the l1 ball ``{||w||_1 <= radius}``: grid of spacing ``2 zeta / (d + sqrt d)``.

    Proof note.  With ``a = d h / 2`` (l1 half-diagonal of a cell) and ``w' = (1 - a/R) w``
    (``w' = 0`` if ``a >= R``), the grid point ``g`` nearest to ``w'`` has
    ``||g - w'||_1 <= a`` so ``||g||_1 <= R`` (kept), and
    ``||g - w||_2 <= sqrt(d) h / 2 + a ||w||_2 / R <= (sqrt(d) + d) h / 2 = zeta``.
    If ``a >= R`` the origin is within ``||w||_2 <= R <= a < zeta``.

    Parameters
    ----------
    radius : float
        Radius of the ball, finite and > 0.
    zeta : float
        Net resolution, finite and > 0.
    dim : int
        Dimension ``d >= 1``.

    Raises
    ------
    TypeError
        If ``radius`` or ``zeta`` is not a real number, or ``dim`` not an integer.
    ValueError
        If ``radius`` or ``zeta`` is not finite and positive, or ``dim < 1``.

    References
    ----------
    .. [1] [000 Def. 4], [000 Lemma 2]; the output sets of [000 Alg. 1] and [000 Alg. 2].

    Examples
    --------
    >>> l1 = L1BallNet(1.0, zeta=0.5, dim=2)
    >>> round(l1.spacing, 6), l1.size
    (0.292893, 25)
    """

    def __init__(self, radius: float, zeta: float, dim: int) -> None:
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

    def _prefix_may_keep(self, prefix):
        # As for the l2 ball: 0 is on the axis; the margin covers rounding.
        return np.abs(prefix).sum(axis=1) <= self.radius * (1.0 + 1e-9)


class ArrayNet:
    """An explicit finite output set given as an ``(N, d)`` array (validated: non-empty, finite).

    It answers as a :class:`GridNet` does: ``size``, ``dim``, ``zeta``, :meth:`points` and :meth:`chunks`.

    Parameters
    ----------
    points : array_like, shape (N, d)
        The points, finite, ``N >= 1``, ``d >= 1``.
    zeta : float or None, default None
        The resolution the points are a net for, if known (finite and > 0).

    Raises
    ------
    TypeError
        If ``points`` is not an array of real numbers or ``zeta`` not a real number.
    ValueError
        If ``points`` is not a non-empty finite 2-D array with at least one column, or ``zeta`` is not
        finite and positive.

    References
    ----------
    .. [1] [000 Alg. 1 step 1] (any finite zeta-net of the domain is a valid output set).

    Examples
    --------
    >>> net = ArrayNet([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    >>> net.size, net.dim, [start for start, _ in net.chunks(chunk_size=2)]
    (3, 2, [0, 2])
    """

    def __init__(self, points: ArrayLike, zeta: float | None = None) -> None:
        pts = check_finite_array("net", points, ndim=2)
        if pts.shape[1] < 1:
            raise ValueError(f"net must have at least one coordinate, got shape {pts.shape}")
        self._points = pts
        self.dim = pts.shape[1]
        self.zeta = None if zeta is None else check_zeta(zeta)
        self.size = pts.shape[0]

    def __len__(self):
        return self.size

    def points(self) -> NDArray[np.float64]:
        return self._points

    def chunks(self, chunk_size: int = 1 << 18) -> Iterator[tuple[int, NDArray[np.float64]]]:
        chunk_size = check_integer("chunk_size", chunk_size, minimum=1)
        for s in range(0, self.size, chunk_size):
            yield s, self._points[s : s + chunk_size]

    def __repr__(self):
        return f"ArrayNet(dim={self.dim}, size={self.size})"


def as_net(net: GridNet | ArrayNet | ArrayLike, dim: int | None = None) -> GridNet | ArrayNet:
    """Accept a net object or an ``(N, d)`` array; check it is non-empty and of dimension ``dim``.

    Parameters
    ----------
    net : GridNet, ArrayNet or array_like of shape (N, d)
        The output set; an array becomes an :class:`ArrayNet`.
    dim : int or None, default None
        The dimension the data require; ``None`` accepts any.

    Returns
    -------
    GridNet or ArrayNet
        ``net`` itself, or the :class:`ArrayNet` of the array.

    Raises
    ------
    TypeError
        If an array ``net`` is not an array of real numbers.
    ValueError
        If the net is empty, an array ``net`` is not a finite 2-D array, or the net's dimension is not
        ``dim``.

    References
    ----------
    .. [1] [000 Alg. 1 step 1], [000 Alg. 2 step 1] (the zeta-net the mechanism samples from).

    Examples
    --------
    >>> as_net([[0.0], [1.0]], dim=1).size
    2
    >>> as_net([[0.0], [1.0]], dim=2)
    Traceback (most recent call last):
    ValueError: net has dimension 1 but the data have 2 features
    """
    if isinstance(net, (GridNet, ArrayNet)):
        obj = net
    else:
        obj = ArrayNet(net)
    if obj.size == 0:
        raise ValueError(f"net must not be empty, got {obj!r}")
    if dim is not None and obj.dim != dim:
        raise ValueError(f"net has dimension {obj.dim} but the data have {dim} features")
    return obj
