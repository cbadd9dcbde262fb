"""Typed evidence: every evidence key is declared with a type and a meaning, the report schema is generated
from the declarations, a wrong key or type is rejected by name, and the claims' evidence follows its record."""

import json

import jsonschema
import pytest

from proofs_checks.audit.api import AuditResult
from proofs_checks.builders import PrivacyTally, compare_result, coverage_check, max_search_check, with_power_note
from proofs_checks.evidence import (
    COMMON_FIELDS,
    ERROR,
    EVIDENCE_KINDS,
    RECORD_OF_CLAIM,
    RECORD_OF_CLAIM_KIND,
    RECORDS,
    EvidenceError,
    check_evidence,
    evidence_kind_of,
    record,
)
from proofs_checks.model import KINDS, CheckContext, Claim, Result
from proofs_checks.registry import default_registry
from proofs_checks.report import SCHEMA_PATH, claim_record
from proofs_checks.report.schema import render_schema, with_generated_parts
from proofs_checks.runner import run_claim

from ._evidence_keys import evidence_keys
from ._import_graph import project_graph

VALIDATOR = jsonschema.Draft202012Validator


@pytest.fixture(scope="module")
def schema():
    return json.loads(SCHEMA_PATH.read_text())


@pytest.fixture(scope="module")
def registry():
    return default_registry()


def _claim(kind="sensitivity", check=None, cid="toy.claim", **kw):
    return Claim(cid, "[000 Thm. 1]", "a toy statement", kind, check or (lambda ctx: Result("confirmed")), **kw)


def _claim_schema(schema):
    """The report schema's claim record as a schema of its own (its $defs kept for the references)."""
    return {**schema["$defs"]["claim"], "$defs": schema["$defs"]}


# --- the declarations ---------------------------------------------------------------------------------------


def test_every_record_and_field_says_what_it_is():
    assert set(EVIDENCE_KINDS) == set(RECORDS) and len(RECORDS) >= 9
    common = {f.name for f in COMMON_FIELDS}
    assert {"seeds", "seed_policy", "power", "worst_at", "observed_is"} <= common
    for kind, rec in RECORDS.items():
        assert rec.kind == kind and rec.shape and rec.made_by and rec.closed
        names = [f.name for f in rec.fields]
        assert common <= set(names), kind  # the common keys, declared once, in every record
        assert len(names) == len(set(names)), kind
        for f in rec.fields:
            assert f.meaning.strip() and "\n" not in f.meaning and str(f.type), (kind, f.name)


def test_every_claim_kind_and_listed_claim_has_a_record(registry):
    assert set(RECORD_OF_CLAIM_KIND) == set(KINDS)
    assert set(RECORD_OF_CLAIM_KIND.values()) <= set(RECORDS)
    ids = {c.id for c in registry.claims}
    assert set(RECORD_OF_CLAIM) <= ids and set(RECORD_OF_CLAIM.values()) <= set(RECORDS)


def test_the_declarations_import_only_the_claim_model():
    graph = project_graph()
    for module, imports in graph.items():
        if module == "proofs_checks.evidence" or module.startswith("proofs_checks.evidence."):
            outside = {m for m in imports if not m.startswith("proofs_checks.evidence")}
            assert outside <= {"proofs_checks.model"}, (module, outside)


def test_every_key_the_source_writes_is_declared():
    """The full profile's keys too: every branch of the source, whatever profile or outcome reaches it."""
    written = evidence_keys()
    declared = {f.name for rec in RECORDS.values() for f in rec.fields}
    missing = {k: sites for k, sites in written.items() if k not in declared}
    assert not missing, missing
    assert {"neighbour_pairs", "evaluations", "covered", "stated_exponent", "seeds", "exception"} <= set(written)


