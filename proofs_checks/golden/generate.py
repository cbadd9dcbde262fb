"""Write every golden file: ``python -m proofs_checks golden --out DIR``.

Each subject module (``catoni_cases``, ``wang_xu_cases``, ``hu_cases``, ``mechanisms_cases``) gives
``SUBJECT``, ``DESCRIPTION``, ``REFERENCE_PRECISION``, ``build(seed) -> cases`` and optionally ``PORTABLE`` (the
functions whose expected values are the same bits on every CPU, docs/reproducibility.md); the file
``<SUBJECT>.json`` holds them with the provenance block.  The inputs are drawn from
``numpy.random.default_rng(SEED + offset)``, so regenerating gives the same bytes except for the
provenance fields listed in :data:`.encoding.VOLATILE_PROVENANCE` and, on another CPU, the last bits of the
values that are not ``PORTABLE`` (within the conformance kit's tolerances: ``tests/test_golden.py``).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from . import catoni_cases, hu_cases, mechanisms_cases, wang_xu_cases
from .encoding import dump, provenance

__all__ = ["SEED", "SUBJECTS", "SCHEMA_FILE", "write_all"]

#: Base seed of the random inputs (offset by the subject's position).
SEED = 20260415

SUBJECTS = (catoni_cases, wang_xu_cases, hu_cases, mechanisms_cases)

#: The JSON Schema of the golden files, shipped beside them.
SCHEMA_FILE = Path(__file__).with_name("schema.json")


def write_all(out_dir, *, command="python -m proofs_checks golden --out DIR", only=None):
    """Write ``<subject>.json`` for every subject (or those in ``only``) and ``schema.json``; return the paths."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for offset, mod in enumerate(SUBJECTS):
        if only and mod.SUBJECT not in only:
            continue
        seed = SEED + offset
        prov = provenance(command=command, seed=seed, reference_precision=mod.REFERENCE_PRECISION,
                          generator=mod.__name__)
        path = out / f"{mod.SUBJECT}.json"
        dump(path, subject=mod.SUBJECT, description=mod.DESCRIPTION, prov=prov, cases=mod.build(seed))
        paths.append(path)
    shutil.copyfile(SCHEMA_FILE, out / "schema.json")
    json.loads((out / "schema.json").read_text())
    return paths + [out / "schema.json"]
