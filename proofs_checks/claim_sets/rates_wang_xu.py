"""Rate claims of Wang & Xu (000): the excess population risk of Algorithms 1-2 against Theorems 1-2.

Stated exponents (derived from the theorem statements with the theorems' parameter choices):

* Theorem 1, eq. (7) (Assumption 1, ``zeta = 1/n``, ``iota = sqrt(d log n log(1/eta) / (n eps tau^2))``):
  with probability ``1 - eta`` the excess risk is ``O(tau sqrt(d log n log(1/eta) / (n eps)))``.
  With ``x = n eps / (d log n)`` (``eta`` fixed) the rate is ``C x^(-1/2)``: exponent ``1/2``.
* Theorem 2, eq. (18) (Assumption 3, ``zeta = 1/n``, ``iota = (1/tau) (d log(1/eta) / (n eps))^(1/theta)``):
  ``O(tau (d log n log(1/eta) / (n eps))^((theta-1)/theta))``; with the same ``x`` the exponent is
  ``(theta - 1)/theta`` (``1/3`` at ``theta = 1.5``).

The log factor is part of the rate variable so that the exponent is exact, not up to logs.
Each sweep integrates out the mechanism's randomness exactly (exact output law over the net, exact
excess risk of every net point, see :mod:`proofs_checks.rates.trials_wang_xu`); repetitions are over
datasets.  Values are compared too: the observed ``1 - eta`` quantile against the rate expression with
O-constant 1 and against the explicit right-hand sides (14) (Theorem 1) and (26) (Theorem 2).

The exponential-mechanism step of both proofs (eqs. (9), (20), from Lemma 1 with ``t = log(1/eta)``)
has explicit constants; it is checked exactly: ``P[L-hat(w~) - min L-hat > (4 log theta/(n iota eps))
log(N/eta)] <= eta`` from the exact output law, for both variants.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from ..claims import Claim, Result
from ..rates.check import make_rate_check
from ..rates.trials_wang_xu import (THEOREM1_MODEL, THEOREM2_MODEL, WangXuRateSetup, em_utility_gap_tail,
                                    excess_risk_trial, net_excess_risk)

ETA = 0.1
THETA2 = 1.5

GRIDS = {
    "quick": [{"n": n, "epsilon": 1.0} for n in (50, 100, 200, 400, 800)],
    "full": ([{"n": n, "epsilon": 1.0} for n in (100, 200, 400, 800, 1600, 3200)]
             + [{"n": 400, "epsilon": 0.25}, {"n": 400, "epsilon": 4.0}, {"n": 1600, "epsilon": 0.5}]),
}
REPETITIONS = {"quick": 12, "full": 48}


def setup_for(algorithm, variant="printed", **kw):
    """The data and parameters of the rate check of Theorem 1 (algorithm 1) or 2 (algorithm 2)."""
    if algorithm == 1:
        return WangXuRateSetup(algorithm=1, model=THEOREM1_MODEL, theta=2.0, assumption=1, variant=variant,
                               eta=ETA, **kw)
    return WangXuRateSetup(algorithm=2, model=THEOREM2_MODEL, theta=THETA2, assumption=3, variant=variant,
                           eta=ETA, **kw)


def rate_variable(point, d=1):
    """``x = n eps / (d log n)``: the stated rates are ``C x^(-a)`` in it (``eta`` fixed)."""
    return point["n"] * point["epsilon"] / (d * math.log(point["n"]))


def stated_exponent(algorithm, theta=THETA2):
    return 0.5 if algorithm == 1 else (theta - 1) / theta


def explicit_bound(setup: WangXuRateSetup, n, epsilon):
    """Right-hand side of (14) (Theorem 1) or (26) (Theorem 2) for d = 1, with N the actual net size.

    ``sup_{w in W} E (y - <x, w>)^2 = E xi^2 + E x^2 (R + |w*|)^2`` exactly (symmetric, independent);
    for (26) ``sup E|y - <x,w>|^theta`` is bounded by Minkowski,
    ``((E|xi|^theta)^(1/theta) + (R + |w*|) (E|x|^theta)^(1/theta))^theta`` (so the value is an upper
    bound of the printed right-hand side: a weaker, still valid, comparison).
    """
    p = setup.parameters(n, epsilon)
    zeta, iota, tau, th = p["zeta"], p["iota"], setup.tau, setup.theta
    N = len(setup.net(n))
    reach = setup.radius + abs(setup.model.w_star[0])
    lg = math.log(N / setup.eta)
    if setup.algorithm == 1:
        sup2 = setup.model.noise_law.abs_moment(2) + setup.model.x_law.abs_moment(2) * reach ** 2
        return (3 * zeta * tau + iota * zeta ** 2 * tau ** 2 + 2.5 * iota * sup2 + 3 / (n * iota) * lg
                + 4 * math.log(2) / (n * iota * epsilon) * lg)
    supt = (setup.model.noise_law.abs_moment(th) ** (1 / th) + reach * setup.model.x_law.abs_moment(th) ** (1 / th)) ** th
    c = 2 * (2 * iota) ** (th - 1) / th
    return 3 * zeta * tau + c * supt + c * zeta ** th * tau ** th + 8 * math.log(th) / (n * iota * epsilon) * lg


def rate_check(algorithm, variant="printed", *, setup=None, grids=None, repetitions=None, claim_id=None):
    """Check of Theorem ``algorithm``'s rate: exact conditional ``1 - eta`` quantiles over datasets.

    ``setup`` defaults to :func:`setup_for`; tests pass a broken one (``broken="fixed-temperature"``).
    ``grids`` / ``repetitions`` default to the module's ``GRIDS`` / ``REPETITIONS`` (read at run time).
    The evidence adds the measurement error of the excess risks (quadrature error estimate, largest
    over the grid, relative to the smallest measured quantile), the ratio of the observed quantile
    to the rate expression with O-constant 1, and to the explicit bound (14)/(26).
    """
    setup = setup_for(algorithm, variant) if setup is None else setup
    claim_id = claim_id or f"wang-xu.alg{algorithm}.rate.{variant}"
    a = stated_exponent(algorithm, setup.theta)

    def check(ctx):
        g = GRIDS if grids is None else grids  # module defaults looked up at run time
        reps = REPETITIONS if repetitions is None else repetitions
        inner = make_rate_check(claim_id, functools.partial(excess_risk_trial, setup=setup), g, rate_variable, a,
                                repetitions=reps, zeta=setup.eta, xlabel="n eps / (d log n)")
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


EM_CASES = {"quick": [(100, 1.0), (400, 1.0), (400, 50.0)],
            "full": [(100, 1.0), (400, 1.0), (1600, 1.0), (400, 0.25), (400, 50.0), (1600, 50.0)]}
EM_ETAS = (0.5, 0.1, 0.01, 1e-3)


def em_utility_check(algorithm, variant="printed", *, setup=None, datasets=None, cases=None, claim_id=None):
    """Exact check of the Lemma-1 step (9)/(20): ``P[gap > (4 log theta/(n iota eps)) log(N/eta)] <= eta``.

    For each case ``(n, eps)``, dataset and eta the tail probability is computed exactly from the
    output law.  Confirmed if no probability exceeds its eta; refuted otherwise.  The evidence
    reports how many of the bounds are vacuous (above the largest gap on the net, so that no law
    could violate them): at small ``n iota eps`` (Theorem 2's iota is small) most are.
    """
    setup = setup_for(algorithm, variant) if setup is None else setup
    claim_id = claim_id or f"wang-xu.alg{algorithm}.em-utility.{variant}"

    def check(ctx):
        rng = ctx.rng(claim_id)
        reps = datasets or (4 if ctx.profile == "quick" else 16)
        rows, worst, vacuous, total = [], 0.0, 0, 0
        for n, eps in (cases or EM_CASES[ctx.profile]):
            out = [em_utility_gap_tail(setup, n, eps, rng, EM_ETAS) for _ in range(reps)]
            probs = np.array([o[0] for o in out])
            bounds = np.array([o[1] for o in out])
            gaps = np.array([o[2] for o in out])
            ratio = probs.max(axis=0) / np.array(EM_ETAS)
            worst = max(worst, float(ratio.max()))
            vacuous += int(np.sum(bounds >= gaps[:, None]))
            total += bounds.size
            rows.append({"n": n, "epsilon": eps, "max_tail_probability": probs.max(axis=0), "max_over_eta": ratio,
                         "bound": bounds[0], "max_gap_on_net": float(gaps.max())})
        verdict = "confirmed" if worst <= 1.0 else "refuted"
        return Result(verdict, {"etas": EM_ETAS, "cases": rows, "worst_probability_over_eta": worst,
                                "vacuous_bounds": f"{vacuous}/{total}", "datasets_per_case": reps,
                                "variant": setup.variant, "theta": setup.theta,
                                "method": "exact output law over the net (no sampling)"})

    return check


def register(registry):
    claim = registry.add_claim
    for alg, src, stmt in (
            (1, "000, Theorem 1, eq. (7) (Assumption 1)",
             "With zeta = 1/n and iota of (7), w.p. 1 - eta the excess risk is O(tau sqrt(d log n log(1/eta)/(n eps))): "
             "exponent 1/2 in n eps / (d log n)."),
            (2, "000, Theorem 2, eq. (18) (Assumption 3)",
             "With zeta = 1/n and iota of (18), w.p. 1 - eta the excess risk is "
             "O(tau (d log n log(1/eta)/(n eps))^((theta-1)/theta)): exponent (theta-1)/theta in n eps / (d log n).")):
        for variant in ("printed", "standard"):
            claim(Claim(f"wang-xu.alg{alg}.rate.{variant}", src, stmt, "rate", rate_check(alg, variant),
                        algorithm=f"wang-xu-{alg}", variant=variant))
        for variant in ("printed", "standard"):
            claim(Claim(f"wang-xu.alg{alg}.em-utility.{variant}",
                        f"000, proof of Theorem {alg}, eq. ({9 if alg == 1 else 20}) (Lemma 1 with t = log 1/eta)",
                        "W.p. 1 - eta the output's truncated empirical risk exceeds the net minimum by at most "
                        "(4 log theta / (n iota eps)) log(N / eta).",
                        "inequality", em_utility_check(alg, variant), algorithm=f"wang-xu-{alg}", variant=variant))
