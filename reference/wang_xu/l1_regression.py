"""Private l1 regression by the exponential mechanism over a zeta-net: [000 Alg. 1] and [000 Alg. 2].

The score of a net point ``w`` is the truncated empirical risk of [000 eq. (2)],
``L-hat_iota(w, D) = (1/(n iota)) sum_i psi(iota |y_i - <x_i, w>|)``, with psi of [000 eq. (6)]
([000 Alg. 1], ``theta = 2``) or [000 eq. (16)] ([000 Alg. 2], ``1 < theta <= 2``); both algorithms output
``w`` with probability proportional to ``exp(-c * S(w))``, ``S(w) = n iota L-hat_iota(w, D)``, ``c`` set by the
variant (``"printed"``, ``"standard"``, ``"calibrated"``).

Layout (every name is importable from here; one subject a module):

* :mod:`reference.wang_xu._l1_scores`: the risk, its psi terms, the variants' exponent factors with the
  proof note on their sensitivity and privacy, the log-weights;
* :mod:`reference.wang_xu._l1_sampling`: the exact output law over the net, in memory or streamed, and
  the samplers :func:`algorithm1`, :func:`algorithm2`;
* :mod:`reference.wang_xu._l1_parameters`: ``zeta`` and ``iota`` of [000 Thm. 1] and [000 Thm. 2];
* here: the mechanism-protocol object :class:`WangXuMechanism` and the registry's :func:`make_mechanism`.

References
----------
.. [1] D. Wang and J. Xu, "Differentially private l1-norm linear regression with heavy-tailed
       data", ``000_e64de114947d2122.txt``: [000 eq. (2)], [000 Alg. 1], [000 Alg. 2], [000 Thm. 1],
       [000 Thm. 2], [000 Def. 2] (exponential mechanism).
"""

from __future__ import annotations

from typing import cast

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..mechanisms import normalize_log_weights
from ..records import split_records
from ..validation import RNGLike, check_delta, check_epsilon, check_integer
from ._l1_parameters import theorem1_parameters, theorem2_parameters
from ._l1_sampling import (
    DEFAULT_BLOCK_ELEMENTS,
    algorithm1,
    algorithm2,
    streaming_gumbel_max_sample,
    streaming_log_normaliser,
    streaming_log_prob_chunks,
    wang_xu_log_prob,
)
from ._l1_scores import (  # noqa: F401
    EXPONENT_FACTORS,
    VARIANTS,
    _check_variant,
    _psi_block,
    _scaled,
    _Scorer,
    check_iota,
    check_regression_data,
    exponent_factor,
    l1_loss,
    log_weights,
    record_psi_terms,
    truncated_empirical_risk,
)
from .nets import ArrayNet, GridNet, L2BallNet, as_net
from .truncation import check_theta

__all__ = [
    "VARIANTS",
    "check_iota",
    "check_regression_data",
    "l1_loss",
    "record_psi_terms",
    "truncated_empirical_risk",
    "exponent_factor",
    "log_weights",
    "wang_xu_log_prob",
    "streaming_log_normaliser",
    "streaming_log_prob_chunks",
    "streaming_gumbel_max_sample",
    "EXPONENT_FACTORS",
    "algorithm1",
    "algorithm2",
    "WangXuMechanism",
    "make_mechanism",
    "theorem1_parameters",
    "theorem2_parameters",
    "DEFAULT_BLOCK_ELEMENTS",
]


