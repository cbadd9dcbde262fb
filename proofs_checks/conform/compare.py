"""Comparison of one port output with its golden value: ulp distances, rows as sets, laws."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .tolerances import tolerance_for

__all__ = ["Mismatch", "compare_case", "ulp_error"]


class Mismatch(Exception):
    """A port output outside its tolerance; the message names the input and the size of the error.

    Examples
    --------
    >>> case = {"id": "laplace_scale/2,1", "function": "laplace_scale", "compare": "values", "expected_decoded": 2.0}
    >>> try:
    ...     compare_case(case, 2.5, [2.0, 1.0], {})
    ... except Mismatch as exc:
    ...     print(str(exc).split(":")[0])
    laplace_scale [laplace_scale/2,1]
    """


def ulp_error(actual: ArrayLike, expected: ArrayLike, scale: ArrayLike) -> NDArray[np.float64]:
    """``|actual - expected| / spacing(|scale|)`` element-wise (float64): the error in ulps of ``scale``.

    Parameters
    ----------
    actual : array_like
        The port's values.
    expected : array_like
        The golden values (broadcast against ``actual``).
    scale : array_like
        What the error is measured against (``numpy.spacing`` of its absolute value).

    Returns
    -------
    numpy.ndarray
        The error in ulps, element-wise (``nan`` where both are the same infinity).

    Examples
    --------
    >>> import numpy as np
    >>> float(ulp_error(np.nextafter(1.0, 2.0), 1.0, 1.0))
    1.0
    """
    with np.errstate(all="ignore"):
        return np.abs(np.subtract(np.asarray(actual, dtype=np.float64), expected)) / np.spacing(np.abs(scale))


def _describe_input(args, index, shape):
    parts = []
    for i, a in enumerate(args):
        arr = np.asarray(a) if not isinstance(a, (str, dict, list)) else None
        if arr is None or arr.dtype.kind not in "fiu":
            continue
        if arr.ndim == 0:
            parts.append(f"arg{i}={float(arr)!r}")
        elif arr.shape == shape:
            where = ",".join(str(int(k)) for k in index)
            parts.append(f"arg{i}[{where}]={arr[index].item()!r}")
        else:
            parts.append(f"arg{i} shape {arr.shape}")
    return ", ".join(parts) if parts else "(no numeric inputs)"


def _compare_floats(function, path, actual, expected, args, kwargs, stats):
    exp = np.asarray(expected, dtype=np.float64)
    try:
        act = np.asarray(actual, dtype=np.float64)
    except (TypeError, ValueError):
        raise Mismatch(f"{path}: expected float64 values of shape {exp.shape}, got {type(actual).__name__}") from None
    if act.shape != exp.shape:
        act = act.reshape(exp.shape) if act.size == exp.size else act
        if act.shape != exp.shape:
            raise Mismatch(f"{path}: expected shape {exp.shape}, got shape {np.shape(actual)}")
    tol, scale = tolerance_for(function, args, kwargs)
    finite = np.isfinite(exp)
    if tol.nonfinite_compared and not np.array_equal(exp[~finite], act[~finite], equal_nan=True):
        idx = np.unravel_index(
            int(np.flatnonzero(~finite & ~((exp == act) | (np.isnan(exp) & np.isnan(act))))[0]), exp.shape
        )
        raise Mismatch(
            f"{path}: at input {_describe_input(args, idx, exp.shape)} expected the non-finite value "
            f"{exp[idx]!r}, got {act[idx]!r}"
        )
    stats["not_compared"] = stats.get("not_compared", 0) + int((~finite).sum())
    if not finite.any():
        return
    if isinstance(scale, str):
        scale_arr = np.abs(exp) if scale == "value" else np.max(np.abs(exp[finite]))
        desc = "the expected value" if scale == "value" else f"max|expected| = {float(scale_arr):.6g}"
    else:
        scale_arr = np.broadcast_to(np.asarray(scale, dtype=np.float64), exp.shape) if np.ndim(scale) else scale
        label = getattr(tol.scale, "label", None)
        if np.ndim(scale) == 0:
            desc = f"{label} = {float(scale):.6g}" if label else f"{float(scale):.6g}"
        else:
            desc = f"{label or 'the scale'} at the input"
    err = np.where(finite, ulp_error(act, exp, scale_arr), 0.0)
    err = np.where(np.isnan(err), np.inf, err)
    worst = np.unravel_index(int(np.argmax(err)), exp.shape) if exp.ndim else ()
    stats["max_ulps"] = max(stats.get("max_ulps", 0.0), float(err[worst]))
    if err[worst] > tol.ulps:
        absdiff = abs(float(act[worst]) - float(exp[worst])) if np.isfinite(act[worst]) else float("inf")
        raise Mismatch(
            f"{path}: error {float(err[worst]):.4g} ulps (abs {absdiff:.3g}) > tolerance {tol.ulps:g} "
            f"ulps of {desc}, at input {_describe_input(args, worst, exp.shape)}: got "
            f"{float(act[worst])!r}, expected {float(exp[worst])!r}"
        )
    bound = None if tol.bound is None else tol.bound(args, kwargs)
    if bound is not None and np.any(np.abs(act) > bound):
        i = np.unravel_index(int(np.argmax(np.abs(act))), exp.shape)
        raise Mismatch(
            f"{path}: |{function}| must not exceed {tol.bound.label} = {float(np.max(bound))!r}, got "
            f"{float(act[i])!r} at input {_describe_input(args, i, exp.shape)}"
        )


def _compare_tree(function, path, actual, expected, args, kwargs, stats):
    if hasattr(actual, "_asdict"):
        actual = actual._asdict()
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            raise Mismatch(f"{path}: expected a mapping with keys {sorted(expected)}, got {type(actual).__name__}")
        missing = [k for k in expected if k not in actual]
        if missing:
            raise Mismatch(f"{path}: missing keys {missing}")
        for k, v in expected.items():
            _compare_tree(function, f"{path}.{k}", actual[k], v, args, kwargs, stats)
    elif isinstance(expected, list):
        if not isinstance(actual, (list, tuple)) or len(actual) != len(expected):
            raise Mismatch(f"{path}: expected a sequence of {len(expected)} items, got {actual!r:.80}")
        for i, (a, e) in enumerate(zip(actual, expected)):
            _compare_tree(function, f"{path}[{i}]", a, e, args, kwargs, stats)
    elif isinstance(expected, str) or isinstance(expected, bool) or expected is None:
        if actual != expected:
            raise Mismatch(f"{path}: expected {expected!r}, got {actual!r}")
    elif isinstance(expected, (int, np.integer)) or (isinstance(expected, np.ndarray) and expected.dtype.kind == "i"):
        if not np.array_equal(np.asarray(actual), expected):
            raise Mismatch(
                f"{path}: expected the integers {np.asarray(expected).tolist()!r:.200}, got "
                f"{np.asarray(actual).tolist()!r:.200}"
            )
    else:
        _compare_floats(function, path, actual, expected, args, kwargs, stats)


def _match_rows(path, act_rows, exp_rows, rtol):
    act_rows = np.asarray(act_rows, dtype=np.float64).reshape(len(act_rows), -1)
    exp_rows = np.asarray(exp_rows, dtype=np.float64).reshape(len(exp_rows), -1)
    if act_rows.shape != exp_rows.shape:
        raise Mismatch(
            f"{path}: expected {exp_rows.shape[0]} outputs of width {exp_rows.shape[1]}, got "
            f"{act_rows.shape[0]} of width {act_rows.shape[1] if act_rows.ndim == 2 else '?'}"
        )
    diff = np.max(np.abs(exp_rows[:, None, :] - act_rows[None, :, :]), axis=2)
    limit = rtol * (1.0 + np.max(np.abs(exp_rows), axis=1))[:, None]
    match = np.argmax(diff <= limit, axis=1)
    found = (diff <= limit).any(axis=1)
    if not found.all():
        i = int(np.flatnonzero(~found)[0])
        raise Mismatch(
            f"{path}: the expected output {exp_rows[i].tolist()} is not among the port's outputs "
            f"(nearest at max abs distance {float(diff[i].min()):.3g}, allowed {float(limit[i, 0]):.3g})"
        )
    if len(set(match.tolist())) != len(match):
        raise Mismatch(f"{path}: two expected outputs match the same port output")
    return match


def compare_case(case: Mapping[str, Any], actual: Any, args: Sequence[Any], kwargs: Mapping[str, Any]) -> dict:
    """Compare a port's output for one golden case with the expected value, within the function's tolerance.

    Parameters
    ----------
    case : dict
        A decoded golden case (:func:`.deterministic.load_cases`).
    actual : object
        The port's output.
    args, kwargs : sequence, mapping
        The case's decoded inputs (input scales are computed from them).

    Returns
    -------
    dict
        Statistics of the comparison (``max_ulps``, ``not_compared``, ``max_abs_log_prob_error``).

    Raises
    ------
    Mismatch
        If the output is outside the tolerance (the message names the input and the size of the error).
    ValueError
        If the case's ``compare`` mode is unknown.

    Examples
    --------
    >>> import numpy as np
    >>> case = {"id": "laplace_scale/2,1", "function": "laplace_scale", "compare": "values",
    ...         "expected_decoded": 2.0}
    >>> compare_case(case, 2.0, [2.0, 1.0], {})
    {'not_compared': 0, 'max_ulps': 0.0}
    >>> compare_case(case, np.nextafter(2.0, 3.0), [2.0, 1.0], {})
    Traceback (most recent call last):
    ...
    proofs_checks.conform.compare.Mismatch: laplace_scale [laplace_scale/2,1]: error 1 ulps (abs 4.44e-16) > \
