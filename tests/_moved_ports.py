"""Ports whose outputs are the golden values moved by a multiple of each function's stated tolerance.

The allowed error of every compared value is computed here from the declaration
(:data:`proofs_checks.conform.functions.FUNCTIONS`), never from the table the kit reads
(:data:`proofs_checks.conform.tolerances.TOLERANCES`): a kit whose table or comparison drifted from the
stated tolerances accepts a port moved outside them, or rejects one moved inside.

What is moved mirrors what the kit compares: every finite float of the expected value (integers, strings and
non-finite values stay), element-wise for ``values`` (by ``factor * ulps * ulp(scale)``), row by row for
``rows`` (by ``factor * ulps * ulp(scale) * (1 + the row's largest |coordinate|)`` in every coordinate), the
log-probabilities of a ``law`` (by ``factor * law_atol``).  A bit-exact value (0 ulps) moves by one ulp when
``factor > 1`` and stays otherwise (half of nothing).  Values move towards zero, so the move is exact on the
finer float grid below them and a value at a bound (E[phi] = B) stays inside it.
"""

from __future__ import annotations

import copy
import functools
import json
import numbers
import types

import numpy as np

from proofs_checks.conform import declared, load_cases
from proofs_checks.golden.encoding import encode


class LostMove(AssertionError):
    """Rounding left a moved value on the wrong side of the tolerance: the probe would prove nothing."""


@functools.lru_cache(maxsize=1)
def _cases():
    return tuple(load_cases())


def cases_of(function):
    """The shipped golden cases of ``function``."""
    return [c for c in _cases() if c["function"] == function]


def stated_tolerance(function, kwargs):
    """The declared ``Tol`` of a call (its variant's, where it has one)."""
    tol = declared(function).tolerance
    if tol.variants and kwargs.get("variant") in tol.variants:
        tol = tol.variants[kwargs["variant"]]
    return tol


def _scale(tol, exp, args, kwargs):
    finite = np.isfinite(exp)
    if isinstance(tol.scale, str):
        if tol.scale == "value":
            return np.abs(exp)
        return np.full(exp.shape, np.max(np.abs(exp[finite])) if finite.any() else 0.0)
    if callable(tol.scale):
        return np.broadcast_to(np.asarray(tol.scale(args, kwargs), dtype=np.float64), exp.shape)
    if isinstance(tol.scale, numbers.Real):
        return np.full(exp.shape, float(tol.scale))
    raise TypeError(f"unknown scale {tol.scale!r}")


def _toward_zero(x, delta):
    return np.where(x > 0, x - delta, np.where(x < 0, x + delta, delta))


def _one_ulp(x):
    return np.where(x == 0, np.nextafter(0.0, 1.0), np.nextafter(x, 0.0))


def _check(moved, exp, allowance, factor, where):
    ratio = np.abs(moved - exp) / allowance
    if factor > 1 and not np.all(ratio > 1):
        raise LostMove(f"{where}: a value moved by {factor} x its tolerance is within it ({ratio.min():.3g})")
    if factor <= 1 and not np.all(ratio <= 1):
        raise LostMove(f"{where}: a value moved by {factor} x its tolerance is outside it ({ratio.max():.3g})")


def _move_floats(leaf, tol, factor, args, kwargs, where, counter):
    exp = np.asarray(leaf, dtype=np.float64)
    finite = np.isfinite(exp)
    if tol.ulps == 0:
        moved = np.where(finite, _one_ulp(exp), exp) if factor > 1 else exp.copy()
    else:
        allowance = tol.ulps * np.spacing(np.abs(_scale(tol, exp, args, kwargs)))
        moved = np.where(finite, _toward_zero(exp, factor * allowance), exp)
        _check(moved[finite], exp[finite], allowance[finite], factor, where)
    counter[0] += int(finite.sum())
    return float(moved) if np.ndim(leaf) == 0 else moved


def _move_tree(tree, tol, factor, args, kwargs, where, counter):
    if isinstance(tree, dict):
        return {k: _move_tree(v, tol, factor, args, kwargs, f"{where}.{k}", counter) for k, v in tree.items()}
    if isinstance(tree, list):
        return [_move_tree(v, tol, factor, args, kwargs, f"{where}[{i}]", counter) for i, v in enumerate(tree)]
    if tree is None or isinstance(tree, (str, bool, numbers.Integral)):
        return tree
    if isinstance(tree, np.ndarray) and tree.dtype.kind != "f":
        return tree
    return _move_floats(tree, tol, factor, args, kwargs, where, counter)


def _move_rows(rows, tol, factor, where):
    exp = np.asarray(rows, dtype=np.float64)
    flat = exp.reshape(len(exp), -1)
    allowance = tol.ulps * np.spacing(float(tol.scale)) * (1.0 + np.max(np.abs(flat), axis=1))
    moved = _toward_zero(flat, factor * allowance[:, None])
    _check(np.max(np.abs(moved - flat), axis=1), 0.0, allowance, factor, where)
    return moved.reshape(exp.shape), exp.size


def moved_expected(case, factor):
    """The case's expected value with every compared value moved by ``factor`` times its stated tolerance.

    Returns ``(moved, count)``: the moved tree and how many values moved.  Raises :class:`LostMove` when
    rounding would put a moved value on the other side of the tolerance.
    """
    function, where = case["function"], case["id"]
    kind = declared(function).kind
    expected = case["expected_decoded"]
    args, kwargs = case["args_decoded"], case["kwargs_decoded"]
    tol = stated_tolerance(function, kwargs)
    if kind == "law":
        outputs, logp = expected
        logp = np.asarray(logp, dtype=np.float64)
        moved = _toward_zero(logp, factor * tol.law_atol)
        _check(np.abs(moved - logp), 0.0, tol.law_atol, factor, where)
        return [outputs, moved], logp.size
    if kind == "rows":
        return _move_rows(expected, tol, factor, where)
    counter = [0]
    return _move_tree(expected, tol, factor, args, kwargs, where, counter), counter[0]


def _key(args, kwargs):
    return json.dumps(encode([list(args), dict(kwargs)]), sort_keys=True)


def port_returning(function, outputs_by_case):
    """A port providing only ``function``, which returns ``outputs_by_case[case id]`` for that case's inputs."""
    table = {}
    for case in cases_of(function):
        key = _key(case["args_decoded"], case["kwargs_decoded"])
        if key in table:
            raise ValueError(f"two golden cases of {function} have the same inputs: the port cannot tell them apart")
        table[key] = outputs_by_case[case["id"]]

    def port_function(*args, **kwargs):
        return copy.deepcopy(table[_key(args, kwargs)])

    port = types.ModuleType(f"moved_{function}")
    setattr(port, function, port_function)
    return port


def moved_port(function, factor):
    """A port whose ``function`` returns each golden value moved by ``factor`` times its stated tolerance."""
    outputs = {}
    for case in cases_of(function):
        moved, count = moved_expected(case, factor)
        if count == 0:
            raise LostMove(f"{case['id']}: nothing to move (no compared float): the probe would prove nothing")
        outputs[case["id"]] = moved
    return port_returning(function, outputs)
