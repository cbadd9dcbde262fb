"""Add/remove privacy of Algorithms 1-2 of Wang & Xu (000) when zeta and iota follow the theorems' schedule in n.

The claims ``wang-xu.alg{1,2}.privacy.printed.add-remove`` (:mod:`.privacy`) take ``zeta``, ``iota`` and the net as
fixed inputs, as the Input line of [000 Alg. 1] / [000 Alg. 2] does; then the printed weight loses exactly eps.  The
theorems instead set ``zeta = 1/n`` and ``iota`` as a function of ``n`` ([000 eq. (7)], [000 eq. (18)]).  Under
add/remove neighbours the two datasets have sizes ``n`` and ``n + 1``, so (reading ``schedule``) the mechanisms run
on different nets: a point of the ``1/n``-grid that is not on the ``1/(n+1)``-grid has positive probability under
one dataset and zero under the other, an infinite privacy loss.  Reading ``iota-schedule`` keeps the net of size-n
data fixed and lets only ``iota`` follow ``n``: the loss is finite but is measured, not bounded by the proof.

Exact output laws (log-sum-exp over the whole net), d = 1, W = [-1, 1], eta = 0.1, eps in {0.1, 1, 8}.
"""

from __future__ import annotations

import numpy as np

from reference.wang_xu.l1_regression import make_mechanism, theorem1_parameters, theorem2_parameters

from ...model import Claim, Mutant, Result
from ._common import ETA, THETA2, datasets, replacement_candidates, setup_for

__all__ = ["schedule_check", "register"]

_EPSILONS = (0.1, 1.0, 8.0)
_SIZES = (6, 9)


def _iota(alg, n, eps):
    tau = setup_for(alg).tau
    if alg == 1:
        return theorem1_parameters(n, 1, eps, ETA, tau)["iota"]
    return theorem2_parameters(n, 1, eps, ETA, tau, THETA2)["iota"]


def _mechanism(alg, n, eps, zeta_n):
    kw = {} if alg == 1 else {"theta": THETA2}
    return make_mechanism(alg, "printed", eps, dim=1, radius=1.0, zeta=1.0 / zeta_n, iota=_iota(alg, n, eps), **kw)


def _loss(pts_a, logp, pts_b, logq):
    """Largest |log p(w) - log q(w)| over the union of the supports (inf where only one law puts mass)."""
    a = {round(float(w), 12): float(v) for w, v in zip(pts_a[:, 0], logp)}
    b = {round(float(w), 12): float(v) for w, v in zip(pts_b[:, 0], logq)}
    worst, at = 0.0, None
    for w in set(a) | set(b):
        loss = abs(a[w] - b[w]) if (w in a and w in b) else float("inf")
        if loss > worst:
            worst, at = loss, w
    return worst, at


def schedule_check(alg, reading="schedule", same_iota=False):
    """Check factory: Algorithm ``alg``'s printed weight over add/remove neighbours with n-dependent parameters.

    ``reading``: ``"schedule"`` (zeta = 1/n and iota(n): the net and iota follow the size of the data) or
    ``"iota-schedule"`` (the net of size-n data, iota(n) and iota(n + 1)).  ``same_iota`` uses iota(n) for both
    sizes with the size-n net (the fixed-input reading, a control that must be confirmed).
    ``observed`` is the largest loss / eps.
    """

    def check(ctx):
        rng = ctx.rng()
        worst, where = 0.0, None
        per_eps = {}
        sizes = _SIZES[:1] if ctx.profile == "quick" else _SIZES
        for eps in _EPSILONS:
            if worst == float("inf"):  # one output outside the other support settles it
                continue
            per_eps[eps] = 0.0
            for n in sizes:
                small = _mechanism(alg, n, eps, n)
                if reading == "schedule":
                    large = _mechanism(alg, n + 1, eps, n + 1)
                else:
                    large = _mechanism(alg, n if same_iota else n + 1, eps, n)
                cands = replacement_candidates(small.outputs, rng)
                for D in datasets(small.outputs, n, rng) if worst < float("inf") else ():
                    logp = small.log_prob_from_terms(small.score_terms(D).sum(axis=0))
                    base = large.score_terms(D).sum(axis=0)
                    logq_all = large.log_prob_from_terms(base + large.score_terms(cands))
                    for c in range(cands.shape[0]):
                        loss, at = _loss(small.outputs, np.atleast_2d(logp)[0], large.outputs, logq_all[c])
                        per_eps[eps] = max(per_eps[eps], loss / eps)
                        if loss / eps > worst:
                            worst = loss / eps
                            where = {"epsilon": eps, "n": n, "added": [float(v) for v in cands[c]], "output": at}
                        if worst == float("inf"):
                            break
        holds = worst <= 1 + 1e-9
        return Result(
            "confirmed" if holds else "refuted",
            observed=worst,
            bound=1.0,
            direction="at_most",
            method=f"exact output laws over the nets, d = 1, W = [-1, 1], n in {list(sizes)} and n + 1, eps in "
            f"{list(_EPSILONS)}; the datasets of the privacy claims, each with every candidate record added",
            reading=f"[000 Alg. {alg}] printed weight, eps-DP of [000 Def. 1] over add/remove neighbours (sizes n and "
            "n + 1) with "
            + {
                "schedule": "zeta = 1/n and iota(n) of [000 Thm. %d] (O-constants 1): each dataset gets the net and "
                "iota of its own size" % alg,
                "iota-schedule": "the net of size-n data kept and iota(n) / iota(n + 1) of [000 Thm. %d]" % alg,
            }[reading]
            + ("; control: iota(n) for both" if same_iota else "")
            + "; observed = largest loss / eps (inf: an output possible under one dataset only)",
            evidence={
                "note": f"reading {reading}",
                "worst_at": where,
                "cases": [{"epsilon": k, "max_loss_over_eps": v} for k, v in per_eps.items()],
            },
            evidence_kind="bound_search",
        )

    return check


def register(registry):
    """Register the ``schedule`` reading for Algorithms 1 and 2.

    The ``iota-schedule`` reading is not registered: on the quick instances its exact loss over eps is 0.95-1.07
    depending on the datasets a seed draws (Algorithm 2: 1.000 on one seed, 1.036 on another), so its verdict
    would flip with the seed; :func:`schedule_check` computes it on request.
    """
    for alg in (1, 2):
        for reading in ("schedule",):
            mutants = (
                Mutant(
                    "the size-n net and iota(n) for both datasets (the fixed-input reading; must be confirmed)",
                    schedule_check(alg, "iota-schedule", same_iota=True),
                    detected_by=("confirmed",),
                ),
            )
            registry.add_claim(
                Claim(
                    f"wang-xu.alg{alg}.privacy.printed.add-remove.{reading}",
                    f"[000 Alg. {alg}] [000 Thm. {alg}]",
                    f"Algorithm {alg} with the printed weight is eps-DP over add/remove neighbours when "
                    + (
                        "zeta = 1/n and iota follow the theorem's schedule in n."
                        if reading == "schedule"
                        else "iota follows the theorem's schedule in n (the net fixed)."
                    ),
                    "privacy",
                    schedule_check(alg, reading),
                    algorithm=f"wang-xu-{alg}",
                    variant="printed",
                    mutants=mutants,
                )
            )
