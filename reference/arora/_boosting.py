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
from typing import TYPE_CHECKING, cast

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..mechanisms import record_call, report_noisy_max, report_noisy_max_log_prob
from ..records import partition_records
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
from ._grid_search import _check_variant, check_learner_output
from .data import glm_loss

if TYPE_CHECKING:
    from .learners import _BaseLearner

__all__ = [
    "boosting_sigma_tilde",
    "boosting_laplace_scale",
    "boosting_n0",
    "boosting_scores",
    "boosting",
    "BOOSTING_VARIANTS",
    "calibrated_laplace_scale",
    "BoostingMechanism",
    "BoostingSelection",
]


def boosting_sigma_tilde(
    n: int, epsilon: float, y_bound: float, smoothness: float, gamma: float, x_bound: float
) -> float:
    """``sigma_tilde = sqrt(4 (Y^2 + H~ gamma~^2 X^2) / (n epsilon))`` (the theorem of [004 App. E]).

    The theorem writes ``gamma~`` here and ``gamma`` in ``n_0``; both are taken to be the
    sub-Gaussian constant ``gamma`` of condition 2 of that theorem.

    Parameters
    ----------
    n : int
        Sample size, ``>= 1``.
    epsilon : float
        Privacy parameter, finite and > 0.
    y_bound : float
        ``Y``, finite and > 0.
    smoothness : float
        ``H~``, finite and > 0.
    gamma : float
        The sub-Gaussian constant, finite and > 0.
    x_bound : float
        ``X``, finite and > 0.

    Returns
    -------
    float
        ``sigma_tilde``.

    Raises
    ------
    TypeError
        If ``n`` is not an integer or a parameter is not a real number.
    ValueError
        If a parameter is not finite and positive, ``n < 1``, or the value overflows float64.

    References
    ----------
    .. [1] [004 App. E].

    Examples
    --------
    >>> round(boosting_sigma_tilde(100, 1.0, 1.0, 2.0, 1.0, 1.0), 6)
    0.34641
    """
    n = check_integer("n", n, minimum=1)
    eps = check_epsilon(epsilon)
    Y, H, g, X = (
        check_positive(k, v)
        for k, v in (("y_bound", y_bound), ("smoothness", smoothness), ("gamma", gamma), ("x_bound", x_bound))
    )
    # 2 sqrt(Y^2 + H g^2 X^2) / sqrt(n eps), with hypot so that 1e300 inputs do not overflow early
    val = 2.0 * math.hypot(Y, math.sqrt(H) * g * X) / math.sqrt(n * eps)
    if not math.isfinite(val):
        raise ValueError(f"sigma_tilde overflows float64 for y_bound={Y!r}, gamma={g!r}, x_bound={X!r}")
    return val


def boosting_laplace_scale(sigma_tilde: float, variant: str = "printed") -> float:
    """Laplace scale of the report-noisy-max step: ``sigma_tilde`` (printed) or ``sigma_tilde/sqrt 2`` (standard).

    Parameters
    ----------
    sigma_tilde : float
        ``sigma_tilde``, finite and > 0.
    variant : {"printed", "standard"}, default "printed"
        The reading of ``Lap(sigma_tilde)``.

    Returns
    -------
    float
        The Laplace scale.

    Raises
    ------
    TypeError
        If ``sigma_tilde`` is not a real number.
    ValueError
        If ``sigma_tilde`` is not finite and positive, or ``variant`` is not ``"printed"`` or ``"standard"``.

    References
    ----------
    .. [1] [004 App. E] (step 3 of the box).

    Examples
    --------
    >>> boosting_laplace_scale(2.0), round(boosting_laplace_scale(2.0, "standard"), 6)
    (2.0, 1.414214)
    """
    s = check_positive("sigma_tilde", sigma_tilde)
    return s if _check_variant(variant) == "printed" else s / math.sqrt(2.0)


