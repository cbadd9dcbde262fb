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
# # 004 (Arora et al.): GEM, and the Delta(B) bounds of Lemma D.4
#
# Private Grid Search selects a candidate with the Generalized Exponential Mechanism (App. D.1).
# Its privacy and utility are checked on exact selection laws; Lemma D.4's two bounds on the
# sensitivity Delta(B) of the base learners are checked as printed and in a corrected (standard) form.

# %%
from proofs_checks.notebook import run_and_show as run

# %%
results = run("arora.gem.privacy", "arora.gem.utility")

# %%
results.update(
    run(
        "arora.lemma-d4.noisy-gd",
        "arora.lemma-d4.noisy-gd.standard",
        "arora.lemma-d4.output-perturbation",
        "arora.lemma-d4.output-perturbation.standard",
    )
)

# %%
import matplotlib.pyplot as plt

d4 = {k: v for k, v in results.items() if "lemma-d4" in k and v.observed is not None and v.bound}
fig, ax = plt.subplots(figsize=(6, 3))
ax.barh([k.replace("arora.lemma-d4.", "") for k in d4], [v.observed / v.bound for v in d4.values()])
ax.axvline(1.0, color="black", linestyle=":")
ax.set_xlabel("observed / stated bound (above 1: the bound fails)")
plt.tight_layout()
plt.show()
