"""Module-level (picklable) trials of the rate checks of 002 (Hu, Ni, Xiao & Wang).

Each ``trial_*(point, rng) -> float`` draws a dataset that satisfies the
assumptions of one theorem with known constants, runs the algorithm with the
theorem's parameter setting (:mod:`reference.hu.parameters`, hidden constants
given explicitly in ``point``) and returns the *exact* excess population risk
of the output (closed form, or an accurate deterministic quadrature):

* Theorem 2 (Algorithm 1, squared loss, unit l1 ball) and Theorem 5 (Algorithm 2):
  linear model ``y = <w*, x> + xi`` with i.i.d. zero-mean ``x_j`` (Student t, 10
  degrees of freedom: heavy-tailed, finite fourth moment) and independent
  zero-mean noise, ``||w*||_1 = 1``, so ``L(w) - L(w*) = (w - w*)^T Sigma (w - w*)``
  with ``Sigma = var(x_j) I``; ``w*`` is in the domain, so it is the constrained minimiser.
* Theorem 3 (Algorithm 1, biweight loss): ``x ~ N(0, I)``, symmetric Student-t(3)
  noise; ``<x, w - w*>`` is ``N(0, ||w - w*||^2)``, so
  ``L(w) - L(w*) = H(||w - w*||_2^2) - H(0)``, ``H(v) = E psi(sqrt(v) Z - xi)``,
  evaluated by Gauss-Hermite (``Z``) times adaptive quadrature (``xi``) of the difference.  ``w*`` is
  ``w_norm`` (default 1/2) times a draw of :data:`W_SHAPES_POLYTOPE` by ``point["w_shape"]`` (default
  ``"polytope"``, the same bits as before the option existed; ``"flat"`` with ``s_star = 1`` is a vertex).
* Theorem 7 (Algorithm 3): ``x ~ N(0, I)``, Student-t(5) noise (finite fourth moment,
  Assumption 3), ``s*``-sparse ``w*`` with ``||w*||_2 = 1/2``, start ``w^1 = 0``
  (``||w^1 - w*|| = 1/2 = O(gamma/mu)``): excess ``||w - w*||_2^2``.
* Theorem 8 (Algorithm 5): sparse mean estimation, the problem of Theorem 9:
  ``l(w, x) = ||x - w||_2^2`` (:class:`MeanEstimationLoss`), ``x = mu + t``
  with Student-t(3) entries (finite variance only), ``mu`` ``s*``-sparse, ``||mu||_2 = 1``:
  ``L(w) - L(mu) = ||w - mu||_2^2``; ``gamma_r = mu_r = 2``.  Optional point fields: ``x_scale``
  (``x = mu + x_scale t``, default 1), ``mu_shape`` (:data:`MU_SHAPES`, default ``"random"``) and ``tau``
  (the second-moment bound fed to ``k``, default :func:`theorem8_tau` ``() = 12``), ``x_law`` (:data:`X_LAWS`, the law
  of ``x - mu``: ``"t"`` by default, ``"lognormal"`` right-skewed) and ``k_rule`` (:data:`K_RULES`).  Theorem 7's
  ``w_shape`` (:data:`MU_SHAPES`) shapes ``w*`` as ``mu_shape`` shapes ``mu``.

``point`` holds ``n``, ``epsilon`` and the setting's constants; a ``broken``
key selects a deliberately wrong algorithm for the tests (``"ignore_data"``:
the output does not depend on the data; ``"fixed_noise"``: the privacy noise
scale is multiplied by ``n eps / ne_ref``, so it does not shrink as ``n eps`` grows;
``"s_noise"``: multiplied by ``s*``; ``"s_noise_power"``: by ``s* ** s_power`` (its squared error grows
``s*^(2 s_power)`` faster); ``"d_noise"`` (Theorems 2, 3, 5, 7, 8): multiplied by
``d ** d_power``; ``"noise_x20"``: multiplied by 20 at every point (a mis-calibrated noise scale);
``"output_noise"`` (Theorems 2, 3, 5, 7, 8): ``N(0, sigma^2)`` added to each coordinate of the output, an
error growing linearly in ``d``; ``"step_small"``: every step size times 0.1; ``"log_d_noise"``: the privacy noise times
``(log(d / zeta) / log(d_ref / zeta)) ** log_d_power``; ``"frozen_truncation"``: the
truncation level of the robust estimator (``s``, ``K``, ``k``) set at the grid's smallest ``n eps``).
"""

