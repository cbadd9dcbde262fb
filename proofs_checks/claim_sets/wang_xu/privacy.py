"""Exact privacy of Algorithms 1-2 of Wang & Xu (000) [000 Thm. 1] [000 Thm. 2], printed and standard.

Step 2 of [000 Alg. 1] (of [000 Alg. 2]) outputs a net point ``w`` with probability proportional to
``exp(-n iota eps L-hat(w, D) / log theta)`` (``theta = 2`` for Algorithm 1): the ``printed``
variant.  The ``standard`` variant is the exponential mechanism of [000 Def. 2],
``exp(eps u / (2 Delta))`` with ``u = -L-hat`` and the sensitivity ``Delta = 2 log theta / (n iota)``
of the proofs of Theorems 1-2.  The whole output law is computed on small instances, for a dataset
and every neighbour replacing one row by a candidate record; the largest privacy loss over epsilon
must be at most 1.  Analytically the printed variant loses up to ``2 eps`` and the standard one at
most ``eps / 2``.
"""

from __future__ import annotations

import numpy as np

from reference.wang_xu.l1_regression import make_mechanism

from ...builders import PrivacyTally
from ...model import Claim
from ._common import NEIGHBOURS, datasets, exact_instances, replacement_candidates

__all__ = ["privacy_check", "register"]


def privacy_check(algorithm=1, variant="printed", epsilon=1.0, theta=None, exponent_scale=1.0,
                  mechanism_factory=make_mechanism):
    """Check factory: Algorithm ``algorithm`` (``variant``) is ``epsilon``-DP, exactly on small instances.

    For each instance (net, iota, n) of :func:`~._common.exact_instances` and dataset ``D`` of
    :func:`~._common.datasets`, every neighbour replacing one row of ``D`` by a candidate record
    (:func:`~._common.replacement_candidates`) is rescored through the mechanism's ``score_terms``
    and its exact output law is compared with that of ``D``
    (:class:`~proofs_checks.builders.PrivacyTally`).  Algorithm 2 is checked at ``theta`` (default
    1.5 and 1.1).  ``exponent_scale`` multiplies the log-weights (a broken mechanism for the tests).
    """

    def check(ctx):
        rng = ctx.rng()
        tally = PrivacyTally()
        thetas = [2.0] if algorithm == 1 else ([theta] if theta is not None else [1.5, 1.1])
        for th in thetas:
            for dim, zeta, iota, n in exact_instances(ctx.profile):
                kw = {} if algorithm == 1 else {"theta": th}
                mech = mechanism_factory(algorithm, variant=variant, epsilon=epsilon, dim=dim, radius=1.0,
                                         zeta=zeta, iota=iota, **kw)
                pts = mech.outputs
                cands = replacement_candidates(pts, rng)
                cand_terms = exponent_scale * mech.score_terms(cands)
                instance = {"theta": th, "dim": dim, "zeta": zeta, "iota": iota, "n": n,
                            "net_size": int(pts.shape[0])}
                for D in datasets(pts, n, rng):
                    terms = exponent_scale * mech.score_terms(D)
                    total = terms.sum(axis=0)
                    logp = mech.log_prob_from_terms(total)
                    for i in range(D.shape[0]):
                        logq = mech.log_prob_from_terms(total - terms[i] + cand_terms)
                        # Every log-probability is finite (each log-weight lies in [-n k eps, 0]), so
                        # max |logq - logp| over outputs is each replacement's exact privacy loss: the
                        # worst replacement is found at once and tallied by the auditor's exact function.
                        c = int(np.argmax(np.max(np.abs(logq - logp), axis=1)))
                        tally.add(logp, logq[c], epsilon, where={
                            **instance, "row": i, "replacement": [float(v) for v in cands[c]]})
                        tally.pairs += cands.shape[0] - 1   # the other replacements, screened above
        k = (1.0 if variant == "printed" else 0.25) * exponent_scale
        alg = f"[000 Alg. {algorithm}]"
        log_theta = "log 2" if algorithm == 1 else "log theta"
        score = (f"exp(-n iota eps L-hat(w, D) / {log_theta}), the printed exponent of step 2" if variant == "printed"
                 else "exp(eps u / (2 Delta)), u = -L-hat, Delta = 2 log theta / (n iota) [000 Def. 2]")
        return tally.result(
            method="exact output laws over the whole net (log-sum-exp), for each dataset and every neighbour "
                   f"replacing one row by one of the candidate records; profile {ctx.profile}",
            reading=f"{alg} with psi of [000 eq. ({6 if algorithm == 1 else 16})], output probability {score}; "
                    f"eps-DP as in [000 Def. 1] over {NEIGHBOURS}",
            evidence={"epsilon": epsilon, "max_privacy_loss": tally.worst.value * epsilon,
                      "analytic_upper_bound_over_epsilon": 2 * k, "thetas": thetas, "profile": ctx.profile})

    return check


def register(registry):
    """Register the four privacy claims (Algorithms 1-2, printed and standard)."""
    claim = registry.add_claim
    for alg, thm, expo in ((1, "Thm. 1", "exp(-n iota eps L-hat / log 2)"),
                           (2, "Thm. 2", "exp(-n iota eps L-hat / log theta)")):
        claim(Claim(f"wang-xu.alg{alg}.privacy.printed", f"[000 Alg. {alg}] [000 {thm}]",
                    f"Algorithm {alg} with output probability proportional to {expo} is eps-DP.",
                    "privacy", privacy_check(alg, "printed"), algorithm=f"wang-xu-{alg}", variant="printed"))
        claim(Claim(f"wang-xu.alg{alg}.privacy.standard", f"[000 Def. 2] [000 {thm}]",
                    f"Algorithm {alg} calibrated as exp(eps u / (2 Delta)), u = -L-hat, Delta = 2 log theta/(n iota) "
                    f"(the sensitivity of the proof of {thm.replace('Thm.', 'Theorem')}), is eps-DP.",
                    "privacy", privacy_check(alg, "standard"), algorithm=f"wang-xu-{alg}", variant="standard"))
