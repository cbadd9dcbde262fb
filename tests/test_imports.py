"""The project's import structure: no cycle, a model that imports nothing, an auditor that knows no claims."""

import textwrap

from tests._import_graph import find_cycles, import_graph, project_graph, reachable


def _describe(cycles):
    return "\n".join(" -> ".join(cycle) for cycle in cycles)


def test_no_import_cycle():
    cycles = find_cycles(project_graph())
    assert not cycles, "modules that import each other (imports inside functions count):\n" + _describe(cycles)


def test_model_imports_nothing_from_the_project():
    assert project_graph()["proofs_checks.model"] == {}, project_graph()["proofs_checks.model"]


def test_verdict_rules_import_nothing_from_the_project():
    # The auditor shares the tolerances and rules of proofs_checks.verdicts, so that module must not
    # bring the claim model with it.
    assert project_graph()["proofs_checks.verdicts"] == {}, project_graph()["proofs_checks.verdicts"]


def test_auditor_knows_nothing_of_claims():
    claim_side = {
        "proofs_checks.model",
        "proofs_checks.registry",
        "proofs_checks.runner",
        "proofs_checks.report",
        "proofs_checks.builders",
        "proofs_checks.audit_claims",
        "proofs_checks.claim_sets",
    }
    offenders = {}
    graph = project_graph()
    for name in graph:
        if name == "proofs_checks.audit" or name.startswith("proofs_checks.audit."):
            bad = {m for m in reachable(graph, name) if m in claim_side or m.startswith("proofs_checks.claim_sets.")}
            if bad:
                offenders[name] = sorted(bad)
    assert not offenders, offenders


def test_graph_sees_relative_and_function_level_imports(tmp_path):
    # a -> b (relative, at module level), b -> c (inside a function), c -> a (absolute): one cycle.
    pkg = tmp_path / "toy"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from .b import thing\n")
    (pkg / "b.py").write_text(
        textwrap.dedent("""
        def thing():
            from . import c
            return c
    """)
    )
    (pkg / "c.py").write_text("import toy.a\n")
    (pkg / "d.py").write_text("from toy import a, b\nfrom . import helper_attribute\n")
    graph = import_graph(tmp_path, ("toy",))
    assert set(graph["toy.d"]) == {"toy.a", "toy.b", "toy"}  # an attribute of a package: its __init__
    assert find_cycles(graph) == [["toy.a", "toy.b", "toy.c", "toy.a"]]
    (pkg / "c.py").write_text("")
    assert find_cycles(import_graph(tmp_path, ("toy",))) == []
