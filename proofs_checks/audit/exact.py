"""Exact privacy loss of mechanisms whose output distributions are known on a finite set.

References
----------
.. [1] B. Balle, G. Barthe and M. Gaboardi, "Privacy amplification by subsampling: tight analyses
       via couplings and divergences", NeurIPS 2018 (hockey-stick divergence characterisation of DP).
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["max_privacy_loss", "hockey_stick_delta"]


def _check_logs(logp, logq):
    p = np.asarray(logp, dtype=np.float64)
    q = np.asarray(logq, dtype=np.float64)
    if p.shape != q.shape or p.ndim != 1 or p.size == 0:
        raise ValueError(f"log-probability vectors must be 1-d of equal non-zero length, got {p.shape} and {q.shape}")
    if np.any(np.isnan(p)) or np.any(np.isnan(q)) or np.any(p == np.inf) or np.any(q == np.inf):
        raise ValueError("log-probabilities must not be NaN or +inf")
    return p, q


def max_privacy_loss(logp, logq):
    """``max_o |log p(o) - log q(o)|`` over outputs of positive probability under either law.

    Returns ``inf`` when one law puts mass where the other puts none (no finite
    epsilon then bounds the pure-DP loss).
    """
    p, q = _check_logs(logp, logq)
    support = (p > -np.inf) | (q > -np.inf)
    if np.any(support & ((p == -np.inf) | (q == -np.inf))):
        return math.inf
    return float(np.max(np.abs(p[support] - q[support])))


def hockey_stick_delta(logp, logq, epsilon):
    """Smallest delta with ``P(S) <= e^eps Q(S) + delta`` for every event S: ``sum (p - e^eps q)_+``."""
    p, q = _check_logs(logp, logq)
    with np.errstate(over="ignore"):
        terms = np.exp(p) * -np.expm1(np.minimum(q + epsilon - p, 0.0))
    return float(np.sum(terms[np.isfinite(p)]))
