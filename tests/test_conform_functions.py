"""Every port function is declared once and completely: a reference that takes the declared call, a tolerance with
its reason (or a sampler check), golden cases that cover exactly the declared functions in their declared kind, a
privacy audit where declared, a row in each of the porting guide's tables as generated; the reference port, the
kit's table, the samplers and the audits follow the declaration, and the example port names nothing else."""

from __future__ import annotations

import dataclasses
import inspect
import re

import pytest

import examples.numpy_port as example_port
from proofs_checks.cli import main
from proofs_checks.conform import (
    FUNCTIONS,
    INSTANCES,
    PRIVACY_CHECKS,
    PRIVACY_INSTANCES,
    SAMPLER_CHECKS,
    TOLERANCES,
    PortFunction,
    Tol,
    declared,
    golden_functions,
    guide_differences,
    load_cases,
    reference_port,
    run_kit,
)
from proofs_checks.conform.guide import GUIDE, function_table, render_guide, tolerance_table
from proofs_checks.golden.cases import case
from proofs_checks.golden.generate import SUBJECTS, check_coverage

NAMES = [f.name for f in FUNCTIONS]


def completeness_problems(functions, *, tolerances, sampler_checks, privacy_checks, cases, guide_text):
    """What an incomplete declaration lacks, in words (empty when every entry is complete)."""
    problems = []
    names = {f.name for f in functions}
    case_functions = {c["function"] for c in cases}
    for f in functions:
        try:
            bind_call(f.reference, f.parameters)
        except TypeError as exc:
            problems.append(f"{f.name}: the reference does not take the declared call {f.signature} ({exc})")
        if f.kind == "sampler":
            if f.name not in sampler_checks:
                problems.append(f"{f.name}: a sampler without a check in SAMPLER_CHECKS")
        else:
            tol = tolerances.get(f.name)
            if tol is not f.tolerance:
                problems.append(f"{f.name}: the kit's table does not hold its declared tolerance")
            whys = [f.tolerance.why] + [v.why for v in (f.tolerance.variants or {}).values()]
            if not all(isinstance(w, str) and w.strip() for w in whys):
                problems.append(f"{f.name}: a tolerance without its reason")
            if f.kind == "law" and not f.tolerance.law_atol > 0:
                problems.append(f"{f.name}: a law without law_atol")
            if f.name not in case_functions:
                problems.append(f"{f.name}: no golden case")
        if f.audited and f.name not in privacy_checks:
            problems.append(f"{f.name}: declared audited without an audit in PRIVACY_CHECKS")
        if f"`{f.name}(" not in guide_text:
            problems.append(f"{f.name}: not in the porting guide's function table")
    problems += [f"{n}: a golden case of an undeclared function" for n in sorted(case_functions - names)]
    problems += [f"{n}: a tolerance of an undeclared function" for n in sorted(set(tolerances) - names)]
    problems += [f"{n}: a sampler check of an undeclared sampler" for n in sorted(set(sampler_checks) - names)]
    problems += [
        f"{n}: an audit of a mechanism not declared audited"
        for n in sorted(set(privacy_checks) - {f.name for f in functions if f.audited})
    ]
    return problems


def bind_call(fn, signature):
    """Bind the declared call (positional parameters by position, keyword-only by name) to ``fn``."""
    params = signature.parameters.values()
    positional = [p.name for p in params if p.kind is not inspect.Parameter.KEYWORD_ONLY]
    keywords = {p.name: p.name for p in params if p.kind is inspect.Parameter.KEYWORD_ONLY}
    return inspect.signature(fn).bind(*positional, **keywords)


def _shipped(**overrides):
    kwargs = dict(
        tolerances=TOLERANCES,
        sampler_checks=SAMPLER_CHECKS,
        privacy_checks=PRIVACY_CHECKS,
        cases=load_cases(),
        guide_text=GUIDE.read_text(encoding="utf-8"),
    )
    kwargs.update(overrides)
    return kwargs


def test_every_declared_function_is_complete():
    assert completeness_problems(FUNCTIONS, **_shipped()) == []


def test_an_incomplete_entry_is_reported():
    # power of the test above: a new function declared without its golden cases, a tolerance in the table, a
    # row in the guide or a reference that takes its call, and a sampler without its check, are each reported
    new = PortFunction(
        "new_scale",
        "(sensitivity, epsilon, extra)",
        declared("laplace_scale").reference,
        "values",
        2,
        "a test",
        "mechanisms",
        Tol(0, "value", "a reason"),
    )
    sampler = PortFunction(
        "new_sampler", "(x, size=None, rng=None)", declared("peeling").reference, "sampler", 7, "a test", audited=True
    )
    problems = completeness_problems(FUNCTIONS + (new, sampler), **_shipped())
    for expected in (
        "new_scale: the reference does not take",
        "new_scale: the kit's table does not hold",
        "new_scale: no golden case",
        "new_scale: not in the porting guide",
        "new_sampler: a sampler without a check",
        "new_sampler: declared audited without an audit",
    ):
        assert any(p.startswith(expected) for p in problems), (expected, problems)
    orphan = dict(load_cases()[0], function="undeclared_function")
    problems = completeness_problems(FUNCTIONS, **_shipped(cases=load_cases() + [orphan]))
    assert problems == ["undeclared_function: a golden case of an undeclared function"]


