"""Parameter checks shared by every algorithm in :mod:`reference`.

Every check raises ``ValueError`` (bad value) or ``TypeError`` (bad type)
with a message that names the parameter and the offending value.  Nothing
here clips, rounds or coerces silently: a value is either accepted as it is
or rejected.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

__all__ = [
    "check_epsilon",
    "check_delta",
    "check_positive",
    "check_probability",
    "check_integer",
    "check_finite_array",
    "check_scores",
    "check_same_length",
    "check_choice",
    "as_generator",
]


def _check_real(name: str, value) -> float:
    # Exact-type fast path: the abstract-base-class check below costs about a microsecond, and the exact
    # searches of the audit validate parameters on every one of their thousands of law evaluations.
    if type(value) is float:
        return value
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {value!r} of type {type(value).__name__}")
    return float(value)


def check_positive(name: str, value, *, allow_inf: bool = False) -> float:
    """Return ``value`` as a float after checking ``0 < value`` (finite unless ``allow_inf``)."""
    x = _check_real(name, value)
    if math.isnan(x) or x <= 0 or (math.isinf(x) and not allow_inf):
        raise ValueError(f"{name} must be a positive finite number, got {value!r}")
    return x


def check_epsilon(epsilon, name: str = "epsilon") -> float:
    """Privacy parameter: a finite number > 0."""
    return check_positive(name, epsilon)


def check_probability(name: str, value, *, low_open: bool = True, high_open: bool = True) -> float:
    """A number in (0, 1) (or with closed ends on request)."""
    x = _check_real(name, value)
    low_ok = x > 0 if low_open else x >= 0
    high_ok = x < 1 if high_open else x <= 1
    if math.isnan(x) or not (low_ok and high_ok):
        lo = "(" if low_open else "["
        hi = ")" if high_open else "]"
        raise ValueError(f"{name} must lie in {lo}0, 1{hi}, got {value!r}")
    return x


def check_delta(delta, name: str = "delta") -> float:
    """Privacy parameter delta in the open interval (0, 1)."""
    return check_probability(name, delta)


def check_integer(name: str, value, *, minimum: int | None = None, maximum: int | None = None) -> int:
    """An integer (Python or numpy) within optional inclusive bounds."""
    if type(value) is not int and (isinstance(value, bool) or not isinstance(value, numbers.Integral)):
        raise TypeError(f"{name} must be an integer, got {value!r} of type {type(value).__name__}")
    v = int(value)
    if minimum is not None and v < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value!r}")
    if maximum is not None and v > maximum:
        raise ValueError(f"{name} must be <= {maximum}, got {value!r}")
    return v


def check_finite_array(name: str, value, *, ndim: int | None = None, nonempty: bool = True,
                       shape: tuple | None = None) -> np.ndarray:
    """Return ``value`` as a float64 array after checking dimension, emptiness and finiteness.

    ``shape`` may contain ``None`` for free axes, e.g. ``(None, 3)``.
    """
    try:
        arr = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be an array of real numbers, got {type(value).__name__}: {exc}") from None
    if ndim is not None and arr.ndim != ndim:
        raise ValueError(f"{name} must be {ndim}-dimensional, got shape {arr.shape}")
    if shape is not None:
        if arr.ndim != len(shape) or any(s is not None and s != a for s, a in zip(shape, arr.shape)):
            raise ValueError(f"{name} must have shape {shape}, got {arr.shape}")
    if nonempty and arr.size == 0:
        raise ValueError(f"{name} must not be empty, got shape {arr.shape}")
    if not np.isfinite(arr).all():     # the method: np.all's Python wrapper costs more than the test on small arrays
        bad = np.flatnonzero(~np.isfinite(arr.ravel()))
        raise ValueError(
            f"{name} must be finite; entry {int(bad[0])} (flat index) is {arr.ravel()[bad[0]]!r}"
            f" ({bad.size} non-finite entries)"
        )
    return arr


def check_scores(scores, name: str = "scores") -> np.ndarray:
    """A non-empty 1-d vector of finite scores (one per candidate output)."""
    return check_finite_array(name, scores, ndim=1)


def check_same_length(name_a: str, a: np.ndarray, name_b: str, b: np.ndarray) -> None:
    """Raise if the first axes of ``a`` and ``b`` differ."""
    if a.shape[0] != b.shape[0]:
        raise ValueError(
            f"{name_a} and {name_b} must have the same length, got {a.shape[0]} and {b.shape[0]}"
        )


def check_choice(name: str, value, choices):
    """``value`` if it is one of ``choices`` (e.g. a variant name), else ValueError naming both."""
    if value not in choices:
        raise ValueError(f"{name} must be one of {tuple(choices)}, got {value!r}")
    return value


def as_generator(rng=None) -> np.random.Generator:
    """SPEC 7 style: accept a ``Generator``, a seed (int / SeedSequence) or ``None``.

    A legacy ``RandomState`` is rejected rather than silently wrapped, so no
    code path ever touches numpy's global random state.
    """
    if isinstance(rng, np.random.Generator):
        return rng
    if isinstance(rng, np.random.RandomState):
        raise TypeError("rng must be a numpy.random.Generator or a seed, got a legacy RandomState")
    if rng is None or isinstance(rng, (numbers.Integral, np.random.SeedSequence)) and not isinstance(rng, bool):
        if isinstance(rng, numbers.Integral) and int(rng) < 0:
            raise ValueError(f"rng seed must be non-negative, got {rng!r}")
        return np.random.default_rng(rng)
    raise TypeError(f"rng must be a numpy.random.Generator, a seed or None, got {rng!r}")
