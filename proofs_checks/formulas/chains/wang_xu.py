"""The derivation chains of Wang & Xu (000), written as sympy sums of premises against the stated bounds.

Notation (all positive symbols): ``M`` is ``sup_w E|y - <x, w>|^theta`` (``theta = 2`` in Theorem 1),
``logN = log N(W, zeta)``, ``li = log(1/eta)``, ``lz = log(1/zeta)``, ``logn = log n``, ``log3D = log(3 Delta)``,
so the union-bound factor of every premise is ``lg = log(N/eta) = logN + li``.  For Theorem 2,
``a = iota^(theta-1)/theta`` and ``b = (2 iota)^(theta-1)/theta``.  Every chain is built by a function whose
keyword arguments select the reading and the regime; :data:`CHAINS` lists the ones the claims judge.

Explicit chains (the constants; [000 eq. (14)], [000 eq. (24)], [000 eq. (26)], [000 eq. (39)],
[000 Lemma 10]) add the premises the proof names.  O-chains ([000 Thm. 1] display, [000 eq. (7)],
[000 eq. (8)], [000 eq. (27)], [000 eq. (18)], [000 eq. (19)]) substitute the proof's bounds
(``log N <= d log(3 Delta / zeta)`` [000 Lemma 2], ``sup_w E(y - <x, w>)^2 = O(Delta^2 tau^2)``, its theta
analogue) and parameter settings (``zeta = 1/n``, the theorems' ``iota``) into the premises' sum, whose terms
must each be dominated by a stated term under the declared regime.

References
----------
.. [1] D. Wang and J. Xu, "Differentially Private l1-norm Linear Regression with Heavy-tailed Data":
       [000 Thm. 1], [000 Thm. 2], [000 Lemma 9], [000 Lemma 10] and the displays named per chain.
"""

from __future__ import annotations

from typing import Callable

import sympy as sp

from .engine import Chain, Regime

__all__ = [
    "SYMBOLS",
    "THETA_GRID",
    "CHAINS",
    "eq14_chain",
    "eq24_chain",
    "eq26_chain",
    "step39_chain",
    "lemma10_chain",
    "thm1_display_chain",
    "eq7_chain",
    "eq8_chain",
    "eq27_chain",
    "eq18_chain",
    "eq19_chain",
]

_names = "n eps iota zeta tau M logN li lz logn log3D Delta d Ex Exth Er theta m"
n, eps, iota, zeta, tau, M, logN, li, lz, logn, log3D, Delta, d, Ex, Exth, Er, theta, m = sp.symbols(
    _names, positive=True
)

#: The symbols of the chains by name (the tests and the claims build witnesses with them).
SYMBOLS = {s.name: s for s in (n, eps, iota, zeta, tau, M, logN, li, lz, logn, log3D, Delta, d, Ex, Exth, Er, theta, m)}

#: theta in (1, 2) [000 Assumption 3]: the points at which theta-dependent signs are decided.
THETA_GRID = tuple(sp.Rational(k, 100) for k in (101, 110, 125, 150, 175, 190, 199))

_A = iota ** (theta - 1) / theta
_B = (2 * iota) ** (theta - 1) / theta
_LG = logN + li

#: eps <= 1: the regime of the O-readings that confirm; "eps-large" lets eps grow with the rest fixed.
_EPS = {"eps-bounded": "small", "eps-large": "large"}


def _regime(directions: dict, description: str, *, with_theta: bool) -> Regime:
    return Regime(directions, {theta: THETA_GRID} if with_theta else {}, description)


