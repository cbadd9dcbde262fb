"""The two index readings of [002 Alg. 5 steps 4-6] and what each does to Theorem 8's proof and privacy.

The box computes ``g~(w^{t-1}, D_t)`` and sets ``w^{t+0.5} = w^t - eta g~(w^{t-1}, D_t)``; the proof of
[002 Thm. 8] repeats ``g~^t = g~(w^{t-1}, D_t)``, ``g^t = grad L(w^{t-1})`` and then follows the proof of
[002 Thm. 7], whose expansion (46) takes the gradient at the point the step starts from, ``w^t``.

- Reading A (printed indices): a lagged gradient step, ``w^0 := w^1`` (the box defines no ``w^0``);
  ``gradient_at="previous"`` of :func:`reference.hu.sparse.heavy_tailed_sparse_optimization`.
- Reading B (the analysis'): the gradient at ``w^t``; ``gradient_at="current"`` (the default).

Claims: the proof's per-iteration recursion (its last display) under each reading, on an instance where
the noise terms vanish; and one iteration's privacy under reading A (reading B is ``hu.thm8.privacy.*``).
"""

from __future__ import annotations

import numpy as np

from reference.hu.sparse import LaggedSparseOptPeelingStep, heavy_tailed_sparse_optimization, sparse_opt_lambda

from ...model import Claim, Mutant, Result
from ...rates.trials_hu import MeanEstimationLoss
from ...verdicts import within
from ._common import NEIGHBOURS, with_power_note
from ._gradient_search import robust_columns_or_nan
from .sparse import PEELING_POWER, _lambda_mutants, _peeling_privacy_check

__all__ = [
    "READINGS",
    "RECURSION_PLACE",
    "D",
    "S",
    "S_STAR",
    "M_PART",
    "T_ITER",
    "recursion_check",
    "lagged_privacy_check",
    "register",
]

READINGS = (
    "[002 Alg. 5 steps 4-6] (file lines ~305-317) print g~(w^{t-1}, D_t) and w^{t+0.5} = w^t - eta "
    "g~(w^{t-1}, D_t); reading A takes these indices literally (lagged gradient, w^0 := w^1), reading B "
    "takes the gradient at w^t, as the proof of [002 Thm. 7] (eq. (46), g^t = grad L(w^t)) that the proof of "
    "[002 Thm. 8] follows does"
)

RECURSION_PLACE = (
    "[002 App. A, proof of Thm. 8], last display (file lines 1033-1036): L(w^{t+1}) - L(w*) <= (1 - mu/(12 "
    "gamma)) (L(w^t) - L(w*)) + O(N^t + N_2^t) for all t, with eta = 2/(3 gamma), s = 72 (gamma/mu)^2 s*, "
    "and N^t + N_2^t <= O(sum_i ||w_i||_inf^2 + (2s + s*) ||g~^t - g^t||_inf^2 + s ||w~||_inf^2) in the "
    "noise actually drawn (line 1015).  The instance makes those terms vanish (Peeling lambda 1e-12 "
    "instead of the printed 4 sqrt(2) k eta / m, and equal records so that g~ = g to ~1e-10): the "
    "recursion is deterministic given the noise and does not use lambda's value, so this is an "
    "instance of it, not of Algorithm 5's privacy"
)

#: The noise-free instance: d, s, s*, records per part, iterations.
D, S, S_STAR, M_PART, T_ITER = 80, 72, 1, 160, 7


def _instance():
    """Sparse mean estimation (the problem of [002 Thm. 9]): every record is ``x = w*`` (a point mass).

    With ``l(w, x) = ||x - w||^2`` (:class:`proofs_checks.rates.trials_hu.MeanEstimationLoss`) every per-sample
    loss is 2-RSS and ``L(w) = ||w - w*||^2`` is 2-RSC (gamma_r = mu_r = 2 in Assumption 4, per sample and
    for the population), ``E (grad_j l)^2`` is finite, and the per-record gradients are equal, so the robust
    gradient with a large scale ``k`` equals ``2 (w - w*)`` to ~1e-10.
    """
    w_star = np.zeros(D)
    w_star[0] = 0.5
    X = np.repeat(w_star[None, :], M_PART * T_ITER, axis=0)
    return np.column_stack([X, np.zeros(X.shape[0])]), w_star