def test_the_audit_records_declare_the_auditors_result():
    audit_schema = json.loads((SCHEMA_PATH.parents[1] / "audit" / "audit.schema.json").read_text())
    for kind in ("exact_audit", "statistical_audit"):
        fields = record(kind).by_name
        assert set(audit_schema["properties"]) <= set(fields), kind
        common = {f.name for f in COMMON_FIELDS}  # "variant" is common to every record, never required
        assert {f.name for f in fields.values() if f.required} == set(audit_schema["required"]) - common, kind
    sample = AuditResult(
        "laplace",
        "standard",
        1.0,
        0.0,
        "statistical",
        0.4,
        0.95,
        100,
        "D vs D'",
        "not refuted",
        7,
        0.1,
        p_value=0.3,
        details={"statistic": "x"},
    ).as_dict()
    check_evidence("statistical_audit", sample, claim_id="audit.laplace.standard")


# --- the schema ---------------------------------------------------------------------------------------------


def test_shipped_schema_is_the_generated_one(schema):
    VALIDATOR.check_schema(schema)
    assert with_generated_parts(schema) == schema, "run: python -m proofs_checks.report.schema"
    assert SCHEMA_PATH.read_text() == render_schema(schema), "run: python -m proofs_checks.report.schema"
    claim = schema["$defs"]["claim"]
    assert claim["properties"]["evidence_kind"]["enum"] == list(EVIDENCE_KINDS)
    for kind in EVIDENCE_KINDS:
        assert schema["$defs"][f"evidence_{kind}"]["additionalProperties"] is False


@pytest.mark.parametrize(
    "evidence, words",
    [
        ({"evaluations": 3, "worst_at": {"n": 2}}, None),
        ({"evaluation": 3}, "evaluation"),  # a typo'd key
        ({"evaluations": "3"}, "'3' is not of type 'integer'"),  # a wrong type
        ({"seeds": [{"seed": 1, "verdict": "maybe", "observed": 0.1}]}, "maybe"),
    ],
)
def test_schema_types_every_evidence_key(schema, evidence, words):
    rec = claim_record(_claim(), Result("confirmed", evidence={"evaluations": 1}, evidence_kind="bound_search"))
    rec = {**rec, "paper": "000", "evidence": evidence}
    errors = list(VALIDATOR(_claim_schema(schema)).iter_errors(rec))
    if words is None:
        assert errors == []
    else:
        assert errors and any(
            words in e.message
            or words in json.dumps(list(e.path))
            or any(words in c.message for c in (e.context or []))
            for e in errors
        ), errors


# --- rejection with a message that names it ----------------------------------------------------------------


def test_an_undeclared_key_is_rejected_by_name():
    with pytest.raises(EvidenceError) as exc:
        check_evidence("rate_fit", {"stated_exponent": 0.5, "ci_hgih": 0.7}, claim_id="rates.toy")
    text = str(exc.value)
    assert text.startswith("claim rates.toy: ") and "'ci_hgih'" in text and "'rate_fit'" in text
    assert "did you mean 'ci_high'?" in text


def test_a_wrong_type_is_rejected_naming_key_and_type():
    with pytest.raises(EvidenceError) as exc:
        check_evidence("coverage", {"covered": 9.5, "simulations": 10}, claim_id="toy.cover")
    assert "claim toy.cover: evidence['covered'] must be integer" in str(exc.value)
    assert "got number 9.5" in str(exc.value)
    with pytest.raises(EvidenceError, match=r"evidence\['seeds'\]\[1\]\['verdict'\] must be one of 'confirmed'"):
        check_evidence(
            "formula",
            {
                "seeds": [
                    {"seed": 1, "verdict": "refuted", "observed": 1.0},
                    {"seed": 2, "verdict": "yes", "observed": 1.0},
                ]
            },
        )
    with pytest.raises(EvidenceError, match="required by the record 'error'"):
        check_evidence("error", {"traceback": "..."})
    with pytest.raises(ValueError, match="evidence_kind must be one of"):
        check_evidence("bound_serach", {})


