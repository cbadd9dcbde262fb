"""The vectorised Clopper-Pearson epsilon lower bound of one event, shared by the audit's modules.

Kept apart from :mod:`proofs_checks.audit.statistical` (which re-exports it) so that the attacks of
:mod:`proofs_checks.audit.classifiers`, which the statistical audit imports, can predict an event's bound
without importing the statistical audit back (no import cycle).

References
----------
.. [1] C. J. Clopper and E. S. Pearson, "The use of confidence or fiducial limits illustrated in the case
   of the binomial", Biometrika 26(4), 1934.
"""

from __future__ import annotations

import numpy as np
from scipy import special

__all__ = ["_cp_eps_vector"]


def _cp_eps_vector(k, n, k2, n2, delta, gamma):
    """Vectorised CP epsilon bound (real-valued counts allowed), each bound at error ``gamma``.

    ``log((p_low - delta) / q_high)`` with ``p_low`` the lower Clopper-Pearson bound of ``k / n`` and
    ``q_high`` the upper one of ``k2 / n2``; ``-inf`` where ``p_low <= delta``.

    >>> float(_cp_eps_vector(0, 100, 0, 100, 0.0, 0.05))
    -inf
    """
    k = np.asarray(k, dtype=np.float64)
    k2 = np.asarray(k2, dtype=np.float64)
    with np.errstate(all="ignore"):
        p_low = np.where(k > 0, special.betaincinv(np.maximum(k, 1e-300), n - k + 1, gamma), 0.0)
        q_high = np.where(k2 < n2, special.betainccinv(k2 + 1, np.maximum(n2 - k2, 1e-300), gamma), 1.0)
        val = np.log(p_low - delta) - np.log(q_high)
    return np.where(p_low > delta, val, -np.inf)