class WangXuMechanism:
    """[000 Alg. 1] / [000 Alg. 2] in the mechanism protocol, on datasets of records ``[x_1, ..., x_d, y]``.

    ``log_prob(data) -> (net points (K, d), log-probabilities (K,))``;
    ``sample(data, size, rng) -> (size, d)``; ``score_terms(records) -> (m, K)`` (each record's
    additive contribution to the log-weight of each output, exponent factor included) and
    ``log_prob_from_terms(total) -> (..., K)``, so a neighbour is rescored in ``O(K d)``.

    Parameters
    ----------
    net : GridNet, ArrayNet or array_like of shape (K, d)
        The output set (:func:`~reference.wang_xu.nets.as_net`).
    epsilon : float
        Privacy parameter, finite and > 0.
    iota : float
        Truncation scale, finite and > 0.
    theta : float, default 2.0
        Moment order in (1, 2] (2: [000 Alg. 1]).
    variant : {"printed", "standard", "calibrated"}, default "printed"
        The exponent (:func:`exponent_factor`).
    block_elements : int, default DEFAULT_BLOCK_ELEMENTS
        About how many (record, net point) pairs the sampler scores at once, ``>= 1``.

    Raises
    ------
    TypeError
        If ``net`` is not an array of real numbers, a parameter not a real number, or ``block_elements`` not
        an integer.
    ValueError
        If the net is empty or not finite, ``epsilon`` or ``iota`` is not finite and positive, ``theta`` not
        in (1, 2], ``variant`` unknown, or ``block_elements < 1``; from the methods, if ``data`` is not a
        finite 2-D array of ``d + 1`` columns.

    References
    ----------
    .. [1] [000 Alg. 1], [000 Alg. 2], [000 Def. 2].

    Examples
    --------
    >>> mech = WangXuMechanism([[0.0], [0.2], [5.0]], epsilon=1.0, iota=1.0)
    >>> data = np.array([[1.0, 0.1], [1.0, 0.2], [1.0, 0.3]])
    >>> points, logp = mech.log_prob(data)
    >>> np.exp(logp).round(3), mech.sample(data, 4, rng=0).shape, mech.record_width
    (array([0.347, 0.612, 0.041]), (4, 1), 2)
    """

    finite_output = True

    def __init__(
        self,
        net: GridNet | ArrayNet | ArrayLike,
        epsilon: float,
        iota: float,
        theta: float = 2.0,
        variant: str = "printed",
        *,
        block_elements: int = DEFAULT_BLOCK_ELEMENTS,
    ) -> None:
        self.net = as_net(net)
        self.dim = self.net.dim
        self.epsilon = check_epsilon(epsilon)
        self.iota = check_iota(iota)
        self.theta = check_theta(theta)
        self.variant = _check_variant(variant)
        self.block_elements = check_integer("block_elements", block_elements, minimum=1)
        self._points: NDArray[np.float64] | None = None  # the net's points, listed on first use

    @property
    def record_width(self) -> int:
        """Length of one record ``[x_1, ..., x_d, y]`` (used by the auditor to build datasets)."""
        return self.dim + 1

    @property
    def outputs(self) -> NDArray[np.float64]:
        if self._points is None:
            self._points = self.net.points()
        return self._points

    def _split(self, data):
        return split_records(data, self.dim)

    def score_terms(self, records: ArrayLike) -> NDArray[np.float64]:
        X, y = self._split(records)
        sc = _Scorer(X, y, self.epsilon, self.iota, self.theta, self.variant)
        return sc.terms(self.outputs)  # a fresh array: no copy needed

    @staticmethod
    def log_prob_from_terms(total: ArrayLike) -> NDArray[np.float64]:
        t = np.asarray(total, dtype=np.float64)
        return normalize_log_weights(t)

    def log_prob(self, data: ArrayLike) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        X, y = self._split(data)
        return wang_xu_log_prob(X, y, self.net, self.epsilon, self.iota, self.theta, self.variant)

    def sample(self, data: ArrayLike, size: int, rng: RNGLike = None) -> NDArray[np.float64]:
        X, y = self._split(data)
        # without return_index the points alone, not the (points, indices) pair
        return cast(
            NDArray[np.float64],
            streaming_gumbel_max_sample(
                X,
                y,
                self.net,
                self.epsilon,
                self.iota,
                self.theta,
                self.variant,
                size,
                rng,
                block_elements=self.block_elements,
            ),
        )


def make_mechanism(
    algorithm: int = 1,
    variant: str = "printed",
    epsilon: float = 1.0,
    delta: float | None = None,
    *,
    net: GridNet | ArrayNet | ArrayLike | None = None,
    dim: int = 1,
    radius: float = 1.0,
    zeta: float = 0.25,
    iota: float = 1.0,
    theta: float | None = None,
    block_elements: int = DEFAULT_BLOCK_ELEMENTS,
) -> WangXuMechanism:
    """Factory for the registry: [000 Alg. 1] (``theta = 2``) or [000 Alg. 2] (``theta`` default 1.5).

    ``delta`` is accepted for the protocol and unused (the claims are pure eps-DP); when given
    it must be a valid delta or 0.  Without ``net`` an l2-ball net of ``radius`` and ``zeta``
    in ``dim`` dimensions is built.

    Parameters
    ----------
    algorithm : {1, 2}, default 1
        [000 Alg. 1] or [000 Alg. 2].
    variant : {"printed", "standard", "calibrated"}, default "printed"
        The exponent (:func:`exponent_factor`).
    epsilon : float, default 1.0
        Privacy parameter, finite and > 0.
    delta : float or None, default None
        Unused; ``None``, 0 or a value in (0, 1).
    net : GridNet, ArrayNet, array_like of shape (K, d) or None, default None
        The output set; ``None`` builds ``L2BallNet(radius, zeta, dim)``.
    dim : int, default 1
        Dimension of the default net.
    radius : float, default 1.0
        Radius of the default net's ball.
    zeta : float, default 0.25
        Resolution of the default net.
    iota : float, default 1.0
        Truncation scale, finite and > 0.
    theta : float or None, default None
        Moment order: must be 2 (or ``None``) for algorithm 1; in (1, 2], default 1.5, for algorithm 2.
    block_elements : int, default DEFAULT_BLOCK_ELEMENTS
        As in :class:`WangXuMechanism`.

    Returns
    -------
    WangXuMechanism
        The mechanism.

    Raises
    ------
    ValueError
        If ``algorithm`` is not 1 or 2, ``delta`` is neither 0 nor in (0, 1), ``theta`` is not 2 for
        algorithm 1, or from :class:`WangXuMechanism` and the net.
    TypeError
        From :class:`WangXuMechanism` and the net, for a parameter of the wrong type.

    References
    ----------
    .. [1] [000 Alg. 1], [000 Alg. 2].

    Examples
    --------
    >>> mech = make_mechanism(algorithm=2, dim=2, zeta=0.5)
    >>> mech.theta, mech.outputs.shape
    (1.5, (25, 2))
    """
    if algorithm not in (1, 2):
        raise ValueError(f"algorithm must be 1 or 2, got {algorithm!r}")
    if delta is not None and delta != 0:
        check_delta(delta)
    if algorithm == 1:
        if theta is not None and theta != 2.0:
            raise ValueError(f"theta must be 2 for [000 Alg. 1] (psi of [000 eq. (6)]), got {theta!r}")
        theta = 2.0
    elif theta is None:
        theta = 1.5
    if net is None:
        net = L2BallNet(radius, zeta, dim)
    return WangXuMechanism(net, epsilon, iota, theta, variant, block_elements=block_elements)
