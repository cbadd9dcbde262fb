"""Numbers quoted in the README and docs agree with the run that produced them (proofs_checks.report.quoted_numbers).

The fast tests check every quote against the stored snapshot and the registry; the ``code_paths`` CI step checks
them against its own ``verify --profile quick`` run (tests/test_code_paths.py), so a drift fails there.
"""

from __future__ import annotations

import json

import pytest

from proofs_checks.cli import main
from proofs_checks.registry import default_registry
from proofs_checks.report import quoted_numbers as Q


def test_every_quote_agrees_with_the_snapshot():
    quotes = Q.find_quotes()
    assert len(quotes) >= 15  # the README's findings quote their claims' values
    problems = Q.check_quotes(quotes, snapshot=Q.load_snapshot())
    assert not problems, "\n".join(map(str, problems))


def test_every_quote_names_a_registered_claim_and_the_snapshot_holds_nothing_stale():
    known = {claim.id for claim in default_registry().claims}
    quotes = Q.find_quotes()
    assert not [q for q in quotes if q.claim not in known]
    assert set(Q.load_snapshot()) == {q.key for q in quotes}  # regenerate with quoted-numbers --update


@pytest.mark.parametrize(
    "text, value, expected",
    [
        ("1.56", 1.5649, True),
        ("1.56", 1.5651, False),
        ("2.000", 1.9999999999999982, True),
        ("3e31", 3.2269e31, True),
        ("3e31", 3.6e31, False),
        ("0.49997", 0.499968, True),
        ("49", 48.99999940653657, True),
        ("1,280", 1280.0, True),
        ("-0.09", -0.0912, True),
        ("1.0", float("nan"), False),
    ],
)
def test_agreement_is_at_the_quoted_precision(text, value, expected):
    assert Q.agrees(text, value) is expected


def test_paths_select_filter_and_reduce():
    record = {
        "observed": -1.5,
        "evidence": {"rows": [{"eps": 1.0, "r": 1.6}, {"eps": 1.0, "r": 1.5}, {"eps": 4.0, "r": 4.1}], "nested": [[1]]},
    }
    assert Q.resolve(record, "observed:abs") == 1.5
    assert Q.resolve(record, "observed:neg") == 1.5 and Q.resolve(record, "evidence.rows[2].r:neg") == -4.1
    assert Q.resolve(record, "evidence.rows[eps=1].r:max") == 1.6
    assert Q.resolve(record, "evidence.rows[2].r") == 4.1
    assert Q.resolve(record, "evidence.rows[*].r:min") == 1.5
    assert Q.resolve(record, "evidence.rows:count") == 3.0
    assert Q.resolve({"evidence": {"per_eps": {"0.1": 1.4, "8.0": 2.0}}}, "evidence.per_eps[0.1]") == 1.4
    with pytest.raises(KeyError, match="no '1.0'"):
        Q.resolve({"evidence": {"per_eps": {"0.1": 1.4}}}, "evidence.per_eps[1.0]")
    with pytest.raises(ValueError, match="add :min or :max"):
        Q.resolve(record, "evidence.rows[eps=1].r")
    with pytest.raises(KeyError):
        Q.resolve(record, "evidence.missing")
    with pytest.raises(KeyError, match="selects nothing"):
        Q.resolve(record, "evidence.rows[eps=9].r:min")


def test_a_drifted_quote_is_caught_naming_file_and_line(tmp_path):
    doc = tmp_path / "doc.md"
    doc.write_text(
        "intro `1<!--q demo.claim observed-->` shows the syntax\n"
        "the loss is 2.1<!--q demo.claim observed--> eps and 7<!--q demo.claim bound-->\n"
        "```\n3<!--q demo.claim observed-->\n```\n"
        "a range 1.9<!--q demo.claim observed-->-7.2<!--q demo.claim bound--> and a sign -2<!--q demo.claim margin-->\n"
    )
    quotes = Q.find_quotes([doc])
    assert [(q.line, q.text, q.path) for q in quotes] == [
        (2, "2.1", "observed"),
        (2, "7", "bound"),
        (6, "1.9", "observed"),
        (6, "7.2", "bound"),  # the dash of a range is no minus sign
        (6, "-2", "margin"),
    ]
    report = {"claims": [{"id": "demo.claim", "observed": 2.0, "bound": 7.2, "margin": -2.04}]}
    problems = Q.check_quotes(quotes, report=report)
    assert [str(p).split(": ", 1)[1] for p in problems] == [
        "2.1 (demo.claim observed): the run gives 2",
        "1.9 (demo.claim observed): the run gives 2",
    ]
    assert Q.check_quotes(quotes, report={"claims": []})[0].reason == "no such claim in the report"
    assert Q.check_quotes(quotes, snapshot={})[0].reason.startswith("not in the snapshot")


def test_cli_checks_a_report_and_exits_1_on_a_drift(tmp_path, capsys):
    report = tmp_path / "report.json"
    snapshot = Q.load_snapshot()
    claims = {}
    for key, value in snapshot.items():
        claim, path = key.split(" ", 1)
        if "." not in path and ":" not in path:
            claims.setdefault(claim, {"id": claim})[path] = value
    report.write_text(json.dumps({"claims": list(claims.values())}))
    # quotes reaching into evidence are missing from this cut-down report: each is reported, exit 1
    reaching = [key for key in snapshot if "." in key.split(" ", 1)[1] or ":" in key.split(" ", 1)[1]]
    assert main(["quoted-numbers", "--report", str(report)]) == 1
    out = capsys.readouterr().out
    assert "evidence.max_selection_delta_over_delta): no such claim in the report" in out
    assert out.splitlines()[-1].startswith(f"{len(Q.find_quotes())} quoted numbers, ")
    assert int(out.splitlines()[-1].split(", ")[1].split()[0]) >= len({k.split(" ")[0] for k in reaching} - set(claims))
    assert main(["quoted-numbers"]) == 0
    assert main(["quoted-numbers", "--update"]) == 2  # a usage error: --update needs --report
