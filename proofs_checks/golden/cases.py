"""Helpers shared by the case builders: one case is a call of a reference function and its output."""

from __future__ import annotations

from .encoding import encode

__all__ = ["case", "law_case"]


def case(case_id, function, args, expected, *, kwargs=None, note=None, mp_reference=None, compare="values"):
    """One golden case: ``function(*args, **kwargs) == expected`` (within the kit's tolerance).

    ``compare`` is ``"values"`` (element-wise), ``"rows"`` (the same set of rows, any order) or ``"law"`` (``expected = (outputs, log_probabilities)``;
    rows may come in any order).  ``mp_reference`` holds high-precision decimal strings of the exact value.
    """
    out = {"id": case_id, "function": function, "args": encode(list(args)), "kwargs": encode(kwargs or {}),
           "compare": compare, "expected": encode(expected)}
    if mp_reference is not None:
        out["mp_reference"] = {"mp": list(mp_reference)}
    if note:
        out["note"] = note
    return out


def law_case(case_id, function, args, expected, *, kwargs=None, note=None):
    """A case whose output is an exact law ``(outputs, log_probabilities)``."""
    return case(case_id, function, args, expected, kwargs=kwargs, note=note, compare="law")
