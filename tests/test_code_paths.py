"""The code paths of the reproducibility contract (docs/reproducibility.md): the baseline environment switches every
one of them, the stated error of an elementary function holds for each implementation this machine runs, two
reports are compared claim by claim, and ``verify --profile quick`` gives the same verdicts on both paths."""

from __future__ import annotations

import json
import math
import os
import platform
import subprocess
import sys
from pathlib import Path

import mpmath
import numpy as np
import pytest

from proofs_checks import code_paths as CP
from reference.floating import FUNCTION_ULPS, ulp, ulp_distance

ROOT = Path(__file__).resolve().parents[1]
X86_GLIBC = platform.machine().lower() in ("x86_64", "amd64") and platform.libc_ver()[0] == "glibc"


def _describe_in(env):
    code = "import json; from proofs_checks.code_paths import describe; print(json.dumps(describe()))"
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=dict(os.environ, **env),
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return json.loads(out.stdout)


def test_baseline_environment_switches_every_path():
    env = CP.baseline_environment()
    info = _describe_in(env)
    assert info["numpy_simd"]["in_use"] == []
    assert info["numba"]["target"] == "generic"
    if X86_GLIBC:
        assert info["libm"]["fma_variants"] is False
        assert {b["architecture"].lower() for b in info["blas"]} == {env["OPENBLAS_CORETYPE"].lower()}
    # the same environment asked for from inside the baseline path keeps the forced BLAS kernels
    assert CP.baseline_environment(dict(os.environ, **env)).get("OPENBLAS_CORETYPE") == env.get("OPENBLAS_CORETYPE")


def test_glibc_tunables_are_extended_not_replaced():
    if not X86_GLIBC:
        pytest.skip("GLIBC_TUNABLES is set on x86-64 glibc only")
    env = CP.baseline_environment({"GLIBC_TUNABLES": "glibc.malloc.check=3:glibc.cpu.hwcaps=-AVX512F"})
    assert env["GLIBC_TUNABLES"] == f"glibc.malloc.check=3:glibc.cpu.hwcaps=-AVX512F,{CP.BASELINE_GLIBC_HWCAPS}"
    assert CP.baseline_environment({})["GLIBC_TUNABLES"] == f"glibc.cpu.hwcaps={CP.BASELINE_GLIBC_HWCAPS}"


def test_shell_exports_quote_values():
    text = CP.shell_exports({"B": "x y", "A": "it's"})
    assert text.splitlines() == ["export A='it'\"'\"'s'", "export B='x y'"]
    out = subprocess.run(["sh", "-c", f"{text}; printf '%s|%s' \"$A\" \"$B\""], capture_output=True, text=True)
    assert out.stdout == "it's|x y"


# ---- the stated error of one elementary-function evaluation ---------------------------------------------------


def _mp_ulps(values, xs, mp_fn):
    """Errors of ``values`` in ulps of the exact results (mpmath, 40 digits)."""
    with mpmath.workdps(40):
        exact = [mp_fn(mpmath.mpf(float(x))) for x in xs]
    return np.array(
        [
            float(
                abs(mpmath.mpf(float(v)) - e) / mpmath.mpf(float(ulp(float(e))))
                if e != 0
                else (0.0 if v == 0 else math.inf)
            )
            for v, e in zip(values, exact)
        ]
    )


_FUNCTIONS = {
    "exp": (np.exp, math.exp, mpmath.exp, (-700.0, 700.0)),
    "log": (np.log, math.log, mpmath.log, (1e-300, 1e300)),
    "log1p": (np.log1p, math.log1p, mpmath.log1p, (-0.9, 1e3)),
    "expm1": (np.expm1, math.expm1, mpmath.expm1, (-40.0, 40.0)),
    "pow": (lambda x: np.power(x, 1.37), lambda x: math.pow(x, 1.37), lambda x: x ** mpmath.mpf(1.37), (1e-300, 1e3)),
}


@pytest.mark.parametrize("name", sorted(_FUNCTIONS))
def test_function_ulps_bounds_both_implementations(name):
    # FUNCTION_ULPS is a stated bound: numpy's loop (SIMD on AVX-512 machines) and the C library (math, numba)
    # are each within it of the exact value (mpmath, 40 digits), here on 3,000 points per function spread over
    # the range (log-spaced where the range spans decades) and the ulp-by-ulp neighbourhood of 1
    np_fn, m_fn, mp_fn, (lo, hi) = _FUNCTIONS[name]
    rng = np.random.default_rng(sum(map(ord, name)))
    if lo > 0:
        xs = np.exp(rng.uniform(math.log(lo), math.log(hi), 2_900))
    else:
        xs = rng.uniform(lo, hi, 2_900)
    xs = np.concatenate([xs, 1.0 + np.arange(-50, 50) * 2.0**-52])
    numpy_err = _mp_ulps(np_fn(xs), xs, mp_fn)
    libm_err = _mp_ulps(np.array([m_fn(float(x)) for x in xs]), xs, mp_fn)
    assert numpy_err.max() <= FUNCTION_ULPS and libm_err.max() <= FUNCTION_ULPS, (numpy_err.max(), libm_err.max())
    # the two implementations differ by at most twice the stated bound (measured: at most 1 ulp)
    assert ulp_distance(np_fn(xs), np.array([m_fn(float(x)) for x in xs])).max() <= 2 * FUNCTION_ULPS


