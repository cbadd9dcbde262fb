"""Base DP learners for GLMs under ``||w|| <= B`` used by Private Grid Search ([004 Alg. 1]).

The fragment of 004 (``004_2b354816f00c2aef.txt``) refers to two base algorithms without printing
their calibration: regularised ERM with *output perturbation* ([004 Lemma D.4], second lemma) and
*noisy projected gradient descent* ([004 Lemma D.4], first lemma).  Both are implemented here for the
GLM losses of :func:`reference.arora.data.glm_loss` on the domain ``||x|| <= X``, ``|y| <= Y``
(squared loss) or ``y in {-1, +1}`` (logistic loss), with calibrations derived from standard
results (see each function's Notes), and the ``Delta(B)`` functions of [004 Lemma D.4] ([004 Assumption 1],
second condition) in a ``"printed"`` and a ``"standard"`` variant.

Records outside the domain are rejected (``ValueError`` naming ``data``), never projected:
the sensitivity bounds below hold only on the domain.

References
----------
.. [CMS11] K. Chaudhuri, C. Monteleoni and A. Sarwate, "Differentially private empirical risk
   minimization", JMLR 12 (2011), Corollary 8 (sensitivity 2L/(n lambda) of the minimiser).
.. [BST14] R. Bassily, A. Smith and A. Thakurta, "Private empirical risk minimization: efficient
   algorithms and tight error bounds", FOCS 2014 (noisy projected gradient descent;
   output perturbation for strongly convex losses over a convex set).
.. [BS16] M. Bun and T. Steinke, "Concentrated differential privacy: simplifications,
   extensions, and lower bounds", TCC 2016, Propositions 1.3, 1.4, 1.6 (Gaussian mechanism is
   (Delta^2 / 2 sigma^2)-zCDP, composition adds rho, rho-zCDP implies
   (rho + 2 sqrt(rho log(1/delta)), delta)-DP).
.. [DRS22] J. Dong, A. Roth and W. Su, "Gaussian differential privacy", JRSS-B 84 (2022),
   Corollary 3.3 (T-fold adaptive composition of Gaussian mechanisms is exactly
   sqrt(T) Delta / sigma - GDP), used by the exact calibration check.
.. [BW18] B. Balle and Y.-X. Wang, ICML 2018, Theorem 8 (exact delta of the Gaussian mechanism).
"""

from __future__ import annotations

import math
import warnings
from typing import Protocol

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import stats

from ..mechanisms import gaussian_release, gaussian_sigma, record_call
from ..validation import (
    RNGLike,
    as_generator,
    check_choice,
    check_delta,
    check_epsilon,
    check_finite_array,
    check_integer,
    check_positive,
    check_probability,
)
from .data import LOSSES

__all__ = [
    "smoothness",
    "lipschitz_constant",
    "check_domain",
    "regularized_erm",
    "glm_gradient",
    "output_perturbation_sensitivity",
    "output_perturbation_sigma",
    "output_perturbation",
    "noisy_gd_rho",
    "noisy_gd_sigma",
    "noisy_gd",
    "delta_noisy_gd",
    "delta_output_perturbation",
    "OutputPerturbation",
    "NoisyGD",
]


def _finite(name, value, **inputs):
    """Return ``value`` if finite, else raise: a bound that overflows float64 is an error, not inf."""
    if not math.isfinite(value):
        args = ", ".join(f"{k}={v!r}" for k, v in inputs.items())
        raise ValueError(f"{name} overflows float64 for {args}")
    return value


def _check_loss(loss):
    return check_choice("loss", loss, LOSSES)


def smoothness(loss: str) -> float:
    """``H`` such that ``t -> l(t, y)`` is ``H``-smooth: 2 for ``(t - y)^2``, 1/4 for logistic.

    Parameters
    ----------
    loss : {"squared", "logistic"}
        The GLM loss.

    Returns
    -------
    float
        ``H``.

    Raises
    ------
    ValueError
        If ``loss`` is unknown.

    References
    ----------
    .. [1] [004 Lemma D.4] (the smoothness ``H``).

    Examples
    --------
    >>> smoothness("squared"), smoothness("logistic")
    (2.0, 0.25)
    """
    return 2.0 if _check_loss(loss) == "squared" else 0.25


def lipschitz_constant(loss: str, B: float, x_bound: float, y_bound: float) -> float:
    """Lipschitz constant ``G`` of ``w -> l(w; z)`` on ``||w|| <= B`` for every domain record.

    Squared: ``||2(<w,x> - y) x|| <= 2 (B X + Y) X``.  Logistic: ``||y x sigmoid(-y<w,x>)|| <= X``.

    Parameters
    ----------
    loss : {"squared", "logistic"}
        The GLM loss.
    B : float
        Norm constraint, finite and > 0.
    x_bound : float
        ``X``, finite and > 0.
    y_bound : float
        ``Y``, finite and > 0.

    Returns
    -------
    float
        ``G``.

    Raises
    ------
    TypeError
        If a bound is not a real number.
    ValueError
        If ``loss`` is unknown, a bound is not finite and positive, or ``G`` overflows float64.

    References
    ----------
    .. [1] [BST14] (Lipschitz constants of GLM losses on a ball); [004 Alg. 1].

    Examples
    --------
    >>> lipschitz_constant("squared", 1.0, 1.0, 2.0), lipschitz_constant("logistic", 1.0, 3.0, 1.0)
    (6.0, 3.0)
    """
    _check_loss(loss)
    B = check_positive("B", B)
    X = check_positive("x_bound", x_bound)
    Y = check_positive("y_bound", y_bound)
    return _finite("lipschitz_constant", 2.0 * (B * X + Y) * X if loss == "squared" else X, B=B, x_bound=X, y_bound=Y)


