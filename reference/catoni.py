"""Smoothed Catoni estimator of 002 (Hu, Ni, Xiao & Wang), eqs. (2)-(5).

STUB laid down by the foundation so that the algorithms of 002 can be built in
parallel: the signatures are final, the bodies are placeholders to be replaced
by the Catoni-estimator work (issue 4).  ``expected_phi`` here is a plain
Gauss-Hermite rule, not accurate near the kinks of phi for small b;
``c_hat`` is not yet implemented.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["PHI_BOUND", "phi", "c_hat", "expected_phi", "robust_mean", "robust_gradient"]

#: sup |phi| = 2*sqrt(2)/3 (002, text below eq. (2)).
PHI_BOUND = 2.0 * math.sqrt(2.0) / 3.0


def phi(x):
    """Truncation function of 002 eq. (2): ``x - x^3/6`` on ``[-sqrt 2, sqrt 2]``, ``+-2 sqrt(2)/3`` outside."""
    x = np.asarray(x, dtype=np.float64)
    r2 = math.sqrt(2.0)
    inner = np.clip(x, -r2, r2)
    return np.where(np.abs(x) <= r2, inner - inner**3 / 6.0, np.sign(x) * PHI_BOUND)


def c_hat(a, b):
    """Correction term C-hat(a, b) of identity (5), as printed in the appendix (not yet implemented)."""
    raise NotImplementedError("c_hat is provided by the Catoni-estimator work (issue 4)")


def expected_phi(a, b):
    """``E[phi(a + b Z)]``, ``Z ~ N(0, 1)`` (placeholder Gauss-Hermite rule)."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    nodes, weights = np.polynomial.hermite_e.hermegauss(80)
    vals = phi(a[..., None] + b[..., None] * nodes)
    return vals @ (weights / weights.sum())


def robust_mean(x, s, beta, *, variant="standard", axis=0):
    """``x-hat(s, beta)`` of eq. (4) with ``chi = N(0, 1/beta)``, along ``axis``."""
    x = np.asarray(x, dtype=np.float64)
    return s * np.mean(expected_phi(x / s, np.abs(x) / (s * math.sqrt(beta))), axis=axis)


def robust_gradient(per_example_grads, s, beta, *, variant="standard"):
    """Coordinate-wise robust gradient of 002 Algorithm 1 step 4, from an (m, d) array."""
    if variant != "standard":
        raise NotImplementedError("the printed variant needs c_hat (issue 4)")
    return robust_mean(per_example_grads, s, beta, axis=0)
