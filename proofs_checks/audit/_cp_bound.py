"""The vectorised Clopper-Pearson epsilon lower bound of one event, shared by the audit's modules.

Its public name is :func:`clopper_pearson_epsilon_vector`, importable from
:mod:`proofs_checks.audit.confidence_bounds`; ``_cp_eps_vector`` is the same function under the name the
auditor's modules import.  Kept apart from :mod:`proofs_checks.audit.statistical` (which re-exports it) so
that the attacks of :mod:`proofs_checks.audit.classifiers`, which the statistical audit imports, can predict an
event's bound without importing the statistical audit back (no import cycle).

References
----------
.. [1] C. J. Clopper and E. S. Pearson, "The use of confidence or fiducial limits illustrated in the case
   of the binomial", Biometrika 26(4), 1934.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import special

__all__ = ["clopper_pearson_epsilon_vector", "_cp_eps_vector"]


def clopper_pearson_epsilon_vector(
    k: ArrayLike, n: float, k2: ArrayLike, n2: float, delta: float, gamma: float
) -> NDArray[np.float64]:
    """Vectorised CP epsilon bound (real-valued counts allowed), each bound at error ``gamma``.

    ``log((p_low - delta) / q_high)`` with ``p_low`` the lower Clopper-Pearson bound of ``k / n`` and
    ``q_high`` the upper one of ``k2 / n2``; ``-inf`` where ``p_low <= delta``.  The statistical audit scores
    its candidate events with it; the calibration's oracle and the benchmarks use it as the bound an event of
    known probabilities would give.

    Parameters
    ----------
    k : array_like
        Count of the event among the ``n`` outputs of the numerator dataset (real values allowed: an expected
        count ``n P(S)``).
    n : float
        Outputs of the numerator dataset.
    k2 : array_like
        Count of the event among the ``n2`` outputs of the other dataset (broadcast against ``k``).
    n2 : float
        Outputs of the other dataset.
    delta : float
        The delta of the claim.
    gamma : float
        Error of each one-sided bound (the audit uses ``(1 - confidence) / 2``).

    Returns
    -------
    numpy.ndarray
        The epsilon lower bound of each event; ``-inf`` where ``p_low <= delta``.

    References
    ----------
    .. [1] C. J. Clopper and E. S. Pearson, "The use of confidence or fiducial limits illustrated in the case
       of the binomial", Biometrika 26(4), 1934.

    Examples
    --------
    >>> float(clopper_pearson_epsilon_vector(0, 100, 0, 100, 0.0, 0.05))
    -inf
    >>> bounds = clopper_pearson_epsilon_vector([500, 900], 1000, [100, 100], 1000, 0.0, 0.025)
    >>> bool(0 < bounds[0] < bounds[1] < 2.3)
    True
    """
    k = np.asarray(k, dtype=np.float64)
    k2 = np.asarray(k2, dtype=np.float64)
    with np.errstate(all="ignore"):
        p_low = np.where(k > 0, special.betaincinv(np.maximum(k, 1e-300), n - k + 1, gamma), 0.0)
        q_high = np.where(k2 < n2, special.betainccinv(k2 + 1, np.maximum(n2 - k2, 1e-300), gamma), 1.0)
        val = np.log(p_low - delta) - np.log(q_high)
    return np.where(p_low > delta, val, -np.inf)


#: The same function under the name the auditor's modules import.
_cp_eps_vector = clopper_pearson_epsilon_vector
