import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[1]


def test_reference_never_imports_proofs_checks():
    offenders = []
    for path in (ROOT / "reference").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            if any(n.split(".")[0] == "proofs_checks" for n in names):
                offenders.append(str(path.relative_to(ROOT)))
    assert not offenders, offenders


def test_top_level_layout():
    for name in ("pyproject.toml", "README.md", "reference", "proofs_checks", "tests", "notebooks"):
        assert (ROOT / name).exists(), name
