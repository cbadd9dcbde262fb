"""The rate chain of Hu et al. (002), [002 Thm. 8] (sparse optimisation, [002 Alg. 5]), written in sympy.

The proof (after [002 eq. (45)]) bounds the per-iteration noise ``N^t + N_2^t`` by three terms: Peeling's noise
``s^2 k^2 T^2 log^2(Ts/zeta) log(1/delta) / (gamma^2 n^2 eps^2)``, the estimator's bias ``s tau^2 / (k^2
beta^2)`` and its deviation ``s beta^2 T^2 k^2 log^2(dT/zeta) / n^2`` ([002 eq. (45)] times ``s``); it then sets
``beta = O(1)`` and the estimator's scale ``k`` and states ``O(tau s^(3/2) T log(Ts/zeta) sqrt(log(1/delta)) /
(gamma^2 n eps))``.  Summed over the iterations (the contraction ``1 - mu/(12 gamma)`` gives a factor ``12
gamma/mu``) at ``s = (gamma/mu)^2 s*`` and ``T = (gamma/mu) log n`` this is [002 Thm. 8]'s
``O(tau gamma^4 s*^(3/2) log n log(d/zeta) sqrt(log(1/delta)) / (mu^5 n eps))``.

Which power of ``s`` the proof's own inequalities give depends on ``k`` (:data:`K_READINGS`): the proof's
``k^4 = (n eps tau)^2 / ((s T)^2 log(Ts/zeta))`` leaves the bias at ``s^2 T tau / (n eps)``; the theorem's
``k = sqrt(n eps tau)`` leaves Peeling's noise at ``s^2 T^2 tau / (n eps)``; only ``k^4 = (n eps tau)^2 / (s T^2)``
balances both at ``s^(3/2)``.  Symbols: ``m = n eps``, ``L`` every log factor but ``ld = log(1/delta)``,
``kappa = gamma/mu``, ``sstar = s*``; ``gamma`` is a constant of the O (the chains are in ``kappa``).

References
----------
.. [1] L. Hu, S. Ni, H. Xiao, D. Wang, "High Dimensional Differentially Private Stochastic Optimization with
       Heavy-tailed Data": [002 Thm. 8], [002 Alg. 5], [002 eq. (44)], [002 eq. (45)].
"""

from __future__ import annotations

import sympy as sp

from .engine import Chain, Regime

__all__ = ["SYMBOLS", "K_READINGS", "noise_chain", "thm8_chain"]

_names = "m eps s sstar T tau L ld gamma kappa logn"
m, eps, s, sstar, T, tau, L, ld, gamma, kappa, logn = sp.symbols(_names, positive=True)

#: The symbols of the chains by name.
SYMBOLS = {x.name: x for x in (m, eps, s, sstar, T, tau, L, ld, gamma, kappa, logn)}

#: k^2 per reading (n eps written m): the proof's choice, the theorem's, and the one that balances the terms.
K_READINGS = {
    "proof-k": m * tau / (s * T * sp.sqrt(L)),
    "theorem-k": m * tau,
    "balanced-k": m * tau / (sp.sqrt(s) * T),
}

_LOGS = {"hidden": "bounded", "kept": "large"}


def _check(k: str, logs: str) -> None:
    if k not in K_READINGS:
        raise ValueError(f"k must be one of {tuple(K_READINGS)}, got {k!r}")
    if logs not in _LOGS:
        raise ValueError(f"logs must be one of {tuple(_LOGS)}, got {logs!r}")


def _noise_terms(k: str) -> tuple:
    """The three terms of N^t + N_2^t after [002 eq. (45)] at beta = 1 and the reading's k, with n = m / eps."""
    k2 = K_READINGS[k]
    n = m / eps
    return (
        (
            "Peeling's noise s^2 k^2 T^2 log^2 log(1/delta)/(gamma n eps)^2",
            s**2 * k2 * T**2 * L**2 * ld / (gamma * m) ** 2,
        ),
        ("[002 eq. (45)] bias, times s: s tau^2/k^2", s * tau**2 / k2),
        ("[002 eq. (45)] deviation, times s: s T^2 k^2 log^2(dT/zeta)/n^2", s * T**2 * k2 * L**2 / n**2),
    )


def _regime(logs: str, extra: dict, description: str) -> Regime:
    directions = {m: "large", eps: "small", tau: "free", L: _LOGS[logs], ld: _LOGS[logs], gamma: "bounded", **extra}
    return Regime(directions, description=f"{description}; logs {logs}")


def noise_chain(k: str = "proof-k", logs: str = "hidden") -> Chain:
    """The per-iteration noise after [002 eq. (45)] against ``O(tau s^(3/2) T log sqrt(log(1/delta))/(gamma^2 n eps))``.

    Parameters
    ----------
    k : {"proof-k", "theorem-k", "balanced-k"}
        The estimator's scale (:data:`K_READINGS`).
    logs : {"hidden", "kept"}
        Whether ``L`` and ``log(1/delta)`` are constants of the O or may grow.

    Examples
    --------
    >>> from .engine import compare_chain
    >>> compare_chain(noise_chain()).witnesses("o")
    ['sqrt(L)*T*s**2*tau/m']
    >>> compare_chain(noise_chain("balanced-k")).o_verdict
    'confirmed'
    """
    _check(k, logs)
    return Chain(
        f"thm8-noise.{k}",
        "[002 Thm. 8] [002 eq. (45)]",
        _noise_terms(k),
        tau * s ** sp.Rational(3, 2) * T * L * sp.sqrt(ld) / (gamma**2 * m),
        (m, eps, s, T, tau, L, ld, gamma),
        _regime(logs, {s: "large", T: "large"}, "m = n eps -> inf, eps <= 1, s and T large, tau free"),
        explicit=False,
    )


def thm8_chain(k: str = "proof-k", logs: str = "hidden") -> Chain:
    """[002 Thm. 8]'s rate from the noise terms summed over iterations (factor ``12 gamma/mu = 12 kappa``) at
    ``s = kappa^2 s*`` and ``T = kappa log n``.

    Parameters
    ----------
    k : {"proof-k", "theorem-k", "balanced-k"}
    logs : {"hidden", "kept"}

    Examples
    --------
    >>> from .engine import compare_chain
    >>> compare_chain(thm8_chain()).witnesses("o")
    ['sqrt(L)*kappa**6*logn*sstar**2*tau/m']
    """
    _check(k, logs)
    mu = gamma / kappa
    summed = tuple((f"12 gamma/mu times {label}", 12 * kappa * expr) for label, expr in _noise_terms(k))
    return Chain(
        f"thm8.{k}",
        "[002 Thm. 8]",
        summed,
        tau * gamma**4 * sstar ** sp.Rational(3, 2) * logn * L * sp.sqrt(ld) / (mu**5 * m),
        (m, eps, sstar, kappa, logn, tau, L, ld, gamma),
        _regime(
            logs,
            {sstar: "large", kappa: "large", logn: "large"},
            "m = n eps -> inf, eps <= 1, s* and kappa = gamma/mu large, gamma a constant",
        ),
        ({s: kappa**2 * sstar, T: kappa * logn},),
        explicit=False,
    )
