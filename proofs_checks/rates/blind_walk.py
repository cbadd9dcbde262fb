"""The error level of a Frank-Wolfe run that learns nothing from its data (the "blind walk").

Frank-Wolfe over the unit l1 ball moves to ``w^t = (1 - eta_t) w^{t-1} + eta_t v_t``.  When the
vertex choices ``v_t`` carry no information (privacy noise so large that the exponential
mechanism picks uniformly among the ``2d`` vertices ``+-e_j``), the output is a random walk whose
distance to ``w*`` does not shrink with ``n``, except through the number of steps ``T``.  A measured
error at this level says the algorithm has not used the data; rate and experiment reports put it
beside their numbers.
"""

from __future__ import annotations

import numpy as np

from reference.validation import check_finite_array, check_integer, check_positive

__all__ = ["blind_walk_distance2"]


def blind_walk_distance2(etas, d, w_star_l1=1.0):
    """``E||w^T - w*||_2^2`` for Frank-Wolfe with uniformly random vertices of the unit l1 ball.

    ``w^T = c_0 w^0 + sum_t a_t v_t`` with ``c_0 = prod_t (1 - eta_t)``, ``a_t = eta_t prod_{s > t} (1 - eta_s)``;
    the ``v_t`` are independent with random signs, so every cross term has mean 0 and
    ``E||w^T - w*||^2 = c_0^2 E||w^0||^2 + sum_t a_t^2 + E||w*||^2``, with ``E||w^0||^2 = 2d/((d+1)(d+2))``
    (``w^0`` uniform in the unit l1 ball, :func:`reference.hu.data.initial_polytope`) and
    ``E||w*||^2 = 2 r^2/(d+1)`` (``w*`` uniform on the l1 sphere of radius ``r = w_star_l1``,
    :func:`reference.hu.data.w_star_polytope`).

    Every coordinate of ``w^T - w*`` has a symmetric law independent of the others' signs, so
    ``E[(sum_j (w^T - w*)_j)^2]`` equals the same expression: for features with
    ``E[x x^T] = a I + b 11^T`` the expected excess risk is ``(a + b)`` times this value.

    Parameters
    ----------
    etas : array_like, shape (T,)
        Step sizes in (0, 1].
    d : int
        Dimension.
    w_star_l1 : float
        l1 norm of ``w*``.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        For step sizes outside (0, 1], ``d < 1``, ``w_star_l1 <= 0``, or a ``w_star_l1`` so large that the
        value overflows float64.
    """
    etas = check_finite_array("etas", etas, ndim=1)
    if etas.size == 0 or np.any(etas <= 0) or np.any(etas > 1):
        raise ValueError(f"etas must be a non-empty array of step sizes in (0, 1], got {etas!r}")
    d = check_integer("d", d, minimum=1)
    r = check_positive("w_star_l1", w_star_l1)
    keep = np.concatenate([np.cumprod((1.0 - etas)[::-1])[::-1][1:], [1.0]])  # prod_{s > t} (1 - eta_s)
    with np.errstate(over="ignore"):
        value = (
            float(np.prod(1.0 - etas)) ** 2 * 2.0 * d / ((d + 1.0) * (d + 2.0))
            + float(np.sum((etas * keep) ** 2))
            + 2.0 * r * (r / (d + 1.0))
        )
    if not np.isfinite(value):
        raise ValueError(f"w_star_l1={w_star_l1!r} is too large: E||w^T - w*||^2 overflows float64")
    return float(value)
