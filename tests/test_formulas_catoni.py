"""The mpmath reference for E[phi(a + bZ)], the accuracy report and the ``formulas`` CLI."""

import json

import mpmath as mp
import numpy as np
import pytest

from proofs_checks.cli import main
from proofs_checks.formulas import catoni as F
from reference.hu.catoni import PHI_BOUND, c_hat, expected_phi


def test_reference_does_not_silently_return_zero_for_small_b():
    # a single quad of phi(x) n(x; a, b) over the real line misses the spike ...
    naive = F.naive_expected_phi_mp(0.5, 1e-10)
    assert abs(naive) < 1e-3
    # ... the split reference resolves it: E phi(0.5 + 1e-10 Z) = phi(0.5) - 0.5 * 1e-20 / 2
    ref = F.expected_phi_mp(0.5, 1e-10)
    with mp.workdps(40):
        exact = mp.mpf(0.5) - mp.mpf(0.5) ** 3 / 6 - mp.mpf(0.5) * mp.mpf(1e-10) ** 2 / 2
        assert abs(ref - exact) < mp.mpf(10) ** -33
    for b in (1e-300, 5e-324, 1e-17):
        with mp.workdps(40):
            assert abs(F.expected_phi_mp(0.7, b) - F.phi_mp(0.7)) < mp.mpf(10) ** -30


def test_reference_keeps_relative_accuracy_for_tiny_values():
    # E phi(a + bZ) ~ a * 2 r n(0) (2/3) / b for a -> 0, b -> inf: 7.52e-601 (closed form, ~1000 digits)
    q = F.expected_phi_mp(1e-300, 1e300)
    c = F.expected_phi_closed_mp(1e-300, 1e300)
    assert q != 0 and abs(q - c) / abs(c) < 1e-30


@pytest.mark.parametrize("a,b", [(0.3, 0.2), (1.5, 0.7), (-2.0, 3.0), (1.41, 1e-3), (1e5, 1e5), (5e-324, 5e-324)])
def test_quadrature_and_closed_form_agree(a, b):
    q = F.expected_phi_mp(a, b)
    c = F.expected_phi_closed_mp(a, b)
    assert abs(q - c) <= mp.mpf(10) ** -30 * max(abs(q), mp.mpf(10) ** -320)


def test_closed_form_with_a_flipped_term_disagrees():
    q = F.expected_phi_mp(1.5, 0.7)
    for k in range(5):
        signs = tuple(-1 if i == k else 1 for i in range(5))
        assert abs(F.expected_phi_closed_mp(1.5, 0.7, signs=signs) - q) > 1e-6


def test_accuracy_report_of_expected_phi_and_printed_c_hat():
    rep = F.accuracy_report(expected_phi, rng=0, grid_step=100, n_random=20, reference="closed")
    for key in ("target", "points", "max_abs_error", "max_rel_error", "worst_point", "verdict"):
        assert key in rep
    assert rep["verdict"] == "accurate" and rep["max_abs_error"] < 1e-15
    rep2 = F.accuracy_report(c_hat, target="c-hat", rng=0, grid_step=100, n_random=20, reference="closed")
    assert rep2["verdict"] == "inaccurate" and rep2["non_finite_values"] > 0
    box = rep2["accurate_region"]["box"]
    assert box["max_abs_a"] >= 10 and box["max_b"] >= 1 and box["max_b"] <= 100
    assert rep2["accurate_region"]["b=0 accurate"] is False


def test_accuracy_report_rejects_a_wrong_expected_phi():
    def wrong(a, b):  # drops the tail part for large |a|
        return np.where(np.abs(a) > 2, 0.9 * PHI_BOUND * np.sign(a), expected_phi(a, b))

    rep = F.accuracy_report(wrong, rng=0, grid_step=100, n_random=0, reference="closed")
    assert rep["verdict"] == "inaccurate"
    assert abs(rep["worst_point"]["a"]) > 2


