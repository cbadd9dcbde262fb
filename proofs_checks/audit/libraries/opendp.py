"""OpenDP measurements as black boxes: the vector Laplace (epsilon-DP, max-divergence) and Gaussian (rho-zCDP).

OpenDP releases a vector with independent noise per coordinate from the same scalar sampler, so ``sample(data,
size, rng)`` makes one measurement call on ``size`` copies of the counting query: ``size`` independent releases of
the scalar mechanism at about one call's cost per coordinate (73 microseconds per Laplace draw and 190 per Gaussian
draw here: OpenDP samples exactly).  The claims are the library's privacy maps at input distance 1 (the counting
query's sensitivity): ``epsilon = make_laplace(...).map(1)`` and ``rho = make_gaussian(...).map(1)``.  OpenDP draws
from its own secure source, never from ``rng``: audits need ``allow_unseeded=True`` and are not reproducible.
"""

from __future__ import annotations

import importlib

import numpy as np

from . import counting_pair, counting_query

__all__ = ["OpenDPCount"]


class OpenDPCount:
    """The counting query released by OpenDP's ``make_laplace`` or ``make_gaussian`` at ``scale``.

    Parameters
    ----------
    kind : {"laplace", "gaussian"}
        The measurement.
    scale : float
        Its noise scale (> 0).

    Raises
    ------
    ValueError
        An unknown ``kind`` or a scale not > 0.
    ImportError
        OpenDP is not installed.
    """

    seeded = False
    kinds = ("laplace", "gaussian")

    def __init__(self, kind: str, scale: float):
        dp = importlib.import_module("opendp.prelude")  # by name: optional, absent from CI (mypy need not find it)

        if kind not in self.kinds:
            raise ValueError(f"kind must be one of {self.kinds}, got {kind!r}")
        if not (isinstance(scale, (int, float)) and scale > 0):
            raise ValueError(f"scale must be a number > 0, got {scale!r}")
        dp.enable_features("contrib")
        domain = dp.vector_domain(dp.atom_domain(T=float, nan=False))
        if kind == "laplace":
            self._meas = dp.m.make_laplace(domain, dp.l1_distance(T=float), scale=float(scale))
            self.claim = {"epsilon": float(self._meas.map(1.0)), "delta": 0.0}
        else:
            self._meas = dp.m.make_gaussian(domain, dp.l2_distance(T=float), scale=float(scale))
            self.claim = {"rho": float(self._meas.map(1.0))}
        self.kind, self.scale = kind, float(scale)

    def sample(self, data, size, rng):
        return np.asarray(self._meas([counting_query(data)] * int(size)), dtype=np.float64)

    @staticmethod
    def pair():
        return counting_pair()

    def __repr__(self):
        return f"OpenDPCount({self.kind!r}, scale={self.scale})"
