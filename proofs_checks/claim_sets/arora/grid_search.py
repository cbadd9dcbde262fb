"""Privacy of Private Grid Search [004 Alg. 1], [004 Thm. 1]: the GEM step and the composition.

The GEM step [004 Alg. 1 step 8] selects among the pairs ``(0, Y^2)``, ``(gamma_j, L~_j)``
with ``gamma_j = Delta(B_j)`` as printed, or ``Delta(B_j)/|S_2|`` (the sensitivity of an
average over ``S_2``) in the standard reading.  Neighbouring datasets replace one record
of ``S_2``: the fragment has no formal definition of DP; the proof of [004 Lemma D.4] says "S and S'
differ in only one point" and GEM [004 App. D.1] speaks of "adjacent datasets", both read as
replace-one (same size n).
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from reference.arora.data import glm_loss, sample_records
from reference.arora.learners import (
    lipschitz_constant,
    noisy_gd_sigma,
    output_perturbation_sensitivity,
    output_perturbation_sigma,
)
from reference.arora.model_selection import fit_candidates, grid_guesses, grid_search_pairs, split_in_two
from reference.mechanisms import gaussian_exact_delta, gem_log_prob

from ...builders import PrivacyTally, WorstCase, max_search_check
from ...model import Claim, Mutant
from ._common import domain_candidates, grid_configs, scaled_mutants, with_power

__all__ = ["thm1_gem_step_privacy_check", "thm1_composition_check", "register"]

NEIGHBOURS = (
    "replace-one neighbours of S2 (the proof of [004 Lemma D.4]: 'S and S' differ in only one point'; "
    "the fragment has no formal DP definition)"
)


def _adversarial_plans(cand, S2, recs, loss, L, K):
    """``(candidates, rows of S2 to replace, replacement records)`` of the search.

    The trained candidates with the first rows of ``S_2`` replaced by every domain record, and
    adversarial candidate sets with ``||w_j|| = B_j`` along ``+-e_1`` (every sign pattern in the
    full profile) with row 0 set to the record of smallest loss (marked ``"low"``) and replaced by
    the records of largest loss.
    """
    d = S2.shape[1] - 1
    u = np.eye(d)[0]
    signs = np.array(np.meshgrid(*[[1.0, -1.0]] * K)).reshape(K, -1).T  # (2^K, K)
    adv_sets = [(sg * grid_guesses(K))[:, None, None] * u for sg in signs]  # ||w_j|| = B_j, +-u
    adv_recs = np.vstack(
        [
            recs,
            np.append(u, -1.0 if loss == "logistic" else -L.y_bound),
            np.append(-u, 1.0 if loss == "logistic" else L.y_bound),
        ]
    )
    return [(cand, range(min(3, S2.shape[0])), recs)] + [(a, ("low",), adv_recs) for a in adv_sets]


def thm1_gem_step_privacy_check(variant="standard", sens_factor=1.0, epsilon=1.0, delta=1e-5, beta=0.1):
    """Exact GEM-step privacy loss of [004 Alg. 1] for neighbouring ``S_2`` (candidates fixed).

    For each configuration, candidates are trained once on ``S_1``; every row of a few rows of
    ``S_2`` is replaced by every adversarial domain record; the exact GEM distributions of the
    two datasets are compared (``max |log p - log q| <= epsilon/2``).  ``sens_factor`` scales the
    sensitivities passed to GEM (0.4 = deliberately broken).
    """

    def check(ctx):
        tally, assumption_fail = PrivacyTally(), 0
        for inst in gem_step_instances(ctx.profile, ctx.rng(), epsilon, delta, beta, variant):
            loss, L, LB, n, S2, cand, sens, recs = (
                inst[k] for k in ("loss", "learner", "loss_bound", "n", "S2", "candidates", "sens", "records")
            )
            # [004 Assumption 1]: no loss of a candidate on S2 or on a replacement record reaches Delta(B_j)
            loss_bounds = sens[1:] * (S2.shape[0] if variant == "standard" else 1.0)
            lmax = glm_loss(cand[:, 0], np.vstack([S2, recs]), loss).max(axis=1)
            assumption_fail += int(np.sum(lmax > loss_bounds))
            for plan, (cset, S2a, rows, rset) in enumerate(inst["bases"]):
                # S2a and all its neighbours in one GEM call: each row of the batched law is bit for bit the
                # law of that row alone ([004 App. D.1] rows are independent), and add_rows takes the same
                # maximum as one add per pair
                where = [(int(row), i) for row in rows for i in range(len(rset))]
                datasets = [S2a]
                for row, i in where:
                    S2b = S2a.copy()
                    S2b[row] = rset[i]
                    datasets.append(S2b)
                laws = _gem_log_prob_many(cset, datasets, LB, n, epsilon, delta, beta, variant, sens_factor)
                tally.add_rows(
                    laws,
                    epsilon / 2,
                    where_of=lambda j, plan=plan, where=where: {
                        "loss": loss,
                        "learner": type(L).__name__,
                        "plan": plan,
                        "row": where[j][0],
                        "record": where[j][1],
                    },
                )
        return tally.result(
            method="exact GEM log-probabilities of neighbouring S2 (candidates trained once on S1), "
            "both losses and both base learners",
            reading=f"[004 Alg. 1 step 8], [004 Thm. 1]: GEM at epsilon/2 = {epsilon / 2} with pairs (0, Y^2), "
            f"({'Delta(B_j)' if variant == 'printed' else 'Delta(B_j)/|S2|'}, L~_j) is epsilon/2-DP in "
            f"S2; {NEIGHBOURS}",
            quantity="largest GEM privacy loss / (epsilon/2)",
            evidence={"epsilon_gem": epsilon / 2, "assumption1_events_failed": assumption_fail, "variant": variant},
        )

    return check


def gem_step_instances(profile, rng, epsilon=1.0, delta=1e-5, beta=0.1, variant="standard"):
    """The instances of :func:`thm1_gem_step_privacy_check`, one dict per configuration of ``grid_configs``.

    Keys: ``loss``, ``learner``, ``loss_bound`` (the learner with ``Delta(B_j)`` memoised), ``n``, ``S2``,
    ``candidates`` (trained on ``S_1``, shape ``(K, 1, d)``), ``sens`` (GEM's sensitivities), ``records`` (the
    replacement records) and ``bases``: ``(candidate set, base S2, rows replaced, replacement records)`` per
    plan of the search.  ``rng`` is drawn in the check's order (records, training, replacement records), so a
    proof recomputed from the claim's seed sees the check's own instances.
    """
    for loss, p, L, n, K in grid_configs(profile):
        LB = _MemoLossBound(L)  # Delta(B_j) once per configuration, not once per neighbour
        z = sample_records(p, n, rng)
        S1, S2 = split_in_two(z)
        cand = fit_candidates(S1, L, K, epsilon, delta, 1, rng)
        sens, _ = grid_search_pairs(cand, S2, LB, n=n, epsilon=epsilon, delta=delta, beta=beta, variant=variant)
        recs = domain_candidates(z.shape[1] - 1, loss, 1.0, L.y_bound, rng, 16)
        plans = _adversarial_plans(cand, S2, recs, loss, L, K)
        if profile == "quick":  # two sign patterns (all +, all -) of the adversarial sets
            plans = plans[:2] + plans[-1:]
        d = z.shape[1] - 1
        low = np.append(np.eye(d)[0], 1.0) if loss == "logistic" else np.zeros(d + 1)
        bases = []
        for cset, rows, rset in plans:
            S2a = S2.copy()
            if rows == ("low",):
                S2a[0] = low
                rows = (0,)
            bases.append((cset, S2a, rows, rset))
        yield {
            "loss": loss,
            "learner": L,
            "loss_bound": LB,
            "n": n,
            "S2": S2,
            "candidates": cand,
            "sens": sens,
            "records": recs,
            "bases": bases,
        }


class _MemoLossBound:
    """The learner ``L`` with ``loss_bound`` memoised: ``Delta(B_j)`` depends on the candidates' radii, ``n``
    and the privacy parameters only, never on ``S2``, yet every neighbouring ``S2`` of the search asks for it
    (about 40 % of the check's time in scipy's isf).  The values are those of ``L.loss_bound``, bit for bit.
    """

    def __init__(self, learner):
        self._learner = learner
        self._bounds = {}

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._learner, name)

    def loss_bound(self, *args, **kwargs):
        key = (args, tuple(sorted(kwargs.items())))
        if key not in self._bounds:
            self._bounds[key] = self._learner.loss_bound(*args, **kwargs)
        return self._bounds[key]


def _gem_log_prob_many(cset, datasets, L, n, epsilon, delta, beta, variant, sens_factor):
    """Exact GEM laws of [004 Alg. 1 step 8] on each ``S2`` of ``datasets`` (rows of the result), sensitivities
    scaled by ``sens_factor``, in one batched GEM call."""
    pairs = [
        grid_search_pairs(cset, S2, L, n=n, epsilon=epsilon, delta=delta, beta=beta, variant=variant) for S2 in datasets
    ]
    sens = pairs[0][0]
    if any(not np.array_equal(p[0], sens) for p in pairs):  # Delta(B_j) never depends on S2
        raise RuntimeError("GEM sensitivities differ between neighbouring S2")
    return gem_log_prob(sens * sens_factor, np.stack([p[1][0] for p in pairs]), epsilon / 2, beta / 4)


def composition_rows(
    sigma_factor=1.0, epsilon=1.0, delta=1e-5, beta=0.1, *, per_guess=2, target=1.0, accounting="parallel"
):
    """The accounting of :func:`thm1_composition_check` at each point of its grid: ``(value, where)`` rows.

    ``value`` is the larger of total epsilon / (target epsilon) and total delta / (target delta);
    ``where`` holds the totals (``delta_total`` is an upper bound on the delta of the whole algorithm at
    ``epsilon_total``: exact per-learner deltas, basic composition).
    """
    for K in (1, 3, 8, 16):
        for n in (200, 20000):
            for loss in ("squared", "logistic"):
                e_j, d_j = epsilon / (per_guess * K), delta / (per_guess * K)
                total_delta_op, total_delta_gd = 0.0, 0.0
                for B in grid_guesses(K):
                    lam = 0.05
                    sens = output_perturbation_sensitivity(loss, B, 1.0, 2.0, n // 2, lam)
                    s = sigma_factor * output_perturbation_sigma(loss, B, 1.0, 2.0, n // 2, lam, e_j, d_j)
                    total_delta_op += gaussian_exact_delta(e_j, s, sens)
                    T = 50
                    sg = 2 * lipschitz_constant(loss, B, 1.0, 2.0) / (n // 2)
                    s2 = sigma_factor * noisy_gd_sigma(loss, B, 1.0, 2.0, n // 2, T, e_j, d_j)
                    total_delta_gd += gaussian_exact_delta(e_j, s2 / math.sqrt(T), sg)
                eps_s1, eps_s2 = K * e_j, epsilon / 2
                fail = {"output-perturbation": 2 * K * min(delta, beta) / (4 * K), "noisy-gd": 0.0}
                for name, d_s1 in (("output-perturbation", total_delta_op), ("noisy-gd", total_delta_gd)):
                    if accounting == "parallel":
                        e_tot, d_tot = max(eps_s1, eps_s2), max(d_s1, fail[name])
                    else:
                        e_tot, d_tot = eps_s1 + eps_s2, d_s1 + fail[name]
                    yield (
                        max(e_tot / (target * epsilon), d_tot / (target * delta)),
                        {
                            "learner": name,
                            "K": K,
                            "n": n,
                            "loss": loss,
                            "epsilon_total": e_tot,
                            "delta_total": d_tot,
                            "delta_S1": d_s1,
                            "delta_S2": fail[name],
                        },
                    )


def composition_mutant_proof(sigma_factor, *, per_guess, target, accounting):
    """``not_a_violation`` of the learner-noise x ``sigma_factor`` mutant when its accounting stays within the
    target at every grid point, else ``""``."""
    rows = list(composition_rows(sigma_factor, per_guess=per_guess, target=target, accounting=accounting))
    worst_e = max(w["epsilon_total"] for _, w in rows) / target
    worst_d = max(w["delta_total"] for _, w in rows) / (target * 1e-5)
    if worst_e > 1.0 or worst_d > 1.0:
        return ""
    return (
        f"still within the target ({target:g} eps, {target:g} delta) at every grid point of the check (K in "
        "1, 3, 8, 16; n in 200, 20000; both losses and learners): the learners at noise x"
        f"{sigma_factor:g} keep their epsilon_j = eps / ({per_guess:g} K) and their exact deltas there "
        "(Balle & Wang for output perturbation; the Gaussian of T = 50 composed noisy-GD steps, exact) sum by "
        f"basic composition, with GEM at eps/2 on S2 and the Assumption-1 failure, to a total ({accounting} "
        f"accounting) of at most {worst_e:.4g} target epsilon and {worst_d:.3g} target delta -- an upper "
        "bound on the whole algorithm's delta at that epsilon; the noise x0.8 spends the slack of the "
        "classical Gaussian calibration at epsilon_j <= 1/2"
    )


def thm1_composition_check(
    sigma_factor=1.0, epsilon=1.0, delta=1e-5, beta=0.1, *, per_guess=2, target=1.0, accounting="parallel"
):
    """Privacy accounting of [004 Alg. 1] from exact per-learner deltas, sequential or parallel.

    The ``K`` learners run at ``(epsilon/(per_guess K), delta/(per_guess K))`` on ``S_1`` (exact
    deltas at their epsilons, basic composition): ``per_guess = 2`` is [004 Thm. 1]'s hypothesis,
    ``per_guess = 1`` the ``(epsilon/K, delta/K)`` of [004 Thm. 2].  GEM runs at ``epsilon/2`` on
    ``S_2`` and fails with probability at most ``2 K min(delta, beta)/(4K)`` ([004 Assumption 1] on
    ``S_2`` and on ``S_2'``).  ``accounting="parallel"``: ``S_1``, ``S_2`` disjoint, the total is the
    larger of the two parts; ``"sequential"``: their sum (the count of [004 App. D.2]).  The check is
    the largest of total epsilon / (target epsilon) and total delta / (target delta) over a grid of
    ``K``, ``n``, loss and learner; ``target`` scales the stated ``(epsilon, delta)``.
    """
    if accounting not in ("parallel", "sequential"):
        raise ValueError(f"accounting must be 'parallel' or 'sequential', got {accounting!r}")

    def search(ctx):
        worst = WorstCase(0.0)
        for value, where in composition_rows(
            sigma_factor, epsilon, delta, beta, per_guess=per_guess, target=target, accounting=accounting
        ):
            worst.update(value, where)
        return worst.value, worst.where, worst.count

    return max_search_check(
        search,
        1.0,
        method=f"exact per-learner deltas (Balle & Wang; GDP composition of T = 50 noisy-GD steps), basic "
        f"composition over the K guesses on S1, GEM at epsilon/2 on S2, {accounting} accounting of the "
        f"two halves; grid of K, n, loss and learner",
        reading=f"[004 Alg. 1], [004 Thm. {1 if per_guess == 2 else 2}] privacy: learners at "
        f"(epsilon/{per_guess}K, delta/{per_guess}K), GEM at epsilon/2, [004 Assumption 1] failure on S2 "
        f"and S2'; target ({target} epsilon, {target} delta) = ({target * epsilon}, {target * delta}); "
        f"replace-one neighbours ([004 Lemma D.4] proof), S1 and S2 disjoint, {accounting} composition"
        + (
            "; reading: conditional on a DP base learner. Theorem 2's learner is boosted output perturbation, "
            "taken (eps/K, delta/K)-DP as the theorem assumes; that premise rests on [004 Thm. E]'s privacy, "
            "which fails at the printed sigma~ (arora.boosting.privacy at n = 400; .n-above-n0 at n >= n0; at "
            "Theorem 2's own setting the boosted learner's eps at delta/K is >= 7.38 against eps/K = 0.027: "
            "arora.thm2.privacy.unconditional, the unconditional reading); the clipped calibrated selection is "
            "eps-DP; the learners here are plain output perturbation and noisy GD at (eps/K, delta/K)"
            if per_guess == 1
            else ""
        ),
        evidence={
            "observed_is": "largest of total epsilon / target epsilon and total delta / target delta",
            "accounting": accounting,
            "per_guess": per_guess,
            "target": target,
        },
    )


#: Why the GEM step misses a halved sensitivity (measured, quick and full profile, default seed).
GEM_STEP_POWER = (
    "misses sensitivity x0.5 and x0.8, which are no violation on its instances (proven by branch and "
    "bound over every replace-one neighbour: at most 0.9922 / 0.9940 of epsilon/2 at x0.5, quick / "
    "full): on the scores a real S2 gives, the best pair (0, Y^2) carries nearly all of GEM's mass and "
    "its normalised score is pinned at 0, and a realisable record moves a score by at most "
    "(B_j X + Y)^2/|S2| "
    "< Delta(B_j)/|S2|, so GEM spends about half its budget (0.495 of epsilon/2 at x1 on the check's "
    "neighbours, at most 0.5725 on every neighbour at full); it detects sensitivity x0.25 (1.99)"
)
GEM_STEP_PRINTED_POWER = (
    "misses sensitivity x0.05: the printed sensitivities Delta(B_j) are |S2| times the "
    "sensitivity of the average, so the printed GEM step spends 0.034 of epsilon/2; it detects "
    "x0.02 (1.74)"
)
COMPOSITION_POWER = (
    "misses learner noise x0.8: at epsilon_j = epsilon/(2K) <= 1/2 the classical Gaussian "
    "calibration sqrt(2 log(1.25/delta))/epsilon has slack (exact delta below delta_j); the "
    "learners' own calibration claims catch x0.8"
)


#: Why the printed GEM step with its sensitivities scaled by ``f >= 1/|S2|`` is still eps/2-DP (its mutants' proof).
_GEM_STEP_PRINTED_PROOF = (
    "no violation: the printed GEM step declares Delta(B_j) for the average loss L~_j over S2, and under [004 "
    "Assumption 1] (which the check enforces: no loss on S2 or on a replacement record reaches Delta(B_j)) a "
    "replaced record moves L~_j by at most Delta(B_j)/|S2|; GEM is eps/2-DP whenever every score moves by at most "
    "its declared sensitivity ([004 App. D.1]), so declaring x{f:g} Delta(B_j) keeps it eps/2-DP as long as "
    "{f:g} >= 1/|S2|, i.e. on every instance with |S2| >= {need:d} (the check's S2 hold 20 records at quick, 100 "
    "at full); the pair (0, Y^2) has sensitivity 0 either way"
)


#: Largest GEM-step privacy loss / (eps/2) over *every* replace-one neighbour of the check's bases, sensitivities
#: x factor: certified upper bounds of a branch and bound (tests/test_power_reach_gem_step.py recomputes them),
#: rounded up at 4 digits; "seeds" is the largest over both profiles at the two extra run seeds verify uses.
_GEM_STEP_SUPREMUM = {
    0.5: {"quick": 0.9922, "full": 0.9940, "seeds": 0.9931},
    0.8: {"quick": 0.6190, "full": 0.8540, "seeds": 0.8459},
}

#: The run seed whose drawn instances the branch and bound covered.
_GEM_STEP_PROOF_SEED = 20261121

#: Why the standard GEM step with its sensitivities scaled by 0.5 or 0.8 is still eps/2-DP on the check's instances.
_GEM_STEP_PROOF = (
    "no violation on the check's instances: a branch and bound over the replacing record's whole domain (||x|| <= X "
    "= 1 in polar cells, |y| <= Y; logistic: the margins y<w, x> of the unit disc) bounds the exact GEM privacy loss "
    "max_i |log P(i) - log P'(i)| of every replace-one neighbour of every base S2 the check uses (every row; trained "
    "and adversarial candidate sets; both losses and learners) by certified interval bounds on the normalised "
    "scores and the log-normaliser: with sensitivities x{f:g} it is at most {quick:.4f} of eps/2 at quick and "
    "{full:.4f} at full (run seed 20261121; at most {seeds:.4f} at the two extra seeds verify runs), within "
    "1e-3 of eps/2 of the largest point value found, which the check's own neighbours nearly reach; no check on "
    "these instances can refute it (tests/test_power_reach_gem_step.py)"
)


def _gem_step_mutants(variant):
    factors = (0.5, 0.8, 0.25) if variant == "standard" else (0.5, 0.8, 0.02)
    out = scaled_mutants(
        "GEM sensitivity",
        lambda f: thm1_gem_step_privacy_check(variant, sens_factor=f),
        factors,
        {0.5: "2x over-spend"},
    )
    if variant == "printed":
        out = tuple(
            replace(m, not_a_violation=_GEM_STEP_PRINTED_PROOF.format(f=m.factor, need=math.ceil(1 / m.factor)))
            if m.factor in (0.5, 0.8)
            else m
            for m in out
        )
    else:
        # the bound was computed on the S2 drawn at run seed 20261121 (and its two extra seeds): scoped to it
        out = tuple(
            replace(
                m,
                not_a_violation=_GEM_STEP_PROOF.format(f=m.factor, **_GEM_STEP_SUPREMUM[m.factor]),
                proof_seeds=(_GEM_STEP_PROOF_SEED,),
            )
            if m.factor in _GEM_STEP_SUPREMUM
            else m
            for m in out
        )
    return out


def _composition_mutants(per_guess, target, accounting):
    base = dict(per_guess=per_guess, target=target, accounting=accounting)
    out = scaled_mutants(
        "learner noise scale",
        lambda f: thm1_composition_check(sigma_factor=f, **base),
        (0.5, 0.8),
        {0.5: "2x over-spend"},
    )
    # x0.8 stays within the target by the check's own upper-bound accounting (proven, not a miss)
    out = tuple(
        replace(m, not_a_violation=composition_mutant_proof(m.factor, **base)) if m.factor == 0.8 else m for m in out
    )
    out += (
        Mutant("stated (epsilon, delta) x0.9", thm1_composition_check(**{**base, "target": 0.9 * target}), factor=0.9),
        Mutant(
            "learners at (eps/K, delta/K): the 2 of eps/2K dropped"
            if per_guess == 2
            else "learners at (2 eps/K, 2 delta/K): eps/K doubled",
            thm1_composition_check(**{**base, "per_guess": per_guess / 2}),
        ),
    )
    return out


def register(registry):
    """Add the privacy claims of [004 Thm. 1]."""

    def claim(*a, **k):
        registry.add_claim(Claim(*a, **k))

    claim(
        "arora.thm1.privacy.gem-step",
        "[004 Thm. 1] [004 Alg. 1 step 8]",
        "Given the candidates, the GEM step with pairs (0, Y^2), (Delta(B_j)/|S2|, L~_j) is eps/2-DP in S2.",
        "privacy",
        with_power(thm1_gem_step_privacy_check("standard"), GEM_STEP_POWER),
        algorithm="arora-grid-search",
        variant="standard",
        mutants=_gem_step_mutants("standard"),
    )
    claim(
        "arora.thm1.privacy.gem-step.printed",
        "[004 Thm. 1] [004 Alg. 1 step 8]",
        "Given the candidates, the GEM step with pairs (0, Y^2), (Delta(B_j), L~_j) as printed is eps/2-DP.",
        "privacy",
        with_power(thm1_gem_step_privacy_check("printed"), GEM_STEP_PRINTED_POWER),
        algorithm="arora-grid-search",
        variant="printed",
        mutants=_gem_step_mutants("printed"),
    )
    claim(
        "arora.thm1.privacy.composition",
        "[004 Thm. 1] [004 App. D.2]",
        "K learners at (eps/2K, delta/2K), GEM at eps/2 and the Assumption-1 failure compose to (eps, delta) "
        "(the paper's sequential count).",
        "privacy",
        with_power(thm1_composition_check(accounting="sequential"), COMPOSITION_POWER),
        algorithm="arora-grid-search",
        variant="standard",
        mutants=_composition_mutants(2, 1.0, "sequential"),
    )
    claim(
        "arora.thm1.privacy.parallel",
        "[004 Thm. 1] [004 Alg. 1 step 1]",
        "S1 and S2 are disjoint, so by parallel composition Algorithm 1 is (eps/2, delta/2)-DP, within the "
        "stated (eps, delta).",
        "privacy",
        with_power(thm1_composition_check(target=0.5), COMPOSITION_POWER),
        algorithm="arora-grid-search",
        variant="standard",
        mutants=_composition_mutants(2, 0.5, "parallel"),
    )
    claim(
        "arora.thm2.privacy",
        "[004 Thm. 2] [004 App. D.3]",
        "Conditional on a DP base learner: Algorithm 1 with learners at (eps/K, delta/K) (Theorem 2's setting) "
        "is (eps, delta)-DP: by parallel composition, not by Theorem 1 (which assumes eps/2K) nor by the "
        "sequential count (1.5 eps).",
        "privacy",
        with_power(thm1_composition_check(per_guess=1), COMPOSITION_POWER),
        algorithm="arora-grid-search",
        variant="standard",
        mutants=_composition_mutants(1, 1.0, "parallel"),
    )
