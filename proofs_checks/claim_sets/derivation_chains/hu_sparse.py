"""Claims ``chains.002.thm6.*`` to ``chains.002.thm8.*``: the sparse theorems of Hu et al. (002) step by step.

Chains of :mod:`proofs_checks.formulas.chains.hu_thm7` ([002 Thm. 7]: the steps [002 eq. (49)]-[002 eq. (55)]
between explicit displays, judged coefficient by coefficient of the squared norms, and the rate steps
[002 eq. (74)], [002 eq. (75)] in the O-reading) and :mod:`proofs_checks.formulas.chains.hu_thm8` ([002 Thm. 8]:
the noise after [002 eq. (45)] and the rate, one claim per choice of the estimator's scale k).  Rows and mutations
as in :mod:`._claims`.
"""

from __future__ import annotations

from ._claims import register_chain_claims

__all__ = ["THM7_CLAIMS", "THM8_CLAIMS", "WITNESS_POINTS", "register"]

_C_LARGE = ("c_grid", "c-large")

#: (claim suffix, chain function of :mod:`proofs_checks.formulas.chains.hu_thm7`, keyword pairs, reading,
#: statement, mutations the check must refute)
THM7_CLAIMS: tuple = (
    (
        "thm6.sensitivity.explicit",
        "thm6_sensitivity_chain",
        (),
        "explicit",
        "[002 Thm. 6]: one replaced record moves w^{t+0.75} of [002 Alg. 3] by at most 2 K^2 eta_0 (sqrt(s) + 1)/m.",
        (
            ("drop", "K**2*eta0/m"),
            ("scale", "K**2*eta0*sqrt(s)/m", "1/2"),
            ("shift", "K**2*eta0*sqrt(s)/m", "s", "-1/2"),
        ),
    ),
    (
        "thm7.step49.explicit",
        "step49",
        (),
        "explicit",
        "[002 eq. (49)] follows from Cauchy-Schwarz and 2uv <= u^2 + v^2, coefficient by coefficient.",
        (("drop", "ES"), ("scale", "ES", "1/2"), ("shift", "ES", "gamma", "-1")),
    ),
    (
        "thm7.step51.explicit",
        "step51",
        (),
        "explicit",
        "[002 eq. (51)] follows from expanding ||w_R2 - (eta/gamma) g_R2||^2, coefficient by coefficient.",
        (("drop", "A"), ("scale", "A", "1/2"), ("shift", "A", "eta", "1")),
    ),
    (
        "thm7.step52.explicit.lemma12",
        "step52_display",
        (("selection_noise", "lemma12"),),
        "explicit",
        "The display after [002 eq. (52)] follows from (52)'s Young inequalities and [002 Lemma 12], for c > 1.",
        (("repair",),),
    ),
    (
        "thm7.step52.explicit.printed",
        "step52_display",
        (("selection_noise", "printed"),),
        "explicit",
        "The display after [002 eq. (52)] follows from (52) as printed (2 (1 + c) W^t), for c > 1.",
        (("repair",),),
    ),
    (
        "thm7.step53.explicit.from-52.c-large",
        "step53",
        (("source", "from-52"), _C_LARGE),
        "explicit",
        "[002 eq. (53)] follows from (51) and the inequalities of [002 eq. (52)] for c large (c >= 10).",
        (("drop", "Wt"), ("scale", "GR1", "1/2"), ("shift", "E2", "c", "-1")),
    ),
    (
        "thm7.step53.explicit.from-52.c-any",
        "step53",
        (("source", "from-52"), ("c_grid", "c-any")),
        "explicit",
        "[002 eq. (53)] follows from (51) and the inequalities of [002 eq. (52)] for every c > 1.",
        (("repair",),),
    ),
    (
        "thm7.step53.explicit.printed-display",
        "step53",
        (("source", "printed-display"), _C_LARGE),
        "explicit",
        "[002 eq. (53)] follows from (51) and the display after [002 eq. (52)] as printed, for c large.",
        (("repair",),),
    ),
    (
        "thm7.step55.explicit.printed",
        "step55",
        (("stated", "printed"), _C_LARGE),
        "explicit",
        "[002 eq. (55)] (with -(eta/2gamma)||g_{S^{t+1} cup S^t}||^2) follows from (49), Young and (53), c large.",
        (("repair",),),
    ),
    (
        "thm7.step55.explicit.support-t",
        "step55",
        (("stated", "support-t"), _C_LARGE),
        "explicit",
        "[002 eq. (55)] with -(eta/2gamma)||g_{S^t}||^2 in place of the union follows from (49), Young and (53).",
        (("drop", "Wn"), ("scale", "Wt", "1/2"), ("shift", "ES", "gamma", "-1")),
    ),
    (
        "thm7.step55.explicit.quarter-young",
        "step55",
        (("stated", "quarter-young"), _C_LARGE),
        "explicit",
        "[002 eq. (55)] with -(eta/4gamma) on the union holds when (49) splits 2uv <= u^2/2 + 2v^2 (a repair).",
        (("scale", "Wn", "1/2"), ("shift", "ES", "eta", "1")),
    ),
    (
        "thm7.noise-display.o",
        "noise_display_chain",
        (("moment", "bounded"),),
        "o",
        "The display before [002 eq. (74)]: s ||g~ - g||_inf^2 = O(s T M log(d/zeta)/(n eps)) at the theorem's K.",
        (("repair",),),
    ),
    (
        "thm7.eq74.o.m-bounded",
        "eq74_chain",
        (("moment", "bounded"),),
        "o",
        "[002 eq. (74)] dominates Peeling's noise and the statistical terms in order (M a constant).",
        (
            ("shift", "L**2*M*T*eta**2*ld*s**2/(eps*gamma**2*n)", "T", "-1"),
            ("shift", "L**2*M*T*eta**2*ld*s**2/(eps*gamma**2*n)", "s", "-1/2"),
        ),
    ),
    (
        "thm7.eq74.o.m-tracked",
        "eq74_chain",
        (("moment", "tracked"),),
        "o",
        "[002 eq. (74)] dominates Peeling's noise and the statistical terms in order, M >= 1 tracked.",
        (("repair",),),
    ),
    (
        "thm7.rate.o.mu-at-most-1",
        "thm7_rate_chain",
        (("mu_range", "at-most-1"),),
        "o",
        "[002 Thm. 7]'s rate follows from [002 eq. (75)] at eta = 2/3, s = 72 (gamma/mu)^2 s*, T = (gamma/mu) log n, "
        "mu <= 1.",
        (
            ("shift", "L**2*M*gamma**4*ld*logn*sstar**2/(eps*mu**7*n)", "sstar", "-1/2"),
            ("shift", "L**2*M*gamma**4*ld*logn*sstar**2/(eps*mu**7*n)", "mu", "2"),
        ),
    ),
    (
        "thm7.rate.o.mu-free",
        "thm7_rate_chain",
        (("mu_range", "free"),),
        "o",
        "[002 Thm. 7]'s rate follows from [002 eq. (75)] at the proof's settings, for every mu > 0.",
        (("repair",),),
    ),
    (
        "thm7.start-radius.explicit.proof-constant",
        "start_radius_chain",
        (("reading", "proof-constant"),),
        "explicit",
        "||w^1 - w*||^2 <= mu/(2 gamma) keeps ||w^{t+0.75} - w*|| <= 1/2 in the induction after [002 eq. (75)].",
        (("repair",),),
    ),
    (
        "thm7.start-radius.o.proof-constant",
        "start_radius_chain",
        (("reading", "proof-constant"),),
        "o",
        "||w^1 - w*||^2 = O(mu/gamma) keeps ||w^{t+0.75} - w*|| = O(1) in the induction after [002 eq. (75)].",
        (("shift", "1", "kappa", "-1"),),
    ),
    (
        "thm7.start-radius.o.theorem-order",
        "start_radius_chain",
        (("reading", "theorem-order"),),
        "o",
        "[002 Thm. 7]'s ||w^1 - w*|| <= O(gamma/mu) keeps ||w^{t+0.75} - w*|| = O(1) in the induction.",
        (("repair",),),
    ),
)

