"""Exact privacy loss of laws that list their outputs only up to a small unlisted mass.

A ``log_prob`` may list the outputs of a law whose support is infinite, cut where the remaining mass is
negligible: a two-sided geometric mechanism listing the counts within 200 of the true count leaves a mass
of about 1e-87 unlisted.  The validation of :mod:`~proofs_checks.audit.laws` accepts such a law (its total
is 1 within :data:`~proofs_checks.audit.laws.NORMALISATION_TOL`), but two neighbouring datasets cut their
supports at different places, so the outputs at the edges have positive probability under one law and
none under the other, and the exact loss of the listed laws is infinite although the mechanism is
epsilon-DP.

The listed log-probabilities are taken as exact; the mass a law leaves unlisted lies on outputs it does
not list, where exactly the audit cannot know, so, when deciding a refutation, it is placed where it helps
the mechanism most.  With ``m_Q`` the unlisted mass of ``Q``, every event ``S`` has ``P(S) >= P_listed(S)``
and ``Q(S) <= Q_listed(S) + m_Q`` when ``S`` holds an output ``Q`` does not list (``Q(S) = Q_listed(S)``
otherwise), so the largest over events of

``log((P_listed(S) - delta) / (Q_listed(S) + m_Q [S holds an output Q does not list]))``

is at most the true epsilon of ``P`` against ``Q`` at ``delta`` wherever the mass lies: a refutation by
this bound holds for every completion of the two laws, and a cut at mass 1e-87 can no longer refute.  The
events inside ``Q``'s listed outputs give the hockey-stick epsilon of the listed laws there
(:func:`~proofs_checks.audit.exact.hockey_stick_epsilon`: likelihood-ratio prefixes); the others are best
when they hold every output ``P`` lists and ``Q`` does not, plus a prefix of the listed ones sorted by
decreasing log-ratio (for a fixed epsilon, ``P(S) - e^eps Q(S)`` is then largest on a super-level set).
Laws listing the same outputs get exactly the epsilon of :func:`~proofs_checks.audit.exact.privacy_profile`.

The unlisted mass of a law of ``K`` listed log-probabilities is ``max(0, 1 - total) + K 2^-52``: the
float64 total of ``K`` terms carries a rounding error below ``K 2^-53`` times the total, so a mass that
rounding hides (1e-87 beside 1) is covered.

References
----------
.. [1] B. Balle, G. Barthe and M. Gaboardi, "Privacy amplification by subsampling: tight analyses
       via couplings and divergences", NeurIPS 2018 (hockey-stick divergence characterisation of DP).
"""

from __future__ import annotations

import math

import numpy as np

from .exact import _hockey_stick_epsilon

__all__ = ["ROUNDING_MASS_PER_OUTPUT", "unlisted_mass", "epsilon_with_unlisted_mass"]

#: Unlisted mass charged per listed output for the rounding of the float64 total (2^-52).
ROUNDING_MASS_PER_OUTPUT = 2.0**-52


def unlisted_mass(log_probs) -> float:
    """Mass a law may leave unlisted: ``max(0, 1 - total) + K 2^-52`` for ``K`` listed log-probabilities.

    Parameters
    ----------
    log_probs : array_like, shape (K,)
        The law's log-probabilities (finite or -inf), as validated by
        :func:`~proofs_checks.audit.laws.validate_law`.

    Returns
    -------
    float
        The unlisted mass, at least ``K 2^-52``.

    Raises
    ------
    ValueError
        ``log_probs`` is not a non-empty 1-D vector.

    Examples
    --------
    >>> import numpy as np
    >>> round(unlisted_mass(np.log([0.5, 0.4999])), 12)
    0.0001
    >>> unlisted_mass(np.log([0.5, 0.5])) == 2 * 2.0**-52
    True
    """
    lp = np.asarray(log_probs, dtype=np.float64)
    if lp.ndim != 1 or lp.size == 0:
        raise ValueError(f"log_probs must be a non-empty 1-D vector, got shape {lp.shape}")
    total = float(np.exp(np.logaddexp.reduce(lp)))
    return max(0.0, 1.0 - total) + lp.size * ROUNDING_MASS_PER_OUTPUT


