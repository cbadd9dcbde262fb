"""Claims ``chains.004.*``: the excess-risk chains of [004 Thm. 1] ([004 App. D.2]) and [004 Thm. 2] ([004 App. D.3]).

Chains of :mod:`proofs_checks.formulas.chains.arora`: the proof's last display from ``err``, ``2 tau_j'`` and GEM's
error (GEM read as printed, re-derived from [004 App. D.1] with the scores' sensitivity, or with the sensitivity
[004 Alg. 1] passes), against the proof's last line or [004 Thm. 1] as stated; and the Bernstein step that sets
``tau_j`` (the printed tail or the textbook inequality); [004 Thm. 2]'s bound from [004 Thm. 1] as [004 App. D.3]
argues, under each reading of its garbled display (``chains.004.d3.o.*``).  Claims and mutations as in
:mod:`._claims`.
"""

from __future__ import annotations

from ._claims import register_chain_claims

__all__ = ["CHAIN_CLAIMS", "D3_CHAIN_CLAIMS", "WITNESS_POINTS", "register"]

_LAST = (("gem", "as-printed"), ("stated", "last-line"))
_MEAN = (("gem", "scores-mean"), ("stated", "last-line"))

#: (claim suffix, chain function of :mod:`proofs_checks.formulas.chains.arora`, keyword pairs, reading, statement,
#: mutations the check must refute)
CHAIN_CLAIMS: tuple = (
    (
        "thm1.explicit.last-line",
        "thm1_chain",
        _LAST,
        "explicit",
        "The last display of [004 App. D.2] is at least err + 2 tau_j' + GEM's 4 Delta lg/(n eps), term by term.",
        (("repair",),),
    ),
    (
        "thm1.o.last-line",
        "thm1_chain",
        _LAST,
        "o",
        "The last display of [004 App. D.2] dominates err + 2 tau_j' + GEM's term in order (eps <= 1).",
        (("drop", "Y*sqrt(lg)/sqrt(n)"), ("shift", "Y*sqrt(lg)/sqrt(n)", "n", "-1/2")),
    ),
    (
        "thm1.explicit.gem-scores-mean",
        "thm1_chain",
        _MEAN,
        "explicit",
        "The last display of [004 App. D.2] covers GEM's error re-derived from [004 App. D.1] at Alg. 1's "
        "eps/2, beta/4, K + 1 pairs and the scores' sensitivity 2 Delta/n, term by term.",
        (("repair",),),
    ),
    (
        "thm1.o.gem-scores-mean",
        "thm1_chain",
        _MEAN,
        "o",
        "The last display of [004 App. D.2] covers GEM's re-derived error in order (eps <= 1).",
        (("drop", "Dl*lg/(eps*n)"),),
    ),
    (
        "thm1.o.gem-alg1-sensitivity",
        "thm1_chain",
        (("gem", "alg1-sensitivity"), ("stated", "last-line")),
        "o",
        "The last display of [004 App. D.2] covers GEM's error at the sensitivity Delta(B_j) [004 Alg. 1] passes.",
        (("repair",),),
    ),
    (
        "thm1.o.statement.logs-kept",
        "thm1_chain",
        (("gem", "as-printed"), ("stated", "statement"), ("logs", "kept")),
        "o",
        "[004 Thm. 1]'s 5 Delta/(n eps) covers the proof's terms in order, log(4K/beta) kept.",
        (("repair",),),
    ),
    (
        "thm1.o.statement.logs-hidden",
        "thm1_chain",
        (("gem", "as-printed"), ("stated", "statement"), ("logs", "hidden")),
        "o",
        "[004 Thm. 1]'s 5 Delta/(n eps) covers the proof's terms in order, log(4K/beta) hidden.",
        (("drop", "Dl/(eps*n)"),),
    ),
    (
        "bernstein.explicit.printed",
        "bernstein_chain",
        (("tail", "printed"),),
        "explicit",
        "[004 App. D.2]: t = tau_j brings the printed deviation tail to beta/(4K), term by term.",
        (("drop", "Y**2*lg"), ("scale", "Dl**2*lg**2/n", "1/2"), ("shift", "Y**2*lg", "lg", "-1/2")),
    ),
    (
        "bernstein.explicit.textbook",
        "bernstein_chain",
        (("tail", "textbook"),),
        "explicit",
        "[004 App. D.2]: t = tau_j brings Bernstein's two-sided tail (n/2 records, variance 4 Y^2, range Delta) "
        "to beta/(4K), term by term.",
        (("repair",),),
    ),
    (
        "bernstein.o.textbook",
        "bernstein_chain",
        (("tail", "textbook"),),
        "o",
        "[004 App. D.2]: t = tau_j has the order Bernstein's two-sided tail needs.",
        (("drop", "Y**2*lg"),),
    ),
    (
        "boosting-bernstein.explicit.printed",
        "boosting_bernstein_chain",
        (("deviation", "printed"),),
        "explicit",
        "[004 App. E]: the stated deviation b log(2/beta)/n + sqrt(E[(L - L^)^2] log(2/beta)) brings the Bernstein "
        "tail to beta/2, term by term.",
        (("repair",),),
    ),
    (
        "boosting-bernstein.o.printed",
        "boosting_bernstein_chain",
        (("deviation", "printed"),),
        "o",
        "[004 App. E]: the stated deviation has the order the Bernstein tail needs.",
        (("shift", "Vm*l2*n", "n", "-1"), ("shift", "Vm*l2*n", "l2", "-1")),
    ),
    (
        "boosting-bernstein.explicit.sqrt2",
        "boosting_bernstein_chain",
        (("deviation", "sqrt2"),),
        "explicit",
        "[004 App. E]: b log(2/beta)/n + sqrt(2 E[(L - L^)^2] log(2/beta)) brings the Bernstein tail to beta/2.",
        (("drop", "b**2*l2**2/n"), ("scale", "Vm*l2*n", "1/2"), ("shift", "Vm*l2*n", "n", "-1")),
    ),
)

