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
# # A theorem's rate: Theorem 2 of 002
#
# The rate check sweeps the sample size, measures the excess population risk exactly, fits the
# log-log slope of its 1-zeta quantile and compares it with the stated exponent. Quick profile.

# %%
from proofs_checks.notebook import run_and_show as run

# %%
results = run("rates.hu.thm2")
ev = results["rates.hu.thm2"].evidence
print({k: ev.get(k) for k in ("stated_exponent", "observed_exponent", "ci_low", "ci_high", "rate_verdict")})