def test_accuracy_report_has_named_fields_and_a_summary():
    def wrong(a, b):  # drops the tail part for large |a|
        return np.where(np.abs(a) > 2, 0.9 * PHI_BOUND * np.sign(a), expected_phi(a, b))

    rep = F.accuracy_report(wrong, rng=0, grid_step=100, n_random=0, reference="closed")
    assert rep.verdict == rep["verdict"] == "inaccurate" and rep.points == rep["points"]
    text = rep.summary()
    assert text.splitlines()[0] == "accuracy of expected-phi against mpmath"
    assert "inaccurate" in text and f"inaccurate_points   {rep['inaccurate_points']}" in text
    assert f"a = {rep.worst_point['a']:.6g}" in text
    with pytest.raises(AttributeError, match="no field 'verdcit'"):
        rep.verdcit  # noqa: B018


def test_accuracy_report_handles_callables_that_raise():
    def picky(a, b):
        if np.any(np.asarray(b) == 0):
            raise ValueError("b = 0 not supported")
        return expected_phi(a, b)

    rep = F.accuracy_report(picky, rng=0, grid_step=100, n_random=0, reference="closed")
    assert rep["raised_points"] > 0 and rep["verdict"] == "inaccurate"


def test_accuracy_map_figure(tmp_path):
    rep = F.accuracy_report(c_hat, target="c-hat", rng=0, grid_step=100, n_random=0, reference="closed")
    path = F.accuracy_map_figure([("c-hat", rep), ("again", rep)], tmp_path / "map.png")
    assert path.exists() and path.stat().st_size > 10_000


def test_cli_target_json(capsys, tmp_path):
    code = main(
        [
            "formulas",
            "--target",
            "c-hat",
            "--json",
            "--reference",
            "closed",
            "--grid-step",
            "100",
            "--random",
            "5",
            "--out",
            str(tmp_path),
        ]
    )
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    for key in ("target", "points", "max_abs_error", "max_rel_error", "worst_point", "verdict"):
        assert key in out
    assert out["target"] == "c-hat" and out["verdict"] == "inaccurate"
    assert (tmp_path / "accuracy_map_c-hat.png").exists()


def test_cli_port(capsys):
    code = main(
        [
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
            "0",
        ]
    )
    assert code == 0
    out = capsys.readouterr().out
    assert "verdict accurate" in out and "reference.hu.catoni:expected_phi" in out


@pytest.mark.parametrize(
    "argv,msg",
    [
        (["formulas", "--target", "c-hat", "--port", "no_such_module_xyz:f"], "cannot import module"),
        (["formulas", "--target", "c-hat", "--port", "reference.hu.catoni"], "MODULE:NAME"),
        (["formulas", "--target", "c-hat", "--port", "reference.hu.catoni:nope"], "has no attribute"),
        (["formulas", "--port", "reference.hu.catoni:c_hat"], "needs --target"),
        (["formulas", "--target", "c-hat", "--grid-step", "0"], "--grid-step"),
    ],
)
def test_cli_bad_arguments(argv, msg, capsys):
    assert main(argv) == 2
    assert msg in capsys.readouterr().err


@pytest.mark.slow
def test_cli_table_lists_formula_checks(capsys):
    assert main(["formulas"]) == 0
    out = capsys.readouterr().out
    assert "catoni.identity5.math" in out and "catoni.identity5.float64" in out


@pytest.mark.slow
def test_expected_phi_accurate_against_quadrature_on_the_default_grid():
    rep = F.accuracy_report(expected_phi, rng=1, grid_step=25, n_random=200, reference="quad")
    assert rep["verdict"] == "accurate" and rep["max_abs_error"] < 1e-15


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@given(st.floats(-10, 10), st.floats(-150, 1).map(lambda e: 10.0**e))
@settings(max_examples=150)
def test_printed_c_hat_accurate_inside_the_measured_region(a, b):
    # the region reported by catoni.identity5.float64: |a| <= 10, 1e-150 <= b <= 10
    plugged = a * (1 - b**2 / 2) - a**3 / 6 + c_hat(a, b)
    ref = F.expected_phi_closed_mp(a, b)
    err = abs(mp.mpf(float(plugged)) - ref)
    assert err <= 1e-12 or err <= 1e-12 * abs(ref)


@given(st.floats(allow_nan=False, allow_infinity=False), st.floats(0, 1e300) | st.sampled_from([0.0, 5e-324]))
@settings(max_examples=100)
def test_expected_phi_against_the_quadrature_reference_anywhere(a, b):
    ref = F.expected_phi_mp(a, b)
    assert abs(mp.mpf(float(expected_phi(a, b))) - ref) <= 1e-15
