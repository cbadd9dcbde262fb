"""Picklable trials for the dimension (d-sweep) rate checks of Wang & Xu (000), Theorems 1 and 2.

The d = 1 trials (:mod:`proofs_checks.rates.trials_wang_xu`) sweep ``n``; these sweep ``d`` at
fixed ``(n, eps)``, with the same exactness: exact output law over the net, exact excess risk
of every net point, repetitions over datasets, exact conditional ``1 - eta`` quantile.

Data whose excess risk depends on ``||w - w*||_2`` only
------------------------------------------------------
:class:`MultivariateTModel`: ``x = z / sqrt(W / nu)`` with ``z ~ N(0, I_d)`` and one shared
``W ~ chi2_nu`` (a multivariate Student t), ``y = <x, w*> + xi`` with ``xi`` independent and
symmetric, ``w* = 0``.  For any ``v``, ``<x, v> = ||v||_2 * (<z, v/||v||> / sqrt(W/nu))`` and the
bracket is a univariate Student t(nu) (``<z, u> ~ N(0, 1)`` for a unit ``u``, independent of
``W``).  Hence ``L_D(w) - L_D(w*) = E|xi - ||w - w*|| t| - E|xi| = h(||w - w*||_2)``, with ``h``
the excess risk of the d = 1 model (``x ~ t(nu)``, same noise) at distance ``r`` from its
minimiser: :func:`proofs_checks.rates.trials_wang_xu.excess_risk_1d`, one vectorised quadrature
for every distinct norm of the grid (a grid of spacing ``s`` has norms ``s sqrt(m)``, ``m``
an integer, so a few hundred distinct values at most).  ``h`` is increasing (``L_D`` is convex
and minimised at ``w*``), so the quantile of the output's excess risk is ``h`` of the quantile
of its distance to ``w*``.

The constants of the assumptions are exact for this law:
``E||x||^p = E||z||^p * E (W/nu)^(-p/2) = 2^(p/2) Gamma((d+p)/2)/Gamma(d/2) *
(nu/2)^(p/2) Gamma((nu-p)/2)/Gamma(nu/2)`` for ``p < nu`` (:meth:`MultivariateTModel.norm_moment`);
Assumption 1: ``tau^2 = E||x||^2 = d nu/(nu - 2)``; Assumption 3: ``tau^theta = E||x||^theta``.

The net: fixed resolution (a departure from ``zeta = 1/n``)
-----------------------------------------------------------
A ``zeta = 1/n`` net in ``d >= 2`` has about ``n^d`` points.  The sweep uses
``L2BallNet(R, zeta, d)`` (grid of spacing ``zeta/sqrt(d)``, covering radius ``zeta``) with the
same ``R`` and ``zeta`` for every ``d`` of the sweep, centred at ``w* = 0`` (a grid point).
Theorems 1-2 are stated for ``zeta = O(1/n)``; their general bounds ((14), (17)) hold for any
``zeta`` and keep the same ``tau(d) sqrt(d ...)`` dependence on ``d`` at fixed ``zeta`` and
``R/zeta`` (``log N(W, zeta) <= d log(3 Delta/zeta)``).  The checks report ``zeta``, the
``1 - eta`` quantile of ``||w~ - w*||`` and ``R`` side by side.

Deliberately broken variants (for the tests; ``broken=``):
``"temperature-times-d"``  the exponent of the mechanism is divided by ``d`` (temperature ``d`` times
too high), so the error grows about ``d`` times faster than stated;
``"iota-without-d"``  ``iota`` of the theorem computed with ``d = 1`` (the ``d`` factor dropped).

References
----------
.. [1] D. Wang and J. Xu, ``000_e64de114947d2122.txt``: Assumptions 1 and 3, Algorithms 1-2, Theorem 1
       (first display and eq. (7)), Theorem 2 (eqs. (17), (18)), eqs. (14) and (26) of the proofs.
.. [2] S. Kotz and S. Nadarajah, *Multivariate t Distributions and Their Applications*, Cambridge
       University Press, 2004, Chapter 1 (the representation ``z / sqrt(W/nu)``).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
from scipy.special import gammaln, logsumexp

from reference.validation import as_generator, check_integer, check_positive
from reference.wang_xu.data import LinearModel, SymmetricLaw, lomax, student_t
from reference.wang_xu.l1_regression import log_weights, theorem1_parameters, theorem2_parameters
from reference.wang_xu.nets import L2BallNet

from .psi_mutants import PSI_SHAPES, mutant_log_weights
from .trials_wang_xu import excess_risk_1d, weighted_quantile

__all__ = [
    "MultivariateTModel",
    "DimensionSetup",
    "net_radial_table",
    "dimension_law",
    "dimension_trial",
    "radius_of_excess",
    "plot_dimension",
    "BROKEN_DIM",
]

BROKEN_DIM = (None, "temperature-times-d", "iota-without-d")

#: Elements of the (records x net points) block scored at once (8 MB of float64).
_BLOCK_ELEMENTS = 1 << 20


@dataclass(frozen=True)
class MultivariateTModel:
    """``y = <x, w*> + xi`` with ``x`` multivariate Student t(nu) in ``d`` dims and ``w* = 0``.

    Parameters
    ----------
    dim : int
        Dimension ``d >= 1``.
    nu : float
        Degrees of freedom (> 0); ``E||x||^p`` is finite exactly for ``p < nu``.
    noise_law : reference.wang_xu.data.SymmetricLaw
        Law of the symmetric noise ``xi`` (independent of ``x``), with a finite mean.
    """

    dim: int
    nu: float
    noise_law: SymmetricLaw

    def __post_init__(self):
        object.__setattr__(self, "dim", check_integer("dim", self.dim, minimum=1))
        object.__setattr__(self, "nu", check_positive("nu", self.nu))
        if not isinstance(self.noise_law, SymmetricLaw):
            raise TypeError(f"noise_law must be a reference.wang_xu.data.SymmetricLaw, got {self.noise_law!r}")
        if self.noise_law.tail_index() <= 1:
            raise ValueError(f"noise_law must have a finite mean, got {self.noise_law!r}")

    @property
    def w_star(self) -> np.ndarray:
        return np.zeros(self.dim)

    @property
    def radial_model(self) -> LinearModel:
        """The d = 1 model ``y = 0 * x + xi``, ``x ~ t(nu)``: its excess risk at ``r`` is ``h(r)``."""
        return LinearModel((0.0,), student_t(self.nu), self.noise_law)

    def sample(self, n, rng=None):
        """Records ``[x_1, ..., x_d, y]`` of shape (n, d + 1), vectorised.

        ``W`` is drawn as ``2 Gamma(nu/2)``; a draw of exactly 0 (probability 0, below ``1e-300`` with
        probability about ``1e-270`` at ``nu = 1.8``) would give an infinite record and is rejected.
        """
        n = check_integer("n", n, minimum=1)
        gen = as_generator(rng)
        z = gen.standard_normal((n, self.dim))
        w = 2.0 * gen.standard_gamma(self.nu / 2.0, size=n)
        if np.any(w <= 0):
            raise FloatingPointError("a chi-square draw underflowed to 0 (probability below 1e-270)")
        X = z / np.sqrt(w / self.nu)[:, None]
        y = self.noise_law.sample(n, gen)  # <x, w*> = 0
        return np.column_stack([X, y])

    def norm_moment(self, p) -> float:
        """``E ||x||_2^p`` in closed form (``inf`` for ``p >= nu``).

        ``E||z||^p = 2^(p/2) Gamma((d+p)/2) / Gamma(d/2)`` (chi law) and
        ``E (W/nu)^(-p/2) = (nu/2)^(p/2) Gamma((nu-p)/2) / Gamma(nu/2)`` (inverse chi-square moment).
        """
        p = float(p)
        if p < 0:
            raise ValueError(f"p must be >= 0, got {p!r}")
        if p >= self.nu:
            return math.inf
        d, nu = self.dim, self.nu
        log_z = 0.5 * p * math.log(2.0) + gammaln((d + p) / 2) - gammaln(d / 2)
        log_w = 0.5 * p * math.log(nu / 2.0) + gammaln((nu - p) / 2) - gammaln(nu / 2)
        return math.exp(log_z + log_w)

    def tau(self, assumption, theta=2.0) -> float:
        """Exact tau of Assumption 1 (``tau^2 = E||x||^2 = d nu/(nu-2)``) or 3 (``tau^theta = E||x||^theta``)."""
        if assumption == 1:
            return math.sqrt(self.norm_moment(2.0))
        if assumption == 3:
            return self.norm_moment(theta) ** (1.0 / theta)
        raise ValueError(f"assumption must be 1 or 3 for the multivariate t model, got {assumption!r}")


@dataclass(frozen=True)
class DimensionSetup:
    """Everything a d-sweep trial needs besides ``(d, n, epsilon)`` (frozen: picklable and hashable).

    algorithm : 1 (Theorem 1, Assumption 1, ``theta = 2``) or 2 (Theorem 2, Assumption 3);
    nu, noise_law : the multivariate t model; radius, zeta : the net ``L2BallNet(radius, zeta, d)``;
    eta : failure probability (quantile level ``1 - eta``); broken : see the module docstring;
    temperature_factor : the mechanism's temperature is this times the stated one (mutants: 2, 0.5);
    psi_shape : psi of the scores, :data:`proofs_checks.rates.psi_mutants.PSI_SHAPES` (mutants scored by
    :func:`proofs_checks.rates.psi_mutants.mutant_log_weights`).
    """

    algorithm: int = 1
    nu: float = 3.0
    noise_law: SymmetricLaw = lomax(3.0)
    theta: float = 2.0
    assumption: int = 1
    variant: str = "printed"
    eta: float = 0.1
    radius: float = 1.0
    zeta: float = 0.125
    broken: str | None = None
    temperature_factor: float = 1.0
    psi_shape: str = "printed"

    def __post_init__(self):
        if self.psi_shape not in PSI_SHAPES:
            raise ValueError(f"psi_shape must be one of {PSI_SHAPES}, got {self.psi_shape!r}")
        check_positive("temperature_factor", self.temperature_factor)
        if self.algorithm not in (1, 2):
            raise ValueError(f"algorithm must be 1 or 2, got {self.algorithm!r}")
        if self.broken not in BROKEN_DIM:
            raise ValueError(f"broken must be one of {BROKEN_DIM}, got {self.broken!r}")
        check_positive("radius", self.radius)
        check_positive("zeta", self.zeta)
        if self.zeta >= self.radius:
            raise ValueError(f"zeta must be below radius, got zeta={self.zeta!r}, radius={self.radius!r}")

    def model(self, d) -> MultivariateTModel:
        return MultivariateTModel(d, self.nu, self.noise_law)

    def tau(self, d) -> float:
        return self.model(d).tau(self.assumption, self.theta)

    def parameters(self, n, d, epsilon):
        """iota and the rate (O-constants 1) of the theorem with the actual ``d`` and ``tau(d)``; the net's zeta."""
        tau = self.tau(d)
        d_iota = 1 if self.broken == "iota-without-d" else d
        if self.algorithm == 1:
            p = dict(theorem1_parameters(n, d, epsilon, self.eta, tau, self.assumption))
            p["iota"] = theorem1_parameters(n, d_iota, epsilon, self.eta, tau, self.assumption)["iota"]
        else:
            p = dict(theorem2_parameters(n, d, epsilon, self.eta, tau, self.theta, self.assumption))
            p["iota"] = theorem2_parameters(n, d_iota, epsilon, self.eta, tau, self.theta, self.assumption)["iota"]
        p["zeta"] = self.zeta
        p["tau"] = tau
        return p