def check_domain(
    data: ArrayLike, loss: str, x_bound: float, y_bound: float, *, name: str = "data"
) -> NDArray[np.float64]:
    """Return ``data`` (n, d+1) after checking every record lies in the learner's domain.

    The domain is ``||x|| <= x_bound`` (relative margin 1e-12) and ``|y| <= y_bound`` (squared loss) or
    ``y in {-1, +1}`` (logistic loss).

    Parameters
    ----------
    data : array_like, shape (n, d + 1)
        Records ``[x, y]``.
    loss : {"squared", "logistic"}
        The GLM loss (sets the label check).
    x_bound : float
        ``X``, finite and > 0.
    y_bound : float
        ``Y``, finite and > 0.
    name : str, default "data"
        Name of ``data`` in error messages.

    Returns
    -------
    numpy.ndarray of float64, shape (n, d + 1)
        The records.

    Raises
    ------
    TypeError
        If ``data`` is not an array of real numbers or a bound not a real number.
    ValueError
        If ``data`` is not a non-empty finite 2-D array of at least 2 columns, a bound not finite and positive,
        or a record lies outside the domain (the message names its row).

    References
    ----------
    .. [1] [004 Alg. 1], [004 Lemma D.4] (the domain ``||x|| <= X``, ``l(0; z) <= Y^2``).

    Examples
    --------
    >>> check_domain([[0.6, 0.8, 1.0]], "logistic", 1.0, 1.0)
    array([[0.6, 0.8, 1. ]])
    >>> check_domain([[0.6, 0.8, 0.5]], "logistic", 1.0, 1.0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: data row 0 has label ...0.5...; logistic labels are -1 or +1
    """
    z = check_finite_array(name, data, ndim=2)
    if z.shape[1] < 2:
        raise ValueError(f"{name} must have records [x_1..x_d, y] with d >= 1, got shape {z.shape}")
    X = check_positive("x_bound", x_bound)
    Y = check_positive("y_bound", y_bound)
    x, y = z[:, :-1], z[:, -1]
    amax = np.max(np.abs(x), axis=1)
    safe = np.where(amax > 0, amax, 1.0)
    r = np.linalg.norm(x / safe[:, None], axis=1)  # ||x|| = safe * r, no overflow
    bad = np.flatnonzero(r > (X / safe) * (1 + 1e-12))
    if bad.size:
        k = int(bad[0])
        raise ValueError(f"{name} row {k} has ||x|| = {float(safe[k]) * float(r[k])!r} > x_bound = {X!r}")
    if loss == "logistic":
        bady = np.flatnonzero(np.abs(y) != 1.0)
        if bady.size:
            raise ValueError(f"{name} row {int(bady[0])} has label {y[bady[0]]!r}; logistic labels are -1 or +1")
    else:
        bady = np.flatnonzero(np.abs(y) > Y)
        if bady.size:
            raise ValueError(f"{name} row {int(bady[0])} has |y| = {abs(y[bady[0]])!r} > y_bound = {Y!r}")
    return z


def glm_gradient(W: ArrayLike, records: ArrayLike, loss: str) -> NDArray[np.float64]:
    """Gradient of the empirical loss at each row of ``W`` (m, d); returns (m, d).

    ``records`` may carry a leading batch axis matching ``W``'s: ``W`` (b, d), ``records`` (b, n, d+1).
    Not validated (the learners validate first).

    Parameters
    ----------
    W : array_like, shape (m, d) or (d,)
        The points.
    records : array_like, shape (n, d + 1) or (b, n, d + 1)
        Records ``[x, y]``.
    loss : {"squared", "logistic"}
        The GLM loss.

    Returns
    -------
    numpy.ndarray of float64, shape (m, d) or (d,)
        ``(1/n) sum_i grad l(w; z_i)`` for each point.

    References
    ----------
    .. [1] [BST14] (the gradient step of noisy gradient descent).

    Examples
    --------
    >>> glm_gradient(np.zeros((1, 2)), [[1.0, 0.0, 1.0], [0.0, 1.0, -1.0]], "squared")
    array([[-1.,  1.]])
    """
    z = np.asarray(records, dtype=np.float64)
    x, y = z[..., :-1], z[..., -1]
    if loss == "squared" and z.ndim == 2:
        # (2/n) X^T (X w - y) = 2 (X^T X/n) w - 2 X^T y/n: O(n d^2 + m d^2) instead of O(m n d) (noisy GD
        # runs 10^3-10^4 draws at once); equal up to rounding (measured 2e-15 relative).  Where the moments
        # overflow (records near 1e154 and beyond: inf - inf) those rows take the per-record sum, as before.
        n = x.shape[0]
        with np.errstate(over="ignore", invalid="ignore"):
            g = 2.0 * (W @ (x.T @ x / n)) - 2.0 * (x.T @ y / n)
        finite = np.isfinite(g).all(axis=-1)
        if np.all(finite):
            return g
        if g.ndim == 1:
            return _per_record_gradient(W, x, y, loss)
        g[~finite] = _per_record_gradient(np.asarray(W, dtype=np.float64)[~finite], x, y, loss)
        return g
    return _per_record_gradient(W, x, y, loss)


def _per_record_gradient(W, x, y, loss):
    """:func:`glm_gradient` as the mean of the records' gradients (``x`` (n, d) or (b, n, d))."""
    if x.ndim == 3:
        m = np.einsum("bnd,bd->bn", x, W)
    else:
        m = W @ x.T  # (m, n)
    if loss == "squared":
        r = 2.0 * (m - y)
    else:
        r = -y * 0.5 * (1 - np.tanh(0.5 * y * m))  # -y sigmoid(-y m), no overflow
    if x.ndim == 3:
        return np.einsum("bn,bnd->bd", r, x) / x.shape[1]
    return r @ x / x.shape[0]


