"""Google's differential-privacy library (python-dp, ``pydp``): ``BoundedSum`` on [0, 1] as a black box.

Each release is a fresh ``pydp.algorithms.laplacian.BoundedSum(epsilon, lower_bound=0, upper_bound=1)`` on the
records' first column (an algorithm object releases once); about 27 microseconds per release here.  Its claim is
epsilon-DP; with bounds [0, 1] the sum moves by at most 1 whether a record is added, removed or replaced, so the
replace-one claim is the library's.  The library draws from its own secure source, never from ``rng``: audits need
``allow_unseeded=True`` and are not reproducible.
"""

from __future__ import annotations

import importlib

import numpy as np

from . import counting_pair

__all__ = ["PyDPBoundedSum"]


class PyDPBoundedSum:
    """python-dp's ``BoundedSum`` of the first column on [0, 1] at ``epsilon``.

    Parameters
    ----------
    epsilon : float
        The library's epsilon (> 0).

    Raises
    ------
    ValueError
        ``epsilon`` not > 0.
    ImportError
        python-dp is not installed.
    """

    seeded = False

    def __init__(self, epsilon: float):
        # imported by name: python-dp is optional and ships no annotations (mypy need not find it)
        BoundedSum = importlib.import_module("pydp.algorithms.laplacian").BoundedSum

        if not (isinstance(epsilon, (int, float)) and epsilon > 0):
            raise ValueError(f"epsilon must be a number > 0, got {epsilon!r}")
        self._cls, self.epsilon = BoundedSum, float(epsilon)
        self.claim = {"epsilon": self.epsilon, "delta": 0.0}

    def sample(self, data, size, rng):
        values = np.asarray(data, dtype=np.float64)[:, 0].tolist()
        out = np.empty(int(size))
        for i in range(int(size)):
            out[i] = self._cls(epsilon=self.epsilon, lower_bound=0.0, upper_bound=1.0, dtype="float").quick_result(
                values
            )
        return out

    @staticmethod
    def pair():
        return counting_pair()

    def __repr__(self):
        return f"PyDPBoundedSum(epsilon={self.epsilon})"
