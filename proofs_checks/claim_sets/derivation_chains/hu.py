"""Claims ``chains.002.*``: the derivation chain of [002 Thm. 2] (private Frank-Wolfe) judged term by term.

Chains of :mod:`proofs_checks.formulas.chains.hu`: the step inside [002 eq. (28)] and the final rate
[002 eq. (29)] = [002 eq. (6)] at the proof's beta, s and T.  Both are O-statements (no constants).  Claims and
mutations as in :mod:`._claims`.
"""

from __future__ import annotations

from ._claims import register_chain_claims

__all__ = ["CHAIN_CLAIMS", "WITNESS_POINTS", "register"]

_RATE_TERM = "W*alpha**(1/3)*ell**(1/3)*tau**(1/3)/m**(1/3)"

#: (claim suffix, chain function of :mod:`proofs_checks.formulas.chains.hu`, keyword pairs, reading, statement,
#: mutations the check must refute)
CHAIN_CLAIMS: tuple = (
    (
        "thm2.step28.o.eps-bounded",
        "step28_chain",
        (("regime", "eps-bounded"),),
        "o",
        "The second line of [002 eq. (28)] dominates its first in order (eps <= 1, |V| >= d, beta = O(1)).",
        (("drop", "W*alpha/T"), ("shift", "T*W*beta*lT*lV*s/(eps*n)", "n", "-1/2")),
    ),
    (
        "thm2.step28.o.eps-large",
        "step28_chain",
        (("regime", "eps-large"),),
        "o",
        "The second line of [002 eq. (28)] dominates its first in order for every eps > 0.",
        (("repair",),),
    ),
    (
        "thm2.o.logs-hidden",
        "thm2_chain",
        (("logs", "hidden"), ("regime", "eps-bounded")),
        "o",
        "[002 eq. (6)] follows from the first line of [002 eq. (28)] at the proof's beta, s, T, logs hidden, eps <= 1.",
        (("shift", _RATE_TERM, "m", "-1/3"), ("shift", _RATE_TERM, "alpha", "-1/3")),
    ),
    (
        "thm2.o.logs-one-order",
        "thm2_chain",
        (("logs", "one-order"), ("regime", "eps-bounded")),
        "o",
        "[002 eq. (6)] follows from the first line of [002 eq. (28)], every log factor of one order kept, eps <= 1.",
        (("repair",),),
    ),
    (
        "thm2.o.eps-large",
        "thm2_chain",
        (("logs", "hidden"), ("regime", "eps-large")),
        "o",
        "[002 eq. (6)] follows from the first line of [002 eq. (28)] for every eps > 0 (logs hidden).",
        (("repair",),),
    ),
)

_ONE = {"W": "1", "alpha": "1", "tau": "1"}

#: Numeric witnesses (premises' sum / stated bound, 50 digits).
WITNESS_POINTS: dict = {
    # the O-reading lets s move: at s = eps the dropped s T log(d T/zeta) / n grows against the kept terms
    "thm2.step28.o.eps-large": [
        {**_ONE, "n": "10**4", "s": eps, "T": "10", "beta": "1", "lT": "log(200)", "lV": "log(2000)", "eps": eps}
        for eps in ("1", "100", "10000")
    ],
    "thm2.o.logs-one-order": [{**_ONE, "m": "10**6", "eps": "1", "ell": ell} for ell in ("log(10**6)", "100", "10000")],
    "thm2.o.eps-large": [{**_ONE, "m": f"10**6*{eps}", "eps": eps, "ell": "1"} for eps in ("1", "100", "10000")],
}


def register(registry):
    """Register the ``chains.002.*`` claims."""
    register_chain_claims(registry, "002", "hu", CHAIN_CLAIMS, WITNESS_POINTS)
