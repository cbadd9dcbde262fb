"""Chains of Hu et al. (002) for the Frank-Wolfe theorems [002 Thm. 3], [002 Thm. 4] and [002 Thm. 5], in sympy.

* [002 Thm. 3] (GLM, [002 Alg. 1] under [002 Assumption 2]): the last display of its proof (the geometric sum of
  (32) with the error ``mu`` of (31)) at the proof's ``beta``, ``s``, ``eta`` and ``T`` against (8).
* [002 Thm. 4] (privacy of the LASSO algorithm [002 Alg. 2]): the score's sensitivity, term by term.
* [002 Thm. 5] (LASSO, [002 Alg. 2] under [002 Assumption 3]): [002 eq. (42)] (both lines) at the proof's ``K``
  and ``T`` against (9).

Symbols (positive): ``m = n eps``; ``lam = lambda_max(E[x x^T])``; ``C`` the constants ``C_psi``, ``c_psi``,
``Delta_0``, ``||W||_1`` and ``M`` the O hides (one symbol, ``bounded``); ``L`` the log factor of Theorem 3
(``log(dT/zeta)``, ``log(d/zeta)``: one order); for Theorem 5 ``lV = log |V|``, ``lT = log(T/zeta)``,
``lz = log(d/zeta)``, ``ld = log(1/delta)`` and ``ell`` every log at once (``log|V| log(T/zeta) <= ell^2``, as in
:mod:`.hu`); ``K`` the shrinkage threshold, ``r`` the l1 radius of the constraint set, ``D = ||W||_1``.

References
----------
.. [1] L. Hu, S. Ni, H. Xiao, D. Wang, "High Dimensional Differentially Private Stochastic Optimization with
       Heavy-tailed Data": [002 Thm. 3], [002 Thm. 4], [002 Thm. 5], [002 Alg. 2], [002 eq. (8)], [002 eq. (9)],
       [002 eq. (31)], [002 eq. (32)], [002 eq. (42)].
"""

from __future__ import annotations

import sympy as sp

from .engine import Chain, Regime

__all__ = ["SYMBOLS", "thm3_chain", "thm4_sensitivity_chain", "step42_chain", "thm5_chain"]

_names = "m eps lam C L lV lT lz ld ell K n r D T"
m, eps, lam, C, L, lV, lT, lz, ld, ell, K, n, r, D, T = sp.symbols(_names, positive=True)

#: The symbols of the chains by name.
SYMBOLS = {x.name: x for x in (m, eps, lam, C, L, lV, lT, lz, ld, ell, K, n, r, D, T)}

_LAMBDA = {"large": "large", "free": "free"}


def _lambda(lam_range: str) -> str:
    if lam_range not in _LAMBDA:
        raise ValueError(f"lam_range must be one of {tuple(_LAMBDA)}, got {lam_range!r}")
    return _LAMBDA[lam_range]


def thm3_chain(lam_range: str = "large") -> Chain:
    """(8) of [002 Thm. 3] from the last display of its proof at ``beta = 1``, ``s = sqrt(n eps/(T L))``,
    ``eta = 1/sqrt(T)``, ``T = sqrt(n eps / L)``.

    Parameters
    ----------
    lam_range : {"large", "free"}
        ``lambda_max >= 1`` (may grow) or free (its exponents must agree: the statement scales every term by
        ``lambda_max``, the proof's terms but one do not).

    Examples
    --------
    >>> from .engine import compare_chain
    >>> compare_chain(thm3_chain()).o_verdict, compare_chain(thm3_chain("free")).o_verdict
    ('confirmed', 'refuted')
    """
    direction = _lambda(lam_range)
    eta, s, beta = sp.symbols("eta s beta", positive=True)
    mu = C / s * (1 / beta + 1) + s * T / n * (beta + L) + s * T * L / (n * eps)
    premises = (
        ("(1 - 2 c eta/C)^T Delta_0 <= C/(2c) Delta_0/(eta T) [002 Thm. 3] proof", C / (eta * T)),
        ("C^2 eta lambda_max/(2 c): the smoothness term of [002 eq. (32)] summed", C * eta * lam),
        ("C/(2c) mu, mu the error of [002 eq. (31)]", C * mu),
    )
    settings = ({beta: 1, eta: 1 / sp.sqrt(T), s: sp.sqrt(n * eps) / sp.sqrt(T * L)}, {T: sp.sqrt(m / L)}, {n: m / eps})
    return Chain(
        "thm3",
        "[002 Thm. 3] [002 eq. (8)] [002 eq. (31)] [002 eq. (32)]",
        premises,
        lam * L ** sp.Rational(1, 4) / m ** sp.Rational(1, 4),
        (m, eps, lam, C, L),
        Regime(
            {m: "large", eps: "small", lam: direction, C: "bounded", L: "large"},
            description=f"m = n eps -> inf, eps <= 1, lambda_max {'>= 1' if direction == 'large' else 'free'}, "
            "C_psi, c_psi, Delta_0 constants, logs of one order L >= 1",
        ),
        settings,
        explicit=False,
    )


