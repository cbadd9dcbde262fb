"""Coverage cannot pass silently: only declared gaps are skipped, unknown names are listed, nothing checked fails."""

from __future__ import annotations

import json
import types

import numpy as np

import examples.numpy_port as good
from proofs_checks.cli import main
from proofs_checks.conform import reference_port
from proofs_checks.conform.coverage import coverage_summary, declared_gaps, unknown_names
from proofs_checks.conform.deterministic import load_cases
from proofs_checks.conform.functions import FUNCTIONS
from proofs_checks.conform.kit import exit_status, run_kit, summarise
from proofs_checks.golden.encoding import SCHEMA_ID, encode

_ALL = [f.name for f in FUNCTIONS]
_MISSPELT = '''
import numpy as np

def expectedphi(a, b):
    return np.zeros(np.broadcast(a, b).shape)

def laplace_mech(value, sensitivity, epsilon, size=None, rng=None):
    return np.asarray(value) + np.random.default_rng(rng).laplace(0.0, sensitivity / epsilon, size)
'''


def _module(name, source="", **attrs):
    mod = types.ModuleType(name)
    exec(source, mod.__dict__)
    mod.__dict__.update(attrs)
    return mod


def _quick(port, only=None, **kw):
    return run_kit(port, only=only, size="small", seed=3, samplers=False, privacy=False, rng_contract=False, **kw)


def test_misspelt_port_does_not_conform_and_names_the_misspellings(tmp_path, capsys):
    path = tmp_path / "misspelt_port.py"
    path.write_text(_MISSPELT)
    rc = main(["conform", "--port", str(path), "--size", "small", "--no-privacy", "--no-samplers"])
    out = capsys.readouterr().out
    assert rc == 1 and "DOES NOT CONFORM" in out
    assert "checked (0): -" in out and "nothing was checked" in out
    assert "'expectedphi' (did you mean 'expected_phi'?)" in out
    assert "'laplace_mech' (did you mean 'laplace_mechanism'?)" in out
    assert "expected_phi [expected_phi/" in out and "not declared unsupported" in out


def test_undeclared_missing_function_fails_declared_one_is_skipped():
    records = _quick(_module("p"), only={"phi"})
    assert [r["status"] for r in records] == ["failed"] and "UNSUPPORTED" in records[0]["message"]
    records = _quick(_module("p", UNSUPPORTED={"phi": "not yet"}), only={"phi"})
    assert [r["status"] for r in records] == ["skipped"] and "not yet" in records[0]["message"]
    assert exit_status(records) == 1, "nothing was checked: exit 1"


def test_everything_declared_unsupported_checks_nothing_and_exits_one(capsys):
    port = _module("p", UNSUPPORTED=list(_ALL))
    records = run_kit(port, size="small")
    assert {r["status"] for r in records} == {"skipped"} and exit_status(records) == 1
    assert coverage_summary(records)["checked"] == []


def test_declared_but_provided_is_skipped_not_run():
    port = _module("p", phi=lambda x: 1 / 0, UNSUPPORTED=["phi"])
    records = _quick(port, only={"phi"})
    assert [r["status"] for r in records] == ["skipped"]


def test_misspelt_gap_entry_fails_with_the_nearest_name():
    port = _module("p", phi=good.phi, UNSUPPORTED=["expectedphi"])
    records = _quick(port, only={"phi"})
    bad = [r for r in records if r["kind"] == "coverage"]
    assert bad and bad[0]["status"] == "failed" and "did you mean 'expected_phi'" in bad[0]["message"]
    assert exit_status(records) == 1


def test_a_variant_gap_skips_only_that_variant():
    def robust_mean(x, s, beta, *, variant="standard", axis=0):
        if variant != "standard":
            raise NotImplementedError(variant)
        return good.robust_mean(x, s, beta, variant=variant, axis=axis)

    records = _quick(_module("p", robust_mean=robust_mean), only={"robust_mean"})
    assert {r["status"] for r in records if "printed" in r["case"]} == {"failed"}
    records = _quick(_module("p", robust_mean=robust_mean, UNSUPPORTED=["robust_mean:printed"]), only={"robust_mean"})
    by_status = {r["case"]: r["status"] for r in records}
    assert {s for c, s in by_status.items() if "printed" in c} == {"skipped"}
    assert {s for c, s in by_status.items() if "standard" in c} == {"passed"}
    assert exit_status(records) == 0


