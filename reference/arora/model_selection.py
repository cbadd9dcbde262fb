"""Private model selection of 004: Private Grid Search ([004 Alg. 1]) and Boosting ([004 App. E]).

Paper: Arora, Bassily, Guzman, Menart & Ullah, ``004_2b354816f00c2aef.txt``.

Variants
--------
Private Grid Search, ``variant``:

``"printed"``
    As the box reads: penalty ``Delta(B_j) log(K/beta)/n + sqrt(4 Y^2 log(K/beta)/n)``, GEM
    sensitivities ``Delta(B_j)``, and the learner's ``Delta`` function as printed in [004 Lemma D.4].
``"standard"``
    What the proof of [004 Thm. 1] ([004 App. D.2]) uses: penalty ``tau_j`` with ``log(4K/beta)``, GEM
    sensitivity ``Delta(B_j)/|S_2|`` (the actual replace-one sensitivity of the validation
    average of a loss in ``[0, Delta(B_j)]``), and the corrected ``Delta`` functions of
    :mod:`reference.arora.learners`.

Boosting, ``variant`` (the box writes ``Lap(0, sigma_tilde)``; the usual second argument of
``Lap`` is the scale, and the paper nowhere calls ``sigma_tilde^2`` a variance):

``"printed"``     Laplace scale ``sigma_tilde`` (variance ``2 sigma_tilde^2``): the box as written.
``"standard"``    Laplace variance ``sigma_tilde^2`` (scale ``sigma_tilde / sqrt 2``): the other
                  reading of the notation, ours, not the paper's.
``"calibrated"``  Not the paper's: validation losses clipped to ``[0, loss_clip]`` and Laplace
                  scale ``2 loss_clip / (|S_{m+1}| epsilon)`` (about ``2 (m+1) Delta/(n epsilon)``),
                  so the selection is ``epsilon``-DP in ``S_{m+1}`` for any models.

Neither paper reading is calibrated to the sensitivity of the validation scores; claims
``arora.boosting.privacy*`` measure the privacy loss of the selection step and of the output.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import optimize

from .data import glm_loss
from ..mechanisms import gem_log_prob, gem_sample, report_noisy_max, report_noisy_max_log_prob
from ..records import partition_records
from ..validation import (check_choice, as_generator, check_delta, check_epsilon, check_finite_array,
                         check_integer, check_positive, check_probability)

__all__ = ["grid_guesses", "split_in_two", "check_learner_output", "fit_candidates",
           "grid_search_pairs", "grid_search_selection_log_prob", "private_grid_search",
           "GridSearchMechanism", "GridSearchSelection",
           "boosting_sigma_tilde", "boosting_laplace_scale", "boosting_n0", "boosting_scores",
           "boosting", "BOOSTING_VARIANTS", "calibrated_laplace_scale", "BoostingMechanism", "BoostingSelection",
           "gaussian_output_subgaussian_constant", "bounded_output_subgaussian_constant", "subgaussian_mgf",
           "subgaussian_mgf_estimate"]

VARIANTS = ("printed", "standard")


def _check_variant(variant):
    return check_choice("variant", variant, VARIANTS)


def grid_guesses(K):
    """``B_j = 2^j``, ``j = 1..K`` ([004 Alg. 1 step 4])."""
    K = check_integer("K", K, minimum=1)
    return 2.0 ** np.arange(1, K + 1)


def split_in_two(data):
    """[004 Alg. 1 step 1]: ``S_1`` = first ``floor(n/2)`` records, ``S_2`` = the rest.

    A deterministic split keeps neighbouring datasets aligned (a replaced row stays in its half).
    For odd ``n`` the validation half has one record more.
    """
    z = check_finite_array("data", data, ndim=2)
    if z.shape[0] < 2:
        raise ValueError(f"data has {z.shape[0]} records, too few to split into S1 and S2 (need >= 2)")
    n1 = z.shape[0] // 2
    return z[:n1], z[n1:]


def check_learner_output(W, size, dim, *, name="learner"):
    """Reject a base learner output that is not a finite (size, dim) array."""
    try:
        arr = np.asarray(W, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must return an array of floats, got {type(W).__name__}") from None
    if arr.shape != (size, dim):
        raise ValueError(f"{name} returned shape {arr.shape}, expected ({size}, {dim})")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} returned non-finite weights (first at flat index "
                         f"{int(np.flatnonzero(~np.isfinite(arr.ravel()))[0])})")
    return arr


def fit_candidates(S1, learner, K, epsilon, delta, size, rng):
    """[004 Alg. 1 step 3] to [004 Alg. 1 step 5]: ``w_j = A(S_1, B_j)`` at ``(epsilon/(2K), delta/(2K))``; returns (K, size, d)."""
    K = check_integer("K", K, minimum=1)
    gen = as_generator(rng)
    d = S1.shape[1] - 1
    out = np.empty((K, size, d))
    for j, B in enumerate(grid_guesses(K)):         # loop over the K guesses only
        out[j] = check_learner_output(learner.fit(S1, B, epsilon / (2 * K), delta / (2 * K), size, gen),
                                      size, d)
    return out


def grid_search_pairs(candidates, S2, learner, *, n, epsilon, delta, beta, variant="standard"):
    """Sensitivity/score pairs of [004 Alg. 1 step 8] for each draw.

    Parameters
    ----------
    candidates : ndarray (K, size, d)
        ``w_1..w_K`` per draw.
    S2 : ndarray (n2, d+1)
        Validation records.
    learner : base learner (``loss``, ``y_bound``, ``loss_bound``)
    n : int
        Total dataset size (the ``n`` of the penalty).

    Returns
    -------
    sens : ndarray (K+1,)
        ``(0, Delta(B_1), ..., Delta(B_K))`` (printed) or ``(0, Delta(B_j)/n2)`` (standard).
    scores : ndarray (size, K+1)
        ``(Y^2, L~_1, ..., L~_K)`` per draw ([004 Alg. 1 step 6]).
    """
    _check_variant(variant)
    K, size, d = candidates.shape
    n2 = S2.shape[0]
    Y = learner.y_bound
    logt = math.log(K / beta) if variant == "printed" else math.log(4 * K / beta)
    deltas = np.array([learner.loss_bound(B, n - n2, epsilon / (2 * K), delta / (2 * K), K, beta, d,
                                          variant=variant, delta_total=delta) for B in grid_guesses(K)])
    emp = glm_loss(candidates.reshape(K * size, d), S2, learner.loss).mean(axis=1).reshape(K, size)
    pen = deltas * logt / n + math.sqrt(4 * Y * Y * logt / n)
    scores = np.column_stack([np.full(size, Y * Y), (emp + pen[:, None]).T])
    sens = np.concatenate([[0.0], deltas if variant == "printed" else deltas / n2])
    return sens, scores


def grid_search_selection_log_prob(sens, scores, epsilon, beta):
    """Exact GEM selection distribution of [004 Alg. 1 step 8] (GEM of [004 App. D.1]; privacy ``epsilon/2``, confidence ``beta/4``).

    ``scores`` (K+1,) or (size, K+1); returns log-probabilities of the same shape over
    indices ``0..K`` (index 0 is ``w_0 = 0``).
    """
    return gem_log_prob(sens, scores, epsilon / 2, beta / 4)


def _check_common(K, epsilon, delta, beta):
    return (check_integer("K", K, minimum=1), check_epsilon(epsilon), check_delta(delta),
            check_probability("beta", beta))


def private_grid_search(data, learner, K, epsilon, delta, beta, *, variant="standard", size=None,
                        rng=None, return_details=False):
    """[004 Alg. 1] (Private Grid Search), vectorised over ``size`` independent runs.

    Parameters
    ----------
    data : array_like (n, d+1)
        Records ``[x, y]``; ``n >= 2``.
    learner : OutputPerturbation or NoisyGD (or any object with ``fit``, ``loss_bound``,
        ``loss``, ``y_bound``)
        The base algorithm ``A``; it is run at ``(epsilon/(2K), delta/(2K))`` as [004 Thm. 1] requires.
    K : int >= 1
        Number of guesses ``B_j = 2^j``.
    epsilon, delta : float
        Total privacy budget.
    beta : float in (0, 1)
        Confidence.
    variant : {"printed", "standard"}
        See the module docstring.
    size : int or None
        Number of independent runs; ``None`` returns one ``(d,)`` vector.
    rng : Generator or seed
    return_details : bool
        Also return a dict with the candidates, the pairs, the exact GEM log-probabilities and
        the selected indices.

    Returns
    -------
    w : ndarray (d,) or (size, d)
    details : dict (only with ``return_details``)

    Notes
    -----
    Proof note ([004 Thm. 1], privacy): ``S_1`` and ``S_2`` are disjoint, so a replaced record
    changes one of them (parallel composition).  In ``S_1``: the ``K`` learner runs compose to
    ``(epsilon/2, delta/2)`` and GEM is post-processing.  In ``S_2``: given the candidates, GEM is
    ``epsilon/2``-DP whenever every score moves by at most its sensitivity, which holds when the
    losses of the candidates on ``S_2`` and on the new record lie in ``[0, Delta(B_j)]``
    ([004 Assumption 1] applied to both datasets: failure ``<= 2 K min(delta, beta)/(4K) <= delta/2``).
    Total ``(epsilon/2, delta/2)``, within the stated ``(epsilon, delta)``; the paper's sequential
    count [004 App. D.2] gives ``(epsilon, delta)``.  Claims ``arora.thm1.privacy.*`` check both parts.
    """
    K, eps, dl, bt = _check_common(K, epsilon, delta, beta)
    _check_variant(variant)
    z = check_finite_array("data", data, ndim=2)
    S1, S2 = split_in_two(z)
    gen = as_generator(rng)
    m = 1 if size is None else check_integer("size", size, minimum=1)
    cand = fit_candidates(S1, learner, K, eps, dl, m, gen)
    sens, scores = grid_search_pairs(cand, S2, learner, n=z.shape[0], epsilon=eps, delta=dl, beta=bt,
                                     variant=variant)
    logp = grid_search_selection_log_prob(sens, scores, eps, bt)
    jstar = gem_sample(sens, scores, eps / 2, bt / 4, rng=gen)  # one draw per run (row of scores)
    allw = np.concatenate([np.zeros((1, m, cand.shape[2])), cand])
    out = allw[jstar, np.arange(m)]
    w = out[0] if size is None else out
    if return_details:
        return w, {"candidates": cand, "sensitivities": sens, "scores": scores, "log_prob": logp,
                   "selected": jstar, "guesses": grid_guesses(K)}
    return w


class GridSearchMechanism:
    """Mechanism protocol for [004 Alg. 1] (continuous output): ``sample(data, size, rng)`` rows ``w``."""

    finite_output = False

    def __init__(self, learner, K, epsilon, delta, beta, variant="standard"):
        self.K, self.epsilon, self.delta, self.beta = _check_common(K, epsilon, delta, beta)
        self.variant = _check_variant(variant)
        self.learner = learner

    def sample(self, data, size, rng=None):
        return private_grid_search(data, self.learner, self.K, self.epsilon, self.delta, self.beta,
                                   variant=self.variant, size=size, rng=rng)


class GridSearchSelection:
    """The finite-output GEM step of [004 Alg. 1] with the candidates trained once on ``S_1``.

    ``candidate_seed`` fixes the learner's randomness, so neighbouring datasets that differ in
    ``S_2`` see the same candidates; ``log_prob(data)`` is the exact GEM distribution over
    ``0..K``, ``sample`` draws from GEM's sampler.
    """

    finite_output = True

    def __init__(self, learner, K, epsilon, delta, beta, variant="standard", candidate_seed=0):
        self.K, self.epsilon, self.delta, self.beta = _check_common(K, epsilon, delta, beta)
        self.variant = _check_variant(variant)
        self.learner = learner
        self.candidate_seed = candidate_seed
        self._cache = {}

    def pairs(self, data):
        z = check_finite_array("data", data, ndim=2)
        S1, S2 = split_in_two(z)
        key = (S1.shape, S1.tobytes())
        if key not in self._cache:
            self._cache = {key: fit_candidates(S1, self.learner, self.K, self.epsilon, self.delta, 1,
                                               self.candidate_seed)}
        sens, scores = grid_search_pairs(self._cache[key], S2, self.learner, n=z.shape[0],
                                         epsilon=self.epsilon, delta=self.delta, beta=self.beta,
                                         variant=self.variant)
        return sens, scores[0]

    def log_prob(self, data):
        sens, scores = self.pairs(data)
        return np.arange(self.K + 1), grid_search_selection_log_prob(sens, scores, self.epsilon, self.beta)

    def sample(self, data, size, rng=None):
        sens, scores = self.pairs(data)
        return gem_sample(sens, scores, self.epsilon / 2, self.beta / 4, size=size, rng=rng)


# ----------------------------------------------------------------------------- Boosting (App. E)

def boosting_sigma_tilde(n, epsilon, y_bound, smoothness, gamma, x_bound):
    """``sigma_tilde = sqrt(4 (Y^2 + H~ gamma~^2 X^2) / (n epsilon))`` (the theorem of [004 App. E]).

    The theorem writes ``gamma~`` here and ``gamma`` in ``n_0``; both are taken to be the
    sub-Gaussian constant ``gamma`` of condition 2 of that theorem.
    """
    n = check_integer("n", n, minimum=1)
    eps = check_epsilon(epsilon)
    Y, H, g, X = (check_positive(k, v) for k, v in (("y_bound", y_bound), ("smoothness", smoothness),
                                                     ("gamma", gamma), ("x_bound", x_bound)))
    # 2 sqrt(Y^2 + H g^2 X^2) / sqrt(n eps), with hypot so that 1e300 inputs do not overflow early
    val = 2.0 * math.hypot(Y, math.sqrt(H) * g * X) / math.sqrt(n * eps)
    if not math.isfinite(val):
        raise ValueError(f"sigma_tilde overflows float64 for y_bound={Y!r}, gamma={g!r}, x_bound={X!r}")
    return val


def boosting_laplace_scale(sigma_tilde, variant="printed"):
    """Laplace scale of the report-noisy-max step: ``sigma_tilde`` (printed) or ``sigma_tilde/sqrt 2`` (standard)."""
    s = check_positive("sigma_tilde", sigma_tilde)
    return s if _check_variant(variant) == "printed" else s / math.sqrt(2.0)


def boosting_n0(gamma, beta, smoothness, y_bound):
    """``n_0 = 16 gamma^2 log^8(4/beta) H~ / Y^2`` (the theorem of [004 App. E])."""
    g, H, Y = (check_positive(k, v) for k, v in (("gamma", gamma), ("smoothness", smoothness),
                                                  ("y_bound", y_bound)))
    r = g / Y
    val = 16 * r * r * math.log(4 / check_probability("beta", beta)) ** 8 * H
    if not math.isfinite(val):
        raise ValueError(f"n0 overflows float64 for gamma={g!r}, y_bound={Y!r}, smoothness={H!r}")
    return val


BOOSTING_VARIANTS = ("printed", "standard", "calibrated")


def boosting_scores(models, validation, loss, loss_clip=None):
    """``-L_hat(w_i; S_{m+1})`` for models (m, d) or (size, m, d); returns (m,) or (size, m).

    With ``loss_clip`` every loss is clipped to ``[0, loss_clip]`` first (variant ``"calibrated"``),
    so one replaced record moves each score by at most ``loss_clip / |S_{m+1}|``.
    """
    W = np.asarray(models, dtype=np.float64)
    flat = W.reshape(-1, W.shape[-1])
    if loss == "squared":
        # The mean squared loss from the validation set's moments: O(d^2) per model instead of
        # O(|S_{m+1}| d) (the audits score 10^5 models); the same number up to rounding (terms of size
        # (||w|| X + Y)^2: measured 5e-15 absolute, 2e-15 relative on 2e5 models against the per-record mean).
        z = np.asarray(validation, dtype=np.float64)
        x, y = z[:, :-1], z[:, -1]
        # Where the moments overflow (records near 1e154 and beyond: inf - inf) a model takes the per-record
        # mean, as before.
        with np.errstate(over="ignore", invalid="ignore"):
            gram, xy, yy = x.T @ x / len(z), x.T @ y / len(z), float(y @ y) / len(z)
            mean = np.maximum(np.sum((flat @ gram) * flat, axis=1) - 2.0 * (flat @ xy) + yy, 0.0)
        out = mean
        if loss_clip is None:
            near = np.flatnonzero(~np.isfinite(mean))
            if near.size:
                out[near] = glm_loss(flat[near], validation, loss).mean(axis=1)
            return -out.reshape(W.shape[:-1])
        # Clipped: a model whose every loss is below the clip (Cauchy-Schwarz: (<w,x> - y)^2 <= (||w|| ||x|| +
        # |y|)^2, with a 1e-12 margin for rounding) has min(loss, clip) = loss on every record: its mean from
        # the moments too; the other models go record by record.
        clip = check_positive("loss_clip", loss_clip)
        with np.errstate(over="ignore", invalid="ignore"):
            x_max, y_max = float(np.max(np.linalg.norm(x, axis=1))), float(np.max(np.abs(y)))
            reach = (np.linalg.norm(flat, axis=1) * x_max + y_max) ** 2
        near = np.flatnonzero(~(reach * (1.0 + 1e-12) <= clip) | ~np.isfinite(mean))
        if near.size:
            out[near] = np.minimum(glm_loss(flat[near], validation, loss), clip).mean(axis=1)
        return -out.reshape(W.shape[:-1])
    losses = glm_loss(flat, validation, loss)
    if loss_clip is not None:
        losses = np.minimum(losses, check_positive("loss_clip", loss_clip))
    return -losses.mean(axis=1).reshape(W.shape[:-1])


def calibrated_laplace_scale(loss_clip, validation_size, epsilon):
    """``2 loss_clip / (|S_{m+1}| epsilon)``: report-noisy-max on scores of sensitivity
    ``s = loss_clip/|S_{m+1}|`` with Laplace scale ``2 s/epsilon`` is ``epsilon``-DP (Dwork & Roth
    Claim 3.9, non-monotone scores); with ``|S_{m+1}| = n/(m+1)`` this is ``2 (m+1) Delta/(n epsilon)``."""
    c = check_positive("loss_clip", loss_clip)
    v = check_integer("validation_size", validation_size, minimum=1)
    return 2.0 * c / (v * check_epsilon(epsilon))


def _boost_chunks(z, m):
    """The ``m + 1`` disjoint consecutive chunks of [004 App. E] (a remainder is dropped)."""
    return partition_records(z, check_integer("m", m, minimum=1) + 1)


def boosting(data, learner, B, m, epsilon, delta, *, sigma_tilde=None, variant="printed", size=None, rng=None,
             return_details=False, loss_clip=None):
    """Boosting of [004 App. E]: ``m + 1`` chunks, ``m`` private models, report-noisy-max on the last chunk.

    Parameters
    ----------
    data : array_like (n, d+1)
    learner : base learner with ``fit(data, B, epsilon, delta, size, rng)`` and ``loss``
    B : float
        Constraint passed to the learner.
    m : int >= 1
        Number of models.
    epsilon, delta : float
        Each model is trained at ``(epsilon/2, delta)`` (step 2 of the box in [004 App. E]); the chunks are disjoint.
    sigma_tilde : float
        See :func:`boosting_sigma_tilde`; read through :func:`boosting_laplace_scale` (paper variants).
    variant : {"printed", "standard", "calibrated"}
    loss_clip : float
        Clip level ``Delta`` of the validation losses, required by (and only by) ``"calibrated"``.
    size : int or None
        Independent runs (vectorised over the learners' draws).

    Returns
    -------
    w : (d,) or (size, d); details dict with ``return_details``.

    Notes
    -----
    The box runs ``A`` on every chunk ``i in [m+1]`` but selects among ``i in [m]``; the model of
    chunk ``m+1`` is never used, so it is not computed.  Privacy: the models are trained on
    disjoint chunks (parallel composition: ``(epsilon/2, delta)``); report-noisy-max with
    Laplace scale ``b`` on scores of replace-one sensitivity ``s`` is ``2 s / b``-DP, so the
    whole algorithm is ``(epsilon, delta)``-DP iff ``b >= 4 s / epsilon``; ``s`` is
    ``max_z l(w_i; z) / |S_{m+1}|`` and depends on the (random, unbounded) models.  A replaced
    record lies in one chunk only, so by parallel composition the whole algorithm is
    ``(max(epsilon/2, epsilon_selection), delta)``-DP: the selection may spend all of ``epsilon``.
    """
    eps = check_epsilon(epsilon)
    dl = check_delta(delta)
    B = check_positive("B", B)
    z = check_finite_array("data", data, ndim=2)
    chunks = _boost_chunks(z, m)
    scale, loss_clip = _boosting_scale(variant, sigma_tilde, loss_clip, chunks[m].shape[0], eps)
    gen = as_generator(rng)
    k = 1 if size is None else check_integer("size", size, minimum=1)
    d = z.shape[1] - 1
    models = np.stack([check_learner_output(learner.fit(chunks[i], B, eps / 2, dl, k, gen), k, d)
                       for i in range(m)], axis=1)                        # (k, m, d)
    scores = boosting_scores(models, chunks[m], learner.loss, loss_clip)  # (k, m)
    istar = report_noisy_max(scores, scale, rng=gen)  # one draw per run (row of scores)
    out = models[np.arange(k), istar]
    w = out[0] if size is None else out
    if return_details:
        return w, {"models": models, "scores": scores, "selected": istar, "laplace_scale": scale,
                   "validation": chunks[m]}
    return w


def _boosting_scale(variant, sigma_tilde, loss_clip, validation_size, epsilon):
    """``(Laplace scale, clip level or None)`` of a Boosting variant; rejects a parameter the variant does not use."""
    check_choice("variant", variant, BOOSTING_VARIANTS)
    if variant == "calibrated":
        if sigma_tilde is not None:
            raise ValueError(f"variant 'calibrated' sets its own scale; got sigma_tilde={sigma_tilde!r}")
        if loss_clip is None:
            raise ValueError("variant 'calibrated' needs loss_clip (the clip level Delta of the losses)")
        return calibrated_laplace_scale(loss_clip, validation_size, epsilon), loss_clip
    if loss_clip is not None:
        raise ValueError(f"loss_clip is used by variant 'calibrated' only; got loss_clip={loss_clip!r} "
                         f"with variant {variant!r}")
    if sigma_tilde is None:
        raise ValueError(f"variant {variant!r} needs sigma_tilde")
    return boosting_laplace_scale(sigma_tilde, variant), None


class BoostingMechanism:
    """Mechanism protocol for the Boosting algorithm (continuous output).

    ``variant`` is one of :data:`BOOSTING_VARIANTS`: the paper's readings take ``sigma_tilde``;
    ``"calibrated"`` takes ``loss_clip`` instead (``sigma_tilde=None``), as :func:`boosting` does.
    """

    finite_output = False

    def __init__(self, learner, B, m, epsilon, delta, sigma_tilde, variant="printed", loss_clip=None):
        self.learner, self.B, self.m = learner, check_positive("B", B), check_integer("m", m, minimum=1)
        self.epsilon, self.delta = check_epsilon(epsilon), check_delta(delta)
        self.variant = check_choice("variant", variant, BOOSTING_VARIANTS)
        # the same parameter rules as boosting() (validation size 1 only to run them now, not at sampling)
        _boosting_scale(self.variant, sigma_tilde, loss_clip, 1, self.epsilon)
        self.sigma_tilde = None if sigma_tilde is None else check_positive("sigma_tilde", sigma_tilde)
        self.loss_clip = None if loss_clip is None else check_positive("loss_clip", loss_clip)

    def sample(self, data, size, rng=None):
        return boosting(data, self.learner, self.B, self.m, self.epsilon, self.delta,
                        sigma_tilde=self.sigma_tilde, variant=self.variant, size=size, rng=rng,
                        loss_clip=self.loss_clip)


class BoostingSelection:
    """The finite-output report-noisy-max step with the ``m`` models trained once (seeded)."""

    finite_output = True

    def __init__(self, learner, B, m, epsilon, delta, sigma_tilde, variant="printed", model_seed=0):
        self.inner = BoostingMechanism(learner, B, m, epsilon, delta, sigma_tilde, _check_variant(variant))
        self.model_seed = model_seed
        self._cache = {}

    def scores(self, data):
        z = check_finite_array("data", data, ndim=2)
        chunks = _boost_chunks(z, self.inner.m)
        train = np.concatenate(chunks[:-1])
        key = train.tobytes()
        if key not in self._cache:
            gen = as_generator(self.model_seed)
            d = z.shape[1] - 1
            self._cache = {key: np.stack([check_learner_output(
                self.inner.learner.fit(c, self.inner.B, self.inner.epsilon / 2, self.inner.delta, 1, gen), 1, d)[0]
                for c in chunks[:-1]])}
        return boosting_scores(self._cache[key], chunks[-1], self.inner.learner.loss)

    @property
    def scale(self):
        return boosting_laplace_scale(self.inner.sigma_tilde, self.inner.variant)

    def log_prob(self, data):
        s = self.scores(data)
        return np.arange(s.size), report_noisy_max_log_prob(s, self.scale)

    def sample(self, data, size, rng=None):
        return report_noisy_max(self.scores(data), self.scale, size, rng)


# ----------------------------------------------------------------- sub-Gaussian condition (App. E)

def subgaussian_mgf(mean, sigma, gamma):
    """``E exp((mean + sigma Z)^2 / gamma^2)`` for ``Z ~ N(0, 1)``, in closed form (``inf`` if ``gamma^2 <= 2 sigma^2``).

    ``= (1 - 2 sigma^2/gamma^2)^{-1/2} exp(mean^2 / (gamma^2 - 2 sigma^2))``.
    """
    s = check_positive("sigma", sigma)
    g = check_positive("gamma", gamma)
    mu = np.asarray(mean, dtype=np.float64)
    rs = s / g                                   # ratios keep 1e300 / subnormal inputs finite
    if 2 * rs * rs >= 1:
        return np.full(mu.shape, np.inf)[()]
    with np.errstate(over="ignore"):
        rm = mu / g
        return (np.exp(-0.5 * math.log1p(-2 * rs * rs) + rm * rm / (1 - 2 * rs * rs)))[()]


def gaussian_output_subgaussian_constant(mean_bound, sigma):
    """Smallest ``gamma`` with ``sup_{||u||=1} E exp(<A, u>^2/gamma^2) <= 2`` for ``A = w + N(0, sigma^2 I)``, ``||w|| <= mean_bound``.

    Condition 2 of the theorem of [004 App. E] for output perturbation: ``<A, u> ~ N(<w, u>, sigma^2)``
    and the sup over ``u`` puts ``|<w, u>| = mean_bound``; the MGF is increasing in the mean,
    decreasing in ``gamma``, so the root of ``mgf = 2`` is found by ``brentq`` in log space.
    """
    mb = float(mean_bound)
    if not math.isfinite(mb) or mb < 0:
        raise ValueError(f"mean_bound must be finite and >= 0, got {mean_bound!r}")
    s = check_positive("sigma", sigma)
    # gamma is homogeneous: gamma(c mb, c s) = c gamma(mb, s); solve at scale c = max(mb, s) so
    # that 1e300 and subnormal inputs neither overflow nor divide by zero
    c = max(mb, s)
    mb, s = mb / c, s / c

    def f(g):
        gap = (g - math.sqrt(2) * s) * (g + math.sqrt(2) * s)
        return -0.5 * math.log1p(-2 * (s / g) ** 2) + mb * mb / gap - math.log(2.0)

    # at both lower end points f >= 0: the first term blows up at sqrt(2) s, the second
    # is >= log 2 at mb / sqrt(log 2)
    lo = max(math.sqrt(2) * s * (1 + 1e-9), mb / math.sqrt(math.log(2.0)) * (1 - 1e-9))
    hi = 2.0 * max(lo, 1.0) + 10.0
    while f(hi) > 0:
        hi *= 2
    root = lo if f(lo) <= 0 else optimize.brentq(f, lo, hi, xtol=1e-15, rtol=1e-14)
    if not math.isfinite(c * root):
        raise ValueError(f"gamma for mean_bound={mean_bound!r}, sigma={sigma!r} exceeds the float64 range")
    return c * root


def bounded_output_subgaussian_constant(norm_bound):
    """``gamma = R / sqrt(log 2)`` for outputs with ``||A|| <= R`` (e.g. noisy projected GD, ``R = B``).

    ``<A, u>^2 <= R^2`` for unit ``u``, so ``E exp(<A, u>^2/gamma^2) <= exp(R^2/gamma^2) = 2``.
    """
    return check_positive("norm_bound", norm_bound) / math.sqrt(math.log(2.0))


def subgaussian_mgf_estimate(samples, gamma, *, directions=64, rng=None):
    """Monte Carlo estimate of ``sup_u E exp(<A, u>^2 / gamma^2)`` from output draws (rows).

    Checks condition 2 of the theorem of [004 App. E] for any learner: directions are the
    coordinate axes, the mean direction and ``directions`` random unit vectors; the mean of
    ``exp`` is formed in log space, so huge draws give ``inf`` rather than ``NaN``.
    Returns ``(estimate, direction)``.
    """
    A = check_finite_array("samples", samples, ndim=2)
    g = check_positive("gamma", gamma)
    gen = as_generator(rng)
    d = A.shape[1]
    # scale first so that 1e300 entries overflow neither the mean direction nor the dot products
    amax = float(np.max(np.abs(A))) or 1.0
    As = A / amax
    U = np.vstack([np.eye(d), As.mean(axis=0, keepdims=True), gen.normal(size=(directions, d))])
    nrm = np.linalg.norm(U, axis=1)
    U = U[nrm > 0] / nrm[nrm > 0, None]
    proj = As @ U.T
    with np.errstate(over="ignore"):
        expo = (proj * (amax / g)) ** 2                      # (n, dirs), may be inf
        top = expo.max(axis=0)
        logm = top + np.log(np.mean(np.exp(expo - np.where(np.isfinite(top), top, 0.0)), axis=0))
    logm = np.where(np.isfinite(top), logm, np.inf)
    k = int(np.argmax(logm))
    return float(np.exp(logm[k])) if logm[k] < 709 else math.inf, U[k]
