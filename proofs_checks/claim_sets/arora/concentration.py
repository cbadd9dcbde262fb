"""The concentration lemma of Appendix E [004 Lemma E], by simulation.

For ``w`` gamma^2 sub-Gaussian and independent of ``S``, with probability at least ``1 - beta``
both ``L_hat(w; S) <= (1 + T) L(w) + U`` and ``L(w) <= (1 + T) L_hat(w; S) + V``.
"""

from __future__ import annotations

import math

import numpy as np

from reference.arora.data import glm_loss, make_problem, sample_records
from reference.arora.model_selection import gaussian_output_subgaussian_constant

from ...model import Claim, Result
from ...verdicts import CONFIDENCE
from ._common import coverage_at_each_n, scaled_mutants, with_power

__all__ = ["concentration_lemma_check", "register"]


def _lemma_terms(gamma, H, Y, n, Dl, beta):
    """``T, U, V`` of [004 Lemma E] for ``n`` records, smoothness ``H`` and loss bound ``Dl``."""
    l4, l2 = math.log(4 / beta), math.log(2 / beta)
    T = 4 * gamma * l4 * math.sqrt(H) / (Y * math.sqrt(n))
    U = 4 * gamma * l4 * Y * math.sqrt(H) / math.sqrt(n) + Y * math.sqrt(l2) / math.sqrt(n)
    V = (
        4 * gamma * l4 * math.sqrt(H) * Y / math.sqrt(n)
        + 2 * Dl * l2 / n
        + Y * math.sqrt(l2 / n)
        + 48 * H * gamma**2 * l4**2 / n
    )
    return T, U, V


def concentration_lemma_check(slack=1.0, beta=0.1):
    """[004 Lemma E]: coverage of both inequalities by simulation, judged at each ``n`` (Clopper-Pearson).

    ``w = w0 + N(0, s^2 I)`` independent of ``S`` (gamma from the exact sub-Gaussian constant),
    ``S`` of size ``n`` from the heavy-tailed squared-loss GLM (population risk exact),
    ``Delta`` the (1 - beta/2)-quantile of ``l(w; z)`` over a large independent joint sample.
    ``slack`` multiplies ``T, U, V`` (a broken variant uses a small slack).
    Refuted if at some ``n`` the Clopper-Pearson upper limit of the coverage is below ``1 - beta``.
    """

    def check(ctx):
        rng = ctx.rng()
        p = make_problem("squared", (1.0, -0.5))
        H, Y = 2.0, p.y_bound
        reps = 400 if ctx.profile == "quick" else 4000
        rows = []
        for n in (50, 500):
            w0, s = np.array([0.8, -0.2]), 0.3
            gamma = gaussian_output_subgaussian_constant(float(np.linalg.norm(w0)), s)
            Wbig = w0 + rng.normal(0, s, size=(2000, 2))
            zbig = sample_records(p, 2000, rng)
            Dl = float(np.quantile(glm_loss(Wbig, zbig, "squared").ravel(), 1 - beta / 2))
            W = w0 + rng.normal(0, s, size=(reps, 2))
            Z = sample_records(p, reps * n, rng)
            x, y = Z[:, :-1].reshape(reps, n, 2), Z[:, -1].reshape(reps, n)
            Lhat = np.mean((np.einsum("rnd,rd->rn", x, W) - y) ** 2, axis=1)
            Lpop = p.population_risk(W)
            T, U, V = (slack * t for t in _lemma_terms(gamma, H, Y, n, Dl, beta))
            held = (Lhat <= (1 + T) * Lpop + U) & (Lpop <= (1 + T) * Lhat + V)
            rows.append(
                {"n": n, "covered": int(held.sum()), "runs": reps, "T": T, "U": U, "V": V, "Delta": Dl, "gamma": gamma}
            )
        worst, refuted = coverage_at_each_n(rows, 1 - beta, CONFIDENCE)
        return Result(
            "refuted" if refuted else "confirmed",
            observed=worst["coverage"],
            bound=1 - beta,
            direction="at_least",
            evidence_kind="coverage",
            method=f"simulation: {reps} draws of (w, S) at each n = 50, 500; Clopper-Pearson {CONFIDENCE} per n; "
            f"observed is the smallest coverage",
            reading=f"[004 Lemma E] with beta = {beta}, squared loss (H = 2), w = w0 + N(0, 0.3^2 I) independent "
            f"of S, gamma its exact sub-Gaussian constant, Delta the (1 - beta/2)-quantile of the loss",
            evidence={"beta": beta, "worst_n": worst["n"], "by_n": rows, "slack": slack},
        )

    return check


POWER = (
    "misses T, U, V x0.5 and x0.05 (shrunk 20x; coverage stays 1.0 at n = 50 and 500): on this instance "
    "(squared loss, w = w0 + N(0, 0.3^2 I), heavy-tailed GLM data) the lemma's constants (4 gamma log(4/beta), "
    "48 H gamma^2 log^2(4/beta), Y sqrt(log(2/beta))) exceed the deviations by a factor between 20 and 100; "
    "detects x0.01 (coverage 0.795). A harder instance was not searched: whether one attains the constants "
    "is open"
)


def register(registry):
    """Add the claim of [004 Lemma E]."""
    registry.add_claim(
        Claim(
            "arora.lemma-e.concentration",
            "[004 Lemma E]",
            "W.p. >= 1-beta, L_hat <= (1+T)L + U and L <= (1+T)L_hat + V for sub-Gaussian w independent of S.",
            "inequality",
            with_power(concentration_lemma_check(), POWER),
            algorithm="arora-boosting",
            mutants=scaled_mutants(
                "T, U, V", lambda f: concentration_lemma_check(slack=f), (0.5, 0.05, 0.01), {0.05: "shrunk 20x"}
            ),
        )
    )
