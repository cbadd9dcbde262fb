"""Run the whole kit on a port: golden cases, samplers, privacy audits; summary and exit status."""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
from pathlib import Path
from types import ModuleType
from typing import Any, Collection, Iterable, Mapping, Optional, Union

from .coverage import GAPS_ATTRIBUTE, Gaps, declared_gaps, gaps_from
from .deterministic import load_results, run_deterministic
from .drawfile import ReplayPort, load_draws
from .functions import FUNCTIONS
from .privacy import run_privacy
from .rng_contract import run_rng_contract
from .samplers import SIZES, run_samplers

__all__ = ["load_port", "run_kit", "run_draw_file", "summarise", "exit_status", "results_from_file", "results_gaps"]

_NOT_PROVIDED = ("not provided by the port", "no result for this case")  # the runners' words for a gap


class _PortView:
    """The port with its declared-unsupported functions hidden (the kit skips them even if the port has them)."""

    def __init__(self, port, hidden):
        self._port, self._hidden = port, frozenset(hidden)

    def __getattr__(self, name):
        if name in self._hidden:
            raise AttributeError(name)
        return getattr(self._port, name)


def _apply_gaps(records, gaps, mode):
    """Skips stand only for declared gaps: an undeclared missing function fails, naming the attribute to set."""
    out = []
    for r in records:
        if r["status"] == "skipped" and r.get("message") in _NOT_PROVIDED:
            name = r["function"]
            if gaps.covers(name):
                r = dict(r, message=gaps.reason(name))
            else:
                where = f"list it in the port's {GAPS_ATTRIBUTE}" if mode == "port" else "list it under 'unsupported'"
                if mode == "draws":
                    r = dict(r, message="no draws in the file")
                r = dict(
                    r,
                    status="failed",
                    coverage_only=True,
                    message=f"{name} [{r['case']}]: {r['message']}, and not declared unsupported ({where} to skip it)",
                )
        out.append(r)
    for entry in gaps.invalid():
        out.append(
            {
                "kind": "coverage",
                "function": entry.split("'")[1].split(":")[0],
                "case": GAPS_ATTRIBUTE,
                "status": "failed",
                "coverage_only": True,
                "message": f"{GAPS_ATTRIBUTE} names {entry}, which is not a declared port function",
            }
        )
    return out


def load_port(spec: str) -> ModuleType:
    """Import a port from a module name or a path to a ``.py`` file.

    Parameters
    ----------
    spec : str
        A module name (``examples.numpy_port``) or the path of a ``.py`` file.

    Returns
    -------
    module
        The port: functions named as declared in :mod:`.functions` (``docs/porting.md``).

    Raises
    ------
    TypeError
        If ``spec`` is not a non-empty string.
    ValueError
        If the file does not exist or the module cannot be imported.

    Examples
    --------
    >>> load_port("proofs_checks.conform.reference_port").__name__
    'proofs_checks.conform.reference_port'
    """
    if not isinstance(spec, str) or not spec:
        raise TypeError(f"spec must be a module name or a .py path, got {spec!r}")
    if spec.endswith(".py") or Path(spec).is_file():
        path = Path(spec)
        if not path.is_file():
            raise ValueError(f"--port {spec!r}: no such file")
        mod_spec = importlib.util.spec_from_file_location(path.stem, path)
        if mod_spec is None or mod_spec.loader is None:
            raise ValueError(f"--port {spec!r}: not a Python module (no loader for this file)")
        module = importlib.util.module_from_spec(mod_spec)
        mod_spec.loader.exec_module(module)
        return module
    try:
        return importlib.import_module(spec)
    except ImportError as exc:
        raise ValueError(f"--port {spec!r}: cannot import the module ({exc})") from None


