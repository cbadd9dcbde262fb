"""A helper for the notebooks: run some claims and show why each got its verdict, with its figures."""

from __future__ import annotations

import tempfile
from pathlib import Path

__all__ = ["run_and_show"]

_REGISTRY = []  # the default registry, built once per kernel


def run_and_show(*claim_ids, profile="quick", registry=None, out_dir=None):
    """Run ``claim_ids`` (the report's default seed), print each verdict line and display its figures.

    Returns ``{claim id: Result}``.  Figures go to ``out_dir`` (a fresh temporary folder by
    default) and are displayed inline when IPython is running.
    """
    from .model import CheckContext
    from .registry import default_registry
    from .report import claim_record, verdict_line
    from .runner import run_claims

    if registry is None:
        if not _REGISTRY:
            _REGISTRY.append(default_registry())
        registry = _REGISTRY[0]
    reg = registry
    out = Path(tempfile.mkdtemp(prefix="notebook-")) if out_dir is None else Path(out_dir)
    ctx = CheckContext(profile=profile, out_dir=out)
    results = {}
    for claim, result in run_claims([reg.claim(c) for c in claim_ids], ctx):
        print(f"{claim.id}  {claim.source}\n  {verdict_line(claim_record(claim, result))}\n")
        for fig in result.figures:
            _display_image(out / fig)
        results[claim.id] = result
    return results


def _display_image(path):
    try:
        from IPython.display import Image, display
    except ImportError:  # outside IPython: the path is enough
        print(f"figure: {path}")
        return
    display(Image(filename=str(path)))
