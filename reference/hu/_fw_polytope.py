"""The polytope of 002's Frank-Wolfe algorithms: the vertices of the l1 ball and the norm ``||W||_1``.

``W = conv(V)`` is given by its vertex set ``V`` (rows); the sensitivities of [002 Alg. 1 step 6] and
[002 Alg. 2 step 4] scale with ``||W||_1``, whose two readings (:data:`NORM_READINGS`) are defined here.

References
----------
.. [1] L. Hu, S. Ni, H. Xiao and D. Wang, ``002_6c597657f27a60c9.txt``: [002 Sec. 3 (Notations)] (``||W||_1``),
       [002 Alg. 1 step 6], [002 Alg. 2 step 4], the proofs of [002 Thm. 1] and [002 Thm. 4].
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..validation import check_choice, check_finite_array, check_integer, check_positive

__all__ = ["l1_ball_vertices", "polytope_l1_radius", "polytope_l1_diameter", "polytope_l1_norm", "NORM_READINGS"]


def l1_ball_vertices(d: int, radius: float = 1.0) -> NDArray[np.float64]:
    """Vertices ``{+-radius e_j}`` of the l1 ball, rows ``+e_1, ..., +e_d, -e_1, ..., -e_d``.

    Parameters
    ----------
    d : int
        Dimension, ``>= 1``.
    radius : float, default 1.0
        Radius of the ball, finite and > 0.

    Returns
    -------
    numpy.ndarray of float64, shape (2 d, d)
        The vertices.

    Raises
    ------
    TypeError
        If ``d`` is not an integer or ``radius`` not a real number.
    ValueError
        If ``d < 1`` or ``radius`` is not finite and positive.

    References
    ----------
    .. [1] [002 Sec. 6.2] (the unit l1 ball as the polytope ``W``), [002 Alg. 1 step 6].

    Examples
    --------
    >>> l1_ball_vertices(2)
    array([[ 1.,  0.],
           [ 0.,  1.],
           [-1., -0.],
           [-0., -1.]])
    """
    d = check_integer("d", d, minimum=1)
    r = check_positive("radius", radius)
    eye = np.eye(d) * r
    return np.vstack([eye, -eye])


def _check_vertices(vertices, d=None):
    V = check_finite_array("vertices", vertices, ndim=2)
    if d is not None and V.shape[1] != d:
        raise ValueError(f"vertices must have d = {d} columns, got shape {V.shape}")
    return V


def polytope_l1_radius(vertices: ArrayLike) -> float:
    """``max_{v in V} ||v||_1``, the l1 radius of ``conv(V)`` (the ``"radius"`` reading of ``||W||_1``).

    Parameters
    ----------
    vertices : array_like, shape (k, d)
        The vertex set ``V``, finite.

    Returns
    -------
    float
        The largest l1 norm of a vertex.

    Raises
    ------
    TypeError
        If ``vertices`` is not an array of real numbers.
    ValueError
        If ``vertices`` is not a non-empty finite 2-D array.

    References
    ----------
    .. [1] [002 Alg. 1 step 6], [002 Alg. 2 step 4] (the ``||W||_1`` in the sensitivity).

    Examples
    --------
    >>> polytope_l1_radius(l1_ball_vertices(3, radius=2.0))
    2.0
    """
    V = _check_vertices(vertices)
    return float(np.max(np.sum(np.abs(V), axis=1)))


def polytope_l1_diameter(vertices: ArrayLike) -> float:
    """``||W||_1 = max_{u, v in W} ||u - v||_1`` as [002 Sec. 3 (Notations)] defines it: the l1 diameter.

    The maximum of the convex function ``||u - v||_1`` over ``conv(V) x conv(V)`` is attained at
    a pair of vertices, so it is the largest l1 distance between two rows of ``vertices``
    (2 r on the l1 ball of radius r).

    Parameters
    ----------
    vertices : array_like, shape (k, d)
        The vertex set ``V``, finite.

    Returns
    -------
    float
        The l1 diameter of ``conv(V)``.

    Raises
    ------
    TypeError
        If ``vertices`` is not an array of real numbers.
    ValueError
        If ``vertices`` is not a non-empty finite 2-D array.

    References
    ----------
    .. [1] [002 Sec. 3 (Notations)].

    Examples
    --------
    >>> polytope_l1_diameter(l1_ball_vertices(3))
    2.0
    """
    V = _check_vertices(vertices)
    return float(np.max(np.sum(np.abs(V[:, None, :] - V[None, :, :]), axis=2)))


#: Readings of ``||W||_1`` in [002 Alg. 1 step 6] and [002 Alg. 2 step 4].  ``"diameter"`` is the
#: paper's definition [002 Sec. 3 (Notations)]; ``"radius"`` (``max_v ||v||_1``, half of it on a ball
#: centred at 0) is the quantity the proofs of [002 Thm. 1] and [002 Thm. 4] bound ``||v||_1`` by.
NORM_READINGS = ("diameter", "radius")


def polytope_l1_norm(vertices: ArrayLike, reading: str = "radius") -> float:
    """``||W||_1`` of ``conv(vertices)`` under ``reading`` (one of :data:`NORM_READINGS`).

    Parameters
    ----------
    vertices : array_like, shape (k, d)
        The vertex set ``V``, finite.
    reading : {"radius", "diameter"}, default "radius"
        :func:`polytope_l1_radius` or :func:`polytope_l1_diameter`.

    Returns
    -------
    float
        ``||W||_1`` under that reading.

    Raises
    ------
    TypeError
        If ``vertices`` is not an array of real numbers.
    ValueError
        If ``vertices`` is not a non-empty finite 2-D array, or ``reading`` is unknown.

    References
    ----------
    .. [1] [002 Sec. 3 (Notations)], [002 Alg. 1 step 6], [002 Alg. 2 step 4].

    Examples
    --------
    >>> V = l1_ball_vertices(2)
    >>> polytope_l1_norm(V), polytope_l1_norm(V, "diameter")
    (1.0, 2.0)
    """
    reading = check_choice("reading", reading, NORM_READINGS)
    return polytope_l1_diameter(vertices) if reading == "diameter" else polytope_l1_radius(vertices)
