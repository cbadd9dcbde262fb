"""Gray-box checks of [000 Thm. 1] and [000 Thm. 2] at realistic parameters, with mutants inside the algorithm.

Algorithm ``a`` (1 or 2) runs at ``n = 1000``, ``d = 1``, ``epsilon = 1`` with the paper's schedule
(``zeta = 1/n`` and ``iota`` of [000 eq. (7)] / [000 eq. (18)], ``eta = 0.1``, ``tau = 1``; ``theta = 1.5`` for
Algorithm 2) on heavy-tailed data (Student t, 3 degrees of freedom for the second moment of Algorithm 1, 2 for the
theta-th moment of Algorithm 2), over the net ``{-1, ..., 1}`` of spacing ``zeta``.  Its one privacy draw, step 2
(the exponential mechanism over the net), records the scores ``u = -S / log theta`` with ``S = n iota L-hat =
sum_i psi(iota |r_i|)``, the weight ``k eps`` of the variant and the budget ``eps``
(:mod:`reference.wang_xu._l1_sampling`).

The proof step, from the paper's formulas.  ``0 <= psi <= log theta`` ([000 eq. (6)], [000 eq. (16)]; the text
after eq. (6) bounds psi by ``log 2``), so replacing one record moves ``L-hat`` by at most ``log theta / (n iota)``
and ``u`` by at most 1 (``n iota / log theta`` times it); adding or removing one moves every ``u`` the same way by
at most 1 (one-sided).  The proofs of Theorems 1-2 state twice that, ``2 log theta / (n iota)``, which is what the
``standard`` variant's weight is calibrated to; the check takes the smaller bound, at which the exponential
mechanism's loss ``2 k eps`` (replace-one) or ``k eps`` (add/remove, one-sided) is exact and attained
(:mod:`.privacy`), so calibration agrees with the exact claims on every variant: ``printed`` spends 2 eps over
replace-one (the printed-weight finding) and eps over add/remove.  The per-call budget is ``eps``
([000 Def. 2]: one draw).

Mutants, each an injected fault at the call site [000 Alg. a step 2]: the Gumbel-max noise scale x0.5 (the same
law as the log-weights x2, the sampler's scale being ``1 / (k eps)``), the declared sensitivity x0.5 (the
declaration only), the per-step budget x2 (the scorer built at ``2 eps``) and the selection weight x1.5.  A mutant
whose exact loss stays within eps is marked ``not_a_violation`` with :func:`.privacy.mutant_proof`'s proof.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from reference.wang_xu import _l1_sampling
from reference.wang_xu._l1_parameters import theorem1_parameters, theorem2_parameters
from reference.wang_xu.l1_regression import EXPONENT_FACTORS, algorithm1, algorithm2
from reference.wang_xu.nets import BoxNet

from ...audit.gray_box.calibration import ProofStep
from ...model import Claim
from .._gray_box import (
    GrayBoxDesign,
    basic_composition,
    fault_mutant,
    gray_box_check,
    halved_declaration,
    rewrite_call,
)
from ._common import RELATIONS, THETA2, VARIANTS
from .privacy import mutant_proof

__all__ = ["GRAY_BOX", "design", "mutants", "register", "proof_sensitivity"]

#: The instance of every gray-box claim of 000 (quick and full alike: one run costs about 1 ms).
GRAY_BOX = {"n": 1000, "d": 1, "epsilon": 1.0, "eta": 0.1, "tau": 1.0, "paths": 50, "search_budget": 40}

#: The relations as the statements write them.
RELATION_WORDS = {"replace-one": "replace-one", "add-remove": "add/remove"}

#: Degrees of freedom of the Student t features and noise: a finite second moment (Algorithm 1) or only moments
#: below 2 (Algorithm 2, theta = 1.5).
_DF = {1: 3.0, 2: 2.0}


def proof_sensitivity(n, iota, theta):
    """Replace-one sensitivity of the recorded scores ``u = -(n iota / log theta) L-hat`` from the paper's bounds.

    ``0 <= psi <= log theta`` ([000 eq. (6)], [000 eq. (16)]): one of the ``n`` terms of ``n iota L-hat`` moves by at
    most ``log theta``, so ``L-hat`` by ``log theta / (n iota)``; in the units of ``u`` that is ``1``.

    >>> round(proof_sensitivity(1000, 0.1, 2.0), 12)
    1.0
    """
    log_theta = math.log(theta)
    return (log_theta / (n * iota)) * (n * iota / log_theta)


def _schedule(alg, n, d, eps, eta, tau):
    if alg == 1:
        return 2.0, theorem1_parameters(n, d, eps, eta, tau)
    return THETA2, theorem2_parameters(n, d, eps, eta, tau, theta=THETA2)


@functools.lru_cache(maxsize=None)
def design(alg, variant, relation, profile="quick"):
    """The :class:`~proofs_checks.claim_sets._gray_box.GrayBoxDesign` of ``wang-xu.alg<alg>.privacy.gray-box.*``."""
    p = GRAY_BOX
    n, d, eps = p["n"], p["d"], p["epsilon"]
    theta, schedule = _schedule(alg, n, d, eps, p["eta"], p["tau"])
    zeta, iota = schedule["zeta"], schedule["iota"]
    net = BoxNet(-1.0, 1.0, zeta=zeta, dim=d)
    df = _DF[alg]

    def data(rng):
        x = rng.standard_t(df, size=(n, d))
        return np.column_stack([x, x @ np.full(d, 0.5) + rng.standard_t(df, size=n)])

    def algorithm(records, rng):
        X, y = records[:, :-1], records[:, -1]
        if alg == 1:
            return algorithm1(X, y, net, eps, iota, variant=variant, rng=rng)
        return algorithm2(X, y, net, eps, iota, theta, variant=variant, rng=rng)

    site = f"[000 Alg. {alg} step 2]"
    sensitivity = proof_sensitivity(n, iota, theta)
    one_sided = relation == "add-remove"

    def proof_step(call):
        if call.site != site:
            return None
        return ProofStep(sensitivity, "linf", eps, one_sided=one_sided, source=f"[000 eq. ({6 if alg == 1 else 16})]")

    k = EXPONENT_FACTORS[variant]
    return GrayBoxDesign(
        algorithm=algorithm,
        data=data,
        epsilon=eps,
        delta=0.0,
        relation=relation,
        proof_step=proof_step,
        accounting=lambda calls: basic_composition(calls, proof_step, lambda call: "D", parallel=False),
        paths=p["paths"],
        search_budget=p["search_budget"],
        parameters={
            "n": n,
            "d": d,
            "epsilon": eps,
            "theta": theta,
            "zeta": zeta,
            "iota": iota,
            "net_size": net.size,
            "schedule": f"[000 eq. ({7 if alg == 1 else 18})], eta = {p['eta']}, tau = {p['tau']}",
            "data": f"Student t with {df:g} degrees of freedom, w* = 0.5",
            "k": k,
            "proof_sensitivity_of_u": sensitivity,
        },
        reading=f"[000 Alg. {alg}] [000 Thm. {alg}], the {variant} weight exp(-k eps S / log theta), k = {k:g}; "
        f"eps-DP as in [000 Def. 1] over {RELATIONS[relation]}; proof step: replace-one sensitivity "
        "log theta/(n iota) of L-hat (0 <= psi <= log theta; the proof states twice that), "
        + ("one-sided over add/remove, " if one_sided else "")
        + "one draw at budget eps [000 Def. 2]; verdict of the transcript (one selection: the released output); "
        "the other relation's gray-box claim is "
        + (
            f"wang-xu.alg{alg}.privacy.gray-box.{variant}"
            if one_sided
            else f"wang-xu.alg{alg}.privacy.gray-box.{variant}.add-remove"
        ),
    )


def _scorer_fault(epsilon_factor=1.0, weight_factor=1.0):
    """A replacement factory for ``_l1_sampling._Scorer``: built at ``epsilon_factor`` eps, weight x ``weight_factor``."""

    def factory(original):
        def broken(X, y, epsilon, iota, theta, variant):
            scorer = original(X, y, epsilon_factor * epsilon, iota, theta, variant)
            scorer.k_eps *= weight_factor
            return scorer

        return broken

    return factory


def mutants(alg, variant, relation):
    """The four call-site mutants of [000 Alg. ``alg`` step 2], with their proofs where still eps-DP."""
    site = f"[000 Alg. {alg} step 2]"
    factory = functools.partial(design, alg, variant, relation)
    out = []
    for name, fault, f in (
        ("noise scale x0.5 (Gumbel-max scale 1/(k eps) halved: log-weights x2)", _scorer_fault(weight_factor=2.0), 2.0),
        ("per-step budget x2 (the scorer built at 2 eps)", _scorer_fault(epsilon_factor=2.0), 2.0),
        ("selection weight x1.5", _scorer_fault(weight_factor=1.5), 1.5),
    ):
        out.append(
            fault_mutant(
                f"{site} {name}",
                factory,
                [(_l1_sampling, "_Scorer", fault)],
                factor=f,
                not_a_violation=mutant_proof(alg, variant, relation, f),
            )
        )
    out.append(
        fault_mutant(
            f"{site} declared sensitivity x0.5",
            factory,
            [(_l1_sampling, "record_call", rewrite_call(site, halved_declaration))],
            factor=0.5,
        )
    )
    return tuple(out)


def register(registry):
    """Register ``wang-xu.alg<a>.privacy.gray-box.<variant>[.add-remove]``: 2 algorithms x 3 variants x 2 relations."""
    for alg in (1, 2):
        for variant in VARIANTS:
            for relation, suffix in (("replace-one", ""), ("add-remove", ".add-remove")):
                registry.add_claim(
                    Claim(
                        f"wang-xu.alg{alg}.privacy.gray-box.{variant}{suffix}",
                        f"[000 Alg. {alg}] [000 Thm. {alg}]",
                        f"Algorithm {alg} ({variant} weight) is eps-DP over {RELATION_WORDS[relation]} neighbours, checked "
                        "gray-box "
                        "at n = 1000 on the paper's schedule: its draw calibrated at the proof's sensitivity.",
                        "privacy",
                        gray_box_check(functools.partial(design, alg, variant, relation)),
                        algorithm=f"wang-xu-{alg}",
                        variant=variant,
                        mutants=mutants(alg, variant, relation),
                    )
                )
