"""The verification report: ``report.md``, ``report.json`` and ``report.html`` (figures beside them).

The report leads with the headline findings (:class:`~proofs_checks.model.Finding`, each with
its claims' verdicts, its reading of the paper and its numbers), then a paper x kind x verdict
summary, the bibliography, one verdict line per claim, the self-tests of the project's own tools
in their own section, and a provenance block that is enough to rerun it.

- :mod:`.records`: one claim's record and its verdict line;
- :mod:`.payload`: the whole report as one JSON object (schema ``report.schema.json``);
- :mod:`.provenance`, :mod:`.bibliography`: where the run and the papers come from;
- :mod:`.markdown`, :mod:`.html`: the two renderings of the payload.
"""

from ..jsonable import to_jsonable  # re-exported: older code imports it from here
from .records import claim_record, verdict_line
from .payload import build_payload, paper_of
from .write import SCHEMA_PATH, write_report

__all__ = ["SCHEMA_PATH", "build_payload", "claim_record", "paper_of", "to_jsonable", "verdict_line",
           "write_report"]