def thm4_sensitivity_chain(norm: str = "unit-ball") -> Chain:
    """The score sensitivity in the proof of [002 Thm. 4]: ``|u(D~, v) - u(D~', v)| <= 8 ||W||_1 K^2 / n``.

    The proof bounds ``|<v, g~ - g~'>| <= ||W||_1 ||g~ - g~'||_inf <= (4 ||W||_1 / n) ||x~ (<x~, w> - y~)||_inf``
    with ``|x~_j|, |y~| <= K`` and ``|<x~, w>| <= K ||w||_1``.  On an l1 ball of radius ``r`` (so ``||v||_1 = r``
    for a vertex and ``||W||_1 = D``) the change is at most ``4 r K (K r + K) / n``.

    Parameters
    ----------
    norm : {"unit-ball", "radius", "diameter"}
        ``"unit-ball"``: ``r = 1``, ``||W||_1 = 1`` (the proof's ``|<x~, w>| <= K``); ``"radius"``: ``||W||_1 =
        r`` free; ``"diameter"``: ``||W||_1 = 2 r`` (the paper's notation section), ``r`` free.

    Examples
    --------
    >>> from .engine import compare_chain
    >>> compare_chain(thm4_sensitivity_chain()).explicit_verdict
    'confirmed'
    >>> compare_chain(thm4_sensitivity_chain("radius")).explicit_verdict
    'refuted'
    """
    stated_norm = {"unit-ball": (1, 1), "radius": (r, r), "diameter": (r, 2 * r)}
    if norm not in stated_norm:
        raise ValueError(f"norm must be one of {tuple(stated_norm)}, got {norm!r}")
    radius, diameter = stated_norm[norm]
    premises = (
        ("||v||_1 (4/n) K |<x~, w>| with |<x~, w>| <= K ||w||_1 <= K r", radius * 4 / n * K * K * radius),
        ("||v||_1 (4/n) K |y~|", radius * 4 / n * K * K),
    )
    return Chain(
        "thm4-sensitivity",
        "[002 Thm. 4] [002 Alg. 2]",
        premises,
        8 * diameter * K**2 / n,
        (n, K, r),
        Regime(
            {n: "large", K: "free", r: "free"}, description="n, K free, the l1 radius r free (r = 1 on the unit ball)"
        ),
    )


def _line1(lv_lt, l_z):
    return (
        ("[002 Lemma 6] the Frank-Wolfe rate lambda_max/T", lam / T),
        (
            "the exponential mechanism over V, advanced composition",
            C * K**2 * lv_lt * sp.sqrt(T * ld) / (n * eps),
        ),
        ("[002 Lemma 8] (33): deviation sqrt(M log(d/zeta)/n)", C * sp.sqrt(l_z / n)),
        ("[002 Lemma 8] (33): shrinkage range K^2 log(d/zeta)/n", C * K**2 * l_z / n),
        ("[002 Lemma 8] (33): shrinkage bias M/K^2", C / K**2),
    )