_RATE8 = "L*kappa**5*sqrt(ld)*logn*sstar**(3/2)*tau/(gamma*m)"
_NOISE8 = "L*T*sqrt(ld)*s**(3/2)*tau/(gamma**2*m)"

#: (claim suffix, chain function of :mod:`proofs_checks.formulas.chains.hu_thm8`, keyword pairs, reading,
#: statement, mutations the check must refute)
THM8_CLAIMS: tuple = tuple(
    (
        f"thm8.{what}.o.{k}",
        factory,
        (("k", k), ("logs", "hidden")),
        "o",
        f"[002 Thm. 8] {text} at the estimator's scale {label}, logs hidden.",
        mutations,
    )
    for what, factory, text in (
        ("noise", "noise_chain", "the noise after [002 eq. (45)] is O(tau s^(3/2) T/(gamma^2 n eps))"),
        ("rate", "thm8_chain", "rate O(tau gamma^4 s*^(3/2)/(mu^5 n eps)) follows from the noise after [002 eq. (45)]"),
    )
    for k, label, mutations in (
        ("proof-k", "k^4 = (n eps tau)^2/((s T)^2 log(Ts/zeta)) (the proof's)", (("repair",),)),
        ("theorem-k", "k = sqrt(n eps tau) (the theorem's)", (("repair",),)),
        (
            "balanced-k",
            "k^4 = (n eps tau)^2/(s T^2) (balancing bias and noise)",
            (
                ("shift", _NOISE8 if what == "noise" else _RATE8, "s" if what == "noise" else "sstar", "-1/2"),
                ("shift", _NOISE8 if what == "noise" else _RATE8, "T" if what == "noise" else "kappa", "-1"),
            ),
        ),
    )
)