from __future__ import annotations

import functools
import math

import numpy as np

from reference._densities import t_pdf as _t_pdf
from reference.hu.data import initial_polytope, linear_data, w_star_polytope
from reference.hu.frank_wolfe import fw_step_sizes, heavy_tailed_dp_fw, heavy_tailed_private_lasso
from reference.hu.parameters import (
    theorem2_parameters,
    theorem3_parameters,
    theorem5_parameters,
    theorem7_parameters,
    theorem8_parameters,
)
from reference.hu.sparse import (
    heavy_tailed_sparse_linear_regression,
    heavy_tailed_sparse_optimization,
    iht_lambda,
    sparse_opt_lambda,
)
from reference.losses import BiweightLoss, Loss
from reference.validation import check_finite_array

__all__ = [
    "MeanEstimationLoss",
    "biweight_excess_risk",
    "trial_theorem2",
    "trial_theorem3",
    "trial_theorem5",
    "trial_theorem7",
    "trial_theorem8",
    "T_DF_X",
    "T_DF_NOISE3",
    "T_DF_NOISE7",
    "T_DF_MEAN",
]

#: Degrees of freedom of the Student-t laws used (see the module docstring).
T_DF_X, T_DF_NOISE3, T_DF_NOISE7, T_DF_MEAN = 10.0, 3.0, 5.0, 3.0
NOISE_VAR = 0.1
#: Scale of the ``noise_x20`` broken mode (a mutant every rate check must refute): the privacy noise 20 times
#: the stated one at every point.
NOISE_X20 = 20.0
#: The broken modes that rescale the privacy noise (through :func:`_noise_factor`).
_NOISE_MODES = ("fixed_noise", "s_noise", "s_noise_power", "d_noise", "log_d_noise", "noise_x20")


def _t_moments(df):
    """Variance and fourth moment of a standard Student t (df > 4)."""
    return df / (df - 2.0), 3.0 * df * df / ((df - 2.0) * (df - 4.0))


def _noise_factor(point):
    """Broken variant ``fixed_noise``: the privacy noise scale times ``n eps / (n eps)_ref`` (the grid's
    smallest), so that the noise no longer shrinks as ``n eps`` grows; ``s_noise``: times ``s*``;
    ``s_noise_power``: times ``s* ** s_power``;
    ``d_noise``: times ``(d / d_ref) ** d_power`` (``d_power = 1`` unless given; without ``d_ref``, times
    ``d ** d_power``); ``log_d_noise``: times
    ``(log(d / zeta) / log(d_ref / zeta)) ** log_d_power`` (1 unless given; ``d_ref``, the grid's smallest ``d``, makes
    the factor 1 there: a squared error growing by ``log^2(d / zeta)`` more)."""
    if point.get("broken") == "s_noise":
        return float(point["s_star"])
    if point.get("broken") == "s_noise_power":
        return float(point["s_star"]) ** float(point["s_power"])
    if point.get("broken") == "d_noise":
        # without d_ref the factor is d itself (the same bits as before d_ref existed)
        d_over_ref = float(point["d"]) / float(point["d_ref"]) if "d_ref" in point else float(point["d"])
        return d_over_ref ** float(point.get("d_power", 1.0))
    if point.get("broken") == "log_d_noise":
        zeta = point.get("zeta", 0.1)
        ratio = math.log(float(point["d"]) / zeta) / math.log(float(point.get("d_ref", point["d"])) / zeta)
        return ratio ** float(point.get("log_d_power", 1.0))
    if point.get("broken") == "noise_x20":
        return NOISE_X20
    return point["n"] * point["epsilon"] / point["ne_ref"]


#: Factor on every step size in the ``step_small`` broken mode.
STEP_FACTOR = 0.1


def _fw_steps(point, T, schedule):
    """Broken variant ``step_small``: the Frank-Wolfe step sizes of ``schedule`` times :data:`STEP_FACTOR`;
    any other ``point`` returns ``schedule`` unchanged (the stated algorithm, the same bits)."""
    if point.get("broken") != "step_small":
        return schedule
    return STEP_FACTOR * fw_step_sizes(T, schedule)


def _step(point, eta):
    """Broken variant ``step_small`` of a constant step size ``eta``."""
    return STEP_FACTOR * eta if point.get("broken") == "step_small" else eta


