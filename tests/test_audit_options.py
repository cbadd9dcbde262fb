"""AuditOptions: one source for the settings of audit() and of the `audit` command line (defaults, allowed values,
help), replay of counterexample files, unknown keywords, the attack registry, the package's public names."""

import argparse
import dataclasses
import inspect
import json
import re
import subprocess
import sys

import numpy as np
import pytest

import proofs_checks.audit as audit_pkg
from proofs_checks.audit import AuditOptions, audit, register_attack, unregister_attack
from proofs_checks.audit import api as audit_api
from proofs_checks.audit.attacks import registered_attacks
from proofs_checks.audit.calibration import LaplaceCount, RandomizedResponse
from proofs_checks.audit.classifiers import attack_names
from proofs_checks.audit.curves import statistical_curve
from proofs_checks.audit.options import cli_spec, field_docs
from proofs_checks.audit.statistical import statistical_audit
from proofs_checks.cli import main
from proofs_checks.commands import audit as audit_cmd
from proofs_checks.rates.fit import fit_rate
from proofs_checks.verdicts import CONFIDENCE

FIELDS = [f.name for f in dataclasses.fields(AuditOptions)]

#: A value other than the default for every field, and how the command line writes it.  A field added without
#: an entry here fails test_every_field_reaches_the_options_from_its_flag.
CLI_VALUES = {
    "variant": ("standard", ["--variant", "standard"]),
    "epsilon": (0.75, ["--epsilon", "0.75"]),
    "delta": (1e-6, ["--delta", "1e-6"]),
    "samples": (20_000, ["--samples", "20000"]),
    "confidence": (0.9, ["--confidence", "0.9"]),
    "seed": (7, ["--seed", "7"]),
    "jobs": (2, ["--jobs", "2"]),
    "method": ("statistical", ["--method", "statistical"]),
    "statistic": ("estimate", ["--statistic", "estimate"]),
    "attack": ("histogram", ["--attack", "histogram"]),
    "features": (np.abs, ["--features", "numpy:abs"]),
    "fixed_event_scoring": ("cross-fit", ["--fixed-event-scoring", "cross-fit"]),
    "threshold_scoring": ("pessimistic", ["--threshold-scoring", "pessimistic"]),
    "any_pair": (True, ["--any-pair"]),
    "search_budget": (50, ["--search-budget", "50"]),
    "refine_steps": (3, ["--refine-steps", "3"]),
    "sampler_samples": (0, ["--sampler-samples", "0"]),
    "sampler_alpha": (0.01, ["--sampler-alpha", "0.01"]),
    "curve": ((0.0, 0.5), ["--curve-epsilons", "0,0.5"]),
    "name": ("mine", ["--name", "mine"]),
    "progress": (False, ["--no-progress"]),
}

#: A bad value for every field (each must be refused with a message naming the field).
BAD_VALUES = {
    "variant": 3, "epsilon": -1.0, "delta": 1.0, "samples": 50, "confidence": 1.0, "seed": -1, "jobs": 0,
    "method": "fast", "statistic": "exactly", "attack": "tree", "features": "not callable",
    "fixed_event_scoring": "cross_fit", "threshold_scoring": "Pessimistic", "any_pair": "yes", "search_budget": 0,
    "refine_steps": -2, "sampler_samples": -1, "sampler_alpha": 1.5, "curve": [-1.0], "name": 4, "progress": "no",
}


def _parser(monkeypatch=None):
    parser = argparse.ArgumentParser(prog="audit", formatter_class=argparse.RawDescriptionHelpFormatter)
    audit_cmd.add_arguments(parser)
    return parser


def _help(monkeypatch):
    monkeypatch.setenv("COLUMNS", "2000")           # one line per flag
    return _parser().format_help()


def _help_blocks(monkeypatch):
    """``{flag: its help entry on one line}`` of the parser's help."""
    blocks, flag = {}, None
    for line in _help(monkeypatch).splitlines():
        m = re.match(r"  (-[-\w]+)", line)
        if m:
            flag = m.group(1)
            blocks[flag] = line.strip()
        elif flag is not None and line.strip():
            blocks[flag] += " " + line.strip()
        else:
            flag = None
    return blocks


def test_every_field_has_a_flag_a_doc_and_a_check():
    docs = field_docs()
    assert list(docs) == FIELDS                     # the Attributes section lists the fields, in their order
    assert all(docs[name][1] for name in FIELDS), [n for n in FIELDS if not docs[n][1]]
    specs = {s["name"]: s for s in cli_spec()}
    assert list(specs) == FIELDS
    for f in dataclasses.fields(AuditOptions):
        assert callable(f.metadata["check"]), f.name
        assert specs[f.name]["cli"] in ("value", "flag", "switch"), f.name


