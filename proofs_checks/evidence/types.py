"""The JSON types an evidence value may have: their words, their JSON Schema and a check of a value.

Evidence is checked in its JSON form, the one ``report.json`` holds
(:func:`proofs_checks.jsonable.to_jsonable`): numbers, strings, booleans, ``null``, lists and
objects, with the non-finite floats written as the strings ``"inf"``, ``"-inf"`` and ``"nan"``.
Each type here gives the words an error message uses (``str(t)``), the JSON Schema fragment the
report schema embeds (``t.schema()``) and the first place where a value departs from it
(``t.problem(value, path)``).

Examples
--------
>>> seeds = ListOf(Struct({"seed": INTEGER, "observed": optional(REAL)}))
>>> str(seeds)
'list of {seed: integer, observed: number or null}'
>>> seeds.problem([{"seed": 1, "observed": "inf"}], "seeds") is None
True
>>> seeds.problem([{"seed": "1", "observed": 0.5}], "seeds")
("seeds[0]['seed']", 'integer', "string '1'")
"""

from __future__ import annotations

import math

__all__ = [
    "JsonType",
    "STRING",
    "INTEGER",
    "REAL",
    "BOOLEAN",
    "NULL",
    "OBJECT",
    "ANY",
    "ListOf",
    "MapOf",
    "Struct",
    "AnyOf",
    "Enum",
    "optional",
    "describe_value",
]

#: How :func:`~proofs_checks.jsonable.to_jsonable` writes the non-finite floats.
NON_FINITE = ("inf", "-inf", "nan")


