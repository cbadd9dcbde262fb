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
import tempfile
from pathlib import Path

from IPython.display import Image, display

from proofs_checks.model import CheckContext
from proofs_checks.registry import default_registry
from proofs_checks.report import claim_record, verdict_line
from proofs_checks.runner import run_claims

registry = default_registry()
out = Path(tempfile.mkdtemp(prefix="notebook-"))


def run(*claim_ids):
    """Run the claims (quick profile, the report's seed): print each verdict line, show its figures."""
    ctx = CheckContext(profile="quick", out_dir=out)
    results = {}
    for claim, result in run_claims([registry.claim(c) for c in claim_ids], ctx):
        print(f"{claim.id}  {claim.source}\n  {verdict_line(claim_record(claim, result))}\n")
        for fig in result.figures:
            display(Image(filename=str(out / fig)))
        results[claim.id] = result
    return results


# %%
results = run("arora.gem.privacy", "arora.gem.utility")

# %%
results.update(run("arora.lemma-d4.noisy-gd", "arora.lemma-d4.noisy-gd.standard",
                   "arora.lemma-d4.output-perturbation", "arora.lemma-d4.output-perturbation.standard"))

# %%
import matplotlib.pyplot as plt

d4 = {k: v for k, v in results.items() if "lemma-d4" in k and v.observed is not None and v.bound}
fig, ax = plt.subplots(figsize=(6, 3))
ax.barh([k.replace("arora.lemma-d4.", "") for k in d4], [v.observed / v.bound for v in d4.values()])
ax.axvline(1.0, color="black", linestyle=":")
ax.set_xlabel("observed / stated bound (above 1: the bound fails)")
plt.tight_layout()
plt.show()
