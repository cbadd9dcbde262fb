"""Designed neighbouring pairs for the audits of 004's algorithms, and the closed forms of their reach.

The black-box patterns of :func:`proofs_checks.audit.neighbours.black_box_pairs` hardly move a GLM
learner: a record against its negation ``(x, y) / (-x, -y)`` leaves every squared loss
``(<w, x> - y)^2`` unchanged, and ``x = 0`` records carry no information at all.  The pair built here
flips the label of one record at the edge of the domain, ``(X e_1, Y)`` against ``(X e_1, -Y)``, the
other records zero: it moves the gradient of the average loss by ``4 X Y / n`` at every ``w``
(``3/4`` of the ``2 G / n`` of the sensitivity bounds at ``B = X = 1``, ``Y = 3``), so the output of
output perturbation moves by ``12 / (2 + n lam)`` exactly (closed form below) and each noisy-GD step's
gradient by ``12 / n``.  The pair is fixed before any draw (it depends on the domain only).

The reach of an audit of a Gaussian output is computed in closed form: a pair of Gaussian laws with
the same covariance and means ``mu`` noise units apart is, by the Neyman-Pearson lemma, the pair
``N(0, 1) / N(mu, 1)`` on the projection onto the mean shift; its exact epsilon at ``delta`` is Balle
and Wang's curve, and the best event's Clopper-Pearson bound is :func:`oracle_bound` of
:class:`~proofs_checks.audit.calibration.GaussianCount` at ``1/mu``.

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

from reference.arora.learners import noisy_gd_rho
from reference.validation import check_delta, check_epsilon, check_integer, check_positive

__all__ = ["DESIGN_ROWS", "label_flip_pair", "boosting_flip_pair", "learner_mu_bound", "gaussian_epsilon", "gaussian_oracle",
           "calls_for_oracle"]

#: Records of the designed datasets (as the auditor's default datasets): 8.
DESIGN_ROWS = 8


def label_flip_pair(x_bound, y_bound, n=DESIGN_ROWS, dim=1, row=0):
    """``(D, D', description)``: row ``row`` is ``(X e_1, Y)`` in ``D`` and ``(X e_1, -Y)`` in ``D'``, others zero.

    Examples
    --------
    >>> D, Dp, _ = label_flip_pair(1.0, 3.0, n=3)
    >>> D.tolist(), Dp.tolist()
    ([[1.0, 3.0], [0.0, 0.0], [0.0, 0.0]], [[1.0, -3.0], [0.0, 0.0], [0.0, 0.0]])
    """
    X, Y = check_positive("x_bound", x_bound), check_positive("y_bound", y_bound)
    n = check_integer("n", n, minimum=1)
    dim = check_integer("dim", dim, minimum=1)
    row = check_integer("row", row, minimum=0, maximum=n - 1)
    D = np.zeros((n, dim + 1))
    D[row, 0], D[row, -1] = X, Y
    Dp = D.copy()
    Dp[row, -1] = -Y
    return D, Dp, f"row {row}: label flip of the edge record (x = {X:g} e_1, y = +-{Y:g}), other records zero"


def boosting_flip_pair(x_bound, y_bound, m):
    """``(D, D', description)`` for Boosting [004 App. E] with ``m`` models: ``2 (m + 1)`` records
    ``(X e_1, Y)`` (chunks of two), the last one (in the validation chunk ``S_{m+1}``) ``(X e_1, -Y)`` in ``D'``.

    The ``m`` models are trained on the same data, so they differ only by their noise; the flipped
    validation label reverses which of them scores best (the loss moves by ``4 X Y <w, e_1> / 2``), so
    the selected model's first coordinate moves.

    >>> D, Dp, _ = boosting_flip_pair(1.0, 3.0, 1)
    >>> D.tolist(), Dp[-1].tolist()
    ([[1.0, 3.0], [1.0, 3.0], [1.0, 3.0], [1.0, 3.0]], [1.0, -3.0])
    """
    X, Y = check_positive("x_bound", x_bound), check_positive("y_bound", y_bound)
    m = check_integer("m", m, minimum=1)
    D = np.tile([X, Y], (2 * (m + 1), 1))
    Dp = D.copy()
    Dp[-1, -1] = -Y
    return D, Dp, (f"label flip of the last validation record (x = {X:g} e_1, y = +-{Y:g}); "
                   f"all {2 * (m + 1)} records (x = {X:g} e_1, y = {Y:g}) otherwise")


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
    """Smallest power-of-two multiple of ``start`` calls whose oracle bound exceeds ``epsilon`` (None past ``limit``)."""
    n = check_integer("start", start, minimum=100)
    while n <= limit:
        if gaussian_oracle(mu, n, confidence, delta) > epsilon:
            return n
        n *= 2
    return None
