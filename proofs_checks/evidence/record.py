"""A declared evidence key (:class:`Field`) and the record of one shape of check (:class:`EvidenceRecord`)."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Any

from .types import JsonType

__all__ = ["EvidenceError", "Field", "EvidenceRecord"]


class EvidenceError(ValueError):
    """A Result's evidence does not follow its record: an undeclared key, a wrong type, a missing key."""


@dataclass(frozen=True)
class Field:
    """One evidence key: its name, its JSON type and what it means, in one line.

    Attributes
    ----------
    name : str
        The key, exactly as the checks write it.
    type : JsonType
        Its JSON type (:mod:`proofs_checks.evidence.types`).
    meaning : str
        What the value is, in one line (the report schema's ``description``).
    required : bool
        Every result of the record carries it.
    """

    name: str
    type: JsonType
    meaning: str
    required: bool = False

    def __post_init__(self):
        if not isinstance(self.name, str) or not self.name:
            raise ValueError(f"Field.name must be a non-empty string, got {self.name!r}")
        if not isinstance(self.type, JsonType):
            raise TypeError(f"Field {self.name!r}: type must be a JsonType, got {type(self.type).__name__}")
        if not isinstance(self.meaning, str) or not self.meaning.strip():
            raise ValueError(f"Field {self.name!r}: meaning must be a non-empty line")
        if "\n" in self.meaning:
            raise ValueError(f"Field {self.name!r}: meaning must be one line")

    def schema(self) -> dict:
        """The field's JSON Schema: its type with the meaning as ``description``."""
        return {**self.type.schema(), "description": self.meaning}


@dataclass(frozen=True)
class EvidenceRecord:
    """The evidence of one shape of check: the keys it may hold, typed, with their meanings.

    Attributes
    ----------
    kind : str
        The record's name (``Result.evidence_kind``), e.g. ``"bound_search"``.
    shape : str
        The shape of check, in one line.
    made_by : str
        The builders and checks whose results follow it.
    fields : tuple of Field
        Its keys, the common ones (:data:`~proofs_checks.evidence.COMMON_FIELDS`) included.
    closed : bool
        Whether a key it does not declare is an error (``additionalProperties: false``).
    """

    kind: str
    shape: str
    made_by: str
    fields: tuple
    closed: bool = True

    def __post_init__(self):
        names = [f.name for f in self.fields]
        if not all(isinstance(f, Field) for f in self.fields):
            raise TypeError(f"record {self.kind!r}: fields must be Field objects")
        doubled = sorted({n for n in names if names.count(n) > 1})
        if doubled:
            raise ValueError(f"record {self.kind!r} declares {doubled} twice")

    @property
    def by_name(self) -> dict:
        """``{key: Field}``."""
        return {f.name: f for f in self.fields}

    def problems(self, evidence) -> list:
        """Every departure of ``evidence`` (JSON form) from the record, as messages; empty when it follows it."""
        if not isinstance(evidence, dict):
            return [f"evidence must be an object, got {type(evidence).__name__}"]
        fields, out = self.by_name, []
        for key, value in evidence.items():
            field = fields.get(key)
            if field is None:
                if self.closed:
                    near = difflib.get_close_matches(key, list(fields), n=1)
                    hint = f" (did you mean {near[0]!r}?)" if near else ""
                    out.append(f"evidence key {key!r} is not declared by the record {self.kind!r}{hint}")
                continue
            found = field.type.problem(value, f"evidence[{key!r}]")
            if found:
                where, expected, got = found
                out.append(f"{where} must be {expected} (record {self.kind!r}: {key} = {field.meaning}), got {got}")
        out += [
            f"evidence key {f.name!r} is required by the record {self.kind!r} ({f.meaning})"
            for f in self.fields
            if f.required and f.name not in evidence
        ]
        return out

    def check(self, evidence, claim_id: str | None = None) -> None:
        """Raise :class:`EvidenceError` (naming the claim, the key, the expected type) unless ``evidence`` fits."""
        problems = self.problems(evidence)
        if problems:
            who = f"claim {claim_id}: " if claim_id else ""
            raise EvidenceError(who + "; ".join(problems))

    def schema(self) -> dict:
        """The record's JSON Schema (draft 2020-12)."""
        out: dict[str, Any] = {
            "type": "object",
            "description": f"{self.shape} (made by {self.made_by})",
            "properties": {f.name: f.schema() for f in self.fields},
        }
        required = [f.name for f in self.fields if f.required]
        if required:
            out["required"] = required
        if self.closed:
            out["additionalProperties"] = False
        return out
