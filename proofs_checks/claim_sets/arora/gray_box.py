"""Gray-box checks of 004's privacy claims at realistic parameters, with mutants inside the algorithms.

Claims (each a :func:`~proofs_checks.claim_sets._gray_box.gray_box_check` on a searched replace-one neighbour: the
fragment has no formal DP definition; the proof of [004 Lemma D.4] says "S and S' differ in only one point", so
replace-one is the only relation the paper's words give, and add/remove would shift the split of [004 Alg. 1
step 1]):

* ``arora.thm1.privacy.gray-box`` and ``.printed``: Private Grid Search [004 Alg. 1] at ``n = 1000``, ``K = 4``
  guesses, output-perturbation learners at ``(eps/2K, delta/2K)`` ([004 Thm. 1]) and GEM at ``eps/2`` with the
  standard sensitivities ``Delta(B_j)/|S2|`` or the printed ``Delta(B_j)``; the paper's sequential count
  [004 App. D.2].
* ``arora.thm2.privacy.gray-box``: the same with learners at ``(eps/K, delta/K)`` ([004 Thm. 2]), parallel
  composition over the disjoint ``S1`` and ``S2`` (as ``arora.thm2.privacy``).
* ``arora.boosting.privacy.gray-box`` (printed), ``.standard``, ``.calibrated``: Boosting [004 App. E] with
  ``m = 5`` models on disjoint chunks at ``(eps/2, delta)`` and report-noisy-max on the last chunk, parallel
  composition (as ``arora.boosting.privacy*``).
* ``arora.learners.output-perturbation.gray-box`` and ``arora.learners.noisy-gd.gray-box``: the base learners
  alone at ``n = 500`` (noisy GD with ``T = 20`` steps).

The proof steps, from the formulas (never from :mod:`reference.arora`'s functions):

* output perturbation: l2 sensitivity ``2 G / (n lambda)`` of the regularised minimiser ([CMS11] Cor. 8), ``G``
  the Lipschitz constant of the loss on the ball (``2 (B X + Y) X`` squared, ``X`` logistic); budget the
  learner's ``(eps_j, delta_j)``;
* noisy GD: l2 sensitivity ``2 G / n`` of the averaged gradient, ``T`` steps of ``rho / T``-zCDP with ``rho`` the
  largest meeting ``rho + 2 sqrt(rho log(1/delta)) <= eps`` ([BS16] Prop. 1.3, 1.6): each step's budget is the
  Gaussian of that ``rho / T`` (its exact delta at ``eps_step = sqrt(2 rho / T)``);
* GEM: sensitivities ``Delta(B_j)/|S2|`` (standard) or ``Delta(B_j)`` (printed) with ``Delta`` of
  [004 Lemma D.4] for the learner's noise, budget ``eps/2`` ([004 Alg. 1 step 8]); checked by the claim
  (:func:`gem_calibration`: GEM with sensitivities ``c gamma`` and ``c eps'`` is the same law, so the sampled law
  spends ``eps' / min_j (gamma'_j / gamma_j)`` at the proof's ``gamma``);
* Boosting's selection: the paper gives no privacy proof; the one loss bound it states is condition 3 of
  [004 Thm. E], ``l <= Delta`` with probability ``1 - beta``, so the scores of ``|S_(m+1)|`` records move by at
  most ``Delta / |S_(m+1)|`` (the reading of ``arora.boosting.privacy*``, and the clip level of the calibrated
  variant), and report-noisy-max at scale ``b`` spends ``2 Delta / (|S_(m+1)| b)`` (Dwork & Roth Claim 3.9),
  budget ``eps`` by parallel composition.
"""

from __future__ import annotations

import functools
import math

import numpy as np
from scipy import stats

from reference.arora import _boosting, _grid_search, learners
from reference.arora.data import make_problem, sample_records
from reference.arora.learners import OutputPerturbation, noisy_gd, output_perturbation
from reference.arora.model_selection import (
    boosting,
    boosting_sigma_tilde,
    gaussian_output_subgaussian_constant,
    private_grid_search,
)
from reference.mechanisms import gaussian_exact_delta, gem_log_prob, gem_sample

from ...audit.gray_box.calibration import TOLERANCE, ProofStep
from ...model import Claim
from .._gray_box import (
    GrayBoxDesign,
    ProofAccounting,
    fault_mutant,
    gray_box_check,
    halved_declaration,
    rewrite_call,
    scaled_result,
)

