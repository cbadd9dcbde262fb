"""``reference/`` says what its public API is, and documents and annotates all of it.

The public API is every name listed in the ``__all__`` of a public module of :mod:`reference` (a module none of
whose dotted parts starts with an underscore), re-exports included; each function or class is checked once, where
it is defined.  Every public module must have ``__all__``.  A public function or class must pass numpydoc's
validator (``numpydoc.validate.validate``) on the checks in :data:`NUMPYDOC_CHECKS`, have a References section
(the paper's place, with a citation tag such as ``[002 Alg. 1 step 4]``, or the textbook source of a primitive),
and a Raises section when its own body raises or calls a ``check_*`` validator; every parameter and the return of
each public function and method carries an annotation.

The last tests show the checker's power: small functions each missing one thing (a parameter's doc, an annotation,
Examples, References, Raises) are rejected, and a complete one passes.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import textwrap
import warnings
from pathlib import Path

import pytest
from numpydoc.docscrape import get_doc_object
from numpydoc.validate import validate

import reference

#: numpydoc's checks that every public function and class passes (code -> what it rejects)
NUMPYDOC_CHECKS = {
    "GL08": "no docstring",
    "SS01": "no one-line summary",
    "PR01": "a parameter of the signature is not documented",
    "PR02": "a documented parameter is not in the signature",
    "RT01": "no Returns section (functions)",
    "YD01": "no Yields section (generators)",
    "EX01": "no Examples section",
}


def _public(name: str) -> bool:
    return not any(part.startswith("_") for part in name.split("."))


def public_modules() -> list[str]:
    """Every public module of :mod:`reference`, the package itself included, in name order."""
    names = ["reference"] + [info.name for info in pkgutil.walk_packages(reference.__path__, "reference.")]
    return sorted(name for name in names if _public(name))


def public_api() -> dict[str, object]:
    """``{public name: object}`` for every function and class of the public API, each object once.

    An object re-exported by several public modules is named by the first of them in name order.
    """
    api, seen = {}, set()
    for module_name in public_modules():
        module = importlib.import_module(module_name)
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)
            if (inspect.isfunction(obj) or inspect.isclass(obj)) and id(obj) not in seen:
                seen.add(id(obj))
                api[f"{module_name}.{name}"] = obj
    return api


def _function_node(fn) -> ast.FunctionDef | ast.ClassDef | None:
    """The AST of ``fn``'s source, or ``None`` where there is no source (a compiled or generated function)."""
    try:
        source = textwrap.dedent(inspect.getsource(fn))
    except (OSError, TypeError):
        return None
    return ast.parse(source).body[0]


def _validates(node) -> bool:
    """Whether the body of ``node`` raises, or calls a ``check_*`` / ``_check_*`` validator or ``as_generator``."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Raise):
            return True
        if isinstance(sub, ast.Call):
            func = sub.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            if name.lstrip("_").startswith("check_"):
                return True
    return False


def _methods(cls) -> list[tuple[str, object]]:
    """The public methods (and properties, ``__init__``, ``__call__``, ``__post_init__``) ``cls`` defines itself.

    A dataclass's generated ``__init__`` is left out: its fields carry the annotations.
    """
    out = []
    for name, attr in vars(cls).items():
        if name.startswith("_") and name not in ("__init__", "__call__", "__post_init__"):
            continue
        fn = attr.fget if isinstance(attr, property) else getattr(attr, "__func__", attr)
        if not inspect.isfunction(fn):
            continue
        if fn.__code__.co_filename != inspect.getfile(cls):  # generated (a dataclass's __init__), not written
            continue
        out.append((name, fn))
    return out


def missing_annotations(fn, method: bool = False) -> list[str]:
    """The parameters (and ``return``) of ``fn`` without an annotation; ``self``/``cls`` of a method are exempt."""
    parameters = list(inspect.signature(fn).parameters.values())
    if method and parameters and parameters[0].name in ("self", "cls"):
        parameters = parameters[1:]
    missing = [p.name for p in parameters if p.annotation is inspect.Parameter.empty]
    if inspect.signature(fn).return_annotation is inspect.Signature.empty:
        missing.append("return")
    return missing


def problems(obj) -> list[str]:
    """What ``obj`` (a function or class) lacks: numpydoc codes, References, Raises, annotations."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # numpydoc warns on sections it does not know
        doc = get_doc_object(obj)
        result = validate(doc)
    found = [f"{code} {message}" for code, message in result["errors"] if code in NUMPYDOC_CHECKS]
    if result["docstring"] and not doc["References"]:
        found.append("RF no References section")
    if inspect.isclass(obj):  # a class states what its constructor raises
        bodies = [_function_node(fn) for name, fn in _methods(obj) if name in ("__init__", "__post_init__")]
    else:
        bodies = [_function_node(obj)]
    if result["docstring"] and not doc["Raises"] and any(b is not None and _validates(b) for b in bodies):
        found.append("RS validates its input but has no Raises section")
    if inspect.isfunction(obj):
        missing = missing_annotations(obj)
        if missing:
            found.append(f"AN not annotated: {missing}")
    else:
        for name, fn in _methods(obj):
            missing = missing_annotations(fn, method=not isinstance(inspect.getattr_static(obj, name), staticmethod))
            if missing:
                found.append(f"AN {name} not annotated: {missing}")
    return found


