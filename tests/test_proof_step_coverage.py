"""The coverage table of docs/proof_checks.md: every statement an independent re-derivation listed has its claims.

The table ("Coverage table: the statements an independent re-derivation listed") names each claim with the verdict
the quick profile gives it.  Checked here: every id is registered; the table covers the statements of the list
(by paper and count); and each listed verdict is the one the claim returns at the quick profile and default seed,
run directly (claims below :data:`CHEAP_SECONDS` in the fast suite, the rest under the ``slow`` marker).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from proofs_checks.claim_costs import QUICK_SECONDS
from proofs_checks.model import CheckContext
from proofs_checks.registry import default_registry

DOC = Path(__file__).resolve().parents[1] / "docs" / "proof_checks.md"
HEADING = "### Coverage table: the statements an independent re-derivation listed"
PAIR = re.compile(r"`([a-z0-9][\w.\-]*)` (confirmed|refuted|vacuous|inconclusive)\b")
#: Claims at most this many quick-profile seconds run in the fast suite (claim_costs leaves out those below 0.2 s).
CHEAP_SECONDS = 0.5
#: Statements of the re-derivation's list per paper (002: 18 with the Peeling sweep, 000: 11, 004: 6 with App. D.3).
STATEMENTS = {"002": 18, "000": 11, "004": 6}


def _rows():
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index(HEADING) :]
    section = section[: section.index("\n\n", section.index("|---"))]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and cells[0] in STATEMENTS:
            rows.append(cells)
    return rows


ROWS = _rows()
PAIRS = {claim_id: verdict for row in ROWS for claim_id, verdict in PAIR.findall(row[2])}


@pytest.fixture(scope="module")
def claims():
    return {c.id: c for c in default_registry().claims}


def test_table_covers_the_list():
    counts = {paper: sum(row[0] == paper for row in ROWS) for paper in STATEMENTS}
    assert counts == STATEMENTS
    for paper, statement, listed, _, _ in ROWS:
        # a row without a claim says why, in its readings column
        assert PAIR.search(listed) or listed == "none", (paper, statement)


def test_every_claim_is_registered(claims):
    assert len(PAIRS) > 80
    missing = sorted(set(PAIRS) - set(claims))
    assert not missing, missing


def _cheap(claim_id):
    return QUICK_SECONDS.get(claim_id, 0.1) <= CHEAP_SECONDS


@pytest.mark.parametrize(
    "claim_id",
    [pytest.param(i, marks=() if _cheap(i) else pytest.mark.slow) for i in sorted(PAIRS)],
)
def test_listed_verdict_is_the_claims(claims, claim_id):
    result = claims[claim_id].check(CheckContext(profile="quick").for_claim(claim_id))
    assert result.verdict == PAIRS[claim_id], (claim_id, result.observed, result.bound)