def eq14_chain() -> Chain:
    """[000 eq. (14)] from [000 Lemma 4] ([000 eq. (10)]), [000 eq. (9)], [000 eq. (13)] and [000 Lemma 6].

    ``M`` here is ``sup_w E(y - <x, w>)^2``; the regime of the O-reading: n -> inf, eps <= 1.

    Examples
    --------
    >>> from .engine import compare_chain
    >>> compare_chain(eq14_chain()).explicit_verdict
    'confirmed'
    """
    premises = (
        ("[000 Lemma 4] [000 eq. (10)] at the output", iota / 2 * M + _LG / (n * iota)),
        ("[000 eq. (9)] exponential mechanism", 4 * sp.log(2) * _LG / (n * iota * eps)),
        ("[000 eq. (13)] net point", zeta * tau + iota / 2 * M + _LG / (n * iota)),
        ("[000 Lemma 6]", 2 * zeta * tau + iota * zeta**2 * tau**2 + 3 * iota / 2 * M + _LG / (n * iota)),
    )
    stated = (
        3 * zeta * tau
        + iota * zeta**2 * tau**2
        + 5 * iota / 2 * M
        + 3 * _LG / (n * iota)
        + 4 * sp.log(2) * _LG / (n * iota * eps)
    )
    symbols = (n, eps, iota, zeta, tau, M, logN, li)
    regime = _regime(
        {n: "large", eps: "small", iota: "free", zeta: "small", tau: "free", M: "free", logN: "large", li: "large"},
        "n -> inf, eps <= 1, zeta <= 1, log N and log(1/eta) >= 1; iota, tau, M free",
        with_theta=False,
    )
    return Chain("eq14", "[000 Thm. 1] [000 eq. (14)]", premises, stated, symbols, regime)


def _theta_regime(eps_direction: str = "small") -> Regime:
    return _regime(
        {
            n: "large",
            eps: eps_direction,
            iota: "free",
            zeta: "small",
            tau: "free",
            M: "free",
            logN: "large",
            li: "large",
        },
        f"n -> inf, eps {'<= 1' if eps_direction == 'small' else 'free'}, zeta <= 1, log N and log(1/eta) >= 1; "
        "iota, tau, M free; theta on the grid 1.01..1.99",
        with_theta=True,
    )


_THETA_SYMBOLS = (n, eps, iota, zeta, tau, M, logN, li)


def _lemma9():
    return 2 * zeta * tau + _B * M + _B * zeta**theta * tau**theta + _LG / (n * iota)


def _eq25():
    return _A * M + li / (n * iota)


def _eq24_printed():
    return 2 * zeta * tau + _B * M + 2 * _B * zeta**theta * tau**theta + 2 * _LG / (n * iota)


def eq24_chain() -> Chain:
    """The second line of [000 eq. (24)] from [000 Lemma 9] and [000 eq. (25)].

    ``L-hat(w-hat) <= L-hat(w*)`` (w-hat minimises L-hat over W), then (25) at w*: the premises carry
    ``(a + b) M``, the printed line ``b M``.

    Examples
    --------
    >>> from .engine import compare_chain
    >>> compare_chain(eq24_chain()).explicit_verdict
    'refuted'
    """
    premises = (("[000 Lemma 9]", _lemma9()), ("[000 eq. (25)] at w*", _eq25()))
    return Chain("eq24", "[000 eq. (24)]", premises, _eq24_printed(), _THETA_SYMBOLS, _theta_regime())


def _eq26_premises(reading: str) -> tuple:
    if reading == "a":
        eq24 = ("[000 eq. (24)] as printed", _eq24_printed())
    elif reading == "b":
        eq24 = ("[000 eq. (24)] re-derived: [000 Lemma 9] + [000 eq. (25)]", _lemma9() + _eq25())
    else:
        raise ValueError(f"reading must be 'a' or 'b', got {reading!r}")
    return (
        ("[000 eq. (20)] exponential mechanism", 4 * sp.log(theta) * _LG / (n * iota * eps)),
        ("[000 Lemma 7] at the output", _A * M + _LG / (n * iota)),
        ("[000 eq. (23)] net point", zeta * tau + _A * M + _LG / (n * iota)),
        eq24,
    )


def _eq26_stated():
    return 3 * zeta * tau + 2 * _B * M + 2 * _B * zeta**theta * tau**theta + 8 * sp.log(theta) * _LG / (n * iota * eps)