def _project(W, B):
    nrm = np.linalg.norm(W, axis=-1, keepdims=True)
    return W * np.minimum(1.0, B / np.where(nrm > 0, nrm, 1.0))


def regularized_erm(
    data: ArrayLike, loss: str, B: float, lam: float, *, tol: float = 1e-13, max_iter: int = 20000
) -> NDArray[np.float64]:
    """``argmin_{||w|| <= B} (1/n) sum l(w; z_i) + (lam/2) ||w||^2`` to float64 accuracy.

    Parameters
    ----------
    data : array_like, shape (n, d+1) or (b, n, d+1)
        One dataset or a batch of ``b`` datasets (solved together, vectorised).
    loss : {"squared", "logistic"}
    B, lam : float
        Constraint radius and regularisation (strong convexity) parameter.
    tol : float, default 1e-13
        Logistic loss: stop when the iterates move by less than ``tol * (1 + ||w||)``.
    max_iter : int, default 20000
        Logistic loss: the most iterations.

    Returns
    -------
    ndarray, shape (d,) or (b, d)

    Raises
    ------
    TypeError
        If ``B`` or ``lam`` is not a real number.
    ValueError
        If ``loss`` is unknown, or ``B`` or ``lam`` is not finite and positive.

    Notes
    -----
    Squared loss: the KKT conditions give ``w(mu) = (2 X^T X / n + (lam + mu) I)^{-1} 2 X^T y / n``
    with ``mu >= 0`` the multiplier of the ball, found by bisection on ``||w(mu)|| = B`` in the
    eigenbasis (exact up to rounding).  Logistic loss: accelerated projected gradient descent
    for the ``lam``-strongly convex, ``(||x||^2/4 + lam)``-smooth objective, run until the
    iterates move by less than ``tol * (1 + ||w||)``.

    References
    ----------
    .. [1] [CMS11] (the regularised minimiser of output perturbation); Y. Nesterov, "Lectures on Convex
       Optimization", 2nd ed., Springer 2018, Sec. 2.2 (accelerated projected gradient).

    Examples
    --------
    >>> regularized_erm([[1.0, 0.0, 1.0], [0.0, 1.0, -1.0]], "squared", B=10.0, lam=1.0).round(6)
    array([ 0.5, -0.5])
    """
    _check_loss(loss)
    z = np.asarray(data, dtype=np.float64)
    single = z.ndim == 2
    if single:
        z = z[None]
    B = check_positive("B", B)
    lam = check_positive("lam", lam)
    b, n, width = z.shape
    d = width - 1
    x, y = z[..., :-1], z[..., -1]
    if loss == "squared":
        A = 2.0 * np.einsum("bni,bnj->bij", x, x) / n
        c = 2.0 * np.einsum("bni,bn->bi", x, y) / n
        evals, evecs = np.linalg.eigh(A)
        ct = np.einsum("bij,bi->bj", evecs, c)
        evals = np.maximum(evals, 0.0)

        def norm_at(mu):
            return np.linalg.norm(ct / (evals + lam + mu[:, None]), axis=1)

        lo = np.zeros(b)
        hi = np.maximum(np.linalg.norm(ct, axis=1) / B, 1.0)
        active = norm_at(lo) > B
        for _ in range(200):
            mid = 0.5 * (lo + hi)
            big = norm_at(mid) > B
            lo = np.where(big, mid, lo)
            hi = np.where(big, hi, mid)
        mu = np.where(active, hi, 0.0)
        W = np.einsum("bij,bj->bi", evecs, ct / (evals + lam + mu[:, None]))
        W = _project(W, B)  # removes rounding excess only (|| || <= B (1 + 1e-15))
    else:
        X2 = np.max(np.sum(x * x, axis=2), axis=1)
        Lsm = X2 / 4.0 + lam
        step = 1.0 / Lsm
        kappa = Lsm / lam
        mom = (np.sqrt(kappa) - 1) / (np.sqrt(kappa) + 1)
        W = np.zeros((b, d))
        V = W.copy()
        for _ in range(max_iter):
            Gr = glm_gradient(V, z, "logistic") + lam * V
            Wn = _project(V - step[:, None] * Gr, B)
            V = Wn + mom[:, None] * (Wn - W)
            moved = np.max(np.linalg.norm(Wn - W, axis=1) / (1 + np.linalg.norm(Wn, axis=1)))
            W = Wn
            if moved < tol:
                break
    return W[0] if single else W