def test_cli_defaults_equal_the_dataclass_defaults(monkeypatch):
    # a flag not given is absent from the namespace (argparse.SUPPRESS): the field keeps the dataclass default,
    # so a default written into the parser by hand shows up here
    args = _parser().parse_args(["--mechanism", "m:M"])
    assert not set(FIELDS) & set(vars(args)), sorted(set(FIELDS) & set(vars(args)))
    assert audit_cmd._make_options(audit_cmd._given_options(args)) == AuditOptions()
    # and the help states the dataclass default of every field that has one
    blocks = _help_blocks(monkeypatch)
    for f in dataclasses.fields(AuditOptions):
        block = blocks["--" + f.name.replace("_", "-")]
        if f.default is None or f.default is False:
            assert "(default:" not in block, block
        else:
            assert block.endswith(f"(default: {f.default})"), block


def test_every_field_reaches_the_options_from_its_flag(monkeypatch):
    assert set(CLI_VALUES) == set(FIELDS), set(FIELDS) ^ set(CLI_VALUES)
    monkeypatch.setattr(audit_cmd, "_variant_names", lambda: ["printed", "standard"])   # no registry needed
    for name, (value, argv) in CLI_VALUES.items():
        default = getattr(AuditOptions(), name)
        assert value != default, name
        options = audit_cmd._make_options(audit_cmd._given_options(_parser().parse_args(argv)))
        assert getattr(options, name) == value, name
        assert options == AuditOptions(**{name: value}), name


@pytest.mark.parametrize("name", FIELDS)
def test_every_field_is_checked_and_the_error_names_it(name):
    assert set(BAD_VALUES) == set(FIELDS)
    with pytest.raises((TypeError, ValueError), match=name):
        AuditOptions(**{name: BAD_VALUES[name]})


def test_unknown_keyword_is_a_type_error_naming_it():
    rr = RandomizedResponse(1.0)
    with pytest.raises(TypeError, match="'epsilo'"):
        audit(rr, epsilo=1.0, pairs=[rr.pair()])
    with pytest.raises(TypeError, match="'seeds'"):
        AuditOptions().replace(seeds=3)
    with pytest.raises(TypeError, match="options must be an AuditOptions"):
        audit(rr, {"epsilon": 1.0})


def test_options_object_and_keywords_give_the_same_audit():
    lap = LaplaceCount(1.0)
    options = AuditOptions(epsilon=1.0, samples=4_000, seed=5, method="statistical")
    a = audit(lap, options, pairs=[lap.pair()], confidence=0.9)
    b = audit(lap, epsilon=1.0, samples=4_000, seed=5, method="statistical", confidence=0.9, pairs=[lap.pair()])
    assert a.options == b.options == options.replace(confidence=0.9)
    assert a.as_dict()["epsilon_lower"] == b.as_dict()["epsilon_lower"] and "options" not in a.as_dict()


def test_one_confidence_default():
    assert AuditOptions().confidence == CONFIDENCE
    for fn in (statistical_audit, statistical_curve, fit_rate):
        assert inspect.signature(fn).parameters["confidence"].default is CONFIDENCE, fn.__name__


LAP_MODULE = '''
import numpy as np

class Lap:
    """Black box: a count plus Laplace(1) noise (true eps 1)."""
    def sample(self, data, size, rng):
        return np.asarray(data).sum() + rng.laplace(size=size)
'''


@pytest.fixture
def captured(monkeypatch):
    """The options of every audit the command line runs."""
    seen = []
    real = audit_api.audit

    def spy(*args, **kwargs):
        res = real(*args, **kwargs)
        seen.append(res.options)
        return res
    monkeypatch.setattr(audit_api, "audit", spy)
    return seen