def eq26_chain(reading: str = "a", regime: str = "eps-bounded") -> Chain:
    """[000 eq. (26)] from [000 eq. (20)], [000 Lemma 7], [000 eq. (23)] and [000 eq. (24)].

    Parameters
    ----------
    reading : {"a", "b"}
        ``"a"``: (24) as printed; ``"b"``: (24) re-derived from [000 Lemma 9] and [000 eq. (25)].
    regime : {"eps-bounded", "eps-large"}
        The O-reading's regime for eps.

    Examples
    --------
    >>> from .engine import compare_chain
    >>> report = compare_chain(eq26_chain())
    >>> report.explicit_verdict, report.o_verdict
    ('refuted', 'confirmed')
    """
    if regime not in _EPS:
        raise ValueError(f"regime must be one of {tuple(_EPS)}, got {regime!r}")
    return Chain(
        "eq26",
        "[000 Thm. 2] [000 eq. (26)]",
        _eq26_premises(reading),
        _eq26_stated(),
        _THETA_SYMBOLS,
        _theta_regime(_EPS[regime]),
    )


def step39_chain() -> Chain:
    """The exponent of [000 eq. (39)] (divided by n, plus ``iota L_D(w)``) from ``1 + u <= e^u`` and the power mean.

    The line above (39) is ``1 - iota L_D(w) + iota zeta E||x|| + (iota^theta/theta) E(|r| - zeta ||x||)^theta``;
    ``1 + u <= e^u`` keeps ``iota zeta E||x||`` and ``|s - t|^theta <= 2^(theta-1) (|s|^theta + |t|^theta)``
    bounds the last term.  ``Ex = E||x||_2``, ``Exth = E||x||_2^theta``, ``Er = E|y - <x, w>|^theta``.

    Examples
    --------
    >>> from .engine import compare_chain
    >>> compare_chain(step39_chain()).witnesses("explicit")
    ['Ex*iota*zeta']
    """
    premises = (
        ("1 + u <= exp(u) on the line above [000 eq. (39)]", iota * zeta * Ex),
        (
            "power mean |s - t|^theta <= 2^(theta-1) (|s|^theta + |t|^theta)",
            iota**theta * 2 ** (theta - 1) / theta * (Er + zeta**theta * Exth),
        ),
    )
    stated = iota**theta * 2 ** (theta - 1) / theta * Er + iota**theta * 2 ** (theta - 1) * zeta**theta / theta * Exth
    symbols = (iota, zeta, Ex, Exth, Er)
    regime = _regime(
        {iota: "small", zeta: "small", Ex: "free", Exth: "free", Er: "free"},
        "iota, zeta <= 1 (iota -> 0 with n); moments free; theta on the grid 1.01..1.99",
        with_theta=True,
    )
    return Chain("step39", "[000 Lemma 10] [000 eq. (39)]", premises, stated, symbols, regime)


def lemma10_chain() -> Chain:
    """[000 Lemma 10]'s statement from the exponent of (39) with ``iota zeta E||x||`` kept, by Chernoff and a union.

    Divided by ``n iota``: ``zeta E||x|| <= zeta tau`` and ``E||x||^theta <= tau^theta`` ([000 Assumption 3]),
    ``E|r|^theta <= M``, ``iota^theta 2^(theta-1) / iota = (2 iota)^(theta-1)``, the union over the net
    ``log(N/eta) / (n iota)``.

    Examples
    --------
    >>> from .engine import compare_chain
    >>> compare_chain(lemma10_chain()).explicit_verdict
    'confirmed'
    """
    premises = (
        ("iota zeta E||x|| of the line above [000 eq. (39)], over iota, E||x|| <= tau", zeta * tau),
        (
            "[000 eq. (39)] over iota, E|r|^theta <= M, E||x||^theta <= tau^theta",
            _B * M + _B * zeta**theta * tau**theta,
        ),
        ("Chernoff and the union over the net", _LG / (n * iota)),
    )
    stated = zeta * tau + _B * M + _B * zeta**theta * tau**theta + _LG / (n * iota)
    return Chain("lemma10", "[000 Lemma 10]", premises, stated, _THETA_SYMBOLS, _theta_regime())


