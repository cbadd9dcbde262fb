"""Independent values of the golden cases: flattening them into a case's ``mp_reference``, reading them back in the
shape of the case's expected value, and counting which cases have one.

A case's ``mp_reference`` holds, as decimal strings, the values of its expected output computed apart from the
reference (mpmath, exact rationals, exact enumeration; its ``provenance`` says how), leaf by leaf in the order
:func:`flatten` walks the output: arrays row-major, dicts in key order, strings (labels such as
``step_size``) skipped, integers as exact integers.  A law case's holds its log-probabilities in the order of
the expected outputs.  :func:`as_port_output` rebuilds an output a port could have returned from these values,
so the kit's own comparison (:func:`proofs_checks.conform.compare.compare_case`) holds every shipped golden
value to its independent value at the kit's tolerance (``tests/test_golden.py``).
"""

from __future__ import annotations

import mpmath
import numpy as np

__all__ = ["flatten", "to_strings", "mp_keywords", "as_port_output", "census"]


def flatten(value):
    """The non-string leaves of a nested output (dict values in key order, sequences in order), as a list.

    Examples
    --------
    >>> flatten({"T": 3, "s": [1.5, 2.5], "step_size": "theorem2"})
    [3, 1.5, 2.5]
    """
    out = []

    def walk(v):
        if isinstance(v, str):
            return
        if isinstance(v, dict):
            for x in v.values():
                walk(x)
        elif isinstance(v, (list, tuple)):
            for x in v:
                walk(x)
        elif isinstance(v, np.ndarray):
            walk(v.tolist())
        else:
            out.append(v)

    walk(value)
    return out


def to_strings(values, digits=25):
    """Decimal strings of the leaves of ``values``: integers exactly, reals to ``digits`` significant digits.

    Examples
    --------
    >>> to_strings({"T": 17, "s": mpmath.mpf(1) / 3}, digits=5)
    ['17', '0.33333']
    """
    out = []
    for v in flatten(values):
        if isinstance(v, (bool, np.bool_)):
            raise TypeError(f"a boolean has no independent value, got {v!r}")
        if isinstance(v, (int, np.integer)):
            out.append(str(int(v)))
        else:
            # an mpf keeps its own digits (mpmath.mpf(v) would round it to the global precision, 53 bits by default,
            # and the strings would move with whatever precision another caller left set); a float is exact
            value = v if isinstance(v, mpmath.mpf) else mpmath.mpf(float(v))
            out.append(mpmath.nstr(value, digits, min_fixed=-30, max_fixed=30))
    return out


def mp_keywords(values, provenance, *, like=None):
    """The ``mp_reference`` / ``mp_provenance`` keywords of :func:`.cases.case` for independent ``values``.

    ``like`` (the reference's output) is checked to have the same structure: the same dict keys in the same
    order and as many leaves, so the strings are read back in the right places.

    Raises
    ------
    ValueError
        If ``values`` and ``like`` differ in structure.
    """
    if like is not None:
        like = like._asdict() if hasattr(like, "_asdict") else like
        if isinstance(like, dict) and (not isinstance(values, dict) or list(like) != list(values)):
            raise ValueError(f"independent values {values!r} do not have the keys of {like!r}")
        if len(flatten(like)) != len(flatten(values)):
            raise ValueError(f"{len(flatten(values))} independent values for {len(flatten(like))} expected values")
    return {"mp_reference": to_strings(values), "mp_provenance": provenance}


def _rebuild(expected, it):
    if isinstance(expected, str):
        return expected
    if isinstance(expected, dict):
        return {k: _rebuild(v, it) for k, v in expected.items()}
    if isinstance(expected, np.ndarray):
        if expected.dtype.kind in "iu":
            return np.array([int(next(it)) for _ in range(expected.size)], dtype=expected.dtype).reshape(expected.shape)
        return np.array([float(next(it)) for _ in range(expected.size)]).reshape(expected.shape)
    if isinstance(expected, (list, tuple)):
        return type(expected)(_rebuild(v, it) for v in expected)
    if isinstance(expected, (int, np.integer)) and not isinstance(expected, bool):
        return int(next(it))
    return float(next(it))


def as_port_output(case):
    """The output a port would return if it computed the case's independent values (decoded case of
    :func:`proofs_checks.conform.deterministic.load_cases`).

    Raises
    ------
    ValueError
        If the case has no ``mp_reference`` or its number of values does not fit the expected output.
    """
    if "mp_reference" not in case:
        raise ValueError(f"case {case['id']} has no independent value")
    strings = list(case["mp_reference"]["mp"])
    expected = case["expected_decoded"]
    if case["compare"] == "law":
        outputs, logp = expected
        if len(strings) != np.size(logp):
            raise ValueError(f"case {case['id']}: {len(strings)} independent values for {np.size(logp)} outputs")
        return (outputs, np.array([float(s) for s in strings]))
    if case["compare"] == "rows":
        rows = np.array([float(s) for s in strings])
        width = np.shape(expected)[1]
        if rows.size % width:
            raise ValueError(f"case {case['id']}: {rows.size} independent values do not make rows of {width}")
        return rows.reshape(-1, width)
    if isinstance(expected, (list, tuple)) and case["function"].endswith("log_prob"):
        # (outputs, log-probabilities) compared as values: the independent values are the latter
        return [expected[0], np.array([float(s) for s in strings]).reshape(np.shape(expected[1]))]
    if len(strings) != len(flatten(expected)):
        raise ValueError(f"case {case['id']}: {len(strings)} independent values for {len(flatten(expected))} leaves")
    return _rebuild(expected, iter(strings))


def census(cases):
    """``(with, without)``: the ids of the cases with an independent value and a provenance, and the rest.

    Examples
    --------
    >>> census([{"id": "a", "mp_reference": {"mp": ["1"], "provenance": "mpmath"}}, {"id": "b"}])
    (['a'], ['b'])
    """
    have, lack = [], []
    for c in cases:
        ref = c.get("mp_reference") or {}
        (have if ref.get("mp") and ref.get("provenance") else lack).append(c["id"])
    return have, lack
