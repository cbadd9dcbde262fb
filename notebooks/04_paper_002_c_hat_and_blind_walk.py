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
# # 002 (Hu, Ni, Xiao & Wang): C-hat in float64, and the Section 6 blind walk
#
# Two findings: the printed closed form C-hat of identity (5) is right as mathematics but its
# float64 evaluation is accurate only on a small region (the map below); and with Section 6.2's
# settings the noise of Algorithm 1 does not shrink with n, so its error is that of a Frank-Wolfe
# walk over random vertices (the "blind walk").

# %%
from proofs_checks.notebook import run_and_show as run

# %%
results = run("catoni.identity5.math", "catoni.identity5.float64")

# %% [markdown]
# The float64 evaluation misses the mpmath reference by 0.942809 at its worst point (the whole
# answer: the tolerance is 1e-12).

# %%
results.update(run("hu.sec62.alg1-noise-shrinks"))

# %% [markdown]
# From one n to the next the noise scale grows by a factor of up to 1.47673 (it would fall below 1 if
# the noise shrank). The blind walk's level of the excess risk falls only slowly with n:

# %%
from proofs_checks.experiments import section6

cells = [dict(figure=1, d=200, n=n, epsilon=1.0) for n in (10_000, 30_000, 90_000)]
for cell in cells:
    print(f"n = {cell['n']:>6}: blind-walk level of the excess risk {section6.blind_walk_level(cell):.3f}")