class KitResult(list):
    """What :func:`run_kit` returns: the list of check records, with :meth:`summary` and :meth:`exit_status`.

    A list (one dict per check, as before) so that JSON output and existing callers are unchanged.

    Parameters
    ----------
    iterable : iterable of dict, optional
        The check records (each with ``function`` and ``status``, and ``message`` when failed or skipped).

    Examples
    --------
    >>> res = KitResult([{"function": "phi", "status": "passed"}, {"function": "laplace_scale", "status": "failed",
    ...                  "message": "laplace_scale [laplace_scale/1,1]: 2.0 != 1.0"}])
    >>> print(res.summary())
    conformance: fails (1 of 2 functions failed, 0 skipped; 2 checks)
      failed    laplace_scale: 1 of 1 checks failed; first: laplace_scale [laplace_scale/1,1]: 2.0 != 1.0
      passed    phi: 1 checks
    >>> res.exit_status()
    1
    """

    def __init__(self, iterable: Iterable[Mapping[str, Any]] = ()) -> None:
        super().__init__(iterable)

    def exit_status(self) -> int:
        """The command's exit status: 1 when a check failed or nothing was checked, else 0."""
        return exit_status(self)

    def summary(self) -> str:
        """One line for the verdict, then one per function (failed first), as a short text table."""
        per_function = summarise(self)
        failed = [name for name, f in per_function.items() if f["status"] == "failed"]
        skipped = [name for name, f in per_function.items() if f["status"] == "skipped"]
        verdict = "conforms" if self.exit_status() == 0 else "fails"
        lines = [
            f"conformance: {verdict} ({len(failed)} of {len(per_function)} functions failed, {len(skipped)} skipped; "
            f"{len(self)} checks)"
        ]
        for name in failed:
            f = per_function[name]
            total = f["passed"] + f["failed"]
            lines.append(f"  failed    {name}: {f['failed']} of {total} checks failed; first: {f['messages'][0]}")
        for name, f in per_function.items():
            if f["status"] == "passed":
                lines.append(f"  passed    {name}: {f['passed']} checks")
        if skipped:
            lines.append(f"  skipped   {', '.join(skipped)}")
        return "\n".join(lines)


