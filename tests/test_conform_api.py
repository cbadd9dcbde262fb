"""proofs_checks.conform exports every public API the porting guide documents, and the guide lists every export."""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path

import proofs_checks.conform as C
from proofs_checks.conform.functions import FUNCTIONS

GUIDE = Path(__file__).resolve().parents[1] / "docs" / "porting.md"
_TICKED = re.compile(r"`([A-Za-z_][A-Za-z0-9_.]*)(?:\([^`]*\))?`")


def _api_section():
    text = GUIDE.read_text(encoding="utf-8")
    section = text[text.index("## Python API") :]
    return set(_TICKED.findall(section.split("\nNames written with their module")[0])) - {"proofs_checks.conform"}


def _submodule_exports():
    out = {}
    for info in pkgutil.iter_modules(C.__path__):
        if info.name == "reference_port":  # the port functions themselves, bound to the reference
            continue
        module = importlib.import_module(f"proofs_checks.conform.{info.name}")
        for name in getattr(module, "__all__", ()):
            out.setdefault(name, set()).add(info.name)
    return out


def test_the_api_section_and_the_package_exports_agree():
    listed = _api_section()
    assert listed == set(C.__all__), (sorted(listed - set(C.__all__)), sorted(set(C.__all__) - listed))
    for name in C.__all__:
        assert getattr(C, name) is not None and (getattr(C, name).__doc__ or "").strip(), name


def test_every_unqualified_name_the_guide_documents_is_exported():
    port_functions = {f.name for f in FUNCTIONS}  # the port's names (adapters in the reference column), not the API
    mentioned = {t for t in _TICKED.findall(GUIDE.read_text(encoding="utf-8")) if "." not in t}
    documented = {n for n in mentioned & set(_submodule_exports()) if n not in port_functions}
    missing = sorted(documented - set(C.__all__))
    assert missing == [], f"the guide names {missing} but proofs_checks.conform does not export them"


def test_every_qualified_name_the_guide_writes_resolves():
    modules = {info.name for info in pkgutil.iter_modules(C.__path__)}
    for ticked in set(_TICKED.findall(GUIDE.read_text(encoding="utf-8"))):
        parts = ticked.split(".")
        if parts[:2] == ["proofs_checks", "conform"] and len(parts) > 2:
            parts = parts[2:]
        elif not (len(parts) == 2 and parts[0] in modules):
            continue
        target = importlib.import_module(f"proofs_checks.conform.{parts[0]}") if parts[0] in modules else C
        for attr in parts[1:] if parts[0] in modules else parts:
            target = getattr(target, attr)


def test_a_documented_name_missing_from_the_exports_is_caught(monkeypatch):
    # power: removing one export makes the two-way check fail
    monkeypatch.setattr(C, "__all__", [n for n in C.__all__ if n != "check_against_reference"])
    try:
        test_the_api_section_and_the_package_exports_agree()
    except AssertionError as exc:
        assert "check_against_reference" in str(exc)
    else:  # pragma: no cover - the check would be vacuous
        raise AssertionError("an unexported documented name was not caught")