__all__ = ["GRID", "BOOST", "LEARNER", "gem_calibration", "register"]

#: Private Grid Search: size, guesses, privacy, confidence, regularisation of the learners, audit budget.
GRID = {"n": 1000, "K": 4, "epsilon": 1.0, "delta": 1e-5, "beta": 0.1, "lam": 0.05, "paths": 8, "search": 16}
#: Boosting: size, models, privacy, the learners' constraint and regularisation, the confidence of Delta.
BOOST = {"n": 600, "m": 5, "epsilon": 1.0, "delta": 1e-5, "B": 2.0, "lam": 0.5, "beta": 0.1, "paths": 8, "search": 16}
#: The learners alone.
LEARNER = {"n": 500, "epsilon": 1.0, "delta": 1e-5, "B": 2.0, "lam": 0.5, "steps": 20, "paths": 20, "search": 24}

_PROBLEM = ("squared", (1.2, -0.6))
_OP_SITE = "[004 Alg. 1] base learner (output perturbation)"
_GD_SITE = "[004 Alg. 1] base learner (noisy gradient descent step)"
_GEM_SITE = "[004 Alg. 1 step 8]"
_RNM_SITE = "[004 App. E step 3]"
_NEIGHBOURS = "replace-one neighbours (the proof of [004 Lemma D.4]: 'S and S' differ in only one point')"


def _lipschitz(B, X, Y):
    """``G`` of the squared loss ``(<w, x> - y)^2`` on ``||w|| <= B``, ``||x|| <= X``, ``|y| <= Y``."""
    return 2.0 * (B * X + Y) * X


def _classic_sigma(sensitivity, epsilon, delta):
    """``sigma = Delta sqrt(2 log(1.25/delta)) / epsilon`` (Dwork & Roth Thm. 3.22)."""
    return sensitivity * math.sqrt(2.0 * math.log(1.25 / delta)) / epsilon


def _lemma_d4_delta(B, X, Y, H, sigma, K, delta, beta, dim, variant):
    """``Delta(B)`` of [004 Lemma D.4] for output perturbation: as printed, or the standard derivation."""
    if variant == "printed":
        return Y * Y + H * X * X * sigma * sigma * math.log(K / delta) + H * B * B * X * X
    q = float(stats.chi2.isf(min(delta, beta) / (4 * K), dim))
    return 2 * Y * Y + 2 * H * B * B * X * X + 2 * H * X * X * sigma * sigma * q


def _problem():
    return make_problem(*_PROBLEM)


def _sensitivity_of_op(B, X, Y, n, lam):
    """[CMS11] Cor. 8: the regularised minimiser moves by at most ``2 G / (n lambda)`` (l2)."""
    return 2.0 * _lipschitz(B, X, Y) / (n * lam)


# ---------------------------------------------------------------------------------------------------------------
# Private Grid Search