def net_radial_table(setup: DimensionSetup, d: int):
    """Net points of ``L2BallNet(radius, zeta, d)``, their norms and excess risks ``h(norm)`` (cached per process).

    Returns ``(points (N, d), norms (N,), excess (N,), abs_error_estimate, distinct_norms)``.  The table depends
    on the net and the law only, so the variants and mutants of one model share it (the cache was keyed by the
    whole setup, and each variant paid the quadrature again).
    """
    return _radial_table(setup.radius, setup.zeta, int(d), setup.nu, setup.noise_law)


@functools.lru_cache(maxsize=8)
def _radial_table(radius, zeta, d, nu, noise_law):
    net = L2BallNet(radius, zeta, d)
    pts = net.points()
    k = np.rint(pts / net.spacing).astype(np.int64)
    m = np.einsum("ij,ij->i", k, k)  # ||w||^2 = spacing^2 * m exactly, m integer
    um, inv = np.unique(m, return_inverse=True)
    radii = net.spacing * np.sqrt(um.astype(float))
    h, err = excess_risk_1d(MultivariateTModel(d, nu, noise_law).radial_model, radii)
    h = np.maximum(h, 0.0)
    h[um == 0] = 0.0  # w = w*: excess exactly 0
    norms = radii[inv]
    return pts, norms, h[inv], err, int(um.size)


