"""Layers: ``reference`` never imports the checkers, and the papers' packages share only the common modules."""

import pathlib

from tests._import_graph import project_graph

ROOT = pathlib.Path(__file__).resolve().parents[1]
PAPERS = ("reference.wang_xu", "reference.hu", "reference.arora")
#: What a paper's package may import besides itself: the modules shared by the papers.
SHARED = (
    "reference.mechanisms",
    "reference.validation",
    "reference.losses",
    "reference.records",
    "reference._densities",
    "reference.floating",
)


def _within(name, package):
    return name == package or name.startswith(package + ".")


def test_reference_never_imports_proofs_checks():
    offenders = {
        name: sorted(m for m in imported if _within(m, "proofs_checks"))
        for name, imported in project_graph().items()
        if _within(name, "reference")
    }
    offenders = {k: v for k, v in offenders.items() if v}
    assert not offenders, offenders


def test_papers_import_only_themselves_and_the_shared_modules():
    offenders = {}
    for paper in PAPERS:
        for name, imported in project_graph().items():
            if _within(name, paper):
                bad = [m for m in imported if not (_within(m, paper) or any(_within(m, s) for s in SHARED))]
                if bad:
                    offenders[name] = sorted(bad)
    assert not offenders, offenders


def test_shared_modules_import_no_paper():
    offenders = {
        name: sorted(m for m in imported if any(_within(m, p) for p in PAPERS))
        for name, imported in project_graph().items()
        if any(_within(name, s) for s in SHARED)
    }
    offenders = {k: v for k, v in offenders.items() if v}
    assert not offenders, offenders


def test_top_level_layout():
    for name in ("pyproject.toml", "README.md", "reference", "proofs_checks", "tests", "notebooks"):
        assert (ROOT / name).exists(), name