def gem_calibration(proof_gammas, proof_epsilon):
    """The claim's own calibration of GEM calls: ``extra(calls_D, calls_D') -> {"gem_calibration": ...}``.

    For each GEM call: the sampled log-weights must be GEM's law at the declared pairs and epsilon
    (:func:`reference.mechanisms.gem_log_prob`, to a relative 1e-9), else refuted (the sampled law is not the
    declared mechanism); then GEM at sensitivities ``gamma'`` and ``eps'`` is GEM at ``gamma' / c`` and
    ``eps' / c`` (the normalised scores scale by ``1/c``, the threshold ``log(N/beta)/eps`` by ``c``), so at the
    proof's ``gamma`` it spends ``eps' / min_j (gamma'_j / gamma_j)`` (a pair with ``gamma_j = 0`` must keep
    ``gamma'_j = 0``), compared with ``proof_epsilon``.
    """

    def extra(calls_D, calls_Dp):
        worst = {"verdict": "no violation found", "ratio": 0.0, "covers_uncovered": True, "checked": 0}
        for label, calls in (("D", calls_D), ("D'", calls_Dp)):
            for call in calls:
                if call.primitive != "gem":
                    continue
                worst["checked"] += 1
                declared = np.asarray(call.public["sensitivities"], dtype=np.float64)
                eps_d, beta_d = float(call.public["epsilon"]), float(call.public["beta"])
                law = np.asarray(call.law["log_weights"], dtype=np.float64)
                expected = gem_log_prob(declared, call.data, eps_d, beta_d)
                scale = max(float(np.max(np.abs(expected))), 1e-300)
                matches = bool(np.max(np.abs(law - expected)) <= 1e-9 * scale)
                gammas = np.asarray(proof_gammas, dtype=np.float64)
                zero = gammas == 0.0
                if np.any(declared[zero] != 0.0) or np.any(declared[~zero] == 0.0):
                    ratio = math.inf
                else:
                    c = float(np.min(declared[~zero] / gammas[~zero]))
                    ratio = (eps_d / c) / proof_epsilon
                if (not matches, ratio) > (worst.get("law_mismatch", False), worst["ratio"]):
                    worst.update(
                        ratio=ratio,
                        law_mismatch=not matches,
                        dataset=label,
                        index=call.index,
                        actual_epsilon=ratio * proof_epsilon,
                        proof_epsilon=proof_epsilon,
                        declared_epsilon=eps_d,
                        declared_sensitivities=declared.tolist(),
                        proof_sensitivities=gammas.tolist(),
                    )
        if worst.get("law_mismatch"):
            worst["verdict"] = "refuted"
            worst["summary"] = (
                f"GEM call {worst['index']} on {worst['dataset']}: the sampled log-weights are not GEM's law at the "
                "declared pairs and epsilon"
            )
        elif worst["ratio"] > 1.0 + TOLERANCE:
            worst["verdict"] = "refuted"
            worst["summary"] = (
                f"GEM call {worst['index']} on {worst['dataset']}: spends {worst['actual_epsilon']:.6g} at the "
                f"proof's sensitivities vs the proof's budget {proof_epsilon:.6g}"
            )
        else:
            worst["summary"] = f"GEM within its budget (largest ratio {worst['ratio']:.6g})"
        return {"gem_calibration": worst}

    return extra


