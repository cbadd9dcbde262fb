"""The golden JSON format: exact float64 values as shortest round-trip strings, with provenance.

A value is encoded as

* a float64 scalar or array: ``{"f64": "0.1"}`` / ``{"f64": [["1e-300", "-inf"], ...]}``: each float is
  Python's ``repr`` (the shortest decimal string that rounds back to the same double, IEEE
  round-to-nearest), with ``"inf"``, ``"-inf"``, ``"nan"`` for the non-finite values;
* an integer array: ``{"i64": [[0, 2], ...]}``;
* a high-precision reference: ``{"mp": ["0.4791666666666666666666666667", ...]}`` (decimal strings);
* ints, bools, strings and null as themselves; tuples and lists as JSON lists; dicts (and named
  tuples, through ``_asdict``) as JSON objects.

The encoding is deterministic (sorted keys are not used: case order is the builders' order), so the
same inputs give the same bytes; only the provenance block's commit and versions vary.
"""

from __future__ import annotations

import importlib.metadata
import json
import platform
import subprocess
from pathlib import Path

import numpy as np

__all__ = ["SCHEMA_ID", "encode", "decode", "provenance", "dump", "load", "VOLATILE_PROVENANCE"]

#: Identifier of the format version, stored in every file.
SCHEMA_ID = "heavytail-golden/1"

#: Provenance fields that depend on the machine or the checkout (ignored when comparing files).
VOLATILE_PROVENANCE = ("commit", "project_version", "python", "numpy", "scipy", "mpmath", "platform")


def _float_str(x):
    x = float(x)
    if x != x:
        return "nan"
    if x in (float("inf"), float("-inf")):
        return "inf" if x > 0 else "-inf"
    return repr(x)


def _float_tree(tree):
    if isinstance(tree, list):
        return [_float_tree(t) for t in tree]
    return _float_str(tree)


def encode(value):
    """Encode ``value`` (numpy arrays, floats, ints, strings, tuples, dicts, named tuples) as JSON types."""
    if hasattr(value, "_asdict"):
        return {k: encode(v) for k, v in value._asdict().items()}
    if isinstance(value, dict):
        return {str(k): encode(v) for k, v in value.items()}
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return {"f64": _float_str(value)}
    if isinstance(value, (list, tuple)):
        return [encode(v) for v in value]
    arr = np.asarray(value)
    if arr.dtype.kind in "iu":
        return {"i64": arr.astype(np.int64).tolist()}
    if arr.dtype.kind == "b":
        return arr.tolist()
    if arr.dtype.kind == "f":
        return {"f64": _float_tree(arr.tolist())}
    raise TypeError(f"cannot encode a value of type {type(value).__name__} in the golden format")


def _floats(tree):
    if isinstance(tree, list):
        return [_floats(t) for t in tree]
    return float(tree)


def decode(tree):
    """Inverse of :func:`encode`: ``f64`` -> float64 array (Python float for a scalar), ``i64`` -> int64 array."""
    if isinstance(tree, dict):
        if set(tree) == {"f64"}:
            v = tree["f64"]
            return float(v) if isinstance(v, str) else np.array(_floats(v), dtype=np.float64)
        if set(tree) == {"i64"}:
            v = tree["i64"]
            return int(v) if isinstance(v, int) else np.array(v, dtype=np.int64)
        if set(tree) == {"mp"}:
            return tree["mp"]
        return {k: decode(v) for k, v in tree.items()}
    if isinstance(tree, list):
        return [decode(v) for v in tree]
    return tree


def _version(dist):
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def _commit():
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            cwd=Path(__file__).resolve().parent,
            capture_output=True,
            text=True,
            timeout=10,
        )
        return out.stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def provenance(*, command, seed, reference_precision, generator):
    """The provenance block of a golden file."""
    import mpmath
    import scipy

    return {
        "project": "heavytail-dp-reference",
        "project_version": _version("heavytail-dp-reference"),
        "commit": _commit(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "scipy": scipy.__version__,
        "mpmath": mpmath.__version__,
        "platform": platform.machine(),
        "command": command,
        "generator": generator,
        "seed": seed,
        "reference_precision": reference_precision,
    }


def dump(path, *, subject, description, prov, cases):
    """Write one golden file (UTF-8, two-space indent, trailing newline)."""
    doc = {"schema": SCHEMA_ID, "subject": subject, "description": description, "provenance": prov, "cases": cases}
    text = json.dumps(doc, indent=1, ensure_ascii=True) + "\n"
    Path(path).write_text(text, encoding="utf-8")
    return text


def load(path):
    """Read a golden file; checks the schema id."""
    doc = json.loads(Path(path).read_text(encoding="utf-8"))
    if doc.get("schema") != SCHEMA_ID:
        raise ValueError(f"{path}: schema must be {SCHEMA_ID!r}, got {doc.get('schema')!r}")
    return doc
