"""[004 Lemma D.4]: the base learners satisfy the second condition of [004 Assumption 1].

First lemma (noisy GD, output in the ball): every loss value is at most ``Delta(B)``.
Second lemma (output perturbation, output ``w_hat + b`` outside the ball): some record of
``S_2`` reaches ``Delta(B)`` with probability at most ``min(delta, beta)/(4K)``.  Each has a
``"printed"`` and a ``"standard"`` (corrected) ``Delta`` in :mod:`reference.arora.learners`.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats

from reference.arora.data import glm_loss
from reference.arora.learners import delta_noisy_gd, delta_output_perturbation, smoothness

from ...builders import WorstCase, max_search_check
from ...model import Claim, Mutant, Result
from ...verdicts import QUADRATURE_RTOL, ROUNDING_ATOL, ROUNDING_RTOL, compare
from ._common import domain_candidates, scaled_mutants

__all__ = ["lemma_d4_noisy_gd_check", "lemma_d4_output_perturbation_check", "register"]


def _scalar_loss_sup(loss, t, Y):
    """sup over admissible y of phi_y(t) for |t| = t: squared (|t| + Y)^2, logistic log(1 + e^|t|)."""
    t = np.abs(t)
    return (t + Y) ** 2 if loss == "squared" else np.logaddexp(0.0, t)


def _scalar_loss_inverse(loss, level, Y):
    """Smallest |t| with sup_y phi_y(t) >= level."""
    if loss == "squared":
        return max(math.sqrt(level) - Y, 0.0)
    # log(1 + e^t) = level  <=>  t = level + log(1 - e^-level); beyond 700 the correction underflows
    return level + math.log(-math.expm1(-level)) if level < 700 else level


def lemma_d4_noisy_gd_check(variant="standard", delta_fn=delta_noisy_gd, delta_factor=1.0):
    """Largest ``l(w; z) / Delta(B)`` over ``||w|| <= B`` and domain records (first lemma of [004 Lemma D.4]).

    The sup is attained at ``w = B x/||x||``, ``||x|| = X``, ``y = -Y sign``: a closed form,
    cross-checked by the loss on adversarial records at random points of the sphere of radius B.
    """

    def search(ctx):
        rng = ctx.rng()
        worst = WorstCase(0.0)
        for loss in ("squared", "logistic"):
            H = smoothness(loss)
            for Y in (0.5, 1.0, 2.0, 10.0) if loss == "squared" else (1.0,):
                for B in (0.25, 0.5, 1.0, 2.0, 4.0, 16.0):
                    sup = float(_scalar_loss_sup(loss, B * 1.0, Y))
                    cands = domain_candidates(2, loss, 1.0, Y, rng, 8)
                    u = rng.normal(size=(32, 2))
                    W = B * np.vstack([u / np.linalg.norm(u, axis=1, keepdims=True), np.eye(2), -np.eye(2)])
                    searched = float(glm_loss(W, cands, loss).max())
                    worst.update(
                        max(sup, searched) / (delta_factor * delta_fn(B, 1.0, Y, H, variant)),
                        {"loss": loss, "B": B, "Y": Y, "sup_loss": sup},
                    )
        return worst.value, worst.where, worst.count

    printed = "Delta(B) = Y^2 + H B^2 X^2 as printed" if variant == "printed" else "Delta(B) = 2Y^2 + H B^2 X^2"
    return max_search_check(
        search,
        1.0,
        method="closed-form sup of the loss over the ball and the domain, cross-checked by adversarial search "
        "(X = 1, squared and logistic losses, a grid of B and Y)",
        reading=f"[004 Lemma D.4] first lemma, [004 Assumption 1] second condition: {printed}; H the smoothness "
        f"of the scalar loss (2 for (t - y)^2, 1/4 for log(1 + e^(-yt))), l(0; z) <= Y^2, ||x|| <= X, "
        f"||w|| <= B; the printed bound fails, per loss: squared, sup (BX + Y)^2 > Y^2 + H B^2 X^2 iff "
        f"BX < 2Y/(H - 1) (BX < 2Y at H = 2); logistic, sup log(1 + e^(BX)) > Y^2 + B^2 X^2/4 on an interval "
        f"of BX that the squared rule does not give (0.762 < BX < 2.549 at Y = 1, e.g. B = 2, X = 1: 2.127 > 2; "
        f"none for Y^2 > 1.145); holds with 2Y^2",
        evidence={"variant": variant, "observed_is": "largest loss value / Delta(B)"},
    )


def _proof_violations(loss, records, B, sigma, Dl, H, X, Y, d, target, b):
    """Violations of the standard proof's two steps at ``w_hat = B e_1`` for the noise draws ``b``.

    The deterministic inequality ``l(w_hat + b; z) <= 2Y^2 + 2HB^2X^2 + 2HX^2 ||b||^2`` on each
    draw, and the chi-square tail at the level ``Delta`` was calibrated to: at most the target.
    """
    w_hat = np.zeros(d)
    w_hat[0] = B
    lossv = glm_loss(w_hat + b, records, loss).max(axis=1)
    rhs = 2 * Y * Y + 2 * H * B * B * X * X + 2 * H * X * X * np.sum(b * b, axis=1)
    count = int(np.sum(lossv > rhs * (1 + ROUNDING_RTOL) + ROUNDING_ATOL))
    q = (Dl - 2 * Y * Y - 2 * H * B * B * X * X) / (2 * H * X * X * sigma * sigma)
    return count + int(stats.chi2.sf(q, d) > target * (1 + QUADRATURE_RTOL))


def lemma_d4_output_perturbation_check(variant="standard", delta_fn=delta_output_perturbation, delta_factor=1.0):
    """Failure probability of [004 Assumption 1] (second condition) for output perturbation.

    Worst-case validation set ``S_2 = {(+-X e_i, +-Y)}`` and ``w_hat = B e_1``: exact probability
    that some record's loss reaches ``Delta(B)`` (a *lower bound* on the worst case), compared
    with ``min(delta, beta)/(4K)``.  For the standard variant the deterministic inequality of its
    proof, ``l(w_hat + b; z) <= 2Y^2 + 2HB^2X^2 + 2HX^2||b||^2``, is also checked on Gaussian
    draws, and ``P[||b||^2 >= sigma^2 q]`` is evaluated exactly; a violation of either refutes.
    """

    def check(ctx):
        rng = ctx.rng()
        K, delta, beta, X = 4, 1e-5, 0.1, 1.0
        target = min(delta, beta) / (4 * K)
        worst, proof_violations, worst_by_d = WorstCase(0.0), 0, {}
        # configurations where the first lemma's bound already fails at b = 0 (sup loss over the ball above
        # Y^2 + H B^2 X^2): their failure is that slip, not the noise terms; the worst of the others apart
        worst_noise_only = WorstCase(0.0)
        draws = 500 if ctx.profile == "quick" else 20000
        for loss in ("squared", "logistic"):
            H = smoothness(loss)
            Y = 2.0 if loss == "squared" else 1.0
            for d in (1, 3, 10):
                # the printed variant is judged by the exact tail alone; the standard one also by its proof
                cand = domain_candidates(d, loss, X, Y, rng, 4) if variant == "standard" else None
                for B in (0.5, 2.0, 8.0):
                    for sigma in (0.05, 0.5, 5.0):
                        Dl = delta_factor * delta_fn(B, X, Y, H, sigma, K, delta, beta=beta, dim=d, variant=variant)
                        t_all = _scalar_loss_inverse(loss, Dl, Y)
                        t1 = max(t_all - B * X, 0.0)
                        p_first = stats.norm.sf(t1 / sigma)  # b_1 pushes w_hat outwards
                        p_other = 2 * stats.norm.sf(t_all / sigma)
                        p_fail = -math.expm1((d - 1) * math.log1p(-p_other) + math.log1p(-p_first))
                        worst_by_d[d] = max(worst_by_d.get(d, 0.0), p_fail / target)
                        if not float(_scalar_loss_sup(loss, B * X, Y)) > Y * Y + H * B * B * X * X:
                            worst_noise_only.update(p_fail / target, {"loss": loss, "d": d, "B": B, "sigma": sigma})
                        worst.update(
                            p_fail / target,
                            {
                                "loss": loss,
                                "d": d,
                                "B": B,
                                "sigma": sigma,
                                "failure_probability": p_fail,
                                "target": target,
                                "Delta": Dl,
                            },
                        )
                        if variant == "standard":
                            proof_violations += _proof_violations(
                                loss, cand, B, sigma, Dl, H, X, Y, d, target, rng.normal(0, sigma, size=(draws, d))
                            )
        verdict = compare(worst.value, 1.0, "at_most") if proof_violations == 0 else "refuted"
        printed = (
            "Delta = Y^2 + H X^2 sigma^2 log(K/delta) + H B^2 X^2 as printed"
            if variant == "printed"
            else "Delta = 2Y^2 + 2HB^2X^2 + 2HX^2 sigma^2 chi2_d^{-1}(1 - min(delta, beta)/(4K))"
        )
        return Result(
            verdict,
            observed=worst.value,
            bound=1.0,
            direction="at_most",
            method=f"exact Gaussian tail on a worst-case S2 (a lower bound on the worst case), "
            f"{worst.count} configurations (loss, d, B, sigma)"
            + (f"; proof inequality on {draws} Gaussian draws each" if variant == "standard" else ""),
            reading=f"[004 Lemma D.4] second lemma, [004 Assumption 1] second condition with K = 4, "
            f"delta = 1e-5, beta = 0.1: {printed}; the printed proof drops the cross term "
            f"2|<b,x>|Y, uses exp(-t^2/(X^2 sigma^2)) (the Gaussian tail has a 2) and sets "
            f"t = X sigma log(K/delta) but concludes for t^2 = X^2 sigma^2 log(K/delta); it also "
            f"misses the union over S2; the printed Delta fails already at d = 1 (evidence). The largest ratio "
            f"comes from the first lemma's slip, not from the noise: where sup_(||w|| <= B) l > Y^2 + H B^2 X^2 "
            f"(squared BX < 2Y/(H - 1), logistic B = 2 at Y = 1) the loss at b = 0 already reaches Delta; over the "
            f"other configurations the noise terms alone still fail (evidence settings)",
            evidence={
                "observed_is": "largest failure probability / (min(delta, beta)/(4K))",
                "worst_by_d": worst_by_d,
                "worst_at": worst.where,
                "settings": [
                    {
                        "subset": "configurations where the first lemma's bound holds at b = 0",
                        "worst_ratio": worst_noise_only.value,
                        "at": worst_noise_only.where,
                    }
                ],
                "proof_inequality_violations": proof_violations,
                "variant": variant,
            },
        )

    return check


def register(registry):
    """Add the claims of [004 Lemma D.4]."""

    def claim(*a, **k):
        registry.add_claim(Claim(*a, **k))

    claim(
        "arora.lemma-d4.noisy-gd",
        "[004 Lemma D.4]",
        "For ||w|| <= B every loss value is <= Delta(B) = Y^2 + H B^2 X^2 (as printed).",
        "inequality",
        lemma_d4_noisy_gd_check("printed"),
        algorithm="arora-noisy-gd",
        variant="printed",
        mutants=(
            Mutant(
                "the corrected Delta 2Y^2 + H B^2 X^2 (must be confirmed)",
                lemma_d4_noisy_gd_check("standard"),
                detected_by=("confirmed",),
            ),
        ),
    )
    claim(
        "arora.lemma-d4.noisy-gd.standard",
        "[004 Lemma D.4]",
        "For ||w|| <= B every loss value is <= 2Y^2 + H B^2 X^2.",
        "inequality",
        lemma_d4_noisy_gd_check("standard"),
        algorithm="arora-noisy-gd",
        variant="standard",
        mutants=scaled_mutants("Delta(B)", lambda f: lemma_d4_noisy_gd_check("standard", delta_factor=f), (0.9, 0.5)),
    )
    claim(
        "arora.lemma-d4.output-perturbation",
        "[004 Lemma D.4]",
        "P[exists z in S2: l(w+b; z) >= Y^2 + H X^2 sigma^2 log(K/delta) + H B^2 X^2] <= min(delta,beta)/(4K).",
        "inequality",
        lemma_d4_output_perturbation_check("printed"),
        algorithm="arora-output-perturbation",
        variant="printed",
        mutants=(
            Mutant(
                "the corrected chi-square Delta (must be confirmed)",
                lemma_d4_output_perturbation_check("standard"),
                detected_by=("confirmed",),
            ),
        ),
    )
    claim(
        "arora.lemma-d4.output-perturbation.standard",
        "[004 Lemma D.4]",
        "With Delta = 2Y^2 + 2HB^2X^2 + 2HX^2 sigma^2 chi2_d^{-1}(1 - min(delta,beta)/(4K)) the failure "
        "probability is <= min(delta,beta)/(4K).",
        "inequality",
        lemma_d4_output_perturbation_check("standard"),
        algorithm="arora-output-perturbation",
        variant="standard",
        mutants=scaled_mutants(
            "Delta(B)", lambda f: lemma_d4_output_perturbation_check("standard", delta_factor=f), (0.9, 0.5)
        ),
    )
