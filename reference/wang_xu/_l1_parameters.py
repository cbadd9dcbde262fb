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

from .truncation import check_theta
from ..validation import check_epsilon, check_integer, check_positive, check_probability

__all__ = ["theorem1_parameters", "theorem2_parameters"]


def theorem1_parameters(n, d, epsilon, eta, tau, assumption=1):
    """zeta and iota of [000 Thm. 1], O-constants set to 1.

    [000 Assumption 1] (``E||x||_2^2 <= tau^2``), [000 eq. (7)]: ``zeta = 1/n``,
    ``iota = sqrt(d log n log(1/eta) / (n eps tau^2))``.
    [000 Assumption 2] (``E x_j^2 <= tau^2``), [000 eq. (8)]: ``zeta = 1/n``,
    ``iota = sqrt(log n log(1/eta) / (tau^2 n eps))``.

    Returns
    -------
    dict with ``zeta``, ``iota`` and ``rate`` (the right-hand side of [000 eq. (7)] / [000 eq. (8)] without O).
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
        iota = math.sqrt(d * L / (n * eps * tau ** 2))
        rate = tau * math.sqrt(d * L / (n * eps))
    else:
        iota = math.sqrt(L / (tau ** 2 * n * eps))
        rate = tau * math.sqrt(d ** 2 * L / (n * eps))
    return {"zeta": 1.0 / n, "iota": iota, "rate": rate}


def theorem2_parameters(n, d, epsilon, eta, tau, theta, assumption=3):
    """zeta and iota of [000 Thm. 2], as printed, O-constants set to 1.

    [000 Assumption 3], [000 eq. (18)]: ``zeta = 1/n``, ``iota = (1/tau) (d log(1/eta) / (n eps))^(1/theta)``
    (the theorem writes the failure probability as zeta; here it is ``eta``).
    [000 Assumption 4], [000 eq. (19)]: ``zeta = 1/n``,
    ``iota = (1/tau) (log n log(1/eta) / (n eps))^((theta-1)/theta)`` -- exponent as printed; the
    balance of ``iota^(theta-1)`` against ``1/(n iota eps)`` in [000 eq. (27)] would give ``1/theta``.

    Returns
    -------
    dict with ``zeta``, ``iota`` and ``rate`` (right-hand side of [000 eq. (18)] / [000 eq. (19)] without O).
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
