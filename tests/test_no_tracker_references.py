"""No text of the project points at an issue tracker, a helper or a branch that the repository does not hold.

A remark such as "(issue 18)", "since branch lnewt" or "helper i18" tells a reader nothing: the tracker and the
branches are not in the repository.  The reason the remark stood for (what a designed pair is for, why a mutant
is no violation, what a tolerance protects) is written instead.  This test scans the text files of
:data:`SCANNED` and their file names for the patterns of :data:`TRACKER_PATTERNS` and for a helper or branch
named by a word that :data:`ENGLISH_AFTER_HELPER_OR_BRANCH` does not cover ("branch and bound", "the helper
file" are English; "branch lnewt" is not), or helpers and branches named by a token with a digit or in
backquotes ("helpers vq000"; "helpers shared by" is English).
"""

from __future__ import annotations

import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]

#: Scanned folders and files, relative to the repository root.
SCANNED = ("reference", "proofs_checks", "tests", "examples", "notebooks", "README.md", "docs", "pyproject.toml")

#: Suffixes of the text files read (anything else, e.g. figures and ``.npz`` data, only by its name).
TEXT_SUFFIXES = {".py", ".md", ".txt", ".toml", ".json", ".j2", ".cfg", ".ini", ".yml", ".yaml", ".ipynb", ".rst"}
#: This file holds the patterns and the examples of its own power.
SELF = pathlib.Path(__file__).resolve()

#: References to an issue tracker, case-insensitive.
TRACKER_PATTERNS = (
    r"(?<![a-z])issues?[ _-]?#?\d+",  # issue 18, issue-17, issues 14, test_x_issue19.py
    r"\(issue\b",  # (issue ...)
    r"\bthe issue's\b",  # the list
    r"\b(?:in|by|of|from) the issue\b",  # as reported in the issue
    r"(?<![\w&/:])(?<!: )#\d{1,5}\b",  # #123 (a colour, #1f77b4 or color: #222, is no match)
    r"\bpull request\b",
    r"\bgh-\d+\b",
)
#: Words that may follow "helper" or "branch" in plain English here; any other word names a helper or a
#: branch ("helper i18", "branch lnewt", "helpers vq000") and fails the test.
ENGLISH_AFTER_HELPER_OR_BRANCH = {
    "a",
    "b",
    "c",  # the branches A, B, C of a piecewise formula
    "and",  # branch and bound
    "point",
    "points",  # a branch point
    "of",
    "per",
    "is",
    "sets",
    "makes",
    "depends",
    "for",
    "that",
    "which",
    "to",
    "in",
    "on",
    "file",
    "files",
    "function",
    "functions",
    "module",
    "modules",
    "import",
    "counts",
}
_HELPER_OR_BRANCH = re.compile(r"\b(?:helper|branch)\s+`?([a-z0-9][a-z0-9_-]*)", re.IGNORECASE)
_HELPERS_OR_BRANCHES = re.compile(r"\b(?:helpers|branches)\s+(`[^`]+`|[a-z0-9_-]*\d[a-z0-9_-]*)", re.IGNORECASE)
_TRACKER = re.compile("|".join(TRACKER_PATTERNS), re.IGNORECASE)


def tracker_references(text):
    """The tracker, helper and branch references in ``text``, as the matched words."""
    found = [m.group(0) for m in _TRACKER.finditer(text)]
    found += [
        m.group(0) for m in _HELPER_OR_BRANCH.finditer(text) if m.group(1).lower() not in ENGLISH_AFTER_HELPER_OR_BRANCH
    ]
    found += [m.group(0) for m in _HELPERS_OR_BRANCHES.finditer(text)]
    return found


def _files(entry):
    path = ROOT / entry
    if path.is_file():
        return [path]
    return sorted(p for p in path.rglob("*") if p.is_file() and "__pycache__" not in p.parts)


def references_in(entry):
    """``["path:line: match", ...]`` for the file or folder ``entry`` (its file names included)."""
    out = []
    for path in _files(entry):
        if path.resolve() == SELF:
            continue
        rel = path.relative_to(ROOT).as_posix()
        out += [f"{rel}: file name: {m}" for m in tracker_references(rel)]
        if path.suffix in TEXT_SUFFIXES:
            for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
                out += [f"{rel}:{number}: {m}" for m in tracker_references(line)]
    return out


@pytest.mark.parametrize("entry", SCANNED)
def test_no_tracker_reference(entry):
    assert references_in(entry) == []


@pytest.mark.parametrize(
    "text",
    [
        "the designed pair (issue 18)",
        "Issue 17 items 1 and 5",
        "the issue-17 suite",
        "[issue 18, brc]",
        "as before branch lnewt",
        "issue 18, helper i18:",
        "the speed-ups of helpers vq000",
        "(helper `gd`)",
        "the issue's list",
        "as reported in the issue",
        "fixed in #123",
        "see gh-42",
        "the branch of issue 19",
    ],
)
def test_each_pattern_finds_its_reference(text):
    assert tracker_references(text), text


@pytest.mark.parametrize(
    "text",
    [
        "a branch and bound over the record's domain",
        "the theta = 2 branch point 1/2",
        "(branch A)",
        "an edit of a helper file",
        "from .helper import value",
        "colour #1f77b4",
        "no branch depends on the data",
        "A helper for the notebooks",
        "the issue of rounding",
        "Helpers shared by the claim sets",
        "the two branches meet at s = 1",
        "color: #222;",
    ],
)
def test_plain_english_is_no_reference(text):
    assert tracker_references(text) == [], text


def test_a_file_name_counts(tmp_path, monkeypatch):
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_thing_issue19.py").write_text("x = 1\n")
    monkeypatch.setitem(globals(), "ROOT", tmp_path)
    assert references_in("tests") == ["tests/test_thing_issue19.py: file name: issue19"]