def thm1_display_chain(reading: str = "printed", regime: str = "eps-bounded") -> Chain:
    """[000 Thm. 1]'s O-display from (14), with ``sup E(y - <x,w>)^2 = O(Delta^2 tau^2)`` (the proof's last display).

    Parameters
    ----------
    reading : {"printed", "eta-as-zeta"}
        ``"printed"``: the display's ``log(N/zeta)``; ``"eta-as-zeta"``: read ``zeta`` there as a slip for
        ``eta`` (``li`` replaced by ``lz`` in the premises).
    regime : {"eps-bounded", "eps-large"}

    Examples
    --------
    >>> from .engine import compare_chain
    >>> sorted(compare_chain(thm1_display_chain()).witnesses("o"))
    ['li/(eps*iota*n)', 'li/(iota*n)']
    """
    if reading not in ("printed", "eta-as-zeta"):
        raise ValueError(f"reading must be 'printed' or 'eta-as-zeta', got {reading!r}")
    if regime not in _EPS:
        raise ValueError(f"regime must be one of {tuple(_EPS)}, got {regime!r}")
    base = eq14_chain()
    substitutions = {M: Delta**2 * tau**2}
    if reading == "eta-as-zeta":
        substitutions[li] = lz
    stated = zeta * tau + iota * zeta**2 * tau**2 + iota * tau**2 * Delta**2 + (logN + lz) / (n * iota * eps)
    symbols = (n, eps, iota, zeta, tau, Delta, logN, li, lz)
    directions = {
        n: "large",
        eps: _EPS[regime],
        iota: "free",
        zeta: "small",
        tau: "free",
        Delta: "bounded",
        logN: "large",
        li: "large",
        lz: "large",
    }
    description = f"n -> inf, eps {'<= 1' if regime == 'eps-bounded' else 'free'}, Delta constant (the O omits it)"
    return Chain(
        "thm1-display",
        "[000 Thm. 1]",
        base.premises,
        stated,
        symbols,
        _regime(directions, description, with_theta=False),
        substitutions,
        explicit=False,
    )


#: The final rates are written in ``m = n eps`` (n -> inf, eps fixed, means m -> inf): a rate in n eps whose
#: terms are compared at eps -> 0 with n fixed would confuse a meaningless corner (n eps -> 0) with a slip.
_RATE_SYMBOLS = (m, eps, tau, d, logn, li, Delta, log3D)
_IN_M = {n: m / eps}


def _rate_regime(regime: str, *, logs: str = "kept", with_theta: bool) -> Regime:
    if regime not in _EPS:
        raise ValueError(f"regime must be one of {tuple(_EPS)}, got {regime!r}")
    if logs not in ("kept", "hidden"):
        raise ValueError(f"logs must be 'kept' or 'hidden', got {logs!r}")
    log_direction = "large" if logs == "kept" else "bounded"
    directions = {
        m: "large",
        eps: _EPS[regime],
        tau: "free",
        d: "large",
        logn: log_direction,
        li: log_direction,
        Delta: "bounded",
        log3D: "bounded",
    }
    description = (
        f"m = n eps -> inf, eps {'<= 1' if regime == 'eps-bounded' else 'free'}, d >= 1, tau free, Delta constant; "
        + ("log n and log(1/eta) >= 1 kept" if logs == "kept" else "log n and log(1/eta) hidden (O-tilde)")
    )
    return _regime(directions, description, with_theta=with_theta)


def eq7_chain(regime: str = "eps-bounded") -> Chain:
    """[000 eq. (7)] from (14) at ``zeta = 1/n``, ``iota = sqrt(d log n log(1/eta) / (n eps tau^2))``.

    ``log N <= d log(3 Delta n)`` [000 Lemma 2] and ``sup E(y - <x,w>)^2 = O(Delta^2 tau^2)``.

    Examples
    --------
    >>> from .engine import compare_chain
    >>> compare_chain(eq7_chain()).o_verdict, compare_chain(eq7_chain("eps-large")).o_verdict
    ('confirmed', 'refuted')
    """
    base = eq14_chain()
    substitutions = {
        M: Delta**2 * tau**2,
        logN: d * (log3D + logn),
        zeta: 1 / n,
        iota: sp.sqrt(d * logn * li / (n * eps * tau**2)),
    }
    stated = tau * sp.sqrt(d * logn * li / (n * eps))
    return Chain(
        "eq7",
        "[000 Thm. 1] [000 eq. (7)]",
        base.premises,
        stated,
        _RATE_SYMBOLS,
        _rate_regime(regime, with_theta=False),
        (substitutions, _IN_M),
        explicit=False,
    )


