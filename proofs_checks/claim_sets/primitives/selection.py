"""Private selection: the exponential mechanism [000 Def. 2] [002 Def. 3], report-noisy-max
(Dwork & Roth 2014, Sec. 3.3; used in [004 App. E]) and GEM [004 App. D.1], judged on exact output laws.

A neighbouring dataset moves each score by at most its sensitivity, so the privacy checks compare
the output law on a score vector with the laws on the score vectors within that sensitivity; the
extreme patterns (``+Delta`` at one output and ``-Delta`` elsewhere, and the mirror) come first.
"""

from __future__ import annotations

import math

import numpy as np

from reference.mechanisms import exponential_log_prob, gem_log_prob, report_noisy_max_log_prob
from reference.validation import check_epsilon, check_integer, check_positive, check_probability

from ...builders import PrivacyTally, max_search_check
from ...verdicts import QUADRATURE_RTOL

__all__ = [
    "exponential_privacy_check",
    "report_noisy_max_privacy_check",
    "gem_privacy_check",
    "gem_utility_check",
    "gem_worst_case_pair",
]

#: The neighbouring relation on scores: what replacing one record does to them.
SCORE_NEIGHBOURS = (
    "score vectors u, u' with |u(r) - u'(r)| <= Delta for every output r, i.e. the scores of "
    "replace-one neighbouring datasets when Delta is the sensitivity of the score"
)


def _score_neighbours(u, sensitivity, rng, n_random):
    """Neighbouring score vectors ``u'`` with ``|u' - u| <= sensitivity`` entrywise, one per row.

    The extreme patterns that maximise the loss at output ``o`` (``+Delta`` at o,
    ``-Delta`` elsewhere, and the mirror) come first, then random sign patterns
    and random points of the box.
    """
    k = u.size
    eye = np.eye(k, dtype=bool)
    patterns = [
        np.where(eye, 1.0, -1.0),
        np.where(eye, -1.0, 1.0),
        rng.choice([-1.0, 1.0], size=(n_random, k)),
        rng.uniform(-1, 1, size=(n_random, k)),
    ]
    return u + sensitivity * np.concatenate(patterns)


def exponential_privacy_check(weight_factor=0.5, epsilon=1.0, sensitivity=1.0):
    """Check factory: the exponential mechanism, weight ``exp(weight_factor eps u / Delta)``, is eps-DP.

    Random score vectors (2 to 11 outputs, scales 1e-3 to 1e6) against their neighbours of
    :func:`_score_neighbours`, exact laws (log-sum-exp).
    """

    def check(ctx):
        rng = ctx.rng()
        n_vectors = 30 if ctx.profile == "quick" else 300
        tally = PrivacyTally()
        for _ in range(n_vectors):
            k = int(rng.integers(2, 12))
            scale = 10.0 ** rng.uniform(-3, 6)
            u = rng.normal(0, scale, size=k)
            scores = np.vstack([u, _score_neighbours(u, sensitivity, rng, 20)])
            laws = exponential_log_prob(scores, epsilon, sensitivity, weight_factor=weight_factor)
            tally.add_rows(
                laws, epsilon, where_of=lambda j: {"scores": u.tolist(), "neighbour": scores[1 + j].tolist()}
            )
        return tally.result(
            method=f"exact output laws (log-sum-exp) of {n_vectors} random score vectors and 2k + 40 neighbours each",
            reading=f"P[r] proportional to exp(eps u(D, r) / (2 Delta)) [000 Def. 2] [002 Def. 3]; eps-DP over "
            f"{SCORE_NEIGHBOURS}",
            evidence={"epsilon": epsilon, "weight_factor": weight_factor, "score_vectors": n_vectors},
        )

    return check


def report_noisy_max_privacy_check(scale_factor=2.0, epsilon=1.0, sensitivity=1.0):
    """Check factory: report-noisy-max with Laplace scale ``scale_factor * Delta / eps`` is eps-DP.

    Exact laws by quadrature (relative tolerance 1e-11), so the loss is compared with epsilon up
    to :data:`~proofs_checks.verdicts.QUADRATURE_RTOL`.
    """

    def check(ctx):
        rng = ctx.rng()
        n_vectors = 6 if ctx.profile == "quick" else 40
        scale = scale_factor * sensitivity / epsilon
        tally = PrivacyTally()
        for _ in range(n_vectors):
            k = int(rng.integers(2, 5))
            u = rng.normal(0, 10.0 ** rng.uniform(0, 2), size=k)
            logp = report_noisy_max_log_prob(u, scale)
            for u2 in _score_neighbours(u, sensitivity, rng, 2):
                tally.add(
                    logp,
                    report_noisy_max_log_prob(u2, scale),
                    epsilon,
                    where={"scores": u.tolist(), "neighbour": u2.tolist()},
                )
        return tally.result(
            method=f"exact output laws by quadrature (relative tolerance 1e-11) of {n_vectors} random score "
            f"vectors and 2k + 4 neighbours each; tolerance {QUADRATURE_RTOL:g} relative",
            reading=f"argmax of u(D, r) + Lap({scale_factor:g} Delta / eps) noise (Dwork & Roth 2014, Sec. 3.3; "
            f"the selection step of Boosting [004 App. E]); eps-DP over {SCORE_NEIGHBOURS}",
            evidence={"epsilon": epsilon, "laplace_scale": scale},
            rtol=QUADRATURE_RTOL,
            atol=0.0,
        )

    return check


