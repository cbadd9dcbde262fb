"""Exact privacy loss of mechanisms whose output distributions are known on a finite set.

References
----------
.. [1] B. Balle, G. Barthe and M. Gaboardi, "Privacy amplification by subsampling: tight analyses
       via couplings and divergences", NeurIPS 2018 (hockey-stick divergence characterisation of DP).
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

__all__ = ["max_privacy_loss", "hockey_stick_delta", "hockey_stick_epsilon", "privacy_profile"]


def _check_logs(logp, logq):
    p = np.asarray(logp, dtype=np.float64)
    q = np.asarray(logq, dtype=np.float64)
    if p.shape != q.shape or p.ndim != 1 or p.size == 0:
        raise ValueError(f"log-probability vectors must be 1-d of equal non-zero length, got {p.shape} and {q.shape}")
    # ndarray methods, not np.any: the wrapper's overhead exceeds the test on the small laws of an exact search
    if np.isnan(p).any() or np.isnan(q).any() or (p == np.inf).any() or (q == np.inf).any():
        raise ValueError("log-probabilities must not be NaN or +inf")
    return p, q


def max_privacy_loss(logp: ArrayLike, logq: ArrayLike) -> float:
    """``max_o |log p(o) - log q(o)|`` over outputs of positive probability under either law.

    Returns ``inf`` when one law puts mass where the other puts none (no finite
    epsilon then bounds the pure-DP loss).
    """
    p, q = _check_logs(logp, logq)
    support = (p > -np.inf) | (q > -np.inf)
    if np.any(support & ((p == -np.inf) | (q == -np.inf))):
        return math.inf
    return float(np.max(np.abs(p[support] - q[support])))


def hockey_stick_delta(logp: ArrayLike, logq: ArrayLike, epsilon: float) -> float:
    """Smallest delta with ``P(S) <= e^eps Q(S) + delta`` for every event S: ``sum (p - e^eps q)_+``."""
    p, q = _check_logs(logp, logq)
    with np.errstate(over="ignore"):
        terms = np.exp(p) * -np.expm1(np.minimum(q + epsilon - p, 0.0))
    return float(np.sum(terms[np.isfinite(p)]))


def hockey_stick_epsilon(logp: ArrayLike, logq: ArrayLike, delta: float) -> float:
    """Smallest ``epsilon >= 0`` with ``P(S) <= e^eps Q(S) + delta`` for every event S.

    Parameters
    ----------
    logp, logq : array_like, shape (K,)
        Log-probabilities of the same K outputs under the two laws.
    delta : float
        In [0, 1).

    Returns
    -------
    float
        ``max(0, max_S log((P(S) - delta) / Q(S)))`` over events with ``P(S) > delta``;
        ``inf`` when some event has ``P(S) > delta`` and ``Q(S) = 0``.

    Notes
    -----
    For fixed epsilon the worst event is a super-level set of the likelihood
    ratio ``p/q``, so the maximum over events is a maximum over the K prefixes
    of the outputs sorted by decreasing log-ratio: with cumulative masses
    ``P_k, Q_k`` the answer is ``max_k log((P_k - delta)/Q_k)``.  The cost is
    one sort, ``O(K log K)``; the result is exact up to float64 rounding, and
    ``hockey_stick_delta(logp, logq, hockey_stick_epsilon(logp, logq, delta)) <= delta``.
    """
    p, q = _check_logs(logp, logq)
    delta = float(delta)
    if not (0.0 <= delta < 1.0) or math.isnan(delta):
        raise ValueError(f"delta must be in [0, 1), got {delta!r}")
    return _hockey_stick_epsilon(p, q, delta)


def _hockey_stick_epsilon(p, q, delta):
    """:func:`hockey_stick_epsilon` of checked float64 vectors and a checked ``delta``."""
    keep = p > -np.inf
    if not keep.any():
        return 0.0
    p, q = p[keep], q[keep]
    with np.errstate(invalid="ignore"):
        ratio = np.where(q == -np.inf, np.inf, p - q)
    order = np.argsort(-ratio, kind="stable")
    cum_p = np.cumsum(np.exp(p[order]))
    cum_q = np.cumsum(np.exp(q[order]))
    ok = cum_p > delta
    if not ok.any():
        return 0.0
    if (ok & (cum_q == 0.0)).any():
        return math.inf
    with np.errstate(divide="ignore"):
        cand = np.log(cum_p[ok] - delta) - np.log(cum_q[ok])
    return float(max(0.0, cand.max()))


def privacy_profile(logp: ArrayLike, logq: ArrayLike, delta: float = 0.0) -> tuple[float, str]:
    """Both directions: ``(epsilon(delta), worst direction)`` with direction 'forward' for P vs Q.

    Parameters
    ----------
    logp, logq : array_like, shape (K,)
        Log-probabilities of the same K outputs under the two laws.
    delta : float
        In [0, 1).  At 0 the pure-DP loss ``max_o log p(o) - log q(o)`` of each direction, else
        :func:`hockey_stick_epsilon`.

    Returns
    -------
    epsilon : float
        The larger of the two directions' epsilon (>= 0; ``inf`` when one law puts mass where the other
        puts none).
    direction : {"forward", "backward"}
        ``"forward"`` when P against Q attains it (ties go forward).

    Raises
    ------
    ValueError
        The vectors are not 1-d of equal non-zero length, hold NaN or +inf, or ``delta`` is outside [0, 1).

    References
    ----------
    .. [1] B. Balle, G. Barthe and M. Gaboardi, "Privacy amplification by subsampling: tight analyses
           via couplings and divergences", NeurIPS 2018.

    Examples
    --------
    >>> import math
    >>> eps, direction = privacy_profile([math.log(0.5), math.log(0.5)], [math.log(0.25), math.log(0.75)])
    >>> round(eps, 12) == round(math.log(2), 12), direction
    (True, 'forward')
    >>> privacy_profile([0.0, -math.inf], [-math.inf, 0.0], delta=0.5)
    (inf, 'forward')
    """
    # The laws and delta are checked once, not once per direction (an exact search calls this per pair).
    p, q = _check_logs(logp, logq)
    if delta > 0:
        delta = float(delta)
        if not (0.0 <= delta < 1.0) or math.isnan(delta):
            raise ValueError(f"delta must be in [0, 1), got {delta!r}")
        fwd, bwd = _hockey_stick_epsilon(p, q, delta), _hockey_stick_epsilon(q, p, delta)
    else:
        fwd, bwd = max(0.0, _directed_loss_checked(p, q)), max(0.0, _directed_loss_checked(q, p))
    return (fwd, "forward") if fwd >= bwd else (bwd, "backward")


def _directed_loss(logp, logq):
    """``max_o log p(o) - log q(o)`` over outputs with ``p(o) > 0``; inf when ``q(o) = 0`` there."""
    p, q = _check_logs(logp, logq)
    return _directed_loss_checked(p, q)


def _directed_loss_checked(p, q):
    keep = p > -np.inf
    if not keep.any():
        return 0.0
    if (q[keep] == -np.inf).any():
        return math.inf
    return float((p[keep] - q[keep]).max())
