"""Heavy-tailed synthetic GLM data with a known population minimiser ``w*`` (for 004).

The paper 004 (Arora, Bassily, Guzman, Menart & Ullah, ``004_2b354816f00c2aef.txt``) works with
bounded features ``||x|| <= X`` and a loss bounded at zero, ``l(0; (x, y)) <= Y^2`` (the
quantities ``X`` and ``Y`` of [004 Alg. 1] and [004 Lemma D.4]).  The
generators below respect those bounds while keeping heavy tails *inside* them:

* features: i.i.d. Student-t(``df``) coordinates, radially projected onto the ball of radius
  ``x_bound`` (so a sizeable fraction of the records sits on the boundary sphere);
* squared loss: ``y = <w*, x> + xi`` with Student-t(``df``) noise truncated *symmetrically*
  to ``[-noise_bound, noise_bound]``.  Symmetric truncation keeps ``E[xi | x] = 0``, so ``w*``
  is exactly the population minimiser of ``E (<w, x> - y)^2``; ``|y| <= ||w*|| X + noise_bound``;
* logistic loss: ``y in {-1, +1}`` with ``P[y = 1 | x] = 1 / (1 + exp(-<w*, x>))`` (well
  specified, so ``w*`` minimises the population logistic risk).

A dataset is an array of records ``[x_1, ..., x_d, y]`` (see :mod:`reference.records`).

The population risk of the squared loss is exact: with ``Sigma = E[x x^T] = s I`` (coordinates
exchangeable and sign-symmetric) and ``xi`` independent of ``x`` with mean 0,
``L(w) = s ||w - w*||^2 + E[xi^2]``.  ``s`` and ``E[xi^2]`` are computed once by quadrature /
a large seeded Monte Carlo sample (see :class:`GLMProblem`).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import integrate, stats

from ..losses import logistic_of_margin, squared_of_residual
from ..validation import RNGLike, as_generator, check_choice, check_finite_array, check_integer, check_positive

__all__ = ["LOSSES", "GLMProblem", "make_problem", "sample_records", "glm_loss", "project_to_domain"]

#: The GLM losses of 004 handled here (names of :data:`reference.losses.LOSS_NAMES`).
LOSSES = ("squared", "logistic")


def _check_loss(loss):
    return check_choice("loss", loss, LOSSES)


def glm_loss(w: ArrayLike, records: ArrayLike, loss: str) -> NDArray[np.float64]:
    """Per-record losses ``l(w; (x, y))``.

    Parameters
    ----------
    w : array_like, shape (d,) or (m, d)
        One parameter vector or ``m`` of them (rows).
    records : array_like, shape (n, d + 1)
        Records ``[x, y]``.
    loss : {"squared", "logistic"}
        ``(<w, x> - y)^2`` (smoothness ``H = 2 ||x||^2``) or ``log(1 + exp(-y <w, x>))``
        (smoothness ``||x||^2 / 4``): the elementwise functions
        :func:`reference.losses.squared_of_residual` and :func:`reference.losses.logistic_of_margin`
        of the residual ``<w, x> - y`` and the margin ``y <w, x>``, without the per-record
        rescaling of the :class:`reference.losses.Loss` classes (the records of 004 are bounded).

    Returns
    -------
    ndarray, shape (n,) or (m, n)
        Finite for finite inputs (the logistic loss uses ``logaddexp``; the squared loss may
        overflow to ``inf`` only if ``<w, x>`` itself exceeds ~1e154).

    Raises
    ------
    ValueError
        If ``loss`` is neither ``"squared"`` nor ``"logistic"``.

    References
    ----------
    .. [1] [004 Alg. 1], [004 Lemma D.4] (GLM losses of ``<w, x>`` and ``y``).

    Examples
    --------
    >>> glm_loss([1.0, 0.0], [[1.0, 0.0, 3.0], [0.0, 1.0, 0.0]], "squared")
    array([4., 0.])
    """
    _check_loss(loss)
    z = np.asarray(records, dtype=np.float64)
    w = np.asarray(w, dtype=np.float64)
    x, y = z[:, :-1], z[:, -1]
    m = w @ x.T if w.ndim == 2 else x @ w
    if loss == "squared":
        return squared_of_residual(m - y)
    return logistic_of_margin(y * m)


def project_to_domain(records: ArrayLike, x_bound: float, y_bound: float) -> NDArray[np.float64]:
    """Map arbitrary records into the domain ``||x|| <= x_bound, |y| <= y_bound`` (radial projection).

    Used by the checks to turn the adversarial candidate records of
    :mod:`proofs_checks.adversarial` (1e300, subnormals, ...) into admissible records; the
    learners themselves never project silently, they reject out-of-domain records.
    Extreme magnitudes are handled by normalising with the max-abs entry first, so ``1e300``
    lands on the boundary sphere and subnormals stay tiny, never ``NaN``.

    Parameters
    ----------
    records : array_like, shape (n, d + 1)
        Records ``[x, y]``, finite.
    x_bound : float
        ``X``, finite and > 0.
    y_bound : float
        ``Y``, finite and > 0.

    Returns
    -------
    numpy.ndarray of float64, shape (n, d + 1)
        The projected records.

    Raises
    ------
    TypeError
        If ``records`` is not an array of real numbers, or a bound not a real number.
    ValueError
        If ``records`` is not a non-empty finite 2-D array, or a bound not finite and positive.

    References
    ----------
    .. [1] [004 Alg. 1], [004 Lemma D.4] (the domain ``||x|| <= X``, ``l(0; z) <= Y^2``).

    Examples
    --------
    >>> project_to_domain([[3.0, 4.0, 10.0], [0.1, 0.0, -0.5]], x_bound=1.0, y_bound=2.0)
    array([[ 0.6,  0.8,  2. ],
           [ 0.1,  0. , -0.5]])
    """
    z = check_finite_array("records", records, ndim=2)
    X = check_positive("x_bound", x_bound)
    Y = check_positive("y_bound", y_bound)
    x, y = z[:, :-1], z[:, -1]
    amax = np.max(np.abs(x), axis=1, keepdims=True)
    safe = np.where(amax > 0, amax, 1.0)
    u = x / safe  # max-abs entry is 1: no overflow below
    r = np.linalg.norm(u, axis=1, keepdims=True)  # ||x|| = safe * r
    # new max-abs magnitude: min(safe, X / r), i.e. radial projection onto the ball
    xs = u * np.minimum(safe, X / np.where(r > 0, r, 1.0))
    return np.column_stack([xs, np.clip(y, -Y, Y)])


@dataclass(frozen=True)
class GLMProblem:
    """A synthetic GLM population with known minimiser.

    ``population_risk(w, rng, mc_size)`` and ``excess_risk(w, rng)`` evaluate rows of ``w`` (exact for the
    squared loss, seeded Monte Carlo for the logistic one); ``dim`` is ``d``.  Build it with
    :func:`make_problem`.

    Parameters
    ----------
    loss : {"squared", "logistic"}
        The GLM loss.
    w_star : numpy.ndarray, shape (d,)
        The population minimiser.
    x_bound : float
        ``X``: every ``||x|| <= X``.
    y_bound : float
        ``Y``: ``l(0; (x, y)) <= Y^2`` (and ``|y| <= Y`` for squared loss).
    smoothness : float
        ``H`` with ``l(.; (x, y))`` being ``H ||x||^2``-smooth in ``<w, x>``.
    df : float
        Student-t degrees of freedom of features and noise.
    noise_bound : float
        Truncation of the label noise (squared loss).
    second_moment : float
        ``s`` with ``E[x x^T] = s I``.
    noise_variance : float
        ``E[xi^2]`` (squared loss; 0 for logistic).

    References
    ----------
    .. [1] [004 Alg. 1], [004 Lemma D.4] (``X``, ``Y``, ``H``).

    Examples
    --------
    >>> p = make_problem("squared", [1.0, -1.0])
    >>> p.dim, float(p.excess_risk(p.w_star)[0]), p.smoothness
    (2, 0.0, 2.0)
    """

    loss: str
    w_star: np.ndarray
    x_bound: float
    y_bound: float
    smoothness: float
    df: float
    noise_bound: float
    second_moment: float
    noise_variance: float

    @property
    def dim(self) -> int:
        return self.w_star.size

    def population_risk(self, w: ArrayLike, rng: RNGLike = None, mc_size: int = 200_000) -> NDArray[np.float64]:
        """``L(w; D)`` for rows of ``w``: exact for squared loss, seeded Monte Carlo for logistic."""
        w = np.atleast_2d(np.asarray(w, dtype=np.float64))
        if self.loss == "squared":
            diff = w - self.w_star
            return self.second_moment * np.sum(diff * diff, axis=1) + self.noise_variance
        z = sample_records(self, mc_size, 12345 if rng is None else rng)
        return glm_loss(w, z, "logistic").mean(axis=1)

    def excess_risk(self, w: ArrayLike, rng: RNGLike = None) -> NDArray[np.float64]:
        """``L(w; D) - L(w*; D)`` for rows of ``w`` (exact for squared loss)."""
        w = np.atleast_2d(np.asarray(w, dtype=np.float64))
        if self.loss == "squared":
            diff = w - self.w_star
            return self.second_moment * np.sum(diff * diff, axis=1)
        both = np.vstack([w, self.w_star])
        risk = self.population_risk(both, rng)
        return risk[:-1] - risk[-1]


def _raw_features(d, n, df, x_bound, gen):
    t = gen.standard_t(df, size=(n, d))
    nrm = np.linalg.norm(t, axis=1)
    factor = np.minimum(1.0, x_bound / np.where(nrm > 0, nrm, 1.0))
    return t * factor[:, None]


@functools.lru_cache(maxsize=64)
def _second_moment(d, df, x_bound):
    """``s`` with ``E[x x^T] = s I``, from 400,000 features of a fixed seed (deterministic, so cached: every
    check of 004 builds its problems again, and this costs ~0.1 s a call)."""
    feats = _raw_features(d, 400_000, df, x_bound, np.random.default_rng(20261121))
    return float(np.mean(np.sum(feats * feats, axis=1)) / d)


@functools.lru_cache(maxsize=64)
def _truncated_noise_variance(df, c):
    """``E[xi^2]`` of Student-t(df) noise clipped to ``[-c, c]`` (quadrature; deterministic, so cached)."""
    dist = stats.t(df)
    inner, _ = integrate.quad(lambda u: u * u * dist.pdf(u), -c, c, epsabs=0, epsrel=1e-12)
    return inner + 2 * c * c * dist.sf(c)


def make_problem(
    loss: str = "squared",
    w_star: ArrayLike = (1.5, -0.5, 0.25),
    *,
    x_bound: float = 1.0,
    noise_bound: float = 1.0,
    df: float = 2.5,
) -> GLMProblem:
    """Build a :class:`GLMProblem` (deterministic: the moments use a fixed seed).

    Parameters
    ----------
    loss : {"squared", "logistic"}
    w_star : array_like (d,)
        The population minimiser.
    x_bound : float
        Feature norm bound ``X``.
    noise_bound : float
        Truncation level of the Student-t label noise (squared loss only).
    df : float
        Degrees of freedom (``df <= 2``: infinite variance before projection/truncation).

    Returns
    -------
    GLMProblem
        The population.

    Raises
    ------
    TypeError
        If ``w_star`` is not an array of real numbers or a bound not a real number.
    ValueError
        If ``loss`` is unknown, ``w_star`` not a non-empty finite vector, or ``x_bound``, ``noise_bound`` or ``df``
        not finite and positive.

    References
    ----------
    .. [1] [004 Alg. 1], [004 Lemma D.4].

    Examples
    --------
    >>> p = make_problem("squared", [1.0, -1.0])
    >>> float(p.excess_risk(p.w_star)[0])
    0.0
    """
    _check_loss(loss)
    w = check_finite_array("w_star", w_star, ndim=1)
    X = check_positive("x_bound", x_bound)
    c = check_positive("noise_bound", noise_bound)
    df = check_positive("df", df)
    s = _second_moment(w.size, df, X)
    if loss == "squared":
        var = _truncated_noise_variance(df, c)
        y_bound = float(np.linalg.norm(w) * X + c)
        H = 2.0
    else:
        var = 0.0
        y_bound = 1.0  # l(0; z) = log 2 <= 1
        H = 0.25
    return GLMProblem(loss, w, X, y_bound, H, df, c, s, float(var))


def sample_records(problem: GLMProblem, n: int, rng: RNGLike = None) -> NDArray[np.float64]:
    """``n`` i.i.d. records ``[x, y]`` of ``problem`` (vectorised).

    Parameters
    ----------
    problem : GLMProblem
        The population.
    n : int
        Number of records, ``>= 1``.
    rng : numpy.random.Generator, int, SeedSequence or None, default None
        Source of randomness (:func:`~reference.validation.as_generator`).

    Returns
    -------
    numpy.ndarray of float64, shape (n, d + 1)
        The records, inside the domain ``||x|| <= X``.

    Raises
    ------
    TypeError
        If ``n`` is not an integer or ``rng`` not a generator or seed.
    ValueError
        If ``n < 1``.

    References
    ----------
    .. [1] [004 Alg. 1] (the data the learners receive).

    Examples
    --------
    >>> z = sample_records(make_problem("logistic", [1.0, -1.0]), 6, rng=0)
    >>> z.shape, bool((np.linalg.norm(z[:, :-1], axis=1) <= 1.0 + 1e-12).all())
    ((6, 3), True)
    """
    n = check_integer("n", n, minimum=1)
    gen = as_generator(rng)
    x = _raw_features(problem.dim, n, problem.df, problem.x_bound, gen)
    m = x @ problem.w_star
    if problem.loss == "squared":
        xi = np.clip(gen.standard_t(problem.df, size=n), -problem.noise_bound, problem.noise_bound)
        y = m + xi
    else:
        p1 = 0.5 * (1 + np.tanh(0.5 * m))  # sigmoid without overflow
        y = np.where(gen.random(n) < p1, 1.0, -1.0)
    return np.column_stack([x, y])
