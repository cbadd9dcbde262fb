"""IBM's diffprivlib mechanisms as seeded black boxes: ``Laplace`` (epsilon-DP) and ``GaussianAnalytic``.

``sample(data, size, rng)`` builds the library's mechanism once per call of ``sample`` with a
:class:`numpy.random.RandomState` seeded from ``rng`` and calls its ``randomise`` ``size`` times on the counting
query (the library releases one value per call; about 15 microseconds each here).  The claims are the library's:
``Laplace(epsilon, sensitivity=1)`` is epsilon-DP; ``GaussianAnalytic(epsilon, delta, sensitivity=1)`` is (epsilon,
delta)-DP by Balle and Wang's calibration, whose privacy profile is the Gaussian's, so the same noise is exactly
``mu``-GDP for the ``mu`` with ``gdp_delta(epsilon, mu) = delta`` [1]_ (``claim["mu"]``, solved here).

References
----------
.. [1] B. Balle and Y.-X. Wang, "Improving the Gaussian mechanism for differential privacy: analytical calibration and
       optimal denoising", ICML 2018 (Theorem 8).
"""

from __future__ import annotations

import numpy as np
from scipy import optimize

from . import counting_pair, counting_query

__all__ = ["DiffprivlibCount", "gdp_mu_of"]


def gdp_mu_of(epsilon: float, delta: float) -> float:
    """The ``mu`` whose GDP profile passes through ``(epsilon, delta)`` (brentq, relative tolerance 1e-13).

    Examples
    --------
    >>> from proofs_checks.audit.gdp import gdp_delta
    >>> round(float(gdp_delta([1.0], gdp_mu_of(1.0, 1e-5))[0]) / 1e-5, 9)
    1.0
    """
    from ..gdp import gdp_delta

    if not (epsilon >= 0 and 0 < delta < 1):
        raise ValueError(f"need epsilon >= 0 and delta in (0, 1), got {epsilon!r}, {delta!r}")
    return float(optimize.brentq(lambda m: gdp_delta([epsilon], m)[0] - delta, 1e-6, 60.0, rtol=1e-13))


class DiffprivlibCount:
    """The counting query released by a diffprivlib mechanism (``kind``: ``"laplace"`` or ``"gaussian-analytic"``).

    Parameters
    ----------
    kind : {"laplace", "gaussian-analytic"}
        The mechanism: ``diffprivlib.mechanisms.Laplace`` or ``GaussianAnalytic``.
    epsilon : float
        The library's epsilon.
    delta : float
        The library's delta (``gaussian-analytic`` only; 0 for ``laplace``).

    Raises
    ------
    ValueError
        An unknown ``kind`` or a delta that does not fit it.
    ImportError
        diffprivlib is not installed.
    """

    seeded = True
    kinds = ("laplace", "gaussian-analytic")

    def __init__(self, kind: str, epsilon: float, delta: float = 0.0):
        from diffprivlib import mechanisms

        if kind not in self.kinds:
            raise ValueError(f"kind must be one of {self.kinds}, got {kind!r}")
        if (kind == "laplace") != (delta == 0):
            raise ValueError(f"delta must be 0 for laplace and in (0, 1) for gaussian-analytic, got {delta!r}")
        self.kind, self.epsilon, self.delta = kind, float(epsilon), float(delta)
        self._cls = mechanisms.Laplace if kind == "laplace" else mechanisms.GaussianAnalytic
        self.claim = {"epsilon": self.epsilon, "delta": self.delta}
        if kind == "gaussian-analytic":
            self.claim["mu"] = gdp_mu_of(self.epsilon, self.delta)

    def _mechanism(self, random_state):
        kwargs = {"epsilon": self.epsilon, "sensitivity": 1.0, "random_state": random_state}
        if self.kind == "gaussian-analytic":
            kwargs["delta"] = self.delta
        return self._cls(**kwargs)

    def sample(self, data, size, rng):
        state = np.random.RandomState(np.random.default_rng(rng).integers(2**32, dtype=np.uint64))
        mech, value = self._mechanism(state), counting_query(data)
        return np.array([mech.randomise(value) for _ in range(int(size))], dtype=np.float64)

    @staticmethod
    def pair():
        return counting_pair()

    def __repr__(self):
        return f"DiffprivlibCount({self.kind!r}, epsilon={self.epsilon}, delta={self.delta})"
