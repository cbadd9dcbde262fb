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

import numpy as np
from scipy import stats

from .data import LOSSES
from ..mechanisms import gaussian_release, gaussian_sigma
from ..validation import (check_choice, as_generator, check_delta, check_epsilon, check_finite_array,
                         check_integer, check_positive, check_probability)

__all__ = ["smoothness", "lipschitz_constant", "check_domain", "regularized_erm", "glm_gradient",
           "output_perturbation_sensitivity", "output_perturbation_sigma", "output_perturbation",
           "noisy_gd_rho", "noisy_gd_sigma", "noisy_gd", "delta_noisy_gd",
           "delta_output_perturbation", "OutputPerturbation", "NoisyGD"]


def _finite(name, value, **inputs):
    """Return ``value`` if finite, else raise: a bound that overflows float64 is an error, not inf."""
    if not math.isfinite(value):
        args = ", ".join(f"{k}={v!r}" for k, v in inputs.items())
        raise ValueError(f"{name} overflows float64 for {args}")
    return value


def _check_loss(loss):
    return check_choice("loss", loss, LOSSES)


def smoothness(loss):
    """``H`` such that ``t -> l(t, y)`` is ``H``-smooth: 2 for ``(t - y)^2``, 1/4 for logistic."""
    return 2.0 if _check_loss(loss) == "squared" else 0.25


def lipschitz_constant(loss, B, x_bound, y_bound):
    """Lipschitz constant ``G`` of ``w -> l(w; z)`` on ``||w|| <= B`` for every domain record.

    Squared: ``||2(<w,x> - y) x|| <= 2 (B X + Y) X``.  Logistic: ``||y x sigmoid(-y<w,x>)|| <= X``.
    """
    _check_loss(loss)
    B = check_positive("B", B)
    X = check_positive("x_bound", x_bound)
    Y = check_positive("y_bound", y_bound)
    return _finite("lipschitz_constant", 2.0 * (B * X + Y) * X if loss == "squared" else X,
                   B=B, x_bound=X, y_bound=Y)


def check_domain(data, loss, x_bound, y_bound, *, name="data"):
    """Return ``data`` (n, d+1) after checking every record lies in the learner's domain."""
    z = check_finite_array(name, data, ndim=2)
    if z.shape[1] < 2:
        raise ValueError(f"{name} must have records [x_1..x_d, y] with d >= 1, got shape {z.shape}")
    X = check_positive("x_bound", x_bound)
    Y = check_positive("y_bound", y_bound)
    x, y = z[:, :-1], z[:, -1]
    amax = np.max(np.abs(x), axis=1)
    safe = np.where(amax > 0, amax, 1.0)
    r = np.linalg.norm(x / safe[:, None], axis=1)          # ||x|| = safe * r, no overflow
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


def glm_gradient(W, records, loss):
    """Gradient of the empirical loss at each row of ``W`` (m, d); returns (m, d).

    ``records`` may carry a leading batch axis matching ``W``'s: ``W`` (b, d), ``records`` (b, n, d+1).
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
        m = W @ x.T                     # (m, n)
    if loss == "squared":
        r = 2.0 * (m - y)
    else:
        r = -y * 0.5 * (1 - np.tanh(0.5 * y * m))      # -y sigmoid(-y m), no overflow
    if x.ndim == 3:
        return np.einsum("bn,bnd->bd", r, x) / x.shape[1]
    return r @ x / x.shape[0]


def _project(W, B):
    nrm = np.linalg.norm(W, axis=-1, keepdims=True)
    return W * np.minimum(1.0, B / np.where(nrm > 0, nrm, 1.0))


def regularized_erm(data, loss, B, lam, *, tol=1e-13, max_iter=20000):
    """``argmin_{||w|| <= B} (1/n) sum l(w; z_i) + (lam/2) ||w||^2`` to float64 accuracy.

    Parameters
    ----------
    data : array_like, shape (n, d+1) or (b, n, d+1)
        One dataset or a batch of ``b`` datasets (solved together, vectorised).
    loss : {"squared", "logistic"}
    B, lam : float
        Constraint radius and regularisation (strong convexity) parameter.

    Returns
    -------
    ndarray, shape (d,) or (b, d)

    Notes
    -----
    Squared loss: the KKT conditions give ``w(mu) = (2 X^T X / n + (lam + mu) I)^{-1} 2 X^T y / n``
    with ``mu >= 0`` the multiplier of the ball, found by bisection on ``||w(mu)|| = B`` in the
    eigenbasis (exact up to rounding).  Logistic loss: accelerated projected gradient descent
    for the ``lam``-strongly convex, ``(||x||^2/4 + lam)``-smooth objective, run until the
    iterates move by less than ``tol * (1 + ||w||)``.
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
        W = _project(W, B)           # removes rounding excess only (|| || <= B (1 + 1e-15))
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


