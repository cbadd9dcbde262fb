"""Golden cases of paper 000: psi [000 eq. (6)] / [000 eq. (16)], zeta-nets, scores, Alg. 1-2 laws, Thm. 1-2."""

from __future__ import annotations

import numpy as np

from reference.wang_xu import l1_regression as L
from reference.wang_xu import nets, truncation

from .cases import case

SUBJECT = "wang_xu"
DESCRIPTION = ("paper 000: psi of [000 eq. (6)] (theta = 2) and [000 eq. (16)] (theta = 1.5), zeta-net points, "
               "truncated empirical risk and exponential-mechanism log-weights, the exact output laws of "
               "[000 Alg. 1] and [000 Alg. 2] on a small net, and the settings of [000 Thm. 1-2]")
REFERENCE_PRECISION = "float64 reference (closed forms; laws normalised by log-sum-exp)"


def _small_instance(rng):
    X = rng.standard_t(3.0, size=(8, 2))
    w = np.array([0.3, -0.2])
    y = X @ w + rng.standard_t(2.5, size=8)
    return X, y


def build(seed):
    rng = np.random.default_rng(seed)
    cases = []
    x = np.array([0.0, 5e-324, 1e-300, 1e-8, 0.25, 0.5, 0.999999, 1.0, 1.0000001, 2.0, 1e300, np.inf])
    x = np.concatenate([x, -x[1:]])
    for theta in (2.0, 1.5):
        cases.append(case(f"psi/theta={theta:g}", "psi", [x], truncation.psi(x, theta), kwargs={"theta": theta}))
    for kind, cls in [("l1", nets.L1BallNet), ("l2", nets.L2BallNet)]:
        net = cls(1.0, 0.4, 2)
        cases.append(case(f"net_points/{kind}", "net_points", [kind, 1.0, 0.4, 2], net.points(),
                          compare="rows", note="the net as a set of rows: a port may return them in any order"))
    X, y = _small_instance(rng)
    net = nets.L1BallNet(1.0, 0.4, 2).points()
    iota = 0.7
    cases.append(case("truncated_empirical_risk/theta=2", "truncated_empirical_risk", [net, X, y, iota],
                      L.truncated_empirical_risk(net, X, y, iota, 2.0), kwargs={"theta": 2.0}))
    cases.append(case("l1_loss", "l1_loss", [net, X, y], L.l1_loss(net, X, y)))
    for theta, variant in [(2.0, "printed"), (2.0, "standard"), (1.5, "printed"), (1.5, "standard")]:
        kw = {"theta": theta, "variant": variant}
        cases.append(case(f"log_weights/theta={theta:g}/{variant}", "log_weights", [net, X, y, 1.0, iota],
                          L.log_weights(net, X, y, 1.0, iota, theta, variant), kwargs=kw))
        cases.append(case(f"wang_xu_log_prob/theta={theta:g}/{variant}", "wang_xu_log_prob",
                          [X, y, net, 1.0, iota], L.wang_xu_log_prob(X, y, net, 1.0, iota, theta, variant),
                          kwargs=kw, note="[000 Alg. 1] (theta = 2) / [000 Alg. 2]: log P[output = net row r]"))
    for eps in (0.5, 2.0):
        cases.append(case(f"exponent_factor/eps={eps:g}", "exponent_factor", [eps],
                          L.exponent_factor(eps, 2.0, "printed"), kwargs={"theta": 2.0, "variant": "printed"}))
    for n, d, eps, eta, tau, asm in [(1000, 3, 1.0, 0.05, 1.0, 1), (10**6, 10, 0.5, 0.01, 2.0, 2)]:
        cases.append(case(f"wang_xu_theorem1_parameters/n={n}", "wang_xu_theorem1_parameters",
                          [n, d, eps, eta, tau], L.theorem1_parameters(n, d, eps, eta, tau, asm),
                          kwargs={"assumption": asm}))
    for n, d, eps, eta, tau, theta in [(1000, 3, 1.0, 0.05, 1.0, 1.5), (10**6, 10, 0.5, 0.01, 2.0, 1.2)]:
        cases.append(case(f"wang_xu_theorem2_parameters/n={n}", "wang_xu_theorem2_parameters",
                          [n, d, eps, eta, tau, theta], L.theorem2_parameters(n, d, eps, eta, tau, theta)))
    return cases
