"""[002 Lemma 5]: Algorithm 1's selected vertex against the population gradient, by simulation with fixed constants.

Lemma 5 bounds, with probability ``1 - zeta`` for every iteration ``t``, the gap
``<w~^{t-1}, grad L(w^{t-1})> - min_v <v, grad L(w^{t-1})>`` of the vertex [002 Alg. 1 step 6] selects.  Its proof
adds three explicit pieces, which fix the ``O(.)``: the exponential mechanism's utility (24) from [002 Lemma 1],
``2 Delta / eps (log|V| + log(T/zeta))`` per iteration with ``Delta = 4 ||W||_1 sqrt(2) s / (3m)``; the robust
gradient's error (25), ``||W||_1 (tau/s (1/beta + 1) + s/m (beta + log(2dT/zeta)))``; and (26), the same with
``tau/(2s)`` and ``beta/2``.  (23) prints the mechanism's term with the product ``log|V| log(T/zeta)`` where Lemma 1
gives the sum: two readings, two claims.  ``||W||_1`` is the l1 radius (1), as the implementation's default.

The simulation: ``x ~ N(0, I_d)``, ``y = <x, w*> + t(3)`` noise, the squared loss ``(<x, w> - y)^2``, so
``grad L(w) = 2 (w - w*)`` and ``tau = sup_w max_j E[(grad_j l)^2] = 4 (12 + 3) = 60`` on the unit l1 ball; each run
draws ``T`` fresh parts of ``m`` records at fixed iterates (each part is independent of the iterate it meets, as in
the algorithm), computes ``g~`` (reference ``dp_fw_robust_gradients``), draws the vertex from the exact law of step 6
and records whether every iteration's gap is within the bound.
"""

from __future__ import annotations

import math

import numpy as np

from reference.hu.frank_wolfe import dp_fw_selection_log_prob, l1_ball_vertices

from ...builders import coverage_check
from ...model import Claim, Mutant

__all__ = ["lemma5_bound", "register"]

#: tau of the model of the module docstring (unit l1 ball, Var(t(3)) = 3).
TAU = 60.0


def lemma5_bound(d, T, m, s, beta, epsilon, zeta, reading="sum", tau=TAU, radius=1.0):
    """The right side of (23) minus ``min_v``: the proof's three pieces with their printed constants.

    Parameters
    ----------
    d, T, m : int
        Dimension, iterations, records per part.
    s, beta, epsilon : float
        The estimator's scale and noise parameter, the step's budget.
    zeta : float
        The failure probability, in (0, 1).
    reading : {"sum", "product"}
        ``log|V| + log(T/zeta)`` ([002 Lemma 1]) or ``log|V| log(T/zeta)`` (as printed in (23), (24)).
    tau : float
        The second-moment bound of the gradient's coordinates.
    radius : float
        ``||W||_1``.

    Returns
    -------
    float
        The bound on the gap.

    Raises
    ------
    ValueError
        ``zeta`` outside (0, 1) or an unknown ``reading``.

    References
    ----------
    [002 Lemma 5], [002 eq. (23)]-(26), [002 Lemma 1].

    Examples
    --------
    >>> round(lemma5_bound(5, 3, 2000, 50.0, 1.0, 1.0, 0.1), 4)
    4.4604
    """
    if not 0 < zeta < 1:
        raise ValueError(f"zeta must be in (0, 1), got {zeta!r}")
    if reading not in ("sum", "product"):
        raise ValueError(f"reading must be 'sum' or 'product', got {reading!r}")
    log_v, log_t = math.log(2 * d), math.log(T / zeta)
    delta_u = 4 * radius * math.sqrt(2) * s / (3 * m)
    mechanism = 2 * delta_u / epsilon * (log_v + log_t if reading == "sum" else log_v * log_t)
    log_union = math.log(2 * d * T / zeta)
    left = radius * (tau / s * (1 / beta + 1) + s / m * (beta + log_union))  # (25)
    right = radius * (tau / (2 * s) * (1 / beta + 1) + s / m * (beta / 2 + log_union))  # (26)
    return mechanism + left + right


