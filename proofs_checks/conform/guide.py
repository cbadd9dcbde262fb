"""The porting guide's function and tolerance tables, generated from the declaration (:mod:`.functions`).

``docs/porting.md`` holds each table between two markers; ``python -m proofs_checks conform --update-guide
docs/porting.md`` rewrites them and ``tests/test_conform_functions.py`` fails while they differ from
:func:`function_table` and :func:`tolerance_table`.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Union

from .functions import FUNCTIONS, GOLDEN_KINDS, STAGES
from .samplers import ALPHA, SIZES
from .tolerances import tolerance_text

__all__ = ["GUIDE", "function_table", "tolerance_table", "render_guide", "update_guide", "guide_differences"]

#: The porting guide of the repository.
GUIDE = Path(__file__).resolve().parents[2] / "docs" / "porting.md"

_BEGIN = "<!-- the {name} table, generated from proofs_checks/conform/functions.py: edit that, not this -->"
_END = "<!-- end of the generated {name} table -->"


def _cell(text):
    """Markdown table cell: a ``|`` inside would end the cell."""
    return str(text).replace("|", "\\|")


def _public(module):
    return not any(part.startswith("_") for part in module.split("."))


def _reference_name(fn):
    """Where a reader finds ``fn``: its module, or, when that is private (a split module's part), the first public
    sibling module (in name order) that lists it in ``__all__`` and holds the same object."""
    import importlib
    import pkgutil

    module, name = fn.__module__, getattr(fn, "__qualname__", fn.__name__)
    if not _public(module):
        # every public module of the package, imported and in name order: the answer must not depend on what
        # else the process happened to import
        package = importlib.import_module(module.rsplit(".", 1)[0])
        for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name):
            if _public(info.name):
                candidate = importlib.import_module(f"{package.__name__}.{info.name}")
                if name in getattr(candidate, "__all__", ()) and getattr(candidate, name, None) is fn:
                    return f"{candidate.__name__}.{name}"
    return f"{module}.{name}"


def function_table():
    """The table of port functions: stage, call, how the kit checks it, its golden file, source and reference.

    Returns
    -------
    str
        A Markdown table (no trailing newline).

    Examples
    --------
    >>> function_table().splitlines()[2].startswith("| 1: the truncation functions | `phi(x)` |")
    True
    """
    lines = ["| stage | call | checked by | golden file | source | reference |", "|---|---|---|---|---|---|"]
    seen = set()
    for f in sorted(FUNCTIONS, key=lambda f: f.stage):  # stable: declaration order within a stage
        stage = f"{f.stage}: {STAGES[f.stage]}" if f.stage not in seen else ""
        seen.add(f.stage)
        golden = f"`golden/{f.subject}.json`" if f.subject else ""
        lines.append(
            f"| {_cell(stage)} | `{_cell(f.name + f.signature)}` | {_cell('; '.join(f.checks))} | "
            f"{golden} | {_cell(f.source)} | `{_reference_name(f.reference)}` |"
        )
    return "\n".join(lines)


def tolerance_table():
    """The table of tolerances in force: functions sharing a tolerance and a reason share a row.

    Returns
    -------
    str
        A Markdown table (no trailing newline).

    Examples
    --------
    >>> "| `laplace_scale` | **0 ulps (bit-exact)** |" in tolerance_table()
    True
    """
    rows = {}
    for f in FUNCTIONS:
        if f.kind in GOLDEN_KINDS:
            reasons = [f.tolerance.why] + [f"{v}: {t.why}" for v, t in (f.tolerance.variants or {}).items()]
            rows.setdefault((tolerance_text(f.name), "; ".join(reasons)), []).append(f.name)
    lines = ["| function | tolerance | why |", "|---|---|---|"]
    for (text, why), names in rows.items():
        lines.append(f"| {', '.join(f'`{n}`' for n in names)} | {_cell(text)} | {_cell(why)} |")
    samplers = [f.name for f in FUNCTIONS if f.kind == "sampler"]
    lines.append(
        f"| {', '.join(f'`{n}`' for n in samplers)} | distributional tests at family-wise level "
        f"{ALPHA:g} ({SIZES['default']['finite']:,} draws for finite outputs, "
        f"{SIZES['default']['laplace']:,} for Laplace noise) | the power is stated under *Samplers* |"
    )
    lines.append(
        "| integers in any output (T, s, k in parameter dicts, Peeling's supports), strings, booleans | exact | |"
    )
    return "\n".join(lines)


_TABLES = {"functions": function_table, "tolerances": tolerance_table}


def _span(name):
    begin, end = _BEGIN.format(name=name), _END.format(name=name)
    return re.compile(re.escape(begin) + r"\n(?:.*?\n)?" + re.escape(end), re.DOTALL), begin, end


def render_guide(text):
    """``text`` (the guide) with each generated table replaced by the declaration's.

    Parameters
    ----------
    text : str
        The guide's Markdown, holding each table's begin and end markers once.

    Returns
    -------
    str
        The same text with the tables regenerated.

    Raises
    ------
    ValueError
        If a table's markers are missing or repeated.

    Examples
    --------
    >>> from proofs_checks.conform.guide import _BEGIN, _END
    >>> doc = "\\n".join(f"{_BEGIN.format(name=n)}\\nold\\n{_END.format(name=n)}" for n in ("functions", "tolerances"))
    >>> "| `phi` | 2 ulps of the value |" in render_guide(doc)
    True
    """
    for name, table in _TABLES.items():
        pattern, begin, end = _span(name)
        found = len(pattern.findall(text))
        if found != 1:
            raise ValueError(
                f"text must hold the markers of the {name} table once ({begin!r} ... {end!r}), found {found}"
            )
        text = pattern.sub(lambda m: f"{begin}\n{table()}\n{end}", text)
    return text


def guide_differences(path: Union[str, os.PathLike] = GUIDE) -> list[str]:
    """The names of the generated tables whose copy in the guide at ``path`` differs from the declaration's.

    Parameters
    ----------
    path : str or os.PathLike
        The porting guide (default: ``docs/porting.md``).

    Returns
    -------
    list of str
        The names of the stale tables, in the guide's order; empty when the guide is current.

    Raises
    ------
    ValueError
        If a table's markers are missing or repeated.

    Examples
    --------
    >>> guide_differences()
    []
    """
    text = Path(path).read_text(encoding="utf-8")
    rendered = render_guide(text)
    return [
        name for name in _TABLES if _span(name)[0].search(text).group(0) != _span(name)[0].search(rendered).group(0)
    ]


def update_guide(path: Union[str, os.PathLike] = GUIDE) -> list[str]:
    """Rewrite the generated tables of the guide at ``path``; return the names of those that changed.

    Parameters
    ----------
    path : str or os.PathLike
        The porting guide (default: ``docs/porting.md``).

    Returns
    -------
    list of str
        The names of the tables rewritten (empty: the file is left untouched).

    Raises
    ------
    ValueError
        If a table's markers are missing or repeated.

    Examples
    --------
    >>> import tempfile
    >>> copy = Path(tempfile.mkdtemp()) / "porting.md"
    >>> _ = copy.write_text(GUIDE.read_text(encoding="utf-8").replace("| `phi` | 2 ulps", "| `phi` | 3 ulps"))
    >>> update_guide(copy), update_guide(copy)
    (['tolerances'], [])
    """
    path = Path(path)
    changed = guide_differences(path)
    if changed:
        path.write_text(render_guide(path.read_text(encoding="utf-8")), encoding="utf-8")
    return changed
