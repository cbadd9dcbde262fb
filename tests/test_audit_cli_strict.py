"""CLI `audit` strictness: exit 2 for bad arguments (UsageError), 1 when the user's
mechanism raises, the JSON schema (infinite epsilon_lower as "inf"), --curve and --curve-plot, progress."""

import json
from importlib import resources

import numpy as np
import pytest

from proofs_checks.audit.api import audit
from proofs_checks.audit.calibration import LaplaceCount
from proofs_checks.cli import main
from proofs_checks.commands import audit as audit_cmd

jsonschema = pytest.importorskip("jsonschema")

MODULE = '''
import numpy as np

class Coin:
    """Fair coin on the first record's bit: log_prob exact, eps = log 3 at keep 3/4."""
    record_width = 1
    def _p(self, data):
        b = int(np.asarray(data)[0, 0] > 0.5)
        p = np.array([0.25, 0.25]); p[b] = 0.75
        return p
    def log_prob(self, data):
        return np.arange(2.0), np.log(self._p(data))
    def sample(self, data, size, rng):
        return rng.choice(2, size=size, p=self._p(data)).astype(float)[:, None]

class Moving(Coin):
    """Support moves with the data: output b only, so no finite epsilon."""
    def log_prob(self, data):
        b = float(np.asarray(data)[0, 0] > 0.5)
        return np.array([b]), np.array([0.0])
    def sample(self, data, size, rng):
        return np.full((size, 1), float(np.asarray(data)[0, 0] > 0.5))

class SampleRaises(Coin):
    def sample(self, data, size, rng):
        raise RuntimeError("sampler broke")

def factory_raises():
    raise ZeroDivisionError("no")
'''


@pytest.fixture
def usermod(tmp_path, monkeypatch):
    (tmp_path / "clistrictmod.py").write_text(MODULE)
    monkeypatch.chdir(tmp_path)
    np.savez(tmp_path / "pair.npz", D=np.zeros((3, 1)), D_prime=np.array([[1.0], [0.0], [0.0]]))
    return tmp_path


def _schema():
    return json.loads(resources.files("proofs_checks.audit").joinpath("audit.schema.json").read_text())


def test_module_declares_strict_usage_errors_and_examples():
    assert audit_cmd.USAGE_ERRORS == () and "examples:" in audit_cmd.EPILOG


@pytest.mark.parametrize(
    "argv,needle",
    [
        (["--epsilon", "nan"], "epsilon"),
        (["--epsilon", "-1"], "epsilon"),
        (["--epsilon", "1", "--delta", "1.5"], "delta"),
        (["--epsilon", "1", "--confidence", "2"], "confidence"),
        (["--epsilon", "1", "--samples", "10", "--method", "statistical"], "samples"),
        (["--epsilon", "1", "--curve-epsilons", "a,b"], "--curve-epsilons"),
        (["--epsilon", "1", "--curve-epsilons", "-1"], "--curve-epsilons"),
        (["--epsilon", "1", "--pair", "missing.npz"], "--pair"),
        (["--epsilon", "1", "--neighbours", "clistrictmod:Coin.nothing"], "--neighbours"),
    ],
)
def test_bad_arguments_exit_2_with_a_message(usermod, capsys, argv, needle):
    assert main(["audit", "--mechanism", "clistrictmod:Coin", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and needle in err and "Traceback" not in err


def test_other_bad_arguments_exit_2(usermod, capsys):
    for argv in (
        ["audit"],
        ["audit", "laplace", "--mechanism", "clistrictmod:Coin"],
        ["audit", "--mechanism", "nosuchmodule:X", "--epsilon", "1"],
        ["audit", "--mechanism", "clistrictmod:Coin"],  # no --epsilon
        ["audit", "--replay", "missing.npz"],
    ):
        assert main(argv) == 2, argv
    for argv in (["audit", "laplace", "--seed", "-1"], ["audit", "laplace", "--jobs", "0"]):
        with pytest.raises(SystemExit) as exc:
            main(argv)
        assert exc.value.code == 2


def test_a_raising_mechanism_exits_1_with_one_line(usermod, capsys):
    for spec, needle in (
        ("clistrictmod:SampleRaises", "RuntimeError: sampler broke"),
        ("clistrictmod:factory_raises", "ZeroDivisionError: no"),
    ):
        assert (
            main(
                [
                    "audit",
                    "--mechanism",
                    spec,
                    "--epsilon",
                    "1",
                    "--method",
                    "statistical",
                    "--samples",
                    "1000",
                    "--pair",
                    "pair.npz",
                ]
            )
            == 1
        )
        err = capsys.readouterr().err.strip()
        assert err.count("\n") == 0 and spec in err and needle in err


def test_json_matches_the_schema_and_infinite_epsilon_is_the_string_inf(usermod, capsys):
    assert (
        main(
            [
                "audit",
                "--mechanism",
                "clistrictmod:Moving",
                "--epsilon",
                "1",
                "--pair",
                "pair.npz",
                "--sampler-samples",
                "1000",
                "--json",
            ]
        )
        == 0
    )
    res = json.loads(capsys.readouterr().out)
    # supports that move with the data: the law's own loss is infinite (the string "inf"); epsilon_lower is the
    # bound with each law's unlisted mass placed for the mechanism (finite, still far above the claim)
    assert res["details"]["unlisted_mass"]["law_epsilon"] == "inf" and res["verdict"] == "refuted"
    assert 30 < res["epsilon_lower"] < 40
    jsonschema.validate(res, _schema())
    bad = dict(res, epsilon_lower=float("-1"))
    with pytest.raises(jsonschema.ValidationError):  # the schema can fail
        jsonschema.validate(bad, _schema())


def test_curve_flag_json_text_and_plot(usermod, capsys):
    assert (
        main(
            [
                "audit",
                "--mechanism",
                "clistrictmod:Coin",
                "--epsilon",
                "1",
                "--pair",
                "pair.npz",
                "--sampler-samples",
                "1000",
                "--curve-epsilons",
                "0,0.5,1.0986",
                "--json",
            ]
        )
        == 0
    )
    res = json.loads(capsys.readouterr().out)
    jsonschema.validate(res, _schema())
    c = res["details"]["curve"]
    assert c["method"] == "exact" and c["epsilons"] == [0.0, 0.5, 1.0986]
    np.testing.assert_allclose(c["delta_exact"], [0.5, 0.75 - np.exp(0.5) * 0.25, 0.0], atol=1e-4)
    assert (
        main(
            [
                "audit",
                "--mechanism",
                "clistrictmod:Coin",
                "--epsilon",
                "1",
                "--pair",
                "pair.npz",
                "--method",
                "statistical",
                "--samples",
                "4000",
                "--curve",
                "--curve-plot",
                "c.png",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "curve (statistical)" in out and "delta_lower" in out
    assert (usermod / "c.png").read_bytes()[:4] == b"\x89PNG"


def test_progress_goes_to_stderr_only_when_asked(capsys):
    L = LaplaceCount(1.0)
    audit(L, epsilon=1.0, pairs=[L.pair()], samples=2_000, progress=False)
    assert capsys.readouterr().err == ""
    audit(L, epsilon=1.0, pairs=[L.pair()], samples=2_000, progress=True)
    assert "audit" in capsys.readouterr().err
