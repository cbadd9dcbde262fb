"""Claims ``chains.002.thm3.*``, ``chains.002.thm4.*``, ``chains.002.thm5.*``: the Frank-Wolfe theorems of 002.

Chains of :mod:`proofs_checks.formulas.chains.hu_frank_wolfe`: [002 Thm. 3]'s rate (8) from the last display of
its proof, [002 Thm. 4]'s score sensitivity term by term, and [002 Thm. 5]'s [002 eq. (42)] and rate (9).  Rows
and mutations as in :mod:`._claims`.
"""

from __future__ import annotations

from ._claims import register_chain_claims

__all__ = ["CHAIN_CLAIMS", "WITNESS_POINTS", "register"]

_RATE3 = "L**(1/4)*lam/m**(1/4)"
_RATE5 = "ell**(4/5)*lam**(1/5)*ld**(2/5)/m**(2/5)"

#: (claim suffix, chain function of :mod:`proofs_checks.formulas.chains.hu_frank_wolfe`, keyword pairs, reading,
#: statement, mutations the check must refute)
CHAIN_CLAIMS: tuple = (
    (
        "thm3.o.lambda-large",
        "thm3_chain",
        (("lam_range", "large"),),
        "o",
        "[002 Thm. 3]'s (8) follows from the last display of its proof at its beta, s, eta, T (lambda_max >= 1).",
        (("shift", _RATE3, "m", "-1/12"), ("shift", _RATE3, "L", "-1/4")),
    ),
    (
        "thm3.o.lambda-free",
        "thm3_chain",
        (("lam_range", "free"),),
        "o",
        "[002 Thm. 3]'s (8) follows from the last display of its proof for every lambda_max > 0.",
        (("repair",),),
    ),
    (
        "thm4.sensitivity.explicit.unit-ball",
        "thm4_sensitivity_chain",
        (("norm", "unit-ball"),),
        "explicit",
        "[002 Thm. 4]: the score of [002 Alg. 2] moves by at most 8 ||W||_1 K^2/n on the unit l1 ball, term by term.",
        (("scale", "K**2/n", "1/2"), ("shift", "K**2/n", "K", "-1")),
    ),
    (
        "thm4.sensitivity.explicit.radius",
        "thm4_sensitivity_chain",
        (("norm", "radius"),),
        "explicit",
        "[002 Thm. 4]: the score moves by at most 8 ||W||_1 K^2/n on an l1 ball of any radius ||W||_1.",
        (("repair",),),
    ),
    (
        "thm5.step42.o.logs-hidden",
        "step42_chain",
        (("logs", "hidden"),),
        "o",
        "The second line of [002 eq. (42)] dominates its first in order (logs hidden, eps <= 1).",
        (("drop", "C/K**2"), ("shift", "lam/T", "T", "-1")),
    ),
    (
        "thm5.step42.o.logs-one-order",
        "step42_chain",
        (("logs", "one-order"),),
        "o",
        "The second line of [002 eq. (42)] dominates its first in order, every log factor of one order kept.",
        (("repair",),),
    ),
    (
        "thm5.o.logs-one-order",
        "thm5_chain",
        (("logs", "one-order"), ("lam_range", "large")),
        "o",
        "[002 Thm. 5]'s (9) follows from the second line of [002 eq. (42)] at its K and T (lambda_max >= 1).",
        (("shift", _RATE5, "m", "-1/10"), ("shift", _RATE5, "ell", "-1/5")),
    ),
    (
        "thm5.o.lambda-free",
        "thm5_chain",
        (("logs", "one-order"), ("lam_range", "free")),
        "o",
        "[002 Thm. 5]'s (9) follows from the second line of [002 eq. (42)] for every lambda_max > 0.",
        (("repair",),),
    ),
)

#: Numeric witnesses (premises' sum / stated bound, 50 digits).
WITNESS_POINTS: dict = {
    "thm3.o.lambda-free": [
        {"m": "10**6", "eps": "1", "C": "1", "L": "1", "lam": lam} for lam in ("1", "1/10", "1/100")
    ],
    "thm4.sensitivity.explicit.radius": [{"n": "100", "K": "1", "r": r} for r in ("1", "2", "10")],
    "thm5.step42.o.logs-one-order": [
        {"n": "10**6", "eps": "1", "lam": "1", "C": "1", "K": "10", "T": "100", "ld": "1", "ell": ell}
        for ell in ("log(10**6)", "100", "10**4")
    ],
    "thm5.o.lambda-free": [
        {"m": "10**6", "eps": "1", "C": "1", "ld": "1", "ell": "1", "lam": lam} for lam in ("1", "10**-3", "10**-6")
    ],
}


def register(registry):
    """Register the ``chains.002.thm3.*``, ``chains.002.thm4.*`` and ``chains.002.thm5.*`` claims."""
    register_chain_claims(registry, "002", "hu_frank_wolfe", CHAIN_CLAIMS, WITNESS_POINTS)