_KAPPA = ("1", "10", "100")

#: Numeric witnesses (premises' sum / stated bound, 50 digits).
WITNESS_POINTS: dict = {
    "thm7.noise-display.o": [
        {"n": "10**6", "eps": "1", "T": "10", "M": "1", "L": "log(10**3)", "s": s_value}
        for s_value in ("10", "100", "1000")
    ],
    "thm7.eq74.o.m-tracked": [
        {"n": "10**6", "eps": "1", "T": "10", "s": "10", "L": "1", "ld": "1", "gamma": "1", "eta": "2/3", "M": m_value}
        for m_value in ("1", "100", "10**4")
    ],
    "thm7.rate.o.mu-free": [
        {"n": "10**6", "eps": "1", "sstar": "1", "M": "1", "L": "1", "ld": "1", "logn": "1", "gamma": "1", "mu": mu}
        for mu in ("1", "10", "100")
    ],
    "thm7.start-radius.explicit.proof-constant": [{"kappa": kappa} for kappa in _KAPPA],
    "thm7.start-radius.o.theorem-order": [{"kappa": kappa} for kappa in _KAPPA],
    **{
        f"thm8.noise.o.{k}": [
            {"m": "10**6", "eps": "1", "tau": "1", "L": "1", "ld": "1", "gamma": "1", "T": "10", "s": s_value}
            for s_value in ("10", "100", "1000")
        ]
        for k in ("proof-k", "theorem-k")
    },
    **{
        f"thm8.rate.o.{k}": [
            {
                "m": "10**6",
                "eps": "1",
                "tau": "1",
                "L": "1",
                "ld": "1",
                "gamma": "1",
                "logn": "1",
                "kappa": "2",
                "sstar": v,
            }
            for v in ("10", "100", "1000")
        ]
        for k in ("proof-k", "theorem-k")
    },
}


def register(registry):
    """Register the ``chains.002.thm6.*``, ``chains.002.thm7.*`` and ``chains.002.thm8.*`` claims."""
    register_chain_claims(registry, "002", "hu_thm7", THM7_CLAIMS, WITNESS_POINTS)
    register_chain_claims(registry, "002", "hu_thm8", THM8_CLAIMS, WITNESS_POINTS)
