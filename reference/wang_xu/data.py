"""Heavy-tailed linear models ``y = <w*, x> + noise`` with exactly known moments (for 000).

Coordinates of ``x`` and the noise are i.i.d. draws of symmetric laws (the noise may also be the
median-0 asymmetric :func:`two_sided_lomax`, which exposes the truncation bias) whose absolute
moments are known in closed form, so the constants ``tau`` of [000 Assumption 1] to
[000 Assumption 4] can be stated exactly (or, for ``E ||x||_2^theta`` with ``d > 1``, by an explicit bound):

* ``student_t(df)``: ``E|T|^p = df^(p/2) Gamma((p+1)/2) Gamma((df-p)/2) / (sqrt(pi) Gamma(df/2))``, ``p < df``;
* ``lomax(alpha, scale)`` with a random sign (Pareto type II):
  ``E|X|^p = scale^p Gamma(p+1) Gamma(alpha-p) / Gamma(alpha)``, ``p < alpha``;
* ``lognormal(sigma)`` with a random sign: ``E|X|^p = exp(p^2 sigma^2 / 2)``.

The population risk of the problem of [000 eq. (1)], ``L_D(w) = E |y - <x, w>| = E |noise - <x, w - w*>|``,
is computed in closed form at ``w = w*``, by one-dimensional quadrature of a closed form
when ``w - w*`` has a single non-zero coordinate, and otherwise by a large Monte Carlo
estimate returned with its standard error.  Because the noise is symmetric and
independent of ``x``, ``w*`` minimises ``L_D`` over R^d.

References
----------
.. [1] D. Wang and J. Xu, ``000_e64de114947d2122.txt``: [000 eq. (1)], [000 Assumption 1] to
       [000 Assumption 4].
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import integrate, special, stats

from .._densities import lomax_sf as _lomax_sf
from .._densities import t_pdf as _t_pdf
from ..validation import as_generator, check_finite_array, check_integer, check_positive

__all__ = ["SymmetricLaw", "TwoSidedLomax", "FoldedLaw", "student_t", "lomax", "two_sided_lomax", "folded", "lognormal", "LinearModel",
           "population_risk"]


@dataclass(frozen=True)
class SymmetricLaw:
    """A symmetric law with closed-form absolute moments and partial means.

    Use the constructors :func:`student_t`, :func:`lomax`, :func:`lognormal`.
    """

    kind: str
    param: float
    scale: float = 1.0

    # ----------------------------------------------------------------- sampling
    def sample(self, size, rng=None):
        """i.i.d. draws (vectorised); ``size`` as in numpy."""
        gen = as_generator(rng)
        if self.kind == "student_t":
            return self.scale * gen.standard_t(self.param, size=size)
        sign = gen.choice(np.array([-1.0, 1.0]), size=size)
        if self.kind == "lomax":
            return sign * self.scale * gen.pareto(self.param, size=size)  # numpy's pareto is Lomax
        return sign * self.scale * np.exp(self.param * gen.standard_normal(size=size))

    # ----------------------------------------------------------------- moments
    def tail_index(self) -> float:
        return math.inf if self.kind == "lognormal" else self.param

    def abs_moment(self, p) -> float:
        """``E |X|^p`` in closed form (``inf`` when ``p`` is at least the tail index)."""
        p = float(p)
        if p < 0:
            raise ValueError(f"p must be >= 0, got {p!r}")
        if p >= self.tail_index():
            return math.inf
        s = self.scale ** p
        if self.kind == "student_t":
            nu = self.param
            return s * math.exp(0.5 * p * math.log(nu) + special.gammaln((p + 1) / 2) + special.gammaln((nu - p) / 2)
                                - 0.5 * math.log(math.pi) - special.gammaln(nu / 2))
        if self.kind == "lomax":
            a = self.param
            return s * math.exp(special.gammaln(p + 1) + special.gammaln(a - p) - special.gammaln(a))
        return s * math.exp(0.5 * (p * self.param) ** 2)

    def pdf(self, x):
        x = np.asarray(x, dtype=float)
        a = np.abs(x) / self.scale
        if self.kind == "student_t":
            return _t_pdf(a, self.param) / self.scale
        if self.kind == "lomax":
            return 0.5 * stats.lomax.pdf(a, self.param) / self.scale
        return 0.5 * stats.lognorm.pdf(a, self.param) / self.scale

    def cdf(self, x):
        x = np.asarray(x, dtype=float)
        a = np.abs(x) / self.scale
        if self.kind == "student_t":
            half = stats.t.sf(a, self.param)
        elif self.kind == "lomax":
            half = 0.5 * _lomax_sf(a, self.param)
        else:
            half = 0.5 * stats.lognorm.sf(a, self.param)
        return np.where(x >= 0, 1.0 - half, half)

    def partial_mean(self, c):
        """``E[X 1{X > c}]`` (even in c by symmetry; needs a finite mean)."""
        if self.tail_index() <= 1:
            raise ValueError(f"{self} has no finite mean")
        a = np.abs(np.asarray(c, dtype=float)) / self.scale
        if self.kind == "student_t":
            nu = self.param
            val = (nu + a ** 2) / (nu - 1) * _t_pdf(a, nu)
        elif self.kind == "lomax":
            al = self.param
            val = 0.5 * np.power(1.0 + a, -al) * (a + (1.0 + a) / (al - 1))
        else:
            sg = self.param
            with np.errstate(divide="ignore"):
                la = np.log(a)
            val = 0.5 * math.exp(sg ** 2 / 2) * stats.norm.cdf(sg - la / sg)
        return self.scale * val

    def mean_abs_deviation(self, c):
        """``E |X - c| = 2 E[X 1{X > c}] + c (2 F(c) - 1)`` in closed form."""
        c = np.asarray(c, dtype=float)
        return 2 * self.partial_mean(c) + c * (2 * self.cdf(c) - 1)


def _lomax_partial_mean(a, alpha, scale):
    """``E[Z 1{Z > a}]`` for ``Z ~ Lomax(alpha, scale)`` and ``a >= 0`` (finite mean, alpha > 1)."""
    u = 1.0 + a / scale
    return scale * np.power(u, -alpha) * (a / scale + u / (alpha - 1))


@dataclass(frozen=True)
class TwoSidedLomax:
    """An asymmetric law with median 0: ``+Lomax(alpha, scale_pos)`` or ``-Lomax(alpha, scale_neg)``, each w.p. 1/2.

    The median is 0, so ``w*`` still minimises ``L_D(w) = E|noise - <x, w - w*>|`` (its derivative in
    ``w`` at ``w*`` is ``E[x (2 F(0) - 1)] = 0``), but the truncated loss of [000 eq. (16)] is biased: its
    minimiser moves towards the heavier side as ``iota`` grows (the truncation-bias term of the
    utility proofs, [000 eq. (24)]).  The interface is that of :class:`SymmetricLaw`.
    """

    param: float
    scale_pos: float = 1.0
    scale_neg: float = 1.0
    kind: str = "two_sided_lomax"

    def sample(self, size, rng=None):
        gen = as_generator(rng)
        positive = gen.random(size=size) < 0.5
        z = gen.pareto(self.param, size=size)
        return np.where(positive, self.scale_pos * z, -self.scale_neg * z)

    def tail_index(self) -> float:
        return self.param

    def abs_moment(self, p) -> float:
        """``E |X|^p = (scale_pos^p + scale_neg^p) / 2 * Gamma(p+1) Gamma(alpha-p) / Gamma(alpha)``."""
        p = float(p)
        if p < 0:
            raise ValueError(f"p must be >= 0, got {p!r}")
        if p >= self.param:
            return math.inf
        a = self.param
        return 0.5 * (self.scale_pos ** p + self.scale_neg ** p) * math.exp(
            special.gammaln(p + 1) + special.gammaln(a - p) - special.gammaln(a))

    def mean(self) -> float:
        return 0.5 * (self.scale_pos - self.scale_neg) / (self.param - 1)

    def pdf(self, x):
        x = np.asarray(x, dtype=float)
        s = np.where(x >= 0, self.scale_pos, self.scale_neg)
        return 0.5 * stats.lomax.pdf(np.abs(x) / s, self.param) / s

    def cdf(self, x):
        x = np.asarray(x, dtype=float)
        s = np.where(x >= 0, self.scale_pos, self.scale_neg)
        half = 0.5 * _lomax_sf(np.abs(x) / s, self.param)
        return np.where(x >= 0, 1.0 - half, half)

    def partial_mean(self, c):
        """``E[X 1{X > c}]`` in closed form (needs alpha > 1)."""
        if self.param <= 1:
            raise ValueError(f"{self} has no finite mean")
        c = np.asarray(c, dtype=float)
        a, sp, sn = self.param, self.scale_pos, self.scale_neg
        if c.ndim == 1:
            # each half only where it is not constant (the quadratures of the rate checks call this at every
            # node on the whole net): the same elementwise operations, so the same bits, at one power per entry
            neg_side = c < 0
            pos_side = ~neg_side
            pos = np.empty_like(c)
            pos[pos_side] = _lomax_partial_mean(np.maximum(c[pos_side], 0.0), a, sp)
            pos[neg_side] = _lomax_partial_mean(np.zeros(1), a, sp)[0]
            neg = np.zeros_like(c)
            neg[neg_side] = -(sn / (a - 1) - _lomax_partial_mean(np.maximum(-c[neg_side], 0.0), a, sn))
            return 0.5 * (pos + neg)
        pos = _lomax_partial_mean(np.maximum(c, 0.0), a, sp)
        # negative half: E[-Z 1{-Z > c}] = -(E Z - E[Z 1{Z >= -c}]) for c < 0, else 0
        neg = np.where(c < 0, -(sn / (a - 1) - _lomax_partial_mean(np.maximum(-c, 0.0), a, sn)), 0.0)
        return 0.5 * (pos + neg)

    def mean_abs_deviation(self, c):
        """``E |X - c| = 2 (E[X 1{X > c}] - c (1 - F(c))) - (E X - c)`` in closed form."""
        c = np.asarray(c, dtype=float)
        return 2 * (self.partial_mean(c) - c * (1.0 - self.cdf(c))) - (self.mean() - c)

@dataclass(frozen=True)
class FoldedLaw:
    """``|X|`` for a symmetric law ``X``: the same absolute moments (hence the same tau of the
    Assumptions), but a non-zero mean, so that an asymmetric noise biases the truncated loss
    (with a symmetric ``x`` the bias cancels: ``E_x g(v x)`` is even in ``v``)."""

    base: SymmetricLaw

    @property
    def kind(self):
        return f"folded {self.base.kind}"

    def sample(self, size, rng=None):
        return np.abs(self.base.sample(size, rng))

    def tail_index(self) -> float:
        return self.base.tail_index()

    def abs_moment(self, p) -> float:
        return self.base.abs_moment(p)

    def pdf(self, x):
        x = np.asarray(x, dtype=float)
        return np.where(x >= 0, 2.0 * self.base.pdf(x), 0.0)

    def cdf(self, x):
        x = np.asarray(x, dtype=float)
        return np.where(x >= 0, 2.0 * self.base.cdf(x) - 1.0, 0.0)


def folded(law: SymmetricLaw) -> FoldedLaw:
    """``|X|`` for ``X ~ law`` (see :class:`FoldedLaw`)."""
    if not isinstance(law, SymmetricLaw):
        raise TypeError(f"law must be a SymmetricLaw, got {law!r}")
    return FoldedLaw(law)


def student_t(df, scale=1.0) -> SymmetricLaw:
    """Student t with ``df`` degrees of freedom (moments of order < df), times ``scale``."""
    return SymmetricLaw("student_t", check_positive("df", df), check_positive("scale", scale))


def lomax(alpha, scale=1.0) -> SymmetricLaw:
    """Symmetric Pareto type II (Lomax) with tail index ``alpha`` (moments of order < alpha)."""
    return SymmetricLaw("lomax", check_positive("alpha", alpha), check_positive("scale", scale))


def two_sided_lomax(alpha, scale_pos=1.0, scale_neg=1.0) -> TwoSidedLomax:
    """Median-0 asymmetric Lomax: scales ``scale_pos`` above 0 and ``scale_neg`` below (tail index ``alpha``)."""
    return TwoSidedLomax(check_positive("alpha", alpha), check_positive("scale_pos", scale_pos),
                         check_positive("scale_neg", scale_neg))


def lognormal(sigma, scale=1.0) -> SymmetricLaw:
    """Random sign times ``scale * exp(sigma Z)``: every moment finite, heavy for large sigma."""
    return SymmetricLaw("lognormal", check_positive("sigma", sigma), check_positive("scale", scale))


@dataclass(frozen=True)
class LinearModel:
    """``y = <w*, x> + noise`` with i.i.d. coordinates ``x_j ~ x_law`` and ``noise ~ noise_law``."""

    w_star: tuple
    x_law: SymmetricLaw
    noise_law: SymmetricLaw

    def __post_init__(self):
        w = check_finite_array("w_star", self.w_star, ndim=1)
        object.__setattr__(self, "w_star", tuple(float(v) for v in w))

    @property
    def dim(self) -> int:
        return len(self.w_star)

    def sample(self, n, rng=None):
        """Records ``[x_1, ..., x_d, y]`` of shape (n, d+1), vectorised."""
        n = check_integer("n", n, minimum=1)
        gen = as_generator(rng)
        X = self.x_law.sample((n, self.dim), gen)
        y = X @ np.asarray(self.w_star) + self.noise_law.sample(n, gen)
        return np.column_stack([X, y])

    def tau(self, assumption, theta=2.0) -> float:
        """The constant tau of [000 Assumption 1] to [000 Assumption 4] for this model (``inf`` if the moment is infinite).

        1: ``tau^2 = E||x||_2^2 = d E x_1^2`` (exact).  2: ``tau^2 = E x_1^2`` (exact).
        3: ``tau^theta >= E||x||_2^theta``: for d = 1 exact; otherwise the smaller of the bounds
        ``d E|x_1|^theta`` (``||x||_2 <= ||x||_theta``) and ``(d E x_1^2)^(theta/2)`` (Jensen).
        4: ``tau^theta = E|x_1|^theta`` (exact).
        """
        d = self.dim
        if assumption == 1:
            return math.sqrt(d * self.x_law.abs_moment(2))
        if assumption == 2:
            return math.sqrt(self.x_law.abs_moment(2))
        m = self.x_law.abs_moment(theta)
        if assumption == 4:
            return m ** (1 / theta)
        if assumption == 3:
            if d == 1:
                return m ** (1 / theta)
            return min(d * m, (d * self.x_law.abs_moment(2)) ** (theta / 2)) ** (1 / theta)
        raise ValueError(f"assumption must be 1, 2, 3 or 4, got {assumption!r}")


def population_risk(model: LinearModel, w, *, mc_samples=2_000_000, rng=None, chunk=1 << 18, method="auto"):
    """``L_D(w) = E |y - <x, w>|`` for the model; returns ``(value, standard_error, method)``.

    ``method`` is ``"closed form"`` at ``w = w*`` (``E|noise|``, standard error 0),
    ``"quadrature"`` when ``w - w*`` has one non-zero coordinate (``E_x[E|noise - v x|]`` with the
    inner expectation in closed form, adaptive quadrature to 1e-12), otherwise ``"monte carlo"``
    with ``mc_samples`` draws in chunks (no Python loop over draws inside a chunk).
    ``method="monte carlo"`` forces the Monte Carlo estimate (to cross-check the others).
    The standard error is only meaningful when the noise and ``<x, v>`` have finite variance.
    """
    if method not in ("auto", "monte carlo"):
        raise ValueError(f"method must be 'auto' or 'monte carlo', got {method!r}")
    w = check_finite_array("w", w, ndim=1, shape=(model.dim,))
    v = w - np.asarray(model.w_star)
    nz = np.flatnonzero(v)
    noise = model.noise_law
    if method == "auto" and nz.size == 0:
        return noise.abs_moment(1), 0.0, "closed form"
    if method == "auto" and nz.size == 1 and noise.tail_index() > 1:
        a = float(v[nz[0]])
        law = model.x_law

        def f(x):
            return float(noise.mean_abs_deviation(a * x) * law.pdf(x) + noise.mean_abs_deviation(-a * x) * law.pdf(-x))

        # E|xi - a x| = int_0^inf (E|xi - a x| p(x) + E|xi + a x| p(-x)) dx: any x law (symmetric or
        # folded), any noise law with a closed-form mean absolute deviation.
        val, err = integrate.quad(f, 0, np.inf, epsabs=1e-13, epsrel=1e-12, limit=500)
        return val, err, "quadrature"
    gen = as_generator(rng)
    mc_samples = check_integer("mc_samples", mc_samples, minimum=2)
    total, total_sq, done = 0.0, 0.0, 0
    while done < mc_samples:
        m = min(chunk, mc_samples - done)
        X = model.x_law.sample((m, model.dim), gen)
        r = np.abs(noise.sample(m, gen) - X @ v)
        total += float(r.sum())
        total_sq += float((r ** 2).sum())
        done += m
    mean = total / done
    var = max(total_sq / done - mean ** 2, 0.0)
    return mean, math.sqrt(var / done), "monte carlo"