@functools.lru_cache(maxsize=None)
def grid_design(variant="standard", per_guess=2, profile="quick"):
    """The design of ``arora.thm1.privacy.gray-box[.printed]`` (``per_guess = 2``) or ``arora.thm2...`` (1)."""
    g = GRID
    n, K, eps, delta, beta, lam = g["n"], g["K"], g["epsilon"], g["delta"], g["beta"], g["lam"]
    p = _problem()
    X, Y, H, dim = p.x_bound, p.y_bound, p.smoothness, p.w_star.size
    n1 = n // 2
    n2 = n - n1
    Bs = [2.0 ** (j + 1) for j in range(K)]
    # [004 Thm. 1]: the learners at (eps/2K, delta/2K); [004 Thm. 2]: at (eps/K, delta/K)
    eps_j, delta_j = eps / (per_guess * K), delta / (per_guess * K)
    sens = [_sensitivity_of_op(B, X, Y, n1, lam) for B in Bs]
    # Delta(B_j) at the noise the proof calibrates: the run at (eps/2K, delta/2K) on |S1| records, K guesses
    deltas = [
        _lemma_d4_delta(B, X, Y, H, _classic_sigma(s, eps / (2 * K), delta / (2 * K)), K, delta, beta, dim, variant)
        for B, s in zip(Bs, sens)
    ]
    # [004 Assumption 1]: every loss on S2 lies in [0, Delta(B_j)], so the average L~_j moves by at most
    # Delta(B_j)/|S2| -- the paper's own premise, for both readings (the printed box declares Delta(B_j), |S2|
    # times that; the calibration then shows how little of eps/2 the printed step spends)
    gammas = [0.0] + [d / n2 for d in deltas]
    inner = OutputPerturbation("squared", X, Y, lam=lam)

    class Learner:
        """Theorem 2's learner budget: the grid passes (eps/2K, delta/2K), the learner runs at ``2/per_guess`` times."""

        loss, y_bound = inner.loss, inner.y_bound

        def fit(self, data, B, e, d, size, rng=None):
            return inner.fit(data, B, e * 2 / per_guess, d * 2 / per_guess, size, rng)

        def loss_bound(self, B, n_, e, d, K_, beta_, dim_, variant="standard", *, delta_total=None):
            return inner.loss_bound(B, n_, e, d, K_, beta_, dim_, variant, delta_total=delta_total)

    learner = inner if per_guess == 2 else Learner()

    def algorithm(records, rng):
        return private_grid_search(records, learner, K, eps, delta, beta, variant=variant, rng=rng)

    def data(rng):
        return sample_records(p, n, rng)

    def proof_step(call):
        if call.site == _OP_SITE and call.index < K:
            return ProofStep(sens[call.index], "l2", eps_j, delta_j, source="[CMS11] Cor. 8; [004 Thm. 1]")
        return None

    def accounting(calls):
        s1 = [proof_step(c) for c in calls if c.site == _OP_SITE]
        e1 = math.fsum(s.epsilon_step for s in s1 if s is not None)
        d1 = math.fsum(s.delta_step for s in s1 if s is not None)
        # GEM at eps/2 on S2; [004 Assumption 1] fails with probability at most 2 K min(delta, beta)/(4K)
        e2, d2 = eps / 2, 2 * K * min(delta, beta) / (4 * K)
        parallel = per_guess == 1
        total = (max(e1, e2), max(d1, d2)) if parallel else (e1 + e2, d1 + d2)
        rule = (
            "parallel composition over the disjoint S1 (learners, basic composition) and S2 (GEM, Assumption-1 failure)"
            if parallel
            else "the sequential count of [004 App. D.2]: learners (basic composition) + GEM + Assumption-1 failure"
        )
        return ProofAccounting(
            total[0], total[1], rule, {"S1": {"epsilon": e1, "delta": d1}, "S2": {"epsilon": e2, "delta": d2}}
        )

    thm = "1" if per_guess == 2 else "2"
    return GrayBoxDesign(
        algorithm=algorithm,
        data=data,
        epsilon=eps,
        delta=delta,
        relation="replace-one",
        proof_step=proof_step,
        accounting=accounting,
        paths=g["paths"],
        search_budget=g["search"],
        parameters={
            "n": n,
            "K": K,
            "d": dim,
            "guesses": Bs,
            "learner": f"output perturbation, squared loss, lambda = {lam}, X = {X}, Y = {Y:.6g}",
            "learner_budget": [eps_j, delta_j],
            "gem_sensitivities": gammas,
            "gem_epsilon": eps / 2,
            "variant": variant,
        },
        reading=f"[004 Alg. 1] [004 Thm. {thm}] privacy ((eps, delta) = ({eps}, {delta})): {K} output-perturbation "
        f"learners at (eps/{per_guess}K, delta/{per_guess}K), GEM at eps/2 with pairs (0, Y^2), "
        f"({'Delta(B_j)/|S2|' if variant == 'standard' else 'Delta(B_j) as printed'}, L~_j), Delta of [004 Lemma "
        f"D.4] ({variant}); {_NEIGHBOURS}; "
        + (
            "parallel composition over S1 and S2 (Theorem 2's (eps/K, delta/K) learners; the sequential count would "
            "give 1.5 eps)"
            if per_guess == 1
            else "the sequential count of [004 App. D.2]"
        )
        + "; verdict of the transcript (the K candidates and the selected index), whose post-processing is the "
        "released w_bar",
        extra=gem_calibration(gammas, eps / 2),
    )


def _gem_rewrite(eps_law=1.0, eps_declared=1.0, sens_declared=1.0):
    """``rewrite_call`` rewrite of the GEM call: its law and draw at ``eps_law`` times its epsilon, its declared
    epsilon (budget) and sensitivities scaled by ``eps_declared`` / ``sens_declared``."""

    def rewrite(kwargs):
        public = dict(kwargs["public"])
        sens, scores = np.asarray(public["sensitivities"]), kwargs["data"]
        eps, beta = float(public["epsilon"]), float(public["beta"])
        law_eps = eps_law * eps
        public.update(sensitivities=sens_declared * sens, epsilon=eps_declared * eps)
        gen = _generator_of(kwargs["sample"])  # the algorithm's stream, so the draws stay aligned
        return {
            **kwargs,
            "sensitivity": sens_declared * kwargs["sensitivity"],
            "privacy": {"epsilon": eps_declared * float(kwargs["privacy"]["epsilon"])},
            "public": public,
            "law": {"log_weights": gem_log_prob(sens, scores, law_eps, beta)},
            "sample": lambda: gem_sample(sens, scores, law_eps, beta, rng=gen),
        }

    return rewrite


def _generator_of(sample):
    """The numpy Generator a ``sample`` closure draws from (the algorithm's stream, kept aligned)."""
    for cell in sample.__closure__ or ():
        if isinstance(cell.cell_contents, np.random.Generator):
            return cell.cell_contents
    raise ValueError("the GEM call's sample closes over no numpy Generator")


