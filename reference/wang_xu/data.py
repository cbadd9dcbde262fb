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
from numpy.typing import ArrayLike, NDArray
from scipy import integrate, special, stats

from .._densities import lomax_sf as _lomax_sf
from .._densities import t_pdf as _t_pdf
from ..validation import RNGLike, as_generator, check_finite_array, check_integer, check_positive

__all__ = [
    "SymmetricLaw",
    "TwoSidedLomax",
    "FoldedLaw",
    "student_t",
    "lomax",
    "two_sided_lomax",
    "folded",
    "lognormal",
    "LinearModel",
    "population_risk",
]


@dataclass(frozen=True)
class SymmetricLaw:
    """A symmetric law with closed-form absolute moments and partial means.

    Use the constructors :func:`student_t`, :func:`lomax`, :func:`lognormal`.
    Methods: ``sample(size, rng)`` (i.i.d. draws, ``size`` as in numpy), ``tail_index()`` (moments of order
    below it are finite), ``abs_moment(p)`` (``E|X|^p``, ``inf`` at or beyond the tail index), ``pdf(x)``,
    ``cdf(x)``, ``partial_mean(c)`` (``E[X 1{X > c}]``) and ``mean_abs_deviation(c)`` (``E|X - c|``).

    Parameters
    ----------
    kind : {"student_t", "lomax", "lognormal"}
        The family.
    param : float
        Degrees of freedom, tail index alpha, or sigma of the log-normal.
    scale : float, default 1.0
        Scale factor.

    Raises
    ------
    ValueError
        From ``abs_moment``, if ``p < 0``; from ``partial_mean`` and ``mean_abs_deviation``, if the law has no
        finite mean.

    References
    ----------
    .. [1] [000 Assumption 1] to [000 Assumption 4] (the moments ``tau`` bounds); N. L. Johnson, S. Kotz and
       N. Balakrishnan, "Continuous Univariate Distributions", 2nd ed., Wiley 1994-95 (t, Lomax, log-normal
       moments).

    Examples
    --------
    >>> law = student_t(3.0)
    >>> round(law.abs_moment(2), 12), law.abs_moment(3), law.sample(4, rng=0).shape
    (3.0, inf, (4,))
    """

    kind: str
    param: float
    scale: float = 1.0

    # ----------------------------------------------------------------- sampling
    def sample(self, size: int | tuple[int, ...] | None, rng: RNGLike = None) -> NDArray[np.float64]:
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

    def abs_moment(self, p: float) -> float:
        """``E |X|^p`` in closed form (``inf`` when ``p`` is at least the tail index)."""
        p = float(p)
        if p < 0:
            raise ValueError(f"p must be >= 0, got {p!r}")
        if p >= self.tail_index():
            return math.inf
        s = self.scale**p
        if self.kind == "student_t":
            nu = self.param
            return s * math.exp(
                0.5 * p * math.log(nu)
                + special.gammaln((p + 1) / 2)
                + special.gammaln((nu - p) / 2)
                - 0.5 * math.log(math.pi)
                - special.gammaln(nu / 2)
            )
        if self.kind == "lomax":
            a = self.param
            return s * math.exp(special.gammaln(p + 1) + special.gammaln(a - p) - special.gammaln(a))
        return s * math.exp(0.5 * (p * self.param) ** 2)

    def pdf(self, x: ArrayLike) -> NDArray[np.float64]:
        x = np.asarray(x, dtype=float)
        a = np.abs(x) / self.scale
        if self.kind == "student_t":
            return _t_pdf(a, self.param) / self.scale
        if self.kind == "lomax":
            return 0.5 * stats.lomax.pdf(a, self.param) / self.scale
        return 0.5 * stats.lognorm.pdf(a, self.param) / self.scale

    def cdf(self, x: ArrayLike) -> NDArray[np.float64]:
        x = np.asarray(x, dtype=float)
        a = np.abs(x) / self.scale
        if self.kind == "student_t":
            half = stats.t.sf(a, self.param)
        elif self.kind == "lomax":
            half = 0.5 * _lomax_sf(a, self.param)
        else:
            half = 0.5 * stats.lognorm.sf(a, self.param)
        return np.where(x >= 0, 1.0 - half, half)

    def partial_mean(self, c: ArrayLike) -> NDArray[np.float64]:
        """``E[X 1{X > c}]`` (even in c by symmetry; needs a finite mean)."""
        if self.tail_index() <= 1:
            raise ValueError(f"{self} has no finite mean")
        a = np.abs(np.asarray(c, dtype=float)) / self.scale
        if self.kind == "student_t":
            nu = self.param
            val = (nu + a**2) / (nu - 1) * _t_pdf(a, nu)
        elif self.kind == "lomax":
            al = self.param
            val = 0.5 * np.power(1.0 + a, -al) * (a + (1.0 + a) / (al - 1))
        else:
            sg = self.param
            with np.errstate(divide="ignore"):
                la = np.log(a)
            val = 0.5 * math.exp(sg**2 / 2) * stats.norm.cdf(sg - la / sg)
        return self.scale * val

    def mean_abs_deviation(self, c: ArrayLike) -> NDArray[np.float64]:
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
    utility proofs, [000 eq. (24)]).  The interface is that of :class:`SymmetricLaw`, plus ``mean()``.

    Parameters
    ----------
    param : float
        The tail index alpha.
    scale_pos : float, default 1.0
        Scale of the positive half.
    scale_neg : float, default 1.0
        Scale of the negative half.
    kind : str, default "two_sided_lomax"
        The family's name.

    Raises
    ------
    ValueError
        From ``abs_moment``, if ``p < 0``; from ``partial_mean``, if ``alpha <= 1``.

    References
    ----------
    .. [1] [000 eq. (16)], [000 eq. (24)].

    Examples
    --------
    >>> law = two_sided_lomax(3.0, scale_pos=2.0)
    >>> law.mean(), float(law.cdf(0.0))
    (0.25, 0.5)
    """

    param: float
    scale_pos: float = 1.0
    scale_neg: float = 1.0
    kind: str = "two_sided_lomax"

    def sample(self, size: int | tuple[int, ...] | None, rng: RNGLike = None) -> NDArray[np.float64]:
        gen = as_generator(rng)
        positive = gen.random(size=size) < 0.5
        z = gen.pareto(self.param, size=size)
        return np.where(positive, self.scale_pos * z, -self.scale_neg * z)

    def tail_index(self) -> float:
        return self.param

    def abs_moment(self, p: float) -> float:
        """``E |X|^p = (scale_pos^p + scale_neg^p) / 2 * Gamma(p+1) Gamma(alpha-p) / Gamma(alpha)``."""
        p = float(p)
        if p < 0:
            raise ValueError(f"p must be >= 0, got {p!r}")
        if p >= self.param:
            return math.inf
        a = self.param
        return (
            0.5
            * (self.scale_pos**p + self.scale_neg**p)
            * math.exp(special.gammaln(p + 1) + special.gammaln(a - p) - special.gammaln(a))
        )

    def mean(self) -> float:
        return 0.5 * (self.scale_pos - self.scale_neg) / (self.param - 1)

    def pdf(self, x: ArrayLike) -> NDArray[np.float64]:
        x = np.asarray(x, dtype=float)
        s = np.where(x >= 0, self.scale_pos, self.scale_neg)
        return 0.5 * stats.lomax.pdf(np.abs(x) / s, self.param) / s

    def cdf(self, x: ArrayLike) -> NDArray[np.float64]:
        x = np.asarray(x, dtype=float)
        s = np.where(x >= 0, self.scale_pos, self.scale_neg)
        half = 0.5 * _lomax_sf(np.abs(x) / s, self.param)
        return np.where(x >= 0, 1.0 - half, half)

    def partial_mean(self, c: ArrayLike) -> NDArray[np.float64]:
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

    def mean_abs_deviation(self, c: ArrayLike) -> NDArray[np.float64]:
        """``E |X - c| = 2 (E[X 1{X > c}] - c (1 - F(c))) - (E X - c)`` in closed form."""
        c = np.asarray(c, dtype=float)
        return 2 * (self.partial_mean(c) - c * (1.0 - self.cdf(c))) - (self.mean() - c)


@dataclass(frozen=True)
class FoldedLaw:
    """``|X|`` for a symmetric law ``X``: the same absolute moments, but a non-zero mean.

    The same absolute moments give the same tau of the Assumptions, while an asymmetric noise biases the
    truncated loss (with a symmetric ``x`` the bias cancels: ``E_x g(v x)`` is even in ``v``).
    Methods: ``sample(size, rng)`` (i.i.d. draws, ``size`` as in numpy), ``tail_index()`` (moments of order
    below it are finite), ``abs_moment(p)`` (``E|X|^p``, ``inf`` at or beyond the tail index), ``pdf(x)``,
    ``cdf(x)`` and ``kind``.

    Parameters
    ----------
    base : SymmetricLaw
        The law of ``X``.

    References
    ----------
    .. [1] [000 Assumption 1] to [000 Assumption 4]; [000 eq. (24)] (the truncation bias).

    Examples
    --------
    >>> law = folded(lomax(3.0))
    >>> law.kind, float(law.cdf(-1.0)), bool((law.sample(5, rng=0) >= 0).all())
    ('folded lomax', 0.0, True)
    """

    base: SymmetricLaw

    @property
    def kind(self) -> str:
        return f"folded {self.base.kind}"

    def sample(self, size: int | tuple[int, ...] | None, rng: RNGLike = None) -> NDArray[np.float64]:
        return np.abs(self.base.sample(size, rng))

    def tail_index(self) -> float:
        return self.base.tail_index()

    def abs_moment(self, p: float) -> float:
        return self.base.abs_moment(p)

    def pdf(self, x: ArrayLike) -> NDArray[np.float64]:
        x = np.asarray(x, dtype=float)
        return np.where(x >= 0, 2.0 * self.base.pdf(x), 0.0)

    def cdf(self, x: ArrayLike) -> NDArray[np.float64]:
        x = np.asarray(x, dtype=float)
        return np.where(x >= 0, 2.0 * self.base.cdf(x) - 1.0, 0.0)


def folded(law: SymmetricLaw) -> FoldedLaw:
    """``|X|`` for ``X ~ law`` (see :class:`FoldedLaw`).

    Parameters
    ----------
    law : SymmetricLaw
        The law of ``X``.

    Returns
    -------
    FoldedLaw
        The law of ``|X|``.

    Raises
    ------
    TypeError
        If ``law`` is not a :class:`SymmetricLaw`.

    References
    ----------
    .. [1] [000 Assumption 1] to [000 Assumption 4].

    Examples
    --------
    >>> folded(student_t(3.0)).abs_moment(1) == student_t(3.0).abs_moment(1)
    True
    """
    if not isinstance(law, SymmetricLaw):
        raise TypeError(f"law must be a SymmetricLaw, got {law!r}")
    return FoldedLaw(law)


def student_t(df: float, scale: float = 1.0) -> SymmetricLaw:
    """Student t with ``df`` degrees of freedom (moments of order < df), times ``scale``.

    Parameters
    ----------
    df : float
        Degrees of freedom, finite and > 0.
    scale : float, default 1.0
        Scale factor, finite and > 0.

    Returns
    -------
    SymmetricLaw
        The law.

    Raises
    ------
    TypeError
        If a parameter is not a real number.
    ValueError
        If a parameter is not finite and positive.

    References
    ----------
    .. [1] [000 Assumption 1] to [000 Assumption 4] (moments of order below df); N. L. Johnson, S. Kotz and
       N. Balakrishnan, "Continuous Univariate Distributions", Vol. 2, Ch. 28.

    Examples
    --------
    >>> student_t(2.5).tail_index()
    2.5
    """
    return SymmetricLaw("student_t", check_positive("df", df), check_positive("scale", scale))


def lomax(alpha: float, scale: float = 1.0) -> SymmetricLaw:
    """Symmetric Pareto type II (Lomax) with tail index ``alpha`` (moments of order < alpha).

    Parameters
    ----------
    alpha : float
        Tail index, finite and > 0.
    scale : float, default 1.0
        Scale factor, finite and > 0.

    Returns
    -------
    SymmetricLaw
        The law.

    Raises
    ------
    TypeError
        If a parameter is not a real number.
    ValueError
        If a parameter is not finite and positive.

    References
    ----------
    .. [1] K. S. Lomax, "Business failures: another example of the analysis of failure data", JASA 49 (1954).

    Examples
    --------
    >>> round(lomax(3.0).abs_moment(1), 12)
    0.5
    """
    return SymmetricLaw("lomax", check_positive("alpha", alpha), check_positive("scale", scale))


def two_sided_lomax(alpha: float, scale_pos: float = 1.0, scale_neg: float = 1.0) -> TwoSidedLomax:
    """Median-0 asymmetric Lomax: scales ``scale_pos`` above 0 and ``scale_neg`` below (tail index ``alpha``).

    Parameters
    ----------
    alpha : float
        Tail index, finite and > 0.
    scale_pos : float, default 1.0
        Scale above 0, finite and > 0.
    scale_neg : float, default 1.0
        Scale below 0, finite and > 0.

    Returns
    -------
    TwoSidedLomax
        The law.

    Raises
    ------
    TypeError
        If a parameter is not a real number.
    ValueError
        If a parameter is not finite and positive.

    References
    ----------
    .. [1] [000 eq. (16)], [000 eq. (24)] (the truncation bias this law exposes).

    Examples
    --------
    >>> two_sided_lomax(2.0, scale_neg=3.0).mean()
    -1.0
    """
    return TwoSidedLomax(
        check_positive("alpha", alpha), check_positive("scale_pos", scale_pos), check_positive("scale_neg", scale_neg)
    )


def lognormal(sigma: float, scale: float = 1.0) -> SymmetricLaw:
    """Random sign times ``scale * exp(sigma Z)``: every moment finite, heavy for large sigma.

    Parameters
    ----------
    sigma : float
        Log-scale standard deviation, finite and > 0.
    scale : float, default 1.0
        Scale factor, finite and > 0.

    Returns
    -------
    SymmetricLaw
        The law.

    Raises
    ------
    TypeError
        If a parameter is not a real number.
    ValueError
        If a parameter is not finite and positive.

    References
    ----------
    .. [1] Johnson, Kotz and Balakrishnan, Vol. 1, Ch. 14 (``E|X|^p = exp(p^2 sigma^2 / 2)``).

    Examples
    --------
    >>> round(lognormal(1.0).abs_moment(2), 6)
    7.389056
    """
    return SymmetricLaw("lognormal", check_positive("sigma", sigma), check_positive("scale", scale))


@dataclass(frozen=True)
class LinearModel:
    """``y = <w*, x> + noise`` with i.i.d. coordinates ``x_j ~ x_law`` and ``noise ~ noise_law``.

    ``sample(n, rng)`` draws ``n`` records ``[x_1, ..., x_d, y]``; ``tau(assumption, theta)`` states the
    constant of [000 Assumption 1] to [000 Assumption 4]; ``dim`` is ``d``.

    Parameters
    ----------
    w_star : tuple of float
        The true parameter ``w*``, finite (stored as a tuple of floats).
    x_law : SymmetricLaw or FoldedLaw
        The law of each coordinate of ``x``.
    noise_law : SymmetricLaw, TwoSidedLomax or FoldedLaw
        The law of the noise.

    Raises
    ------
    TypeError
        If ``w_star`` is not an array of real numbers; from ``sample``, if ``n`` is not an integer.
    ValueError
        If ``w_star`` is not a non-empty finite vector; from ``sample``, if ``n < 1``; from ``tau``, if
        ``assumption`` is not 1, 2, 3 or 4.

    References
    ----------
    .. [1] [000 eq. (1)], [000 Assumption 1] to [000 Assumption 4].

    Examples
    --------
    >>> model = LinearModel((1.0, -1.0), student_t(5.0), lomax(3.0))
    >>> model.sample(4, rng=0).shape, model.dim, round(model.tau(2), 6)
    ((4, 3), 2, 1.290994)
    """

    w_star: tuple
    x_law: SymmetricLaw
    noise_law: SymmetricLaw

    def __post_init__(self) -> None:
        w = check_finite_array("w_star", self.w_star, ndim=1)
        object.__setattr__(self, "w_star", tuple(float(v) for v in w))

    @property
    def dim(self) -> int:
        return len(self.w_star)

    def sample(self, n: int, rng: RNGLike = None) -> NDArray[np.float64]:
        """Records ``[x_1, ..., x_d, y]`` of shape (n, d+1), vectorised."""
        n = check_integer("n", n, minimum=1)
        gen = as_generator(rng)
        X = self.x_law.sample((n, self.dim), gen)
        y = X @ np.asarray(self.w_star) + self.noise_law.sample(n, gen)
        return np.column_stack([X, y])

    def tau(self, assumption: int, theta: float = 2.0) -> float:
        """The constant tau of [000 Assumption 1] to [000 Assumption 4] for this model (``inf`` if the moment is
        infinite).

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