def run_kit(
    port: Optional[object] = None,
    *,
    results: Optional[Mapping[str, Any]] = None,
    only: Optional[Collection[str]] = None,
    size: Union[str, Mapping[str, int]] = "default",
    seed: int = 0,
    golden_dir: Union[str, os.PathLike, None] = None,
    samplers: bool = True,
    privacy: bool = True,
    rng_contract: bool = True,
    sequential_stopping: bool = True,
    audit_samples: int = 20_000,
    unsupported: Optional[Union[Gaps, Collection[str], Mapping[str, str]]] = None,
) -> KitResult:
    """Every check of the kit on a port (or on a non-Python port's results): one record per check.

    Parameters
    ----------
    port : module or object, optional
        The port (:func:`load_port`); functions it does not provide are ``skipped``.
    results : mapping, optional
        ``{case id: output}`` a non-Python port computed (:func:`results_from_file`); golden cases only.
    only : collection of str, optional
        Check only these declared port functions.
    size : {"default", "small"} or mapping
        Draws of the sampler tests (``default``: the stated power), or ``{"finite": n, "laplace": n}``.
    seed : int
        Seed of the sampler tests and the audits.
    golden_dir : path, optional
        Golden folder (default: the shipped ``golden/``).
    samplers, privacy, rng_contract : bool
        Whether to run the sampler tests, the privacy audits and the rng contract (a port only).
    sequential_stopping : bool, default True
        Whether the counts tests of the samplers and whole algorithms stop early when clearly wrong or clearly
        right (:mod:`proofs_checks.conform.sequential`: the same overall chance 1e-3 of failing a correct port).
    audit_samples : int
        Calls of the sampler in the statistical audit.
    unsupported : Gaps, list or mapping, optional
        The declared gaps of a results file (:func:`results_gaps`); a port declares its own in its
        ``UNSUPPORTED`` attribute (:mod:`.coverage`).

    Returns
    -------
    KitResult
        A list of dicts (with :meth:`KitResult.summary`): ``kind`` (``golden``, ``sampler``, ``privacy``, ``rng``,
        ``coverage``), ``function``, ``case``, ``status``
        (``passed``, ``failed``, ``skipped``), ``message`` when failed or skipped, and the check's statistics.
        Only declared gaps are ``skipped``: a function neither provided nor declared unsupported ``failed``.

    Raises
    ------
    ValueError
        If ``only`` names a function that is not declared or ``size`` is not a known size.

    Examples
    --------
    >>> import types
    >>> port = types.ModuleType("empty_port")
    >>> [r["status"] for r in run_kit(port, only={"phi"}, samplers=False, privacy=False)]
    ['failed']
    >>> port.UNSUPPORTED = {"phi": "uses the reference's"}
    >>> [r["status"] for r in run_kit(port, only={"phi"}, samplers=False, privacy=False)]
    ['skipped']
    """
    only = set(only) if only else None
    unknown = sorted(only - {f.name for f in FUNCTIONS}) if only else []
    if unknown:
        raise ValueError(f"only must name declared port functions (docs/porting.md), got unknown {unknown}")
    if isinstance(size, str) and size not in SIZES:
        raise ValueError(f"size must be one of {sorted(SIZES)}, got {size!r}")
    if port is not None and unsupported is not None:
        raise ValueError("unsupported is for a results file; a port declares its gaps in its UNSUPPORTED attribute")
    gaps = unsupported if isinstance(unsupported, Gaps) else gaps_from(unsupported)
    if port is not None:
        gaps = declared_gaps(port)
        port = _PortView(port, [e for e in gaps.entries if ":" not in e])
    records = run_deterministic(port, results=results, golden_dir=golden_dir, only=only, gaps=gaps)
    if port is not None and samplers:
        records += run_samplers(port, size=size, seed=seed, only=only, sequential_stopping=sequential_stopping)
    if port is not None and rng_contract:
        records += run_rng_contract(port, seed=seed, only=only)
    if port is not None and privacy:
        records += run_privacy(port, samples=audit_samples, seed=seed, only=only)
    return KitResult(_apply_gaps(records, gaps, "port" if port is not None else "results"))


def run_draw_file(
    path: Union[str, os.PathLike],
    *,
    size: Union[str, Mapping[str, int]] = "default",
    seed: int = 0,
    only: Optional[Collection[str]] = None,
) -> list[dict]:
    """The sampler tests on the draws a port in any language wrote to a draw file (:mod:`.drawfile`).

    Parameters
    ----------
    path : str or os.PathLike
        The draw file (``{"schema": "heavytail-draws/1", "draws": [...], "unsupported": [...]}``).
    size : {"default", "small"} or mapping
        The kit's size: the file must hold at least the draws ``--draw-instances`` lists for it.
    seed : int
        Seed of the reference's own draws (the two-sample tests of [002 Alg. 3, 5]).
    only : collection of str, optional
        Test only these samplers.

    Returns
    -------
    list of dict
        One ``sampler`` record per declared sampler; a sampler neither in the file nor declared unsupported
        ``failed``.

    Raises
    ------
    ValueError
        If the file is not a draw file (see :func:`.drawfile.load_draws`) or ``size`` is unknown.

    Examples
    --------
    >>> import json, tempfile, pathlib, numpy as np
    >>> from proofs_checks.conform.samplers import INSTANCES
    >>> from proofs_checks.golden.encoding import encode
    >>> u = INSTANCES["report_noisy_max"]["scores"]
    >>> picks = np.argmax(u + np.random.default_rng(1).laplace(0.0, 1.0, (200_000, u.size)), axis=1)
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "draws.json"
    >>> _ = path.write_text(json.dumps({"schema": "heavytail-draws/1",
    ...     "draws": [{"function": "report_noisy_max", "output": encode(picks)}]}))
    >>> [r["status"] for r in run_draw_file(path, size="small", only={"report_noisy_max"})]
    ['passed']
    """
    if isinstance(size, str) and size not in SIZES:
        raise ValueError(f"size must be one of {sorted(SIZES)}, got {size!r}")
    draws, gaps = load_draws(path)
    records = run_samplers(ReplayPort(draws), size=size, seed=seed, only=set(only) if only else None)
    return _apply_gaps(records, gaps, "draws")