def test_the_kit_and_the_reference_port_follow_the_declaration():
    golden = {f.name for f in golden_functions()}
    assert set(TOLERANCES) == golden
    assert all(TOLERANCES[f.name] is f.tolerance for f in golden_functions())
    assert list(SAMPLER_CHECKS) == [f.name for f in FUNCTIONS if f.kind == "sampler"]
    assert set(INSTANCES) == set(SAMPLER_CHECKS)
    assert list(PRIVACY_CHECKS) == [f.name for f in FUNCTIONS if f.audited] == list(PRIVACY_INSTANCES)
    assert reference_port.__all__ == NAMES
    assert all(getattr(reference_port, f.name) is f.reference for f in FUNCTIONS)


def test_golden_files_cover_exactly_the_declared_functions_in_their_kind():
    subjects = {m.SUBJECT for m in SUBJECTS}
    assert {f.subject for f in golden_functions()} == subjects
    cases = load_cases()
    for subject in subjects:
        check_coverage(subject, [c for c in cases if c["file"] == f"{subject}.json"])


def test_coverage_check_rejects_a_missing_an_undeclared_and_a_miscompared_case():
    phi = case("phi/x", "phi", [1.0], 1.0)
    others = [case(f"{f.name}/x", f.name, [1.0], 1.0) for f in golden_functions("catoni") if f.name != "phi"]
    check_coverage("catoni", [phi] + others)
    with pytest.raises(ValueError, match=r"not covered \['phi'\]"):
        check_coverage("catoni", others)
    with pytest.raises(ValueError, match=r"undeclared for this subject \['psi'\]"):
        check_coverage("catoni", [phi, case("psi/x", "psi", [1.0], 1.0)] + others)
    with pytest.raises(ValueError, match=r"compared otherwise than declared \['phi/x \(rows, declared values\)'\]"):
        check_coverage("catoni", [case("phi/x", "phi", [1.0], 1.0, compare="rows")] + others)


def test_every_golden_case_fits_the_declared_call():
    for c in load_cases():
        f = declared(c["function"])
        f.parameters.bind(*c["args_decoded"], **c["kwargs_decoded"])


def test_the_guide_tables_are_the_declaration():
    assert guide_differences() == [], (
        "docs/porting.md's tables differ from proofs_checks/conform/functions.py: run "
        "python -m proofs_checks conform --update-guide docs/porting.md"
    )
    text = GUIDE.read_text(encoding="utf-8")
    assert function_table() in text and tolerance_table() in text
    for name in NAMES:
        assert f"`{name}(" in function_table()
        if name in TOLERANCES:
            assert re.search(rf"^\| [^|]*`{name}`", tolerance_table(), re.MULTILINE), name


def test_a_guide_that_differs_is_found_and_rewritten(tmp_path, capsys):
    text = GUIDE.read_text(encoding="utf-8")
    stale = tmp_path / "porting.md"
    stale.write_text(
        text.replace("| `phi` | 2 ulps of the value |", "| `phi` | 2000 ulps of the value |"), encoding="utf-8"
    )
    assert guide_differences(stale) == ["tolerances"]
    assert main(["conform", "--update-guide", str(stale)]) == 0
    assert "rewrote the tolerances table" in capsys.readouterr().out
    assert stale.read_text(encoding="utf-8") == text
    with pytest.raises(ValueError, match="markers of the functions table"):
        render_guide("no markers")


def test_declaration_rejects_incomplete_entries():
    good = declared("phi")
    with pytest.raises(ValueError, match="kind"):
        dataclasses.replace(good, kind="value")
    with pytest.raises(TypeError, match="needs a Tol"):
        dataclasses.replace(good, tolerance=None)
    with pytest.raises(ValueError, match="needs a reason"):
        dataclasses.replace(good, tolerance=good.tolerance._replace(why=" "))
    with pytest.raises(ValueError, match="subject"):
        dataclasses.replace(good, subject=None)
    with pytest.raises(ValueError, match="signature"):
        dataclasses.replace(good, signature="x")
    with pytest.raises(ValueError, match="sampler has no golden subject"):
        dataclasses.replace(declared("peeling"), subject="mechanisms")
    with pytest.raises(ValueError, match="name must be a declared port function"):
        declared("no_such_function")


def test_example_port_names_only_declared_functions():
    own = [
        n
        for n, v in vars(example_port).items()
        if callable(v) and not n.startswith("_") and getattr(v, "__module__", None) == example_port.__name__
    ]
    assert own and sorted(set(own) - set(NAMES)) == []


def test_example_port_passes_the_privacy_audits():
    # the golden and sampler checks of the example port: tests/test_conform_slips.py
    records = run_kit(example_port, samplers=False, seed=1, only={f.name for f in FUNCTIONS if f.audited})
    audits = [r for r in records if r["kind"] == "privacy"]
    assert {r["function"] for r in audits} == {f.name for f in FUNCTIONS if f.audited}
    assert all(r["status"] in ("passed", "skipped") for r in records), [r.get("message") for r in records]
    assert sum(r["status"] == "passed" for r in audits) >= 3