def _grid_mutants(variant, per_guess):
    factory = functools.partial(grid_design, variant, per_guess)
    out = [
        fault_mutant(
            f"{_OP_SITE} noise scale x0.5",
            factory,
            [(learners, "output_perturbation_sigma", scaled_result(0.5))],
            factor=0.5,
        ),
        fault_mutant(
            f"{_OP_SITE} sensitivity x0.5 (where computed: declared and calibrating the noise)",
            factory,
            [(learners, "output_perturbation_sensitivity", scaled_result(0.5))],
            factor=0.5,
        ),
        fault_mutant(
            f"{_OP_SITE} per-step budget x2",
            factory,
            [(learners, "output_perturbation", _budget_x2)],
            factor=2.0,
        ),
        fault_mutant(
            f"{_GEM_SITE} noise scale x0.5 (GEM's Gumbel scale 2/eps halved; declaration kept)",
            factory,
            [(_grid_search, "record_call", rewrite_call(_GEM_SITE, _gem_rewrite(eps_law=2.0)))],
            factor=0.5,
        ),
        fault_mutant(
            f"{_GEM_SITE} sensitivity x0.5 (the pairs' sensitivities halved: declared and in GEM's law)",
            factory,
            [(_grid_search, "grid_search_pairs", _halved_pairs)],
            factor=0.5,
            not_a_violation=_printed_gem_proof(variant, eps_factor=1.0, sens_factor=0.5),
        ),
        fault_mutant(
            f"{_GEM_SITE} per-step budget x2",
            factory,
            [(_grid_search, "record_call", rewrite_call(_GEM_SITE, _gem_rewrite(eps_law=2.0, eps_declared=2.0)))],
            factor=2.0,
            not_a_violation=_printed_gem_proof(variant, eps_factor=2.0, sens_factor=1.0),
        ),
        fault_mutant(
            f"{_GEM_SITE} selection weight x1.5",
            factory,
            [(_grid_search, "record_call", rewrite_call(_GEM_SITE, _gem_rewrite(eps_law=1.5, eps_declared=1.5)))],
            factor=1.5,
            not_a_violation=_printed_gem_proof(variant, eps_factor=1.5, sens_factor=1.0),
        ),
    ]
    return tuple(out)


def _halved_pairs(original):
    """Replacement of ``_grid_search.grid_search_pairs``: GEM's sensitivities halved (its law and declaration)."""

    def broken(*args, **kwargs):
        sens, scores = original(*args, **kwargs)
        return 0.5 * sens, scores

    return broken


def _printed_gem_proof(variant, *, eps_factor, sens_factor):
    """Why a GEM mutant of the printed reading is still eps/2-DP (``""`` for the standard reading)."""
    if variant != "printed":
        return ""
    n2 = GRID["n"] - GRID["n"] // 2
    spent = eps_factor / (sens_factor * n2)
    return (
        f"still eps/2-DP: the printed box declares Delta(B_j), |S2| = {n2} times the sensitivity Delta(B_j)/|S2| of "
        "the average L~_j under [004 Assumption 1]; GEM at sensitivities c gamma and c eps' is the same law, so GEM "
        f"with epsilon x{eps_factor:g} and sensitivities x{sens_factor:g} spends {eps_factor:g} / ({sens_factor:g} "
        f"x {n2}) = {spent:.3g} of eps/2 at the true sensitivities (every instance with |S2| >= "
        f"{math.ceil(eps_factor / sens_factor)}: not instance-specific)"
    )


def _budget_x2(original):
    """Replacement of ``learners.output_perturbation``: the learner run (and declared) at twice its epsilon."""

    def broken(data, loss, B, epsilon, delta, **kwargs):
        return original(data, loss, B, 2.0 * epsilon, delta, **kwargs)

    return broken


# ---------------------------------------------------------------------------------------------------------------
# Boosting