def recursion_check(gradient_at="current", eta_factor=1.0):
    """Largest ratio ``(L(w^{t+1}) - L*) / (L(w^t) - L*)`` of Algorithm 5 against the proof's ``1 - mu/(12 gamma)``."""

    def check(ctx):
        data, w_star = _instance()
        gamma = mu = 2.0
        eta = eta_factor * 2.0 / (3.0 * gamma)
        k, lam = 1e7, 1e-12  # robust gradient = mean to ~1e-10; Peeling noise scale ~1e-10
        P = heavy_tailed_sparse_optimization(
            data,
            MeanEstimationLoss(),
            np.zeros(D),
            S,
            1.0,
            k,
            T_ITER,
            eta,
            0.5,
            1e-3,
            ctx.rng(),
            lam=lam,
            gradient_at=gradient_at,
            path=True,
        )
        excess = np.sum((P - w_star) ** 2, axis=1)  # L(w^t) - L(w*), t = 1..T+1
        ratios = excess[1:] / excess[:-1]
        worst = int(np.argmax(ratios))
        bound = 1.0 - mu / (12.0 * gamma)
        verdict = "confirmed" if within(float(ratios[worst]), bound, rtol=1e-6) else "refuted"
        return Result(
            verdict,
            observed=float(ratios[worst]),
            bound=bound,
            direction="at_most",
            method=f"Algorithm 5 (reference, gradient_at={gradient_at!r}) on a noise-free instance: d = {D}, "
            f"s = {S} = 72 (gamma/mu)^2 s*, s* = {S_STAR}, sparse mean estimation l(w, x) = ||x - w||^2 "
            f"with every record at w* (L(w) = ||w - w*||^2, gamma_r = mu_r = 2 per sample and "
            f"population), eta = {eta:g}, {T_ITER} iterations of {M_PART} records, w^1 = 0, "
            "robust-gradient scale k = 1e7 and Peeling lambda = 1e-12 so that every noise term of "
            "the recursion is below 1e-9; observed: the largest ratio of consecutive excess risks",
            reading=(
                RECURSION_PLACE
                + ". "
                + READINGS
                + ".  This claim: reading "
                + ("B" if gradient_at == "current" else "A")
                + (f", step size eta x{eta_factor:g}" if eta_factor != 1.0 else "")
                + ".  Verdicts: reading B holds (ratio (1 - eta gamma)^2 = 1/9), reading A is refuted "
                "(the lagged step e_{t+1} = e_t - (2/3) e_{t-1} does not decrease at every step); "
                "under both readings the iterates converge (|roots| sqrt(2/3) under A), so Theorem 8's "
                "final O(.) bound is not contradicted by this instance"
            ),
            evidence={
                "excess_risk": excess.tolist(),
                "ratios": ratios.tolist(),
                "worst_step": worst + 1,
                "gradient_at": gradient_at,
                "eta": eta,
            },
        )

    return check


class _LaggedStep(LaggedSparseOptPeelingStep):
    """The reference step with ``v`` of all neighbours in one robust-gradient call (NaN where it cannot run)."""

    def v_of_neighbours(self, data, pool, row):
        X, y = data[:, :-1], data[:, -1]
        G = self.loss.gradient(self.w_grad, X, y)  # (m, d), at w^{t-1}
        Gc = self.loss.gradient(self.w_grad, pool[:, :-1], pool[:, -1])  # (C, d)
        C, d = Gc.shape
        stack = np.repeat(G[:, None, :], C, axis=1)
        stack[row] = Gc
        g = robust_columns_or_nan(stack.reshape(G.shape[0], C * d), self.k, self.beta, self.variant)
        return self.w[None] - self.eta * g.reshape(C, d)


