"""[004 Thm. 2] privacy without its premise: the boosted learner at ``(eps/K, delta/K)`` with the printed ``sigma~``.

Theorem 2 runs Algorithm 1 with ``A`` = output perturbation boosted by [004 App. E] at ``(eps/K, delta/K)`` and
concludes ``(eps, delta)``-DP from ``A`` being ``(eps/K, delta/K)``-DP (``arora.thm2.privacy``, which takes that
premise as given: the reading "conditional on a DP base learner").  The premise comes from [004 Thm. E], whose
privacy fails at the printed ``sigma~`` (finding ``004.boosting-printed-scale``).  This claim judges the premise
at Theorem 2's own setting: ``K`` from its statement (:func:`~reference.arora.theorem2.theorem2_grid_size`),
the learner on ``|S1| = n/2`` records at ``(eps/K, delta/K)``, the guess ``B_j = 2^11 = 2048``, on the designed
pair of :func:`.boosting_rescaled.rescaled_boosting_law` with labels ``Y = 3 x 1024`` (``X = 1``, ``H = 2``).

A violation of the premise leaves Theorem 2's conclusion unproven, not shown false: the output ``w_(j*)`` of
Algorithm 1 is not audited here (GEM's choice of ``j*`` would have to be part of the law).
"""

from __future__ import annotations

from reference.arora.theorem2 import theorem2_grid_size

from ...model import Claim, Result
from ._common import scaled_mutants, with_power
from .boosting_rescaled import rescaled_boosting_law

__all__ = ["THM2_SETTING", "register"]

#: Theorem 2's instance: all records, eps, delta, X, the label unit k (Y = 3k), H, models per boosted learner.
THM2_SETTING = dict(n=2 * 10**6, epsilon=1.0, delta=1e-5, x_bound=1.0, k=1024.0, H=2.0, m=4)


def premise_check(scale_factor=1.0):
    """Refuted when the boosted learner's guaranteed epsilon at ``delta/K`` exceeds ``eps/K``; inconclusive
    otherwise.  ``observed``: that epsilon / (``eps/K``)."""

    def check(ctx):
        s = THM2_SETTING
        Y = 3.0 * s["k"]
        K = theorem2_grid_size(s["n"], s["epsilon"], s["x_bound"], Y, s["H"], "statement")
        eps_k, delta_k = s["epsilon"] / K, s["delta"] / K
        law = rescaled_boosting_law(s["k"], s["n"] // 2, s["m"], scale_factor, eps_k, delta_k)
        eps_lo = law["epsilon_at_delta_lower"]
        return Result(
            "refuted" if eps_lo > eps_k else "inconclusive",
            observed=eps_lo / eps_k,
            bound=1.0,
            direction="at_most",
            method="guaranteed quadrature brackets of the boosted learner's output law on the designed pair "
            "(boosting_law_bounds, 5000 cells, 64 lattice steps per Laplace scale); epsilon at delta/K by bisection",
            reading=f"[004 Thm. 2] privacy, unconditional: its learner A (output perturbation boosted by [004 App. E], "
            f"Lap(0, sigma~) with sigma~ the scale, sigma~^2 = 4(Y^2 + H gamma^2 X^2)/(n' eps'), n' = |S1| = n/2, "
            f"eps' = eps/K) must be (eps/K, delta/K)-DP for the theorem's proof; n = {s['n']}, eps = {s['epsilon']}, "
            f"delta = {s['delta']}, X = 1, Y = {Y:g}, H = 2, K = {K} (the statement's rule), guess B = 2048 = "
            f"B_11, m = {s['m']}; replace-one neighbours in S1; a refutation is of the premise: Algorithm 1's "
            "output itself is not audited, so the theorem's conclusion is unproven, not shown false",
            evidence={
                "worst_at": {**law, "K": K},
                "epsilon": eps_k,
                "delta": delta_k,
                "scale_factor": scale_factor,
                "observed_is": "the boosted learner's guaranteed epsilon at delta/K / (eps/K); epsilon and delta "
                "are the learner's eps/K and delta/K",
            },
        )

    return check


PREMISE_POWER = (
    "eps >= 7.38 at delta/K against eps/K = 0.027 (K = 37): Laplace scale x0.5 and x0.8 are refuted; the "
    "scale in the units of Y^2 (x1024) is not (inconclusive); at Y = 3 (k = 1, K = 17) the same check finds "
    "eps >= 0 (inconclusive): the violation needs the label units, as in arora.boosting.privacy.n-above-n0"
)


def register(registry):
    """Add the unconditional reading of [004 Thm. 2]'s privacy."""
    registry.add_claim(
        Claim(
            "arora.thm2.privacy.unconditional",
            "[004 Thm. 2] [004 App. D.3] [004 Thm. E]",
            "Theorem 2's base learner (output perturbation boosted at (eps/K, delta/K), printed sigma~) is "
            "(eps/K, delta/K)-DP, the premise of Algorithm 1's (eps, delta)-DP in Theorem 2.",
            "privacy",
            with_power(premise_check(), PREMISE_POWER),
            algorithm="arora-boosting",
            variant="printed",
            mutants=scaled_mutants("Laplace scale", lambda f: premise_check(f), (0.5, 0.8)),
        )
    )
