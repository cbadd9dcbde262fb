"""The kit's machinery: skips, the results-file mode, the CLI exit status, JSON, and the stated power."""

from __future__ import annotations

import json
import types

import numpy as np

from proofs_checks.cli import main
from proofs_checks.conform import samplers as S
from proofs_checks.conform.deterministic import load_cases
from proofs_checks.conform.kit import exit_status, run_kit
from proofs_checks.golden.encoding import SCHEMA_ID, encode


def test_empty_port_fails_every_undeclared_function():
    recs = run_kit(types.ModuleType("empty"), size="small")
    assert recs and {r["status"] for r in recs} == {"failed"}
    assert all("not declared unsupported" in r["message"] for r in recs)
    assert exit_status(recs) == 1
    assert recs.exit_status() == 1
    first = recs.summary().splitlines()[0]
    assert first.startswith("conformance: fails (") and first.endswith(f"; {len(recs)} checks)")


def test_results_file_mode(tmp_path, capsys):
    import examples.numpy_port as port

    results = []
    for case in load_cases():
        fn = getattr(port, case["function"], None)
        if fn is not None:
            out = fn(*case["args_decoded"], **case["kwargs_decoded"])
            if case["function"] == "c_hat":
                out = np.asarray(out) * (1 + 1e-6)  # a wrong C-hat written by "another language"
            results.append({"id": case["id"], "output": encode(out)})
    path = tmp_path / "results.json"
    path.write_text(json.dumps({"schema": SCHEMA_ID, "results": results, "unsupported": sorted(port.UNSUPPORTED)}))
    rc = main(["conform", "--results", str(path), "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert rc == 1
    assert doc["functions"]["c_hat"]["status"] == "failed"
    assert doc["functions"]["expected_phi"]["status"] == "passed"
    assert doc["functions"]["dp_fw_output_log_prob"]["status"] == "skipped"


def test_cli_exit_zero_for_reference(capsys):
    rc = main(
        [
            "conform",
            "--port",
            "proofs_checks.conform.reference_port",
            "--only",
            "phi",
            "psi",
            "laplace_scale",
            "--no-privacy",
            "--size",
            "small",
        ]
    )
    assert rc == 0
    assert "conforms" in capsys.readouterr().out


def test_stated_power_at_default_size():
    p = S.stated_power()
    assert p["outcome_probability"] > 0.95 and p["laplace_scale"] > 0.999


def test_counts_test_power_by_simulation():
    """Measured: at the default size, one outcome of probability 1e-3 moved 10% is detected >= 90%."""
    rng = np.random.default_rng(7)
    k = 20
    probs = np.full(k, (1 - 1e-3) / (k - 1))
    probs[0] = 1e-3
    slipped = probs.copy()
    slipped[0] *= 1.1
    slipped[1:] *= (1 - slipped[0]) / slipped[1:].sum()
    n = S.SIZES["default"]["finite"]
    detected = sum(not S.counts_test(rng.multinomial(n, slipped), probs)[0] for _ in range(200))
    false_alarms = sum(not S.counts_test(rng.multinomial(n, probs), probs)[0] for _ in range(200))
    assert detected / 200 >= 0.9
    assert false_alarms <= 2


def test_laplace_scale_test_power_by_simulation():
    rng = np.random.default_rng(8)
    n = S.SIZES["default"]["laplace"]
    detected = sum(not S.laplace_noise_test(rng.laplace(0, 0.9, n), 1.0)[0] for _ in range(50))
    assert detected == 50
