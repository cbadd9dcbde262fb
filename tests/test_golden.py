"""Golden vectors: they regenerate byte for byte (except the provenance's volatile fields), carry their
provenance, follow the documented schema, stay small, and the reference itself passes them."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from proofs_checks.conform.deterministic import GOLDEN_DIR, run_deterministic
from proofs_checks.golden.encoding import VOLATILE_PROVENANCE, decode, encode, load
from proofs_checks.golden.generate import write_all

FAST = ["wang_xu", "hu", "mechanisms"]


def _strip(path):
    doc = json.loads(Path(path).read_text())
    for k in VOLATILE_PROVENANCE:
        doc["provenance"].pop(k, None)
    return doc


def _same_bytes_but_provenance(a, b):
    ta, tb = Path(a).read_text(), Path(b).read_text()
    if ta == tb:
        return True
    return _strip(a) == _strip(b) and ta.split('"cases"', 1)[1] == tb.split('"cases"', 1)[1]


def test_fast_subjects_regenerate_identically(tmp_path):
    write_all(tmp_path, only=FAST)
    for name in FAST:
        assert _same_bytes_but_provenance(tmp_path / f"{name}.json", GOLDEN_DIR / f"{name}.json"), name
    assert (tmp_path / "schema.json").read_bytes() == (GOLDEN_DIR / "schema.json").read_bytes()


@pytest.mark.slow
def test_all_subjects_regenerate_identically(tmp_path):
    write_all(tmp_path)
    for path in GOLDEN_DIR.glob("*.json"):
        assert _same_bytes_but_provenance(tmp_path / path.name, path), path.name


def test_provenance_and_size():
    total = 0
    for path in GOLDEN_DIR.glob("*.json"):
        total += path.stat().st_size
        if path.name == "schema.json":
            continue
        prov = load(path)["provenance"]
        for key in ("project_version", "commit", "python", "numpy", "scipy", "mpmath", "command", "seed",
                    "reference_precision"):
            assert prov.get(key) not in (None, ""), (path.name, key)
    assert total < 5_000_000


def test_schema_validates_when_jsonschema_is_available():
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((GOLDEN_DIR / "schema.json").read_text())
    for path in GOLDEN_DIR.glob("*.json"):
        if path.name != "schema.json":
            jsonschema.validate(json.loads(path.read_text()), schema)


def test_encoding_round_trips_exact_bits():
    x = np.array([5e-324, -0.0, 1e-300, 0.1, 1.7976931348623157e308, np.inf, -np.inf, np.nextafter(1.0, 2.0)])
    back = decode(json.loads(json.dumps(encode(x))))
    assert back.tobytes() == x.tobytes()
    assert np.isnan(decode(encode(float("nan"))))


def test_reference_passes_its_golden_vectors():
    import proofs_checks.conform.reference_port as ref

    recs = run_deterministic(ref)
    assert recs and all(r["status"] == "passed" for r in recs), [r.get("message") for r in recs
                                                                  if r["status"] != "passed"]


def test_mp_reference_agrees_with_golden_expected_phi():
    for case in load(GOLDEN_DIR / "catoni.json")["cases"]:
        if case["function"] == "expected_phi":
            exp = decode(case["expected"])
            mp = np.array([float(s) for s in case["mp_reference"]["mp"]])
            assert np.max(np.abs(exp - mp)) < 1e-15