def output_perturbation_sensitivity(loss, B, x_bound, y_bound, n, lam):
    """l2-sensitivity ``2 G / (n lam)`` of the constrained regularised minimiser (replace-one).

    Notes
    -----
    Proof note ([CMS11] Cor. 8; the constrained version as in [BST14]): let ``F, F'`` be the
    regularised objectives of neighbouring datasets, minimised over the convex ball at
    ``w, w'``.  ``F`` is ``lam``-strongly convex, so ``F(w') - F(w) >= lam/2 ||w - w'||^2`` and
    likewise for ``F'``; adding, ``lam ||w - w'||^2 <= (F - F')(w') - (F - F')(w)``, and
    ``F - F' = (l(.; z) - l(.; z'))/n`` is ``2G/n``-Lipschitz on the ball, so
    ``||w - w'|| <= 2 G / (n lam)``.
    """
    n = check_integer("n", n, minimum=1)
    lam = check_positive("lam", lam)
    return _finite("sensitivity", 2.0 * lipschitz_constant(loss, B, x_bound, y_bound) / n / lam, n=n, lam=lam)


def output_perturbation_sigma(loss, B, x_bound, y_bound, n, lam, epsilon, delta):
    """Gaussian noise ``sigma = Delta_2 sqrt(2 log(1.25/delta)) / epsilon`` ([DR14] Thm 3.22).

    ``Delta_2`` is :func:`output_perturbation_sensitivity`.  The classic calibration is proved
    for ``epsilon < 1``; the exact delta is checked by claim
    ``arora.learners.output-perturbation.gaussian-calibration`` with [BW18].
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


def output_perturbation(data, loss, B, epsilon, delta, *, x_bound, y_bound, lam=None, size=None,
                        rng=None):
    """Regularised ERM over ``||w|| <= B`` plus Gaussian noise: ``w_hat + N(0, sigma^2 I)``.

    Parameters
    ----------
    data : array_like (n, d+1)
        Domain records ``[x, y]`` (checked by :func:`check_domain`).
    loss : {"squared", "logistic"}
    B : float
        Norm constraint (the guess of ``||w*||`` in [004 Alg. 1]).
    epsilon, delta : float
        Privacy parameters; (epsilon, delta)-DP by the Gaussian mechanism on the minimiser.
    x_bound, y_bound : float
    lam : float or None
        Regularisation; ``None`` uses :func:`default_lambda`.
    size : int or None
        Number of independent outputs (rows); the minimiser is computed once.
    rng : Generator or seed

    Returns
    -------
    ndarray (d,) or (size, d).  May lie outside the ball ([004 Lemma D.4] accounts for it).
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
    return gaussian_release(w, sigma, size=size, rng=rng)


def noisy_gd_rho(epsilon, delta):
    """Largest zCDP ``rho`` with ``rho + 2 sqrt(rho log(1/delta)) <= epsilon`` ([BS16] Prop 1.3).

    ``sqrt(rho) = sqrt(log(1/delta) + epsilon) - sqrt(log(1/delta))`` (computed without cancellation).
    """
    eps = check_epsilon(epsilon)
    L = math.log(1.0 / check_delta(delta))
    root = eps / (math.sqrt(L + eps) + math.sqrt(L))
    return root * root


