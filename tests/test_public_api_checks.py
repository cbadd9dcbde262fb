"""The public API of ``proofs_checks`` says what it is: numpydoc sections and type annotations, checked.

Enumerated: every function and class in the ``__all__`` of the auditor (:mod:`proofs_checks.audit`), the
conformance kit (:mod:`proofs_checks.conform`), the report (:mod:`proofs_checks.report`), the verdict rules
(:mod:`proofs_checks.verdicts`) and the claim model (:mod:`proofs_checks.model`).  Each must pass numpydoc's
validator (:func:`numpydoc.validate.validate`) on :data:`CHECKS` and annotate every parameter and, for a
function, its return.  A name added to one of those ``__all__`` is checked from then on; an object listed in an
``__all__`` but missing from its module fails too.  The power of the check is shown on
:func:`_deliberately_incomplete` below, which lacks each thing the check asks for.

Raises and References sections are written where they apply (the style of ``docs/architecture.md``), but no
validator code can tell whether a function raises or follows a paper, so they are not checked here.
"""

from __future__ import annotations

import importlib
import inspect

import numpydoc.validate as numpydoc_validate  # the test extra's numpydoc (pyproject.toml)
import pytest

#: Modules whose ``__all__`` is the public API checked here.
API_MODULES = (
    "proofs_checks.audit",
    "proofs_checks.conform",
    "proofs_checks.report",
    "proofs_checks.verdicts",
    "proofs_checks.model",
)

#: numpydoc's checks that every public function and class must pass:
#: GL08 a docstring, SS01 a summary line, PR01 every parameter documented, PR02 no unknown parameter documented,
#: RT01 a Returns section (functions that return a value), EX01 an Examples section.
CHECKS = {"GL08", "SS01", "PR01", "PR02", "RT01", "EX01"}


def public_objects(module_name):
    """``{name: object}`` of the functions and classes of ``module_name.__all__`` (constants left out)."""
    module = importlib.import_module(module_name)
    out = {}
    for name in module.__all__:
        obj = getattr(module, name)  # AttributeError when __all__ names something the module lacks
        if inspect.isfunction(obj) or inspect.isclass(obj):
            out[name] = obj
    return out


def missing_annotations(obj):
    """Parameters (and ``"return"`` for a function) of ``obj`` without a type annotation.

    A class is checked through its constructor's signature; one that keeps a built-in constructor (an exception
    class) has no signature to annotate.
    """
    try:
        signature = inspect.signature(obj)
    except (TypeError, ValueError):
        return []
    missing = [
        p.name
        for p in signature.parameters.values()
        if p.name not in ("self", "cls") and p.annotation is inspect.Parameter.empty
    ]
    if inspect.isfunction(obj) and signature.return_annotation is inspect.Signature.empty:
        missing.append("return")
    return missing


def api_problems(obj):
    """What ``obj`` lacks: numpydoc errors among :data:`CHECKS` (``"PR01: ..."``) and missing annotations."""
    path = f"{obj.__module__}.{obj.__qualname__}"
    problems = [f"{code}: {message}" for code, message in numpydoc_validate.validate(path)["errors"] if code in CHECKS]
    missing = missing_annotations(obj)
    if missing:
        problems.append(f"not annotated: {', '.join(missing)}")
    return problems


API = sorted((f"{module}.{name}", obj) for module in API_MODULES for name, obj in public_objects(module).items())


def test_the_enumeration_covers_the_public_api():
    # every module's __all__ holds functions or classes, and the claim model's six classes are among them
    names = {name for name, _ in API}
    assert {
        f"proofs_checks.model.{c}" for c in ("Claim", "Result", "Algorithm", "Mutant", "Finding", "CheckContext")
    } <= names
    assert {
        "proofs_checks.audit.audit",
        "proofs_checks.conform.run_kit",
        "proofs_checks.report.write_report",
        "proofs_checks.report.write_schema",
        "proofs_checks.verdicts.coverage_verdict",
    } <= names
    assert len(API) >= 70, len(API)


@pytest.mark.parametrize("name, obj", API, ids=[name for name, _ in API])
def test_public_function_or_class_is_documented_and_annotated(name, obj):
    assert api_problems(obj) == [], name


# ------------------------------------------------------------------------------------------ power of the check


def _deliberately_incomplete(x, y=1):
    """Add y to x."""
    return x + y


def _documented_but_unannotated(x):
    """Double a number.

    Parameters
    ----------
    x : float
        The number.

    Returns
    -------
    float
        ``2 x``.

    Examples
    --------
    >>> _documented_but_unannotated(2.0)
    4.0
    """
    return 2 * x


def _documents_a_stray_parameter(x: int) -> int:
    """Return x.

    Parameters
    ----------
    x : int
        The value.
    y : int
        Not a parameter.

    Returns
    -------
    int
        ``x``.

    Examples
    --------
    >>> _documents_a_stray_parameter(1)
    1
    """
    return x


class _UndocumentedClass:
    def __init__(self, size: int) -> None:
        self.size = size


def test_the_check_fails_on_what_an_incomplete_function_lacks():
    codes = {p.split(":")[0] for p in api_problems(_deliberately_incomplete)}
    assert {"PR01", "RT01", "EX01", "not annotated"} <= codes, codes
    assert any("x, y, return" in p for p in api_problems(_deliberately_incomplete))


def test_the_check_fails_on_missing_annotations_alone():
    assert api_problems(_documented_but_unannotated) == ["not annotated: x, return"]


def test_the_check_fails_on_an_undocumented_class_and_a_stray_parameter():
    assert any(p.startswith("GL08") for p in api_problems(_UndocumentedClass))
    assert [p.split(":")[0] for p in api_problems(_documents_a_stray_parameter)] == ["PR02"]


def test_a_name_in_all_that_the_module_lacks_fails(monkeypatch):
    module = importlib.import_module("proofs_checks.verdicts")
    monkeypatch.setattr(module, "__all__", [*module.__all__, "no_such_rule"])
    with pytest.raises(AttributeError, match="no_such_rule"):
        public_objects("proofs_checks.verdicts")