@functools.lru_cache(maxsize=None)
def boosting_design(variant="printed", profile="quick"):
    """The design of ``arora.boosting.privacy.gray-box[.standard|.calibrated]``."""
    b = BOOST
    n, m, eps, delta, B, lam, beta = b["n"], b["m"], b["epsilon"], b["delta"], b["B"], b["lam"], b["beta"]
    p = _problem()
    X, Y, H, dim = p.x_bound, p.y_bound, p.smoothness, p.w_star.size
    chunk = n // (m + 1)
    learner = OutputPerturbation("squared", X, Y, lam=lam)
    sens_op = _sensitivity_of_op(B, X, Y, chunk, lam)
    sigma = _classic_sigma(sens_op, eps / 2, delta)
    # condition 3 of [004 Thm. E]: the loss bound Delta (here [004 Lemma D.4]'s, standard derivation, for the
    # learners' noise, failure min(delta, beta)/(4m))
    loss_bound = _lemma_d4_delta(B, X, Y, H, sigma, m, delta, beta, dim, "standard")
    # the algorithm's own parameter sigma~ of [004 Thm. E] (as arora.boosting.privacy sets it; not a proof step)
    gamma = gaussian_output_subgaussian_constant(B, learner.sigma(B, chunk, eps / 2, delta))
    sigma_tilde = boosting_sigma_tilde(n, eps, Y, H, gamma, X)
    kwargs = {"loss_clip": loss_bound} if variant == "calibrated" else {"sigma_tilde": sigma_tilde}

    def algorithm(records, rng):
        return boosting(records, learner, B, m, eps, delta, variant=variant, rng=rng, **kwargs)

    def data(rng):
        return sample_records(p, n, rng)

    def proof_step(call):
        if call.site == _OP_SITE:
            return ProofStep(sens_op, "l2", eps / 2, delta, source="[CMS11] Cor. 8; [004 App. E step 2]")
        if call.site == _RNM_SITE:
            return ProofStep(loss_bound / chunk, "linf", eps, source="[004 Thm. E] condition 3; Dwork-Roth Claim 3.9")
        return None

    def accounting(calls):
        parts = {}
        for i, call in enumerate(calls):
            step = proof_step(call)
            if step is not None:
                parts[f"chunk {i + 1}"] = {"epsilon": step.epsilon_step, "delta": step.delta_step}
        return ProofAccounting(
            max(v["epsilon"] for v in parts.values()),
            max(v["delta"] for v in parts.values()),
            "parallel composition over the m + 1 disjoint chunks (each model on its chunk, the selection on the last)",
            parts,
        )

    scale = {
        "printed": "Lap(0, sigma~) with sigma~ the scale (the box as written)",
        "standard": "Laplace of variance sigma~^2 (our alternative reading of the notation, not the paper's)",
        "calibrated": "losses clipped to [0, Delta], scale 2 Delta/(|S_(m+1)| eps) (not the paper's)",
    }[variant]
    return GrayBoxDesign(
        algorithm=algorithm,
        data=data,
        epsilon=eps,
        delta=delta,
        relation="replace-one",
        proof_step=proof_step,
        accounting=accounting,
        paths=b["paths"],
        search_budget=b["search"],
        parameters={
            "n": n,
            "m": m,
            "chunk": chunk,
            "d": dim,
            "B": B,
            "learner": f"output perturbation, squared loss, lambda = {lam}, sigma = {sigma:.6g}",
            "sigma_tilde": sigma_tilde,
            "gamma": gamma,
            "loss_bound_Delta": loss_bound,
            "selection_sensitivity": loss_bound / chunk,
            "variant": variant,
        },
        reading=f"[004 Thm. E] privacy ((eps, delta) = ({eps}, {delta})), [004 App. E] Boosting with {scale}; "
        f"{_NEIGHBOURS}; the m = {m} models on disjoint chunks at (eps/2, delta), the selection on S_(m+1), parallel "
        "composition; the paper proves no privacy for Boosting: the selection's proof step reads condition 3 "
        "of [004 Thm. E] (loss <= Delta w.p. 1 - beta) as the scores' sensitivity Delta/|S_(m+1)| (the reading of "
        "arora.boosting.privacy*, Delta the calibrated variant's clip level); verdict of the transcript (models and "
        "selected index), whose post-processing is the released w_hat_(i*)",
    )


def _rnm_scale_fault(factor):
    """Replacement factories of both Laplace-scale functions of Boosting (the paper's and the calibrated one)."""
    return [
        (_boosting, "boosting_laplace_scale", scaled_result(factor)),
        (_boosting, "calibrated_laplace_scale", scaled_result(factor)),
    ]


def _boosting_rnm_budget_x2(kwargs):
    """The selection at twice its budget: declared epsilon and the scale it implies (scale / 2)."""
    scale = kwargs["law"]["scale"] / 2.0
    scores = kwargs["data"]
    gen = _generator_of(kwargs["sample"])
    from reference.mechanisms import report_noisy_max

    return {
        **kwargs,
        "privacy": {"epsilon": 2.0 * float(kwargs["privacy"]["epsilon"])},
        "law": {"scores": scores, "scale": scale},
        "sample": lambda: report_noisy_max(scores, scale, rng=gen),
    }