def output_perturbation_sensitivity(loss: str, B: float, x_bound: float, y_bound: float, n: int, lam: float) -> float:
    """l2-sensitivity ``2 G / (n lam)`` of the constrained regularised minimiser (replace-one).

    Parameters
    ----------
    loss : {"squared", "logistic"}
        The GLM loss.
    B : float
        Norm constraint, finite and > 0.
    x_bound : float
        ``X``, finite and > 0.
    y_bound : float
        ``Y``, finite and > 0.
    n : int
        Number of records, ``>= 1``.
    lam : float
        Regularisation, finite and > 0.

    Returns
    -------
    float
        The sensitivity.

    Raises
    ------
    TypeError
        If ``n`` is not an integer or another parameter not a real number.
    ValueError
        If ``loss`` is unknown, ``n < 1``, a real parameter not finite and positive, or the value overflows.

    Notes
    -----
    Proof note ([CMS11] Cor. 8; the constrained version as in [BST14]): let ``F, F'`` be the
    regularised objectives of neighbouring datasets, minimised over the convex ball at
    ``w, w'``.  ``F`` is ``lam``-strongly convex, so ``F(w') - F(w) >= lam/2 ||w - w'||^2`` and
    likewise for ``F'``; adding, ``lam ||w - w'||^2 <= (F - F')(w') - (F - F')(w)``, and
    ``F - F' = (l(.; z) - l(.; z'))/n`` is ``2G/n``-Lipschitz on the ball, so
    ``||w - w'|| <= 2 G / (n lam)``.

    References
    ----------
    .. [1] [CMS11] Cor. 8, [BST14].

    Examples
    --------
    >>> round(output_perturbation_sensitivity("logistic", 1.0, 1.0, 1.0, n=100, lam=0.1), 12)
    0.2
    """
    n = check_integer("n", n, minimum=1)
    lam = check_positive("lam", lam)
    return _finite("sensitivity", 2.0 * lipschitz_constant(loss, B, x_bound, y_bound) / n / lam, n=n, lam=lam)


def output_perturbation_sigma(
    loss: str, B: float, x_bound: float, y_bound: float, n: int, lam: float, epsilon: float, delta: float
) -> float:
    """Gaussian noise ``sigma = Delta_2 sqrt(2 log(1.25/delta)) / epsilon`` ([DR14] Thm 3.22).

    ``Delta_2`` is :func:`output_perturbation_sensitivity`.  The classic calibration is proved
    for ``epsilon < 1`` (the warning it gives for ``epsilon >= 1`` is silenced here); the exact delta is
    checked by claim ``arora.learners.output-perturbation.gaussian-calibration`` with [BW18].

    Parameters
    ----------
    loss : {"squared", "logistic"}
        The GLM loss.
    B : float
        Norm constraint, finite and > 0.
    x_bound : float
        ``X``, finite and > 0.
    y_bound : float
        ``Y``, finite and > 0.
    n : int
        Number of records, ``>= 1``.
    lam : float
        Regularisation, finite and > 0.
    epsilon : float
        Privacy parameter, finite and > 0.
    delta : float
        Privacy parameter, in (0, 1).

    Returns
    -------
    float
        ``sigma``.

    Raises
    ------
    TypeError
        If ``n`` is not an integer or another parameter not a real number.
    ValueError
        If ``loss`` is unknown, ``n < 1``, a real parameter not finite and positive, ``delta`` not in (0, 1),
        or the value overflows.

    References
    ----------
    .. [1] C. Dwork and A. Roth (2014), Thm. 3.22; [CMS11].

    Examples
    --------
    >>> round(output_perturbation_sigma("logistic", 1.0, 1.0, 1.0, 100, 0.1, 0.5, 1e-5), 6)
    1.937922
    """
    sens = output_perturbation_sensitivity(loss, B, x_bound, y_bound, n, lam)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return _finite("sigma", gaussian_sigma(sens, epsilon, delta), sensitivity=sens, epsilon=epsilon)


def default_lambda(loss, B, x_bound, y_bound, n, epsilon):
    """A rate-balancing default ``lam = G / (B sqrt(n)) + G / (B n epsilon)``.

    Any ``lam > 0`` is private; this one balances regularisation bias ``lam B^2`` against the
    statistical and noise terms (as in [BST14]).  It is a default, not part of any claim.
    """
    G = lipschitz_constant(loss, B, x_bound, y_bound)
    return G / (B * math.sqrt(n)) + G / (B * n * epsilon)


def output_perturbation(
    data: ArrayLike,
    loss: str,
    B: float,
    epsilon: float,
    delta: float,
    *,
    x_bound: float,
    y_bound: float,
    lam: float | None = None,
    size: int | None = None,
    rng: RNGLike = None,
) -> NDArray[np.float64]:
    """Regularised ERM over ``||w|| <= B`` plus Gaussian noise: ``w_hat + N(0, sigma^2 I)``.

    Parameters
    ----------
    data : array_like, shape (n, d + 1)
        Domain records ``[x, y]`` (checked by :func:`check_domain`).
    loss : {"squared", "logistic"}
        The GLM loss.
    B : float
        Norm constraint (the guess of ``||w*||`` in [004 Alg. 1]), finite and > 0.
    epsilon, delta : float
        Privacy parameters; (epsilon, delta)-DP by the Gaussian mechanism on the minimiser.
    x_bound, y_bound : float
        ``X`` and ``Y``, finite and > 0.
    lam : float or None, default None
        Regularisation; ``None`` uses :func:`default_lambda`.
    size : int or None, default None
        Number of independent outputs (rows), ``>= 0``; the minimiser is computed once.
    rng : numpy.random.Generator, int, SeedSequence or None, default None
        Source of randomness.

    Returns
    -------
    numpy.ndarray of float64, shape (d,) or (size, d)
        The outputs.  May lie outside the ball ([004 Lemma D.4] accounts for it).

    Raises
    ------
    TypeError
        If ``data`` is not an array of real numbers, a parameter not a real number, ``size`` not an integer,
        or ``rng`` not a generator or seed.
    ValueError
        If a record lies outside the domain, ``loss`` is unknown, ``epsilon``, ``B``, ``lam`` or a bound is
        not finite and positive, ``delta`` not in (0, 1), ``size < 0``, or ``sigma`` overflows.

    References
    ----------
    .. [1] [CMS11], [BST14]; [004 Alg. 1] (the base learner), [004 Lemma D.4].

    Examples
    --------
    >>> from reference.arora.data import make_problem, sample_records
    >>> data = sample_records(make_problem("squared", [0.5, -0.5]), 50, rng=0)
    >>> output_perturbation(data, "squared", 1.0, 0.5, 1e-5, x_bound=1.0, y_bound=2.0, size=3, rng=0).shape
    (3, 2)
    """
    z = check_domain(data, loss, x_bound, y_bound)
    eps = check_epsilon(epsilon)
    dl = check_delta(delta)
    n = z.shape[0]
    lam = default_lambda(loss, B, x_bound, y_bound, n, eps) if lam is None else lam
    sigma = output_perturbation_sigma(loss, B, x_bound, y_bound, n, lam, eps, dl)
    w = regularized_erm(z, loss, B, lam)
    if size is not None:
        size = check_integer("size", size, minimum=0)
    return record_call(
        "gaussian",
        data=w,
        sensitivity=output_perturbation_sensitivity(loss, B, x_bound, y_bound, n, lam),
        norm="l2",
        privacy={"epsilon": eps, "delta": dl},
        law={"center": w, "sigma": sigma},
        public={"shape": w.shape, **({} if size is None else {"batch": (size,)})},
        sample=lambda: gaussian_release(w, sigma, size=size, rng=rng),
        site="[004 Alg. 1] base learner (output perturbation)",
    )


