"""The power sweep: mutants run with the claim's own context; smallest error caught, largest missed."""

import json
import subprocess
import sys

import numpy as np

from proofs_checks.model import CheckContext, Claim, Mutant, Result
from proofs_checks.power import _describe, MutantOutcome, claim_power, power_summary


def _noise_scale_check(scale_factor=1.0, samples=20_000):
    """Toy check: is the sample standard deviation of Laplace noise within 3% of the stated sqrt(2)?"""

    def check(ctx):
        x = ctx.rng().laplace(0.0, scale_factor, size=samples)
        sd = float(np.std(x))
        ok = abs(sd / np.sqrt(2) - 1) <= 0.03
        return Result("confirmed" if ok else "refuted", observed=sd, bound=np.sqrt(2), direction="equal",
                      method=f"{samples} draws")

    return check


def _claim():
    mutants = tuple(Mutant(f"noise scale x{f}", _noise_scale_check(f), factor=f) for f in (0.5, 0.8, 0.9, 0.99, 2.0))
    return Claim("toy.laplace.scale", "[002 Def. 2]", "Lap(1) has sd sqrt(2)", "formula", _noise_scale_check(),
                 mutants=mutants)


def test_claim_power_runs_every_mutant_and_names_smallest_caught_and_largest_missed():
    p = claim_power(_claim(), CheckContext(seed=3))
    assert p.verdict == "confirmed"
    detected = {m.name: m.detected for m in p.mutants}
    assert detected == {"noise scale x0.5": True, "noise scale x0.8": True, "noise scale x0.9": True,
                        "noise scale x0.99": False, "noise scale x2.0": True}
    assert p.detects == "noise scale x0.9"
    assert p.misses == "noise scale x0.99"
    s = power_summary([p])
    assert s["mutants"] == 5 and s["mutants_detected"] == 4 and s["claims_detecting_all"] == 0


def test_mutants_use_the_claims_own_stream():
    seen = []

    def check(ctx):
        seen.append(ctx.rng().random())
        return Result("confirmed")

    claim = Claim("toy.stream", "[000 Thm. 1]", "s", "formula", check, mutants=(Mutant("same", check),))
    claim_power(claim, CheckContext(seed=5))
    assert len(seen) == 2 and seen[0] == seen[1]


def test_describe_without_factors_and_without_mutants():
    assert _describe([]) == ("no mutants declared", "no mutants declared")
    outs = [MutantOutcome("dropped factor 2", None, "refuted", True), MutantOutcome("other reading", None,
                                                                                   "confirmed", False)]
    assert _describe(outs) == ("dropped factor 2", "other reading")


def test_a_mutant_that_raises_is_not_detected():
    def boom(ctx):
        raise RuntimeError("broken")

    claim = Claim("toy.boom", "[000 Thm. 1]", "s", "formula", lambda ctx: Result("confirmed"),
                  mutants=(Mutant("raises", boom, factor=2.0),))
    p = claim_power(claim, CheckContext())
    assert p.mutants[0].verdict == "error" and not p.mutants[0].detected


def test_power_cli_json_lists_claims_with_their_mutants():
    out = subprocess.run([sys.executable, "-m", "proofs_checks", "power", "--only", "primitives.gaussian", "--json"],
                         capture_output=True, text=True, check=True)
    data = json.loads(out.stdout)
    assert [c["id"] for c in data["claims"]] == ["primitives.gaussian.classic-calibration"]
    assert set(data["claims"][0]) == {"id", "kind", "verdict", "mutants", "detects", "misses"}


def test_verify_seeds_records_every_seed(tmp_path):
    out = tmp_path / "r"
    subprocess.run([sys.executable, "-m", "proofs_checks", "verify", "--only", "primitives.gem.utility", "--seeds", "3",
                    "--no-timings", "--out", str(out)], capture_output=True, text=True, check=True)
    rec = json.loads((out / "report.json").read_text())["claims"][0]
    assert [s["seed"] for s in rec["evidence"]["seeds"]][0] == 20261121 and len(rec["evidence"]["seeds"]) == 3
    assert rec["power"] is None