def _boosting_mutants(variant):
    factory = functools.partial(boosting_design, variant)
    return (
        fault_mutant(
            f"{_OP_SITE} noise scale x0.5 (in Boosting)",
            factory,
            [(learners, "output_perturbation_sigma", scaled_result(0.5))],
            factor=0.5,
        ),
        fault_mutant(
            f"{_OP_SITE} sensitivity x0.5 (where computed; in Boosting)",
            factory,
            [(learners, "output_perturbation_sensitivity", scaled_result(0.5))],
            factor=0.5,
        ),
        fault_mutant(
            f"{_OP_SITE} per-step budget x2 (in Boosting)",
            factory,
            [(learners, "output_perturbation", _budget_x2)],
            factor=2.0,
        ),
        fault_mutant(f"{_RNM_SITE} noise scale x0.5", factory, _rnm_scale_fault(0.5), factor=0.5),
        fault_mutant(
            f"{_RNM_SITE} declared sensitivity x0.5",
            factory,
            [(_boosting, "record_call", rewrite_call(_RNM_SITE, halved_declaration))],
            factor=0.5,
        ),
        fault_mutant(
            f"{_RNM_SITE} per-step budget x2",
            factory,
            [(_boosting, "record_call", rewrite_call(_RNM_SITE, _boosting_rnm_budget_x2))],
            factor=2.0,
        ),
        fault_mutant(
            f"{_RNM_SITE} selection weight x1.5 (scale / 1.5)", factory, _rnm_scale_fault(1 / 1.5), factor=1.5
        ),
    )


# ---------------------------------------------------------------------------------------------------------------
# the learners alone


@functools.lru_cache(maxsize=None)
def learner_design(which, profile="quick"):
    """The design of ``arora.learners.<which>.gray-box`` (``which``: output-perturbation or noisy-gd)."""
    c = LEARNER
    n, eps, delta, B, lam, T = c["n"], c["epsilon"], c["delta"], c["B"], c["lam"], c["steps"]
    p = _problem()
    X, Y = p.x_bound, p.y_bound
    G = _lipschitz(B, X, Y)

    def data(rng):
        return sample_records(p, n, rng)

    if which == "output-perturbation":
        sens = _sensitivity_of_op(B, X, Y, n, lam)

        def algorithm(records, rng):
            return output_perturbation(records, "squared", B, eps, delta, x_bound=X, y_bound=Y, lam=lam, rng=rng)

        def proof_step(call):
            return ProofStep(sens, "l2", eps, delta, source="[CMS11] Cor. 8; Dwork-Roth Thm. 3.22")

        def accounting(calls):
            return ProofAccounting(eps, delta, "one Gaussian release", {"release": {"epsilon": eps, "delta": delta}})

        reading = (
            f"output perturbation (the base learner of [004 Alg. 1], [004 Lemma D.4]) is ({eps}, {delta})-DP: "
            f"regularised ERM (lambda = {lam}) over ||w|| <= {B}, l2 sensitivity 2G/(n lambda) [CMS11] Cor. 8, "
            "Gaussian noise of Dwork-Roth Thm. 3.22"
        )
        parameters = {"n": n, "B": B, "lambda": lam, "sensitivity": sens}
    else:
        sens = 2.0 * G / n
        L = math.log(1.0 / delta)
        rho = (eps / (math.sqrt(L + eps) + math.sqrt(L))) ** 2  # [BS16] Prop. 1.3 solved for rho
        mu = math.sqrt(2.0 * rho / T)  # one step's Delta / sigma
        step_delta = gaussian_exact_delta(mu, sens / mu, sens)

        def algorithm(records, rng):
            return noisy_gd(records, "squared", B, eps, delta, x_bound=X, y_bound=Y, steps=T, rng=rng)

        def proof_step(call):
            return ProofStep(sens, "l2", mu, step_delta, source="[BS16] Prop. 1.3, 1.6; [BST14]")

        def accounting(calls):
            total_rho = len(calls) * rho / T
            e = total_rho + 2.0 * math.sqrt(total_rho * L)
            return ProofAccounting(e, delta, f"zCDP: {len(calls)} steps of rho/T, rho + 2 sqrt(rho log(1/delta))")

        reading = (
            f"noisy projected GD (the base learner of [004 Alg. 1]) with T = {T} steps is ({eps}, {delta})-DP: the "
            "averaged gradient has l2 sensitivity 2G/n, each step rho/T-zCDP, rho + 2 sqrt(rho log(1/delta)) = eps "
            "[BS16] Prop. 1.3, 1.6; each step's budget is the Gaussian of rho/T (exact delta at eps_step = "
            "sqrt(2 rho/T))"
        )
        parameters = {"n": n, "B": B, "T": T, "sensitivity": sens, "rho": rho, "step_mu": mu}
    return GrayBoxDesign(
        algorithm=algorithm,
        data=data,
        epsilon=eps,
        delta=delta,
        relation="replace-one",
        proof_step=proof_step,
        accounting=accounting,
        paths=c["paths"],
        search_budget=c["search"],
        parameters=parameters,
        reading=reading + f"; {_NEIGHBOURS}; verdict of the transcript (the release, or every noisy gradient)",
    )