def dimension_law(setup: DimensionSetup, d, n, epsilon, rng):
    """Draw one dataset in ``d`` dims; return the exact law of the output over the net.

    Returns dict with ``excess``, ``norms``, ``prob`` (N,), ``quad_error``, ``params`` and ``data``.
    The log-weights are those of :func:`reference.wang_xu.l1_regression.log_weights` (Algorithm 1/2 step 2),
    computed block by block and normalised by log-sum-exp.
    """
    d = check_integer("d", d, minimum=1)
    n = check_integer("n", n, minimum=2)
    data = setup.model(d).sample(n, rng)
    X, y = data[:, :d], data[:, d]
    p = setup.parameters(n, d, epsilon)
    eps = epsilon / d if setup.broken == "temperature-times-d" else epsilon
    eps = eps / setup.temperature_factor
    pts, norms, excess, err, _ = net_radial_table(setup, d)
    block = max(1, _BLOCK_ELEMENTS // n)
    if setup.psi_shape == "printed":
        score = functools.partial(log_weights, X=X, y=y, epsilon=eps, iota=p["iota"], theta=setup.theta)
    else:
        score = functools.partial(
            mutant_log_weights, X=X, y=y, epsilon=eps, iota=p["iota"], theta=setup.theta, shape=setup.psi_shape
        )
    lw = np.concatenate([score(pts[i : i + block], variant=setup.variant) for i in range(0, pts.shape[0], block)])
    prob = np.exp(lw - logsumexp(lw))
    return {"excess": excess, "norms": norms, "prob": prob, "quad_error": err, "params": p, "data": data}


def dimension_trial(point, rng, setup: DimensionSetup):
    """Rate-engine trial: exact ``1 - eta`` quantile of the output's excess risk given one dataset.

    ``point = {"d": int, "n": int, "epsilon": float}``; use ``functools.partial(dimension_trial, setup=...)``.
    The error is returned as measured (not divided by ``tau(d)``; the check does that).
    """
    law = dimension_law(setup, int(point["d"]), int(point["n"]), float(point["epsilon"]), rng)
    return weighted_quantile(law["excess"], law["prob"], 1.0 - setup.eta)


def radius_of_excess(setup: DimensionSetup, d, excess):
    """Distance to ``w*`` of the net points with the given excess risks (``h`` is increasing).

    For a measured quantile ``q`` of the output's excess risk this is the same quantile of
    ``||w~ - w*||``: the smallest net norm whose excess risk is at least ``q``.
    """
    _, norms, ex, _, _ = net_radial_table(setup, int(d))
    order = np.argsort(ex, kind="stable")
    ex_sorted, norm_sorted = ex[order], norms[order]
    k = np.minimum(np.searchsorted(ex_sorted, np.asarray(excess, dtype=float), side="left"), ex.size - 1)
    return norm_sorted[k]


def plot_dimension(path, d, errors, stated_growth, *, quantile, title=""):
    """PNG of ``error / tau(d)`` (mean and quantile) against ``d`` on log axes with the stated ``d^a`` line."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from .plot import save_figure

    d = np.asarray(d, dtype=float)
    err = np.asarray(errors, dtype=float)
    fig, ax = plt.subplots(figsize=(5, 3.6), dpi=110)
    ax.loglog(d, err.mean(axis=1), "o-", label="mean of error / tau(d)")
    q = np.quantile(err, quantile, axis=1)
    ax.loglog(d, q, "s--", label=f"{quantile:g} quantile")
    ax.loglog(d, q[0] * (d / d[0]) ** stated_growth, "k:", label=f"stated growth: d^{stated_growth:.3g}")
    ax.set_xticks(d)
    ax.set_xticklabels([f"{v:g}" for v in d])
    ax.set_xlabel("d (at fixed n, eps)")
    ax.set_ylabel("excess risk / tau(d)")
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    return save_figure(fig, path)
