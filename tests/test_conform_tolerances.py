"""The stated tolerances are the ones in force: for every port function with golden cases, the kit fails a port
whose outputs are the golden values moved to 1.5 times the declared tolerance (one ulp for a bit-exact one;
1.5 times ``law_atol`` for a law) and passes one moved to 0.5 times; loosening the kit's table a million-fold
makes the first half of these tests fail, so they read the table the kit uses, not a copy of it."""

from __future__ import annotations

import numpy as np
import pytest

from proofs_checks.conform import TOLERANCES, Tol, golden_functions, run_kit
from proofs_checks.conform.scales import PHI_BOUND

from ._moved_ports import cases_of, moved_expected, moved_port, port_returning

GOLDEN = [f.name for f in golden_functions()]
OUTSIDE, INSIDE = 1.5, 0.5


def _golden_records(port, name):
    return run_kit(port, only={name}, samplers=False, privacy=False)


def _statuses(name, factor):
    records = _golden_records(moved_port(name, factor), name)
    assert len(records) == len(cases_of(name)) > 0
    return records


@pytest.mark.parametrize("name", GOLDEN)
def test_just_outside_the_stated_tolerance_fails(name):
    records = _statuses(name, OUTSIDE)
    assert all(r["status"] == "failed" for r in records), [r["case"] for r in records if r["status"] != "failed"]
    assert all(
        r["case"] in r["message"]
        and ("ulps" in r["message"] or "allowed" in r["message"] or "log-probability" in r["message"])
        for r in records
    )


@pytest.mark.parametrize("name", GOLDEN)
def test_just_inside_the_stated_tolerance_passes(name):
    records = _statuses(name, INSIDE)
    assert all(r["status"] == "passed" for r in records), [r["message"] for r in records if r["status"] != "passed"]


def _scaled(tol, factor, *, least_ulps=0.0, least_law_atol=0.0):
    """``tol`` with its ulps and ``law_atol`` (and its variants') times ``factor``, from at least the given least."""
    variants = (
        {k: _scaled(v, factor, least_ulps=least_ulps, least_law_atol=least_law_atol) for k, v in tol.variants.items()}
        if tol.variants
        else tol.variants
    )
    return tol._replace(
        ulps=max(tol.ulps, least_ulps) * factor, law_atol=max(tol.law_atol, least_law_atol) * factor, variants=variants
    )


def _loosened(tol, factor=1e6):
    """``tol`` with every allowance ``factor`` times larger (a bit-exact one becomes ``factor`` ulps)."""
    return _scaled(tol, factor, least_ulps=1.0, least_law_atol=1e-15)


def test_a_table_loosened_a_million_fold_lets_every_outside_port_pass(monkeypatch):
    # power of the tests above: were the kit's table loosened, no port moved outside the stated tolerance
    # would fail any more, so test_just_outside_the_stated_tolerance_fails would fail for every function
    for name, tol in list(TOLERANCES.items()):
        monkeypatch.setitem(TOLERANCES, name, _loosened(tol))
    still_failing = [
        name
        for name in GOLDEN
        if any(r["status"] != "passed" for r in _golden_records(moved_port(name, OUTSIDE), name))
    ]
    assert still_failing == []


def test_a_table_tightened_rejects_the_inside_ports(monkeypatch):
    # the other direction: at a quarter of the stated tolerances, the ports moved to half of them fail (the
    # bit-exact functions are not moved by the inside ports, so they have nothing to show here)
    for name, tol in list(TOLERANCES.items()):
        monkeypatch.setitem(TOLERANCES, name, _scaled(tol, 0.25))
    moved = [f.name for f in golden_functions() if (f.tolerance.law_atol if f.kind == "law" else f.tolerance.ulps)]
    passing = [
        name for name in moved if all(r["status"] == "passed" for r in _golden_records(moved_port(name, INSIDE), name))
    ]
    assert len(moved) > 30 and passing == []


def test_expected_phi_never_outside_b_is_in_force(monkeypatch):
    # one ulp beyond B is well within expected_phi's 16 ulps of B, yet the bound of the declaration fails it
    outputs = {}
    for case in cases_of("expected_phi"):
        exp = np.asarray(case["expected_decoded"])
        assert np.any(np.abs(exp) == PHI_BOUND)
        outputs[case["id"]] = np.where(np.abs(exp) == PHI_BOUND, np.nextafter(exp, 2.0 * exp), exp)
    port = port_returning("expected_phi", outputs)
    records = _golden_records(port, "expected_phi")
    assert records and all(r["status"] == "failed" and "must not exceed B" in r["message"] for r in records)
    monkeypatch.setitem(TOLERANCES, "expected_phi", TOLERANCES["expected_phi"]._replace(bound=None))
    assert all(r["status"] == "passed" for r in _golden_records(port, "expected_phi"))


def test_c_hat_non_finite_golden_values_are_not_compared(monkeypatch):
    outputs, replaced = {}, 0
    for case in cases_of("c_hat"):
        exp = np.asarray(case["expected_decoded"])
        replaced += int((~np.isfinite(exp)).sum())
        outputs[case["id"]] = np.where(np.isfinite(exp), exp, 0.0)
    assert replaced > 0
    port = port_returning("c_hat", outputs)
    assert all(r["status"] == "passed" for r in _golden_records(port, "c_hat"))
    monkeypatch.setitem(TOLERANCES, "c_hat", TOLERANCES["c_hat"]._replace(nonfinite_compared=True))
    assert any(r["status"] == "failed" and "non-finite" in r["message"] for r in _golden_records(port, "c_hat"))


def test_the_probe_moves_what_the_kit_compares():
    # the moves are what they say: a bit-exact value by one ulp, psi by 1.5 x 4 ulps of log(theta), a law's
    # log-probabilities by 1.5 x law_atol, and integers (T, s, k of a parameter dict) not at all
    case = cases_of("laplace_scale")[0]
    moved, count = moved_expected(case, OUTSIDE)
    assert count == 1 and moved == np.nextafter(case["expected_decoded"], 0.0)
    case = cases_of("psi")[1]
    theta = case["kwargs_decoded"]["theta"]
    moved, _ = moved_expected(case, OUTSIDE)
    exp = case["expected_decoded"]
    finite = np.isfinite(exp)
    assert np.allclose(np.abs(moved - exp)[finite], 6 * np.spacing(np.log(theta)), rtol=0.5)
    case = cases_of("dp_fw_output_log_prob")[0]
    (outputs, logp), _ = moved_expected(case, OUTSIDE)
    assert np.allclose(np.abs(logp - case["expected_decoded"][1]), 1.5e-9, rtol=1e-3)
    case = cases_of("hu_theorem2_parameters")[0]
    moved, _ = moved_expected(case, OUTSIDE)
    ints = {k for k, v in case["expected_decoded"].items() if isinstance(v, int) and not isinstance(v, bool)}
    assert ints and all(moved[k] == case["expected_decoded"][k] for k in ints)


def test_loosening_keeps_the_tol_type():
    assert isinstance(_loosened(TOLERANCES["robust_mean"]), Tol)
    assert _loosened(TOLERANCES["robust_mean"]).variants["printed"].ulps == 64e6
