"""Mutant truncation functions psi for the rate checks of Wang & Xu (000), outside the compiled kernel.

The reference evaluates psi inside its compiled score kernel (:mod:`reference.wang_xu._psi_kernel`), which has
no hook for another psi.  The seam used here is one layer up: the exponential mechanism's log-weight of a net
point ``w`` is ``-(k eps / log theta) sum_i psi(iota |y_i - <x_i, w>|)`` ([000 Alg. 1 step 2], [000 Alg. 2 step
2]), so a trial can rebuild it from the reference's public, numpy-evaluated psi
(:func:`reference.wang_xu.truncation.psi`, the baseline code path) and its public exponent factor
(:func:`reference.wang_xu.l1_regression.exponent_factor`), with a mutant psi in place of the printed one.
:func:`mutant_log_weights` does that cheaply: it starts from the reference's own log-weights
(:func:`reference.wang_xu.l1_regression.log_weights`, whichever code path is active) and adds the mutant's
difference, which for both mutants has no logarithm (``-psi``: the negated log-weights, exact;
``"saturates-at-2"``: the printed psi plus ``clip(t - 1, 0, 2 - log theta)``).  The tests compare it with the
direct sum of :func:`mutant_psi` over the records (numpy, the baseline path).  So the mutants differ from the
stated algorithm in psi only, and ``reference/`` is not edited.

Shapes (``t = iota |r| >= 0``):

``"printed"``        psi of [000 eq. (6)] / [000 eq. (16)]: saturates at ``log theta`` for ``t >= 1``;
``"saturates-at-2"`` the printed psi on ``[0, 1]``, then ``log theta + (t - 1)`` up to the level 2 (reached at
                     ``t = 3 - log theta``): continuous, non-decreasing, but bounded by 2 instead of ``log theta``,
                     so it truncates less (and breaks the sensitivity ``log theta`` of the privacy proof);
``"sign-flipped"``   ``-psi``: the mechanism favours the net points with the largest truncated risk.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.special import logsumexp

from reference.wang_xu.l1_regression import exponent_factor, log_weights
from reference.wang_xu.truncation import psi

__all__ = ["PSI_SHAPES", "SATURATION_LEVEL", "mutant_psi", "mutant_log_weights", "mutant_log_prob"]

PSI_SHAPES = ("printed", "saturates-at-2", "sign-flipped")
#: The level at which the ``"saturates-at-2"`` mutant saturates (the printed psi saturates at ``log theta``).
SATURATION_LEVEL = 2.0


def _check_shape(shape):
    if shape not in PSI_SHAPES:
        raise ValueError(f"shape must be one of {PSI_SHAPES}, got {shape!r}")
    return shape


def mutant_psi(t, theta=2.0, shape="printed"):
    """psi of the given ``shape`` at arguments ``t >= 0`` (the arguments of the scores are ``iota |r|``).

    Parameters
    ----------
    t : array_like of float
        Non-negative arguments.
    theta : float, default 2.0
        Moment order in (1, 2] (``2``: [000 eq. (6)]; else [000 eq. (16)]).
    shape : {"printed", "saturates-at-2", "sign-flipped"}
        See the module docstring.

    Returns
    -------
    numpy.ndarray
        The values, same shape as ``t``.

    Raises
    ------
    ValueError
        If ``shape`` is unknown or some ``t`` is negative or NaN.

    References
    ----------
    [000 eq. (6)], [000 eq. (16)].

    Examples
    --------
    >>> mutant_psi([0.5, 1.0, 2.0, 9.0], shape="saturates-at-2").round(4)
    array([0.47  , 0.6931, 1.6931, 2.    ])
    >>> mutant_psi([2.0], shape="sign-flipped").round(4)
    array([-0.6931])
    """
    _check_shape(shape)
    t = np.asarray(t, dtype=float)
    if np.isnan(t).any() or (t < 0).any():
        raise ValueError("t must hold non-negative numbers, got a negative value or NaN")
    base = psi(t, theta)
    if shape == "sign-flipped":
        return -base
    if shape == "saturates-at-2":
        return base + np.clip(t - 1.0, 0.0, SATURATION_LEVEL - math.log(theta))
    return base


def mutant_log_weights(W, X, y, epsilon, iota, theta=2.0, variant="printed", shape="printed"):
    """Unnormalised log-weights ``-(k eps / log theta) sum_i psi_shape(iota |y_i - <x_i, w>|)`` of net points ``W``.

    Parameters
    ----------
    W : array_like, shape (K, d)
        Net points.
    X : array_like, shape (n, d)
        Features.
    y : array_like, shape (n,)
        Responses.
    epsilon, iota : float
        Privacy parameter and truncation scale (positive).
    theta : float, default 2.0
        Moment order in (1, 2].
    variant : {"printed", "standard", "calibrated"}
        The exponent factor ``k`` (:func:`reference.wang_xu.l1_regression.exponent_factor`).
    shape : str
        psi's shape, :data:`PSI_SHAPES`.

    Returns
    -------
    numpy.ndarray, shape (K,)

    Raises
    ------
    ValueError
        If ``shape`` or ``variant`` is unknown, ``epsilon`` not positive, or ``iota`` not finite and positive.

    References
    ----------
    [000 Alg. 1 step 2], [000 Alg. 2 step 2], [000 eq. (2)].

    Examples
    --------
    >>> lw = mutant_log_weights([[0.0], [1.0]], [[1.0], [1.0]], [0.0, 3.0], 1.0, 1.0)
    >>> lw.round(4)
    array([-1., -2.])
    """
    _check_shape(shape)
    printed = log_weights(W, X, y, epsilon, iota, theta, variant)  # the reference's own scores (its code path)
    if shape == "printed":
        return printed
    if shape == "sign-flipped":
        return -printed  # exact: -(-k eps S / log theta)
    # saturates-at-2: psi + clip(t - 1, 0, 2 - log theta) per record; the extra sum has no logarithm
    k_eps = exponent_factor(epsilon, theta, variant)
    W = np.atleast_2d(np.asarray(W, dtype=float))
    X = np.atleast_2d(np.asarray(X, dtype=float))
    y = np.asarray(y, dtype=float).ravel()
    t = iota * np.abs(y[:, None] - X @ W.T)
    extra = np.clip(t - 1.0, 0.0, SATURATION_LEVEL - math.log(theta)).sum(axis=0)
    return printed - (k_eps / math.log(theta)) * extra


def mutant_log_prob(W, X, y, epsilon, iota, theta=2.0, variant="printed", shape="printed"):
    """Normalised log-probabilities of the mechanism with psi of ``shape`` (:func:`mutant_log_weights`).

    Returns
    -------
    numpy.ndarray, shape (K,)
        ``log P[output = W[k]]``.

    References
    ----------
    [000 Alg. 1 step 2], [000 Alg. 2 step 2].

    Examples
    --------
    >>> lp = mutant_log_prob([[0.0], [1.0]], [[1.0], [1.0]], [0.0, 3.0], 1.0, 1.0, shape="sign-flipped")
    >>> bool(lp[1] > lp[0])
    True
    """
    lw = mutant_log_weights(W, X, y, epsilon, iota, theta, variant, shape)
    return lw - logsumexp(lw)