def lagged_privacy_check(lam_factor=1.0):
    """[002 Thm. 8] per iteration under reading A: Peeling on ``w^t - eta g~(w^{t-1}, D_t)``."""

    def make_step(w, m, s, eps, dlt, cfg):
        k, beta, eta, loss = cfg[5], cfg[6], cfg[7], cfg[8]
        # w^{t-1}: another fixed s-sparse point (an earlier output, computed from other parts of the data)
        w_prev = 0.5 * np.roll(w, 1)
        return _LaggedStep(
            w=w,
            w_grad=w_prev,
            m=m,
            epsilon=eps,
            delta=dlt,
            s=s,
            k=k,
            beta=beta,
            eta=eta,
            loss=loss,
            lam=lam_factor * sparse_opt_lambda(k, eta, m),
        )

    quick = [(3, 3, 1, 0.99, 0.1, 1.0, 1.0, 0.5, "squared"), (3, 2, 1, 0.5, 0.9, 4.0, 9.0, 0.5, "logistic_l2")]
    full = [(4, 4, 2, 0.9, 0.01, 0.5, 4.0, 1.0, "squared"), (5, 3, 2, 0.99, 1e-3, 2.0, 1.0, 0.5, "biweight")]
    reading = (
        "[002 Thm. 8] [002 Alg. 5 steps 4-7] [002 Lemma 10]: one iteration of Algorithm 5 under reading A "
        "(v = w^t - eta g~(w^{t-1}, D_t), w^{t-1} = w^t rotated by one coordinate and halved, both fixed) with "
        f"lambda = 4 sqrt(2) k eta / m is (epsilon, delta)-DP; {NEIGHBOURS}; robust gradient 'standard'.  "
        "The l_inf sensitivity of v is eta times that of g~ at w^{t-1}, the same as under reading B, so both "
        "readings are private (reading B: hu.thm8.privacy.standard)"
    )
    return _peeling_privacy_check(make_step, quick, full, reading, "reading A (printed indices)")


def register(registry):
    claim = registry.add_claim
    claim(
        Claim(
            "hu.thm8.recursion.current-gradient",
            "[002 Thm. 8], [002 App. A], [002 Alg. 5 step 4]",
            "Under reading B (gradient at w^t) the proof's recursion L(w^{t+1}) - L* <= (1 - mu/(12 gamma)) "
            "(L(w^t) - L*) + O(noise) holds at every iteration.",
            "inequality",
            recursion_check("current"),
            algorithm="hu-5",
            variant="standard",
            mutants=(
                Mutant("step size eta x3 (= 2/gamma)", recursion_check("current", eta_factor=3.0), factor=3.0),
                Mutant(
                    "step size eta x0.06 (too short to contract by 11/12)",
                    recursion_check("current", eta_factor=0.06),
                    factor=0.06,
                ),
            ),
        )
    )
    claim(
        Claim(
            "hu.thm8.recursion.printed-indices",
            "[002 Thm. 8], [002 App. A], [002 Alg. 5 step 4]",
            "Under reading A (the printed indices: gradient at w^{t-1}) the proof's recursion L(w^{t+1}) - L* <= "
            "(1 - mu/(12 gamma))(L(w^t) - L*) + O(noise) holds at every iteration.",
            "inequality",
            recursion_check("previous"),
            algorithm="hu-5",
            variant="standard",
            mutants=(
                Mutant(
                    "the gradient at the current iterate (reading B; must be confirmed)",
                    recursion_check("current"),
                    detected_by=("confirmed",),
                ),
            ),
        )
    )
    claim(
        Claim(
            "hu.thm8.privacy.printed-indices",
            "[002 Thm. 8], [002 Alg. 5 steps 4-7], [002 Lemma 10]",
            "Algorithm 5 with the printed indices (gradient at w^{t-1}) is (epsilon, delta)-DP (per iteration).",
            "privacy",
            with_power_note(lagged_privacy_check(), PEELING_POWER),
            algorithm="hu-5",
            variant="standard",
            mutants=_lambda_mutants(
                lambda f: lagged_privacy_check(lam_factor=f),
                claim_id="hu.thm8.privacy.printed-indices",
                factors=(0.5, 0.8, 0.01),
            ),
        )
    )
