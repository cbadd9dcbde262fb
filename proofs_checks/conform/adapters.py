"""The reference behind the port functions whose kit signature differs from the reference's own.

A port exposes flat functions of arrays, numbers and strings; the reference builds nets and losses as
objects.  These adapters are what :mod:`.functions` declares as the reference of ``net_points`` and the
loss functions.
"""

from __future__ import annotations

from reference.losses import get_loss
from reference.wang_xu import nets

__all__ = ["net_points", "loss_value", "loss_gradient", "loss_gradient_batch"]

_NETS = {"l1": nets.L1BallNet, "l2": nets.L2BallNet}


def net_points(kind, radius, zeta, dim):
    """Points of the zeta-net ([000 Def. 4]) of the l1 or l2 ball of ``radius`` in ``dim`` dimensions.

    Parameters
    ----------
    kind : {"l1", "l2"}
        The ball.
    radius, zeta : float
        Its radius and the net's mesh.
    dim : int
        The dimension.

    Returns
    -------
    numpy.ndarray
        One point per row (the kit compares the rows as a set).

    Raises
    ------
    ValueError
        If ``kind`` is not ``"l1"`` or ``"l2"``.

    Examples
    --------
    >>> net_points("l1", 1.0, 1.0, 1).tolist()
    [[-1.0], [0.0], [1.0]]
    """
    if kind not in _NETS:
        raise ValueError(f"kind must be one of {sorted(_NETS)}, got {kind!r}")
    return _NETS[kind](radius, zeta, dim).points()


def loss_value(loss, w, X, y):
    """The per-record losses ``l(w, (x_i, y_i))`` of the loss named ``loss`` (squared, logistic, biweight).

    Examples
    --------
    >>> loss_value("squared", [1.0], [[2.0], [1.0]], [0.0, 1.0]).tolist()
    [4.0, 0.0]
    """
    return get_loss(loss).value(w, X, y)


def loss_gradient(loss, w, X, y):
    """The per-example gradients in ``w`` of the loss named ``loss``, one row per record.

    Examples
    --------
    >>> loss_gradient("squared", [1.0], [[2.0], [1.0]], [0.0, 1.0]).tolist()
    [[8.0], [0.0]]
    """
    return get_loss(loss).gradient(w, X, y)


def loss_gradient_batch(loss, W, X, y):
    """The per-example gradients of the loss named ``loss`` at each row of ``W``: shape ``(rows of W, n, d)``.

    Examples
    --------
    >>> loss_gradient_batch("squared", [[1.0], [0.0]], [[2.0]], [0.0]).tolist()
    [[[8.0]], [[0.0]]]
    """
    return get_loss(loss).gradient_batch(W, X, y)
