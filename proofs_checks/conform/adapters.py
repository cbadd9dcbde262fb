"""The reference behind the port functions whose kit signature differs from the reference's own.

A port exposes flat functions of arrays, numbers and strings; the reference builds nets and losses as
objects and takes ``vertices`` and ``rng`` in other places.  These adapters are what :mod:`.functions` declares as
the reference of ``net_points``, the loss functions and the whole algorithms.
"""

from __future__ import annotations

import numpy as np

from reference.arora import learners as AL
from reference.arora import model_selection as AM
from reference.hu import frank_wolfe as FW
from reference.hu import sparse as SP
from reference.losses import get_loss
from reference.wang_xu import l1_regression as WX
from reference.wang_xu import nets

__all__ = [
    "net_points",
    "loss_value",
    "loss_gradient",
    "loss_gradient_batch",
    "dp_fw",
    "private_lasso",
    "wang_xu_algorithm1",
    "wang_xu_algorithm2",
    "sparse_linear_regression",
    "sparse_optimization",
    "private_grid_search",
    "boosting",
    "noisy_gd",
    "output_perturbation",
    "private_grid_search_noisy_gd",
]

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


def dp_fw(data, loss, w0, s, T, beta, epsilon, size=None, rng=None, *, variant="standard"):
    """``size`` runs of [002 Alg. 1] (Heavy-tailed DP-FW) over the unit l1 ball: one output ``w^T`` per row.

    Examples
    --------
    >>> import numpy as np
    >>> data = np.array([[1.0, -0.5, 0.2], [0.3, 2.0, -0.6], [-1.2, 0.4, 1.1], [2.5, -1.0, 0.4]])
    >>> dp_fw(data, "squared", [0.0, 0.0], 1.0, 2, 1.0, 2.0, 3, np.random.default_rng(0)).shape
    (3, 2)
    """
    return FW.heavy_tailed_dp_fw(data, loss, w0, s, T, beta, epsilon, rng=rng, variant=variant, size=size)


def private_lasso(data, w0, K, T, epsilon, delta, size=None, rng=None, *, variant="printed"):
    """``size`` runs of [002 Alg. 2] (Heavy-tailed private LASSO) over the unit l1 ball: one ``w^T`` per row.

    Examples
    --------
    >>> import numpy as np
    >>> data = np.array([[1.0, -0.5, 0.2], [0.3, 2.0, -0.6], [-1.2, 0.4, 1.1], [2.5, -1.0, 0.4]])
    >>> private_lasso(data, [0.0, 0.0], 1.0, 2, 20.0, 1e-3, 3, np.random.default_rng(0)).shape
    (3, 2)
    """
    return FW.heavy_tailed_private_lasso(data, w0, K, T, epsilon, delta, rng=rng, variant=variant, size=size)


def wang_xu_algorithm1(X, y, net, epsilon, iota, size=None, rng=None, *, variant="printed"):
    """``size`` runs of [000 Alg. 1] over the net given as rows: one output net point per row.

    Examples
    --------
    >>> import numpy as np
    >>> wang_xu_algorithm1([[1.0], [2.0]], [0.5, 1.0], [[0.0], [0.5]], 1.0, 1.0, 4, np.random.default_rng(0)).shape
    (4, 1)
    """
    return WX.algorithm1(X, y, np.asarray(net, dtype=np.float64), epsilon, iota, variant, size, rng)


def wang_xu_algorithm2(X, y, net, epsilon, iota, theta, size=None, rng=None, *, variant="printed"):
    """``size`` runs of [000 Alg. 2] (moment ``theta``) over the net given as rows: one net point per row.

    Examples
    --------
    >>> import numpy as np
    >>> wang_xu_algorithm2([[1.0]], [0.5], [[0.0], [0.5]], 1.0, 1.0, 1.5, 2, np.random.default_rng(0)).shape
    (2, 1)
    """
    return WX.algorithm2(X, y, np.asarray(net, dtype=np.float64), epsilon, iota, theta, variant, size, rng)


def sparse_linear_regression(data, w1, K, T, eta0, s, epsilon, delta, size=None, rng=None):
    """``size`` runs of [002 Alg. 3] (heavy-tailed private sparse linear regression): one output per row.

    Examples
    --------
    >>> import numpy as np
    >>> data = np.column_stack([np.eye(4), np.ones(4)])
    >>> w1 = [0.2, 0.0, 0.0, 0.0]
    >>> sparse_linear_regression(data, w1, 1.0, 2, 0.5, 1, 2.0, 1e-3, 3, np.random.default_rng(0)).shape
    (3, 4)
    """
    return SP.heavy_tailed_sparse_linear_regression(data, w1, K, T, eta0, s, epsilon, delta, rng=rng, size=size)


def sparse_optimization(
    data,
    loss,
    w1,
    s,
    beta,
    k,
    T,
    eta,
    epsilon,
    delta,
    size=None,
    rng=None,
    *,
    variant="standard",
    gradient_at="current",
):
    """``size`` runs of [002 Alg. 5] (heavy-tailed private sparse optimisation): one output per row.

    ``gradient_at`` is the reading of steps 4-6 (``"current"``: the gradient at ``w^t``, the analysis' reading;
    ``"previous"``: at ``w^{t-1}``, as the box prints it).

    Examples
    --------
    >>> import numpy as np
    >>> data = np.column_stack([np.eye(4), np.ones(4)])
    >>> sparse_optimization(data, "squared", [0.2, 0.0, 0.0, 0.0], 1, 1.0, 1.0, 2, 0.5, 2.0, 1e-3, 2, 0).shape
    (2, 4)
    """
    return SP.heavy_tailed_sparse_optimization(
        data,
        loss,
        w1,
        s,
        beta,
        k,
        T,
        eta,
        epsilon,
        delta,
        rng=rng,
        variant=variant,
        size=size,
        gradient_at=gradient_at,
    )


