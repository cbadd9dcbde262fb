"""The report schema's generated parts: the evidence records and the schema version.

``report.schema.json`` is written by hand except for what this module generates from the
declarations: the ``evidence_<kind>`` definitions (one per record of :mod:`proofs_checks.evidence`),
the claim's ``evidence_kind`` and the rule tying its ``evidence`` to that record, and the
``schema_version`` (:data:`~proofs_checks.report.payload.SCHEMA_VERSION`).  After changing a
record, regenerate the file::

    python -m proofs_checks.report.schema

(a test fails while the shipped file differs from :func:`with_generated_parts` of itself).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

from ..evidence import EVIDENCE_KINDS, record_schemas
from .payload import SCHEMA_VERSION
from .write import SCHEMA_PATH

__all__ = ["with_generated_parts", "render_schema", "write_schema"]

_PREFIX = "evidence_"
_KIND_DESCRIPTION = (
    "the evidence record the claim's evidence follows (proofs_checks/evidence: its keys, their types "
    "and meanings); 'error' when the check raised or its evidence broke its record"
)


def with_generated_parts(schema: dict) -> dict:
    """``schema`` (the report schema) with its evidence records and schema version regenerated.

    Parameters
    ----------
    schema : dict
        The report schema; its ``$defs.claim`` must exist.

    Returns
    -------
    dict
        A copy with ``$defs.evidence_<kind>`` for every record (stale ones dropped), the claim's
        ``evidence_kind`` (required, one of the records) and an ``allOf`` of one ``if``/``then`` per
        record tying ``evidence`` to ``#/$defs/evidence_<kind>``.

    Examples
    --------
    >>> out = with_generated_parts({"properties": {}, "$defs": {"claim": {"properties": {}, "required": ["evidence"]}}})
    >>> out["$defs"]["claim"]["required"], out["$defs"]["evidence_coverage"]["additionalProperties"]
    (['evidence_kind', 'evidence'], False)
    """
    if not isinstance(schema, dict) or "claim" not in schema.get("$defs", {}):
        raise ValueError("schema must be the report schema, with $defs.claim")
    out = copy.deepcopy(schema)
    out.setdefault("properties", {})["schema_version"] = {"const": SCHEMA_VERSION}
    defs = {k: v for k, v in out["$defs"].items() if not k.startswith(_PREFIX)}
    claim = defs["claim"]
    props = claim.setdefault("properties", {})
    rebuilt = {}
    for key, value in props.items():
        if key == "evidence_kind":
            continue
        if key == "evidence":
            rebuilt["evidence_kind"] = {"enum": list(EVIDENCE_KINDS), "description": _KIND_DESCRIPTION}
            value = {"type": "object", "description": "the detail behind the verdict, as its record declares it"}
        rebuilt[key] = value
    if "evidence_kind" not in rebuilt:
        rebuilt["evidence_kind"] = {"enum": list(EVIDENCE_KINDS), "description": _KIND_DESCRIPTION}
    claim["properties"] = rebuilt
    required = [k for k in claim.get("required", []) if k != "evidence_kind"]
    at = required.index("evidence") if "evidence" in required else len(required)
    claim["required"] = required[:at] + ["evidence_kind"] + required[at:]
    claim["allOf"] = [
        {
            "if": {"properties": {"evidence_kind": {"const": kind}}, "required": ["evidence_kind"]},
            "then": {"properties": {"evidence": {"$ref": f"#/$defs/{_PREFIX}{kind}"}}},
        }
        for kind in EVIDENCE_KINDS
    ]
    defs.update({_PREFIX + kind: s for kind, s in record_schemas().items()})
    out["$defs"] = defs
    return out


def render_schema(schema: dict, width: int = 120) -> str:
    """``schema`` as JSON text: an object or list on one line where it fits in ``width``, else one member a line.

    Parameters
    ----------
    schema : dict
        Any JSON value (the report schema).
    width : int
        The line width the text keeps to where it can.

    Returns
    -------
    str
        The text, ending in a newline.

    Examples
    --------
    >>> print(render_schema({"a": {"type": "string"}, "b": [1, 2]}, width=30), end="")
    {
      "a": {"type": "string"},
      "b": [1, 2]
    }
    """
    return _render(schema, 0, 0, width) + "\n"


def _render(value, indent, column, width):
    one = json.dumps(value, ensure_ascii=False)
    if not isinstance(value, (dict, list)) or not value or column + len(one) <= width:
        return one
    pad = " " * (indent + 2)
    if isinstance(value, list) and not any(isinstance(v, (dict, list)) for v in value):
        # a list of names or numbers: filled line by line, as prose
        lines, line = [], ""
        for word in (json.dumps(v, ensure_ascii=False) for v in value):
            if line and len(pad) + len(line) + len(word) + 2 > width:
                lines.append(line + ",")
                line = ""
            line = f"{line}, {word}" if line else word
        return "[\n" + "\n".join(pad + text for text in lines + [line]) + "\n" + " " * indent + "]"
    if isinstance(value, dict):
        items = []
        for key, item in value.items():
            head = f"{pad}{json.dumps(key, ensure_ascii=False)}: "
            items.append(head + _render(item, indent + 2, len(head), width))
    else:
        items = [pad + _render(item, indent + 2, len(pad), width) for item in value]
    open_, close = ("{", "}") if isinstance(value, dict) else ("[", "]")
    return open_ + "\n" + ",\n".join(items) + "\n" + " " * indent + close


def write_schema(path: Path = SCHEMA_PATH) -> Path:
    """Regenerate the generated parts of the report schema at ``path`` (default: the shipped one); return it.

    Parameters
    ----------
    path : pathlib.Path or str
        The report schema file, read and rewritten in place.

    Returns
    -------
    pathlib.Path
        ``path``.

    Raises
    ------
    ValueError
        The file is not the report schema (no ``$defs.claim``) or not JSON.

    Examples
    --------
    >>> import shutil, tempfile
    >>> copy = Path(tempfile.mkdtemp()) / "report.schema.json"
    >>> _ = shutil.copy(SCHEMA_PATH, copy)
    >>> write_schema(copy).read_text(encoding="utf-8") == SCHEMA_PATH.read_text(encoding="utf-8")
    True
    """
    path = Path(path)
    schema = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(render_schema(with_generated_parts(schema)), encoding="utf-8")
    return path


if __name__ == "__main__":
    print(f"wrote {write_schema()}")