def _prefix_best(p, q, delta, base_p, base_q):
    """``max log((base_p + P_k - delta) / (base_q + Q_k))`` over likelihood-ratio prefixes, the empty one included."""
    order = np.argsort(-(p - q), kind="stable")
    cum_p = base_p + np.concatenate([[0.0], np.cumsum(np.exp(p[order]))])
    cum_q = base_q + np.concatenate([[0.0], np.cumsum(np.exp(q[order]))])
    ok = cum_p > delta
    if not ok.any():
        return 0.0
    if (ok & (cum_q == 0.0)).any():
        return math.inf
    with np.errstate(divide="ignore"):
        return float((np.log(cum_p[ok] - delta) - np.log(cum_q[ok])).max())


def _directed(p, q, delta, missing_q):
    """``max(0, max_S log((P(S) - delta) / Q_up(S)))``, ``Q_up(S)`` adding ``missing_q`` when S holds an output Q
    does not list: the events inside Q's listed outputs, and those holding every unlisted output P gives mass."""
    keep = p > -np.inf
    if not keep.any():
        return 0.0
    p, q = p[keep], q[keep]
    listed = q > -np.inf
    best = _hockey_stick_epsilon(p[listed], q[listed], delta) if listed.any() else 0.0
    if not listed.all():
        unlisted_p = float(np.sum(np.exp(p[~listed])))
        best = max(best, _prefix_best(p[listed], q[listed], delta, unlisted_p, float(missing_q)))
    return max(0.0, best)


def epsilon_with_unlisted_mass(logp, logq, delta: float, missing_p: float, missing_q: float) -> tuple[float, str]:
    """Epsilon at ``delta`` of two listed laws, their unlisted masses placed to help the mechanism most.

    Parameters
    ----------
    logp, logq : array_like, shape (K,)
        Log-probabilities of the same K outputs under the two laws (aligned by output value, -inf where a
        law lists no mass).
    delta : float
        In [0, 1).
    missing_p, missing_q : float
        Unlisted masses (>= 0) of the two laws (:func:`unlisted_mass`).

    Returns
    -------
    epsilon : float
        The larger over both directions of the bound of the module notes: a lower bound on the epsilon at
        ``delta`` of every completion of the two laws by mass on outputs they do not list; ``inf`` only when
        a mass is 0 and the other law lists an output of more than ``delta`` the first does not.
    direction : {"forward", "backward"}
        ``"forward"`` when P against Q attains it (ties go forward).

    Raises
    ------
    ValueError
        Vectors not 1-D of equal non-zero length or holding NaN or +inf, ``delta`` outside [0, 1), or a
        mass negative or NaN.

    References
    ----------
    .. [1] B. Balle, G. Barthe and M. Gaboardi, NeurIPS 2018 (hockey-stick divergence).

    Examples
    --------
    Supports cut at different places: the listed laws give an infinite loss, the bound a finite one.

    >>> import math
    >>> p = [math.log(0.5), math.log(0.5), -math.inf]
    >>> q = [-math.inf, math.log(0.5), math.log(0.5)]
    >>> epsilon_with_unlisted_mass(p, q, 0.0, 0.0, 0.0)
    (inf, 'forward')
    >>> eps, direction = epsilon_with_unlisted_mass(p, q, 0.0, 1e-6, 1e-6)
    >>> round(eps, 6), direction
    (13.122363, 'forward')
    """
    p = np.asarray(logp, dtype=np.float64)
    q = np.asarray(logq, dtype=np.float64)
    if p.shape != q.shape or p.ndim != 1 or p.size == 0:
        raise ValueError(f"logp and logq must be 1-D of equal non-zero length, got {p.shape} and {q.shape}")
    if np.isnan(p).any() or np.isnan(q).any() or (p == np.inf).any() or (q == np.inf).any():
        raise ValueError("logp and logq must not hold NaN or +inf")
    delta = float(delta)
    if not (0.0 <= delta < 1.0):
        raise ValueError(f"delta must be in [0, 1), got {delta!r}")
    for name, mass in (("missing_p", missing_p), ("missing_q", missing_q)):
        if not (float(mass) >= 0.0):
            raise ValueError(f"{name} must be >= 0, got {mass!r}")
    fwd = _directed(p, q, delta, float(missing_q))
    bwd = _directed(q, p, delta, float(missing_p))
    return (fwd, "forward") if fwd >= bwd else (bwd, "backward")
