"""Exact privacy of Algorithms 1-2 of Wang & Xu (000) [000 Thm. 1] [000 Thm. 2], under both neighbouring relations.

Step 2 of [000 Alg. 1] (of [000 Alg. 2]) outputs a net point ``w`` with probability proportional to
``exp(-n iota eps L-hat(w, D) / log theta)`` (``theta = 2`` for Algorithm 1): the ``printed``
variant.  The ``standard`` variant is the exponential mechanism of [000 Def. 2],
``exp(eps u / (2 Delta))`` with ``u = -L-hat`` and the sensitivity ``Delta = 2 log theta / (n iota)``
of the proofs of Theorems 1-2; the ``calibrated`` variant uses the true replace-one sensitivity
``log theta / (n iota)``.  With ``S = n iota L-hat = sum_i psi_i >= 0`` the log-weight is
``-k eps S / log theta`` with ``k = 1, 1/4, 1/2``.

Neighbouring relations.  [000 Def. 1] calls datasets neighbours "if they differ by only one entry"
and every sensitivity in the paper is over datasets of the same size ``n``: replace-one, the
paper's relation.  Over it the loss is at most ``2 k eps`` (printed: ``2 eps``, not eps-DP).  Over
add/remove neighbours (one record added or removed, ``iota`` a fixed input) every log-weight moves
in the same direction by at most ``k eps`` and the log-normaliser in the other, so the loss is at
most ``k eps``: the printed weight is exactly eps-DP there.  Both relations are checked exactly, at
several epsilons.
"""

from __future__ import annotations

import numpy as np

from reference.wang_xu.l1_regression import EXPONENT_FACTORS, make_mechanism

from ...builders import PrivacyTally
from ...builders import with_power_note as _with_power_note
from ...model import Claim, Mutant
from ._common import RELATIONS, VARIANTS, datasets, exact_instances, replacement_candidates

__all__ = ["EPSILONS", "privacy_check", "register"]

#: The epsilons of every privacy check (the loss over eps depends on eps through the normaliser).
EPSILONS = (0.1, 1.0, 8.0)


def _neighbour_laws(mech, terms, cand_terms, relation):
    """Yield ``(where, log-laws (m, K))`` of the neighbours of the dataset whose per-row terms are ``terms``.

    replace-one: row ``i`` replaced by each candidate; add/remove: row ``i`` removed (one law) and,
    once, each candidate added.
    """
    total = terms.sum(axis=0)
    for i in range(terms.shape[0]):
        if relation == "replace-one":
            yield {"row": i, "change": "replace"}, mech.log_prob_from_terms(total - terms[i] + cand_terms)
        else:
            yield {"row": i, "change": "remove"}, mech.log_prob_from_terms((total - terms[i])[None, :])
    if relation == "add-remove":
        yield {"change": "add"}, mech.log_prob_from_terms(total + cand_terms)


