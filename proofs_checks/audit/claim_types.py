"""Privacy claims besides (epsilon, delta)-DP: zCDP, Renyi DP and mu-GDP, parsed from ``TYPE:PARAMETERS``.

Each claim turns the two bounds of one event (``p_low`` below ``P(S)``, ``q_high`` above ``Q(S)``) into a lower
bound on its own parameter, and two exact laws into the parameter itself; the verdict compares that number with
the claimed one.  No module of the auditor's (epsilon, delta) path depends on this one.

* ``zcdp:RHO``: ``rho``-zCDP [1]_; bounded from below: ``rho_lower = max_alpha D_alpha / alpha`` (fixed orders);
* ``renyi:ALPHA:EPS``: ``(alpha, eps)``-Renyi DP [2]_; bounded from below: ``eps_alpha_lower`` (of ``D_alpha``);
* ``gdp:MU``: ``mu``-GDP, an f-DP claim [3]_; bounded from below: ``mu_lower``.

References
----------
.. [1] M. Bun and T. Steinke, "Concentrated differential privacy", TCC 2016.
.. [2] I. Mironov, "Renyi differential privacy", CSF 2017.
.. [3] J. Dong, A. Roth and W. J. Su, "Gaussian differential privacy", JRSS-B 2022.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Union

import numpy as np
from scipy.special import ndtri

from .gdp import check_mu, mu_from_bounds
from .renyi import ZCDP_ALPHAS, binary_renyi, binary_renyi_array, check_alpha, zcdp_from_renyi

__all__ = ["CLAIM_TYPES", "GDPClaim", "RenyiClaim", "ZCDPClaim", "parse_claim"]


@dataclass(frozen=True)
class ZCDPClaim:
    """``rho``-zCDP: ``D_alpha <= rho alpha`` for every order ``alpha > 1`` and ordered neighbouring pair."""

    rho: float
    kind = "zcdp"
    bound_name = "rho_lower"

    def __post_init__(self):
        if isinstance(self.rho, bool) or not isinstance(self.rho, (int, float)):
            raise TypeError(f"rho must be a number > 0, got {self.rho!r}")
        if not (math.isfinite(self.rho) and self.rho > 0):
            raise ValueError(f"rho must be a finite number > 0, got {self.rho!r}")

    @property
    def value(self) -> float:
        return float(self.rho)

    def bound_from_event(self, p_low: float, q_high: float) -> tuple[float, dict]:
        """``(rho_lower, {"alpha": order attaining it})`` from one event's bounds."""
        rho, alpha = zcdp_from_renyi(lambda a: binary_renyi(p_low, q_high, a) if p_low > q_high else 0.0)
        return rho, {"alpha": alpha, "alphas": list(ZCDP_ALPHAS)}

    def bounds_from_events(self, p_low: np.ndarray, q_high: np.ndarray) -> np.ndarray:
        """:meth:`bound_from_event` of many events at once (the selection split's scores)."""
        return np.max([binary_renyi_array(p_low, q_high, a) / a for a in ZCDP_ALPHAS], axis=0)

    def as_dict(self) -> dict:
        return {"type": self.kind, "rho": float(self.rho)}


@dataclass(frozen=True)
class RenyiClaim:
    """``(alpha, eps)``-Renyi DP: ``D_alpha <= eps`` for every ordered neighbouring pair."""

    alpha: float
    eps: float
    kind = "renyi"
    bound_name = "eps_alpha_lower"

    def __post_init__(self):
        check_alpha(self.alpha)
        if isinstance(self.eps, bool) or not isinstance(self.eps, (int, float)):
            raise TypeError(f"eps must be a number > 0, got {self.eps!r}")
        if not (math.isfinite(self.eps) and self.eps > 0):
            raise ValueError(f"eps must be a finite number > 0, got {self.eps!r}")

    @property
    def value(self) -> float:
        return float(self.eps)

    def bound_from_event(self, p_low: float, q_high: float) -> tuple[float, dict]:
        """``(eps_alpha_lower, {})``: the two-point divergence of the bounds (0 when ``p_low <= q_high``)."""
        return (binary_renyi(p_low, q_high, self.alpha) if p_low > q_high else 0.0), {}

    def bounds_from_events(self, p_low: np.ndarray, q_high: np.ndarray) -> np.ndarray:
        """:meth:`bound_from_event` of many events at once (the selection split's scores)."""
        return binary_renyi_array(p_low, q_high, self.alpha)

    def as_dict(self) -> dict:
        return {"type": self.kind, "alpha": float(self.alpha), "eps": float(self.eps)}


@dataclass(frozen=True)
class GDPClaim:
    """``mu``-GDP: every neighbouring pair's trade-off curve is at least ``G_mu``."""

    mu: float
    kind = "gdp"
    bound_name = "mu_lower"

    def __post_init__(self):
        check_mu(self.mu)

    @property
    def value(self) -> float:
        return float(self.mu)

    def bound_from_event(self, p_low: float, q_high: float) -> tuple[float, dict]:
        """``(mu_lower, {})`` by :func:`~proofs_checks.audit.gdp.mu_from_bounds`."""
        return mu_from_bounds(p_low, q_high), {}

    def bounds_from_events(self, p_low: np.ndarray, q_high: np.ndarray) -> np.ndarray:
        """:meth:`bound_from_event` of many events at once (the selection split's scores)."""
        with np.errstate(invalid="ignore"):
            return np.where(p_low > q_high, ndtri(p_low) - ndtri(q_high), 0.0)

    def as_dict(self) -> dict:
        return {"type": self.kind, "mu": float(self.mu)}


Claim = Union[ZCDPClaim, RenyiClaim, GDPClaim]

#: ``TYPE`` -> (the claim class, the names of its parameters in the order of ``TYPE:P1:P2``).
CLAIM_TYPES = {"zcdp": (ZCDPClaim, ("rho",)), "renyi": (RenyiClaim, ("alpha", "eps")), "gdp": (GDPClaim, ("mu",))}


def parse_claim(text: str) -> Claim:
    """A claim from ``zcdp:RHO``, ``renyi:ALPHA:EPS`` or ``gdp:MU``.

    Parameters
    ----------
    text : str
        The claim's type and its parameters separated by colons.

    Returns
    -------
    ZCDPClaim or RenyiClaim or GDPClaim

    Raises
    ------
    TypeError
        ``text`` is not a string.
    ValueError
        Unknown type, wrong number of parameters, a parameter that is not a number or out of range.

    Examples
    --------
    >>> parse_claim("renyi:2:0.5")
    RenyiClaim(alpha=2.0, eps=0.5)
    >>> parse_claim("gdp:1")
    GDPClaim(mu=1.0)
    """
    if not isinstance(text, str):
        raise TypeError(f"claim must be a string TYPE:PARAMETERS, got {text!r}")
    kind, _, rest = text.partition(":")
    if kind not in CLAIM_TYPES:
        raise ValueError(f"claim {text!r}: unknown type {kind!r} (one of: {', '.join(CLAIM_TYPES)})")
    cls, names = CLAIM_TYPES[kind]
    parts = rest.split(":") if rest else []
    if len(parts) != len(names):
        spec = ":".join([kind, *(n.upper() for n in names)])
        raise ValueError(f"claim {text!r}: expected {spec}")
    try:
        values = [float(p) for p in parts]
    except ValueError:
        raise ValueError(f"claim {text!r}: parameters must be numbers") from None
    return cls(*values)
