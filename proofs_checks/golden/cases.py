"""Helpers shared by the case builders: one case is a call of a reference function and its output."""

from __future__ import annotations

import numpy as np

from .encoding import encode

__all__ = ["case", "law_case", "portable_matvec"]


def case(
    case_id,
    function,
    args,
    expected,
    *,
    kwargs=None,
    note=None,
    mp_reference=None,
    compare="values",
    reading=None,
    mp_provenance=None,
):
    """One golden case: ``function(*args, **kwargs) == expected`` (within the kit's tolerance).

    ``compare`` is ``"values"`` (element-wise), ``"rows"`` (the same set of rows, any order) or ``"law"``
    (``expected = (outputs, log_probabilities)``;
    rows may come in any order).  ``mp_reference`` holds high-precision decimal strings of the exact value and
    ``mp_provenance`` says how they were computed (a path separate from the reference's).  ``reading`` names the
    convention the case follows where the paper allows two (``docs/porting.md``, "Readings"); a ``variant``
    keyword names its own.
    """
    out = {
        "id": case_id,
        "function": function,
        "args": encode(list(args)),
        "kwargs": encode(kwargs or {}),
        "compare": compare,
        "expected": encode(expected),
    }
    if mp_reference is not None:
        out["mp_reference"] = {"mp": list(mp_reference)}
        if mp_provenance:
            out["mp_reference"]["provenance"] = mp_provenance
    if reading is None and kwargs and "variant" in kwargs:
        reading = f"variant={kwargs['variant']}"
    if reading:
        out["reading"] = reading
    if note:
        out["note"] = note
    return out


def law_case(
    case_id, function, args, expected, *, kwargs=None, note=None, reading=None, mp_reference=None, mp_provenance=None
):
    """A case whose output is an exact law ``(outputs, log_probabilities)`` (``mp_reference``: the log-probabilities)."""
    return case(
        case_id,
        function,
        args,
        expected,
        kwargs=kwargs,
        note=note,
        compare="law",
        reading=reading,
        mp_reference=mp_reference,
        mp_provenance=mp_provenance,
    )


def portable_matvec(X, w):
    """``X @ w`` as products and sums in column order (IEEE operations only), for building golden inputs.

    A BLAS product picks its kernel, hence its rounding, by CPU: inputs built with it moved by an ulp between
    an AVX-512 machine and the baseline path, and so did every value computed from them.  This sum gives the
    same bits everywhere (docs/reproducibility.md).
    """
    X = np.asarray(X, dtype=np.float64)
    w = np.asarray(w, dtype=np.float64)
    out = X[:, 0] * w[0]
    for j in range(1, X.shape[1]):
        out = out + X[:, j] * w[j]
    return out
