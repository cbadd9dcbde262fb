"""Private Grid Search of 004 ([004 Alg. 1]): candidates on ``S_1``, GEM selection on ``S_2``.

Variants
--------
``variant``:

``"printed"``
    As the box reads: penalty ``Delta(B_j) log(K/beta)/n + sqrt(4 Y^2 log(K/beta)/n)``, GEM
    sensitivities ``Delta(B_j)``, and the learner's ``Delta`` function as printed in [004 Lemma D.4].
``"standard"``
    What the proof of [004 Thm. 1] ([004 App. D.2]) uses: penalty ``tau_j`` with ``log(4K/beta)``, GEM
    sensitivity ``Delta(B_j)/|S_2|`` (the actual replace-one sensitivity of the validation
    average of a loss in ``[0, Delta(B_j)]``), and the corrected ``Delta`` functions of
    :mod:`reference.arora.learners`.

References
----------
.. [1] R. Arora, R. Bassily, C. Guzman, M. Menart and E. Ullah, ``004_2b354816f00c2aef.txt``: [004 Alg. 1],
       [004 Thm. 1] and its proof [004 App. D.2], GEM [004 App. D.1], [004 Lemma D.4], [004 Assumption 1].
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, cast

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..mechanisms import gem_log_prob, gem_sample, record_call
from ..validation import (
    RNGLike,
    as_generator,
    check_choice,
    check_delta,
    check_epsilon,
    check_finite_array,
    check_integer,
    check_probability,
)
from .data import glm_loss

if TYPE_CHECKING:
    from .learners import _BaseLearner

__all__ = [
    "grid_guesses",
    "split_in_two",
    "check_learner_output",
    "fit_candidates",
    "grid_search_pairs",
    "grid_search_selection_log_prob",
    "private_grid_search",
    "GridSearchMechanism",
    "GridSearchSelection",
    "VARIANTS",
]

VARIANTS = ("printed", "standard")


def _check_variant(variant):
    return check_choice("variant", variant, VARIANTS)


def grid_guesses(K: int) -> NDArray[np.float64]:
    """``B_j = 2^j``, ``j = 1..K`` ([004 Alg. 1 step 4]).

    Parameters
    ----------
    K : int
        Number of guesses, ``>= 1``.

    Returns
    -------
    numpy.ndarray of float64, shape (K,)
        The guesses.

    Raises
    ------
    TypeError
        If ``K`` is not an integer.
    ValueError
        If ``K < 1``.

    References
    ----------
    .. [1] [004 Alg. 1 step 4].

    Examples
    --------
    >>> grid_guesses(3)
    array([2., 4., 8.])
    """
    K = check_integer("K", K, minimum=1)
    return 2.0 ** np.arange(1, K + 1, dtype=np.float64)


def split_in_two(data: ArrayLike) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """[004 Alg. 1 step 1]: ``S_1`` = first ``floor(n/2)`` records, ``S_2`` = the rest.

    A deterministic split keeps neighbouring datasets aligned (a replaced row stays in its half).
    For odd ``n`` the validation half has one record more.

    Parameters
    ----------
    data : array_like, shape (n, d + 1)
        Records, finite, ``n >= 2``.

    Returns
    -------
    S1 : numpy.ndarray of float64, shape (n // 2, d + 1)
        The training half.
    S2 : numpy.ndarray of float64, shape (n - n // 2, d + 1)
        The validation half.

    Raises
    ------
    TypeError
        If ``data`` is not an array of real numbers.
    ValueError
        If ``data`` is not a non-empty finite 2-D array, or has fewer than 2 records.

    References
    ----------
    .. [1] [004 Alg. 1 step 1].

    Examples
    --------
    >>> S1, S2 = split_in_two(np.arange(10.0).reshape(5, 2))
    >>> S1.shape, S2.shape
    ((2, 2), (3, 2))
    """
    z = check_finite_array("data", data, ndim=2)
    if z.shape[0] < 2:
        raise ValueError(f"data has {z.shape[0]} records, too few to split into S1 and S2 (need >= 2)")
    n1 = z.shape[0] // 2
    return z[:n1], z[n1:]


def check_learner_output(W: ArrayLike, size: int, dim: int, *, name: str = "learner") -> NDArray[np.float64]:
    """Reject a base learner output that is not a finite (size, dim) array.

    Parameters
    ----------
    W : array_like
        The output.
    size : int
        Expected number of rows.
    dim : int
        Expected number of columns.
    name : str, default "learner"
        Name in error messages.

    Returns
    -------
    numpy.ndarray of float64, shape (size, dim)
        The output.

    Raises
    ------
    TypeError
        If ``W`` is not an array of floats.
    ValueError
        If ``W`` has another shape or a non-finite entry.

    References
    ----------
    .. [1] [004 Alg. 1 step 5] (the candidates ``w_j = A(S_1, B_j)``).

    Examples
    --------
    >>> check_learner_output([[1.0, 2.0]], 1, 2)
    array([[1., 2.]])
    >>> check_learner_output([[1.0, 2.0]], 2, 2)
    Traceback (most recent call last):
    ValueError: learner returned shape (1, 2), expected (2, 2)
    """
    try:
        arr = np.asarray(W, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must return an array of floats, got {type(W).__name__}") from None
    if arr.shape != (size, dim):
        raise ValueError(f"{name} returned shape {arr.shape}, expected ({size}, {dim})")
    if not np.all(np.isfinite(arr)):
        raise ValueError(
            f"{name} returned non-finite weights (first at flat index "
            f"{int(np.flatnonzero(~np.isfinite(arr.ravel()))[0])})"
        )
    return arr


def fit_candidates(
    S1: NDArray[np.float64], learner: _BaseLearner, K: int, epsilon: float, delta: float, size: int, rng: RNGLike
) -> NDArray[np.float64]:
    """[004 Alg. 1 step 3] to [004 Alg. 1 step 5]: ``w_j = A(S_1, B_j)`` at ``(epsilon/(2K), delta/(2K))``.

    Parameters
    ----------
    S1 : numpy.ndarray, shape (n1, d + 1)
        The training half.
    learner : OutputPerturbation, NoisyGD or any object with ``fit`` and ``loss_bound``
        The base algorithm ``A``.
    K : int
        Number of guesses, ``>= 1``.
    epsilon, delta : float
        Total privacy budget (each run gets ``1/(2K)`` of it).
    size : int
        Independent draws per guess.
    rng : numpy.random.Generator, int, SeedSequence or None
        Source of randomness, shared by the ``K`` runs.

    Returns
    -------
    numpy.ndarray of float64, shape (K, size, d)
        The candidates.

    Raises
    ------
    TypeError
        If ``K`` is not an integer, ``rng`` not a generator or seed, or the learner's output not an array of
        floats.
    ValueError
        If ``K < 1``, or the learner's output is not a finite (size, d) array (or the learner rejects its input).

    References
    ----------
    .. [1] [004 Alg. 1 steps 3-5], [004 Thm. 1].

    Examples
    --------
    >>> from reference.arora.data import make_problem, sample_records
    >>> from reference.arora.learners import OutputPerturbation
    >>> data = sample_records(make_problem("squared", [0.5, -0.5]), 40, rng=0)
    >>> learner = OutputPerturbation("squared", 1.0, 2.0)
    >>> fit_candidates(data[:20], learner, K=3, epsilon=1.0, delta=1e-5, size=2, rng=0).shape
    (3, 2, 2)
    """
    K = check_integer("K", K, minimum=1)
    gen = as_generator(rng)
    d = S1.shape[1] - 1
    out = np.empty((K, size, d))
    for j, B in enumerate(grid_guesses(K)):  # loop over the K guesses only
        out[j] = check_learner_output(learner.fit(S1, B, epsilon / (2 * K), delta / (2 * K), size, gen), size, d)
    return out


def grid_search_pairs(
    candidates: NDArray[np.float64],
    S2: NDArray[np.float64],
    learner: _BaseLearner,
    *,
    n: int,
    epsilon: float,
    delta: float,
    beta: float,
    variant: str = "standard",
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Sensitivity/score pairs of [004 Alg. 1 step 8] for each draw.

    Parameters
    ----------
    candidates : ndarray (K, size, d)
        ``w_1..w_K`` per draw.
    S2 : ndarray (n2, d+1)
        Validation records.
    learner : OutputPerturbation, NoisyGD or any object with ``loss``, ``y_bound`` and ``loss_bound``
        The base algorithm.
    n : int
        Total dataset size (the ``n`` of the penalty).
    epsilon, delta : float
        Total privacy budget (the learner's ``Delta(B_j)`` is taken at ``(epsilon/(2K), delta/(2K))``).
    beta : float
        Confidence, in (0, 1).
    variant : {"printed", "standard"}, default "standard"
        See the module docstring.

    Returns
    -------
    sens : ndarray (K+1,)
        ``(0, Delta(B_1), ..., Delta(B_K))`` (printed) or ``(0, Delta(B_j)/n2)`` (standard).
    scores : ndarray (size, K+1)
        ``(Y^2, L~_1, ..., L~_K)`` per draw ([004 Alg. 1 step 6]).

    Raises
    ------
    ValueError
        If ``variant`` is unknown, or the learner's ``loss_bound`` rejects its arguments.
    ZeroDivisionError
        If ``beta`` is 0 (not validated here: :func:`private_grid_search` validates it first).

    References
    ----------
    .. [1] [004 Alg. 1 steps 6-8], [004 Lemma D.4], [004 App. D.2].

    Examples
    --------
    >>> from reference.arora.data import make_problem, sample_records
    >>> from reference.arora.learners import OutputPerturbation
    >>> data = sample_records(make_problem("squared", [0.5, -0.5]), 40, rng=0)
    >>> learner = OutputPerturbation("squared", 1.0, 2.0)
    >>> cand = fit_candidates(data[:20], learner, K=3, epsilon=1.0, delta=1e-5, size=2, rng=0)
    >>> sens, scores = grid_search_pairs(cand, data[20:], learner, n=40, epsilon=1.0, delta=1e-5, beta=0.1)
    >>> sens.shape, scores.shape
    ((4,), (2, 4))
    """
    _check_variant(variant)
    K, size, d = candidates.shape
    n2 = S2.shape[0]
    Y = learner.y_bound
    logt = math.log(K / beta) if variant == "printed" else math.log(4 * K / beta)
    deltas = np.array(
        [
            learner.loss_bound(
                B, n - n2, epsilon / (2 * K), delta / (2 * K), K, beta, d, variant=variant, delta_total=delta
            )
            for B in grid_guesses(K)
        ]
    )
    emp = glm_loss(candidates.reshape(K * size, d), S2, learner.loss).mean(axis=1).reshape(K, size)
    pen = deltas * logt / n + math.sqrt(4 * Y * Y * logt / n)
    scores = np.column_stack([np.full(size, Y * Y), (emp + pen[:, None]).T])
    sens = np.concatenate([[0.0], deltas if variant == "printed" else deltas / n2])
    return sens, scores


def grid_search_selection_log_prob(
    sens: ArrayLike, scores: ArrayLike, epsilon: float, beta: float
) -> NDArray[np.float64]:
    """Exact GEM selection distribution of [004 Alg. 1 step 8] (privacy ``epsilon/2``, confidence ``beta/4``).

    The GEM of [004 App. D.1] on the pairs of :func:`grid_search_pairs`.

    Parameters
    ----------
    sens : array_like, shape (K + 1,)
        The sensitivities.
    scores : array_like, shape (K + 1,) or (size, K + 1)
        The scores.
    epsilon : float
        Total privacy budget, finite and > 0 (GEM spends half).
    beta : float
        Confidence, in (0, 1) (GEM uses ``beta/4``).

    Returns
    -------
    numpy.ndarray of float64
        Log-probabilities of the shape of ``scores`` over indices ``0..K`` (index 0 is ``w_0 = 0``).

    Raises
    ------
    TypeError
        If an array is not an array of real numbers or a parameter not a real number.
    ValueError
        As :func:`reference.mechanisms.gem_log_prob` (non-finite scores, negative sensitivities, mismatched
        shapes, parameters out of range).

    References
    ----------
    .. [1] [004 Alg. 1 step 8], [004 App. D.1].

    Examples
    --------
    >>> logp = grid_search_selection_log_prob([0.0, 1.0, 1.0], [1.0, 0.5, 3.0], epsilon=1.0, beta=0.1)
    >>> logp.shape, round(float(np.exp(logp).sum()), 9)
    ((3,), 1.0)
    """
    return gem_log_prob(sens, scores, epsilon / 2, beta / 4)


def _check_common(K, epsilon, delta, beta):
    return (
        check_integer("K", K, minimum=1),
        check_epsilon(epsilon),
        check_delta(delta),
        check_probability("beta", beta),
    )


def private_grid_search(
    data: ArrayLike,
    learner: _BaseLearner,
    K: int,
    epsilon: float,
    delta: float,
    beta: float,
    *,
    variant: str = "standard",
    size: int | None = None,
    rng: RNGLike = None,
    return_details: bool = False,
) -> NDArray[np.float64] | tuple[NDArray[np.float64], dict]:
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

    Raises
    ------
    TypeError
        If ``data`` is not an array of real numbers, ``K`` or ``size`` not an integer, a privacy parameter not
        a real number, or ``rng`` not a generator or seed.
    ValueError
        If ``data`` is not a finite 2-D array of at least 2 records, ``K < 1``, ``epsilon`` not finite and
        positive, ``delta`` or ``beta`` not in (0, 1), ``variant`` unknown, ``size < 1``, or the learner rejects
        its input or returns a non-finite output.

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

    References
    ----------
    .. [1] [004 Alg. 1], [004 Thm. 1] and its proof [004 App. D.2], [004 App. D.1], [004 Assumption 1].

    Examples
    --------
    >>> from reference.arora.data import make_problem, sample_records
    >>> from reference.arora.learners import OutputPerturbation
    >>> data = sample_records(make_problem("squared", [0.5, -0.5]), 40, rng=0)
    >>> w, details = private_grid_search(data, OutputPerturbation("squared", 1.0, 2.0), 3, 1.0, 1e-5, 0.1, rng=0,
    ...                                  return_details=True)
    >>> w.shape, details["guesses"].tolist()
    ((2,), [2.0, 4.0, 8.0])
    """
    K, eps, dl, bt = _check_common(K, epsilon, delta, beta)
    _check_variant(variant)
    z = check_finite_array("data", data, ndim=2)
    S1, S2 = split_in_two(z)
    gen = as_generator(rng)
    m = 1 if size is None else check_integer("size", size, minimum=1)
    cand = fit_candidates(S1, learner, K, eps, dl, m, gen)
    sens, scores = grid_search_pairs(cand, S2, learner, n=z.shape[0], epsilon=eps, delta=dl, beta=bt, variant=variant)
    logp = grid_search_selection_log_prob(sens, scores, eps, bt)
    jstar = record_call(  # one draw per run (row of scores)
        "gem",
        data=scores,
        sensitivity=float(np.max(sens)),
        norm="linf",
        privacy={"epsilon": eps / 2},
        law={"log_weights": logp},
        public={
            "k": sens.size,
            "sensitivities": sens,
            "epsilon": eps / 2,
            "beta": bt / 4,
            **({} if size is None else {"batch": (m,)}),
        },
        sample=lambda: gem_sample(sens, scores, eps / 2, bt / 4, rng=gen),
        site="[004 Alg. 1 step 8]",
    )
    allw = np.concatenate([np.zeros((1, m, cand.shape[2])), cand])
    out = allw[jstar, np.arange(m)]
    w = out[0] if size is None else out
    if return_details:
        return w, {
            "candidates": cand,
            "sensitivities": sens,
            "scores": scores,
            "log_prob": logp,
            "selected": jstar,
            "guesses": grid_guesses(K),
        }
    return w


class GridSearchMechanism:
    """[004 Alg. 1] in the mechanism protocol (continuous output): ``sample(data, size, rng)`` rows ``w``.

    Parameters
    ----------
    learner : OutputPerturbation, NoisyGD or any object with ``fit`` and ``loss_bound``
        The base algorithm.
    K : int
        Number of guesses, ``>= 1``.
    epsilon, delta : float
        Total privacy budget.
    beta : float
        Confidence, in (0, 1).
    variant : {"printed", "standard"}, default "standard"
        See the module docstring.

    Raises
    ------
    TypeError
        If ``K`` is not an integer or ``epsilon``, ``delta`` or ``beta`` not a real number.
    ValueError
        If ``K < 1``, ``epsilon`` is not finite and positive, ``delta`` or ``beta`` not in (0, 1), or
        ``variant`` unknown.

    References
    ----------
    .. [1] [004 Alg. 1], [004 Thm. 1].

    Examples
    --------
    >>> from reference.arora.data import make_problem, sample_records
    >>> from reference.arora.learners import OutputPerturbation
    >>> data = sample_records(make_problem("squared", [0.5, -0.5]), 40, rng=0)
    >>> learner = OutputPerturbation("squared", 1.0, 2.0)
    >>> GridSearchMechanism(learner, 3, 1.0, 1e-5, 0.1).sample(data, 2, rng=0).shape
    (2, 2)
    """

    finite_output = False

    def __init__(
        self, learner: _BaseLearner, K: int, epsilon: float, delta: float, beta: float, variant: str = "standard"
    ) -> None:
        self.K, self.epsilon, self.delta, self.beta = _check_common(K, epsilon, delta, beta)
        self.variant = _check_variant(variant)
        self.learner = learner

    def sample(self, data: ArrayLike, size: int | None, rng: RNGLike = None) -> NDArray[np.float64]:
        # without return_details the candidates alone, not the (candidates, details) pair
        return cast(
            NDArray[np.float64],
            private_grid_search(
                data,
                self.learner,
                self.K,
                self.epsilon,
                self.delta,
                self.beta,
                variant=self.variant,
                size=size,
                rng=rng,
            ),
        )


class GridSearchSelection:
    """The finite-output GEM step of [004 Alg. 1] with the candidates trained once on ``S_1``.

    ``candidate_seed`` fixes the learner's randomness, so neighbouring datasets that differ in
    ``S_2`` see the same candidates; ``log_prob(data)`` is the exact GEM distribution over
    ``0..K``, ``sample`` draws from GEM's sampler, ``pairs(data)`` gives GEM's (sensitivities, scores).

    Parameters
    ----------
    learner : OutputPerturbation, NoisyGD or any object with ``fit`` and ``loss_bound``
        The base algorithm.
    K : int
        Number of guesses, ``>= 1``.
    epsilon, delta : float
        Total privacy budget.
    beta : float
        Confidence, in (0, 1).
    variant : {"printed", "standard"}, default "standard"
        See the module docstring.
    candidate_seed : int, numpy.random.Generator, SeedSequence or None, default 0
        The randomness of the candidates.

    Raises
    ------
    TypeError
        If ``K`` is not an integer or ``epsilon``, ``delta`` or ``beta`` not a real number.
    ValueError
        If ``K < 1``, ``epsilon`` is not finite and positive, ``delta`` or ``beta`` not in (0, 1), or
        ``variant`` unknown; from the methods, as :func:`private_grid_search`.

    References
    ----------
    .. [1] [004 Alg. 1 step 8], [004 App. D.1], [004 Thm. 1].

    Examples
    --------
    >>> from reference.arora.data import make_problem, sample_records
    >>> from reference.arora.learners import OutputPerturbation
    >>> data = sample_records(make_problem("squared", [0.5, -0.5]), 40, rng=0)
    >>> learner = OutputPerturbation("squared", 1.0, 2.0)
    >>> outputs, logp = GridSearchSelection(learner, 3, 1.0, 1e-5, 0.1).log_prob(data)
    >>> outputs.tolist(), round(float(np.exp(logp).sum()), 9)
    ([0, 1, 2, 3], 1.0)
    """

    finite_output = True

    def __init__(
        self,
        learner: _BaseLearner,
        K: int,
        epsilon: float,
        delta: float,
        beta: float,
        variant: str = "standard",
        candidate_seed: RNGLike = 0,
    ) -> None:
        self.K, self.epsilon, self.delta, self.beta = _check_common(K, epsilon, delta, beta)
        self.variant = _check_variant(variant)
        self.learner = learner
        self.candidate_seed = candidate_seed
        self._cache: dict[tuple[tuple[int, ...], bytes], NDArray[np.float64]] = {}  # the last S1 -> its candidates

    def pairs(self, data: ArrayLike) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        z = check_finite_array("data", data, ndim=2)
        S1, S2 = split_in_two(z)
        key = (S1.shape, S1.tobytes())
        if key not in self._cache:
            self._cache = {
                key: fit_candidates(S1, self.learner, self.K, self.epsilon, self.delta, 1, self.candidate_seed)
            }
        sens, scores = grid_search_pairs(
            self._cache[key],
            S2,
            self.learner,
            n=z.shape[0],
            epsilon=self.epsilon,
            delta=self.delta,
            beta=self.beta,
            variant=self.variant,
        )
        return sens, scores[0]

    def log_prob(self, data: ArrayLike) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
        sens, scores = self.pairs(data)
        return np.arange(self.K + 1), grid_search_selection_log_prob(sens, scores, self.epsilon, self.beta)

    def sample(self, data: ArrayLike, size: int | None, rng: RNGLike = None) -> int | NDArray[np.int64]:
        sens, scores = self.pairs(data)
        return gem_sample(sens, scores, self.epsilon / 2, self.beta / 4, size=size, rng=rng)