def noisy_gd_rho(epsilon: float, delta: float) -> float:
    """Largest zCDP ``rho`` with ``rho + 2 sqrt(rho log(1/delta)) <= epsilon`` ([BS16] Prop 1.3).

    ``sqrt(rho) = sqrt(log(1/delta) + epsilon) - sqrt(log(1/delta))`` (computed without cancellation).

    Parameters
    ----------
    epsilon : float
        Privacy parameter, finite and > 0.
    delta : float
        Privacy parameter, in (0, 1).

    Returns
    -------
    float
        ``rho``.

    Raises
    ------
    TypeError
        If a parameter is not a real number.
    ValueError
        If ``epsilon`` is not finite and positive or ``delta`` not in (0, 1).

    References
    ----------
    .. [1] [BS16] Prop. 1.3.

    Examples
    --------
    >>> rho = noisy_gd_rho(1.0, 1e-5)
    >>> round(rho + 2 * (rho * math.log(1e5)) ** 0.5, 12)
    1.0
    """
    eps = check_epsilon(epsilon)
    L = math.log(1.0 / check_delta(delta))
    root = eps / (math.sqrt(L + eps) + math.sqrt(L))
    return root * root


def noisy_gd_sigma(
    loss: str, B: float, x_bound: float, y_bound: float, n: int, steps: int, epsilon: float, delta: float
) -> float:
    """Per-step Gaussian noise on the averaged gradient: ``sigma = (2G/n) sqrt(T / (2 rho))``.

    Parameters
    ----------
    loss : {"squared", "logistic"}
        The GLM loss.
    B : float
        Norm constraint, finite and > 0.
    x_bound : float
        ``X``, finite and > 0.
    y_bound : float
        ``Y``, finite and > 0.
    n : int
        Number of records, ``>= 1``.
    steps : int
        Iterations ``T``, ``>= 1``.
    epsilon : float
        Privacy parameter, finite and > 0.
    delta : float
        Privacy parameter, in (0, 1).

    Returns
    -------
    float
        ``sigma``.

    Raises
    ------
    TypeError
        If ``n`` or ``steps`` is not an integer or another parameter not a real number.
    ValueError
        If ``loss`` is unknown, ``n`` or ``steps`` below 1, a real parameter not finite and positive, ``delta``
        not in (0, 1), or the value overflows.

    Notes
    -----
    Derivation: replacing one record moves the average gradient at any ``w`` in the ball by at
    most ``2G/n`` (each per-record gradient has norm ``<= G``).  One noisy step is the Gaussian
    mechanism, ``(2G/n)^2 / (2 sigma^2)``-zCDP ([BS16] Prop 1.6); ``T`` adaptive steps compose
    to ``rho = T (2G/n)^2 / (2 sigma^2)`` ([BS16] Lemma 2.3); projection and averaging are
    post-processing; ``rho``-zCDP implies ``(rho + 2 sqrt(rho log(1/delta)), delta)``-DP
    ([BS16] Prop 1.3), which equals ``epsilon`` at :func:`noisy_gd_rho`.  The exact delta of the
    same noise (``sqrt(T) (2G/n)/sigma``-GDP, [DRS22]) is checked by claim
    ``arora.learners.noisy-gd.calibration``.

    References
    ----------
    .. [1] [BS16] Prop. 1.3, Prop. 1.6, Lemma 2.3; [BST14].

    Examples
    --------
    >>> round(noisy_gd_sigma("logistic", 1.0, 1.0, 1.0, 100, 10, 1.0, 1e-5), 6)
    0.309938
    """
    n = check_integer("n", n, minimum=1)
    T = check_integer("steps", steps, minimum=1)
    sens = 2.0 * lipschitz_constant(loss, B, x_bound, y_bound) / n
    rho = noisy_gd_rho(epsilon, delta)
    return _finite("sigma", sens * math.sqrt(T / 2.0) / math.sqrt(rho), sensitivity=sens, rho=rho)