def _learner_mutants(which):
    factory = functools.partial(learner_design, which)
    # where the sensitivity is computed: output perturbation's own function; noisy GD's 2G/n from the Lipschitz
    # constant (its noise, its declaration and its step size all read it)
    site, sigma_fn, sens_fn = (
        (_OP_SITE, "output_perturbation_sigma", "output_perturbation_sensitivity")
        if which == "output-perturbation"
        else (_GD_SITE, "noisy_gd_sigma", "lipschitz_constant")
    )
    return (
        fault_mutant(f"{site} noise scale x0.5", factory, [(learners, sigma_fn, scaled_result(0.5))], factor=0.5),
        fault_mutant(
            f"{site} sensitivity x0.5 (where computed: declared and calibrating the noise)",
            factory,
            [(learners, sens_fn, scaled_result(0.5))],
            factor=0.5,
        ),
        fault_mutant(
            f"{site} per-step budget x2 (the learner's epsilon doubled)",
            factory,
            [(learners, "check_epsilon", scaled_result(2.0))],
            factor=2.0,
        ),
    )


def register(registry):
    """Register the gray-box claims of 004 (Theorems 1-2, Boosting, the base learners)."""

    def claim(cid, source, statement, check, algorithm, variant, mutants):
        registry.add_claim(
            Claim(cid, source, statement, "privacy", check, algorithm=algorithm, variant=variant, mutants=mutants)
        )

    for variant, suffix in (("standard", ""), ("printed", ".printed")):
        claim(
            f"arora.thm1.privacy.gray-box{suffix}",
            "[004 Thm. 1] [004 Alg. 1] [004 App. D.2]",
            f"Private Grid Search ({variant} GEM sensitivities) is (eps, delta)-DP, checked gray-box at n = 1000, "
            "K = 4: every learner and the GEM step calibrated at the proof's sensitivity.",
            gray_box_check(functools.partial(grid_design, variant, 2)),
            "arora-grid-search",
            variant,
            _grid_mutants(variant, 2),
        )
    claim(
        "arora.thm2.privacy.gray-box",
        "[004 Thm. 2] [004 App. D.3]",
        "Private Grid Search with learners at (eps/K, delta/K) is (eps, delta)-DP by parallel composition, checked "
        "gray-box at n = 1000, K = 4.",
        gray_box_check(functools.partial(grid_design, "standard", 1)),
        "arora-grid-search",
        "standard",
        _grid_mutants("standard", 1),
    )
    for variant, suffix in (("printed", ""), ("standard", ".standard"), ("calibrated", ".calibrated")):
        claim(
            f"arora.boosting.privacy.gray-box{suffix}",
            "[004 Thm. E] [004 App. E]",
            f"Boosting ({variant} selection noise) is (eps, delta)-DP, checked gray-box at n = 600, m = 5: every "
            "learner and the selection calibrated at the proof's sensitivity.",
            gray_box_check(functools.partial(boosting_design, variant)),
            "arora-boosting",
            variant,
            _boosting_mutants(variant),
        )
    for which in ("output-perturbation", "noisy-gd"):
        claim(
            f"arora.learners.{which}.gray-box",
            "[004 Lemma D.4] [004 Alg. 1]",
            f"The {which} base learner is (eps, delta)-DP, checked gray-box at n = 500: each Gaussian draw calibrated "
            "at the proof's sensitivity.",
            gray_box_check(functools.partial(learner_design, which)),
            None,
            None,
            _learner_mutants(which),
        )
