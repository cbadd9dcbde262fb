"""The verification report: ``report.md``, ``report.json`` and ``report.html`` (figures beside them).

The report leads with an overview: a table of contents, a verdict grid per paper and the legend of
the verdicts, then the headline findings (:class:`~proofs_checks.model.Finding`) by paper and ranked
by severity (:mod:`.overview`), each with its key number, first figure, reading and claims; then a
paper x kind x verdict summary, the bibliography, one verdict line per claim, the self-tests of the
project's own tools in their own section, and a provenance block that is enough to rerun it.

- :mod:`.records`: one claim's record and its verdict line;
- :mod:`.payload`: the whole report as one JSON object (schema ``report.schema.json``);
- :mod:`.overview`: the first screen derived from the payload (verdict grid, severity, legend);
- :mod:`.provenance`, :mod:`.bibliography`: where the run and the papers come from;
- :mod:`.markdown`, :mod:`.html`: the two renderings of the payload;
- :mod:`.write`: the three files, written whole or not at all;
- :mod:`.schema`: the generated parts of ``report.schema.json``.

The public interface, importable from here:

* writing a report: :func:`write_report`, :func:`remove_stale_figures`;
* the payload and its records: :func:`build_payload`, :func:`claim_record`, :func:`verdict_line`,
  :func:`paper_of`, :func:`to_jsonable`, :data:`SCHEMA_VERSION`;
* the schema: :data:`SCHEMA_PATH`, :func:`with_generated_parts`, :func:`render_schema`,
  :func:`write_schema` (loaded on first use, so that ``python -m proofs_checks.report.schema`` runs the
  module once).

Examples
--------
>>> from proofs_checks.model import Claim, Result
>>> from proofs_checks.report import build_payload, claim_record
>>> claim = Claim("toy.bound", "[000 Lemma 1]", "x <= 1", "inequality", lambda ctx: Result("confirmed"))
>>> record = claim_record(claim, Result("confirmed", observed=0.5, bound=1.0, direction="at_most"))
>>> payload = build_payload([record], profile="quick", seed=1, provenance={})
>>> payload["summary"]["claims"]["confirmed"], payload["claims"][0]["paper"]
(1, '000')
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from ..jsonable import to_jsonable  # re-exported: older code imports it from here
from .payload import SCHEMA_VERSION, build_payload, paper_of
from .records import claim_record, verdict_line
from .write import SCHEMA_PATH, remove_stale_figures, write_report

#: Names of :mod:`.schema`, loaded when first used (see the module docstring).
_LAZY = {"with_generated_parts": "schema", "render_schema": "schema", "write_schema": "schema"}

__all__ = [
    "SCHEMA_PATH",
    "SCHEMA_VERSION",
    "build_payload",
    "claim_record",
    "paper_of",
    "remove_stale_figures",
    "render_schema",
    "to_jsonable",
    "verdict_line",
    "with_generated_parts",
    "write_report",
    "write_schema",
]


def __getattr__(name):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value  # looked up once
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))


if TYPE_CHECKING:  # the same names for type checkers and editors
    from .schema import render_schema, with_generated_parts, write_schema
