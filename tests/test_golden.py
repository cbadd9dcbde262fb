"""Golden vectors: regenerated on any CPU they are accepted by the conformance kit against the shipped files (the
rule a port is held to), with the bits the reproducibility contract calls portable unchanged; they carry their
provenance, follow the documented schema, stay small, and the reference itself passes them."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from proofs_checks.conform.deterministic import GOLDEN_DIR, run_deterministic
from proofs_checks.golden.encoding import VOLATILE_PROVENANCE, decode, encode, load
from proofs_checks.golden.generate import SUBJECTS, write_all


def _strip(path):
    doc = json.loads(Path(path).read_text())
    for k in VOLATILE_PROVENANCE:
        doc["provenance"].pop(k, None)
    return doc


def regeneration_report(new_dir, subjects, golden_dir=GOLDEN_DIR):
    """Compare regenerated golden files with the shipped ones: ``(problems, kit_records)``.

    ``problems`` lists what must never differ on another CPU (docs/reproducibility.md): the files' structure,
    descriptions and non-volatile provenance, every case's id, function, compare mode, inputs (``args``,
    ``kwargs``: draws and IEEE arithmetic, portable bit for bit), and the expected values of the functions a
    subject declares ``PORTABLE`` (mpmath values rounded once).  ``kit_records`` holds the conformance kit's
    verdict on every regenerated expected value, read as a port's results against the shipped files.
    """
    problems, results = [], {}
    portable = {m.SUBJECT: set(getattr(m, "PORTABLE", ())) for m in SUBJECTS}
    for name in subjects:
        new, old = _strip(Path(new_dir) / f"{name}.json"), _strip(Path(golden_dir) / f"{name}.json")
        if {k: v for k, v in new.items() if k != "cases"} != {k: v for k, v in old.items() if k != "cases"}:
            problems.append(f"{name}: header or provenance differs")
        if [c["id"] for c in new["cases"]] != [c["id"] for c in old["cases"]]:
            problems.append(f"{name}: the list of cases differs")
            continue
        for a, b in zip(new["cases"], old["cases"]):
            for key in ("function", "compare", "args", "kwargs", "note", "mp_reference"):
                if a.get(key) != b.get(key):
                    problems.append(f"{name} [{a['id']}]: {key} differs")
            if a["function"] in portable[name] and a["expected"] != b["expected"]:
                problems.append(f"{name} [{a['id']}]: expected value of a portable function differs")
            results[a["id"]] = decode(a["expected"])
    files = {f"{name}.json" for name in subjects}
    records = [r for r in run_deterministic(results=results, golden_dir=golden_dir) if r["file"] in files]
    return problems, records


def _assert_accepted(tmp_path, subjects):
    write_all(tmp_path, only=subjects)
    problems, records = regeneration_report(tmp_path, subjects)
    assert problems == []
    failed = [r.get("message") for r in records if r["status"] != "passed"]
    assert records and failed == []
    assert (tmp_path / "schema.json").read_bytes() == (GOLDEN_DIR / "schema.json").read_bytes()


def test_every_subject_regenerates_to_files_the_kit_accepts(tmp_path):
    _assert_accepted(tmp_path, [m.SUBJECT for m in SUBJECTS])


def test_regeneration_check_rejects_moved_inputs_and_values(tmp_path):
    # power: a shipped file with one input moved by an ulp, one portable value moved by an ulp, or a law value
    # moved beyond the kit's tolerance is reported; the unchanged copy is not
    shipped = tmp_path / "shipped"
    shipped.mkdir()
    for name in ("wang_xu", "schema"):
        (shipped / f"{name}.json").write_bytes((GOLDEN_DIR / f"{name}.json").read_bytes())
    assert regeneration_report(GOLDEN_DIR, ["wang_xu"], golden_dir=shipped)[0] == []
    doc = json.loads((shipped / "wang_xu.json").read_text())
    psi_case = next(c for c in doc["cases"] if c["function"] == "psi")
    x = decode(psi_case["args"])[0]
    x[4] = np.nextafter(x[4], 1.0)
    psi_case["args"] = encode([x])
    risk = next(c for c in doc["cases"] if c["function"] == "truncated_empirical_risk")
    v = decode(risk["expected"])
    v[0] = np.nextafter(v[0], 1.0)
    risk["expected"] = encode(v)
    law = next(c for c in doc["cases"] if c["function"] == "wang_xu_log_prob")
    pts, logp = decode(law["expected"])
    logp[0] += 1e-9
    law["expected"] = encode((pts, logp))
    (shipped / "wang_xu.json").write_text(json.dumps(doc, indent=1) + "\n")
    problems, records = regeneration_report(GOLDEN_DIR, ["wang_xu"], golden_dir=shipped)
    assert any("psi" in p and "args differs" in p for p in problems)
    assert any("truncated_empirical_risk" in p and "portable" in p for p in problems)
    assert any(r["status"] == "failed" and r["function"] == "wang_xu_log_prob" for r in records)


def test_provenance_and_size():
    total = 0
    for path in GOLDEN_DIR.glob("*.json"):
        total += path.stat().st_size
        if path.name == "schema.json":
            continue
        prov = load(path)["provenance"]
        for key in (
            "project_version",
            "commit",
            "python",
            "numpy",
            "scipy",
            "mpmath",
            "command",
            "seed",
            "reference_precision",
        ):
            assert prov.get(key) not in (None, ""), (path.name, key)
    assert total < 5_000_000


def test_schema_validates_when_jsonschema_is_available():
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((GOLDEN_DIR / "schema.json").read_text())
    for path in GOLDEN_DIR.glob("*.json"):
        if path.name != "schema.json":
            jsonschema.validate(json.loads(path.read_text()), schema)


def test_encoding_round_trips_exact_bits():
    x = np.array([5e-324, -0.0, 1e-300, 0.1, 1.7976931348623157e308, np.inf, -np.inf, np.nextafter(1.0, 2.0)])
    back = decode(json.loads(json.dumps(encode(x))))
    assert back.tobytes() == x.tobytes()
    assert np.isnan(decode(encode(float("nan"))))


def test_reference_passes_its_golden_vectors():
    import proofs_checks.conform.reference_port as ref

    recs = run_deterministic(ref)
    assert recs and all(r["status"] == "passed" for r in recs), [
        r.get("message") for r in recs if r["status"] != "passed"
    ]


def test_mp_reference_agrees_with_golden_expected_phi():
    for case in load(GOLDEN_DIR / "catoni.json")["cases"]:
        if case["function"] == "expected_phi":
            exp = decode(case["expected"])
            mp = np.array([float(s) for s in case["mp_reference"]["mp"]])
            assert np.max(np.abs(exp - mp)) < 1e-15


# Independent values: every mp_reference (computed apart from the reference) holds the shipped float64 value to
# the kit's tolerance, so the golden values are checked against an oracle, not only the reference's own snapshot.


def _mp_as_port_output(case):
    from proofs_checks.golden.independent import as_port_output

    return as_port_output(case)


def _independent_cases():
    from proofs_checks.conform.deterministic import load_cases

    return [c for c in load_cases() if "mp_reference" in c]


def test_every_independent_value_agrees_with_the_shipped_value_within_the_kit_tolerance():
    from proofs_checks.conform.compare import compare_case

    cases = _independent_cases()
    for c in cases:
        compare_case(c, _mp_as_port_output(c), c["args_decoded"], c["kwargs_decoded"])
    covered = {c["function"] for c in cases}
    assert {
        "laplace_scale",
        "report_noisy_max_scale",
        "peeling_scale",
        "gem_threshold",
        "dp_fw_sensitivity",
        "lasso_sensitivity",
        "lasso_epsilon_step",
        "advanced_composition_epsilon",
        "exponential_log_prob",
        "report_noisy_max_log_prob",
        "gem_normalized_scores",
        "gem_log_prob",
        "peeling_support_log_prob",
    } <= covered
    assert all(c["mp_reference"].get("provenance") for c in cases)


#: Golden cases without an independent value with its provenance: 67 of 101 before the values of
#: proofs_checks/golden/{catoni_mp, hu_mp, hu_law_mp}.py and the nets / settings of wang_xu_mp.py; none after.
INDEPENDENT_BEFORE = (34, 67)


def test_every_golden_value_has_an_independent_value_with_its_provenance():
    from proofs_checks.conform.deterministic import load_cases
    from proofs_checks.golden.independent import census

    have, lack = census(load_cases())
    assert lack == [], f"{len(lack)} golden cases without an independent value: {lack}"
    assert len(have) == sum(INDEPENDENT_BEFORE)
    functions = {c["function"] for c in load_cases()}
    from proofs_checks.conform.functions import golden_functions

    declared = {f.name for subject in ("catoni", "hu", "mechanisms", "wang_xu") for f in golden_functions(subject)}
    assert functions == declared


def test_a_shipped_value_off_its_independent_value_is_caught():
    from proofs_checks.conform.compare import Mismatch, compare_case

    (case,) = [c for c in _independent_cases() if c["id"] == "report_noisy_max_log_prob/scale=0.2"]
    shifted = dict(case, expected_decoded=np.asarray(case["expected_decoded"]) + 1e-8)
    with pytest.raises(Mismatch, match="report_noisy_max_log_prob"):
        compare_case(shifted, _mp_as_port_output(case), case["args_decoded"], case["kwargs_decoded"])


def _shift_first(case, change):
    """A copy of the decoded case whose expected output has one value changed by ``change``."""
    import copy

    moved = copy.deepcopy(case)
    exp = moved["expected_decoded"]
    if moved["compare"] == "law":
        exp[1][0] = change(exp[1][0])
    elif moved["compare"] == "rows":
        moved["expected_decoded"] = exp[1:]  # one net point missing
    elif isinstance(exp, dict):
        key = next(k for k, v in exp.items() if not isinstance(v, str))
        exp[key] = change(exp[key])
    else:
        arr = np.array(exp, dtype=np.float64)
        flat = arr.reshape(-1)
        k = int(np.argmax(np.where(np.isfinite(flat), np.abs(flat), -1.0)))  # the largest finite value
        flat[k] = change(flat[k])
        moved["expected_decoded"] = arr if np.ndim(exp) else float(arr)
    return moved


@pytest.mark.parametrize(
    "case_id, change",
    [
        ("phi/stress", lambda v: v * (1 + 1e-13)),
        ("c_hat/moderate", lambda v: v * (1 + 1e-9)),
        ("robust_mean/standard/s=1,beta=0.5", lambda v: v * 1.001),
        ("robust_gradient/printed/s=5,beta=0.25", lambda v: v * 1.001),
        ("loss_gradient/biweight/w0", lambda v: v * (1 + 1e-12)),
        ("hu_theorem7_parameters/100000", lambda v: v + 1),
        ("hu_section62_parameters/2", lambda v: v - 1),
        ("net_points/l2", None),
        ("dp_fw_output_log_prob/printed", lambda v: v + 1e-8),
        ("private_lasso_output_log_prob/standard", lambda v: v + 1e-8),
        ("wang_xu_theorem2_parameters/n=1000", lambda v: v * (1 + 1e-13)),
        ("advanced_composition_split/standard/T=200", lambda v: v * (1 + 1e-13)),
    ],
)
def test_a_slipped_golden_value_is_caught_by_its_independent_value(case_id, change):
    # power: each kind of newly independent value (element-wise, integers in a dict, a net as rows, an exact law)
    # rejects a shipped value moved beyond the kit's tolerance; the unmoved value passes
    from proofs_checks.conform.compare import Mismatch, compare_case

    (case,) = [c for c in _independent_cases() if c["id"] == case_id]
    independent = _mp_as_port_output(case)
    compare_case(case, independent, case["args_decoded"], case["kwargs_decoded"])
    moved = _shift_first(case, change or (lambda v: v))
    with pytest.raises(Mismatch, match=case["function"]):
        compare_case(moved, independent, case["args_decoded"], case["kwargs_decoded"])


def test_independent_strings_keep_their_digits_whatever_the_global_precision():
    # a 60-digit value must give its own 25 digits: rounding it to the global precision (53 bits by default) made
    # the shipped strings float64 values, and made them move when another caller left the precision raised
    import mpmath

    from proofs_checks.golden.independent import to_strings

    with mpmath.workdps(60):
        third = mpmath.mpf(23) / 48
    with mpmath.workdps(15):
        low = to_strings([third, 0.5, 7])
    with mpmath.workdps(50):
        high = to_strings([third, 0.5, 7])
    assert low == high == ["0.4791666666666666666666667", "0.5", "7"]
