"""Numbers the README and the docs quote from a run, each tied to the claim value it quotes.

A quoted number is written in Markdown followed by an HTML comment naming where it comes from (invisible when the
page is rendered)::

    the sum is 1.56<!--q wang-xu.thm2.eq26.follows evidence.rows[epsilon=1.0].ratio:min--> times (26)

The comment holds ``q``, a claim id and a path into that claim's record of ``report.json``:

* dot-separated keys (``observed``, ``margin``, ``evidence.smallest_ratio``);
* ``[i]`` indexes a list, ``[key]`` looks up a mapping's key that holds dots (``per_epsilon[0.1]``); ``[key=value]`` keeps the list's items whose ``key`` equals ``value`` (numbers compared
  as floats) and ``[*]`` keeps all of them; the rest of the path applies to each item kept;
* a final ``:min``, ``:max``, ``:count``, ``:abs`` or ``:neg`` reduces what was kept (``:abs`` takes the magnitude,
  ``:neg`` the negative: a growth exponent quoted from a fitted decay exponent).

The quoted text agrees with the value when they are equal at the precision the text shows: ``1.56`` quotes any
value in ``[1.555, 1.565]``, ``3e31`` any in ``[2.5e31, 3.5e31]``, ``0.48`` any in ``[0.475, 0.485]``.

``docs/results/quoted_numbers.json`` keeps the value of every quote from the last run that was checked
(``python -m proofs_checks quoted-numbers --update --report OUT/report.json``); a fast test checks every quote
against it, and the CI step that runs ``verify --profile quick`` checks every quote against that run's report, so
a number in the docs cannot drift from the run that produced it without a failing check.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "QUOTE",
    "Quote",
    "QuoteProblem",
    "ROOT",
    "SNAPSHOT",
    "default_documents",
    "find_quotes",
    "resolve",
    "agrees",
    "check_quotes",
    "snapshot_values",
    "load_snapshot",
]

ROOT = Path(__file__).resolve().parents[2]
#: The values of every quote at the last checked run.
SNAPSHOT = ROOT / "docs" / "results" / "quoted_numbers.json"

#: A number (optionally signed, with an exponent or a ``x10^k`` / ``e`` form) followed by its source comment.
QUOTE = re.compile(
    # a sign only where it cannot be a range's dash ("1.56-1.62"): not after a digit or another quote's marker
    r"(?P<text>(?:(?<![\w>.])[-+])?(?:\d+(?:,\d{3})*(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)"
    r"<!--q\s+(?P<claim>\S+)\s+(?P<path>\S+)\s*-->"
)
_CODE_SPAN = re.compile(r"`[^`]*`")
_STEP = re.compile(r"([^.\[\]]+)|\[([^\]]*)\]")


@dataclass(frozen=True)
class Quote:
    """One quoted number: where it is, what it says and what it quotes."""

    file: str
    line: int
    text: str
    claim: str
    path: str

    @property
    def key(self) -> str:
        """``"claim path"``, the quote's entry in the snapshot."""
        return f"{self.claim} {self.path}"


@dataclass(frozen=True)
class QuoteProblem:
    """A quote that does not agree with its source (or whose source is missing)."""

    quote: Quote
    value: float | None
    reason: str

    def __str__(self) -> str:
        return f"{self.quote.file}:{self.quote.line}: {self.quote.text} ({self.quote.key}): {self.reason}"


