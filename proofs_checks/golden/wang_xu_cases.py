"""Golden cases of paper 000: psi [000 eq. (6)] / [000 eq. (16)], zeta-nets, scores, Alg. 1-2 laws, Thm. 1-2."""

from __future__ import annotations

import numpy as np

from reference.wang_xu import l1_regression as L
from reference.wang_xu import nets

from . import wang_xu_mp as mp
from .cases import case, portable_matvec
from .independent import mp_keywords

__all__ = ["SUBJECT", "DESCRIPTION", "REFERENCE_PRECISION", "PORTABLE", "build"]

SUBJECT = "wang_xu"
DESCRIPTION = (
    "paper 000: psi of [000 eq. (6)] (theta = 2) and [000 eq. (16)] (theta = 1.5), zeta-net points, "
    "truncated empirical risk and exponential-mechanism log-weights, the exact output laws of "
    "[000 Alg. 1] and [000 Alg. 2] on a small net, and the settings of [000 Thm. 1-2]"
)
REFERENCE_PRECISION = (
    "psi, truncated risk, l1 loss, log-weights and laws: mpmath at 60 digits from the printed "
    "formulas, correctly rounded (proofs_checks/golden/wang_xu_mp.py; mp_reference holds 25 "
    "digits); net points and the settings of Thm. 1-2: float64 reference, with an independent mp_reference "
    "(exact enumeration of the nets, mpmath settings)"
)

#: Functions whose expected values are portable bit for bit (mpmath, rounded once): a regenerated file must repeat
#: them exactly on any CPU; the other values are float64 outputs of the reference, held to the kit's tolerances.
PORTABLE = ("psi", "truncated_empirical_risk", "l1_loss", "log_weights", "wang_xu_log_prob")

_MP_NOTE = (
    "expected: the exact value of the printed formula at the float64 inputs (mpmath, 60 digits), correctly "
    "rounded: the same on every CPU (docs/reproducibility.md)"
)


def _small_instance(rng):
    X = rng.standard_t(3.0, size=(8, 2))
    w = np.array([0.3, -0.2])
    y = portable_matvec(X, w) + rng.standard_t(2.5, size=8)
    return X, y


def build(seed):
    rng = np.random.default_rng(seed)
    cases = []
    x = np.array([0.0, 5e-324, 1e-300, 1e-8, 0.25, 0.5, 0.999999, 1.0, 1.0000001, 2.0, 1e300, np.inf])
    x = np.concatenate([x, -x[1:]])
    for theta in (2.0, 1.5):
        exact = [mp.psi(v, theta) for v in x]
        cases.append(
            case(
                f"psi/theta={theta:g}",
                "psi",
                [x],
                mp.to_float64(exact),
                kwargs={"theta": theta},
                mp_reference=mp.to_strings(exact),
                mp_provenance=mp.PROVENANCE,
                note=_MP_NOTE,
            )
        )
    for kind, cls in [("l1", nets.L1BallNet), ("l2", nets.L2BallNet)]:
        net = cls(1.0, 0.4, 2)
        cases.append(
            case(
                f"net_points/{kind}",
                "net_points",
                [kind, 1.0, 0.4, 2],
                net.points(),
                compare="rows",
                **mp_keywords(mp.net_points(kind, 1.0, 0.4, 2), mp.PROVENANCE),
                note="the net as a set of rows: a port may return them in any order",
            )
        )
    X, y = _small_instance(rng)
    net = nets.L1BallNet(1.0, 0.4, 2).points()
    iota = 0.7
    exact = mp.truncated_empirical_risk(net, X, y, iota, 2.0)
    cases.append(
        case(
            "truncated_empirical_risk/theta=2",
            "truncated_empirical_risk",
            [net, X, y, iota],
            mp.to_float64(exact),
            kwargs={"theta": 2.0},
            mp_reference=mp.to_strings(exact),
            mp_provenance=mp.PROVENANCE,
            note=_MP_NOTE,
        )
    )
    exact = mp.l1_loss(net, X, y)
    cases.append(
        case(
            "l1_loss",
            "l1_loss",
            [net, X, y],
            mp.to_float64(exact),
            mp_reference=mp.to_strings(exact),
            mp_provenance=mp.PROVENANCE,
            note=_MP_NOTE,
        )
    )
    for theta, variant in [(2.0, "printed"), (2.0, "standard"), (1.5, "printed"), (1.5, "standard")]:
        kw = {"theta": theta, "variant": variant}
        lw = mp.log_weights(net, X, y, L.exponent_factor(1.0, theta, variant), iota, theta)
        cases.append(
            case(
                f"log_weights/theta={theta:g}/{variant}",
                "log_weights",
                [net, X, y, 1.0, iota],
                mp.to_float64(lw),
                kwargs=kw,
                mp_reference=mp.to_strings(lw),
                mp_provenance=mp.PROVENANCE,
                note=_MP_NOTE,
            )
        )
        logp = mp.log_prob(lw)
        cases.append(
            case(
                f"wang_xu_log_prob/theta={theta:g}/{variant}",
                "wang_xu_log_prob",
                [X, y, net, 1.0, iota],
                (net, mp.to_float64(logp)),
                kwargs=kw,
                mp_reference=mp.to_strings(logp),
                mp_provenance=mp.PROVENANCE,
                note="[000 Alg. 1] (theta = 2) / [000 Alg. 2]: log P[output = net row r]; " + _MP_NOTE,
            )
        )
    for eps in (0.5, 2.0):
        cases.append(
            case(
                f"exponent_factor/eps={eps:g}",
                "exponent_factor",
                [eps],
                L.exponent_factor(eps, 2.0, "printed"),
                kwargs={"theta": 2.0, "variant": "printed"},
                **mp_keywords([mp.exponent_factor(eps, "printed")], mp.PROVENANCE),
            )
        )
    for n, d, eps, eta, tau, asm in [(1000, 3, 1.0, 0.05, 1.0, 1), (10**6, 10, 0.5, 0.01, 2.0, 2)]:
        cases.append(
            case(
                f"wang_xu_theorem1_parameters/n={n}",
                "wang_xu_theorem1_parameters",
                [n, d, eps, eta, tau],
                got := L.theorem1_parameters(n, d, eps, eta, tau, asm),
                kwargs={"assumption": asm},
                **mp_keywords(mp.theorem1_parameters(n, d, eps, eta, tau, asm), mp.PROVENANCE, like=got),
            )
        )
    for n, d, eps, eta, tau, theta in [(1000, 3, 1.0, 0.05, 1.0, 1.5), (10**6, 10, 0.5, 0.01, 2.0, 1.2)]:
        cases.append(
            case(
                f"wang_xu_theorem2_parameters/n={n}",
                "wang_xu_theorem2_parameters",
                [n, d, eps, eta, tau, theta],
                got := L.theorem2_parameters(n, d, eps, eta, tau, theta),
                **mp_keywords(mp.theorem2_parameters(n, d, eps, eta, tau, theta), mp.PROVENANCE, like=got),
            )
        )
    return cases
