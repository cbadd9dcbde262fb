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
# # Check a formula and a port
#
# Paper 002 needs `E[phi(a + bZ)]` for the smoothed Catoni estimator and prints a closed form
# `C-hat(a, b)` for it (identity (5), Appendix A). Here: the value at a few points against the
# mpmath reference, the float64 accuracy report of a callable, and the `formulas --port` command
# that checks *your* implementation (a port to another library) the same way.

# %%
import json
import subprocess
import sys

from proofs_checks.formulas import catoni as F
from reference.hu import catoni

print(f"{'a':>9} {'b':>6} {'mpmath':>19} {'|expected_phi err|':>19} {'|printed form err|':>19} {'relative':>9}")
for a, b in [(0.5, 0.3), (5.0, 2.0), (30.0, 1e-3), (300.0, 1e-3), (3000.0, 1.0), (1e5, 1.0), (1e6, 1.0)]:
    ref = float(F.expected_phi_mp(a, b))
    printed = a * (1 - b**2 / 2) - a**3 / 6 + catoni.c_hat(a, b)  # identity (5) as printed
    ours, theirs = abs(catoni.expected_phi(a, b) - ref), abs(printed - ref)
    print(f"{a:9.6g} {b:6.3g} {ref:+.16f} {ours:19.2g} {theirs:19.2g} {theirs / abs(ref):9.2g}")

# %% [markdown]
# The printed closed form is fine at moderate `a`: within 1.6e-13 of mpmath at `a = 30`. Its error
# then grows with `a^3` (the cancellation between `a^3/6` and C-hat): 7.4e-12 at `a = 300`, already
# beyond the 1e-12 the accuracy check allows, 6.3e-08 at `a = 3000`, 0.0053 at `a = 1e5`, and at
# `a = 1e6` its relative error is 1: every digit is lost (`a^3/6` is about 1.7e17 while the answer is
# below 1). `expected_phi` stays within 1.1e-16 at every one of these points. The accuracy report does
# this over a grid of magnitudes and random points:

# %%
for fn, target in [(catoni.expected_phi, "expected-phi"), (catoni.c_hat, "c-hat")]:
    rep = F.accuracy_report(fn, target=target, rng=0, grid_step=100, n_random=20, reference="closed")
    print(f"{target:<13} points {rep['points']:4d}  max abs error {rep['max_abs_error']:.3g}  verdict {rep['verdict']}")

# %% [markdown]
# A port is checked from the command line: `--port MODULE:NAME` names the callable. Here the port
# is the reference itself; give your own module to check yours.

# %%
cmd = [
    sys.executable,
    "-m",
    "proofs_checks",
    "formulas",
    "--target",
    "expected-phi",
    "--port",
    "reference.hu.catoni:expected_phi",
    "--reference",
    "closed",
    "--grid-step",
    "100",
    "--random",
    "20",
    "--json",
]
report = json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)
print({k: report[k] for k in ("target", "points", "max_abs_error", "verdict")})
assert report["verdict"] == "accurate"
