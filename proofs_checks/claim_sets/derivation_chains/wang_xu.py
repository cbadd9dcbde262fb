"""Claims ``chains.000.*``: the derivation chains of Wang & Xu (000) judged term by term (sympy).

Each claim builds one chain of :mod:`proofs_checks.formulas.chains.wang_xu` and judges it in one reading:
``explicit`` (the constants: every premise term matched with a coefficient ratio >= 1) or ``o`` (orders only,
under the regime the claim id names).  ``observed`` is the number of premise terms the statement fails to cover
(bound 0); the evidence lists every term (``rows``), the regime (``rule``) and the witnesses.  sympy is
imported when a check runs, not when the claim set loads (the CLI's start-up stays light).
"""

from __future__ import annotations

from ._claims import register_chain_claims

__all__ = ["CHAIN_CLAIMS", "WITNESS_POINTS", "register"]

#: (claim suffix, chain function of :mod:`proofs_checks.formulas.chains.wang_xu`, its keyword arguments, reading,
#: statement, mutations the check must refute; mutations as in :mod:`._claims`)
CHAIN_CLAIMS: tuple = (
    (
        "eq14.explicit",
        "eq14_chain",
        (),
        "explicit",
        "[000 eq. (14)] is the sum of [000 Lemma 4], [000 eq. (9)], [000 eq. (13)] and [000 Lemma 6], term by term.",
        (("drop", "logN/(iota*n)"), ("scale", "M*iota", "1/2"), ("shift", "M*iota", "iota", "1/2")),
    ),
    (
        "eq14.o",
        "eq14_chain",
        (),
        "o",
        "[000 eq. (14)] dominates its premises' sum in order (n -> inf, eps <= 1).",
        (("drop", "M*iota"), ("shift", "M*iota", "iota", "1/2")),
    ),
    (
        "eq24.explicit",
        "eq24_chain",
        (),
        "explicit",
        "The second line of [000 eq. (24)] follows from [000 Lemma 9] and [000 eq. (25)] with its constants.",
        (("repair",),),
    ),
    (
        "eq24.o",
        "eq24_chain",
        (),
        "o",
        "The second line of [000 eq. (24)] follows from [000 Lemma 9] and [000 eq. (25)] in order.",
        (("drop", "M*iota**(theta - 1)"), ("shift", "M*iota**(theta - 1)", "iota", "1/theta")),
    ),
    (
        "eq26.explicit.reading-a",
        "eq26_chain",
        (("reading", "a"),),
        "explicit",
        "[000 eq. (26)] is at least the sum of [000 eq. (20)], [000 Lemma 7], [000 eq. (23)] and the printed "
        "[000 eq. (24)], term by term.",
        (("repair",),),
    ),
    (
        "eq26.explicit.reading-b",
        "eq26_chain",
        (("reading", "b"),),
        "explicit",
        "[000 eq. (26)] is at least the sum of its premises with [000 eq. (24)] re-derived from [000 Lemma 9] and "
        "[000 eq. (25)], term by term.",
        (("repair",),),
    ),
    (
        "eq26.o.eps-bounded",
        "eq26_chain",
        (("reading", "a"), ("regime", "eps-bounded")),
        "o",
        "[000 eq. (26)] dominates its premises' sum in order for eps <= 1.",
        (("drop", "M*iota**(theta - 1)"), ("shift", "M*iota**(theta - 1)", "iota", "1/theta")),
    ),
    (
        "eq26.o.eps-large",
        "eq26_chain",
        (("reading", "a"), ("regime", "eps-large")),
        "o",
        "[000 eq. (26)] dominates its premises' sum in order for every eps > 0.",
        (("repair",),),
    ),
    (
        "step39.explicit",
        "step39_chain",
        (),
        "explicit",
        "The exponent of [000 eq. (39)] bounds the line above it after 1 + u <= exp(u), term by term.",
        (("repair",),),
    ),
    (
        "lemma10.explicit",
        "lemma10_chain",
        (),
        "explicit",
        "[000 Lemma 10]'s statement follows from the exponent of (39) with iota zeta E||x|| kept, term by term.",
        (("drop", "tau*zeta"), ("scale", "M*iota**(theta - 1)", "1/2"), ("shift", "tau*zeta", "zeta", "1/theta")),
    ),
    (
        "thm1-display.o.printed",
        "thm1_display_chain",
        (("reading", "printed"),),
        "o",
        "[000 Thm. 1]'s O-display (with log(N/zeta)) dominates (14) in order for eps <= 1.",
        (("repair",),),
    ),
    (
        "thm1-display.o.eta-as-zeta",
        "thm1_display_chain",
        (("reading", "eta-as-zeta"),),
        "o",
        "[000 Thm. 1]'s O-display, its zeta read as eta, dominates (14) in order for eps <= 1.",
        (("drop", "Delta**2*iota*tau**2"), ("shift", "Delta**2*iota*tau**2", "iota", "1/2")),
    ),
    (
        "eq7.o.eps-bounded",
        "eq7_chain",
        (("regime", "eps-bounded"),),
        "o",
        "[000 eq. (7)] follows from (14) at the theorem's zeta and iota, for eps <= 1.",
        (
            ("shift", "sqrt(d)*sqrt(li)*sqrt(logn)*tau/sqrt(m)", "m", "-1/2"),
            ("shift", "sqrt(d)*sqrt(li)*sqrt(logn)*tau/sqrt(m)", "d", "-1/2"),
        ),
    ),
    (
        "eq7.o.eps-large",
        "eq7_chain",
        (("regime", "eps-large"),),
        "o",
        "[000 eq. (7)] follows from (14) at the theorem's zeta and iota, for every eps > 0.",
        (("repair",),),
    ),
    (
        "eq8.o.eps-bounded",
        "eq8_chain",
        (("regime", "eps-bounded"),),
        "o",
        "[000 eq. (8)] follows from (14) under [000 Assumption 2] at the theorem's zeta and iota, for eps <= 1.",
        (("shift", "d*sqrt(li)*sqrt(logn)*tau/sqrt(m)", "d", "-1/2"),),
    ),
    (
        "eq8.o.eps-large",
        "eq8_chain",
        (("regime", "eps-large"),),
        "o",
        "[000 eq. (8)] follows from (14) under [000 Assumption 2], for every eps > 0.",
        (("repair",),),
    ),
    (
        "eq27.o.eps-bounded",
        "eq27_chain",
        (("regime", "eps-bounded"),),
        "o",
        "[000 eq. (27)] follows from the premises of (26) in order, for eps <= 1.",
        (("drop", "iota**(theta - 1)*tau**theta"), ("shift", "iota**(theta - 1)*tau**theta", "iota", "1/theta")),
    ),
    (
        "eq27.o.eps-large",
        "eq27_chain",
        (("regime", "eps-large"),),
        "o",
        "[000 eq. (27)] follows from the premises of (26) in order, for every eps > 0.",
        (("repair",),),
    ),
    (
        "eq18.o.logs-kept",
        "eq18_chain",
        (("logs", "kept"),),
        "o",
        "[000 eq. (18)] follows at the theorem's zeta and iota, log n and log(1/eta) kept, eps <= 1.",
        (("repair",),),
    ),
    (
        "eq18.o.logs-hidden",
        "eq18_chain",
        (("logs", "hidden"),),
        "o",
        "[000 eq. (18)] follows at the theorem's zeta and iota, its O-tilde hiding log factors, eps <= 1.",
        (("shift", "d**(1 - 1/theta)*logn**(2 - 2/theta)*m**(-1 + 1/theta)*tau", "m", "-1/theta"),),
    ),
    (
        "eq19.o.iota-printed",
        "eq19_chain",
        (("iota_exponent", "printed"),),
        "o",
        "[000 eq. (19)] follows at the printed iota = O((log n log(1/eta)/(n eps))^((theta-1)/theta)/tau), eps <= 1.",
        (("repair",),),
    ),
    (
        "eq19.o.iota-one-over-theta",
        "eq19_chain",
        (("iota_exponent", "one-over-theta"),),
        "o",
        "[000 eq. (19)] follows with iota's exponent read as 1/theta (as for (18)), log factors hidden, eps <= 1.",
        (("shift", "d*logn**(2 - 2/theta)*m**(-1 + 1/theta)*tau", "m", "-1/theta"),),
    ),
)


