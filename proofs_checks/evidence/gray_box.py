"""Evidence record of the gray-box claims: a replay audit of an algorithm on a searched neighbouring pair."""

from __future__ import annotations

from .common import COMMON_FIELDS, DELTA, EPSILON
from .record import EvidenceRecord, Field
from .types import INTEGER, OBJECT, REAL, STRING, ListOf, MapOf, optional

__all__ = ["GRAY_BOX"]

GRAY_BOX = EvidenceRecord(
    "gray_box",
    "a gray-box audit at realistic parameters: the algorithm recorded on D and replayed on a searched neighbour "
    "D' with the same randomness; each check's verdict, the calibration of every call at the proof's sensitivity "
    "and the proof's own composition of its per-call budgets",
    "claim_sets._gray_box.gray_box_check (the gray-box claims of 000 and 004)",
    COMMON_FIELDS
    + (
        EPSILON,
        DELTA,
        Field("relation", STRING, "the neighbouring relation of the search: replace-one or add-remove", required=True),
        Field("checks", MapOf(OBJECT), "each check of the audit: verdict, covers, summary, witness", required=True),
        Field("refuted_by", ListOf(STRING), "the checks that refute, each with what it covers", required=True),
        Field("calls", INTEGER, "primitive calls of one recorded run"),
        Field("paths", INTEGER, "paths per direction of the audit"),
        Field("search", optional(OBJECT), "the neighbour search: replays spent, best ratio and the call"),
        Field("proof_accounting", OBJECT, "the proof's composition of its per-call budgets against the claim"),
        Field("parameters", OBJECT, "the instance: n, dimension, the paper's schedule and the relation's pair"),
        Field("extra_checks", MapOf(OBJECT), "checks made by the claim beside the audit's (verdict and numbers)"),
        Field("seconds_audit", REAL, "wall time of the search and the audit"),
    ),
)
