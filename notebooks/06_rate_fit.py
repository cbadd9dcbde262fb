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
results = run("rates.hu.thm2")
ev = results["rates.hu.thm2"].evidence
print({k: ev.get(k) for k in ("stated_exponent", "observed_exponent", "ci_low", "ci_high", "rate_verdict")})
