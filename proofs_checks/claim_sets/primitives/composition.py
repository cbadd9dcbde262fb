"""The per-round budget of [002 Lemma 2] against advanced composition (Dwork & Roth 2014, Thm. 3.20)."""

from __future__ import annotations

import numpy as np

from reference.mechanisms import advanced_composition_epsilon, advanced_composition_split

from ...builders import max_search_check

__all__ = ["composition_split_check"]


def _printed_split(eps, delta, rounds):
    s = advanced_composition_split(eps, delta, rounds, "printed")
    return s.epsilon_step, s.delta_step


def composition_split_check(split=_printed_split):
    """Check factory: does the per-round budget ``split(eps, delta, T) -> (eps', delta')`` compose within eps?

    Dwork & Roth's Theorem 3.20 with slack ``delta`` gives T rounds of ``(eps', delta')`` a total
    ``(eps_total, T delta' + delta)``; ``observed`` is the largest ``eps_total / eps`` over a grid of
    eps in (0, 1), delta and T.
    """

    def search(ctx):
        worst, where, n = 0.0, None, 0
        for eps in np.linspace(0.01, 0.999, 40):
            for delta in (1e-1, 1e-3, 1e-6, 1e-9):
                for rounds in (1, 2, 5, 10, 100, 1000, 10**5):
                    e_step, _ = split(eps, delta, rounds)
                    total = advanced_composition_epsilon(e_step, rounds, delta)
                    n += 1
                    if total / eps > worst:
                        worst, where = total / eps, {"epsilon": float(eps), "delta": delta, "T": rounds}
        return worst, where, n

    return max_search_check(
        search,
        1.0,
        method="Dwork & Roth 2014, Thm. 3.20 evaluated on 40 epsilon in [0.01, 0.999] x 4 delta x 7 T; observed = "
        "largest total epsilon / target epsilon",
        reading="[002 Lemma 2]: eps' = eps/(2 sqrt(2T ln(2/delta))), delta' = delta/T per round gives "
        "(eps, T delta' + delta)-DP over T adaptive rounds, 0 < eps < 1; (eps, delta)-DP over replace-one "
        "neighbouring datasets",
        evidence={"note": "the lemma's total delta is T*delta' + delta = 2*delta"},
    )
