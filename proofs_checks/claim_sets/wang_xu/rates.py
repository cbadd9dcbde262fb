"""The rates of Algorithms 1-2 of Wang & Xu (000) in n eps: [000 eq. (7)] (Theorem 1), [000 eq. (18)] (Theorem 2).

Stated exponents (from the theorem statements with the theorems' parameter choices):

* [000 Thm. 1], [000 eq. (7)] (Assumption 1, ``zeta = 1/n``, ``iota = sqrt(d log n log(1/eta) / (n eps tau^2))``):
  with probability ``1 - eta`` the excess risk is ``O(tau sqrt(d log n log(1/eta) / (n eps)))``.
  With ``x = n eps / (d log n)`` (``eta`` fixed) the rate is ``C x^(-1/2)``: exponent ``1/2``.
* [000 Thm. 2], [000 eq. (18)] (Assumption 3, ``zeta = 1/n``, ``iota = (1/tau) (d log(1/eta) / (n eps))^(1/theta)``):
  ``O(tau (d log n log(1/eta) / (n eps))^((theta-1)/theta))``; with the same ``x`` the exponent is
  ``(theta - 1)/theta`` (``1/3`` at ``theta = 1.5``).

The log factor is part of the rate variable so that the exponent is exact, not up to logs.
Each sweep integrates out the mechanism's randomness exactly (exact output law over the net, exact
excess risk of every net point, see :mod:`proofs_checks.rates.trials_wang_xu`); repetitions are over
datasets.  Values are compared too: the observed ``1 - eta`` quantile against the rate expression with
O-constant 1 and against the explicit right-hand sides [000 eq. (14)] (Theorem 1) and [000 eq. (26)]
(Theorem 2).
"""

from __future__ import annotations

import functools
import math

import numpy as np

from ...rates.check import make_rate_check
from ...rates.trials_wang_xu import WangXuRateSetup, excess_risk_trial, net_excess_risk
from ._common import add_variant_claims, setup_for, stated_exponent

__all__ = ["GRIDS", "REPETITIONS", "rate_variable", "explicit_bound_terms", "explicit_bound", "rate_check",
           "register"]

GRIDS = {
    "quick": [{"n": n, "epsilon": 1.0} for n in (50, 100, 200, 400, 800)],
    "full": ([{"n": n, "epsilon": 1.0} for n in (100, 200, 400, 800, 1600, 3200)]
             + [{"n": 400, "epsilon": 0.25}, {"n": 400, "epsilon": 4.0}, {"n": 1600, "epsilon": 0.5}]),
}
REPETITIONS = {"quick": 12, "full": 48}


def rate_variable(point, d=1):
    """``x = n eps / (d log n)``: the stated rates are ``C x^(-a)`` in it (``eta`` fixed)."""
    return point["n"] * point["epsilon"] / (d * math.log(point["n"]))


def explicit_bound_terms(algorithm, theta, n, epsilon, zeta, iota, tau, net_size, eta, sup_moment):
    """Right-hand side of [000 eq. (14)] (``algorithm = 1``) or [000 eq. (26)] (``algorithm = 2``).

    ``sup_moment`` is ``sup_w E (y - <x, w>)^2`` for (14), (a bound on) ``sup_w E|y - <x, w>|^theta``
    for (26); ``net_size`` is ``N(W, zeta)``.
    """
    lg = math.log(net_size / eta)
    if algorithm == 1:
        return (3 * zeta * tau + iota * zeta ** 2 * tau ** 2 + 2.5 * iota * sup_moment + 3 / (n * iota) * lg
                + 4 * math.log(2) / (n * iota * epsilon) * lg)
    c = 2 * (2 * iota) ** (theta - 1) / theta
    return (3 * zeta * tau + c * sup_moment + c * zeta ** theta * tau ** theta
            + 8 * math.log(theta) / (n * iota * epsilon) * lg)