def population_risk(
    model: LinearModel,
    w: ArrayLike,
    *,
    mc_samples: int = 2_000_000,
    rng: RNGLike = None,
    chunk: int = 1 << 18,
    method: str = "auto",
) -> tuple[float, float, str]:
    """``L_D(w) = E |y - <x, w>|`` for the model; returns ``(value, standard_error, method)``.

    ``method`` is ``"closed form"`` at ``w = w*`` (``E|noise|``, standard error 0),
    ``"quadrature"`` when ``w - w*`` has one non-zero coordinate (``E_x[E|noise - v x|]`` with the
    inner expectation in closed form, adaptive quadrature to 1e-12), otherwise ``"monte carlo"``
    with ``mc_samples`` draws in chunks (no Python loop over draws inside a chunk).
    ``method="monte carlo"`` forces the Monte Carlo estimate (to cross-check the others).
    The standard error is only meaningful when the noise and ``<x, v>`` have finite variance.

    Parameters
    ----------
    model : LinearModel
        The model.
    w : array_like, shape (d,)
        The parameter, finite.
    mc_samples : int, default 2_000_000
        Monte Carlo draws, ``>= 2``.
    rng : numpy.random.Generator, int, SeedSequence or None, default None
        Source of randomness of the Monte Carlo estimate.
    chunk : int, default 2**18
        Draws per chunk.
    method : {"auto", "monte carlo"}, default "auto"
        ``"monte carlo"`` forces the Monte Carlo estimate.

    Returns
    -------
    value : float
        ``L_D(w)``.
    standard_error : float
        0 for the closed form, the quadrature's error estimate, or the Monte Carlo standard error.
    method : str
        ``"closed form"``, ``"quadrature"`` or ``"monte carlo"``.

    Raises
    ------
    ValueError
        If ``method`` is unknown, ``w`` is not a finite vector of length ``d``, or ``mc_samples < 2``.
    TypeError
        If ``w`` is not an array of real numbers, ``mc_samples`` not an integer or ``rng`` not a generator or
        seed.

    References
    ----------
    .. [1] [000 eq. (1)] (the population risk ``L_D``).

    Examples
    --------
    >>> model = LinearModel((1.0,), student_t(5.0), lomax(3.0))
    >>> population_risk(model, [1.0])
    (0.5, 0.0, 'closed form')
    >>> value, err, method = population_risk(model, [1.5])
    >>> round(value, 4), method
    (0.7496, 'quadrature')
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
        total_sq += float((r**2).sum())
        done += m
    mean = total / done
    var = max(total_sq / done - mean**2, 0.0)
    return mean, math.sqrt(var / done), "monte carlo"
