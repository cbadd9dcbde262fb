"""``injected_fault``: a module attribute replaced for a block and always restored (exceptions, nesting)."""

from __future__ import annotations

import types

import pytest

import reference.hu.sparse as sparse
from proofs_checks.audit.gray_box import injected_fault


def _lib():
    return types.SimpleNamespace(scale=lambda x: 2.0 * x)


def test_replaced_inside_and_restored_after():
    lib = _lib()
    original = lib.scale
    with injected_fault(lib, "scale", lambda f: lambda x: 0.5 * f(x)) as broken:
        assert lib.scale is broken and lib.scale(1.0) == 1.0
    assert lib.scale is original


def test_restored_after_an_exception():
    lib = _lib()
    original = lib.scale
    with pytest.raises(RuntimeError, match="boom"):
        with injected_fault(lib, "scale", lambda f: lambda x: 0.0):
            raise RuntimeError("boom")
    assert lib.scale is original


def test_nested_faults_compose_and_unwind():
    lib = _lib()
    original = lib.scale
    with injected_fault(lib, "scale", lambda f: lambda x: 0.5 * f(x)):
        with injected_fault(lib, "scale", lambda f: lambda x: 3.0 * f(x)):
            assert lib.scale(1.0) == 3.0  # 3 * 0.5 * 2
        assert lib.scale(1.0) == 1.0
    assert lib.scale is original


def test_a_module_attribute_of_reference():
    original = sparse.peeling
    with injected_fault(sparse, "peeling", lambda f: f):
        assert sparse.peeling is original
    with pytest.raises(ValueError):
        with injected_fault(sparse, "peeling", lambda f: None):
            raise ValueError
    assert sparse.peeling is original


def test_class_attribute_read_through_an_instance_is_deleted_again():
    class Owner:
        value = 1

    owner = Owner()
    with injected_fault(owner, "value", lambda v: v + 1):
        assert owner.value == 2
    assert owner.value == 1 and "value" not in vars(owner)


def test_bad_arguments():
    lib = _lib()
    with pytest.raises(TypeError, match="attribute"):
        with injected_fault(lib, 3, lambda f: f):
            pass
    with pytest.raises(TypeError, match="replacement_factory"):
        with injected_fault(lib, "scale", None):
            pass
    with pytest.raises(AttributeError):
        with injected_fault(lib, "missing", lambda f: f):
            pass