def noisy_gd(
    data: ArrayLike,
    loss: str,
    B: float,
    epsilon: float,
    delta: float,
    *,
    x_bound: float,
    y_bound: float,
    steps: int | None = None,
    size: int | None = None,
    rng: RNGLike = None,
) -> NDArray[np.float64]:
    """Noisy projected gradient descent over ``||w|| <= B`` ([BST14]), vectorised over draws.

    ``w_{t+1} = Proj_B(w_t - eta (grad L_hat(w_t; S) + N(0, sigma^2 I)))``, ``w_0 = 0``,
    output the average iterate.  ``steps`` defaults to ``n`` (capped at 200);
    ``eta = B / (sqrt(G^2 + d sigma^2) sqrt(T))``, the standard step for convex Lipschitz losses.
    The output always lies in the ball ([004 Lemma D.4], first lemma).

    Parameters
    ----------
    data : array_like, shape (n, d + 1)
        Domain records ``[x, y]`` (checked by :func:`check_domain`).
    loss : {"squared", "logistic"}
        The GLM loss.
    B : float
        Norm constraint, finite and > 0.
    epsilon, delta : float
        Privacy parameters.
    x_bound, y_bound : float
        ``X`` and ``Y``, finite and > 0.
    steps : int or None, default None
        Iterations ``T``; ``min(n, 200)`` by default.
    size : int or None, default None
        Number of independent outputs (rows), ``>= 0``.
    rng : numpy.random.Generator, int, SeedSequence or None, default None
        Source of randomness.

    Returns
    -------
    numpy.ndarray of float64, shape (d,) or (size, d)
        The average iterates.

    Raises
    ------
    TypeError
        If ``data`` is not an array of real numbers, a parameter not a real number, ``steps`` or ``size`` not
        an integer, or ``rng`` not a generator or seed.
    ValueError
        If a record lies outside the domain, ``loss`` is unknown, ``B``, ``epsilon`` or a bound is not finite
        and positive, ``delta`` not in (0, 1), ``steps < 1``, ``size < 0``, or ``sigma`` overflows.

    References
    ----------
    .. [1] [BST14], [BS16]; [004 Alg. 1] (the base learner), [004 Lemma D.4].

    Examples
    --------
    >>> from reference.arora.data import make_problem, sample_records
    >>> data = sample_records(make_problem("squared", [0.5, -0.5]), 50, rng=0)
    >>> W = noisy_gd(data, "squared", 1.0, 0.5, 1e-5, x_bound=1.0, y_bound=2.0, steps=5, size=3, rng=0)
    >>> W.shape, bool((np.linalg.norm(W, axis=1) <= 1.0 + 1e-12).all())
    ((3, 2), True)
    """
    z = check_domain(data, loss, x_bound, y_bound)
    n, d = z.shape[0], z.shape[1] - 1
    B = check_positive("B", B)
    T = min(n, 200) if steps is None else check_integer("steps", steps, minimum=1)
    sigma = noisy_gd_sigma(loss, B, x_bound, y_bound, n, T, epsilon, delta)
    G = lipschitz_constant(loss, B, x_bound, y_bound)
    eta = B / (math.sqrt(G * G + d * sigma * sigma) * math.sqrt(T))
    gen = as_generator(rng)
    m = 1 if size is None else check_integer("size", size, minimum=0)
    W = np.zeros((m, d))
    acc = np.zeros((m, d))
    sens, rho = 2.0 * G / n, noisy_gd_rho(epsilon, delta)  # as noisy_gd_sigma calibrates sigma
    for step in range(T):  # iterations, not data or draws
        exact = glm_gradient(W, z, loss)
        g = record_call(
            "gaussian",
            data=exact,
            sensitivity=sens,
            norm="l2",
            privacy={"rho": rho / T},
            law={"center": exact, "sigma": sigma},
            public={"step": step, "shape": (d,), **({} if size is None else {"batch": (m,)})},
            sample=lambda: gaussian_release(exact, sigma, rng=gen),  # noqa: B023 (called at once)
            site="[004 Alg. 1] base learner (noisy gradient descent step)",
        )
        W = _project(W - eta * g, B)
        acc += W
    out = acc / T
    return out[0] if size is None else out


def delta_noisy_gd(B: float, x_bound: float, y_bound: float, H: float, variant: str = "standard") -> float:
    """``Delta(B)`` of [004 Lemma D.4] (first lemma), a bound on ``l(w; z)`` for ``||w|| <= B``.

    ``"printed"``: ``Y^2 + H B^2 X^2``.  ``"standard"``: ``2 Y^2 + H B^2 X^2``.

    Parameters
    ----------
    B : float
        Norm constraint, finite and > 0.
    x_bound, y_bound : float
        ``X`` and ``Y``, finite and > 0.
    H : float
        Smoothness, finite and > 0.
    variant : {"standard", "printed"}, default "standard"
        Which bound.

    Returns
    -------
    float
        ``Delta(B)``.

    Raises
    ------
    TypeError
        If a parameter is not a real number.
    ValueError
        If a parameter is not finite and positive, ``variant`` is unknown, or the value overflows.

    Notes
    -----
    For ``phi`` non-negative and ``H``-smooth, ``|phi'(0)| <= sqrt(2 H phi(0))`` (self-bounding),
    so ``phi(t) <= phi(0) + |phi'(0)| |t| + H t^2 / 2 <= 2 phi(0) + H t^2``; with
    ``phi(0) <= Y^2`` and ``|t| = |<w, x>| <= B X`` this is the standard bound.  The printed
    bound fails e.g. for the squared loss at ``B = X = Y = 1``: ``(1 + 1)^2 = 4 > 1 + 2``
    (claim ``arora.lemma-d4.noisy-gd`` / printed).

    References
    ----------
    .. [1] [004 Lemma D.4].

    Examples
    --------
    >>> delta_noisy_gd(1.0, 1.0, 1.0, 2.0), delta_noisy_gd(1.0, 1.0, 1.0, 2.0, "printed")
    (4.0, 3.0)
    """
    B = check_positive("B", B)
    X, Y, H = (check_positive(k, v) for k, v in (("x_bound", x_bound), ("y_bound", y_bound), ("H", H)))
    if variant == "printed":
        return _finite("Delta(B)", Y * Y + H * B * B * X * X, B=B, x_bound=X, y_bound=Y)
    if variant == "standard":
        return _finite("Delta(B)", 2 * Y * Y + H * B * B * X * X, B=B, x_bound=X, y_bound=Y)
    raise ValueError(f"variant must be 'printed' or 'standard', got {variant!r}")