@pytest.mark.parametrize("module_name", public_modules())
def test_every_public_module_says_what_its_public_api_is(module_name):
    module = importlib.import_module(module_name)
    assert isinstance(getattr(module, "__all__", None), list), f"{module_name} has no __all__ list"
    assert all(hasattr(module, name) for name in module.__all__), module_name


API = public_api()


def test_the_packages_ship_their_py_typed_markers():
    # PEP 561: without the marker (in the wheel, hence the package-data entry) type checkers ignore the annotations
    tomllib = pytest.importorskip("tomllib")
    root = Path(reference.__file__).resolve().parent.parent
    package_data = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    for package in ("reference", "proofs_checks"):
        assert (root / package / "py.typed").is_file(), package
        assert "py.typed" in package_data.get(package, []), package


def test_the_public_api_is_what_the_modules_list():
    # a floor, not a count to keep: an export removed by mistake shows here
    assert len(API) >= 200
    assert "reference.mechanisms.exponential_log_prob" in API
    assert "reference.wang_xu.l1_regression.algorithm1" in API


@pytest.mark.parametrize("name", sorted(API))
def test_every_public_function_and_class_is_documented_and_annotated(name):
    assert problems(API[name]) == [], name


# -- the checker's power: each of these lacks one thing and is rejected -------------------------------------------


def complete(x: float, scale: float = 1.0) -> float:
    """Multiply ``x`` by ``scale``.

    Parameters
    ----------
    x : float
        The value.
    scale : float, default 1.0
        The factor; positive.

    Returns
    -------
    float
        ``x * scale``.

    Raises
    ------
    ValueError
        If ``scale`` is not positive.

    References
    ----------
    .. [1] Arithmetic.

    Examples
    --------
    >>> complete(2.0, 3.0)
    6.0
    """
    if scale <= 0:
        raise ValueError(f"scale must be positive, got {scale!r}")
    return x * scale


def undocumented_parameter(x: float, scale: float = 1.0) -> float:
    """Multiply ``x`` by ``scale``.

    Parameters
    ----------
    x : float
        The value.

    Returns
    -------
    float
        ``x * scale``.

    References
    ----------
    .. [1] Arithmetic.

    Examples
    --------
    >>> undocumented_parameter(2.0, 3.0)
    6.0
    """
    return x * scale


def unannotated(x, scale: float = 1.0) -> float:
    """Multiply ``x`` by ``scale``.

    Parameters
    ----------
    x : float
        The value.
    scale : float, default 1.0
        The factor.

    Returns
    -------
    float
        ``x * scale``.

    References
    ----------
    .. [1] Arithmetic.

    Examples
    --------
    >>> unannotated(2.0, 3.0)
    6.0
    """
    return x * scale


def no_examples(x: float, scale: float = 1.0) -> float:
    """Multiply ``x`` by ``scale``.

    Parameters
    ----------
    x : float
        The value.
    scale : float, default 1.0
        The factor.

    Returns
    -------
    float
        ``x * scale``.

    References
    ----------
    .. [1] Arithmetic.
    """
    return x * scale


def no_references_nor_raises(x: float, scale: float = 1.0) -> float:
    """Multiply ``x`` by ``scale``.

    Parameters
    ----------
    x : float
        The value.
    scale : float, default 1.0
        The factor; positive.

    Returns
    -------
    float
        ``x * scale``.

    Examples
    --------
    >>> no_references_nor_raises(2.0, 3.0)
    6.0
    """
    if scale <= 0:
        raise ValueError(f"scale must be positive, got {scale!r}")
    return x * scale


class UnannotatedMethod:
    """A holder of a factor.

    Parameters
    ----------
    scale : float
        The factor.

    References
    ----------
    .. [1] Arithmetic.

    Examples
    --------
    >>> UnannotatedMethod(3.0).times(2.0)
    6.0
    """

    def __init__(self, scale: float) -> None:
        self.scale = scale

    def times(self, x):
        return x * self.scale


@pytest.mark.parametrize(
    "fn, expected",
    [
        (undocumented_parameter, "PR01"),
        (unannotated, "AN not annotated: ['x']"),
        (no_examples, "EX01"),
        (no_references_nor_raises, "RF"),
        (no_references_nor_raises, "RS"),
        (UnannotatedMethod, "AN times not annotated: ['x', 'return']"),
    ],
)
def test_the_checker_rejects_a_definition_missing_a_section_or_an_annotation(fn, expected):
    assert any(p.startswith(expected) for p in problems(fn)), problems(fn)


def test_the_checker_accepts_a_complete_definition():
    assert problems(complete) == []
