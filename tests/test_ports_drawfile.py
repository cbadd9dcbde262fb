"""The draw-file protocol: a port in any language writes draws; the kit tests them like a Python port's."""

from __future__ import annotations

import json

import numpy as np

import examples.numpy_port as good
from proofs_checks.cli import main
from proofs_checks.conform.coverage import coverage_summary
from proofs_checks.conform.drawfile import DRAWS_SCHEMA, instances_document
from proofs_checks.conform.kit import exit_status, run_draw_file
from proofs_checks.golden.encoding import decode, encode

_MECHANISMS = ["laplace_mechanism", "report_noisy_max", "exponential_sample", "gem_sample", "peeling"]
# a tenth of --size small keeps the files small; the slips below are still caught with room to spare
_SIZE = {"finite": 20_000, "laplace": 3_000, "algorithm": 2_000, "continuous": 500}


def _instances(tmp_path, capsys):
    return instances_document(_SIZE)


def _write_draws(tmp_path, instances, port=good, *, short=None, omit=(), declare=True):
    """What a foreign port does: read each instance, draw from a seeded generator of its own, write the draws."""
    gen = np.random.default_rng(2026)
    draws = []
    for inst in instances["instances"]:
        name = inst["function"]
        if name not in _MECHANISMS or name in omit:
            continue
        n = inst["draws"] if name != short else inst["draws"] // 2
        out = getattr(port, name)(**decode(inst["kwargs"]), size=n, rng=gen)
        draws.append({"function": name, "output": encode(list(out) if isinstance(out, tuple) else out)})
    unsupported = [i["function"] for i in instances["instances"] if i["function"] not in _MECHANISMS]
    doc = {"schema": DRAWS_SCHEMA, "draws": draws, **({"unsupported": unsupported} if declare else {})}
    path = tmp_path / "draws.json"
    path.write_text(json.dumps(doc))
    return path


def test_instances_list_every_sampler_with_its_draws(tmp_path, capsys):
    path = tmp_path / "instances.json"
    assert main(["conform", "--draw-instances", str(path), "--size", "small"]) == 0
    doc = json.loads(path.read_text())
    names = [i["function"] for i in doc["instances"]]
    assert set(_MECHANISMS) <= set(names) and {"dp_fw", "sparse_optimization"} <= set(names)
    assert {i["function"]: i["draws"] for i in doc["instances"]}["report_noisy_max"] == 200_000


def test_draws_of_a_correct_port_conform(tmp_path, capsys):
    path = _write_draws(tmp_path, _instances(tmp_path, capsys))
    records = run_draw_file(path, size=_SIZE)
    assert exit_status(records) == 0, [r.get("message") for r in records if r["status"] == "failed"]
    assert coverage_summary(records)["checked"] == sorted(_MECHANISMS)


def test_draws_with_a_slipped_laplace_scale_fail_naming_it(tmp_path, capsys):
    slipped = type(good)("slipped")
    slipped.__dict__.update(vars(good))
    slipped.laplace_mechanism = lambda value, sensitivity, epsilon, size=None, rng=None: good.laplace_mechanism(
        value, 0.9 * sensitivity, epsilon, size, rng
    )
    path = _write_draws(tmp_path, _instances(tmp_path, capsys), slipped)
    records = run_draw_file(path, size=_SIZE)
    failed = [r for r in records if r["status"] == "failed"]
    assert [r["function"] for r in failed] == ["laplace_mechanism"] and "noise scale" in failed[0]["message"]
    assert exit_status(records) == 1


def test_too_few_draws_and_undeclared_missing_samplers_fail(tmp_path, capsys):
    instances = _instances(tmp_path, capsys)
    path = _write_draws(tmp_path, instances, short="gem_sample", omit=("peeling",), declare=False)
    by_name = {r["function"]: r for r in run_draw_file(path, size=_SIZE)}
    assert "the draw file holds 10000 draws" in by_name["gem_sample"]["message"]
    assert by_name["peeling"]["status"] == "failed" and "no draws in the file" in by_name["peeling"]["message"]
    assert by_name["dp_fw"]["status"] == "failed"
    assert by_name["report_noisy_max"]["status"] == "passed"


def test_a_malformed_draw_file_is_a_usage_error(tmp_path, capsys):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"schema": DRAWS_SCHEMA, "draws": [{"function": "expectedphi", "output": 1}]}))
    assert main(["conform", "--draws", str(path)]) == 2
    assert "not a declared sampler" in capsys.readouterr().err
