"""The exponential-mechanism step of the utility proofs of Wang & Xu (000): [000 eq. (9)], [000 eq. (20)].

The proofs of [000 Thm. 1] and [000 Thm. 2] apply [000 Lemma 1] with ``t = log(1/eta)`` and the
sensitivity ``2 log theta / (n iota)``: with probability at least ``1 - eta`` the output's truncated
empirical risk exceeds the net minimum by at most ``(4 log theta / (n iota eps)) log(N / eta)``.
The tail probability is computed exactly from the output law over the net (no sampling), for the
printed and the standard variant, on datasets of the d = 1 models of the rate checks.
"""

from __future__ import annotations

import numpy as np

from ...builders import compare_result, WorstCase
from ...rates.trials_wang_xu import em_utility_gap_tail
from ._common import add_variant_claims, setup_for

__all__ = ["EM_CASES", "EM_ETAS", "em_utility_check", "register"]

#: (n, eps) of the cases per profile; the etas of the bound.
EM_CASES = {"quick": [(100, 1.0), (400, 1.0), (400, 50.0)],
            "full": [(100, 1.0), (400, 1.0), (1600, 1.0), (400, 0.25), (400, 50.0), (1600, 50.0)]}
EM_ETAS = (0.5, 0.1, 0.01, 1e-3)


def em_utility_check(algorithm, variant="printed", *, setup=None, datasets=None, cases=None):
    """Check factory: ``P[gap > (4 log theta/(n iota eps)) log(N/eta)] <= eta`` exactly, for each eta.

    For each case ``(n, eps)`` (default :data:`EM_CASES`), dataset (``datasets`` per case; 4 quick,
    16 full) and eta of :data:`EM_ETAS` the tail probability is computed exactly from the output law.
    ``observed`` is the largest tail probability over its eta.  The evidence reports how many of the
    bounds are vacuous (above the largest gap on the net, so that no law could violate them): at
    small ``n iota eps`` (Theorem 2's iota is small) most are.  ``setup`` defaults to
    :func:`~._common.setup_for`; the tests pass a broken one (``broken="hot"``).
    """
    setup = setup_for(algorithm, variant) if setup is None else setup
    eq = 9 if setup.algorithm == 1 else 20

    def check(ctx):
        rng = ctx.rng()
        reps = datasets or (4 if ctx.profile == "quick" else 16)
        worst, rows, vacuous, total = WorstCase(0.0), [], 0, 0
        for n, eps in (cases or EM_CASES[ctx.profile]):
            out = [em_utility_gap_tail(setup, n, eps, rng, EM_ETAS) for _ in range(reps)]
            probs = np.array([o[0] for o in out])
            bounds = np.array([o[1] for o in out])
            gaps = np.array([o[2] for o in out])
            ratio = probs.max(axis=0) / np.array(EM_ETAS)
            j = int(np.argmax(ratio))
            worst.count += ratio.size - 1
            worst.update(ratio[j], {"n": n, "epsilon": eps, "eta": EM_ETAS[j]})
            vacuous += int(np.sum(bounds >= gaps[:, None]))
            total += bounds.size
            rows.append({"n": n, "epsilon": eps, "max_tail_probability": probs.max(axis=0), "max_over_eta": ratio,
                         "bound": bounds[0], "max_gap_on_net": float(gaps.max())})
        return compare_result(
            worst.value, 1.0, "at_most",
            method=f"exact output law over the net (no sampling), {reps} datasets per case (n, eps), "
                   f"etas {list(EM_ETAS)}",
            reading=f"[000 eq. ({eq})] in the proof of [000 Thm. {setup.algorithm}]: [000 Lemma 1] with "
                    "t = log(1/eta) and sensitivity 2 log theta / (n iota); observed = largest tail probability / eta",
            evidence={"etas": EM_ETAS, "cases": rows, "worst_at": worst.where, "vacuous_bounds": f"{vacuous}/{total}",
                      "datasets_per_case": reps, "variant": setup.variant, "theta": setup.theta})

    return check


def register(registry):
    """Register the four em-utility claims (Algorithms 1-2, printed and standard)."""
    add_variant_claims(
        registry, "wang-xu.alg{alg}.em-utility.{variant}",
        lambda alg: f"[000 eq. ({9 if alg == 1 else 20})] [000 Lemma 1]",
        lambda alg: "W.p. 1 - eta the output's truncated empirical risk exceeds the net minimum by at most "
                    "(4 log theta / (n iota eps)) log(N / eta).",
        "inequality", em_utility_check)
