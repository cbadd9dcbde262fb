"""Reach of an audit of a Gaussian output, in closed form: the learners of [004 Lemma D.4] and noisy GD.

A pair of Gaussian laws with the same covariance and means ``mu`` noise units apart is, by the
Neyman-Pearson lemma, the pair ``N(0, 1) / N(mu, 1)`` on the projection onto the mean shift; its exact
epsilon at ``delta`` is Balle and Wang's curve (:func:`gaussian_epsilon`), and the best event's
Clopper-Pearson bound is :func:`~proofs_checks.audit.calibration.oracle_bound` of
:class:`~proofs_checks.audit.calibration.GaussianCount` at ``1/mu`` (:func:`gaussian_oracle`).
:func:`learner_mu_bound` gives the largest shift any replace-one pair can give a base learner, and
:func:`noisy_gd_linear_output` the exact shift of noisy GD on
:func:`~proofs_checks.claim_sets.arora.designed_pairs.noisy_gd_violation_pair`.

References
----------
.. [BW18] B. Balle and Y.-X. Wang, "Improving the Gaussian mechanism for differential privacy", ICML 2018,
   Theorem 8 (exact delta of the Gaussian mechanism).
.. [DRS22] J. Dong, A. Roth and W. Su, "Gaussian differential privacy", JRSS-B 84 (2022), Corollary 3.3
   (adaptive composition of Gaussian mechanisms).
"""

from __future__ import annotations

import math

import numpy as np

from reference.arora.learners import lipschitz_constant, noisy_gd_rho, noisy_gd_sigma
from reference.validation import check_delta, check_epsilon, check_integer, check_positive

__all__ = ["learner_mu_bound", "gaussian_epsilon", "gaussian_oracle", "calls_for_oracle", "noisy_gd_linear_output"]


def learner_mu_bound(learner, epsilon, delta):
    """Largest noise-unit shift ``mu`` any replace-one pair can give a base learner built for ``(epsilon, delta)``.

    Output perturbation: ``sigma = Delta_2 sqrt(2 log(1.25/delta)) / epsilon`` with ``Delta_2`` the
    sensitivity bound, so ``mu <= epsilon / sqrt(2 log(1.25/delta))``.  Noisy GD: ``T`` Gaussian steps
    of sensitivity ``2G/n`` and noise ``sigma = (2G/n) sqrt(T/(2 rho))`` compose to ``sqrt(2 rho)``-GDP
    ([DRS22] Cor. 3.3); the averaged, projected output is post-processing.

    >>> round(learner_mu_bound("output-perturbation", 1.0, 1e-5), 4), round(learner_mu_bound("noisy-gd", 1.0, 1e-5), 4)
    (0.2064, 0.2041)
    """
    eps, dl = check_epsilon(epsilon), check_delta(delta)
    if learner == "output-perturbation":
        return eps / math.sqrt(2.0 * math.log(1.25 / dl))
    if learner == "noisy-gd":
        return math.sqrt(2.0 * noisy_gd_rho(eps, dl))
    raise ValueError(f"learner must be 'output-perturbation' or 'noisy-gd', got {learner!r}")


def gaussian_epsilon(mu, delta):
    """Exact epsilon at ``delta`` of ``N(0, 1)`` against ``N(mu, 1)`` ([BW18] Thm. 8, inverted).

    >>> round(gaussian_epsilon(0.2064, 1e-5), 3)
    0.751
    """
    from proofs_checks.audit.calibration import GaussianCount

    return GaussianCount(1.0 / check_positive("mu", mu)).true_epsilon(check_delta(delta))


def gaussian_oracle(mu, samples, confidence, delta):
    """Clopper-Pearson bound of the best event (half-lines) at ``samples/2`` calls per law, expected counts."""
    from proofs_checks.audit.calibration import GaussianCount, oracle_bound

    return oracle_bound(GaussianCount(1.0 / check_positive("mu", mu)), samples, confidence, delta)


