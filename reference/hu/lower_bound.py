"""The lower-bound construction of 002: [002 Lemma 3] and the proof of [002 Thm. 9].

The proof of Theorem 9 [002 App. A.1] mixes a point mass at 0 with a point mass at
``sqrt(tau / p) v`` (``v`` from a packing ``V`` of ``s*``-sparse sign vectors, [002 Lemma 11]),
so that the mean is ``theta_v = sqrt(p tau) v``, and bounds the private minimax risk through
the testing bound of [002 Lemma 3].  This module evaluates the pieces as printed, so that a
check can compare each step with exact arithmetic: the closed form of Lemma 3, the proof's
choice of ``p``, the proof's explicit final bound, and a packing with the separation Lemma 11
guarantees.

References
----------
.. [1] L. Hu, S. Ni, H. Xiao and D. Wang, ``002_6c597657f27a60c9.txt``: [002 Lemma 3] (eq. (10)),
       [002 Thm. 9] (eq. (11)), [002 Lemma 11] and the proof of Theorem 9 [002 App. A.1].
.. [2] R. F. Barber and J. C. Duchi, "Privacy and statistical risk: formalisms and minimax bounds",
       arXiv:1412.4451 (ref. [4] of 002; Lemma 3 is quoted from its Theorem 3).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..validation import (
    RNGLike,
    as_generator,
    check_delta,
    check_epsilon,
    check_integer,
    check_positive,
    check_probability,
)

__all__ = [
    "lemma3_closed_form",
    "lemma11_log_size",
    "theorem9_proof_p",
    "theorem9_proof_bound",
    "lemma11_packing",
    "packing_min_distance",
]


def lemma3_closed_form(size: int, n: int, p: float, epsilon: float, delta: float) -> float:
    """Right-hand side of [002 Lemma 3] eq. (10) without ``Phi(rho*)``.

    ``(|V| - 1)(e^{-eps K} / 2 - delta (1 - e^{-eps K}) / (1 - e^{-eps})) / (1 + (|V| - 1) e^{-eps K})``
    with ``K = ceil(n p)``.

    Parameters
    ----------
    size : int
        ``|V|``, ``>= 2``.
    n : int
        Sample size, ``>= 1``.
    p : float
        The mixing probability, in [0, 1].
    epsilon : float
        Privacy parameter, finite and > 0.
    delta : float
        Privacy parameter, in [0, 1).

    Returns
    -------
    float
        The factor of ``Phi(rho*)`` in the bound.

    Raises
    ------
    TypeError
        If ``size`` or ``n`` is not an integer, or ``p``, ``epsilon`` or ``delta`` not a real number.
    ValueError
        If ``size < 2``, ``n < 1``, ``p`` not in [0, 1], ``epsilon`` not finite and positive, or ``delta`` not
        in [0, 1).

    References
    ----------
    .. [1] [002 Lemma 3], eq. (10).

    Examples
    --------
    >>> round(lemma3_closed_form(2, 10, 0.1, 1.0, 0.0), 6)   # K = 1: e^-1 / 2 / (1 + e^-1)
    0.134471
    """
    size = check_integer("size", size, minimum=2)
    n = check_integer("n", n, minimum=1)
    p = check_probability("p", p, low_open=False, high_open=False)
    eps = check_positive("epsilon", epsilon)
    delta = check_probability("delta", delta, low_open=False)
    K = math.ceil(n * p)
    y = math.exp(-eps * K)
    # -expm1 keeps 1 - e^{-x} accurate for small eps K and small eps
    gap = 0.5 * y - delta * (-math.expm1(-eps * K)) / (-math.expm1(-eps))
    return (size - 1) * gap / (1.0 + (size - 1) * y)


def lemma11_log_size(d: int, s: int) -> float:
    """``log`` of [002 Lemma 11]'s packing size ``exp((s/2) log((d - s)/(s/2)))`` (``1 <= s < d``).

    Parameters
    ----------
    d : int
        Dimension, ``>= 2``.
    s : int
        Sparsity, ``1 <= s <= d - 1``.

    Returns
    -------
    float
        ``(s/2) log((d - s)/(s/2))``.

    Raises
    ------
    TypeError
        If ``d`` or ``s`` is not an integer.
    ValueError
        If ``d < 2`` or ``s`` not in ``[1, d - 1]``.

    References
    ----------
    .. [1] [002 Lemma 11].

    Examples
    --------
    >>> round(lemma11_log_size(100, 10), 6)
    14.451859
    """
    d = check_integer("d", d, minimum=2)
    s = check_integer("s", s, minimum=1, maximum=d - 1)
    return 0.5 * s * math.log((d - s) / (0.5 * s))


def theorem9_proof_p(n: int, epsilon: float, delta: float, d: int, s: int) -> float:
    """The proof's ``p = min{(s/2) log((d - s)/(s/2)) - eps, log((1 - e^{-eps}) / (4 delta e^eps))} / (n eps)``.

    Parameters
    ----------
    n : int
        Sample size, ``>= 1``.
    epsilon : float
        Privacy parameter, finite and > 0.
    delta : float
        Privacy parameter, in (0, 1).
    d : int
        Dimension, ``>= 2``.
    s : int
        Sparsity, ``1 <= s <= d - 1``.

    Returns
    -------
    float
        ``p``, positive.

    Raises
    ------
    TypeError
        If ``n``, ``d`` or ``s`` is not an integer, or ``epsilon`` or ``delta`` not a real number.
    ValueError
        If a parameter is out of its range, or the minimum is not positive (the proof's choice then gives no
        distribution: ``p <= 0``).

    References
    ----------
    .. [1] The proof of [002 Thm. 9].

    Examples
    --------
    >>> round(theorem9_proof_p(1000, 1.0, 1e-5, 100, 10), 8)
    0.00866796
    """
    n = check_integer("n", n, minimum=1)
    eps, delta = check_epsilon(epsilon), check_delta(delta)
    first = lemma11_log_size(d, s) - eps
    second = math.log(-math.expm1(-eps) / (4.0 * delta)) - eps
    m = min(first, second)
    if not m > 0:
        raise ValueError(
            f"the proof's p is not positive at n={n}, epsilon={eps}, delta={delta}, d={d}, s={s} (min term {m!r})"
        )
    return m / (n * eps)


def theorem9_proof_bound(
    n: int,
    epsilon: float,
    delta: float,
    d: int,
    s: int,
    tau: float,
    *,
    separation_sq: float = 2.0,
    phi_of_half: bool = False,
) -> float:
    """The proof's explicit final bound of [002 Thm. 9]: ``2 p tau * (1/8)`` with its ``p``.

    The printed chain is ``Phi(rho*) >= 2 p tau`` (from ``||v - v'||_2 >= sqrt(2)``) times the
    ``1/8`` of the last step, i.e. ``tau p / 4``.  ``separation_sq`` replaces the printed squared
    separation 2 of the packing (``1/4`` is what Lemma 11's Hamming distance ``s/2`` guarantees
    for ``V = H~ / sqrt(2s)``); ``phi_of_half`` evaluates ``Phi(rho*/2)`` instead of ``Phi(rho*)``
    (the reading of Lemma 3 with the event ``rho >= rho*/2``).

    Parameters
    ----------
    n, epsilon, delta, d, s
        As in :func:`theorem9_proof_p`.
    tau : float
        The second-moment bound, finite and > 0.
    separation_sq : float, default 2.0
        The squared separation of the packing, finite and > 0.
    phi_of_half : bool, default False
        Evaluate ``Phi(rho*/2)`` (a factor 1/4).

    Returns
    -------
    float
        The bound.

    Raises
    ------
    TypeError
        If an integer parameter is not an integer or another parameter not a real number.
    ValueError
        If a parameter is out of its range, or the proof's ``p`` is not positive.

    References
    ----------
    .. [1] The proof of [002 Thm. 9], [002 Lemma 3], [002 Lemma 11].

    Examples
    --------
    >>> theorem9_proof_bound(1000, 1.0, 1e-5, 100, 10, 1.0) == theorem9_proof_p(1000, 1.0, 1e-5, 100, 10) / 4
    True
    """
    tau = check_positive("tau", tau)
    sep = check_positive("separation_sq", separation_sq)
    p = theorem9_proof_p(n, epsilon, delta, d, s)
    phi = sep * p * tau * (0.25 if phi_of_half else 1.0)
    return phi / 8.0


def lemma11_packing(d: int, s: int, size: int | None = None, rng: RNGLike = None) -> NDArray[np.float64]:
    """A subset of ``H(s) = {z in {-1, 0, 1}^d : ||z||_0 = s}`` with pairwise Hamming distance >= s/2.

    Greedy over ``H(s)`` in a random order (all of ``H(s)`` is enumerated: small ``d`` only,
    ``C(d, s) 2^s <= 2e5``); stops at ``size`` points when given.  [002 Lemma 11] guarantees a
    packing of at least ``exp((s/2) log((d - s)/(s/2)))`` points; the caller can compare.

    Parameters
    ----------
    d : int
        Dimension, ``>= 2``.
    s : int
        Sparsity, ``1 <= s <= d``.
    size : int or None, default None
        Stop at this many points; ``None`` for a maximal greedy packing.
    rng : numpy.random.Generator, int, SeedSequence or None, default None
        Source of the random order.

    Returns
    -------
    numpy.ndarray of float64, shape (M, d)
        The packing, entries in {-1, 0, 1}.

    Raises
    ------
    TypeError
        If ``d`` or ``s`` is not an integer, or ``rng`` not a generator or seed.
    ValueError
        If ``d < 2``, ``s`` not in ``[1, d]``, or ``C(d, s) 2^s > 200,000``.

    References
    ----------
    .. [1] [002 Lemma 11].

    Examples
    --------
    >>> P = lemma11_packing(4, 2, rng=0)
    >>> P.shape[1], int(np.abs(P).sum(axis=1).max())
    (4, 2)
    """
    d = check_integer("d", d, minimum=2)
    s = check_integer("s", s, minimum=1, maximum=d)
    if math.comb(d, s) * 2**s > 200_000:
        raise ValueError(f"H(s) too large to enumerate at d={d}, s={s}")
    gen = as_generator(rng)
    rows = []
    for supp in itertools.combinations(range(d), s):
        for signs in itertools.product((-1.0, 1.0), repeat=s):
            z = np.zeros(d)
            z[list(supp)] = signs
            rows.append(z)
    H = np.array(rows)[gen.permutation(len(rows))]
    chosen = [H[0]]
    for z in H[1:]:
        if size is not None and len(chosen) >= size:
            break
        if np.min(np.sum(np.array(chosen) != z, axis=1)) >= s / 2:
            chosen.append(z)
    return np.array(chosen)


def packing_min_distance(V: ArrayLike) -> float:
    """Smallest pairwise l2 distance between the rows of ``V`` (at least two rows).

    Parameters
    ----------
    V : array_like, shape (M, d)
        The points, ``M >= 2``.

    Returns
    -------
    float
        ``min_{i != j} ||V_i - V_j||_2`` (computed from the Gram matrix).

    Raises
    ------
    ValueError
        If ``V`` is not 2-D with at least two rows.

    References
    ----------
    .. [1] The proof of [002 Thm. 9] (``||v - v'||_2 >= sqrt(2)`` for the packing).

    Examples
    --------
    >>> packing_min_distance([[0.0, 0.0], [3.0, 4.0], [0.0, 1.0]])
    1.0
    """
    V = np.asarray(V, dtype=np.float64)
    if V.ndim != 2 or V.shape[0] < 2:
        raise ValueError(f"V must have at least two rows, got shape {V.shape}")
    sq = np.sum(V**2, axis=1)
    D2 = sq[:, None] + sq[None, :] - 2.0 * V @ V.T
    np.fill_diagonal(D2, np.inf)
    return float(math.sqrt(max(float(np.min(D2)), 0.0)))