def explicit_bound(setup: WangXuRateSetup, n, epsilon):
    """Right-hand side of [000 eq. (14)] / [000 eq. (26)] for d = 1, with N the actual net size.

    ``sup_{w in W} E (y - <x, w>)^2 = E xi^2 + E x^2 (R + |w*|)^2`` exactly (symmetric, independent);
    for (26) ``sup E|y - <x,w>|^theta`` is bounded by Minkowski,
    ``((E|xi|^theta)^(1/theta) + (R + |w*|) (E|x|^theta)^(1/theta))^theta`` (so the value is an upper
    bound of the printed right-hand side: a weaker, still valid, comparison).
    """
    p = setup.parameters(n, epsilon)
    th = setup.theta
    reach = setup.radius + abs(setup.model.w_star[0])
    noise, x_law = setup.model.noise_law, setup.model.x_law
    if setup.algorithm == 1:
        sup_moment = noise.abs_moment(2) + x_law.abs_moment(2) * reach ** 2
    else:
        sup_moment = (noise.abs_moment(th) ** (1 / th) + reach * x_law.abs_moment(th) ** (1 / th)) ** th
    return explicit_bound_terms(setup.algorithm, th, n, epsilon, p["zeta"], p["iota"], setup.tau,
                                len(setup.net(n)), setup.eta, sup_moment)


def rate_check(algorithm, variant="printed", *, setup=None, grids=None, repetitions=None):
    """Check factory: Theorem ``algorithm``'s rate from exact conditional ``1 - eta`` quantiles over datasets.

    ``setup`` defaults to :func:`~._common.setup_for`; tests pass a broken one
    (``broken="fixed-temperature"``).  ``grids`` / ``repetitions`` default to the module's
    ``GRIDS`` / ``REPETITIONS`` (read at run time).  The evidence adds the measurement error of the
    excess risks (quadrature error estimate, largest over the grid, relative to the smallest measured
    quantile), the ratio of the observed quantile to the rate expression with O-constant 1, and to
    the explicit bound (14)/(26).
    """
    setup = setup_for(algorithm, variant) if setup is None else setup
    a = stated_exponent(algorithm, setup.theta)
    eq = 7 if setup.algorithm == 1 else 18
    reading = (f"[000 Thm. {setup.algorithm}] [000 eq. ({eq})] with zeta = 1/n and the theorem's iota: excess risk "
               f"O(x^(-{a:g})) with probability 1 - eta, x = n eps / (d log n), eta = {setup.eta}")

    def check(ctx):
        g = GRIDS if grids is None else grids  # module defaults looked up at run time
        reps = REPETITIONS if repetitions is None else repetitions
        inner = make_rate_check(None, functools.partial(excess_risk_trial, setup=setup), g, rate_variable, a,
                                repetitions=reps, zeta=setup.eta, xlabel="n eps / (d log n)", reading=reading)
        res = inner(ctx)
        grid = g[ctx.profile]
        ev = res.evidence
        q = np.asarray(ev["quantile_errors"], dtype=float)
        quad = max(net_excess_risk(setup.model, float(setup.radius), float(setup.net_constant / p["n"]))[2]
                   for p in grid)
        rates = np.array([setup.parameters(p["n"], p["epsilon"])["rate"] for p in grid])
        bounds = np.array([explicit_bound(setup, p["n"], p["epsilon"]) for p in grid])
        ev.update({
            "measurement": "exact output law over the net; excess risk of each net point by vectorised adaptive "
                           "quadrature (scipy quad_vec) of a closed form; repetitions over datasets only",
            "quadrature_abs_error_max": quad,
            "quadrature_error_relative_to_smallest_quantile": quad / float(q.min()),
            "ratio_to_rate_with_O_constant_1": (q / rates).tolist(),
            "ratio_to_explicit_bound": (q / bounds).tolist(),
            "explicit_bound": "(14)" if setup.algorithm == 1 else "(26), sup-moment term bounded by Minkowski",
            "model": repr(setup.model), "tau": setup.tau, "eta": setup.eta, "net_zeta": f"{setup.net_constant}/n",
            "radius": setup.radius, "variant": setup.variant, "theta": setup.theta,
        })
        return res

    return check


STATEMENTS = {
    1: "With zeta = 1/n and iota of (7), w.p. 1 - eta the excess risk is O(tau sqrt(d log n log(1/eta)/(n eps))): "
       "exponent 1/2 in n eps / (d log n).",
    2: "With zeta = 1/n and iota of (18), w.p. 1 - eta the excess risk is "
       "O(tau (d log n log(1/eta)/(n eps))^((theta-1)/theta)): exponent (theta-1)/theta in n eps / (d log n).",
}


def register(registry):
    """Register the four n-sweep rate claims."""
    add_variant_claims(registry, "wang-xu.alg{alg}.rate.{variant}",
                       lambda alg: f"[000 Thm. {alg}] [000 eq. ({7 if alg == 1 else 18})]", STATEMENTS.get, "rate",
                       rate_check)