def calls_for_oracle(mu, epsilon, confidence, delta, start=20_000, limit=10**13):
    """Smallest power-of-two multiple of ``start`` calls whose oracle bound exceeds ``epsilon`` (None past
    ``limit``)."""
    n = check_integer("start", start, minimum=100)
    while n <= limit:
        if gaussian_oracle(mu, n, confidence, delta) > epsilon:
            return n
        n *= 2
    return None


def noisy_gd_linear_output(n, epsilon, delta, B=1.0, x_bound=1.0, y_bound=3.0):
    """Exact law of noisy GD's output on :func:`~.designed_pairs.noisy_gd_violation_pair` while no projection binds.

    With ``A = 2 X^2``, ``b = 2 X y_0 / n``, step ``eta`` and noise ``sigma`` of
    :func:`reference.arora.learners.noisy_gd` (squared loss, ``T = min(n, 200)``, ``w_0 = 0``), the
    unprojected iterates are ``w_{t+1} = (1 - k) w_t + eta b - eta sigma xi_t`` with ``k = eta A``; the
    average ``(1/T) sum_{t=1..T} w_t`` is Gaussian with mean ``(eta b / T) sum_s c_s`` and standard
    deviation ``(eta sigma / T) ||c||``, ``c_s = (1 - (1 - k)^{T-s}) / k`` (s = 0..T-1).  The two
    datasets' outputs are therefore ``mu = (4 X Y / n) sum c / (sigma ||c||)`` noise units apart
    (``<= sqrt(T) (4 X Y / n) / sigma``, Cauchy-Schwarz).  The real output equals this one on the event
    that no unprojected iterate leaves ``[-B, B]``, whose complement has probability at most
    ``projection`` (Gaussian tails of every ``w_t``, union bound over ``t``, the larger of the two
    datasets), so the real ``delta(eps)`` is at least the Gaussian curve's at ``mu`` minus
    ``(1 + e^eps) projection``.

    Returns
    -------
    dict with ``mu``, ``transcript_mu`` (``sqrt(T) 4XY/(n sigma)``), ``projection``, ``T``, ``sigma``,
    ``eta``, ``k``.

    >>> r = noisy_gd_linear_output(400, 2.0, 1e-5)
    >>> round(r["mu"], 4), round(r["transcript_mu"], 4), r["projection"] < 1e-40
    (0.2832, 0.3001, True)
    """
    from scipy import special

    n = check_integer("n", n, minimum=1)
    B, X, Y = (check_positive(k, v) for k, v in (("B", B), ("x_bound", x_bound), ("y_bound", y_bound)))
    T = min(n, 200)
    sigma = noisy_gd_sigma("squared", B, X, Y, n, T, epsilon, delta)
    G = lipschitz_constant("squared", B, X, Y)
    eta = B / (math.sqrt(G * G + sigma * sigma) * math.sqrt(T))  # d = 1, as noisy_gd sets it
    k = eta * 2.0 * X * X
    s = np.arange(T)
    c = -np.expm1((T - s) * math.log1p(-k)) / k
    shift = 4.0 * X * Y / n
    t = np.arange(1, T + 1)
    var = (eta * sigma) ** 2 * -np.expm1(2 * t * math.log1p(-k)) / -math.expm1(2 * math.log1p(-k))
    mean = (2.0 * X * Y / n) / (2.0 * X * X) * -np.expm1(t * math.log1p(-k))  # |E w_t| on either dataset
    sd = np.sqrt(var)
    projection = float(np.sum(special.ndtr(-(B - mean) / sd) + special.ndtr(-(B + mean) / sd)))
    return {
        "mu": float(shift * c.sum() / (sigma * np.linalg.norm(c))),
        "transcript_mu": math.sqrt(T) * shift / sigma,
        "projection": projection,
        "T": T,
        "sigma": sigma,
        "eta": eta,
        "k": k,
    }
