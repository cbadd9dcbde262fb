# ---
# jupyter:
#   jupytext:
#     formats: py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Audit your own mechanism
#
# Write a mechanism, audit its claimed epsilon with `proofs_checks.audit.audit`, and read and replay
# the counterexample the auditor returns. The mechanism below answers "is the majority of the bits 1?"
# by randomized response. It claims `epsilon = 1`, but its keep-probability is written with
# `2 epsilon` (a slip of the kind the papers' algorithm boxes contain), so it is only `2`-DP.
#
# A mechanism needs `sample(data, size, rng)` (rows are outputs); with `log_prob(data)` (the exact
# output law) the audit is exact.
#
# **Input domain.** A record is one bit, 0 or 1. The auditor's own neighbour search would try
# real-valued records (down to -1.7e308), which are outside this mechanism's domain, so we hand it the
# domain instead: every dataset of 4, 5 or 6 bits and every neighbour that flips one of its bits
# (replace-one neighbours).

# %%
import itertools

import numpy as np

from proofs_checks.audit import audit


class NoisyMajority:
    """Randomized response on the majority bit, with keep-probability e^(2 eps) / (1 + e^(2 eps)): a bug."""

    def __init__(self, epsilon):
        self.epsilon = epsilon

    def _p_one(self, data):
        majority = float(np.mean(np.asarray(data)) > 0.5)
        keep = 1.0 / (1.0 + np.exp(-2 * self.epsilon))  # should be exp(-epsilon)
        return keep if majority else 1.0 - keep

    def log_prob(self, data):
        p = self._p_one(data)
        return np.array([[0.0], [1.0]]), np.log([1.0 - p, p])

    def sample(self, data, size, rng):
        rng = np.random.default_rng(rng)
        return (rng.random(size) < self._p_one(data)).astype(float)[:, None]


def bit_neighbours(sizes=(4, 5, 6)):
    """Every dataset of one-bit records of each size, with each neighbour that flips one bit."""
    pairs = []
    for n in sizes:
        for bits in itertools.product((0.0, 1.0), repeat=n):
            D = np.array(bits)[:, None]
            for row in range(n):
                D_prime = D.copy()
                D_prime[row] = 1.0 - D_prime[row]
                pairs.append((D, D_prime))
    return pairs


pairs = bit_neighbours()
result = audit(NoisyMajority(epsilon=1.0), epsilon=1.0, neighbours=pairs, seed=0)
print("neighbouring pairs in the domain:", len(pairs))
print(result.verdict, "- largest privacy loss found:", round(result.epsilon_lower, 4))
print("counterexample:", result.pair)

# %% [markdown]
# The exact audit computes the privacy loss of the exact output laws on each of the 608 pairs:
# `epsilon_lower` is 2, twice the claim, on a pair where the majority flips. Replay the
# counterexample the result carries: its two datasets, their output laws and the log ratio.

# %%
counterexample = result.details["counterexample"]
D, D_prime = counterexample["D"], counterexample["D_prime"]
mech = NoisyMajority(epsilon=1.0)
(_, lp), (_, lq) = mech.log_prob(D), mech.log_prob(D_prime)
print("D:", D.ravel(), " D':", D_prime.ravel())
print("privacy loss per output:", np.round(lp - lq, 6), "claimed epsilon 1.0")
assert np.isclose(np.max(np.abs(lp - lq)), result.epsilon_lower)

# %% [markdown]
# With the bug fixed (keep-probability `e^eps / (1 + e^eps)`), the same audit over the same domain
# finds a largest privacy loss of 1, the claim: the auditor says "not refuted" (it searched the pairs it
# was given, it did not prove the claim for every dataset size).


# %%
class FixedMajority(NoisyMajority):
    def _p_one(self, data):
        majority = float(np.mean(np.asarray(data)) > 0.5)
        keep = 1.0 / (1.0 + np.exp(-self.epsilon))
        return keep if majority else 1.0 - keep


fixed = audit(FixedMajority(epsilon=1.0), epsilon=1.0, neighbours=pairs, seed=0)
print(fixed.verdict, "- largest privacy loss found:", round(fixed.epsilon_lower, 4))
assert fixed.verdict != "refuted" and result.verdict == "refuted"