def lemma5_coverage(reading="sum", bound_factor=1.0, runs=30):
    """Coverage of [002 Lemma 5] over simulated runs (all ``T`` iterations within the bound)."""
    d, T, m, beta, epsilon, zeta = 5, 3, 2000, 1.0, 1.0, 0.1
    s = math.sqrt(TAU * (1 / beta + 1) * m / (beta + math.log(2 * d * T / zeta)))  # balances (25)'s two terms
    V = l1_ball_vertices(d)
    w_star = np.zeros(d)
    w_star[0] = -0.5
    # iterates: far from w* (gradient 3 e_1: the only one where the bound is below the largest possible gap, 6),
    # one with a gap of 1 between the best vertex and the next (gradient 2 (0.7, 0.2, ..., 0.2)), one near w*
    iterates = [np.eye(d)[0], np.full(d, 0.2), w_star + 0.01 * np.eye(d)[2]]
    bound = lemma5_bound(d, T, m, s, beta, epsilon, zeta, reading)

    def simulate(ctx):
        rng = ctx.rng()
        total = runs if ctx.profile == "quick" else 5 * runs
        held = []
        for _ in range(total):
            ok = True
            for t in range(T):
                w = iterates[t % len(iterates)]
                X = rng.standard_normal((m, d))
                y = X @ w_star + rng.standard_t(3.0, size=m)
                logp = dp_fw_selection_log_prob(w, X, y, "squared", V, s, beta, epsilon)[0]
                chosen = int(rng.choice(len(V), p=np.exp(logp - np.logaddexp.reduce(logp))))
                population = V @ (2 * (w - w_star))
                gap = float(population[chosen] - population.min())
                ok = ok and gap <= bound_factor * bound
            held.append(ok)
        return np.array(held)

    # the largest possible gap at each iterate, max_v - min_v of <v, grad L> = 2 ||grad L||_inf on the l1 ball
    trivial = [2 * 2 * float(np.max(np.abs(w - w_star))) for w in iterates]
    return coverage_check(
        simulate,
        1 - 2 * zeta,
        method=f"simulation: d = {d}, T = {T} parts of m = {m} records (x ~ N(0, I), y = <x, w*> + t(3), w* = "
        f"-0.5 e_1), beta = {beta:g}, eps = {epsilon:g}, s = {s:.2f}, zeta = {zeta:g}, tau = {TAU:g}; iterates "
        "e_1, 0.2 (1, ..., 1), w* + 0.01 e_3 in turn; the vertex drawn from the exact law of step 6 "
        f"(dp_fw_selection_log_prob); {runs} runs (quick), 5x at full; bound {bound:.3f} against the largest "
        f"possible gap {', '.join(f'{g:g}' for g in trivial)} at these iterates (the bound can fail only at the "
        "first); nominal 1 - 2 zeta ((22) and the lemma each fail with probability zeta)",
        reading="[002 Lemma 5] (file line 726) with the O(.) fixed by its proof: (24) from [002 Lemma 1] "
        + (
            "with log|V| + log(T/zeta) (Lemma 1's sum)"
            if reading == "sum"
            else "with log|V| log(T/zeta) as printed in (23)-(24) and Lemma 1's constant 2 Delta / eps"
        )
        + ", (25) and (26) as printed; ||W||_1 the radius; the other reading is hu.lemma5.fw-gap."
        + ("product" if reading == "sum" else "sum")
        + ("" if bound_factor == 1.0 else f"; mutant: the bound times {bound_factor:g}")
        + "; confirmed only when the lower Clopper-Pearson limit is at least 1 - 2 zeta",
        confirm="lower_limit",
        evidence={
            "zeta": zeta,
            "slack": bound_factor,
            "model": "x ~ N(0, I_5), y = <x, w*> + t(3)",
            "power": "measured at 30 runs, seeds 20261121, 1, 2, 3: the bound x0.002 is refuted (coverage 0-0.1); "
            "x0.01 is inconclusive (0.7-0.93): the bound is 0.7 of the largest possible gap at the one iterate where it "
            "can fail, and the mechanism rarely errs there, so only gross errors are caught",
        },
    )


def register(registry):
    """Add the claims on [002 Lemma 5], one per reading of the mechanism's logarithms."""
    for reading in ("sum", "product"):
        registry.add_claim(
            Claim(
                f"hu.lemma5.fw-gap.{reading}",
                "[002 Lemma 5], [002 eq. (23)]",
                "<w~^{t-1}, grad L(w^{t-1})> <= min_v <v, grad L(w^{t-1})> + the bound of (23) for every t with "
                f"probability 1 - zeta (constants of the proof, log|V| and log(T/zeta) as a {reading}).",
                "inequality",
                lemma5_coverage(reading),
                algorithm="hu-1",
                mutants=(Mutant("the bound times 0.002", lemma5_coverage(reading, bound_factor=0.002), factor=0.002),),
            )
        )