def noisy_gd_sigma(loss, B, x_bound, y_bound, n, steps, epsilon, delta):
    """Per-step Gaussian noise on the averaged gradient: ``sigma = (2G/n) sqrt(T / (2 rho))``.

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
    """
    n = check_integer("n", n, minimum=1)
    T = check_integer("steps", steps, minimum=1)
    sens = 2.0 * lipschitz_constant(loss, B, x_bound, y_bound) / n
    rho = noisy_gd_rho(epsilon, delta)
    return _finite("sigma", sens * math.sqrt(T / 2.0) / math.sqrt(rho), sensitivity=sens, rho=rho)


def noisy_gd(data, loss, B, epsilon, delta, *, x_bound, y_bound, steps=None, size=None, rng=None):
    """Noisy projected gradient descent over ``||w|| <= B`` ([BST14]), vectorised over draws.

    ``w_{t+1} = Proj_B(w_t - eta (grad L_hat(w_t; S) + N(0, sigma^2 I)))``, ``w_0 = 0``,
    output the average iterate.  ``steps`` defaults to ``n`` (capped at 200);
    ``eta = B / (sqrt(G^2 + d sigma^2) sqrt(T))``, the standard step for convex Lipschitz losses.
    The output always lies in the ball ([004 Lemma D.4], first lemma).

    Returns
    -------
    ndarray (d,) or (size, d)
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
    for _ in range(T):                     # iterations, not data or draws
        g = gaussian_release(glm_gradient(W, z, loss), sigma, rng=gen)
        W = _project(W - eta * g, B)
        acc += W
    out = acc / T
    return out[0] if size is None else out


def delta_noisy_gd(B, x_bound, y_bound, H, variant="standard"):
    """``Delta(B)`` of [004 Lemma D.4] (first lemma), a bound on ``l(w; z)`` for ``||w|| <= B``.

    ``"printed"``: ``Y^2 + H B^2 X^2``.  ``"standard"``: ``2 Y^2 + H B^2 X^2``.

    Notes
    -----
    For ``phi`` non-negative and ``H``-smooth, ``|phi'(0)| <= sqrt(2 H phi(0))`` (self-bounding),
    so ``phi(t) <= phi(0) + |phi'(0)| |t| + H t^2 / 2 <= 2 phi(0) + H t^2``; with
    ``phi(0) <= Y^2`` and ``|t| = |<w, x>| <= B X`` this is the standard bound.  The printed
    bound fails e.g. for the squared loss at ``B = X = Y = 1``: ``(1 + 1)^2 = 4 > 1 + 2``
    (claim ``arora.lemma-d4.noisy-gd`` / printed).
    """
    B = check_positive("B", B)
    X, Y, H = (check_positive(k, v) for k, v in (("x_bound", x_bound), ("y_bound", y_bound), ("H", H)))
    if variant == "printed":
        return _finite("Delta(B)", Y * Y + H * B * B * X * X, B=B, x_bound=X, y_bound=Y)
    if variant == "standard":
        return _finite("Delta(B)", 2 * Y * Y + H * B * B * X * X, B=B, x_bound=X, y_bound=Y)
    raise ValueError(f"variant must be 'printed' or 'standard', got {variant!r}")


def delta_output_perturbation(B, x_bound, y_bound, H, sigma, K, delta, *, beta=None, dim=None,
                              variant="standard"):
    """``Delta(B)`` of [004 Lemma D.4] (second lemma) for output ``w_hat + b``, ``b ~ N(0, sigma^2 I)``.

    ``"printed"``: ``Y^2 + H X^2 sigma^2 log(K/delta) + H B^2 X^2``.
    ``"standard"``: ``2 Y^2 + 2 H B^2 X^2 + 2 H X^2 sigma^2 q`` with
    ``q = chi2_d.isf(min(delta, beta) / (4K))`` (needs ``beta`` and ``dim``).

    Notes
    -----
    Standard derivation: ``l(w_hat + b; z) <= 2 Y^2 + H <w_hat + b, x>^2
    <= 2 Y^2 + 2 H B^2 X^2 + 2 H X^2 ||b||^2`` for every domain record at once, and
    ``P[||b||^2 >= sigma^2 q] = min(delta, beta)/(4K)`` exactly, which is [004 Assumption 1].
    The printed bound uses one Gaussian direction and ``log`` instead of a squared deviation;
    its failure probability is computed exactly in claim ``arora.lemma-d4.output-perturbation``.
    """
    B = check_positive("B", B)
    X, Y, H, s = (check_positive(k, v) for k, v in
                  (("x_bound", x_bound), ("y_bound", y_bound), ("H", H), ("sigma", sigma)))
    K = check_integer("K", K, minimum=1)
    dl = check_delta(delta)
    if variant == "printed":
        return _finite("Delta(B)", Y * Y + H * X * X * s * s * math.log(K / dl) + H * B * B * X * X,
                       B=B, sigma=s)
    if variant == "standard":
        if beta is None or dim is None:
            raise ValueError("the standard Delta(B) needs beta and dim")
        bt = check_probability("beta", beta)
        d = check_integer("dim", dim, minimum=1)
        q = stats.chi2.isf(min(dl, bt) / (4 * K), d)
        return _finite("Delta(B)", 2 * Y * Y + 2 * H * B * B * X * X + 2 * H * X * X * s * s * q, B=B, sigma=s)
    raise ValueError(f"variant must be 'printed' or 'standard', got {variant!r}")


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
    """Regularised output perturbation (``lam`` None: :func:`default_lambda`)."""

    name = "output-perturbation"

    def __init__(self, loss, x_bound, y_bound, lam=None):
        super().__init__(loss, x_bound, y_bound)
        self.lam = None if lam is None else check_positive("lam", lam)

    def _lam(self, B, n, epsilon):
        return default_lambda(self.loss, B, self.x_bound, self.y_bound, n, epsilon) if self.lam is None else self.lam

    def sigma(self, B, n, epsilon, delta):
        return output_perturbation_sigma(self.loss, B, self.x_bound, self.y_bound, n,
                                         self._lam(B, n, epsilon), epsilon, delta)

    def fit(self, data, B, epsilon, delta, size, rng=None):
        n = np.shape(data)[0]
        return output_perturbation(data, self.loss, B, epsilon, delta, x_bound=self.x_bound,
                                   y_bound=self.y_bound, lam=self._lam(B, n, epsilon), size=size, rng=rng)

    def loss_bound(self, B, n, epsilon, delta, K, beta, dim, variant="standard", *, delta_total=None):
        """``Delta(B)`` for the noise of a run at ``(epsilon, delta)`` on ``n`` records.

        ``delta_total`` is the ``delta`` of [004 Assumption 1] / [004 Lemma D.4] ([004 Alg. 1]'s overall
        delta); it defaults to ``delta``.
        """
        s = self.sigma(B, n, epsilon, delta)
        return delta_output_perturbation(B, self.x_bound, self.y_bound, self.H, s, K,
                                         delta if delta_total is None else delta_total,
                                         beta=beta, dim=dim, variant=variant)


class NoisyGD(_Learner):
    """Noisy projected gradient descent (``steps`` None: ``min(n, 200)``)."""

    name = "noisy-gd"

    def __init__(self, loss, x_bound, y_bound, steps=None):
        super().__init__(loss, x_bound, y_bound)
        self.steps = None if steps is None else check_integer("steps", steps, minimum=1)

    def fit(self, data, B, epsilon, delta, size, rng=None):
        return noisy_gd(data, self.loss, B, epsilon, delta, x_bound=self.x_bound, y_bound=self.y_bound,
                        steps=self.steps, size=size, rng=rng)

    def loss_bound(self, B, n, epsilon, delta, K, beta, dim, variant="standard", *, delta_total=None):
        """``Delta(B)`` of [004 Lemma D.4] (first lemma); the output always lies in the ball."""
        return delta_noisy_gd(B, self.x_bound, self.y_bound, self.H, variant)