def test_replayed_file_gives_equal_options(tmp_path, capsys, monkeypatch, captured):
    (tmp_path / "lapopts.py").write_text(LAP_MODULE)
    monkeypatch.chdir(tmp_path)
    np.savez(tmp_path / "pair.npz", D=np.zeros((3, 1)), D_prime=np.array([[1.0], [0.0], [0.0]]))
    out = tmp_path / "ce.npz"
    assert main(["audit", "--mechanism", "lapopts:Lap", "--epsilon", "0.9", "--pair", "pair.npz",
                 "--samples", "20000", "--confidence", "0.9", "--seed", "3", "--threshold-scoring", "cross-fit",
                 "--attack", "histogram", "--json", "--counterexample", str(out)]) == 0
    first = json.loads(capsys.readouterr().out)
    assert main(["audit", "--replay", str(out), "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert captured[0] == captured[1] and captured[0].name == "lapopts:Lap"
    assert captured[0] == AuditOptions(epsilon=0.9, samples=20_000, confidence=0.9, seed=3, name="lapopts:Lap",
                                       threshold_scoring="cross-fit", attack="histogram")
    assert again["epsilon_lower"] == first["epsilon_lower"]
    # an option given with --replay replaces the saved one; the others stay
    assert main(["audit", "--replay", str(out), "--json", "--jobs", "2"]) == 0
    capsys.readouterr()
    assert captured[2] == captured[0].replace(jobs=2)


def test_a_file_written_before_the_options_were_saved_whole_replays_as_then(tmp_path, capsys, monkeypatch, captured):
    # the settings of a statistical audit as the command line wrote them before (no "options", no
    # threshold_scoring: those audits used the pessimistic rule); the replay takes the pair as given
    (tmp_path / "lapold.py").write_text(LAP_MODULE)
    monkeypatch.chdir(tmp_path)
    settings = {"algorithm": None, "mechanism": "lapold:Lap", "variant": None, "statistic": "auto", "attack": "auto",
                "features": None, "sampler_samples": None, "epsilon": 0.9, "delta": 0.0, "method": "statistical",
                "seed": 4, "confidence": 0.9, "samples": 20_000, "verdict": "not refuted", "epsilon_lower": 0.5}
    np.savez(tmp_path / "old.npz", D=np.zeros((3, 1)), D_prime=np.array([[1.0], [0.0], [0.0]]),
             settings=np.array(json.dumps(settings)))
    assert main(["audit", "--replay", "old.npz", "--json"]) == 0
    capsys.readouterr()
    assert captured[0] == AuditOptions(epsilon=0.9, delta=0.0, method="statistical", seed=4, confidence=0.9,
                                       samples=20_000, any_pair=True, threshold_scoring="pessimistic",
                                       name="lapold:Lap")


class _Largest:
    """Minus the largest coordinate (the audit tests ``{s > t}`` both ways, so a statistic that rises under D'
    needs its negative)."""

    name = "toy: minus the largest coordinate"

    def __call__(self, outputs):
        return -np.asarray(outputs, dtype=np.float64).reshape(len(outputs), -1).max(axis=1)


def _toy_fits(a, b):
    return [lambda: [_Largest()]]


def test_a_registered_attack_is_offered_by_the_cli_and_used_by_an_audit(monkeypatch, capsys):
    register_attack("toy-largest", "the largest coordinate (a test's toy attack)", _toy_fits, in_auto=False)
    try:
        assert "toy-largest" in attack_names() and "toy-largest" in _help(monkeypatch)
        assert _parser().parse_args(["--attack", "toy-largest"]).attack == "toy-largest"
        lap = LaplaceCount(1.0)
        res = audit(lap, epsilon=0.2, pairs=[lap.pair()], samples=50_000, method="statistical",
                    statistic="estimate", attack="toy-largest", seed=1)
        assert res.details["statistic"] == "toy: minus the largest coordinate" and res.verdict == "refuted"
        auto = audit(lap, epsilon=0.2, pairs=[lap.pair()], samples=50_000, method="statistical",
                     statistic="estimate", seed=1)
        assert "toy" not in auto.details["statistic"]          # in_auto=False: auto does not run it
    finally:
        unregister_attack("toy-largest")
    assert "toy-largest" not in attack_names()
    with pytest.raises(SystemExit):
        _parser().parse_args(["--attack", "toy-largest"])
    with pytest.raises(ValueError, match="attack"):
        AuditOptions(attack="toy-largest")


def test_every_registered_attack_is_complete():
    entries = registered_attacks()
    assert [e.name for e in entries] == list(attack_names()[1:])
    for e in entries:
        assert e.description.strip() and "\n" not in e.description, e.name
        assert callable(e.fits) and e.builtin, e.name
    with pytest.raises(ValueError, match="registered already"):
        register_attack("histogram", "again", _toy_fits)
    with pytest.raises(ValueError, match="auto"):
        register_attack("auto", "no", _toy_fits)
    with pytest.raises(TypeError, match="fits"):
        register_attack("toy-bad", "no", "not callable")
    with pytest.raises(KeyError, match="toy-none"):
        unregister_attack("toy-none")


def test_package_exports_its_public_api_without_loading_it():
    for name in audit_pkg.__all__:
        assert getattr(audit_pkg, name) is not None, name
    code = ("import sys, proofs_checks.audit, proofs_checks.audit.options; "
            "print([m for m in ('numpy', 'scipy', 'statsmodels') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout
