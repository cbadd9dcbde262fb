"""Picklable trials for the rate checks of Wang & Xu (000), Theorems 1 and 2.

One trial draws one dataset from a :class:`reference.wang_xu.data.LinearModel` with ``d = 1`` and
computes, **exactly**, the law of the excess population risk of the output of Algorithm 1/2
given that dataset:

1. the output distribution over the zeta-net is exact (:func:`reference.wang_xu.l1_regression.wang_xu_log_prob`);
2. the excess risk ``L_D(w) - L_D(w*)`` of every net point is computed in one vectorised adaptive
   quadrature (:func:`excess_risk_1d`, ``scipy.integrate.quad_vec``) of the closed form
   ``E|xi - c| - E|xi|`` (:meth:`reference.wang_xu.data.SymmetricLaw.mean_abs_deviation`) against the
   density of ``x``.  The net does not depend on the data, so this table is computed once per
   grid point and process (:func:`net_excess_risk`);
3. the trial returns the ``1 - eta`` quantile of that discrete law (exact), or its mean
   (``statistic="mean"``).

So the randomness of the mechanism is integrated out exactly and the sweep's repetitions are
over datasets only.  The quantile regression of the rate engine at level ``1 - eta`` over datasets
of the conditional ``1 - eta`` quantile bounds the joint ``1 - 2 eta`` quantile of the excess risk
from above (union bound): a conservative statistic for a "with probability ``1 - eta``" rate.

Deliberately broken variants (for the tests; ``broken=``):
``"ignore-data"``   the output is uniform over the net (ignores the data);
``"fixed-temperature"``  the exponent ``n iota eps / log theta`` is frozen at its value for
``n = 64``, i.e. the mechanism's temperature does not shrink with ``n`` (nor with ``eps``);
``"hot"``  the exponent is 20 times too small (temperature 20x too high);
``"score-sign"``  the sign of the mechanism's exponent is flipped (weights ``exp(+k eps S / log theta)``):
the output favours the worst net points (the level test's mutant).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
from scipy import integrate
from scipy.special import logsumexp

from reference.wang_xu.data import LinearModel, folded, lomax, student_t, two_sided_lomax
from reference.wang_xu.l1_regression import (
    theorem1_parameters,
    theorem2_parameters,
    truncated_empirical_risk,
    wang_xu_log_prob,
)
from reference.wang_xu.nets import L2BallNet

from .psi_mutants import PSI_SHAPES, mutant_log_prob

__all__ = [
    "WangXuRateSetup",
    "excess_risk_1d",
    "net_excess_risk",
    "conditional_law",
    "weighted_quantile",
    "excess_risk_trial",
    "excess_risk_tail_trial",
    "shifted_excess_risk",
    "em_utility_gap_tail",
    "W_STAR",
    "NOISE_SCALES",
    "SYMMETRIC_MODELS",
    "THEOREM1_MODEL",
    "THEOREM2_MODEL",
]

#: w* = 1/e: off every net of the sweeps (the nets are grids k zeta, zeta = 1/n), so the net term
#: ``zeta`` of Theorems 1-2 is not identically zero (with w* = 0.5 it was, at every even n).
W_STAR = 1.0 / math.e
#: Noise scales above / below 0 of the asymmetric noise: the truncated loss is biased (the
#: truncation-bias term of the proofs shows, and an iota too large is caught).
NOISE_SCALES = (1.5, 0.5)
#: Assumption 1 (d = 1): x ~ |Student t(3)| (E x^2 = 3, every moment of order < 3; folded so that
#: E x != 0: with a symmetric x the truncation bias cancels by symmetry), noise a median-0 two-sided
#: Lomax(3) with scales 1.5 / 0.5.
THEOREM1_MODEL = LinearModel((W_STAR,), folded(student_t(3.0)), two_sided_lomax(3.0, *NOISE_SCALES))
#: Assumption 3 with theta = 1.5 (d = 1): x ~ |Student t(1.8)| (infinite variance), noise a median-0
#: two-sided Lomax(2.5) with scales 1.5 / 0.5.
THEOREM2_MODEL = LinearModel((W_STAR,), folded(student_t(1.8)), two_sided_lomax(2.5, *NOISE_SCALES))
#: The earlier symmetric designs (w* = 0.5, a point of every net, so that the net term of Theorems 1-2 vanished;
#: symmetric noise), kept for comparison.
SYMMETRIC_MODELS = {
    1: LinearModel((0.5,), student_t(3.0), lomax(3.0)),
    2: LinearModel((0.5,), student_t(1.8), lomax(2.5)),
}

BROKEN = (None, "ignore-data", "fixed-temperature", "hot", "score-sign")


@dataclass(frozen=True)
class WangXuRateSetup:
    """Everything a trial needs besides ``n`` and ``epsilon`` (frozen, hence picklable and hashable).

    algorithm : 1 or 2;  theta : 2 for Algorithm 1, in (1, 2) for Algorithm 2;
    assumption : 1 (Theorem 1, eq. (7)) or 3 (Theorem 2, eq. (18));
    eta : failure probability (the quantile level is ``1 - eta``);
    radius : W is the l2 ball (interval) of this radius;
    net_constant : zeta = net_constant / n (the theorems' ``zeta = O(1/n)``);
    statistic : "quantile" or "mean" of the conditional law;
    fixed_zeta : a net resolution that does not refine with n (a mutant; ``None``: ``net_constant / n``);
    iota_factor : the truncation level is ``iota_factor`` times the theorem's (a mutant: 30);
    temperature_factor : the mechanism's temperature is this times the stated one (a mutant: 20);
    output_noise : the released point is the output plus ``+-output_noise`` (Rademacher; a mutant);
    iota_exponent_shift : iota is the theorem's times ``(x / x_ref)^(-iota_exponent_shift)``, ``x = n eps / log n``,
    ``x_ref`` its value at ``n = 100, eps = 1`` (a mutant of the iota schedule: its exponent in ``x`` moves by
    the shift, its value at the reference point does not);
    psi_shape : psi of the mechanism's scores, one of :data:`proofs_checks.rates.psi_mutants.PSI_SHAPES`
    (``"printed"``; the mutants ``"saturates-at-2"``, ``"sign-flipped"`` are scored by
    :func:`proofs_checks.rates.psi_mutants.mutant_log_prob`, the reference's numpy psi).
    """

    algorithm: int = 1
    model: LinearModel = THEOREM1_MODEL
    theta: float = 2.0
    assumption: int = 1
    variant: str = "printed"
    eta: float = 0.1
    radius: float = 1.0
    net_constant: float = 1.0
    statistic: str = "quantile"
    broken: str | None = None
    fixed_zeta: float | None = None
    iota_factor: float = 1.0
    temperature_factor: float = 1.0
    output_noise: float = 0.0
    iota_exponent_shift: float = 0.0
    psi_shape: str = "printed"

    def __post_init__(self):
        if self.model.dim != 1:
            raise ValueError(f"the exact excess-risk trial needs d = 1, got d = {self.model.dim}")
        if self.broken not in BROKEN:
            raise ValueError(f"broken must be one of {BROKEN}, got {self.broken!r}")
        if self.statistic not in ("quantile", "mean"):
            raise ValueError(f"statistic must be 'quantile' or 'mean', got {self.statistic!r}")
        if self.psi_shape not in PSI_SHAPES:
            raise ValueError(f"psi_shape must be one of {PSI_SHAPES}, got {self.psi_shape!r}")

    @property
    def tau(self) -> float:
        return self.model.tau(self.assumption, self.theta)

    def parameters(self, n, epsilon):
        """zeta (net) and iota of the theorem at ``(n, epsilon)`` (O-constants 1, net constant aside)."""
        if self.algorithm == 1:
            p = theorem1_parameters(n, 1, epsilon, self.eta, self.tau, self.assumption)
        else:
            p = theorem2_parameters(n, 1, epsilon, self.eta, self.tau, self.theta, self.assumption)
        p = dict(p)
        p["zeta"] = self.zeta(n)
        p["iota"] = p["iota"] * self.iota_factor
        if self.iota_exponent_shift:
            x, x_ref = n * epsilon / math.log(n), 100.0 / math.log(100.0)
            p["iota"] = p["iota"] * (x / x_ref) ** (-self.iota_exponent_shift)
        return p

    def zeta(self, n):
        """The net's resolution at ``n``: ``net_constant / n`` (or the mutant's fixed one)."""
        return float(self.fixed_zeta) if self.fixed_zeta is not None else self.net_constant / n

    def net(self, n):
        return L2BallNet(self.radius, self.zeta(n), 1)


def excess_risk_1d(model: LinearModel, w, *, epsabs=1e-13, epsrel=1e-10):
    """``L_D(w) - L_D(w*)`` for many scalar ``w`` at once (d = 1), by vectorised adaptive quadrature.

    ``L_D(w) - L_D(w*) = int_0^inf [(E|xi - v x| - E|xi|) p_x(x) + (E|xi + v x| - E|xi|) p_x(-x)] dx`` with
    ``v = w - w*`` (any x law, symmetric or folded; the noise may be asymmetric), the inner expectation
    in closed form.  Returns
    ``(excess, abs_error_estimate)``.
    """
    w = np.asarray(w, dtype=float).ravel()
    v = w - model.w_star[0]
    noise, law = model.noise_law, model.x_law
    m0 = noise.abs_moment(1)

    def f(x):
        out = (noise.mean_abs_deviation(v * x) - m0) * law.pdf(x)
        p_neg = law.pdf(-x)
        if p_neg != 0:  # a folded x has no mass below 0: adding the exact 0 term changes no bit, skip its cost
            out = out + (noise.mean_abs_deviation(-v * x) - m0) * p_neg
        return out

    val, err = integrate.quad_vec(f, 0, np.inf, epsabs=epsabs, epsrel=epsrel, limit=2000)
    return np.asarray(val), float(err)


def _log_prob(setup: WangXuRateSetup, data, n, epsilon):
    p = setup.parameters(n, epsilon)
    net = setup.net(n)
    X, y = data[:, :1], data[:, 1]
    if setup.broken == "ignore-data":
        pts = net.points()
        return pts, np.full(pts.shape[0], -math.log(pts.shape[0])), p
    if setup.broken == "fixed-temperature":
        # exponent n iota eps / log theta frozen at n = 64: rescale eps so that n iota eps = const
        p64 = setup.parameters(64, 1.0)
        eps_eff = 64 * p64["iota"] / (n * p["iota"])
        pts, lp = wang_xu_log_prob(X, y, net, eps_eff, p["iota"], setup.theta, setup.variant)
        return pts, lp, p
    if setup.broken == "hot":
        epsilon = epsilon / 20.0  # temperature 20x too high for the stated utility (and for eps)
    epsilon = epsilon / setup.temperature_factor
    if setup.psi_shape != "printed":
        pts = net.points()
        lp = mutant_log_prob(pts, X, y, epsilon, p["iota"], setup.theta, setup.variant, setup.psi_shape)
        return pts, lp, p
    pts, lp = wang_xu_log_prob(X, y, net, epsilon, p["iota"], setup.theta, setup.variant)
    if setup.broken == "score-sign":
        # log p = -k eps S / log theta - log Z, so -log p is +k eps S / log theta up to a constant
        lp = -lp - logsumexp(-lp)
    return pts, lp, p


@functools.lru_cache(maxsize=16)
def net_excess_risk(model: LinearModel, radius: float, zeta: float):
    """Excess risk of every point of the 1-d zeta-net of ``[-radius, radius]`` (cached per process).

    The net does not depend on the data, so one vectorised quadrature serves every dataset of a
    grid point.  Returns ``(points (N,), excess (N,), abs_error_estimate)``.
    """
    pts = L2BallNet(radius, zeta, 1).points()[:, 0]
    excess, err = excess_risk_1d(model, pts)
    return pts, excess, err


@functools.lru_cache(maxsize=16)
def shifted_excess_risk(model: LinearModel, radius: float, zeta: float, shift: float):
    """Excess risk of every point of the 1-d zeta-net shifted by ``shift`` (the output-noise mutant)."""
    pts = L2BallNet(radius, zeta, 1).points()[:, 0] + shift
    return excess_risk_1d(model, pts)[0]


def conditional_law(setup: WangXuRateSetup, n, epsilon, rng):
    """Draw one dataset; return the exact law of the output's excess risk given it.

    Returns dict with ``excess`` (N,) and ``prob`` (N,) over the whole net, ``quad_error``
    (absolute error estimate of the excess risks), ``data``, ``log_prob``, ``points`` and the
    theorem parameters.
    """
    data = setup.model.sample(n, rng)
    pts, lp, p = _log_prob(setup, data, n, epsilon)
    grid, excess, err = net_excess_risk(setup.model, float(setup.radius), setup.zeta(n))
    if not np.array_equal(grid, pts[:, 0]):  # same net object, same enumeration order
        raise RuntimeError("net enumeration changed between the mechanism and the risk table")
    if setup.output_noise:
        # the released point is w + s or w - s, each w.p. 1/2: two shifted risk tables, half the mass each
        up = shifted_excess_risk(setup.model, float(setup.radius), setup.zeta(n), float(setup.output_noise))
        down = shifted_excess_risk(setup.model, float(setup.radius), setup.zeta(n), -float(setup.output_noise))
        excess = np.concatenate([up, down])
        lp = np.concatenate([lp, lp]) - math.log(2.0)
        pts = np.concatenate([pts + setup.output_noise, pts - setup.output_noise])
    return {
        "excess": excess,
        "prob": np.exp(lp),
        "quad_error": err,
        "data": data,
        "log_prob": lp,
        "points": pts,
        "params": p,
    }


def weighted_quantile(values, prob, q):
    """``q`` quantile of the discrete law ``prob`` on ``values``: the smallest v with ``P[X <= v] >= q``."""
    values = np.asarray(values, dtype=float)
    order = np.argsort(values, kind="stable")
    cdf = np.cumsum(np.asarray(prob, dtype=float)[order])
    k = min(int(np.searchsorted(cdf, q * cdf[-1], side="left")), values.size - 1)
    return float(values[order][k])


def excess_risk_trial(point, rng, setup: WangXuRateSetup):
    """Rate-engine trial: the exact ``1 - eta`` quantile (or mean) of the output's excess risk given one dataset.

    ``point = {"n": int, "epsilon": float}``.  Use ``functools.partial(excess_risk_trial, setup=...)``.
    """
    law = conditional_law(setup, int(point["n"]), float(point["epsilon"]), rng)
    ex = np.maximum(law["excess"], 0.0)
    if setup.statistic == "mean":
        return float(ex @ law["prob"] / law["prob"].sum())
    return weighted_quantile(ex, law["prob"], 1.0 - setup.eta)


def excess_risk_tail_trial(point, rng, setup: WangXuRateSetup, bounds):
    """Exact ``P[excess > B | D]`` for one dataset, ``B = bounds[(n, epsilon)]`` (the level test of the rates)."""
    n, eps = int(point["n"]), float(point["epsilon"])
    law = conditional_law(setup, n, eps, rng)
    prob = law["prob"] / law["prob"].sum()
    return float(prob[law["excess"] > bounds[(point["n"], point["epsilon"])]].sum())


def em_utility_gap_tail(setup: WangXuRateSetup, n, epsilon, rng, etas):
    """Exact ``P[L-hat(w~) - min_net L-hat > (4 log theta / (n iota eps)) log(N / eta)]`` for each eta.

    The bound is the one the proofs of Theorems 1-2 take from Lemma 1 (eqs. (9), (20)).
    Returns ``(probabilities, bounds, max_gap)``: the exact tail probabilities, the bounds, and the
    largest gap over the net (a bound above it is vacuous: its tail probability is 0 for any law).
    """
    data = setup.model.sample(n, rng)
    pts, lp, p = _log_prob(setup, data, n, epsilon)
    Lhat = truncated_empirical_risk(pts, data[:, :1], data[:, 1], p["iota"], setup.theta)
    gap = Lhat - Lhat.min()
    N = pts.shape[0]
    probs, bounds = [], []
    for eta in np.atleast_1d(etas):
        bound = 4 * math.log(setup.theta) / (n * p["iota"] * epsilon) * math.log(N / eta)
        tail = gap > bound
        probs.append(float(np.exp(logsumexp(lp[tail]))) if tail.any() else 0.0)
        bounds.append(bound)
    return np.array(probs), np.array(bounds), float(gap.max())
