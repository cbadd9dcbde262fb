"""One-sided lower confidence bounds on the mean of a variable in [0, 1], from independent draws.

The privacy loss check estimates ``delta_pair(eps) = E[(1 - exp(eps - L))_+]``, the mean of a variable in
``[0, 1]``; these bounds are valid for any such variable (no shape assumed).

References
----------
.. [1] A. Maurer and M. Pontil, "Empirical Bernstein bounds and sample variance penalization", COLT 2009,
   Thm. 4 (``bernstein``).
.. [2] W. Hoeffding, "Probability inequalities for sums of bounded random variables", JASA 58 (1963)
   (``hoeffding``).
.. [3] C. J. Clopper and E. S. Pearson, Biometrika 26 (1934), applied to Bernoulli(Z_i) draws, which have mean
   E[Z] exactly (``clopper-pearson``: exact, at the cost of the rounding's extra variance).
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

__all__ = ["BOUNDS", "mean_lower_bound"]

BOUNDS = ("bernstein", "hoeffding", "clopper-pearson")


def mean_lower_bound(values: ArrayLike, alpha: float, method: str = "bernstein", rng=None) -> float:
    """A lower bound on ``E[Z]`` holding with probability at least ``1 - alpha``, for ``Z`` in ``[0, 1]``.

    Parameters
    ----------
    values : array_like, shape (n,) or (n, m)
        ``n >= 2`` independent draws of ``Z`` (columns: ``m`` variables, one bound each).
    alpha : float
        The error of the bound, in (0, 1).
    method : {"bernstein", "hoeffding", "clopper-pearson"}
        Empirical Bernstein (Maurer and Pontil, Thm. 4): ``mean - sqrt(2 V log(2/alpha) / n) - 7 log(2/alpha) /
        (3 (n - 1))`` with ``V`` the sample variance; Hoeffding: ``mean - sqrt(log(1/alpha) / (2 n))``;
        Clopper-Pearson on ``B_i ~ Bernoulli(Z_i)`` drawn from ``rng`` (exact).
    rng : numpy.random.Generator, optional
        The draws of ``clopper-pearson`` (required for it).

    Returns
    -------
    float or numpy.ndarray
        The bound, clipped to ``[0, 1]``; one per column for a 2-D input.

    Raises
    ------
    ValueError
        If ``values`` has fewer than 2 rows or lies outside [0, 1], ``alpha`` outside (0, 1), or an unknown
        ``method``.

    Examples
    --------
    >>> round(float(mean_lower_bound(np.full(1000, 0.5), 0.05)), 4)
    0.4914
    >>> float(mean_lower_bound(np.zeros(100), 0.05, "hoeffding"))
    0.0
    """
    z = np.asarray(values, dtype=np.float64)
    if z.ndim not in (1, 2) or z.shape[0] < 2:
        raise ValueError(f"values must have at least 2 draws (rows), got shape {z.shape}")
    if not np.all((z >= 0.0) & (z <= 1.0)):
        raise ValueError("values must lie in [0, 1]")
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must be in (0, 1), got {alpha!r}")
    if method not in BOUNDS:
        raise ValueError(f"method must be one of {BOUNDS}, got {method!r}")
    n = z.shape[0]
    mean = z.mean(axis=0)
    if method == "bernstein":
        log_term = math.log(2.0 / alpha)
        variance = z.var(axis=0, ddof=1)
        bound = mean - np.sqrt(2.0 * variance * log_term / n) - 7.0 * log_term / (3.0 * (n - 1))
    elif method == "hoeffding":
        bound = mean - math.sqrt(math.log(1.0 / alpha) / (2.0 * n))
    else:
        if rng is None:
            raise ValueError("method 'clopper-pearson' needs rng (the Bernoulli draws)")
        from scipy import special

        k = (rng.random(z.shape) < z).sum(axis=0).astype(np.float64)
        bound = np.where(k > 0, special.betaincinv(np.maximum(k, 1e-300), n - k + 1, alpha), 0.0)
    bound = np.clip(bound, 0.0, 1.0)
    return float(bound) if np.ndim(bound) == 0 else bound