def gem_privacy_check(epsilon=1.0, beta=0.1, weight_scale=1.0):
    """Check factory: GEM run with privacy parameter eps is eps-DP; ``weight_scale`` multiplies eps in the exponent.

    Each score ``q_j`` has its own sensitivity ``g_j``; neighbours move ``q_j`` by at most ``g_j``.
    """

    def check(ctx):
        rng = ctx.rng()
        n_vectors = 30 if ctx.profile == "quick" else 300
        tally = PrivacyTally()
        for _ in range(n_vectors):
            k = int(rng.integers(2, 10))
            g = 10.0 ** rng.uniform(-2, 2, size=k)
            q = rng.normal(0, 10.0 ** rng.uniform(-1, 3), size=k)
            scores = np.vstack([q, q + _score_neighbours(np.zeros(k), 1.0, rng, 20) * g])
            laws = gem_log_prob(g, scores, epsilon * weight_scale, beta)
            tally.add_rows(
                laws,
                epsilon,
                where_of=lambda j: {
                    "sensitivities": g.tolist(),
                    "scores": q.tolist(),
                    "neighbour": scores[1 + j].tolist(),
                },
            )
        for k in range(3, 10):  # the designed pairs: GEM's supremum at each k the vectors draw
            g, pair = gem_worst_case_pair(k, epsilon * weight_scale, beta)
            tally.add_rows(
                gem_log_prob(g, pair, epsilon * weight_scale, beta),
                epsilon,
                where_of=lambda j, g=g, pair=pair: {
                    "sensitivities": g.tolist(),
                    "scores": pair[0].tolist(),
                    "neighbour": pair[1].tolist(),
                    "designed": True,
                },
            )
        return tally.result(
            method=f"exact output laws of {n_vectors} random (sensitivity, score) vectors and 2k + 40 neighbours each, "
            "and of the designed pair where GEM's loss is largest, for k = 3..9",
            reading="GEM of [RS15] as stated in [004 App. D.1], sensitivity-score pairs (gamma_j, q_j(S)); eps-DP "
            "over adjacent datasets, i.e. scores with |q_j(S) - q_j(S')| <= gamma_j for every j",
            evidence={"epsilon": epsilon, "beta": beta, "weight_scale": weight_scale, "score_vectors": n_vectors},
        )

    return check


def gem_worst_case_pair(k, epsilon, beta, far=200.0):
    """``(sensitivities, scores (2, k))``: neighbouring score vectors on which GEM's privacy loss is its supremum.

    GEM's normalised scores each move by at most 1 between neighbours and the smallest is 0, which bounds the loss
    of any output by ``a + log((k-1)/(1 + (k-2) e^-a))`` with ``a = epsilon/2`` (the output's own score moves by
    1, one other pair stays at 0 and the ``k - 2`` others fall from 1 to 0).  This pair attains it up to
    ``e^{-a far/2}``: sensitivities ``(1, 1, 4, 1, ..., 1)``, offset scores ``q + t g`` equal to ``(far, 0, ..., 0)``
    on the first vector; the second moves pair 0 and pair 2 down by their sensitivities and the others up, so
    pair 0's normalised score falls by exactly 1 (its partner, pair 1, rose) while pair 2 becomes the best and the
    others sit at 1.  For ``k >= 5`` and ``a = 1.25 epsilon/2`` the loss exceeds ``epsilon`` (1.054 at k = 5).

    References
    ----------
    .. [1] [004 App. D.1]; Raskhodnikova & Smith 2016 (GEM).
    """
    k = check_integer("k", k, minimum=3)
    epsilon, beta, far = check_epsilon(epsilon), check_probability("beta", beta), check_positive("far", far)
    g = np.ones(k)
    g[2] = 4.0
    t = 2.0 * math.log(k / beta) / epsilon
    q = np.zeros(k)
    q[0] = far
    move = np.ones(k)
    move[[0, 2]] = -1.0
    q = q - t * g
    return g, np.vstack([q, q + move * g])


def gem_utility_check(epsilon=1.0, beta=0.1, bound_factor=4.0):
    """Check factory: exact probability that GEM misses ``q_i <= min_j q_j + bound_factor g_j log(k/beta)/eps``.

    The largest failure probability over random (sensitivity, score) vectors must be at most beta.
    """

    def search(ctx):
        rng = ctx.rng()
        n_vectors = 200 if ctx.profile == "quick" else 2000
        worst, where = 0.0, None
        for _ in range(n_vectors):
            k = int(rng.integers(2, 12))
            g = 10.0 ** rng.uniform(-2, 1, size=k)
            q = rng.normal(0, 10.0 ** rng.uniform(-1, 1), size=k)
            bound = np.min(q + bound_factor * g * math.log(k / beta) / epsilon)
            failure = float(np.exp(gem_log_prob(g, q, epsilon, beta))[q > bound].sum())
            if failure > worst:
                worst, where = failure, {"sensitivities": g.tolist(), "scores": q.tolist()}
        return worst, where, n_vectors

    return max_search_check(
        search,
        beta,
        method="exact output laws of GEM on random (sensitivity, score) vectors (200 quick, 2000 "
        "full); observed = largest probability of an output above the stated bound",
        reading="utility of GEM in [004 App. D.1]: with probability >= 1 - beta the output i has q_i <= "
        f"min_j (q_j + {bound_factor:g} gamma_j log(N/beta)/eps)",
        evidence={"epsilon": epsilon, "beta": beta, "bound_factor": bound_factor},
    )