def test_non_finite_floats_are_numbers_in_their_json_form():
    check_evidence("bound_search", {"analytic_ratio": "inf", "looseness_factor": None, "at_u": "nan"})
    with pytest.raises(EvidenceError, match="must be number"):
        check_evidence("bound_search", {"analytic_ratio": "infinite"})


def test_result_names_its_record_as_a_string():
    with pytest.raises(TypeError, match="evidence_kind"):
        Result("confirmed", evidence_kind=3)
    assert Result("confirmed").evidence_kind is None


def test_the_report_turns_broken_evidence_into_an_error(schema):
    bad = Result(
        "confirmed",
        observed=1.0,
        bound=2.0,
        direction="at_most",
        evidence={"evaluations": 4, "evaluation": 5},
        evidence_kind="bound_search",
    )
    rec = claim_record(_claim(cid="toy.broken"), bad)
    assert rec["verdict"] == "error" and rec["evidence_kind"] == "error"
    assert "claim toy.broken" in rec["evidence"]["exception"] and "'evaluation'" in rec["evidence"]["exception"]
    assert rec["evidence"]["invalid_evidence"] == {"evaluations": 4, "evaluation": 5}
    assert rec["evidence"]["invalid_evidence_kind"] == "bound_search"
    VALIDATOR(_claim_schema(schema)).validate({**rec, "paper": "000"})
    unknown = claim_record(_claim(), Result("confirmed", evidence_kind="no_such_record"))
    assert unknown["verdict"] == "error" and "no_such_record" in unknown["evidence"]["exception"]


def test_valid_evidence_is_written_unchanged_beside_its_record():
    ev = {"evaluations": 4, "worst_at": {"x": [1.0, float("inf")]}, "power": "misses nothing"}
    rec = claim_record(_claim(), Result("refuted", observed=2.0, bound=1.0, direction="at_most", evidence=ev))
    assert rec["verdict"] == "refuted" and rec["evidence_kind"] == "bound_search"
    assert rec["evidence"] == {"evaluations": 4, "worst_at": {"x": [1.0, "inf"]}, "power": "misses nothing"}
    assert list(rec).index("evidence_kind") == list(rec).index("evidence") - 1


# --- which record a result follows --------------------------------------------------------------------------


def test_the_builders_name_their_records():
    ctx = CheckContext(claim_id="toy")
    tally = PrivacyTally()
    tally.add([0.0, -1.0], [0.0, -1.0], 1.0)
    assert tally.result(method="m", reading="r").evidence_kind == "exact_privacy"
    search = max_search_check(lambda c: (0.5, {"x": 1}, 3), 1.0, method="m", reading="r")
    assert search(ctx).evidence_kind == "bound_search"
    assert with_power_note(search, "misses x2")(ctx).evidence_kind == "bound_search"
    assert coverage_check(lambda c: [True] * 20, 0.9, method="m", reading="r")(ctx).evidence_kind == "coverage"
    assert compare_result(1.0, 1.0, "equal", method="m").evidence_kind is None
    assert compare_result(1.0, 1.0, "equal", method="m", evidence_kind="formula").evidence_kind == "formula"
    for res, kind in ((tally.result(method="m", reading="r"), "exact_privacy"), (search(ctx), "bound_search")):
        check_evidence(kind, json.loads(json.dumps(res.evidence)))


def test_untagged_results_follow_their_claim():
    assert [evidence_kind_of(_claim(kind), Result("confirmed")) for kind in KINDS] == [
        RECORD_OF_CLAIM_KIND[k] for k in KINDS
    ]
    assert evidence_kind_of(_claim(), Result("error", evidence={"exception": "E: x"})) == "error"
    audit = _claim("privacy", cid="audit.laplace.standard", algorithm="laplace", variant="standard")
    assert evidence_kind_of(audit, Result("inconclusive", evidence={"method": "statistical"})) == "statistical_audit"
    assert evidence_kind_of(audit, Result("confirmed", evidence={"method": "exact"})) == "exact_audit"
    assert evidence_kind_of(audit, Result("inconclusive", evidence={"reason": "x"})) == "audit_not_run"
    calibration = _claim("inequality", cid="audit.calibration.exact")
    assert evidence_kind_of(calibration, Result("confirmed")) == "bound_search"
    excess = _claim("rate", cid="arora.thm1.excess-risk")
    assert evidence_kind_of(excess, Result("confirmed")) == "coverage"


