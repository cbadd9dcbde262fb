"""Plain JSON types for reports and audit results: :func:`to_jsonable`.

A leaf module (numpy only), so the auditor and the report can both use it without
importing each other.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["to_jsonable"]


def to_jsonable(obj: Any) -> Any:
    """Numpy scalars and arrays to Python; non-finite floats to strings ("inf", "nan"); paths to strings.

    Parameters
    ----------
    obj : object
        A value made of dicts, lists, tuples, numpy arrays and scalars, floats, paths and JSON values.

    Returns
    -------
    object
        The same structure in JSON types: dict keys as strings, tuples and arrays as lists; anything else
        is returned as it is.

    Examples
    --------
    >>> to_jsonable({"a": np.float64(1.5), "b": [np.inf, (1, 2)]})
    {'a': 1.5, 'b': ['inf', [1, 2]]}
    """
    if isinstance(obj, dict):
        return {str(k): to_jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [to_jsonable(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return to_jsonable(obj.tolist())
    if isinstance(obj, np.generic):
        return to_jsonable(obj.item())
    if isinstance(obj, float) and not math.isfinite(obj):
        return str(obj)
    if isinstance(obj, Path):
        return str(obj)
    return obj
