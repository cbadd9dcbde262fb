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
# Write a mechanism, audit its claimed epsilon with `proofs_checks.audit.audit`, and read the
# counterexample the auditor returns. The mechanism below answers "is the majority of the bits 1?"
# by randomized response. It claims `epsilon = 1`, but its keep-probability is written with
# `2 epsilon` (a slip of the kind the papers' algorithm boxes contain), so it is only `2`-DP.
#
# A mechanism needs `sample(data, size, rng)` (rows are outputs); with `log_prob(data)` (the exact
# output law) the audit is exact.

# %%
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


data = np.array([[0.0], [1.0], [1.0], [0.0], [1.0]])  # five records, one bit each
result = audit(NoisyMajority(epsilon=1.0), epsilon=1.0, data=data, seed=0)
print(result.verdict, "— largest privacy loss found:", round(result.epsilon_lower, 4))
print("counterexample:", result.pair)

# %% [markdown]
# The exact audit enumerates neighbouring datasets (one record replaced) and computes the privacy
# loss of the exact output laws: `epsilon_lower` is 2, twice the claim, on a pair where the
# majority flips. Replay the counterexample by hand: the two output laws and their log ratio.

# %%
mech = NoisyMajority(epsilon=1.0)
D = data.copy()
D_prime = data.copy()
D_prime[4] = 0.0  # replace the last record: majority 1 -> 0
(_, lp), (_, lq) = mech.log_prob(D), mech.log_prob(D_prime)
print("privacy loss per output:", np.round(lp - lq, 6), "claimed epsilon 1.0")
assert np.isclose(np.max(np.abs(lp - lq)), 2.0)

# %% [markdown]
# With the bug fixed (keep-probability `e^eps / (1 + e^eps)`), the same audit finds no pair beyond
# the claim (the auditor says "not refuted": it searched, it did not prove).


# %%
class FixedMajority(NoisyMajority):
    def _p_one(self, data):
        majority = float(np.mean(np.asarray(data)) > 0.5)
        keep = 1.0 / (1.0 + np.exp(-self.epsilon))
        return keep if majority else 1.0 - keep


fixed = audit(FixedMajority(epsilon=1.0), epsilon=1.0, data=data, seed=0)
print(fixed.verdict, round(fixed.epsilon_lower, 4))
assert fixed.verdict != "refuted" and result.verdict == "refuted"
