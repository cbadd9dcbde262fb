"""The parameters ``zeta`` and ``iota`` of [000 Thm. 1] and [000 Thm. 2] (O-constants set to 1) and their rates.

References
----------
.. [1] D. Wang and J. Xu, "Differentially private l1-norm linear regression with heavy-tailed
       data", ``000_e64de114947d2122.txt``: [000 Thm. 1], [000 Thm. 2],
       [000 eq. (7)], [000 eq. (8)], [000 eq. (18)], [000 eq. (19)], [000 eq. (27)],
       [000 Assumption 1]-[000 Assumption 4].
"""

from __future__ import annotations

import math

from ..validation import check_epsilon, check_integer, check_positive, check_probability
from .truncation import check_theta

__all__ = ["theorem1_parameters", "theorem2_parameters"]


def theorem1_parameters(
    n: int, d: int, epsilon: float, eta: float, tau: float, assumption: int = 1
) -> dict[str, float]:
    """zeta and iota of [000 Thm. 1], O-constants set to 1.

    [000 Assumption 1] (``E||x||_2^2 <= tau^2``), [000 eq. (7)]: ``zeta = 1/n``,
    ``iota = sqrt(d log n log(1/eta) / (n eps tau^2))``.
    [000 Assumption 2] (``E x_j^2 <= tau^2``), [000 eq. (8)]: ``zeta = 1/n``,
    ``iota = sqrt(log n log(1/eta) / (tau^2 n eps))``.

    Parameters
    ----------
    n : int
        Sample size, ``>= 2``.
    d : int
        Dimension, ``>= 1``.
    epsilon : float
        Privacy parameter, finite and > 0.
    eta : float
        Failure probability, in (0, 1).
    tau : float
        The moment bound ``tau``, finite and > 0.
    assumption : {1, 2}, default 1
        Which assumption of [000 Thm. 1].

    Returns
    -------
    dict
        ``zeta``, ``iota`` and ``rate`` (the right-hand side of [000 eq. (7)] / [000 eq. (8)] without O).

    Raises
    ------
    TypeError
        If ``n`` or ``d`` is not an integer or another parameter not a real number.
    ValueError
        If ``n < 2``, ``d < 1``, ``epsilon`` or ``tau`` is not finite and positive, ``eta`` not in (0, 1), or
        ``assumption`` is not 1 or 2.

    References
    ----------
    .. [1] [000 Thm. 1], [000 eq. (7)], [000 eq. (8)].

    Examples
    --------
    >>> p = theorem1_parameters(1000, 2, 1.0, 0.05, 1.0)
    >>> p["zeta"], round(p["iota"], 4)
    (0.001, 0.2034)
    """
    n = check_integer("n", n, minimum=2)
    d = check_integer("d", d, minimum=1)
    eps = check_epsilon(epsilon)
    eta = check_probability("eta", eta)
    tau = check_positive("tau", tau)
    if assumption not in (1, 2):
        raise ValueError(f"assumption must be 1 or 2 for [000 Thm. 1], got {assumption!r}")
    L = math.log(n) * math.log(1 / eta)
    if assumption == 1:
        iota = math.sqrt(d * L / (n * eps * tau**2))
        rate = tau * math.sqrt(d * L / (n * eps))
    else:
        iota = math.sqrt(L / (tau**2 * n * eps))
        rate = tau * math.sqrt(d**2 * L / (n * eps))
    return {"zeta": 1.0 / n, "iota": iota, "rate": rate}


def theorem2_parameters(
    n: int, d: int, epsilon: float, eta: float, tau: float, theta: float, assumption: int = 3
) -> dict[str, float]:
    """zeta and iota of [000 Thm. 2], as printed, O-constants set to 1.

    [000 Assumption 3], [000 eq. (18)]: ``zeta = 1/n``, ``iota = (1/tau) (d log(1/eta) / (n eps))^(1/theta)``
    (the theorem writes the failure probability as zeta; here it is ``eta``).
    [000 Assumption 4], [000 eq. (19)]: ``zeta = 1/n``,
    ``iota = (1/tau) (log n log(1/eta) / (n eps))^((theta-1)/theta)`` -- exponent as printed; the
    balance of ``iota^(theta-1)`` against ``1/(n iota eps)`` in [000 eq. (27)] would give ``1/theta``.

    Parameters
    ----------
    n : int
        Sample size, ``>= 2``.
    d : int
        Dimension, ``>= 1``.
    epsilon : float
        Privacy parameter, finite and > 0.
    eta : float
        Failure probability, in (0, 1).
    tau : float
        The moment bound ``tau``, finite and > 0.
    theta : float
        Moment order, in (1, 2].
    assumption : {3, 4}, default 3
        Which assumption of [000 Thm. 2].

    Returns
    -------
    dict
        ``zeta``, ``iota`` and ``rate`` (right-hand side of [000 eq. (18)] / [000 eq. (19)] without O).

    Raises
    ------
    TypeError
        If ``n`` or ``d`` is not an integer or another parameter not a real number.
    ValueError
        If ``n < 2``, ``d < 1``, ``epsilon`` or ``tau`` is not finite and positive, ``eta`` not in (0, 1),
        ``theta`` not in (1, 2], or ``assumption`` is not 3 or 4.

    References
    ----------
    .. [1] [000 Thm. 2], [000 eq. (18)], [000 eq. (19)], [000 eq. (27)].

    Examples
    --------
    >>> p = theorem2_parameters(1000, 2, 1.0, 0.05, 1.0, theta=1.5)
    >>> p["zeta"], round(p["iota"], 4)
    (0.001, 0.033)
    """
    n = check_integer("n", n, minimum=2)
    d = check_integer("d", d, minimum=1)
    eps = check_epsilon(epsilon)
    eta = check_probability("eta", eta)
    tau = check_positive("tau", tau)
    theta = check_theta(theta)
    if assumption not in (3, 4):
        raise ValueError(f"assumption must be 3 or 4 for [000 Thm. 2], got {assumption!r}")
    p = (theta - 1) / theta
    if assumption == 3:
        iota = (d * math.log(1 / eta) / (n * eps)) ** (1 / theta) / tau
        rate = tau * (d * math.log(n) * math.log(1 / eta) / (n * eps)) ** p
    else:
        iota = (math.log(n) * math.log(1 / eta) / (n * eps)) ** p / tau
        rate = tau * d * (math.log(n) * math.log(1 / eta) / (n * eps)) ** p
    return {"zeta": 1.0 / n, "iota": iota, "rate": rate}
