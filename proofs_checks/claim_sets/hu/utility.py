"""[002 Lemma 1] (utility of the exponential mechanism) with its explicit constant, at Algorithm 1's step 6.

The proof of [002 Thm. 2] uses Lemma 1 in [002 eq. (24)]: with probability at least ``1 - e^{-t}``
the selected vertex scores within ``2 Delta (ln|V| + t) / eps`` of the best.  The check computes the
exact law of the selected vertex on random heavy-tailed data and iterates (no sampling) and takes
the largest ratio of the tail probability to ``e^{-t}``
(:func:`proofs_checks.builders.max_search_check` against 1).
"""

from __future__ import annotations

import math

import numpy as np

from reference.hu.data import initial_polytope, linear_data, w_star_polytope
from reference.hu.frank_wolfe import dp_fw_robust_gradients, dp_fw_sensitivity, l1_ball_vertices
from reference.mechanisms import exponential_log_prob

from ...builders import WorstCase, max_search_check
from ...model import Claim, Mutant

__all__ = ["em_utility_check", "register"]


def _implemented_selection(U, V, delta_u, eps):
    """The implementation's step 6: the exponential mechanism ``exp(eps u / (2 Delta))`` [002 Def. 3], row by row."""
    return exponential_log_prob(U, eps, delta_u)


def em_utility_check(selection_log_prob=_implemented_selection, t_values=(0.5, 1.0, 2.0, 4.0)):
    """[002 Lemma 1] at [002 Alg. 1 step 6]: ``P{u(v) <= OPT - 2 Delta (ln|V| + t) / eps} <= e^{-t}``.

    For random heavy-tailed data, iterates and ``(s, epsilon)``, the exact law of the selected vertex
    gives the tail probability.  ``selection_log_prob(U, V, Delta, eps)`` is the step's law over the
    vertices, one row per iterate (default: the implementation's exponential mechanism); the tests
    pass a noisier selection to show the check refutes it.
    """

    def search(ctx):
        rng = ctx.rng()
        worst, evaluations = WorstCase(0.0), 0
        for _ in range(20 if ctx.profile == "quick" else 200):
            d = int(rng.integers(2, 8))
            m = int(rng.integers(20, 200))
            eps = float(10 ** rng.uniform(-1, 1))
            s = float(10 ** rng.uniform(-0.5, 2))
            V = l1_ball_vertices(d)
            data = linear_data(m, w_star_polytope(d, rng), "student_t", "normal", rng, x_params={"df": 3.0})
            W = np.stack([initial_polytope(d, rng) for _ in range(4)])
            g = dp_fw_robust_gradients(W, data[:, :-1], data[:, -1], "squared", s, 1.0)
            U = -(g @ V.T)
            delta_u = dp_fw_sensitivity(V, s, m)
            logp = selection_log_prob(U, V, delta_u, eps)
            gap = U.max(axis=1, keepdims=True) - U
            for t in t_values:
                threshold = 2.0 * delta_u / eps * (math.log(V.shape[0]) + t)
                prob = np.exp(np.where(gap >= threshold, logp, -np.inf)).sum(axis=1).max()
                evaluations += W.shape[0]
                worst.update(
                    prob / math.exp(-t),
                    {"d": d, "m": m, "epsilon": eps, "s": s, "t": t, "probability": float(prob), "bound": math.exp(-t)},
                )
        return worst.value, worst.where, evaluations

    return max_search_check(
        search,
        1.0,
        method="exact law of the selected vertex (no sampling) on 20 (quick) / 200 (full) random instances "
        "(d in [2, 8), m in [20, 200), epsilon in [0.1, 10], s in [0.3, 100]; Student t(3) features; "
        f"4 iterates each) at t = {', '.join(f'{t:g}' for t in t_values)}; observed: the largest "
        "probability / e^{-t}",
        reading="[002 Lemma 1] (file line 70, quoted from [26]) as used in [002 eq. (24)] (line 735): the "
        "exponential mechanism of [002 Def. 3] (weight exp(eps u / (2 Delta))) with score sensitivity Delta "
        "selects a vertex scoring below OPT - 2 Delta (ln|V| + t) / eps with probability at most e^{-t}",
        evidence={"t_values": list(t_values)},
    )


def register(registry):
    registry.add_claim(
        Claim(
            "hu.lemma1.em-utility",
            "[002 Lemma 1], [002 eq. (24)]",
            "at Algorithm 1 step 6, P{u(output) <= OPT - 2 Delta (ln|V| + t)/eps} <= e^{-t}",
            "inequality",
            em_utility_check(),
            algorithm="hu-1",
            mutants=tuple(
                Mutant(f"temperature x{f:g}", em_utility_check(_hotter_selection(f)), factor=f)
                for f in (20.0, 2.0, 1.25)
            )
            + (Mutant("blind selection (uniform over V)", em_utility_check(_blind_selection)),),
        )
    )


def _hotter_selection(factor):
    """Step 6 with a temperature ``factor`` times too hot (``eps / factor`` in the exponent)."""
    return lambda U, V, delta_u, eps: exponential_log_prob(U, eps / factor, delta_u)


def _blind_selection(U, V, delta_u, eps):
    """A selection that ignores the scores: uniform over the vertices."""
    return np.full(U.shape, -math.log(V.shape[0]))