#: [004 App. D.3]'s readings (:data:`proofs_checks.formulas.chains.arora.D3_READINGS`): O-readings only (the
#: theorem is an O~ statement); a confirmed reading must refute a dropped stated term and an exponent moved off.
_D3_STATED = "The second entry of [004 Thm. 2]'s min covers [004 Thm. 1]'s last line with [004 App. D.3]'s boosted "
_D3_NOISE = "B**2*H*X**2/(eps**(2/3)*n**(2/3))"
_D3_DROP = (("drop", "B*sqrt(H)*X*Y/sqrt(n)"), ("drop", _D3_NOISE), ("shift", "B*sqrt(H)*X*Y/sqrt(n)", "n", "-1/2"))
_D3_DROP_LAYOUT = (("drop", "Y**2/sqrt(n)"), ("drop", _D3_NOISE), ("shift", "Y**2/sqrt(n)", "n", "-1/2"))
_D3_SPLIT = " (first terms reconstructed as sqrt(H) B X Y/sqrt(n) + Y^2/n, the boosting paragraph's prose)"
_D3_LAYOUT = " (first terms read as one fraction (sqrt(H) B X max{Y, 1} + Y^2)/sqrt(n), as the converted layout has it)"
_D3_DROP_SMALL = (("drop", "B*sqrt(H)*X/sqrt(n)"), ("drop", _D3_NOISE), ("shift", "B*sqrt(H)*X/sqrt(n)", "n", "-1/2"))
D3_CHAIN_CLAIMS: tuple = (
    (
        "d3.o.units-free",
        "d3_chain",
        (("reading", "units-free"),),
        "o",
        _D3_STATED
        + "output-perturbation bound and Lemma D.4's Delta substituted, in order, H, X, Y free"
        + _D3_SPLIT
        + ".",
        (("repair",),),
    ),
    (
        "d3.o.units-free.layout",
        "d3_chain",
        (("reading", "units-free.layout"),),
        "o",
        _D3_STATED + "bound substituted, in order, H, X free, Y >= 1" + _D3_LAYOUT + ".",
        _D3_DROP_LAYOUT,
    ),
    (
        "d3.o.units-free.layout.y-small",
        "d3_chain",
        (("reading", "units-free.layout.y-small"),),
        "o",
        _D3_STATED + "bound substituted, in order, H, X free, Y <= 1" + _D3_LAYOUT + ".",
        (("repair",),),
    ),
    (
        "d3.o.units-free.last-term-squared",
        "d3_chain",
        (("reading", "units-free.last-term-squared"),),
        "o",
        _D3_STATED
        + "bound (its last term read (Y + sqrt(H) B X)^2/n) substituted, in order, H, X, Y free"
        + _D3_SPLIT
        + ".",
        (("repair",),),
    ),
    (
        "d3.o.normalised.y-large",
        "d3_chain",
        (("reading", "normalised.y-large"),),
        "o",
        _D3_STATED + "bound substituted, in order, H and X constants, Y >= 1 (max{Y, 1} = Y).",
        _D3_DROP,
    ),
    (
        "d3.o.normalised.y-small",
        "d3_chain",
        (("reading", "normalised.y-small"),),
        "o",
        _D3_STATED + "bound substituted, in order, H and X constants, Y <= 1 (max{Y, 1} = 1).",
        _D3_DROP_SMALL,
    ),
    (
        "d3.o.normalised.y-large.deviation-y2",
        "d3_chain",
        (("reading", "normalised.y-large.deviation-y2"),),
        "o",
        _D3_STATED + "bound substituted, in order, H and X constants, Y >= 1, Theorem 1's deviation counterfactually "
        "4 Y^2 sqrt(lg/n) (the intact tau_j of Alg. 1 and App. D.2 has sqrt(4 Y^2 lg/n))" + _D3_SPLIT + ".",
        (("repair",),),
    ),
    (
        "d3.o.normalised.y-large.deviation-y2.layout",
        "d3_chain",
        (("reading", "normalised.y-large.deviation-y2.layout"),),
        "o",
        _D3_STATED + "bound substituted, in order, H and X constants, Y >= 1, Theorem 1's deviation counterfactually "
        "4 Y^2 sqrt(lg/n)" + _D3_LAYOUT + ".",
        _D3_DROP_LAYOUT,
    ),
    (
        "d3.o.normalised.logs-kept",
        "d3_chain",
        (("reading", "normalised.logs-kept"),),
        "o",
        _D3_STATED + "bound substituted, in order, H and X constants, Y >= 1, the logs (K, log(4K/beta)) kept.",
        (("repair",),),
    ),
)

