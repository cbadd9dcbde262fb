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

from ..validation import as_generator, check_delta, check_epsilon, check_integer, check_positive, check_probability

__all__ = ["lemma3_closed_form", "lemma11_log_size", "theorem9_proof_p", "theorem9_proof_bound",
           "lemma11_packing", "packing_min_distance"]


def lemma3_closed_form(size, n, p, epsilon, delta):
    """Right-hand side of [002 Lemma 3] eq. (10) without ``Phi(rho*)``.

    ``(|V| - 1)(e^{-eps K} / 2 - delta (1 - e^{-eps K}) / (1 - e^{-eps})) / (1 + (|V| - 1) e^{-eps K})``
    with ``K = ceil(n p)``.  ``size`` is ``|V|`` (>= 2).

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


def lemma11_log_size(d, s):
    """``log`` of [002 Lemma 11]'s packing size ``exp((s/2) log((d - s)/(s/2)))`` (``1 <= s < d``)."""
    d = check_integer("d", d, minimum=2)
    s = check_integer("s", s, minimum=1, maximum=d - 1)
    return 0.5 * s * math.log((d - s) / (0.5 * s))


def theorem9_proof_p(n, epsilon, delta, d, s):
    """The proof's ``p = min{(s/2) log((d - s)/(s/2)) - eps, log((1 - e^{-eps}) / (4 delta e^eps))} / (n eps)``.

    Raises ValueError when the minimum is not positive (the proof's choice then gives no
    distribution: ``p <= 0``).
    """
    n = check_integer("n", n, minimum=1)
    eps, delta = check_epsilon(epsilon), check_delta(delta)
    first = lemma11_log_size(d, s) - eps
    second = math.log(-math.expm1(-eps) / (4.0 * delta)) - eps
    m = min(first, second)
    if not m > 0:
        raise ValueError(f"the proof's p is not positive at n={n}, epsilon={eps}, delta={delta}, d={d}, s={s} "
                         f"(min term {m!r})")
    return m / (n * eps)


def theorem9_proof_bound(n, epsilon, delta, d, s, tau, *, separation_sq=2.0, phi_of_half=False):
    """The proof's explicit final bound of [002 Thm. 9]: ``2 p tau * (1/8)`` with its ``p``.

    The printed chain is ``Phi(rho*) >= 2 p tau`` (from ``||v - v'||_2 >= sqrt(2)``) times the
    ``1/8`` of the last step, i.e. ``tau p / 4``.  ``separation_sq`` replaces the printed squared
    separation 2 of the packing (``1/4`` is what Lemma 11's Hamming distance ``s/2`` guarantees
    for ``V = H~ / sqrt(2s)``); ``phi_of_half`` evaluates ``Phi(rho*/2)`` instead of ``Phi(rho*)``
    (the reading of Lemma 3 with the event ``rho >= rho*/2``).
    """
    tau = check_positive("tau", tau)
    sep = check_positive("separation_sq", separation_sq)
    p = theorem9_proof_p(n, epsilon, delta, d, s)
    phi = sep * p * tau * (0.25 if phi_of_half else 1.0)
    return phi / 8.0


def lemma11_packing(d, s, size=None, rng=None):
    """A subset of ``H(s) = {z in {-1, 0, 1}^d : ||z||_0 = s}`` with pairwise Hamming distance >= s/2.

    Greedy over ``H(s)`` in a random order (all of ``H(s)`` is enumerated: small ``d`` only,
    ``C(d, s) 2^s <= 2e5``); stops at ``size`` points when given.  [002 Lemma 11] guarantees a
    packing of at least ``exp((s/2) log((d - s)/(s/2)))`` points; the caller can compare.

    Returns
    -------
    numpy.ndarray (M, d) of {-1, 0, 1}
    """
    d = check_integer("d", d, minimum=2)
    s = check_integer("s", s, minimum=1, maximum=d)
    if math.comb(d, s) * 2 ** s > 200_000:
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


def packing_min_distance(V):
    """Smallest pairwise l2 distance between the rows of ``V`` (at least two rows)."""
    V = np.asarray(V, dtype=np.float64)
    if V.ndim != 2 or V.shape[0] < 2:
        raise ValueError(f"V must have at least two rows, got shape {V.shape}")
    sq = np.sum(V ** 2, axis=1)
    D2 = sq[:, None] + sq[None, :] - 2.0 * V @ V.T
    np.fill_diagonal(D2, np.inf)
    return float(math.sqrt(max(float(np.min(D2)), 0.0)))