tolerance 0 ulps of the expected value, at input arg0=2.0, arg1=1.0: got 2.0000000000000004, expected 2.0
    """
    function, mode, expected = case["function"], case["compare"], case["expected_decoded"]
    path = f"{function} [{case['id']}]"
    stats: dict[str, float] = {}
    if mode == "values":
        _compare_tree(function, path, actual, expected, args, kwargs, stats)
    elif mode == "rows":
        tol, scale = tolerance_for(function, args, kwargs)
        _match_rows(path, actual, expected, tol.ulps * np.spacing(float(scale)))
    elif mode == "law":
        tol, _ = tolerance_for(function, args, kwargs)
        if not isinstance(actual, (list, tuple)) or len(actual) < 2:
            raise Mismatch(f"{path}: expected (outputs, log_probabilities), got {type(actual).__name__}")
        outs, logp = np.asarray(actual[0]), np.asarray(actual[1], dtype=np.float64).ravel()
        exp_outs, exp_logp = np.asarray(expected[0]), np.asarray(expected[1], dtype=np.float64).ravel()
        match = _match_rows(path, outs, exp_outs, 1e-12)
        err = np.abs(logp[match] - exp_logp)
        err = np.where(np.isnan(err), np.inf, err)
        i = int(np.argmax(err))
        stats["max_abs_log_prob_error"] = float(err[i])
        if err[i] > tol.law_atol:
            raise Mismatch(
                f"{path}: log-probability of output {exp_outs[i].tolist()} is {float(logp[match[i]])!r}, "
                f"expected {float(exp_logp[i])!r} (error {float(err[i]):.3g} > {tol.law_atol:g}; "
                f"probability {np.exp(float(logp[match[i]])):.6g}, expected {np.exp(float(exp_logp[i])):.6g})"
            )
    else:
        raise ValueError(f"unknown comparison mode {mode!r} in case {case['id']}")
    return stats