#: A units-free witness point of [004 App. D.3]: sqrt(H) B* X = 1/50 small against Y = 1 (features in other units).
_D3_POINT = {"eps": "1", "K": "1", "lg": "log(40)", "ls": "1", "B": "2", "Y": "1"}

_POINT = {"n": "1000", "Y": "1/100", "Dl": "1", "lg": "log(40)", "E": "1/100", "c1": "log(4/3)"}

#: Numeric witnesses (premises' sum / stated bound, 50 digits); K = 3, beta = 0.3 give lg = log 40.
WITNESS_POINTS: dict = {
    # the proof merges 2 Delta lg / n into 5 Delta lg / (n eps): fine at eps <= 1/2, short at eps in (1/2, 1]
    "thm1.explicit.last-line": [{**_POINT, "eps": eps} for eps in ("1/2", "3/4", "1")],
    "thm1.explicit.gem-scores-mean": [{**_POINT, "eps": eps} for eps in ("1/2", "1")],
    # err shrinking like 1/sqrt(n): the sum keeps GEM's 8 Delta lg / eps while the stated bound decays
    "thm1.o.gem-alg1-sensitivity": [
        {**_POINT, "eps": "1", "n": n_value, "E": f"1/sqrt({n_value})"} for n_value in ("10**3", "10**5", "10**7")
    ],
    "thm1.o.statement.logs-kept": [{**_POINT, "eps": "1", "lg": lg} for lg in ("log(40)", "100", "10000")],
    # b = 0 (losses far below their bound): the tail needs t = sqrt(2 Vm l2); the printed t gives 3 n t^2 = half
    "boosting-bernstein.explicit.printed": [
        {"n": "1000", "Vm": "1/1000", "l2": "log(40)", "b": b_value} for b_value in ("10**-6", "1/100", "1")
    ],
    # sqrt(H) B* X = 2/100 against Y = 1: Theorem 1's 4 Y sqrt(lg/n) is not covered by sqrt(H) B X Y/sqrt(n)
    "d3.o.units-free": [{**_D3_POINT, "H": "1", "X": x, "n": "10**6"} for x in ("1", "1/100", "1/10000")],
    "d3.o.units-free.last-term-squared": [
        {**_D3_POINT, "H": "1", "X": x, "n": "10**6"} for x in ("1", "1/100", "1/10000")
    ],
    # labels in larger units than the model's reach: Y^2/sqrt(n) against sqrt(H) B* X Y/sqrt(n) at B* = 2
    "d3.o.normalised.y-large.deviation-y2": [
        {**_D3_POINT, "H": "1", "X": "1", "n": "10**6", "Y": y} for y in ("1", "10", "100")
    ],
    # features far smaller than the labels (X = Y^2/100 < Y < 1): Theorem 1's 4 Y sqrt(lg/n) against Y^2/sqrt(n)
    "d3.o.units-free.layout.y-small": [
        {**_D3_POINT, "H": "1", "X": x, "Y": y, "n": "10**6"}
        for x, y in (("1/10**4", "1/100"), ("1/10**6", "1/100"), ("1/10**8", "1/10**4"))
    ],
    "d3.o.normalised.logs-kept": [
        {**_D3_POINT, "H": "1", "X": "1", "n": "10**6", "K": k, "lg": k} for k in ("1", "10", "100")
    ],
    "bernstein.explicit.textbook": [
        {"n": "1000", "Y": "1", "Dl": "1", "lg": "log(40)", "c2": "log(2)"},
        {"n": "1000", "Y": "1/100", "Dl": "1", "lg": "log(40)", "c2": "log(2)"},
    ],
}


def register(registry):
    """Register the ``chains.004.*`` claims."""
    register_chain_claims(registry, "004", "arora", CHAIN_CLAIMS + D3_CHAIN_CLAIMS, WITNESS_POINTS)