def _truncation_epsilon(point):
    """The ``epsilon`` at which the truncation level of the robust estimator is set: the point's own, or, in the
    broken variant ``frozen_truncation``, ``ne_ref / n`` (the level of the grid's smallest ``n eps``, so that it no
    longer grows with ``n eps`` and the estimator's bias stops shrinking)."""
    if point.get("broken") == "frozen_truncation":
        return point["ne_ref"] / point["n"]
    return float(point["epsilon"])


def _output_noise(point, w, rng):
    """Broken variant ``output_noise``: the output released with i.i.d. ``N(0, sigma^2)`` added to each
    coordinate (``sigma = point["output_sigma"]``, 0.05 unless given, independent of ``d``), as a
    coordinate-wise output perturbation would: its squared error grows like ``d sigma^2``, i.e.
    polynomially in ``d``.  Any other ``point`` returns ``w`` unchanged (and draws nothing)."""
    if point.get("broken") != "output_noise":
        return w
    return w + float(point.get("output_sigma", 0.05)) * rng.standard_normal(w.shape)


def _sparse_unit(d, s_star, norm, rng):
    w = np.zeros(d)
    idx = rng.permutation(d)[:s_star]
    u = rng.normal(size=s_star)
    w[idx] = norm * u / np.linalg.norm(u)
    return w


# --------------------------------------------------------------------------- Theorems 2 and 5


#: Shapes of Theorem 5's ``w*`` (``point["w_shape"]``): ``"polytope"`` (default), uniform on the unit l1 sphere, whose
#: entries shrink like ``1/d`` (the vertex choices of Frank-Wolfe stop carrying information as ``d`` grows);
#: ``"flat"``, entries ``+-1/s*`` on a random support of ``s*`` coordinates (``||w*||_1 = 1``), the same signal at
#: every ``d``.
W_SHAPES_POLYTOPE = ("polytope", "flat")


def _polytope_w_star(point, rng):
    """``w*`` of Theorems 2 and 5 by :data:`W_SHAPES_POLYTOPE`; ``"polytope"`` draws as before the option existed."""
    d, shape = int(point["d"]), point.get("w_shape", "polytope")
    if shape == "polytope":
        return w_star_polytope(d, rng)
    if shape == "flat":
        s_star = int(point["s_star"])
        if not 1 <= s_star <= d:
            raise ValueError(f"s_star must be in [1, d={d}], got s_star={s_star!r}")
        w = np.zeros(d)
        w[rng.permutation(d)[:s_star]] = rng.choice([-1.0, 1.0], size=s_star) / s_star
        return w
    raise ValueError(f"w_shape must be one of {W_SHAPES_POLYTOPE}, got {shape!r}")


def _polytope_linear(point, rng):
    n = int(point["n"])
    w_star = _polytope_w_star(point, rng)
    data = linear_data(n, w_star, "student_t", "normal", rng, x_params={"df": T_DF_X}, noise_params={"var": NOISE_VAR})
    if point.get("broken") == "ignore_data":
        data = linear_data(
            n,
            _polytope_w_star(point, rng),
            "student_t",
            "normal",
            rng,
            x_params={"df": T_DF_X},
            noise_params={"var": NOISE_VAR},
        )
    return data, w_star


def theorem2_constants(d):
    """``alpha`` (smoothness of ``L``: ``2 lambda_max(Sigma)``) and ``tau`` (sup over the unit l1 ball
    of ``E[(grad_j l)^2] = 4 E[x_j^2 (<x, w - w*> - xi)^2]``, bounded with ``||w - w*||_2 <= 2``)."""
    var, m4 = _t_moments(T_DF_X)
    return 2.0 * var, 4.0 * (max(m4, var * var) * 4.0 + var * NOISE_VAR)