def test_the_runners_error_follows_the_error_record():
    def boom(ctx):
        raise ZeroDivisionError("x")

    rec = claim_record(_claim(check=boom), run_claim(_claim(check=boom), CheckContext()))
    assert rec["verdict"] == "error" and rec["evidence_kind"] == ERROR.kind
    assert "ZeroDivisionError" in rec["evidence"]["traceback"] and "invalid_evidence" not in rec["evidence"]


# --- the registered claims ----------------------------------------------------------------------------------

#: A cheap quick-profile claim of every record, and of every way a result gets its record (a builder, a
#: tag, the claim kind, the audit adapter, the claim id), with the record it must follow.
SAMPLE = {
    "primitives.exponential.privacy": "exact_privacy",  # PrivacyTally.result
    "hu.thm4.privacy.lemma2": "exact_privacy",  # PrivacyTally, no worst pair (worst_at null)
    "primitives.gaussian.classic-calibration": "exact_privacy",  # compare_result, claim kind privacy
    "hu.thm8.privacy.printed": "exact_privacy",  # its own Result, claim kind privacy
    "primitives.gem.utility": "bound_search",  # max_search_check
    "hu.alg3.step6.sensitivity": "bound_search",  # max_search_check with table and looseness
    "wang-xu.psi.eq6.odd": "bound_search",  # compare_result, claim kind inequality
    "proofs.sensitivity.clipped-mean": "bound_search",  # formulas.sensitivity's Result
    "catoni.lemma4": "coverage",  # a tagged Result
    "arora.lemma-e.concentration": "coverage",
    "arora.thm1.excess-risk": "coverage",  # by claim id (RECORD_OF_CLAIM)
    "rates.hu.thm2": "rate_fit",  # make_rate_check
    "wang-xu.alg1.rate.dimension.standard": "rate_fit",  # its own Result, claim kind rate
    "hu.fw.step-size-schedule": "formula",  # compare_result, claim kind formula
    "arora.thm2.noise-level": "formula",  # a tagged Result
    "wang-xu.thm1.eq8.follows": "formula",
    "audit.hu-4.standard": "exact_audit",  # the audit adapter, by the auditor's method
    "audit.laplace.standard": "statistical_audit",
    "audit.hu-5.printed": "audit_not_run",
    "audit.calibration.exact": "calibration",
    "hu.thm8.privacy.gray-box.proof-lambda": "gray_box",  # a tagged Result of the gray-box claims
}


def test_a_sample_of_every_shape_follows_its_record(registry, schema):
    assert set(SAMPLE.values()) == set(EVIDENCE_KINDS) - {"error"}
    validator = VALIDATOR(_claim_schema(schema))
    ctx = CheckContext(profile="quick")
    for cid, kind in SAMPLE.items():
        claim = registry.claim(cid)
        rec = claim_record(claim, run_claim(claim, ctx))
        assert rec["evidence_kind"] == kind and rec["verdict"] != "error", (cid, rec["evidence"])
        validator.validate({**rec, "paper": "000"})


@pytest.mark.slow
def test_every_quick_claim_follows_its_record(tmp_path, schema):
    """The whole quick profile through ``verify``: every claim's evidence validates against the generated schema."""
    from proofs_checks.cli import main

    assert main(["verify", "--profile", "quick", "--no-timings", "--out", str(tmp_path)]) == 0
    report = json.loads((tmp_path / "report.json").read_text())
    VALIDATOR(schema).validate(report)
    assert len(report["claims"]) == len(default_registry().claims)
    assert not [c["id"] for c in report["claims"] if c["evidence_kind"] == "error"]