def delta_output_perturbation(
    B: float,
    x_bound: float,
    y_bound: float,
    H: float,
    sigma: float,
    K: int,
    delta: float,
    *,
    beta: float | None = None,
    dim: int | None = None,
    variant: str = "standard",
) -> float:
    """``Delta(B)`` of [004 Lemma D.4] (second lemma) for output ``w_hat + b``, ``b ~ N(0, sigma^2 I)``.

    ``"printed"``: ``Y^2 + H X^2 sigma^2 log(K/delta) + H B^2 X^2``.
    ``"standard"``: ``2 Y^2 + 2 H B^2 X^2 + 2 H X^2 sigma^2 q`` with
    ``q = chi2_d.isf(min(delta, beta) / (4K))`` (needs ``beta`` and ``dim``).

    Parameters
    ----------
    B : float
        Norm constraint, finite and > 0.
    x_bound, y_bound : float
        ``X`` and ``Y``, finite and > 0.
    H : float
        Smoothness, finite and > 0.
    sigma : float
        Noise standard deviation, finite and > 0.
    K : int
        Grid size, ``>= 1``.
    delta : float
        The delta of [004 Assumption 1], in (0, 1).
    beta : float or None, default None
        Failure probability, in (0, 1); required by the standard variant.
    dim : int or None, default None
        Dimension, ``>= 1``; required by the standard variant.
    variant : {"standard", "printed"}, default "standard"
        Which bound.

    Returns
    -------
    float
        ``Delta(B)``.

    Raises
    ------
    TypeError
        If ``K`` or ``dim`` is not an integer or another parameter not a real number.
    ValueError
        If a parameter is out of its range, the standard variant lacks ``beta`` or ``dim``, ``variant`` is
        unknown, or the value overflows.

    Notes
    -----
    Standard derivation: ``l(w_hat + b; z) <= 2 Y^2 + H <w_hat + b, x>^2
    <= 2 Y^2 + 2 H B^2 X^2 + 2 H X^2 ||b||^2`` for every domain record at once, and
    ``P[||b||^2 >= sigma^2 q] = min(delta, beta)/(4K)`` exactly, which is [004 Assumption 1].
    The printed bound uses one Gaussian direction and ``log`` instead of a squared deviation;
    its failure probability is computed exactly in claim ``arora.lemma-d4.output-perturbation``.

    References
    ----------
    .. [1] [004 Lemma D.4], [004 Assumption 1].

    Examples
    --------
    >>> round(float(delta_output_perturbation(1.0, 1.0, 1.0, 2.0, 0.1, 4, 1e-5, beta=0.1, dim=2)), 6)
    7.142841
    """
    B = check_positive("B", B)
    X, Y, H, s = (
        check_positive(k, v) for k, v in (("x_bound", x_bound), ("y_bound", y_bound), ("H", H), ("sigma", sigma))
    )
    K = check_integer("K", K, minimum=1)
    dl = check_delta(delta)
    if variant == "printed":
        return _finite("Delta(B)", Y * Y + H * X * X * s * s * math.log(K / dl) + H * B * B * X * X, B=B, sigma=s)
    if variant == "standard":
        if beta is None or dim is None:
            raise ValueError("the standard Delta(B) needs beta and dim")
        bt = check_probability("beta", beta)
        d = check_integer("dim", dim, minimum=1)
        q = stats.chi2.isf(min(dl, bt) / (4 * K), d)
        return _finite("Delta(B)", 2 * Y * Y + 2 * H * B * B * X * X + 2 * H * X * X * s * s * q, B=B, sigma=s)
    raise ValueError(f"variant must be 'printed' or 'standard', got {variant!r}")


class _BaseLearner(Protocol):
    """What [004 Alg. 1] and Boosting need of a base learner (for annotations; :class:`_Learner` implements it)."""

    loss: str
    y_bound: float

    def fit(
        self, data: ArrayLike, B: float, epsilon: float, delta: float, size: int | None, rng: RNGLike = None
    ) -> NDArray[np.float64]: ...

    def loss_bound(
        self,
        B: float,
        n: int,
        epsilon: float,
        delta: float,
        K: int,
        beta: float,
        dim: int,
        variant: str = "standard",
        *,
        delta_total: float | None = None,
    ) -> float: ...


class _Learner:
    """Base-learner protocol used by :mod:`reference.arora.model_selection`.

    ``fit(data, B, epsilon, delta, size, rng) -> (size, d)`` and
    ``loss_bound(B, n, epsilon, delta, K, beta, dim, variant, *, delta_total) -> Delta(B)``.
    """

    def __init__(self, loss, x_bound, y_bound):
        self.loss = _check_loss(loss)
        self.x_bound = check_positive("x_bound", x_bound)
        self.y_bound = check_positive("y_bound", y_bound)
        self.H = smoothness(loss)