def boosting_n0(gamma: float, beta: float, smoothness: float, y_bound: float) -> float:
    """``n_0 = 16 gamma^2 log^8(4/beta) H~ / Y^2`` (the theorem of [004 App. E]).

    Parameters
    ----------
    gamma : float
        The sub-Gaussian constant, finite and > 0.
    beta : float
        Failure probability, in (0, 1).
    smoothness : float
        ``H~``, finite and > 0.
    y_bound : float
        ``Y``, finite and > 0.

    Returns
    -------
    float
        ``n_0``.

    Raises
    ------
    TypeError
        If a parameter is not a real number.
    ValueError
        If a parameter is not finite and positive, ``beta`` is not in (0, 1), or the value overflows float64.

    References
    ----------
    .. [1] [004 App. E].

    Examples
    --------
    >>> f"{boosting_n0(1.0, 0.1, 2.0, 1.0):.4e}"
    '1.0973e+06'
    """
    g, H, Y = (check_positive(k, v) for k, v in (("gamma", gamma), ("smoothness", smoothness), ("y_bound", y_bound)))
    r = g / Y
    val = 16 * r * r * math.log(4 / check_probability("beta", beta)) ** 8 * H
    if not math.isfinite(val):
        raise ValueError(f"n0 overflows float64 for gamma={g!r}, y_bound={Y!r}, smoothness={H!r}")
    return val


BOOSTING_VARIANTS = ("printed", "standard", "calibrated")