def default_documents() -> list[Path]:
    """The README and every Markdown file under ``docs/``."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def find_quotes(paths: Iterable[Path] | None = None) -> list[Quote]:
    """Every quoted number in ``paths`` (default :func:`default_documents`), in file and line order."""
    quotes = []
    for path in default_documents() if paths is None else paths:
        path = Path(path)
        name = str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)
        fenced = False
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if line.lstrip().startswith("```"):
                fenced = not fenced
            if fenced:
                continue  # a code block shows the syntax; it quotes nothing
            for match in QUOTE.finditer(_CODE_SPAN.sub("", line)):
                quotes.append(Quote(name, number, match["text"], match["claim"], match["path"]))
    return quotes


def _select(items: list, selector: str) -> list:
    if selector == "*":
        return list(items)
    if "=" in selector:
        key, wanted = selector.split("=", 1)
        kept = []
        for item in items:
            value = item.get(key) if isinstance(item, Mapping) else None
            try:
                same = float(value) == float(wanted)  # type: ignore[arg-type]
            except (TypeError, ValueError):
                same = str(value) == wanted
            if same:
                kept.append(item)
        return kept
    return [items[int(selector)]]


def resolve(record: Mapping[str, Any], path: str) -> float:
    """The number ``path`` names in one claim's record (see the module docstring for the grammar).

    Raises
    ------
    KeyError
        If a key or list item is missing, or a filter keeps nothing.
    ValueError
        If the path ends on something that is not one number and has no reduction.

    Examples
    --------
    >>> record = {"observed": 2.5, "evidence": {"rows": [{"eps": 1.0, "r": 1.6}, {"eps": 1.0, "r": 1.5},
    ...                                                   {"eps": 4.0, "r": 4.1}]}}
    >>> resolve(record, "observed"), resolve(record, "evidence.rows[eps=1].r:min"), resolve(record, "evidence.rows:count")
    (2.5, 1.5, 3.0)
    """
    body, _, reduction = path.partition(":")
    current: list = [record]
    many = False
    for match in _STEP.finditer(body):
        key, selector = match.groups()
        nxt: list = []
        for item in current:
            if key is not None:
                if not isinstance(item, Mapping) or key not in item:
                    raise KeyError(f"no {key!r} in {path!r}")
                nxt.append(item[key])
            elif isinstance(item, Mapping):
                # a key holding dots (a mapping keyed by eps: ``per_epsilon[0.1]``) is written in brackets
                if selector not in item:
                    raise KeyError(f"no {selector!r} in {path!r}")
                nxt.append(item[selector])
            else:
                if not isinstance(item, list):
                    raise KeyError(f"[{selector}] applied to a non-list in {path!r}")
                selected = _select(item, selector)
                many = many or selector == "*" or "=" in selector
                nxt.extend(selected)
        current = nxt
    if reduction == "count":
        return float(len(current[0]) if len(current) == 1 and isinstance(current[0], list) else len(current))
    values = [float(v) for v in current if v is not None]
    if not values:
        raise KeyError(f"{path!r} selects nothing")
    if reduction == "min":
        return min(values)
    if reduction == "max":
        return max(values)
    if len(values) != 1 or (many and reduction not in ("abs", "neg")):
        raise ValueError(f"{path!r} selects {len(values)} numbers: add :min or :max")
    return {"abs": abs(values[0]), "neg": -values[0]}.get(reduction, values[0])


def agrees(text: str, value: float) -> bool:
    """Whether ``value`` rounds to the quoted ``text`` at the precision the text shows.

    Examples
    --------
    >>> agrees("1.56", 1.5634), agrees("1.56", 1.5667), agrees("3e31", 3.2269e31), agrees("1,280", 1280.0)
    (True, False, True, True)
    """
    clean = text.replace(",", "")
    quoted = float(clean)
    if not math.isfinite(value):
        return False
    mantissa, _, exponent = clean.lower().lstrip("+-").partition("e")
    decimals = len(mantissa.split(".", 1)[1]) if "." in mantissa else 0
    half_unit = 0.5 * 10.0 ** (-decimals) * 10.0 ** (int(exponent) if exponent else 0)
    return abs(value - quoted) <= half_unit * (1 + 1e-9) + 1e-300


def _records(report: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    return {claim["id"]: claim for claim in report.get("claims", [])}


def snapshot_values(quotes: Iterable[Quote], report: Mapping[str, Any]) -> dict[str, float]:
    """``{quote.key: value}`` of every quote resolved in ``report`` (quotes that do not resolve are left out)."""
    records = _records(report)
    values = {}
    for quote in quotes:
        if quote.claim in records:
            try:
                values[quote.key] = resolve(records[quote.claim], quote.path)
            except (KeyError, ValueError, IndexError, TypeError):
                continue
    return dict(sorted(values.items()))


def check_quotes(
    quotes: Iterable[Quote], *, report: Mapping[str, Any] | None = None, snapshot: Mapping[str, float] | None = None
) -> list[QuoteProblem]:
    """The quotes that disagree with ``report`` (a ``report.json`` payload) or, without one, with ``snapshot``.

    A claim missing from the report (or a key missing from the snapshot) is a problem too: a quote must name a
    value that exists.
    """
    if (report is None) == (snapshot is None):
        raise ValueError("give exactly one of report and snapshot")
    records = _records(report) if report is not None else {}
    problems = []
    for quote in quotes:
        if report is not None:
            if quote.claim not in records:
                problems.append(QuoteProblem(quote, None, "no such claim in the report"))
                continue
            try:
                value: float | None = resolve(records[quote.claim], quote.path)
            except (KeyError, ValueError, IndexError, TypeError) as exc:
                problems.append(QuoteProblem(quote, None, f"the path does not resolve: {exc}"))
                continue
        else:
            assert snapshot is not None
            value = snapshot.get(quote.key)
            if value is None:
                problems.append(QuoteProblem(quote, None, "not in the snapshot (run quoted-numbers --update)"))
                continue
        if value is not None and not agrees(quote.text, value):
            problems.append(QuoteProblem(quote, value, f"the run gives {value:.6g}"))
    return problems


def load_snapshot(path: Path = SNAPSHOT) -> dict[str, float]:
    """The snapshot file's values (empty when it does not exist)."""
    return json.loads(path.read_text()) if path.exists() else {}