class OutputPerturbation(_Learner):
    """Regularised output perturbation as a base learner of [004 Alg. 1] (``lam`` None: :func:`default_lambda`).

    ``fit(data, B, epsilon, delta, size, rng)`` returns ``size`` outputs of :func:`output_perturbation`;
    ``sigma(B, n, epsilon, delta)`` its noise; ``loss_bound(...)`` the ``Delta(B)`` of [004 Lemma D.4].

    Parameters
    ----------
    loss : {"squared", "logistic"}
        The GLM loss.
    x_bound : float
        ``X``, finite and > 0.
    y_bound : float
        ``Y``, finite and > 0.
    lam : float or None, default None
        Regularisation, finite and > 0; :func:`default_lambda` by default.

    Raises
    ------
    TypeError
        If a parameter is not a real number.
    ValueError
        If ``loss`` is unknown or a parameter not finite and positive.

    References
    ----------
    .. [1] [CMS11], [BST14]; [004 Alg. 1], [004 Lemma D.4].

    Examples
    --------
    >>> learner = OutputPerturbation("squared", 1.0, 2.0)
    >>> from reference.arora.data import make_problem, sample_records
    >>> data = sample_records(make_problem("squared", [0.5, -0.5]), 50, rng=0)
    >>> learner.fit(data, 1.0, 0.5, 1e-5, 3, rng=0).shape
    (3, 2)
    """

    name = "output-perturbation"

    def __init__(self, loss: str, x_bound: float, y_bound: float, lam: float | None = None) -> None:
        super().__init__(loss, x_bound, y_bound)
        self.lam = None if lam is None else check_positive("lam", lam)

    def _lam(self, B, n, epsilon):
        return default_lambda(self.loss, B, self.x_bound, self.y_bound, n, epsilon) if self.lam is None else self.lam

    def sigma(self, B: float, n: int, epsilon: float, delta: float) -> float:
        return output_perturbation_sigma(
            self.loss, B, self.x_bound, self.y_bound, n, self._lam(B, n, epsilon), epsilon, delta
        )

    def fit(
        self, data: ArrayLike, B: float, epsilon: float, delta: float, size: int | None, rng: RNGLike = None
    ) -> NDArray[np.float64]:
        n = np.shape(data)[0]
        return output_perturbation(
            data,
            self.loss,
            B,
            epsilon,
            delta,
            x_bound=self.x_bound,
            y_bound=self.y_bound,
            lam=self._lam(B, n, epsilon),
            size=size,
            rng=rng,
        )

    def loss_bound(
        self,
        B: float,
        n: int,
        epsilon: float,
        delta: float,
        K: int,
        beta: float,
        dim: int,
        variant: str = "standard",
        *,
        delta_total: float | None = None,
    ) -> float:
        """``Delta(B)`` for the noise of a run at ``(epsilon, delta)`` on ``n`` records.

        ``delta_total`` is the ``delta`` of [004 Assumption 1] / [004 Lemma D.4] ([004 Alg. 1]'s overall
        delta); it defaults to ``delta``.
        """
        s = self.sigma(B, n, epsilon, delta)
        return delta_output_perturbation(
            B,
            self.x_bound,
            self.y_bound,
            self.H,
            s,
            K,
            delta if delta_total is None else delta_total,
            beta=beta,
            dim=dim,
            variant=variant,
        )


class NoisyGD(_Learner):
    """Noisy projected gradient descent as a base learner of [004 Alg. 1] (``steps`` None: ``min(n, 200)``).

    ``fit(data, B, epsilon, delta, size, rng)`` returns ``size`` outputs of :func:`noisy_gd`;
    ``loss_bound(...)`` the ``Delta(B)`` of [004 Lemma D.4] (first lemma).

    Parameters
    ----------
    loss : {"squared", "logistic"}
        The GLM loss.
    x_bound : float
        ``X``, finite and > 0.
    y_bound : float
        ``Y``, finite and > 0.
    steps : int or None, default None
        Iterations, ``>= 1``; ``min(n, 200)`` by default.

    Raises
    ------
    TypeError
        If a parameter is not a real number, or ``steps`` not an integer.
    ValueError
        If ``loss`` is unknown or a parameter not finite and positive, or ``steps < 1``.

    References
    ----------
    .. [1] [BST14], [BS16]; [004 Alg. 1], [004 Lemma D.4].

    Examples
    --------
    >>> learner = NoisyGD("squared", 1.0, 2.0, steps=5)
    >>> from reference.arora.data import make_problem, sample_records
    >>> data = sample_records(make_problem("squared", [0.5, -0.5]), 50, rng=0)
    >>> learner.fit(data, 1.0, 0.5, 1e-5, 3, rng=0).shape, learner.loss_bound(1.0, 50, 0.5, 1e-5, 4, 0.1, 2)
    ((3, 2), 10.0)
    """

    name = "noisy-gd"

    def __init__(self, loss: str, x_bound: float, y_bound: float, steps: int | None = None) -> None:
        super().__init__(loss, x_bound, y_bound)
        self.steps = None if steps is None else check_integer("steps", steps, minimum=1)

    def fit(
        self, data: ArrayLike, B: float, epsilon: float, delta: float, size: int | None, rng: RNGLike = None
    ) -> NDArray[np.float64]:
        return noisy_gd(
            data,
            self.loss,
            B,
            epsilon,
            delta,
            x_bound=self.x_bound,
            y_bound=self.y_bound,
            steps=self.steps,
            size=size,
            rng=rng,
        )

    def loss_bound(
        self,
        B: float,
        n: int,
        epsilon: float,
        delta: float,
        K: int,
        beta: float,
        dim: int,
        variant: str = "standard",
        *,
        delta_total: float | None = None,
    ) -> float:
        """``Delta(B)`` of [004 Lemma D.4] (first lemma); the output always lies in the ball."""
        return delta_noisy_gd(B, self.x_bound, self.y_bound, self.H, variant)
