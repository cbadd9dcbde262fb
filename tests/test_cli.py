"""The command line: exit statuses, arguments, Ctrl-C, closed pipes, output folders, lazy imports."""

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from proofs_checks import __version__, cli
from proofs_checks.cli import main
from proofs_checks.model import Claim, Result, claim_key

from ._fake_registry import fake_registry

REPO = Path(__file__).resolve().parents[1]
MY_COMMANDS = ("list", "verify", "rates", "experiments", "formulas", "findings", "power", "golden", "conform")


@pytest.fixture
def fake(monkeypatch):
    """Replace the default registry by the fake one (swap state["registry"] to change it)."""
    import proofs_checks.registry as registry

    state = {"registry": fake_registry()}
    monkeypatch.setattr(registry, "default_registry", lambda: state["registry"])
    return state


def test_list_json(capsys):
    assert main(["list", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    ids = {c["id"] for c in data["claims"]}
    assert "primitives.exponential.privacy" in ids
    assert {"exponential", "gem", "peeling"} <= {a["id"] for a in data["algorithms"]}


def test_verify_writes_report(tmp_path, capsys):
    assert main(["verify", "--out", str(tmp_path), "--only", "primitives.exponential", "primitives.gem"]) == 0
    captured = capsys.readouterr()
    assert "primitives.gem.privacy" in captured.out and "[1/3]" in captured.err  # plain lines, not a TTY
    report = json.loads((tmp_path / "report.json").read_text())
    for rec in report["claims"]:
        assert {
            "id",
            "source",
            "statement",
            "kind",
            "verdict",
            "evidence",
            "observed",
            "bound",
            "direction",
            "margin",
            "method",
            "reading",
            "seed",
            "power",
        } <= rec.keys()
        assert rec["seed"] == [report["seed"], claim_key(rec["id"])]  # the claim's own stream
    md = (tmp_path / "report.md").read_text()
    assert md.startswith("# Verification report")
    assert md.count("against bound") + md.count("no single number compared") >= len(report["claims"])
    assert (tmp_path / "report.html").exists()


def test_no_timings_runs_diff_clean(tmp_path):
    outs = [tmp_path / "a", tmp_path / "b"]
    for out in outs:
        assert main(["verify", "--no-timings", "--only", "primitives.gem", "--out", str(out)]) == 0
    for name in ("report.json", "report.md", "report.html"):
        a = (outs[0] / name).read_text().replace(str(outs[0]), "OUT")
        b = (outs[1] / name).read_text().replace(str(outs[1]), "OUT")
        assert a == b, name
    report = json.loads((outs[0] / "report.json").read_text())
    assert report["provenance"]["wall_seconds"] is None and "seconds" not in report["claims"][0]


def test_unknown_prefix_exits_2(capsys):
    assert main(["verify", "--only", "no-such-claim"]) == 2
    assert "no-such-claim" in capsys.readouterr().err


def test_only_without_prefix_is_an_error(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["verify", "--only"])
    assert exc.value.code == 2 and "--only" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv",
    [
        ["verify", "--jobs", "0"],
        ["verify", "--seed", "-1"],
        ["rates", "--jobs", "x"],
        ["list", "--kind", "nonsense"],
        ["verify", "--fail-on", "confirmed"],
    ],
)
def test_bad_values_exit_2(argv, capsys):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2 and argv[1] in capsys.readouterr().err


def test_internal_bug_is_not_a_bad_argument(fake, monkeypatch, tmp_path):
    import proofs_checks.registry as registry

    def broken():
        raise ValueError("a bug in the registry")

    monkeypatch.setattr(registry, "default_registry", broken)
    with pytest.raises(ValueError, match="a bug in the registry"):  # a traceback and exit 1, not "error:" and 2
        main(["verify", "--out", str(tmp_path)])


def test_check_that_raises_is_error_and_exit_1(fake, tmp_path, capsys):
    def boom(ctx):
        raise ZeroDivisionError("inside the check")

    fake["registry"] = fake_registry(extra=[Claim("toy.boom", "[000 Lemma 1]", "x", "formula", boom)])
    assert main(["verify", "--out", str(tmp_path)]) == 1
    rec = {r["id"]: r for r in json.loads((tmp_path / "report.json").read_text())["claims"]}["toy.boom"]
    assert rec["verdict"] == "error" and "ZeroDivisionError" in rec["evidence"]["traceback"]
    assert "toy.boom" in capsys.readouterr().err


@pytest.mark.parametrize("fail_on, status", [(None, 0), ("refuted", 1), ("inconclusive", 1)])
def test_fail_on(fake, tmp_path, fail_on, status, capsys):
    argv = ["verify", "--out", str(tmp_path)] + (["--fail-on", fail_on] if fail_on else [])
    assert main(argv) == status
    if fail_on:
        assert "toy.sensitivity" in capsys.readouterr().err


def test_fail_on_inconclusive_catches_inconclusive_only_runs(fake, tmp_path):
    assert main(["verify", "--out", str(tmp_path), "--only", "toy.rate", "--fail-on", "refuted"]) == 0
    assert main(["verify", "--out", str(tmp_path), "--only", "toy.rate", "--fail-on", "inconclusive"]) == 1


def _interrupting_registry():
    """The toy registry with a claim that raises KeyboardInterrupt (a Ctrl-C) and one registered after it."""

    def interrupt(ctx):
        raise KeyboardInterrupt

    return fake_registry(
        extra=[
            Claim("toy.z-interrupt", "[000 Lemma 2]", "x", "formula", interrupt),
            Claim("toy.z-after", "[000 Lemma 3]", "x", "formula", lambda ctx: Result("confirmed")),
        ]
    )


def test_ctrl_c_writes_partial_report_and_exits_130(fake, tmp_path):
    fake["registry"] = _interrupting_registry()
    assert main(["verify", "--out", str(tmp_path), "--jobs", "1"]) == 130
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["interrupted"] is True
    assert report["not_run"] == ["toy.z-interrupt", "toy.z-after"]
    assert "toy.privacy" in {r["id"] for r in report["claims"]}
    assert "Interrupted" in (tmp_path / "report.md").read_text()


def test_ctrl_c_with_workers_keeps_every_claim_once(fake, tmp_path):
    # With workers, a claim started beside the interrupted one may finish before the interrupt
    # arrives: it is then reported, not listed as not run.  Either way no claim is lost or doubled.
    reg = fake["registry"] = _interrupting_registry()
    assert main(["verify", "--out", str(tmp_path), "--jobs", "2"]) == 130
    report = json.loads((tmp_path / "report.json").read_text())
    reported = [r["id"] for r in report["claims"]]
    assert report["interrupted"] is True and "toy.z-interrupt" in report["not_run"]
    assert sorted(reported + report["not_run"]) == sorted(c.id for c in reg.claims)


def test_unusable_out_is_refused_before_any_work(fake, tmp_path, capsys):
    ran = []
    fake["registry"] = fake_registry(
        extra=[Claim("toy.spy", "[000 Lemma 1]", "x", "formula", lambda ctx: ran.append(1) or Result("confirmed"))]
    )
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("x")
    assert main(["verify", "--out", str(not_a_folder)]) == 2
    assert "--out" in capsys.readouterr().err and ran == []
    assert main(["verify", "--out", str(not_a_folder / "sub")]) == 2
    assert ran == []


def test_stale_figures_are_removed(fake, tmp_path):
    stale = tmp_path / "figures" / "old.png"
    stale.parent.mkdir()
    stale.write_bytes(b"old")
    mine = tmp_path / "notes.txt"  # not listed by the old report: kept
    mine.write_text("keep")
    (tmp_path / "report.json").write_text(json.dumps({"claims": [{"figures": ["figures/old.png", "../escape.png"]}]}))
    assert main(["verify", "--out", str(tmp_path)]) == 0
    assert not stale.exists() and mine.exists()
    assert (tmp_path / "figures" / "toy.png").exists()  # this run's figure


def test_rates_json_writes_no_figures(fake, tmp_path, monkeypatch, capsys):
    seen = []

    def rate_check(ctx):
        seen.append(ctx.out_dir)
        return Result(
            "confirmed",
            observed=1.0,
            bound=1.0,
            direction="equal",
            evidence={
                "stated_exponent": 1.0,
                "observed_exponent": 1.0,
                "ci_low": 0.9,
                "ci_high": 1.1,
                "rate_verdict": "consistent",
            },
        )

    fake["registry"] = fake_registry(extra=[Claim("toy.rate2", "[000 Thm. 1]", "rate", "rate", rate_check)])
    monkeypatch.chdir(tmp_path)
    assert main(["rates", "--json"]) == 0
    assert seen[-1] is None and not (tmp_path / "rates-report").exists()
    assert json.loads(capsys.readouterr().out)[-1]["claim"] == "toy.rate2"
    assert main(["rates", "--json", "--out", "figs"]) == 0
    assert seen[-1] == Path("figs")


def test_rates_unknown_algorithm_exits_2(fake, capsys):
    assert main(["rates", "--algorithm", "nope", "--json"]) == 2
    assert "nope" in capsys.readouterr().err


def test_version(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0 and capsys.readouterr().out.strip().endswith(__version__)


def test_every_option_has_help_and_every_command_examples():
    parser = cli.build_parser()
    # private: _actions: argparse has no public list of a parser's arguments
    sub = next(a for a in parser._actions if a.choices and isinstance(a.choices, dict))
    assert set(MY_COMMANDS) <= set(sub.choices)
    for name, p in sub.choices.items():
        for action in p._actions:
            assert action.help, f"{name} {action.option_strings or action.dest} has no help"
        if name in MY_COMMANDS:
            assert "examples:" in (p.epilog or ""), name
    assert "examples:" in parser.epilog


def test_closed_pipe_is_silent():
    proc = subprocess.Popen(
        [sys.executable, "-m", "proofs_checks", "list"], cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) in (0, 141)
    assert err == "", err


@pytest.mark.parametrize("argv", [["--help"]] + [[name, "--help"] for name in MY_COMMANDS])
def test_help_imports_no_heavy_library(argv):
    """--help answers at once: it imports no numerical library (measured by sys.modules, not wall time)."""
    code = (
        "import runpy, sys\n"
        f"sys.argv = ['proofs_checks'] + {argv!r}\n"
        "try:\n    runpy.run_module('proofs_checks', run_name='__main__')\n"
        "except SystemExit as exc:\n    assert exc.code == 0, exc.code\n"
        "heavy = [m for m in ('numpy', 'scipy', 'statsmodels', 'matplotlib', 'joblib', 'mpmath', 'jinja2')"
        " if m in sys.modules]\n"
        "print('HEAVY', heavy, file=sys.stderr)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert "HEAVY []" in out.stderr, out.stderr


def test_progress_bar_only_on_a_terminal(fake):
    from proofs_checks.model import CheckContext
    from proofs_checks.runner import run_claims

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    claims = fake["registry"].claims
    tty, log = Terminal(), io.StringIO()
    run_claims(claims, CheckContext(), progress=tty)
    run_claims(claims, CheckContext(), progress=log)
    assert "4/4" in tty.getvalue() and "claim" in tty.getvalue() and "[1/4]" not in tty.getvalue()
    assert "\r" not in log.getvalue() and log.getvalue().count("\n") == 4


def test_module_entry_point():
    out = subprocess.run(
        [sys.executable, "-m", "proofs_checks", "list"], capture_output=True, text=True, check=True, cwd=REPO
    )
    assert "Claims" in out.stdout