def test_example_port_declares_exactly_what_it_lacks():
    gaps = declared_gaps(good)
    assert not gaps.invalid()
    assert sorted(gaps.entries) == sorted(n for n in _ALL if not callable(getattr(good, n, None)))
    assert unknown_names(good) == []


def test_reference_port_declares_nothing_and_has_no_unknown_names():
    assert not declared_gaps(reference_port) and unknown_names(reference_port) == []


def test_results_file_declares_its_gaps(tmp_path, capsys):
    results = [
        {"id": c["id"], "output": encode(good.phi(*c["args_decoded"]))} for c in load_cases() if c["function"] == "phi"
    ]
    path = tmp_path / "results.json"
    doc = {"schema": SCHEMA_ID, "results": results}
    path.write_text(json.dumps(doc))
    assert main(["conform", "--results", str(path), "--json"]) == 1  # the other functions are not declared
    summary = json.loads(capsys.readouterr().out)
    assert summary["functions"]["psi"]["status"] == "failed" and summary["coverage"]["checked"] == ["phi"]
    path.write_text(json.dumps(dict(doc, unsupported=[n for n in _ALL if n != "phi"])))
    assert main(["conform", "--results", str(path), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["functions"]["psi"]["status"] == "skipped"


def test_law_mismatch_prints_port_then_expected_in_both_scales():
    def shifted(*args, **kwargs):
        outs, logp = reference_port.dp_fw_output_log_prob(*args, **kwargs)
        return outs, np.asarray(logp) + 0.1

    records = _quick(_module("p", dp_fw_output_log_prob=shifted), only={"dp_fw_output_log_prob"})
    msg = [r for r in records if r["status"] == "failed"][0]["message"]
    got, expected = (float(t) for t in msg.split(" is ")[1].split(" (error")[0].split(", expected "))
    assert abs(got - expected - 0.1) < 1e-12
    assert f"probability {np.exp(got):.6g}, expected {np.exp(expected):.6g}" in msg


def test_summarise_and_coverage_agree_on_a_passing_port():
    records = _quick(good, only={"phi", "psi", "peeling"})
    assert summarise(records)["phi"]["status"] == "passed"
    assert coverage_summary(records)["checked"] == ["phi", "psi"]  # the sampler check is off in _quick


# Readings: the golden sensitivities carry both readings of ||W||_1 ([002 Sec. 3] defines the diameter)


def _sensitivity_port(default_reading, honour_reading=True):
    from reference.hu import frank_wolfe as FW

    def dp_fw_sensitivity(vertices, s, m, reading=default_reading):
        return FW.dp_fw_sensitivity(vertices, s, m, reading if honour_reading else default_reading)

    def lasso_sensitivity(vertices, K, n, reading=default_reading):
        return FW.lasso_sensitivity(vertices, K, n, reading if honour_reading else default_reading)

    return dp_fw_sensitivity, lasso_sensitivity


def test_sensitivity_cases_name_their_reading_and_a_port_of_either_reading_passes():
    cases = [c for c in load_cases() if c["function"] in ("dp_fw_sensitivity", "lasso_sensitivity")]
    assert {c["kwargs_decoded"]["reading"] for c in cases} == {"radius", "diameter"}
    assert all("l1 radius" in c["reading"] or "l1 diameter" in c["reading"] for c in cases)
    names = {"dp_fw_sensitivity", "lasso_sensitivity"}
    for default in ("radius", "diameter"):
        fw, lasso = _sensitivity_port(default)
        records = _quick(_module("p", dp_fw_sensitivity=fw, lasso_sensitivity=lasso), only=names)
        assert exit_status(records) == 0 and len(records) == 8


def test_a_port_with_only_the_diameter_fails_the_radius_cases_by_two_and_may_declare_the_gap():
    fw, lasso = _sensitivity_port("diameter", honour_reading=False)
    names = {"dp_fw_sensitivity", "lasso_sensitivity"}
    records = _quick(_module("p", dp_fw_sensitivity=fw, lasso_sensitivity=lasso), only=names)
    failed = [r for r in records if r["status"] == "failed"]
    assert len(failed) == 4 and all("diameter" not in r["case"] for r in failed)
    got, expected = (float(t) for t in failed[0]["message"].split("got ")[1].split(", expected "))
    assert got == 2.0 * expected
    gaps = ["dp_fw_sensitivity:radius", "lasso_sensitivity:radius"]
    records = _quick(_module("p", dp_fw_sensitivity=fw, lasso_sensitivity=lasso, UNSUPPORTED=gaps), only=names)
    assert exit_status(records) == 0 and sum(r["status"] == "skipped" for r in records) == 4