_T2 = {"theta": "3/2", "iota": "1/10", "tau": "1", "M": "1", "li": "log(20)"}
_RATE = {"d": "1", "tau": "1", "Delta": "1", "log3D": "log(3)", "li": "log(20)"}

#: Numeric points at which the premises' sum over the stated bound is evaluated (50 digits), the witness of a
#: refutation in numbers (values in sympy syntax; eta = 0.05 gives li = log 20).  A term-by-term refutation need
#: not make the whole sum exceed the statement everywhere: the points show where it does and where it does not.
WITNESS_POINTS: dict = {
    "eq24.explicit": [
        {**_T2, "n": "1000", "zeta": "1/1000", "logN": "log(3000)", "M": m_value} for m_value in ("1", "100")
    ],
    **{
        f"eq26.{suffix}": [
            {**_T2, "n": "3200", "zeta": "1/3200", "logN": "log(9600)", "eps": eps} for eps in ("1/10", "1", "50")
        ]
        for suffix in ("explicit.reading-a", "explicit.reading-b")
    },
    # the O-reading lets iota move: at n fixed, iota = 1/eps and eps -> inf make the dropped lg/(n iota) grow
    "eq26.o.eps-large": [
        {**_T2, "n": "3200", "zeta": "1/3200", "logN": "log(9600)", "eps": eps, "iota": f"1/{eps}"}
        for eps in ("1", "100", "10000")
    ],
    "step39.explicit": [{"theta": "3/2", "iota": "1/10", "zeta": "1/100", "Ex": "1", "Exth": "1", "Er": "1"}],
    "thm1-display.o.printed": [
        {
            "n": "1000",
            "eps": "1",
            "iota": "1/10",
            "zeta": "1/1000",
            "tau": "1",
            "Delta": "1",
            "logN": "log(3000)",
            "lz": "log(1000)",
            "li": li,
        }
        for li in ("log(20)", "100", "10000")
    ],
    **{
        f"{eq}.o.eps-large": [
            {**_RATE, "d": d_value, "m": f"1000*{eps}", "eps": eps, "logn": "log(1000)"}
            for eps in ("1", "100", "10000")
        ]
        for eq, d_value in (("eq7", "1"), ("eq8", "10"))
    },
    "eq27.o.eps-large": [
        {
            **_T2,
            **{"n": "1000", "zeta": "1/1000", "Delta": "1", "log3D": "log(3)", "d": "1", "lz": "log(1000)"},
            **{"eps": eps, "iota": f"1/{eps}"},
        }
        for eps in ("1", "100", "10000")
    ],
    "eq18.o.logs-kept": [
        {**_RATE, "theta": "3/2", "m": "1000", "eps": "1", "logn": "log(1000)", "li": li}
        for li in ("log(20)", "100", "10000")
    ],
    "eq19.o.iota-printed": [
        {**_RATE, "theta": "3/2", "m": n_value, "eps": "1", "logn": f"log({n_value})"}
        for n_value in ("10**3", "10**6", "10**9", "10**12")
    ],
}


def register(registry):
    """Register the ``chains.000.*`` claims."""
    register_chain_claims(registry, "000", "wang_xu", CHAIN_CLAIMS, WITNESS_POINTS)