def boosting_scores(
    models: ArrayLike, validation: ArrayLike, loss: str, loss_clip: float | None = None
) -> NDArray[np.float64]:
    """``-L_hat(w_i; S_{m+1})`` for models (m, d) or (size, m, d); returns (m,) or (size, m).

    With ``loss_clip`` every loss is clipped to ``[0, loss_clip]`` first (variant ``"calibrated"``),
    so one replaced record moves each score by at most ``loss_clip / |S_{m+1}|``.

    Parameters
    ----------
    models : array_like, shape (m, d) or (size, m, d)
        The models.
    validation : array_like, shape (v, d + 1)
        The validation chunk ``S_{m+1}`` (not validated: :func:`boosting` validates the data).
    loss : {"squared", "logistic"}
        The GLM loss.
    loss_clip : float or None, default None
        Clip level of the losses, finite and > 0.

    Returns
    -------
    numpy.ndarray of float64, shape (m,) or (size, m)
        The scores (negated mean validation losses).

    Raises
    ------
    TypeError
        If ``loss_clip`` is not a real number.
    ValueError
        If ``loss_clip`` is not finite and positive, or ``loss`` is unknown.

    References
    ----------
    .. [1] [004 App. E] (step 3 of the box).

    Examples
    --------
    >>> boosting_scores([[0.0, 0.0], [1.0, 0.0]], [[1.0, 0.0, 1.0], [0.0, 1.0, 3.0]], "squared")
    array([-5. , -4.5])
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


def calibrated_laplace_scale(loss_clip: float, validation_size: int, epsilon: float) -> float:
    """``2 loss_clip / (|S_{m+1}| epsilon)``: the Laplace scale that makes the selection ``epsilon``-DP.

    Report-noisy-max on scores of sensitivity ``s = loss_clip/|S_{m+1}|`` with Laplace scale ``2 s/epsilon``
    is ``epsilon``-DP (Dwork & Roth Claim 3.9, non-monotone scores); with ``|S_{m+1}| = n/(m+1)`` this is
    ``2 (m+1) Delta/(n epsilon)``.

    Parameters
    ----------
    loss_clip : float
        Clip level ``Delta`` of the losses, finite and > 0.
    validation_size : int
        ``|S_{m+1}|``, ``>= 1``.
    epsilon : float
        Privacy parameter, finite and > 0.

    Returns
    -------
    float
        The Laplace scale.

    Raises
    ------
    TypeError
        If ``validation_size`` is not an integer or another parameter not a real number.
    ValueError
        If ``validation_size < 1`` or another parameter is not finite and positive.

    References
    ----------
    .. [1] C. Dwork and A. Roth (2014), Claim 3.9; [004 App. E].

    Examples
    --------
    >>> calibrated_laplace_scale(4.0, 20, 0.5)
    0.8
    """
    c = check_positive("loss_clip", loss_clip)
    v = check_integer("validation_size", validation_size, minimum=1)
    return 2.0 * c / (v * check_epsilon(epsilon))


def _boost_chunks(z, m):
    """The ``m + 1`` disjoint consecutive chunks of [004 App. E] (a remainder is dropped)."""
    return partition_records(z, check_integer("m", m, minimum=1) + 1)


def boosting(
    data: ArrayLike,
    learner: _BaseLearner,
    B: float,
    m: int,
    epsilon: float,
    delta: float,
    *,
    sigma_tilde: float | None = None,
    variant: str = "printed",
    size: int | None = None,
    rng: RNGLike = None,
    return_details: bool = False,
    loss_clip: float | None = None,
) -> NDArray[np.float64] | tuple[NDArray[np.float64], dict]:
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
    rng : numpy.random.Generator, int, SeedSequence or None, default None
        Source of randomness (the learners' and the selection's).
    return_details : bool, default False
        Also return a dict with the models, the scores, the selected indices, the Laplace scale and the
        validation chunk.

    Returns
    -------
    w : (d,) or (size, d); details dict with ``return_details``.

    Raises
    ------
    TypeError
        If ``data`` is not an array of real numbers, ``m`` or ``size`` not an integer, a parameter not a real
        number, or ``rng`` not a generator or seed.
    ValueError
        If ``data`` is not a non-empty finite 2-D array with at least one record per chunk, ``B``, ``epsilon``,
        ``sigma_tilde`` or ``loss_clip`` is not finite and positive, ``delta`` not in (0, 1), ``m < 1``,
        ``size < 1``, ``variant`` unknown, ``sigma_tilde`` / ``loss_clip`` given or missing against the variant's
        rule, or the learner rejects its input or returns a non-finite output.

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

    References
    ----------
    .. [1] [004 App. E]; C. Dwork and A. Roth (2014), Claim 3.9.

    Examples
    --------
    >>> from reference.arora.data import make_problem, sample_records
    >>> from reference.arora.learners import OutputPerturbation
    >>> data = sample_records(make_problem("squared", [0.5, -0.5]), 60, rng=0)
    >>> w, details = boosting(data, OutputPerturbation("squared", 1.0, 2.0), 1.0, 2, 1.0, 1e-5, sigma_tilde=0.5,
    ...                       rng=0, return_details=True)
    >>> w.shape, details["models"].shape, details["laplace_scale"]
    ((2,), (1, 2, 2), 0.5)
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
    models = np.stack(
        [check_learner_output(learner.fit(chunks[i], B, eps / 2, dl, k, gen), k, d) for i in range(m)], axis=1
    )  # (k, m, d)
    scores = boosting_scores(models, chunks[m], learner.loss, loss_clip)  # (k, m)
    istar = record_call(  # one draw per run (row of scores)
        "report_noisy_max",
        data=scores,
        # the scores' replace-one sensitivity loss_clip / |S_{m+1}| is declared by the calibrated variant only; the
        # paper's readings set the scale from sigma_tilde and state no bound (inf)
        sensitivity=math.inf if loss_clip is None else loss_clip / chunks[m].shape[0],
        norm="linf",
        privacy={"epsilon": eps},
        law={"scores": scores, "scale": scale},
        public={"m": m, **({} if size is None else {"batch": (k,)})},
        sample=lambda: report_noisy_max(scores, scale, rng=gen),
        site="[004 App. E step 3]",
    )
    out = models[np.arange(k), istar]
    w = out[0] if size is None else out
    if return_details:
        return w, {
            "models": models,
            "scores": scores,
            "selected": istar,
            "laplace_scale": scale,
            "validation": chunks[m],
        }
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
        raise ValueError(
            f"loss_clip is used by variant 'calibrated' only; got loss_clip={loss_clip!r} with variant {variant!r}"
        )
    if sigma_tilde is None:
        raise ValueError(f"variant {variant!r} needs sigma_tilde")
    return boosting_laplace_scale(sigma_tilde, variant), None


class BoostingMechanism:
    """The Boosting algorithm of [004 App. E] in the mechanism protocol (continuous output).

    ``sample(data, size, rng)`` returns ``size`` rows of :func:`boosting`.  ``variant`` is one of
    :data:`BOOSTING_VARIANTS`: the paper's readings take ``sigma_tilde``; ``"calibrated"`` takes ``loss_clip``
    instead (``sigma_tilde=None``), as :func:`boosting` does.

    Parameters
    ----------
    learner : OutputPerturbation, NoisyGD or any object with ``fit`` and ``loss``
        The base algorithm.
    B : float
        Constraint passed to the learner, finite and > 0.
    m : int
        Number of models, ``>= 1``.
    epsilon : float
        Privacy parameter, finite and > 0.
    delta : float
        Privacy parameter, in (0, 1).
    sigma_tilde : float or None
        See :func:`boosting_sigma_tilde`; ``None`` with ``"calibrated"``.
    variant : {"printed", "standard", "calibrated"}, default "printed"
        The reading of the selection's noise.
    loss_clip : float or None, default None
        Clip level of the validation losses, required by (and only by) ``"calibrated"``.

    Raises
    ------
    TypeError
        If ``m`` is not an integer or another parameter not a real number.
    ValueError
        If ``B``, ``epsilon`` or ``sigma_tilde`` is not finite and positive, ``m < 1``, ``delta`` not in (0, 1),
        ``variant`` unknown, or ``sigma_tilde`` / ``loss_clip`` given or missing against the variant's rule; from
        the methods, as :func:`boosting`.

    References
    ----------
    .. [1] [004 App. E].

    Examples
    --------
    >>> from reference.arora.data import make_problem, sample_records
    >>> from reference.arora.learners import OutputPerturbation
    >>> data = sample_records(make_problem("squared", [0.5, -0.5]), 60, rng=0)
    >>> learner = OutputPerturbation("squared", 1.0, 2.0)
    >>> BoostingMechanism(learner, 1.0, 2, 1.0, 1e-5, sigma_tilde=0.5).sample(data, 3, rng=0).shape
    (3, 2)
    """

    finite_output = False

    def __init__(
        self,
        learner: _BaseLearner,
        B: float,
        m: int,
        epsilon: float,
        delta: float,
        sigma_tilde: float | None,
        variant: str = "printed",
        loss_clip: float | None = None,
    ) -> None:
        self.learner, self.B, self.m = learner, check_positive("B", B), check_integer("m", m, minimum=1)
        self.epsilon, self.delta = check_epsilon(epsilon), check_delta(delta)
        self.variant = check_choice("variant", variant, BOOSTING_VARIANTS)
        # the same parameter rules as boosting() (validation size 1 only to run them now, not at sampling)
        _boosting_scale(self.variant, sigma_tilde, loss_clip, 1, self.epsilon)
        self.sigma_tilde = None if sigma_tilde is None else check_positive("sigma_tilde", sigma_tilde)
        self.loss_clip = None if loss_clip is None else check_positive("loss_clip", loss_clip)

    def sample(self, data: ArrayLike, size: int | None, rng: RNGLike = None) -> NDArray[np.float64]:
        # without return_details the outputs alone, not the (outputs, details) pair
        return cast(
            NDArray[np.float64],
            boosting(
                data,
                self.learner,
                self.B,
                self.m,
                self.epsilon,
                self.delta,
                sigma_tilde=self.sigma_tilde,
                variant=self.variant,
                size=size,
                rng=rng,
                loss_clip=self.loss_clip,
            ),
        )


class BoostingSelection:
    """The finite-output report-noisy-max step of Boosting with the ``m`` models trained once (seeded).

    ``scores(data)`` are the validation scores of the models, ``scale`` the Laplace scale,
    ``log_prob(data)`` the exact selection law over ``0..m-1`` and ``sample(data, size, rng)`` selections.

    Parameters
    ----------
    learner : OutputPerturbation, NoisyGD or any object with ``fit`` and ``loss``
        The base algorithm.
    B : float
        Constraint passed to the learner, finite and > 0.
    m : int
        Number of models, ``>= 1``.
    epsilon : float
        Privacy parameter, finite and > 0.
    delta : float
        Privacy parameter, in (0, 1).
    sigma_tilde : float or None
        See :func:`boosting_sigma_tilde`; ``None`` with ``"calibrated"``.
    variant : {"printed", "standard"}, default "printed"
        The reading of the selection's noise.
    model_seed : int, numpy.random.Generator, SeedSequence or None, default 0
        The randomness of the models.

    Raises
    ------
    TypeError
        If ``m`` is not an integer or another parameter not a real number.
    ValueError
        If ``B``, ``epsilon`` or ``sigma_tilde`` is not finite and positive, ``m < 1``, ``delta`` not in (0, 1),
        ``variant`` unknown, or ``sigma_tilde`` missing; from the methods, as :func:`boosting`.

    References
    ----------
    .. [1] [004 App. E]; C. Dwork and A. Roth (2014), Claim 3.9.

    Examples
    --------
    >>> from reference.arora.data import make_problem, sample_records
    >>> from reference.arora.learners import OutputPerturbation
    >>> data = sample_records(make_problem("squared", [0.5, -0.5]), 60, rng=0)
    >>> learner = OutputPerturbation("squared", 1.0, 2.0)
    >>> outputs, logp = BoostingSelection(learner, 1.0, 2, 1.0, 1e-5, sigma_tilde=0.5).log_prob(data)
    >>> outputs.tolist(), round(float(np.exp(logp).sum()), 9)
    ([0, 1], 1.0)
    """

    finite_output = True

    def __init__(
        self,
        learner: _BaseLearner,
        B: float,
        m: int,
        epsilon: float,
        delta: float,
        sigma_tilde: float | None,
        variant: str = "printed",
        model_seed: RNGLike = 0,
    ) -> None:
        self.inner = BoostingMechanism(learner, B, m, epsilon, delta, sigma_tilde, _check_variant(variant))
        self.model_seed = model_seed
        self._cache: dict[bytes, NDArray[np.float64]] = {}  # the last training chunks -> their models

    def scores(self, data: ArrayLike) -> NDArray[np.float64]:
        z = check_finite_array("data", data, ndim=2)
        chunks = _boost_chunks(z, self.inner.m)
        train = np.concatenate(chunks[:-1])
        key = train.tobytes()
        if key not in self._cache:
            gen = as_generator(self.model_seed)
            d = z.shape[1] - 1
            self._cache = {
                key: np.stack(
                    [
                        check_learner_output(
                            self.inner.learner.fit(c, self.inner.B, self.inner.epsilon / 2, self.inner.delta, 1, gen),
                            1,
                            d,
                        )[0]
                        for c in chunks[:-1]
                    ]
                )
            }
        return boosting_scores(self._cache[key], chunks[-1], self.inner.learner.loss)

    @property
    def scale(self) -> float:
        sigma_tilde = self.inner.sigma_tilde
        if sigma_tilde is None:  # the "calibrated" variant has no sigma_tilde: check_positive's error
            raise TypeError("sigma_tilde must be a real number, got None of type NoneType")
        return boosting_laplace_scale(sigma_tilde, self.inner.variant)

    def log_prob(self, data: ArrayLike) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
        s = self.scores(data)
        return np.arange(s.size), report_noisy_max_log_prob(s, self.scale)

    def sample(self, data: ArrayLike, size: int | None, rng: RNGLike = None) -> int | NDArray[np.int64]:
        return report_noisy_max(self.scores(data), self.scale, size, rng)