def trial_theorem2(point, rng):
    """Algorithm 1, squared loss, Theorem 2 parameters; exact excess population risk."""
    n, eps, d = int(point["n"]), float(point["epsilon"]), int(point["d"])
    data, w_star = _polytope_linear(point, rng)
    alpha, tau = theorem2_constants(d)
    p = theorem2_parameters(
        n, eps, d, 2 * d, alpha, tau, point.get("zeta", 0.1), c_T=point.get("c_T", 1.0), c_s=point.get("c_s", 1.0)
    )
    if point.get("broken") == "frozen_truncation":
        p["s"] = theorem2_parameters(
            n,
            _truncation_epsilon(point),
            d,
            2 * d,
            alpha,
            tau,
            point.get("zeta", 0.1),
            c_T=point.get("c_T", 1.0),
            c_s=point.get("c_s", 1.0),
        )["s"]
    sens = None
    if point.get("broken") in _NOISE_MODES:  # fixed_noise: noise of the smallest n at every n
        sens = 4.0 * math.sqrt(2.0) * p["s"] / (3.0 * (n / p["T"])) * _noise_factor(point)
    w = heavy_tailed_dp_fw(
        data,
        "squared",
        initial_polytope(d, rng),
        p["s"],
        p["T"],
        p["beta"],
        eps,
        rng=rng,
        step_size=_fw_steps(point, p["T"], p["step_size"]),
        sensitivity=sens,
    )
    w = _output_noise(point, w, rng)
    var, _ = _t_moments(T_DF_X)
    diff = w - w_star
    return float(var * diff @ diff)


def trial_theorem5(point, rng):
    """Algorithm 2 (budget ``printed``), Theorem 5 parameters; exact excess population risk."""
    n, eps, d, delta = int(point["n"]), float(point["epsilon"]), int(point["d"]), float(point["delta"])
    data, w_star = _polytope_linear(point, rng)
    var, _ = _t_moments(T_DF_X)
    p = theorem5_parameters(n, eps, delta, d, var, point.get("zeta", 0.1), c_T=point.get("c_T", 1.0))
    if point.get("broken") == "frozen_truncation":
        p["K"] = theorem5_parameters(
            n, _truncation_epsilon(point), delta, d, var, point.get("zeta", 0.1), c_T=point.get("c_T", 1.0)
        )["K"]
    sens = None
    if point.get("broken") in _NOISE_MODES:
        sens = 8.0 * p["K"] ** 2 / n * _noise_factor(point)
    w = heavy_tailed_private_lasso(
        data,
        initial_polytope(d, rng),
        p["K"],
        p["T"],
        eps,
        delta,
        rng=rng,
        step_size=_fw_steps(point, p["T"], p["step_size"]),
        sensitivity=sens,
    )
    w = _output_noise(point, w, rng)
    diff = w - w_star
    return float(var * diff @ diff)


# --------------------------------------------------------------------------- Theorem 3


@functools.lru_cache(maxsize=1)
def _quadrature_nodes():
    """Gauss-Hermite (100, weights normalised) and Gauss-Legendre (400) nodes and weights, built on first use:
    ``leggauss(400)`` takes about 1.7 s (an eigenvalue problem), which every import of this module paid
    (every test process collects it)."""
    gh_z, gh_w = np.polynomial.hermite_e.hermegauss(100)
    gl_x, gl_w = np.polynomial.legendre.leggauss(400)
    return gh_z, gh_w / gh_w.sum(), gl_x, gl_w


@functools.lru_cache(maxsize=8)
def _base_density(c, df):
    """``t.pdf(c x_k, df)`` at the Gauss-Legendre nodes ``x_k`` (the same at every ``v``)."""
    out = _t_pdf(c * _quadrature_nodes()[2], df)
    out.setflags(write=False)
    return out


def biweight_psi(r, c=4.685):
    """Tukey's biweight ``psi(r) = c^2/6 (1 - (1 - (r/c)^2)^3)`` for ``|r| <= c``, ``c^2/6`` outside."""
    u2 = np.minimum((np.asarray(r, dtype=float) / c) ** 2, 1.0)
    return c * c / 6.0 * (1.0 - (1.0 - u2) ** 3)


def biweight_excess_risk(v, c=4.685, df=T_DF_NOISE3):
    """``E psi(sqrt(v) Z - xi) - E psi(-xi)``, ``Z ~ N(0, 1)``, ``xi ~ t(df)``, ``psi`` the biweight.

    With ``q`` the density of ``sqrt(v) Z - xi`` and ``p`` that of ``xi`` (symmetric), and ``psi``
    constant ``c^2/6`` outside ``[-c, c]``, the difference is
    ``int_{-c}^{c} (psi(r) - c^2/6) (q(r) - p(r)) dr``: a smooth integrand on a finite interval
    (Gauss-Legendre, 400 nodes), with ``q(r) - p(r) = E_Z[p(r - sqrt(v) Z) - p(r)]`` by
    Gauss-Hermite (100 nodes; ``p`` is analytic).  No cancellation between two risks.
    """
    v = float(v)
    if v == 0.0:
        return 0.0
    gh_z, gh_w, gl_x, gl_w = _quadrature_nodes()
    r = c * gl_x
    dens = _t_pdf(r[:, None] - math.sqrt(v) * gh_z[None, :], df) - _base_density(c, df)[:, None]
    return float(c * np.sum(gl_w * (biweight_psi(r, c) - c * c / 6.0) * (dens @ gh_w)))


