"""Plain JSON types for reports and audit results: :func:`to_jsonable`.

A leaf module (numpy only), so the auditor and the report can both use it without
importing each other.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

__all__ = ["to_jsonable"]


def to_jsonable(obj):
    """Numpy scalars and arrays to Python; non-finite floats to strings ("inf", "nan"); paths to strings.

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