def eq8_chain(regime: str = "eps-bounded") -> Chain:
    """[000 eq. (8)]: (14) with ``tau`` replaced by ``E||x||_2`` under [000 Assumption 2].

    ``E||x||_2 <= tau sqrt(d)``, ``E||x||_2^2 <= d tau^2`` (so ``sup E(y - <x,w>)^2 = O(Delta^2 d tau^2)``),
    ``zeta = 1/n``, ``iota = sqrt(log n log(1/eta) / (tau^2 n eps))``.

    Examples
    --------
    >>> from .engine import compare_chain
    >>> compare_chain(eq8_chain()).o_verdict
    'confirmed'
    """
    premises = (
        ("[000 Lemma 4] [000 eq. (10)] at the output", iota / 2 * M + _LG / (n * iota)),
        ("[000 eq. (9)] exponential mechanism", 4 * sp.log(2) * _LG / (n * iota * eps)),
        ("[000 eq. (13)], E||x|| <= tau sqrt(d)", zeta * tau * sp.sqrt(d) + iota / 2 * M + _LG / (n * iota)),
        (
            "[000 Lemma 6], E||x||^2 <= d tau^2",
            2 * zeta * tau * sp.sqrt(d) + iota * zeta**2 * d * tau**2 + 3 * iota / 2 * M + _LG / (n * iota),
        ),
    )
    substitutions = {
        M: Delta**2 * d * tau**2,
        logN: d * (log3D + logn),
        zeta: 1 / n,
        iota: sp.sqrt(logn * li / (n * eps * tau**2)),
    }
    stated = tau * sp.sqrt(d**2 * logn * li / (n * eps))
    return Chain(
        "eq8",
        "[000 Thm. 1] [000 eq. (8)]",
        premises,
        stated,
        _RATE_SYMBOLS,
        _rate_regime(regime, with_theta=False),
        (substitutions, _IN_M),
        explicit=False,
    )


def eq27_chain(regime: str = "eps-bounded") -> Chain:
    """[000 eq. (27)] from the premises of (26) (reading a), ``log N <= d log(3 Delta / zeta)``, ``M = O(Delta^theta tau^theta)``.

    Examples
    --------
    >>> from .engine import compare_chain
    >>> compare_chain(eq27_chain()).o_verdict, compare_chain(eq27_chain("eps-large")).o_verdict
    ('confirmed', 'refuted')
    """
    if regime not in _EPS:
        raise ValueError(f"regime must be one of {tuple(_EPS)}, got {regime!r}")
    substitutions = {M: Delta**theta * tau**theta, logN: d * (log3D + lz)}
    stated = (
        zeta * tau
        + iota ** (theta - 1) * tau**theta
        + iota ** (theta - 1) * zeta**theta * tau**theta
        + d * (lz + li) / (n * iota * eps)
    )
    symbols = (n, eps, iota, zeta, tau, Delta, log3D, d, lz, li)
    directions = {
        n: "large",
        eps: _EPS[regime],
        iota: "free",
        zeta: "small",
        tau: "free",
        Delta: "bounded",
        log3D: "bounded",
        d: "large",
        lz: "large",
        li: "large",
    }
    description = (
        f"n -> inf, eps {'<= 1' if regime == 'eps-bounded' else 'free'}, zeta <= 1, d >= 1, Delta constant; "
        "theta on the grid 1.01..1.99"
    )
    return Chain(
        "eq27",
        "[000 Thm. 2] [000 eq. (27)]",
        _eq26_premises("a"),
        stated,
        symbols,
        _regime(directions, description, with_theta=True),
        substitutions,
        explicit=False,
    )


