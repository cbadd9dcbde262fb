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
# # Gray-box audit: a sensitivity that does not hold
#
# A black-box audit sees only an algorithm's outputs. The gray-box audit
# (`proofs_checks.audit.gray_box_audit`) runs the algorithm on a dataset `D`, records every privacy primitive
# it calls (the input the noise protects, the sensitivity declared for it, the law of the draw), then runs it on
# a neighbour `D'` with the same random stream and each primitive's output forced to the first run's. If the
# calls differ, or an input moves by more than its declared sensitivity, a premise of the privacy proof is
# false, and the report names the call, the pair and the numbers.
#
# The algorithm below is private gradient descent for a line through the origin, `y ~ theta x`, on records
# `(x, y)`: 5 steps, each releasing the mean gradient with Laplace noise at `epsilon / 5`. Each record's
# gradient is meant to be clipped to `[-C, C]`, so one record moves the mean by at most `2C / n`, the
# sensitivity the noise is calibrated to. The bug, a common one: the clipping is applied to the *mean*
# gradient, after the records were averaged, so one record can still move it by up to `2C`.

# %%
import warnings

import numpy as np

from proofs_checks.audit import gray_box_audit, search_neighbours
from reference.mechanisms import laplace_mechanism

STEPS, CLIP, EPSILON, LEARNING_RATE = 5, 1.0, 1.0, 0.5


def gradient_descent(clip_each_record):
    """Noisy gradient descent; ``clip_each_record=False`` is the bug (the mean is clipped instead)."""

    def algorithm(data, rng):
        x, y = data[:, 0], data[:, 1]
        theta = 0.0
        for _ in range(STEPS):
            with np.errstate(over="ignore", invalid="ignore"):  # extreme records: inf, or NaN (the noise rejects it)
                gradients = (theta * x - y) * x
            if clip_each_record:
                mean_gradient = np.clip(gradients, -CLIP, CLIP).mean()
            else:
                mean_gradient = np.clip(gradients.mean(), -CLIP, CLIP)  # clipped after averaging
            sensitivity = 2 * CLIP / len(data)  # the sensitivity of the mean of clipped gradients
            noisy = laplace_mechanism(mean_gradient, sensitivity, EPSILON / STEPS, rng=rng)
            theta -= LEARNING_RATE * float(noisy)
        return theta

    algorithm.__qualname__ = "clipped_records" if clip_each_record else "clipped_mean"
    return algorithm


rng = np.random.default_rng(7)
x = rng.uniform(-1.0, 1.0, 200)
D = np.column_stack([x, 0.8 * x + 0.3 * rng.standard_t(3, 200)])
buggy, fixed = gradient_descent(clip_each_record=False), gradient_descent(clip_each_record=True)
print(f"theta on D: buggy {buggy(D, np.random.default_rng(0)):.3f}, fixed {fixed(D, np.random.default_rng(0)):.3f}")

# %% [markdown]
# ## Searching the neighbour
#
# `search_neighbours` records the algorithm once on `D`, then replays it on candidate neighbours: extreme
# records (1e300, 1e-300, 0, subnormals, NaN and infinities, over a whole record and one coordinate at a
# time), then a hill climb from the best one. Each candidate is scored by the largest ratio, over the calls, of
# the measured input distance to the declared sensitivity. A random neighbour would almost never show the bug:
# a typical record moves the mean gradient by far less than `2C / n`.

# %%
found = search_neighbours(buggy, D, budget=200, seed=0)
print(f"worst neighbour: {found.change}")
print(f"largest measured / declared sensitivity: {found.ratio:.4g} at call {found.call['index']}")
print(f"measured {found.call['measured']:.4g} vs declared {found.call['declared']:.4g}")

# %% [markdown]
# The searched neighbour replaces one record's `x` by 1e300: the mean gradient saturates at the clip `C` and
# moves by more than 1 instead of at most `2C / n = 0.01` (the output above). The audit on that pair, with the
# claim `epsilon = 1`, says which check fails and why:

# %%
audit = gray_box_audit(buggy, found.D, found.D_prime, epsilon=EPSILON, paths=100, seed=0)
print(audit.report())
sensitivity = audit.check("sensitivity").witness
print(f"\nsensitivity ratio = {sensitivity['ratio']:.4g} at call {sensitivity['index']}")
directions = audit.check("pair_loss").witness["directions"]
print(f"delta_pair lower bound = {max(d['delta_lower'] for d in directions.values()):.4g}")

# %% [markdown]
# `sensitivity` refutes the proof's premise: call 0, the first step's Laplace release, has an input that moved
# by 128.1 times the sensitivity its noise was calibrated to. `pair_loss` turns that into a refutation of the
# claim itself on this pair: the transcript's privacy loss, summed over the 5 calls on sampled paths, shows a
# `delta` of at least 0.8804 at `epsilon = 1` (the claim is `delta = 0`). `composition` is `confirmed`: the
# declared budgets add up to the claim, which is exactly why the bug is invisible to an accountant that trusts
# the declared sensitivities.
#
# ## The fix
#
# Clipping each record's gradient before averaging makes the declared sensitivity true. The same search and
# audit find nothing:

# %%
found_fixed = search_neighbours(fixed, D, budget=200, seed=0)
print(f"largest measured / declared sensitivity: {found_fixed.ratio:.4g} ({found_fixed.change})")
audit_fixed = gray_box_audit(fixed, found_fixed.D, found_fixed.D_prime, epsilon=EPSILON, paths=100, seed=0)
print(audit_fixed.report())

# %% [markdown]
# The worst neighbour now moves a call's input by exactly its declared sensitivity (ratio 1: a record whose
# clipped gradient goes from `-C` to `C`), and the audit finds no violation: no check refutes, and the
# composition of the declared calls is within the claim.
#
# ## A library, unchanged: diffprivlib
#
# The same audit runs on a third-party library by wrapping its functions at run time
# (`proofs_checks.audit.gray_box.third_party.diffprivlib`, the `thirdparty` extra). `diffprivlib.tools.mean` called
# without `bounds` computes them from the private data (it warns `PrivacyLeakWarning`); the audit flags the
# bound read from the data, with both values.

# %%
try:
    from diffprivlib import tools
    from diffprivlib.accountant import BudgetAccountant

    from proofs_checks.audit.gray_box.third_party.diffprivlib import diffprivlib_primitives, random_state_of
except ImportError:
    print('diffprivlib is not installed (pip install -e ".[thirdparty]"): cell skipped')
else:

    def library_mean(data, rng):
        return tools.mean(data, epsilon=1.0, random_state=random_state_of(rng), accountant=BudgetAccountant())

    with diffprivlib_primitives(), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        library = gray_box_audit(library_mean, D[:, 1], neighbours="search", epsilon=1.0, paths=20)
    print(f"diffprivlib warned {len(caught)} times: {sorted({type(w.message).__name__ for w in caught})}")
    print(library.check("control_flow").summary)