_LOGS = ("hidden", "one-order")


def _logs(logs: str) -> str:
    if logs not in _LOGS:
        raise ValueError(f"logs must be one of {_LOGS}, got {logs!r}")
    return "bounded" if logs == "hidden" else "large"


def step42_chain(logs: str = "hidden") -> Chain:
    """The second line of [002 eq. (42)] from its first (``|V| = 2d``, ``M``, ``||W||_1`` constants).

    Parameters
    ----------
    logs : {"hidden", "one-order"}
        ``"one-order"``: every log is ``ell >= 1`` (``log|V| log(T/zeta)`` is ``ell^2``; the second line keeps one
        ``log(dT/zeta) = ell``).

    Examples
    --------
    >>> from .engine import compare_chain
    >>> compare_chain(step42_chain()).o_verdict, compare_chain(step42_chain("one-order")).o_verdict
    ('confirmed', 'refuted')
    """
    direction = _logs(logs)
    stated = sp.Add(*(rhs for _, rhs in _line2()))
    return Chain(
        "step42",
        "[002 Thm. 5] [002 eq. (42)]",
        _line1(ell**2, ell),
        stated,
        (n, eps, lam, C, K, T, ld, ell),
        Regime(
            {n: "large", eps: "small", lam: "free", C: "bounded", K: "free", T: "large", ld: direction, ell: direction},
            description=f"n -> inf, eps <= 1, K, lambda_max free, T >= 1; logs {logs}",
        ),
        explicit=False,
    )


def _line2():
    """The second line of [002 eq. (42)], as printed."""
    return (
        ("[002 eq. (42)] second line: lambda_max/T", lam / T),
        ("[002 eq. (42)] second line: sqrt(M log(d/zeta)/n)", C * sp.sqrt(ell / n)),
        (
            "[002 eq. (42)] second line: K^2 sqrt(T log(1/delta)) log(dT/zeta)/(n eps)",
            C * K**2 * sp.sqrt(T * ld) * ell / (n * eps),
        ),
        ("[002 eq. (42)] second line: 1/K^2", C / K**2),
    )


def thm5_chain(logs: str = "one-order", lam_range: str = "large") -> Chain:
    """(9) of [002 Thm. 5] from the second line of [002 eq. (42)] at ``K = (n eps)^(1/4)/T^(1/8)`` and
    ``T = (sqrt(n eps) lambda_max/(sqrt(log(1/delta)) log(dT/zeta)))^(4/5)`` (the step from the first line is
    :func:`step42_chain`).

    Parameters
    ----------
    logs : {"one-order", "hidden"}
    lam_range : {"large", "free"}

    Examples
    --------
    >>> from .engine import compare_chain
    >>> compare_chain(thm5_chain()).o_verdict, compare_chain(thm5_chain(lam_range="free")).o_verdict
    ('confirmed', 'refuted')
    """
    direction, lam_direction = _logs(logs), _lambda(lam_range)
    settings = (
        {K: m ** sp.Rational(1, 4) / T ** sp.Rational(1, 8), n: m / eps},
        {T: (sp.sqrt(m) * lam / (sp.sqrt(ld) * ell)) ** sp.Rational(4, 5)},
    )
    stated = lam ** sp.Rational(1, 5) * (sp.sqrt(ld) * ell) ** sp.Rational(4, 5) / m ** sp.Rational(2, 5)
    return Chain(
        "thm5",
        "[002 Thm. 5] [002 eq. (9)] [002 eq. (42)]",
        _line2(),
        stated,
        (m, eps, lam, C, ld, ell),
        Regime(
            {m: "large", eps: "small", lam: lam_direction, C: "bounded", ld: direction, ell: direction},
            description=f"m = n eps -> inf, eps <= 1, lambda_max {'>= 1' if lam_direction == 'large' else 'free'}, "
            f"M, ||W||_1 constants; logs {logs}",
        ),
        settings,
        explicit=False,
    )