# ---- comparing two reports -------------------------------------------------------------------------------------


def _report(*claims):
    return {"claims": [dict(id=i, verdict=v, observed=o, bound=1.0, margin=1.0 - o) for i, v, o in claims]}


def test_compare_reports_finds_verdict_changes_missing_claims_and_moved_values():
    a = _report(("x", "confirmed", 0.5), ("y", "refuted", 2.0), ("z", "confirmed", 0.1))
    b = _report(("x", "confirmed", 0.5 + 2**-53), ("y", "confirmed", 0.9), ("w", "confirmed", 0.1))
    r = CP.compare_reports(a, b)
    assert not r["same_verdicts"]
    assert r["verdict_changes"] == [["y", "refuted", "confirmed"]]
    assert r["only_in_first"] == ["z"] and r["only_in_second"] == ["w"] and r["claims"] == 2
    assert {tuple(row[:2]) for row in r["moved"][:2]} == {("y", "observed"), ("y", "margin")}
    assert [row[4] for row in r["moved"]] == sorted((row[4] for row in r["moved"]), reverse=True)
    assert ["x", "observed", 0.5, 0.5 + 2**-53, pytest.approx(2**-53 / (0.5 + 2**-53))] in r["moved"]
    same = CP.compare_reports(a, a)
    assert same["same_verdicts"] and same["moved"] == []


def test_cli_compare_exit_status_and_json(tmp_path):
    a, b = tmp_path / "a.json", tmp_path / "b"
    a.write_text(json.dumps(_report(("x", "confirmed", 0.5))))
    b.mkdir()
    (b / "report.json").write_text(json.dumps(_report(("x", "refuted", 0.5))))
    run = [sys.executable, "-m", "proofs_checks", "code-paths"]
    same = subprocess.run(run + ["--compare", str(a), str(a)], cwd=ROOT, capture_output=True, text=True)
    assert same.returncode == 0 and "verdicts that differ: 0" in same.stdout
    differ = subprocess.run(run + ["--compare", str(a), str(b), "--json"], cwd=ROOT, capture_output=True, text=True)
    assert differ.returncode == 1 and json.loads(differ.stdout)["verdict_changes"] == [["x", "confirmed", "refuted"]]
    bad = subprocess.run(
        run + ["--compare", str(tmp_path / "missing.json"), str(a)], cwd=ROOT, capture_output=True, text=True
    )
    assert bad.returncode == 2 and "--compare" in bad.stderr
    shown = subprocess.run(run + ["--json"], cwd=ROOT, capture_output=True, text=True)
    assert shown.returncode == 0 and set(json.loads(shown.stdout)) == {"machine", "numpy_simd", "blas", "numba", "libm"}


# ---- verify on both code paths (about 2 minutes: `.ci/run` runs it with `pytest -m code_paths`) ----------------


@pytest.mark.code_paths
def test_verify_quick_gives_the_same_verdicts_on_the_native_and_the_baseline_path(tmp_path, capsys):
    reports = {}
    for name, extra in (("native", {}), ("baseline", CP.baseline_environment())):
        out = tmp_path / name
        env = dict(os.environ, **extra)
        proc = subprocess.run(
            [sys.executable, "-m", "proofs_checks", "verify", "--profile", "quick", "--no-timings", "--out", str(out)],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=1800,
        )
        assert proc.returncode == 0, proc.stderr[-3000:]
        reports[name] = json.loads((out / "report.json").read_text())
    result = CP.compare_reports(reports["native"], reports["baseline"])
    with capsys.disabled():
        sys.stderr.write(
            f"\nverify --profile quick, native against baseline path: {result['claims']} claims, "
            f"{len(result['verdict_changes'])} verdicts differ, {len(result['moved'])} values moved\n"
        )
        for cid, field, a, b, rel in result["moved"]:
            sys.stderr.write(f"  {cid}.{field}: {a!r} -> {b!r} (relative {rel:.3g})\n")
    assert result["claims"] > 100
    assert result["same_verdicts"], result["verdict_changes"]
    # the numbers the README and docs quote are this run's, on both code paths (not typed by hand)
    from proofs_checks.report import quoted_numbers as Q

    for name, report in reports.items():
        problems = Q.check_quotes(Q.find_quotes(), report=report)
        assert not problems, f"{name} path:\n" + "\n".join(map(str, problems))
