"""Peeling (Algorithm 4 of 002): private top-s selection by repeated report-noisy-max.

References
----------
.. [1] T. T. Cai, Y. Wang and L. Zhang, "The cost of privacy: optimal rates of convergence for
       parameter estimation with differential privacy", Annals of Statistics 2021 (ref. [13] of 002).
.. [2] Hu, Ni, Xiao and Wang, Algorithm 4 and Lemma 5 (``002_6c597657f27a60c9.txt``).
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from ..validation import (as_generator, check_delta, check_epsilon, check_finite_array,
                          check_integer, check_positive)
from .report_noisy_max import report_noisy_max_log_prob

__all__ = ["peeling_scale", "peeling", "peeling_selection_log_prob", "peeling_support_log_prob",
           "Peeling"]


def peeling_scale(s, epsilon, delta, lam):
    """Laplace scale of Algorithm 4 steps 4 and 7: ``2 * lam * sqrt(3 s log(1/delta)) / epsilon``."""
    s = check_integer("s", s, minimum=1)
    return 2.0 * check_positive("lam", lam) * math.sqrt(3.0 * s * math.log(1.0 / check_delta(delta))) \
        / check_epsilon(epsilon)


def _check_v_s(v, s):
    v = check_finite_array("v", v, ndim=1)
    s = check_integer("s", s, minimum=1, maximum=v.size)
    return v, s


def peeling(v, s, epsilon, delta, lam, size=None, rng=None):
    """Run Algorithm 4 of 002; ``size`` independent runs in one vectorised call.

    Steps: (2) S = {}; (3-6) for i = 1..s draw ``w_i ~ Lap(b)^d`` and append
    ``argmax_{j not in S} |v_j| + w_{i,j}``; (7) draw ``w~ ~ Lap(b)^d``;
    (8) return ``v_S + w~_S`` (zero outside S), with ``b`` from :func:`peeling_scale`.

    Returns
    -------
    values : ndarray, shape (d,) or (size, d)
    selected : ndarray of int, shape (s,) or (size, s)
        The indices in the order they were peeled.
    """
    v, s = _check_v_s(v, s)
    b = peeling_scale(s, epsilon, delta, lam)
    gen = as_generator(rng)
    n = 1 if size is None else check_integer("size", size, minimum=0)
    d = v.size
    absv = np.abs(v)
    taken = np.zeros((n, d), dtype=bool)
    selected = np.empty((n, s), dtype=np.int64)
    rows = np.arange(n)
    for i in range(s):  # s rounds, each vectorised over all runs
        keys = np.where(taken, -np.inf, absv + gen.laplace(0.0, b, size=(n, d)))
        j = np.argmax(keys, axis=1)
        selected[:, i] = j
        taken[rows, j] = True
    noise = gen.laplace(0.0, b, size=(n, d))
    values = np.where(taken, v + noise, 0.0)
    if size is None:
        return values[0], selected[0]
    return values, selected


def peeling_selection_log_prob(v, selected, epsilon, delta, lam, s=None):
    """Exact log-probability that Peeling picks ``selected`` in that order.

    The rounds use independent noise, so the probability is the product of the
    report-noisy-max probabilities of each pick among the remaining coordinates.
    """
    sel = [int(j) for j in np.asarray(selected).ravel()]
    v = check_finite_array("v", v, ndim=1)
    s = len(sel) if s is None else s
    b = peeling_scale(s, epsilon, delta, lam)
    if len(set(sel)) != len(sel) or any(j < 0 or j >= v.size for j in sel):
        raise ValueError(f"selected must be distinct indices in [0, {v.size}), got {sel}")
    remaining = list(range(v.size))
    total = 0.0
    for j in sel:
        logp = report_noisy_max_log_prob(np.abs(v[remaining]), b)
        total += logp[remaining.index(j)]
        remaining.remove(j)
    return total


def peeling_support_log_prob(v, s, epsilon, delta, lam):
    """Exact distribution of the ordered selection over all ``d!/(d-s)!`` sequences (small d only).

    Returns ``(sequences, log_probabilities)`` with ``sequences`` of shape (m, s).
    """
    v, s = _check_v_s(v, s)
    if math.perm(v.size, s) > 200_000:
        raise ValueError(f"d={v.size}, s={s} gives {math.perm(v.size, s)} sequences; too many to enumerate")
    b = peeling_scale(s, epsilon, delta, lam)
    absv = np.abs(v)
    seqs = np.array(list(itertools.permutations(range(v.size), s)), dtype=np.int64)
    # Each round is report-noisy-max over the coordinates not yet taken; its law depends only
    # on that set, so it is computed once per set (sum_i C(d, i) sets instead of d!/(d-s)! paths).
    round_law = {}

    def law(taken):
        if taken not in round_law:
            remaining = [j for j in range(v.size) if j not in taken]
            round_law[taken] = dict(zip(remaining, report_noisy_max_log_prob(absv[remaining], b)))
        return round_law[taken]

    logp = np.array([sum(law(frozenset(q[:i]))[q[i]] for i in range(s)) for q in seqs])
    return seqs, logp


class Peeling:
    """Mechanism-protocol adapter for the selection step; ``data`` is the vector ``v(D)``.

    ``sample`` returns the ordered selected indices (rows); ``log_prob`` their
    exact distribution.  The released values add continuous Laplace noise on top
    (use :func:`peeling` for them).
    """

    finite_output = True

    def __init__(self, s, epsilon, delta, lam):
        self.s = check_integer("s", s, minimum=1)
        self.epsilon, self.delta, self.lam = check_epsilon(epsilon), check_delta(delta), check_positive("lam", lam)

    def log_prob(self, data):
        return peeling_support_log_prob(data, self.s, self.epsilon, self.delta, self.lam)

    def sample(self, data, size, rng=None):
        return peeling(data, self.s, self.epsilon, self.delta, self.lam, size, rng)[1]