def privacy_check(
    algorithm=1,
    variant="printed",
    epsilon=None,
    theta=None,
    exponent_scale=1.0,
    mechanism_factory=make_mechanism,
    relation="replace-one",
):
    """Check factory: Algorithm ``algorithm`` (``variant``) is eps-DP over ``relation``, exactly on small instances.

    For each eps of ``epsilon`` (default :data:`EPSILONS`; one float or a tuple), instance (net,
    iota, n) of :func:`~._common.exact_instances` and dataset ``D`` of :func:`~._common.datasets`,
    every neighbour of ``D`` (``relation``: ``"replace-one"``, each row replaced by each candidate of
    :func:`~._common.replacement_candidates`; ``"add-remove"``, each row removed and each candidate
    added) is rescored through the mechanism's ``score_terms`` and its exact output law compared with
    that of ``D`` (:class:`~proofs_checks.builders.PrivacyTally`).  Algorithm 2 is checked at
    ``theta`` (default 1.5 and 1.1).  ``exponent_scale`` multiplies the log-weights (a broken
    mechanism for the tests).
    """
    if relation not in RELATIONS:
        raise ValueError(f"relation must be one of {sorted(RELATIONS)}, got {relation!r}")
    epsilons = EPSILONS if epsilon is None else tuple(np.atleast_1d(epsilon).tolist())

    def check(ctx):
        rng = ctx.rng()
        tallies = {}
        thetas = [2.0] if algorithm == 1 else ([theta] if theta is not None else [1.5, 1.1])
        for eps in epsilons:
            tally = tallies[eps] = PrivacyTally()
            for th in thetas:
                for dim, zeta, iota, n in exact_instances(ctx.profile):
                    kw = {} if algorithm == 1 else {"theta": th}
                    mech = mechanism_factory(
                        algorithm, variant=variant, epsilon=eps, dim=dim, radius=1.0, zeta=zeta, iota=iota, **kw
                    )
                    pts = mech.outputs
                    cands = replacement_candidates(pts, rng)
                    cand_terms = exponent_scale * mech.score_terms(cands)
                    instance = {
                        "epsilon": eps,
                        "theta": th,
                        "dim": dim,
                        "zeta": zeta,
                        "iota": iota,
                        "n": n,
                        "net_size": int(pts.shape[0]),
                    }
                    for D in datasets(pts, n, rng):
                        terms = exponent_scale * mech.score_terms(D)
                        logp = mech.log_prob_from_terms(terms.sum(axis=0))
                        for where, logq in _neighbour_laws(mech, terms, cand_terms, relation):
                            # Every log-probability is finite (each log-weight lies in [-n k eps, 0]), so
                            # max |logq - logp| over outputs is each neighbour's exact privacy loss: the
                            # worst is found at once and tallied by the auditor's exact function.
                            c = int(np.argmax(np.max(np.abs(logq - logp), axis=1)))
                            extra = {"candidate": [float(v) for v in cands[c]]} if logq.shape[0] > 1 else {}
                            tally.add(logp, logq[c], eps, where={**instance, **where, **extra})
                            tally.pairs += logq.shape[0] - 1  # the other neighbours, screened above
        per_eps = {eps: t.worst.value for eps, t in tallies.items()}
        tally = max(tallies.values(), key=lambda t: t.worst.value)
        pairs = sum(t.pairs for t in tallies.values())
        tally.pairs = pairs
        k = EXPONENT_FACTORS[variant] * exponent_scale
        analytic = (2 if relation == "replace-one" else 1) * k
        alg = f"[000 Alg. {algorithm}]"
        log_theta = "log 2" if algorithm == 1 else "log theta"
        score = {
            "printed": f"exp(-n iota eps L-hat(w, D) / {log_theta}), the printed exponent of step 2",
            "standard": "exp(eps u / (2 Delta)), u = -L-hat, Delta = 2 log theta / (n iota) [000 Def. 2]",
            "calibrated": "exp(eps u / (2 Delta)), u = -L-hat, Delta = log theta / (n iota) (the true "
            "replace-one sensitivity) [000 Def. 2]",
        }[variant]
        other = "add-remove" if relation == "replace-one" else "replace-one"
        return tally.result(
            method="exact output laws over the whole net (log-sum-exp), for each dataset and every neighbour "
            f"({relation}) built from the candidate records; eps in {list(epsilons)}; profile {ctx.profile}",
            reading=f"{alg} with psi of [000 eq. ({6 if algorithm == 1 else 16})], output probability {score}; "
            f"eps-DP as in [000 Def. 1] over {RELATIONS[relation]}.  Analytic loss bound "
            f"{analytic:g} eps over {relation} and {(1 if relation == 'replace-one' else 2) * k:g} eps "
            f"over {other} (claim ...{'.add-remove' if other == 'add-remove' else ''} of the same variant)",
            evidence={
                "epsilons": list(epsilons),
                "max_loss_over_eps_per_epsilon": per_eps,
                "analytic_upper_bound_over_epsilon": analytic,
                "relation": relation,
                "thetas": thetas,
                "profile": ctx.profile,
            },
        )

    return check


_EXPONENTS = {1: "exp(-n iota eps L-hat / log 2)", 2: "exp(-n iota eps L-hat / log theta)"}


def _statement(alg, variant, relation):
    thm = f"Theorem {alg}"
    what = {
        "printed": f"Algorithm {alg} with output probability proportional to {_EXPONENTS[alg]}",
        "standard": f"Algorithm {alg} calibrated as exp(eps u / (2 Delta)), u = -L-hat, "
        f"Delta = 2 log theta/(n iota) (the sensitivity of the proof of {thm})",
        "calibrated": f"Algorithm {alg} calibrated to the true sensitivity log theta/(n iota), "
        "exp(-n iota eps L-hat / (2 log theta))",
    }[variant]
    rel = (
        "replace-one neighbours (same n, one entry differs: the relation of [000 Def. 1])"
        if relation == "replace-one"
        else "add/remove neighbours (one record added or removed, iota fixed)"
    )
    return f"{what} is eps-DP over {rel}."


def privacy_mutants(alg, variant, relation):
    """Log-weights scaled (the mechanism's eps / sensitivity mis-calibrated): x2 is a 2x over-spend.

    x8 is added where the exact loss stays within eps up to x4 (standard weight over add/remove).
    """
    factors = (1.25, 2.0, 4.0) + ((8.0,) if 1.0 / _analytic_loss(variant, relation) >= 4.0 else ())
    return tuple(
        Mutant(
            f"log-weight x{f:g} ({f:g}x over-spend)",
            privacy_check(alg, variant, relation=relation, exponent_scale=f),
            factor=f,
            not_a_violation=mutant_proof(alg, variant, relation, f),
        )
        for f in factors
    )


