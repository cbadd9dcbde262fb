"""The evidence keys the source writes, read with :mod:`ast` (nothing is run): the full profile's keys too.

A key counts where the source writes it into a Result's evidence: a dict literal (or ``dict(...)``) passed
as ``evidence=``, assigned to a name containing ``evidence`` or to ``ev``, or to ``<x>.evidence``; a
subscript assignment ``evidence["key"] = ...`` / ``ev["key"] = ...`` / ``res.evidence["key"] = ...``; and
``ev.update({...})`` / ``res.evidence.update(key=...)``.  Every branch counts, whichever profile or
outcome reaches it.  Evidence built elsewhere (the auditor's ``AuditResult.as_dict()``, a report of
:mod:`proofs_checks.formulas`) is not seen here; the tests check those sources apart.
"""

from __future__ import annotations

import ast
import collections
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[1]
#: Where Results are built: the checkers, without the auditor (it builds no Result) and the declarations.
SKIP = ("proofs_checks/audit/", "proofs_checks/evidence/")


def _is_evidence(target) -> bool:
    if isinstance(target, ast.Name):
        return target.id == "ev" or "evidence" in target.id
    return isinstance(target, ast.Attribute) and target.attr == "evidence"


def _dict_keys(node):
    """The constant string keys of a dict display or ``dict(...)`` call (``None`` for anything else)."""
    if isinstance(node, ast.Dict):
        return [k.value for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict":
        keys = [kw.arg for kw in node.keywords if kw.arg]
        for arg in node.args:
            keys += _dict_keys(arg) or []
        return keys
    return None


def evidence_keys(root=ROOT):
    """``{key: [file:line, ...]}`` of every evidence key written under ``proofs_checks``."""
    found = collections.defaultdict(list)
    for path in sorted((root / "proofs_checks").rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if rel.startswith(SKIP):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            keys = []
            if isinstance(node, ast.keyword) and node.arg == "evidence":
                keys = _dict_keys(node.value) or []
            elif isinstance(node, ast.Assign):
                for target in node.targets:
                    if _is_evidence(target):
                        keys += _dict_keys(node.value) or []
                    elif (
                        isinstance(target, ast.Subscript)
                        and _is_evidence(target.value)
                        and isinstance(target.slice, ast.Constant)
                        and isinstance(target.slice.value, str)
                    ):
                        keys.append(target.slice.value)
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "update"
                and _is_evidence(node.func.value)
            ):
                keys = [kw.arg for kw in node.keywords if kw.arg]
                for arg in node.args:
                    keys += _dict_keys(arg) or []
            for key in keys:
                found[key].append(f"{rel}:{node.lineno}")
    return dict(found)
