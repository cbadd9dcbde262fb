"""Checks of the gray-box audit's arguments: bad input raises TypeError or ValueError naming the parameter."""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np

__all__ = ["check_algorithm", "check_dataset", "check_int", "check_real"]


def check_algorithm(algorithm: Any) -> Any:
    """``algorithm`` itself if it is callable.

    Raises
    ------
    TypeError
        If it is not.

    Examples
    --------
    >>> check_algorithm(print) is print
    True
    """
    if not callable(algorithm):
        raise TypeError(f"algorithm must be a callable algorithm(data, rng), got {algorithm!r}")
    return algorithm


def check_dataset(name: str, value: Any) -> np.ndarray:
    """``value`` as a numpy array of real numbers (booleans, integers or floats; not converted).

    Raises
    ------
    TypeError
        If it is not an array of real numbers.

    Examples
    --------
    >>> check_dataset("D", [[1, 2]]).dtype.kind
    'i'
    """
    try:
        array = np.asarray(value)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be an array of real numbers, got {type(value).__name__}: {exc}") from None
    if array.dtype.kind not in "biuf":
        raise TypeError(f"{name} must be an array of real numbers, got dtype {array.dtype}")
    return array


def check_int(name: str, value: Any, *, minimum: int) -> int:
    """``value`` as an int ``>= minimum`` (booleans refused).

    Raises
    ------
    TypeError
        If it is not an integer.
    ValueError
        If it is below ``minimum``.

    Examples
    --------
    >>> check_int("paths", 10, minimum=2)
    10
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {value!r}")
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value!r}")
    return int(value)


def check_real(name: str, value: Any, *, low: float, high: float, low_open: bool = False, high_open: bool = False):
    """``value`` as a float in the interval from ``low`` to ``high`` (ends open as asked; NaN refused).

    Raises
    ------
    TypeError
        If it is not a real number.
    ValueError
        If it is outside the interval.

    Examples
    --------
    >>> check_real("confidence", 0.95, low=0.0, high=1.0, low_open=True, high_open=True)
    0.95
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {value!r}")
    value = float(value)
    above = value > low if low_open else value >= low
    below = value < high if high_open else value <= high
    if math.isnan(value) or not (above and below):
        interval = f"{'(' if low_open else '['}{low}, {high}{')' if high_open else ']'}"
        raise ValueError(f"{name} must be in {interval}, got {value!r}")
    return value
