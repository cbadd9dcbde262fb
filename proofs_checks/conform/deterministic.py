"""The port's deterministic functions against the golden vectors (or a results file of a non-Python port)."""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path
from typing import Any, Collection, Mapping, Optional, Union

from ..golden.encoding import SCHEMA_ID, decode, load
from .compare import Mismatch, compare_case
from .coverage import Gaps

__all__ = ["GOLDEN_DIR", "load_cases", "run_deterministic", "load_results"]

#: The shipped golden vectors.
GOLDEN_DIR = Path(__file__).resolve().parents[2] / "golden"


def load_cases(golden_dir: Union[str, os.PathLike, None] = None) -> list[dict]:
    """Every case of every ``*.json`` golden file (decoded), in file order.

    Parameters
    ----------
    golden_dir : path, optional
        The folder of the golden files (default: :data:`GOLDEN_DIR`).

    Returns
    -------
    list of dict
        Each case as stored (``id``, ``function``, ``args``, ``kwargs``, ``compare``, ``expected``, ...) with
        ``file`` and the decoded ``args_decoded``, ``kwargs_decoded`` and ``expected_decoded``.

    Raises
    ------
    ValueError
        If the folder holds no golden file or a file has another schema.

    Examples
    --------
    >>> case = next(c for c in load_cases() if c["id"] == "laplace_scale/1,1")
    >>> case["function"], case["args_decoded"], case["expected_decoded"]
    ('laplace_scale', [1.0, 1.0], 1.0)
    """
    folder = Path(golden_dir) if golden_dir else GOLDEN_DIR
    files = sorted(p for p in folder.glob("*.json") if p.name != "schema.json")
    if not files:
        raise ValueError(f"no golden files (*.json) in {folder}")
    cases = []
    for path in files:
        for c in load(path)["cases"]:
            c = dict(
                c,
                file=path.name,
                args_decoded=decode(c["args"]),
                kwargs_decoded=decode(c["kwargs"]),
                expected_decoded=decode(c["expected"]),
            )
            cases.append(c)
    return cases


def load_results(path: Union[str, os.PathLike]) -> dict[str, Any]:
    """``{case id: decoded output}`` from a results file ``{"schema", "results": [{"id", "output"}]}``.

    Parameters
    ----------
    path : path
        A JSON results file in the golden encoding (``docs/porting.md``).

    Returns
    -------
    dict
        The decoded output of each case id.

    Raises
    ------
    ValueError
        If the schema is not :data:`SCHEMA_ID` or a result lacks ``id`` or ``output``.

    Examples
    --------
    >>> import json, tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "results.json"
    >>> _ = path.write_text(json.dumps({"schema": SCHEMA_ID, "results": [{"id": "phi/stress", "output": 1}]}))
    >>> load_results(path)
    {'phi/stress': 1}
    """
    doc = json.loads(Path(path).read_text(encoding="utf-8"))
    if doc.get("schema") != SCHEMA_ID:
        raise ValueError(f"{path}: schema must be {SCHEMA_ID!r}, got {doc.get('schema')!r}")
    if not isinstance(doc.get("results"), list):
        raise ValueError(f"{path}: 'results' must be a list of {{'id', 'output'}} objects")
    out = {}
    for i, r in enumerate(doc["results"]):
        if not isinstance(r, dict) or "id" not in r or "output" not in r:
            raise ValueError(f"{path}: results[{i}] must have 'id' and 'output', got {r!r:.120}")
        out[r["id"]] = decode(r["output"])
    return out


def _record(function, case, status, message=None, stats=None):
    rec = {"kind": "golden", "function": function, "case": case["id"], "file": case["file"], "status": status}
    if message:
        rec["message"] = message
    if stats:
        rec.update(stats)
    return rec


def run_deterministic(
    port: Optional[object] = None,
    *,
    results: Optional[Mapping[str, Any]] = None,
    golden_dir: Union[str, os.PathLike, None] = None,
    only: Optional[Collection[str]] = None,
    gaps: Optional[Gaps] = None,
) -> list[dict]:
    """One record per golden case: ``passed``, ``failed`` (with the message) or ``skipped``.

    Parameters
    ----------
    port : module or object, optional
        Functions named as declared in :mod:`.functions`; a missing one is ``skipped``.
    results : mapping, optional
        ``{case id: output}`` a non-Python port computed; a missing id is ``skipped``.  Exactly one of
        ``port`` and ``results`` is given.
    golden_dir : path, optional
        The golden folder (default: :data:`GOLDEN_DIR`).
    only : collection of str, optional
        Check only the cases of these functions.
    gaps : Gaps, optional
        The port's declared gaps: a case of a declared ``"name:variant"`` is skipped, not called.

    Returns
    -------
    list of dict
        ``kind`` (``"golden"``), ``function``, ``case``, ``file``, ``status``, ``message`` and the comparison's
        statistics (``max_ulps``, ...).

    Raises
    ------
    ValueError
        If both or neither of ``port`` and ``results`` are given.

    Examples
    --------
    >>> from proofs_checks.conform import reference_port
    >>> [r["status"] for r in run_deterministic(reference_port, only={"phi"})]
    ['passed']
    """
    if (port is None) == (results is None):
        raise ValueError(
            f"give exactly one of port and results, got port={port!r}, "
            f"results={'None' if results is None else 'a mapping'}"
        )
    records = []
    for case in load_cases(golden_dir):
        fn_name = case["function"]
        if only and fn_name not in only:
            continue
        args, kwargs = copy.deepcopy(case["args_decoded"]), copy.deepcopy(case["kwargs_decoded"])
        # a declared "name:x" gap skips the cases of variant=x or reading=x (docs/porting.md, "Readings")
        variant = kwargs.get("variant", kwargs.get("reading")) if isinstance(kwargs, dict) else None
        if gaps is not None and variant is not None and gaps.covers(fn_name, variant):
            records.append(_record(fn_name, case, "skipped", gaps.reason(fn_name, variant)))
            continue
        if results is not None:
            if case["id"] not in results:
                records.append(_record(fn_name, case, "skipped", "no result for this case"))
                continue
            actual = results[case["id"]]
        else:
            fn = getattr(port, fn_name, None)
            if not callable(fn):
                records.append(_record(fn_name, case, "skipped", "not provided by the port"))
                continue
            try:
                actual = fn(*args, **kwargs)
            except Exception as exc:  # the port's failure is a conformance failure, reported with the input
                records.append(
                    _record(fn_name, case, "failed", f"{fn_name} [{case['id']}] raised {type(exc).__name__}: {exc}")
                )
                continue
        try:
            stats = compare_case(case, actual, case["args_decoded"], case["kwargs_decoded"])
        except Mismatch as exc:
            records.append(_record(fn_name, case, "failed", str(exc)))
            continue
        records.append(_record(fn_name, case, "passed", stats=stats))
    return records