def summarise(records: Iterable[Mapping[str, Any]]) -> dict[str, dict]:
    """Per function: ``passed`` (every provided check passed), ``failed`` or ``skipped``, with counts.

    Parameters
    ----------
    records : list of dict
        What :func:`run_kit` returned.

    Returns
    -------
    dict
        ``{function: {"status", "passed", "failed", "skipped", "messages"}}`` in the records' order.

    Examples
    --------
    >>> summarise([{"function": "phi", "status": "passed"}, {"function": "phi", "status": "failed",
    ...            "message": "phi [phi/stress]: error 3 ulps > tolerance 2 ulps"}])["phi"]["status"]
    'failed'
    """
    out: dict[str, dict[str, Any]] = {}
    for r in records:
        f = out.setdefault(r["function"], {"passed": 0, "failed": 0, "skipped": 0, "messages": []})
        f[r["status"]] += 1
        if r["status"] == "failed":
            f["messages"].append(r["message"])
    for f in out.values():
        f["status"] = "failed" if f["failed"] else "passed" if f["passed"] else "skipped"
    return out


def exit_status(records: Iterable[Mapping[str, Any]]) -> int:
    """0 when at least one check ran and every check passed (declared gaps are skipped), 1 otherwise.

    Parameters
    ----------
    records : iterable of dict
        What :func:`run_kit` returned (each with a ``status``).

    Returns
    -------
    int
        The exit status of ``python -m proofs_checks conform``: 1 when a record ``failed`` or when nothing
        was checked (every record skipped), else 0.

    Examples
    --------
    >>> exit_status([{"status": "passed"}, {"status": "skipped"}]), exit_status([{"status": "failed"}])
    (0, 1)
    >>> exit_status([{"status": "skipped"}]), exit_status([])
    (1, 1)
    """
    records = list(records)
    if any(r["status"] == "failed" for r in records):
        return 1
    return 0 if any(r["status"] == "passed" and not r.get("coverage_only") for r in records) else 1


def results_from_file(path: Union[str, os.PathLike]) -> dict[str, Any]:
    """``{case id: decoded output}`` from the results file of a non-Python port (see :func:`.load_results`).

    Parameters
    ----------
    path : str or os.PathLike
        A JSON results file in the golden encoding (``docs/porting.md``).

    Returns
    -------
    dict
        The decoded output of each case id.

    Raises
    ------
    ValueError
        If the file has another schema or a result lacks ``id`` or ``output``.

    Examples
    --------
    >>> import json, tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "results.json"
    >>> _ = path.write_text(json.dumps({"schema": "heavytail-golden/1",
    ...                                 "results": [{"id": "laplace_scale/1,1", "output": {"f64": "1.0"}}]}))
    >>> results_from_file(path)
    {'laplace_scale/1,1': 1.0}
    """
    return load_results(path)


def results_gaps(path: Union[str, os.PathLike]) -> Gaps:
    """The gaps a results file declares in its optional ``unsupported`` list (``"name"`` or ``"name:variant"``).

    Parameters
    ----------
    path : str or os.PathLike
        A JSON results file (``docs/porting.md``).

    Returns
    -------
    Gaps
        Its declared gaps (none when the file has no ``unsupported``).

    Raises
    ------
    TypeError
        If ``unsupported`` is not a list of strings or a mapping of strings to reasons.

    Examples
    --------
    >>> import json, tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "results.json"
    >>> _ = path.write_text(json.dumps({"schema": "heavytail-golden/1", "results": [], "unsupported": ["peeling"]}))
    >>> results_gaps(path).covers("peeling")
    True
    """
    doc = json.loads(Path(path).read_text(encoding="utf-8"))
    return gaps_from(doc.get("unsupported"))