def mutant_proof(alg, variant, relation, factor):
    """The proof that the log-weight x ``factor`` mutant is still eps-DP over ``relation``, or ``""`` when it is not.

    Each record adds ``-k eps psi_i / log theta`` to every log-weight, in ``[-k eps, 0]`` because
    ``0 <= psi(iota |r|) <= log theta`` [000 eq. (6)] [000 eq. (16)]; scaled by ``f`` it lies in
    ``[-k f eps, 0]``.  Replace-one moves every log-weight by at most ``k f eps`` either way, the
    log-normaliser by as much: loss ``<= 2 k f eps``.  Add/remove moves every log-weight the same way
    by between 0 and ``k f eps``, and the log-normaliser within that range, so the loss is at most
    ``k f eps``.  Every net, iota, theta, n and dataset: not instance-specific.

    >>> mutant_proof(1, "standard", "replace-one", 2.0)[:40]
    'still eps-DP on every replace-one pair: '
    >>> mutant_proof(1, "standard", "replace-one", 4.0)
    ''
    """
    k = EXPONENT_FACTORS[variant]
    a = _analytic_loss(variant, relation)
    if a * factor > 1.0:
        return ""
    eq = "(6)" if alg == 1 else "(16)"
    theta = "log 2" if alg == 1 else "log theta"
    how = (
        "moves every log-weight by at most k f eps either way and the log-normaliser by as much, so the loss is "
        "at most 2 k f eps"
        if relation == "replace-one"
        else "moves every log-weight the same way by between 0 and k f eps (psi >= 0: an added record only lowers "
        "weights) and the log-normaliser within that range, so the loss is at most k f eps"
    )
    return (
        f"still eps-DP on every {relation} pair: the loss is at most {a * factor:g} eps.  Each record adds "
        f"-k eps psi(iota |r|) / {theta} to every log-weight [000 Alg. {alg} step 2], in [-k eps, 0] because "
        f"0 <= psi <= {theta} for a non-negative argument [000 eq. {eq}], with k = {k:g} for the {variant} "
        f"weight; the mutant scales it by f = {factor:g}; one {relation} change {how} = {a * factor:g} eps <= eps "
        "(every net, iota, theta, n and dataset: not instance-specific)"
    )


def _analytic_loss(variant, relation):
    """The exact worst loss over eps of the variant over ``relation`` (2k replace-one, k add/remove)."""
    return (2 if relation == "replace-one" else 1) * EXPONENT_FACTORS[variant]


def power_note(variant, relation):
    """Why the check misses a 2x over-spend, where it does (the power note of its mutants), else None.

    The loss over eps is exactly ``a = 2k`` (replace-one) or ``k`` (add/remove); with the log-weight
    x f it is ``a f``, so every f <= 1/a leaves the mechanism eps-DP: no sound check can catch it.
    """
    a = _analytic_loss(variant, relation)
    if 1.0 / a < 2.0:
        return None
    return (
        f"misses log-weight x{1.0 / a:g} and below, detects x{2.0 / a:g}: over {relation} neighbours the "
        f"{variant} weight's exact loss is {a:g} eps (attained on the checked instances), so with the "
        f"log-weight x f it is {a:g} f eps, within eps for every f <= {1.0 / a:g}: those mechanisms are still "
        "eps-DP and no sound check can catch them (the calibration carries that slack: "
        + "; ".join(
            ([] if variant != "standard" else ["Delta = 2 log theta/(n iota) is twice the true sensitivity"])
            + ([] if relation != "add-remove" else ["add/remove moves every log-weight the same way"])
        )
        + ")"
    )


def register(registry):
    """Register the privacy claims: Algorithms 1-2 x (printed, standard, calibrated) x (replace-one, add/remove).

    The replace-one ids keep their names (``wang-xu.alg1.privacy.printed``...); the add/remove claims
    end in ``.add-remove``.
    """
    for alg in (1, 2):
        for variant in VARIANTS:
            src = f"[000 Alg. {alg}] [000 Thm. {alg}]" if variant == "printed" else f"[000 Def. 2] [000 Thm. {alg}]"
            for relation, suffix in (("replace-one", ""), ("add-remove", ".add-remove")):
                registry.add_claim(
                    Claim(
                        f"wang-xu.alg{alg}.privacy.{variant}{suffix}",
                        src,
                        _statement(alg, variant, relation),
                        "privacy",
                        _with_power_note(privacy_check(alg, variant, relation=relation), power_note(variant, relation)),
                        algorithm=f"wang-xu-{alg}",
                        variant=variant,
                        mutants=privacy_mutants(alg, variant, relation),
                    )
                )
