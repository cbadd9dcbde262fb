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
results = run("catoni.identity5.math", "catoni.identity5.float64")

# %%
results.update(run("hu.sec62.alg1-noise-shrinks"))

# %%
from proofs_checks.experiments import section6

cells = [dict(figure=1, d=200, n=n, epsilon=1.0) for n in (10_000, 30_000, 90_000)]
for cell in cells:
    print(f"n = {cell['n']:>6}: blind-walk level of the excess risk {section6.blind_walk_level(cell):.3f}")