def trial_theorem3(point, rng):
    """Algorithm 1, biweight loss, Theorem 3 parameters (constant step ``1/sqrt(T)``); exact excess risk."""
    n, eps, d = int(point["n"]), float(point["epsilon"]), int(point["d"])
    # "polytope" (default) keeps its own expression: the same bits as before the shape option existed
    if point.get("w_shape", "polytope") == "polytope":
        w_star = w_star_polytope(d, rng) * point.get("w_norm", 0.5)
    else:
        w_star = _polytope_w_star(point, rng) * point.get("w_norm", 0.5)
    data = linear_data(n, w_star, "normal", "student_t", rng, x_params={"var": 1.0}, noise_params={"df": T_DF_NOISE3})
    if point.get("broken") == "ignore_data":
        data = linear_data(
            n, -w_star, "normal", "student_t", rng, x_params={"var": 1.0}, noise_params={"df": T_DF_NOISE3}
        )
    p = theorem3_parameters(n, eps, d, point.get("zeta", 0.1), c_T=point.get("c_T", 1.0), c_s=point.get("c_s", 1.0))
    if point.get("broken") == "frozen_truncation":
        p["s"] = theorem3_parameters(
            n,
            _truncation_epsilon(point),
            d,
            point.get("zeta", 0.1),
            c_T=point.get("c_T", 1.0),
            c_s=point.get("c_s", 1.0),
        )["s"]
    sens = None
    if point.get("broken") in _NOISE_MODES:
        sens = 4.0 * math.sqrt(2.0) * p["s"] / (3.0 * (n / p["T"])) * _noise_factor(point)
    w = heavy_tailed_dp_fw(
        data,
        BiweightLoss(),
        initial_polytope(d, rng),
        p["s"],
        p["T"],
        p["beta"],
        eps,
        rng=rng,
        step_size=[_step(point, p["eta"])] * p["T"],
        sensitivity=sens,
    )
    w = _output_noise(point, w, rng)
    diff = w - w_star
    return biweight_excess_risk(float(diff @ diff))


# --------------------------------------------------------------------------- Theorem 7