def eq18_chain(regime: str = "eps-bounded", logs: str = "kept") -> Chain:
    """[000 eq. (18)] from the premises of (26) at ``zeta = 1/n``, ``iota = (d log(1/zeta) / (n eps))^(1/theta) / tau``.

    ``log N <= d log(3 Delta n)``, ``M = O(Delta^theta tau^theta)``; (18)'s ``log n log(1/zeta)`` is
    ``(log n)^2`` at ``zeta = 1/n``.  ``logs="hidden"`` reads the O-tilde as hiding every log factor.

    Examples
    --------
    >>> from .engine import compare_chain
    >>> compare_chain(eq18_chain()).witnesses("o")[0]
    'li*m**(-1 + 1/theta)*tau/(d**(1/theta)*logn**(1/theta))'
    """
    substitutions = {
        M: Delta**theta * tau**theta,
        logN: d * (log3D + logn),
        zeta: 1 / n,
        iota: (d * logn / (n * eps)) ** (1 / theta) / tau,
    }
    stated = tau * (d * logn * logn / (n * eps)) ** ((theta - 1) / theta)
    return Chain(
        "eq18",
        "[000 Thm. 2] [000 eq. (18)]",
        _eq26_premises("a"),
        stated,
        _RATE_SYMBOLS,
        _rate_regime(regime, logs=logs, with_theta=True),
        (substitutions, _IN_M),
        explicit=False,
    )


def eq19_chain(iota_exponent: str = "printed", regime: str = "eps-bounded", logs: str = "hidden") -> Chain:
    """[000 eq. (19)]: the premises of (26) with ``tau`` replaced by ``E||x||_2`` under [000 Assumption 4].

    ``E||x||_2^theta <= d tau^theta`` (so ``M = O(Delta^theta d tau^theta)``, ``zeta E||x||_2 <= zeta d^(1/theta)
    tau``), ``zeta = 1/n``, ``iota = (log n log(1/eta) / (n eps))^p / tau`` with ``p = (theta-1)/theta`` as
    printed in [000 Thm. 2] or ``p = 1/theta`` as for (18) (``iota_exponent="one-over-theta"``).

    Examples
    --------
    >>> from .engine import compare_chain
    >>> compare_chain(eq19_chain()).o_verdict, compare_chain(eq19_chain("one-over-theta")).o_verdict
    ('refuted', 'confirmed')
    """
    exponents = {"printed": (theta - 1) / theta, "one-over-theta": 1 / theta}
    if iota_exponent not in exponents:
        raise ValueError(f"iota_exponent must be one of {tuple(exponents)}, got {iota_exponent!r}")
    premises = (
        ("[000 eq. (20)] exponential mechanism", 4 * sp.log(theta) * _LG / (n * iota * eps)),
        ("[000 Lemma 7] at the output", _A * M + _LG / (n * iota)),
        (
            "[000 eq. (23)], zeta E||x|| <= zeta d^(1/theta) tau",
            zeta * d ** (1 / theta) * tau + _A * M + _LG / (n * iota),
        ),
        (
            "[000 eq. (24)] as printed, E||x||^theta <= d tau^theta",
            2 * zeta * d ** (1 / theta) * tau + _B * M + 2 * _B * zeta**theta * d * tau**theta + 2 * _LG / (n * iota),
        ),
    )
    substitutions = {
        M: Delta**theta * d * tau**theta,
        logN: d * (log3D + logn),
        zeta: 1 / n,
        iota: (logn * li / (n * eps)) ** exponents[iota_exponent] / tau,
    }
    stated = tau * d * (logn * logn / (n * eps)) ** ((theta - 1) / theta)
    return Chain(
        "eq19",
        "[000 Thm. 2] [000 eq. (19)]",
        premises,
        stated,
        _RATE_SYMBOLS,
        _rate_regime(regime, logs=logs, with_theta=True),
        (substitutions, _IN_M),
        explicit=False,
    )


#: The chains the claims judge: claim suffix -> (factory, the reading in words).
CHAINS: dict[str, tuple[Callable[[], Chain], str]] = {}
