"""Boosting of 004 ([004 App. E]): ``m`` private models on disjoint chunks, report-noisy-max on the last chunk.

Variants
--------
``variant`` (the box writes ``Lap(0, sigma_tilde)``; the usual second argument of
``Lap`` is the scale, and the paper nowhere calls ``sigma_tilde^2`` a variance):

``"printed"``     Laplace scale ``sigma_tilde`` (variance ``2 sigma_tilde^2``): the box as written.
``"standard"``    Laplace variance ``sigma_tilde^2`` (scale ``sigma_tilde / sqrt 2``): the other
                  reading of the notation, ours, not the paper's.
``"calibrated"``  Not the paper's: validation losses clipped to ``[0, loss_clip]`` and Laplace
                  scale ``2 loss_clip / (|S_{m+1}| epsilon)`` (about ``2 (m+1) Delta/(n epsilon)``),
                  so the selection is ``epsilon``-DP in ``S_{m+1}`` for any models.

Neither paper reading is calibrated to the sensitivity of the validation scores; claims
``arora.boosting.privacy*`` measure the privacy loss of the selection step and of the output.

References
----------
.. [1] R. Arora, R. Bassily, C. Guzman, M. Menart and E. Ullah, ``004_2b354816f00c2aef.txt``: [004 App. E]
       (the box and its theorem).
.. [2] C. Dwork and A. Roth, "The algorithmic foundations of differential privacy", Claim 3.9
       (report-noisy-max with Laplace noise, non-monotone scores).
"""

from __future__ import annotations

import math

import numpy as np

from ._grid_search import _check_variant, check_learner_output
from .data import glm_loss
from ..mechanisms import report_noisy_max, report_noisy_max_log_prob
from ..records import partition_records
from ..validation import (as_generator, check_choice, check_delta, check_epsilon, check_finite_array, check_integer,
                          check_positive, check_probability)

__all__ = ["boosting_sigma_tilde", "boosting_laplace_scale", "boosting_n0", "boosting_scores", "boosting",
           "BOOSTING_VARIANTS", "calibrated_laplace_scale", "BoostingMechanism", "BoostingSelection"]


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