def trial_theorem7(point, rng):
    """Algorithm 3, Theorem 7 parameters (``gamma = mu = 1``), start 0; excess ``||w - w*||^2``.

    ``point["w_shape"]`` (:data:`MU_SHAPES`, default ``"random"``) shapes ``w*`` (norm 1/2) as Theorem 8's mean."""
    n, eps, d, s_star = int(point["n"]), float(point["epsilon"]), int(point["d"]), int(point["s_star"])
    delta = float(point["delta"])
    shape = point.get("w_shape", "random")
    # "random" keeps its own expression (the same bits as before the shape option existed)
    w_star = _sparse_unit(d, s_star, 0.5, rng) if shape == "random" else 0.5 * _sparse_mean(d, s_star, shape, rng)
    # The records [x, y] drawn in place: n (d + 1) standard normals, whose last column is then overwritten by y,
    # so that X needs no second copy (np.column_stack of an (n, d) draw copied 65 MB a trial at d = 2048).
    # The law of X is the same (i.i.d. N(0, 1) entries); the discarded column is independent of everything.
    data = rng.standard_normal(size=(n, d + 1))
    X = data[:, :d]
    data[:, d] = X @ w_star + rng.standard_t(T_DF_NOISE7, size=n)
    if point.get("broken") == "ignore_data":
        data[:, d] = rng.standard_t(T_DF_NOISE7, size=n)
    p = theorem7_parameters(n, eps, s_star, 1.0, 1.0, c_T=point.get("c_T", 1.0), c_s=point.get("c_s", 72.0))
    if point.get("broken") == "frozen_truncation":
        p["K"] = theorem7_parameters(
            n, _truncation_epsilon(point), s_star, 1.0, 1.0, c_T=point.get("c_T", 1.0), c_s=point.get("c_s", 72.0)
        )["K"]
    lam = None
    if point.get("broken") in _NOISE_MODES:
        lam = iht_lambda(p["K"], p["eta0"], p["s"], max(1, n // p["T"])) * _noise_factor(point)
    w = heavy_tailed_sparse_linear_regression(
        data, np.zeros(d), p["K"], p["T"], _step(point, p["eta0"]), p["s"], eps, delta, rng=rng, lam=lam
    )
    w = _output_noise(point, w, rng)
    diff = w - w_star
    return float(diff @ diff)


# --------------------------------------------------------------------------- Theorem 8


class MeanEstimationLoss(Loss):
    """``l(w, (x, y)) = ||x - w||_2^2`` (``y`` ignored): the sparse mean estimation problem of 002,
    Section 5.2 (lower bound, Theorem 9).  Gradient ``2 (w - x)``; ``L`` is 2-RSC and 2-RSS."""

    name = "mean_estimation"

    def value(self, w, X, y):
        w, X, y = self._check(w, X, y)
        return np.sum((X - w[None, :]) ** 2, axis=1)

    def gradient(self, w, X, y):
        w, X, y = self._check(w, X, y)
        return 2.0 * (w[None, :] - X)

    def gradient_batch(self, W, X, y):
        W = check_finite_array("W", W, ndim=2)
        _, X, y = self._check(W[0] if W.shape[0] else np.zeros(X.shape[1]), X, y)
        return 2.0 * (W[:, None, :] - X[None, :, :])


def theorem8_tau(x_scale=1.0):
    """``E[(grad_j l(w, x))^2] = 4 (var(x_j) + (w_j - mu_j)^2)`` at ``w = mu`` (``tau`` known exactly there);
    the entries of ``x - mu`` are ``x_scale`` times a Student t(3), variance ``3 x_scale^2``."""
    return 4.0 * x_scale * x_scale * T_DF_MEAN / (T_DF_MEAN - 2.0)


#: Shapes of the sparse mean of Theorem 8's trial (``point["mu_shape"]``): ``"random"``, a uniform direction on
#: a random support; ``"flat"``, entries ``+-1/sqrt(s*)`` on a random support (random signs).  Under ``"random"``
#: some entries of ``mu`` are small, and missing them in the top-``s`` selection costs ``mu_j^2`` whatever the
#: noise: a support-recovery error that jumps between s* = 1 and 2 and hides how the privacy noise grows.
MU_SHAPES = ("random", "flat")


def _sparse_mean(d, s_star, shape, rng):
    """The ``s*``-sparse unit-norm mean of Theorem 8's trial, shape by :data:`MU_SHAPES`."""
    if shape == "random":
        return _sparse_unit(d, s_star, 1.0, rng)
    if shape == "flat":
        mu = np.zeros(d)
        mu[rng.permutation(d)[:s_star]] = rng.choice([-1.0, 1.0], size=s_star) / math.sqrt(s_star)
        return mu
    raise ValueError(f"mu_shape must be one of {MU_SHAPES}, got {shape!r}")


#: Laws of ``x - mu`` in Theorem 8's trial (``point["x_law"]``): ``"t"``, Student t(3) (symmetric: a robust mean of
#: it is unbiased at any scale); ``"lognormal"``, ``exp(Z) - exp(1/2)`` (mean 0, variance ``e (e - 1) = 4.67``,
#: right-skewed: the robust estimator's bias, Lemma 4's ``tau / k`` term, shows).
X_LAWS = ("t", "lognormal")
LOGNORMAL_VAR = math.e * (math.e - 1.0)


def _mean_noise(law, shape, rng):
    """Zero-mean draws of ``x - mu`` for Theorem 8's trial, law by :data:`X_LAWS`."""
    if law == "t":
        return rng.standard_t(T_DF_MEAN, size=shape)
    if law == "lognormal":
        out = rng.lognormal(0.0, 1.0, size=shape)
        out -= math.exp(0.5)
        return out
    raise ValueError(f"x_law must be one of {X_LAWS}, got {law!r}")


#: Choices of Algorithm 5's scale ``k`` (``point["k_rule"]``), hidden constants 1 and logs dropped:
#: ``"printed"``: ``k = c_k sqrt(n eps tau)`` as [002 Thm. 8] states it (no ``s``, no ``T``);
#: ``"proof"``: ``k^4 = n^2 eps^2 tau^2 / (s T)^2`` as the proof of [002 Thm. 8] [002 App. A] sets it;
#: ``"balanced"``: ``k^4 = n^2 eps^2 tau^2 / (s T^2)``, which balances the proof's own inequality
#: ``s^2 k^2 T^2 / (n eps)^2 + s tau^2 / k^2`` and gives its ``s^(3/2)`` (``k ~ s^(-1/4)``).
#: ``"printed_log_d"``: ``k = c_k sqrt(n eps tau / log(d / zeta))``, the printed ``k`` whose ``O~`` carries the
#: ``1 / sqrt(log(d / zeta))`` that turns the ``log^2(d / zeta)`` of the Peeling noise's maximum over ``d``
#: coordinates into the displayed ``log(d / zeta)`` (``docs/rates.md``, "002: the d-sweeps").
K_RULES = ("printed", "proof", "balanced", "printed_log_d")


def theorem8_k(rule, n, eps, tau, s, T, c_k=1.0, d=None, zeta=0.1):
    """Algorithm 5's ``k`` under ``rule`` (:data:`K_RULES`); ``d`` and ``zeta`` enter ``"printed_log_d"`` only."""
    if rule == "printed":
        return c_k * math.sqrt(n * eps * tau)
    if rule == "printed_log_d":
        if d is None or d < 1:
            raise ValueError(f"k_rule 'printed_log_d' needs the dimension d >= 1, got d={d!r}")
        return c_k * math.sqrt(n * eps * tau / math.log(d / zeta))
    if rule == "proof":
        return c_k * (n * eps * tau / (s * T)) ** 0.5
    if rule == "balanced":
        return c_k * (n * n * eps * eps * tau * tau / (s * T * T)) ** 0.25
    raise ValueError(f"k_rule must be one of {K_RULES}, got {rule!r}")


def trial_theorem8(point, rng):
    """Algorithm 5 on sparse mean estimation, Theorem 8 parameters (``k`` by ``point["k_rule"]``); ``||w - mu||^2``."""
    n, eps, d, s_star = int(point["n"]), float(point["epsilon"]), int(point["d"]), int(point["s_star"])
    delta = float(point["delta"])
    x_scale = float(point.get("x_scale", 1.0))
    tau = float(point.get("tau", theorem8_tau()))
    mu = _sparse_mean(d, s_star, point.get("mu_shape", "random"), rng)
    # mu + t written straight into the records (the same sums, so the same bits as np.column_stack of them,
    # one (n, d) copy fewer)
    data = np.empty((n, d + 1))
    law = point.get("x_law", "t")
    noise = _mean_noise(law, (n, d), rng)
    if x_scale != 1.0:
        noise *= x_scale
    np.add(mu[None, :], noise, out=data[:, :d])
    if point.get("broken") == "ignore_data":
        data[:, :d] = x_scale * _mean_noise(law, (n, d), rng)
    data[:, d] = 0.0
    p = theorem8_parameters(
        n,
        eps,
        s_star,
        2.0,
        2.0,
        tau,
        c_T=point.get("c_T", 1.0),
        c_s=point.get("c_s", 1.0),
        c_k=point.get("c_k", 1.0),
    )
    rule = point.get("k_rule", "printed")
    if rule != "printed" or point.get("broken") == "frozen_truncation":
        p["k"] = theorem8_k(
            rule, n, _truncation_epsilon(point), tau, p["s"], p["T"], point.get("c_k", 1.0), d, point.get("zeta", 0.1)
        )
    p["eta"] = _step(point, p["eta"])
    lam = None
    if point.get("broken") in _NOISE_MODES:
        lam = sparse_opt_lambda(p["k"], p["eta"], max(1, n // p["T"])) * _noise_factor(point)
    w = heavy_tailed_sparse_optimization(
        data,
        MeanEstimationLoss(),
        np.zeros(d),
        p["s"],
        p["beta"],
        p["k"],
        p["T"],
        p["eta"],
        eps,
        delta,
        rng=rng,
        lam=lam,
    )
    w = _output_noise(point, w, rng)
    diff = w - mu
    return float(diff @ diff)