def private_grid_search(
    data, loss, x_bound, y_bound, K, epsilon, delta, beta, size=None, rng=None, *, variant="standard"
):
    """``size`` runs of [004 Alg. 1] (private grid search) with output perturbation as the base learner.

    Examples
    --------
    >>> import numpy as np
    >>> data = np.column_stack([np.tile([[0.5, -0.5], [0.1, 0.3]], (10, 1)), np.tile([0.5, -0.1], 10)])
    >>> private_grid_search(data, "squared", 1.0, 2.0, 2, 2.0, 1e-5, 0.1, 3, np.random.default_rng(0)).shape
    (3, 2)
    """
    learner = AL.OutputPerturbation(loss, x_bound, y_bound)
    return AM.private_grid_search(data, learner, K, epsilon, delta, beta, variant=variant, size=size, rng=rng)


def boosting(
    data, loss, x_bound, y_bound, B, m, epsilon, delta, sigma_tilde, size=None, rng=None, *, variant="printed"
):
    """``size`` runs of 004's Boosting [004 App. E] with output perturbation as the base learner.

    ``sigma_tilde`` (the sub-Gaussian constant of the box) is an input: the port does not estimate it.
    ``variant`` reads the box's ``Lap(sigma_tilde)``: ``"printed"`` Laplace scale ``sigma_tilde``, ``"standard"``
    scale ``sigma_tilde / sqrt 2`` (variance ``sigma_tilde^2``).

    Examples
    --------
    >>> import numpy as np
    >>> data = np.column_stack([np.tile([[0.5, -0.5], [0.1, 0.3]], (10, 1)), np.tile([0.5, -0.1], 10)])
    >>> boosting(data, "squared", 1.0, 2.0, 1.0, 2, 2.0, 1e-5, 0.1, 3, np.random.default_rng(0)).shape
    (3, 2)
    """
    learner = AL.OutputPerturbation(loss, x_bound, y_bound)
    return AM.boosting(
        data, learner, B, m, epsilon, delta, sigma_tilde=sigma_tilde, variant=variant, size=size, rng=rng
    )


def noisy_gd(data, loss, x_bound, y_bound, B, epsilon, delta, steps, size=None, rng=None):
    """``size`` runs of the noisy projected gradient descent base learner of [004 Alg. 1] (the average iterate).

    Examples
    --------
    >>> import numpy as np
    >>> data = np.column_stack([np.tile([[0.5, -0.5], [0.1, 0.3]], (10, 1)), np.tile([0.5, -0.1], 10)])
    >>> noisy_gd(data, "squared", 1.0, 2.0, 1.0, 2.0, 1e-5, 5, 3, np.random.default_rng(0)).shape
    (3, 2)
    """
    return AL.noisy_gd(data, loss, B, epsilon, delta, x_bound=x_bound, y_bound=y_bound, steps=steps, size=size, rng=rng)


def output_perturbation(data, loss, x_bound, y_bound, B, lam, epsilon, delta, size=None, rng=None):
    """``size`` runs of the output-perturbation base learner of [004 Alg. 1] ([004 Lemma D.4], second lemma).

    The minimiser of the ``lam``-regularised empirical loss over ``||w|| <= B`` plus Gaussian noise of the
    classic calibration for its l2-sensitivity ``2 G / (n lam)``.  ``lam`` is an input: the reference's default
    (a rate-balancing choice of this project, not the paper's) is not part of the port function.

    Examples
    --------
    >>> import numpy as np
    >>> data = np.column_stack([np.tile([[0.5, -0.5], [0.1, 0.3]], (10, 1)), np.tile([0.5, -0.1], 10)])
    >>> output_perturbation(data, "squared", 1.0, 2.0, 1.0, 0.5, 2.0, 1e-5, 3, np.random.default_rng(0)).shape
    (3, 2)
    """
    return AL.output_perturbation(
        data, loss, B, epsilon, delta, x_bound=x_bound, y_bound=y_bound, lam=lam, size=size, rng=rng
    )


def private_grid_search_noisy_gd(
    data, loss, x_bound, y_bound, K, epsilon, delta, beta, steps, size=None, rng=None, *, variant="standard"
):
    """``size`` runs of [004 Alg. 1] (private grid search) with noisy projected gradient descent as the base learner.

    Each guess ``B_j`` runs ``steps`` noisy gradient steps at ``(epsilon/(2K), delta/(2K))``; the output is the
    candidate (or 0) GEM selects.

    Examples
    --------
    >>> import numpy as np
    >>> data = np.column_stack([np.tile([[0.5, -0.5], [0.1, 0.3]], (10, 1)), np.tile([0.5, -0.1], 10)])
    >>> private_grid_search_noisy_gd(data, "squared", 1.0, 2.0, 2, 2.0, 1e-5, 0.1, 5, 3, np.random.default_rng(0)).shape
    (3, 2)
    """
    learner = AL.NoisyGD(loss, x_bound, y_bound, steps=steps)
    return AM.private_grid_search(data, learner, K, epsilon, delta, beta, variant=variant, size=size, rng=rng)
