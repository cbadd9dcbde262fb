"""What a port covers: its declared gaps, its public names, and the coverage summary of a kit run.

A port lists what it does not implement in a module attribute :data:`GAPS_ATTRIBUTE` (``UNSUPPORTED``), like
the skip files of the array API test suite: a list (or a ``{entry: reason}`` mapping) of declared port
function names, or ``"name:variant"`` for one ``variant=`` value of a function it otherwise provides
(``"robust_mean:printed"``).  Only declared gaps are skipped; a declared function the port neither provides
nor declares fails, and so does a declaration naming no declared function (a misspelt skip list would
otherwise skip silently).  Public callables of the port that are not port functions are reported ``unknown``
with the nearest declared name, so a misspelt ``expectedphi`` cannot pass unnoticed.
"""

from __future__ import annotations

import difflib
import inspect
from typing import Any, Iterable, Mapping, Optional

from .functions import FUNCTIONS

__all__ = ["GAPS_ATTRIBUTE", "Gaps", "declared_gaps", "public_names", "unknown_names", "coverage_summary"]

#: The module attribute in which a port declares what it does not support.
GAPS_ATTRIBUTE = "UNSUPPORTED"

_NAMES = frozenset(f.name for f in FUNCTIONS)


class Gaps:
    """A port's declared gaps: whole functions and single variants, each with its reason.

    Parameters
    ----------
    entries : mapping of str to str
        ``{"name" or "name:variant": reason}``.

    Raises
    ------
    TypeError
        If an entry or a reason is not a string.

    Examples
    --------
    >>> gaps = Gaps({"peeling": "not yet", "robust_mean:printed": ""})
    >>> gaps.covers("peeling"), gaps.covers("robust_mean"), gaps.covers("robust_mean", "printed")
    (True, False, True)
    >>> gaps.invalid()
    []
    """

    def __init__(self, entries: Mapping[str, str]) -> None:
        for entry, reason in entries.items():
            if not isinstance(entry, str) or not isinstance(reason, str):
                raise TypeError(f"{GAPS_ATTRIBUTE} entries and reasons must be strings, got {entry!r}: {reason!r}")
        self.entries = dict(entries)

    def covers(self, name: str, variant: Optional[str] = None) -> bool:
        """Whether the port declared ``name`` (or its ``variant``) unsupported."""
        return name in self.entries or (variant is not None and f"{name}:{variant}" in self.entries)

    def reason(self, name: str, variant: Optional[str] = None) -> str:
        """The message of a skip: the entry that covers it and its reason."""
        entry = name if name in self.entries else f"{name}:{variant}"
        why = self.entries.get(entry, "")
        return f"declared unsupported by the port ({GAPS_ATTRIBUTE}: {entry!r}{': ' + why if why else ''})"

    def invalid(self) -> list[str]:
        """Entries that name no declared port function (each with the nearest declared name)."""
        out = []
        for entry in self.entries:
            name = entry.split(":", 1)[0]
            if name not in _NAMES:
                out.append(f"{entry!r}{_nearest(name)}")
        return out

    def __bool__(self) -> bool:
        return bool(self.entries)


def declared_gaps(port: Optional[object]) -> Gaps:
    """The gaps a port declares in its :data:`GAPS_ATTRIBUTE` (none when it has no such attribute).

    Parameters
    ----------
    port : module or object or None
        The port (None: a results file, whose gaps come from the file).

    Returns
    -------
    Gaps
        Its declared gaps.

    Raises
    ------
    TypeError
        If the attribute is not a list, tuple, set or mapping of strings.

    Examples
    --------
    >>> import types
    >>> port = types.ModuleType("p")
    >>> port.UNSUPPORTED = ["peeling", "gem_sample"]
    >>> sorted(declared_gaps(port).entries)
    ['gem_sample', 'peeling']
    """
    raw = getattr(port, GAPS_ATTRIBUTE, None) if port is not None else None
    return gaps_from(raw)


def gaps_from(raw: Any) -> Gaps:
    """:class:`Gaps` from a list of entries or a ``{entry: reason}`` mapping (None: no gaps).

    Examples
    --------
    >>> gaps_from({"phi": "uses the reference"}).reason("phi")
    "declared unsupported by the port (UNSUPPORTED: 'phi': uses the reference)"
    """
    if raw is None:
        return Gaps({})
    if isinstance(raw, Mapping):
        return Gaps(dict(raw))
    if isinstance(raw, (list, tuple, set, frozenset)):
        return Gaps({entry: "" for entry in raw})
    raise TypeError(f"{GAPS_ATTRIBUTE} must be a list of port function names or a mapping to reasons, got {raw!r}")


def _nearest(name: str) -> str:
    close = difflib.get_close_matches(name, sorted(_NAMES), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def public_names(port: object) -> list[str]:
    """The port's public callables: ``__all__`` when it has one, else the functions defined in the port itself.

    Imported modules, classes and callables defined elsewhere (``math.sqrt``) are not the port's names, except
    the declared port functions themselves (an adapter may re-export them).

    Examples
    --------
    >>> import examples.numpy_port as port
    >>> "expected_phi" in public_names(port), "sqrt" in public_names(port)
    (True, False)
    """
    exported = getattr(port, "__all__", None)
    if exported is not None:
        return sorted(str(n) for n in exported if callable(getattr(port, str(n), None)))
    own = getattr(port, "__name__", None)
    out = []
    for name, value in vars(port).items() if hasattr(port, "__dict__") else ():
        if name.startswith("_") or inspect.ismodule(value) or inspect.isclass(value) or not callable(value):
            continue
        if name in _NAMES or getattr(value, "__module__", None) == own:
            out.append(name)
    return sorted(out)


def unknown_names(port: object) -> list[str]:
    """The port's public callables that are not port functions, each with the nearest declared name.

    Examples
    --------
    >>> import types
    >>> port = types.ModuleType("p")
    >>> exec("def expectedphi(a, b): return 0.0", port.__dict__)
    >>> unknown_names(port)
    ["'expectedphi' (did you mean 'expected_phi'?)"]
    """
    return [f"{n!r}{_nearest(n)}" for n in public_names(port) if n not in _NAMES]


def coverage_summary(records: Iterable[Mapping[str, Any]], unknown: Iterable[str] = ()) -> dict[str, list[str]]:
    """The port functions checked (at least one check ran), skipped (declared gaps only) and the unknown names.

    Parameters
    ----------
    records : iterable of dict
        What :func:`.kit.run_kit` returned.
    unknown : iterable of str
        :func:`unknown_names` of the port.

    Returns
    -------
    dict
        ``checked``, ``skipped`` (functions with no check that ran) and ``unknown``, each sorted.

    Examples
    --------
    >>> coverage_summary([{"function": "phi", "status": "passed"}, {"function": "psi", "status": "skipped"}])
    {'checked': ['phi'], 'skipped': ['psi'], 'unknown': []}
    """
    ran: set[str] = set()
    seen: set[str] = set()
    for r in records:
        seen.add(r["function"])
        if r["status"] in ("passed", "failed") and not r.get("coverage_only"):
            ran.add(r["function"])
    return {"checked": sorted(ran), "skipped": sorted(seen - ran), "unknown": sorted(unknown)}
