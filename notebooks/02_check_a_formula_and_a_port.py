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

for a, b in [(0.5, 0.3), (5.0, 2.0), (30.0, 1e-3)]:
    ref = float(F.expected_phi_mp(a, b))
    print(
        f"a={a:<5} b={b:<6} expected_phi {catoni.expected_phi(a, b):+.16f}  "
        f"C-hat in identity (5) {a * (1 - b**2 / 2) - a**3 / 6 + catoni.c_hat(a, b):+.6g}  mpmath {ref:+.16f}"
    )

# %% [markdown]
# At `a = 30` the printed closed form loses every digit to cancellation (`a^3/6` is 4500 while the
# answer is below 1); `expected_phi` stays accurate. The accuracy report does this over a grid of
# magnitudes and random points:

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