def describe_value(value) -> str:
    """A JSON value in a few words, for error messages.

    Examples
    --------
    >>> describe_value("abc"), describe_value(2), describe_value([1, 2]), describe_value(None)
    ("string 'abc'", 'integer 2', 'list of 2 items', 'null')
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"boolean {value}"
    if isinstance(value, int):
        return f"integer {value}"
    if isinstance(value, float):
        return f"number {value!r}"
    if isinstance(value, str):
        text = value if len(value) <= 40 else value[:37] + "..."
        return f"string {text!r}"
    if isinstance(value, list):
        return f"list of {len(value)} items"
    if isinstance(value, dict):
        return f"object with keys {sorted(value)[:6]}"
    return f"{type(value).__name__} (not JSON)"


class JsonType:
    """A JSON type of an evidence value.

    Subclasses give :meth:`schema`, :meth:`problem` and their words (``str``).
    """

    def schema(self) -> dict:
        """The JSON Schema (draft 2020-12) fragment of the type."""
        raise NotImplementedError

    def problem(self, value, path: str):
        """``None`` when ``value`` has this type, else ``(path, expected, found)`` (words) of the first departure."""
        raise NotImplementedError

    def __repr__(self):
        return f"<JsonType {self}>"


class _Primitive(JsonType):
    def __init__(self, words, schema, accepts):
        self._words, self._schema, self._accepts = words, schema, accepts

    def __str__(self):
        return self._words

    def schema(self):
        return dict(self._schema)

    def problem(self, value, path):
        return None if self._accepts(value) else (path, self._words, describe_value(value))


def _is_real(value):
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, float)):
        return math.isfinite(value)
    return value in NON_FINITE


#: Text.
STRING = _Primitive("string", {"type": "string"}, lambda v: isinstance(v, str))
#: A whole number (a count, an index, a size); never a boolean.
INTEGER = _Primitive("integer", {"type": "integer"}, lambda v: isinstance(v, int) and not isinstance(v, bool))
#: A float as the report writes it: a JSON number, or "inf", "-inf", "nan" for the non-finite ones.
REAL = _Primitive("number", {"anyOf": [{"type": "number"}, {"enum": list(NON_FINITE)}]}, _is_real)
#: True or false.
BOOLEAN = _Primitive("boolean", {"type": "boolean"}, lambda v: isinstance(v, bool))
#: JSON null (Python None).
NULL = _Primitive("null", {"type": "null"}, lambda v: v is None)
#: An object whose keys the check chooses (an instance, a table row); its values are any JSON.
OBJECT = _Primitive("object", {"type": "object"}, lambda v: isinstance(v, dict))


class _Any(JsonType):
    def __str__(self):
        return "any JSON value"

    def schema(self):
        return {}

    def problem(self, value, path):
        return None


#: Any JSON value (used only where the structure is the check's own, e.g. the place of a worst case).
ANY = _Any()


class ListOf(JsonType):
    """A list whose items all have type ``item``; ``length`` fixes its length (``[low, high]`` of an interval)."""

    def __init__(self, item: JsonType, length: int | None = None):
        if not isinstance(item, JsonType):
            raise TypeError(f"item must be a JsonType, got {type(item).__name__}")
        self.item, self.length = item, length

    def __str__(self):
        return f"list of {self.item}" if self.length is None else f"list of {self.length} {self.item}"

    def schema(self):
        out = {"type": "array", "items": self.item.schema()}
        if self.length is not None:
            out.update(minItems=self.length, maxItems=self.length)
        return out

    def problem(self, value, path):
        if not isinstance(value, list) or (self.length is not None and len(value) != self.length):
            return path, str(self), describe_value(value)
        for i, v in enumerate(value):
            found = self.item.problem(v, f"{path}[{i}]")
            if found:
                return found
        return None


class MapOf(JsonType):
    """An object with free keys (a value per epsilon, per case, per reading), each value of type ``value``."""

    def __init__(self, value: JsonType):
        if not isinstance(value, JsonType):
            raise TypeError(f"value must be a JsonType, got {type(value).__name__}")
        self.value = value

    def __str__(self):
        return f"object of {self.value}"

    def schema(self):
        return {"type": "object", "additionalProperties": self.value.schema()}

    def problem(self, value, path):
        if not isinstance(value, dict):
            return path, str(self), describe_value(value)
        for k, v in value.items():
            found = self.value.problem(v, f"{path}[{k!r}]")
            if found:
                return found
        return None


class Struct(JsonType):
    """A closed object with the keys of ``fields`` (each optional unless in ``required``)."""

    def __init__(self, fields: dict, required: tuple = ()):
        bad = [k for k, t in fields.items() if not isinstance(t, JsonType)]
        if bad:
            raise TypeError(f"fields {bad} must map to JsonType objects")
        unknown = [k for k in required if k not in fields]
        if unknown:
            raise ValueError(f"required names keys {unknown} that fields does not declare")
        self.fields, self.required = dict(fields), tuple(required)

    def __str__(self):
        return "{" + ", ".join(f"{k}: {t}" for k, t in self.fields.items()) + "}"

    def schema(self):
        out = {
            "type": "object",
            "properties": {k: t.schema() for k, t in self.fields.items()},
            "additionalProperties": False,
        }
        if self.required:
            out["required"] = list(self.required)
        return out

    def problem(self, value, path):
        if not isinstance(value, dict):
            return path, str(self), describe_value(value)
        for k, v in value.items():
            if k not in self.fields:
                return f"{path}[{k!r}]", f"no such key (keys: {', '.join(self.fields)})", describe_value(v)
            found = self.fields[k].problem(v, f"{path}[{k!r}]")
            if found:
                return found
        missing = [k for k in self.required if k not in value]
        return (path, f"an object with key {missing[0]!r}", describe_value(value)) if missing else None


class AnyOf(JsonType):
    """A value of one of ``types``."""

    def __init__(self, *types: JsonType):
        if len(types) < 2 or not all(isinstance(t, JsonType) for t in types):
            raise TypeError("AnyOf needs two or more JsonType objects")
        self.types = types

    def __str__(self):
        return " or ".join(str(t) for t in self.types)

    def schema(self):
        members = []
        for t in self.types:
            s = t.schema()
            members += s["anyOf"] if list(s) == ["anyOf"] else [s]  # a union of unions is one union
        return {"anyOf": members}

    def problem(self, value, path):
        found = [t.problem(value, path) for t in self.types]
        if any(f is None for f in found):
            return None
        # the deepest departure tells the most (a list item of the right list, not "not a number")
        deepest = max(found, key=lambda f: len(f[0]))
        return deepest if deepest[0] != path else (path, str(self), describe_value(value))


class Enum(JsonType):
    """One of a fixed set of JSON values (strings, numbers, null)."""

    def __init__(self, *values):
        if not values:
            raise ValueError("Enum needs at least one value")
        self.values = values

    def __str__(self):
        return "one of " + ", ".join(repr(v) for v in self.values)

    def schema(self):
        return {"enum": list(self.values)}

    def problem(self, value, path):
        ok = any(value == v and type(value) is type(v) for v in self.values)
        return None if ok else (path, str(self), describe_value(value))


def optional(t: JsonType) -> JsonType:
    """``t`` or null (a value the check leaves out as ``None`` where it has none)."""
    return AnyOf(t, NULL)
