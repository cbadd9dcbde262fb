"""Run the whole kit on a port: golden cases, samplers, privacy audits; summary and exit status."""

from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path

from .deterministic import load_results, run_deterministic
from .privacy import run_privacy
from .samplers import run_samplers

__all__ = ["load_port", "run_kit", "summarise", "exit_status", "results_from_file"]


def load_port(spec):
    """Import a port from a module name (``examples.numpy_port``) or a path to a ``.py`` file."""
    if spec.endswith(".py") or Path(spec).is_file():
        path = Path(spec)
        if not path.is_file():
            raise ValueError(f"--port {spec!r}: no such file")
        mod_spec = importlib.util.spec_from_file_location(path.stem, path)
        module = importlib.util.module_from_spec(mod_spec)
        mod_spec.loader.exec_module(module)
        return module
    try:
        return importlib.import_module(spec)
    except ImportError as exc:
        raise ValueError(f"--port {spec!r}: cannot import the module ({exc})") from None


def run_kit(port=None, *, results=None, only=None, size="default", seed=0, golden_dir=None, samplers=True,
            privacy=True, audit_samples=20_000):
    """All records: ``kind`` (golden, sampler, privacy), ``function``, ``case``, ``status``, ``message``."""
    only = set(only) if only else None
    records = run_deterministic(port, results=results, golden_dir=golden_dir, only=only)
    if port is not None and samplers:
        records += run_samplers(port, size=size, seed=seed, only=only)
    if port is not None and privacy:
        records += run_privacy(port, samples=audit_samples, seed=seed, only=only)
    return records


def summarise(records):
    """Per function: ``passed`` (every provided check passed), ``failed`` or ``skipped``, with counts."""
    out = {}
    for r in records:
        f = out.setdefault(r["function"], {"passed": 0, "failed": 0, "skipped": 0, "messages": []})
        f[r["status"]] += 1
        if r["status"] == "failed":
            f["messages"].append(r["message"])
    for f in out.values():
        f["status"] = "failed" if f["failed"] else "passed" if f["passed"] else "skipped"
    return out


def exit_status(records):
    """0 when everything the port provides conforms (skips never fail), 1 otherwise."""
    return 1 if any(r["status"] == "failed" for r in records) else 0


def results_from_file(path):
    return load_results(path)
