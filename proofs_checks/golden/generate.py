"""Write every golden file: ``python -m proofs_checks golden --out DIR``.

Each subject module (``catoni_cases``, ``wang_xu_cases``, ``hu_cases``, ``mechanisms_cases``) gives
``SUBJECT``, ``DESCRIPTION``, ``REFERENCE_PRECISION``, ``build(seed) -> cases`` and optionally ``PORTABLE`` (the
functions whose expected values are the same bits on every CPU, docs/reproducibility.md); the file
``<SUBJECT>.json`` holds them with the provenance block.  The inputs are drawn from
``numpy.random.default_rng(SEED + offset)``, so regenerating gives the same bytes except for the
provenance fields listed in :data:`.encoding.VOLATILE_PROVENANCE` and, on another CPU, the last bits of the
values that are not ``PORTABLE`` (within the conformance kit's tolerances: ``tests/test_golden.py``).  The
cases of a subject must cover exactly the port functions declared for it in
``proofs_checks/conform/functions.py`` (:func:`check_coverage`).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from ..conform.functions import golden_functions
from . import catoni_cases, hu_cases, mechanisms_cases, wang_xu_cases
from .encoding import dump, provenance

__all__ = ["SEED", "SUBJECTS", "SCHEMA_FILE", "write_all", "check_coverage"]

#: Base seed of the random inputs (offset by the subject's position).
SEED = 20260415

SUBJECTS = (catoni_cases, wang_xu_cases, hu_cases, mechanisms_cases)

#: The JSON Schema of the golden files, shipped beside them.
SCHEMA_FILE = Path(__file__).with_name("schema.json")


def check_coverage(subject, cases):
    """Raise unless ``cases`` cover exactly the port functions declared for ``subject``, each in its kind.

    The declaration (:data:`proofs_checks.conform.functions.FUNCTIONS`) names the golden file of each function
    and how its cases compare (``values``, ``rows`` or ``law``); a case of an undeclared function, a declared
    function without a case, or a case compared otherwise would leave a port function unchecked.

    Parameters
    ----------
    subject : str
        The golden file's subject (``catoni``, ``wang_xu``, ``hu``, ``mechanisms``).
    cases : list of dict
        The cases its builder made (:func:`.cases.case`).

    Raises
    ------
    ValueError
        Naming the functions undeclared, uncovered or compared in another mode.

    Examples
    --------
    >>> from proofs_checks.golden.cases import case
    >>> check_coverage("catoni", [case("phi/one", "phi", [1.0], 0.8333333333333334)])
    Traceback (most recent call last):
    ...
    ValueError: cases of catoni must cover exactly its declared port functions: not covered \
['c_hat', 'expected_phi', 'robust_gradient', 'robust_mean']
    """
    declared = {f.name: f.kind for f in golden_functions(subject)}
    made = {c["function"] for c in cases}
    problems = []
    if made - set(declared):
        problems.append(f"undeclared for this subject {sorted(made - set(declared))}")
    if set(declared) - made:
        problems.append(f"not covered {sorted(set(declared) - made)}")
    wrong = sorted(
        {
            f"{c['id']} ({c['compare']}, declared {declared[c['function']]})"
            for c in cases
            if c["function"] in declared and c["compare"] != declared[c["function"]]
        }
    )
    if wrong:
        problems.append(f"compared otherwise than declared {wrong}")
    if problems:
        raise ValueError(f"cases of {subject} must cover exactly its declared port functions: " + "; ".join(problems))


def write_all(out_dir, *, command="python -m proofs_checks golden --out DIR", only=None):
    """Write ``<subject>.json`` for every subject (or those in ``only``) and ``schema.json``; return the paths.

    Raises
    ------
    ValueError
        If a subject's cases do not cover exactly its declared port functions (:func:`check_coverage`).
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for offset, mod in enumerate(SUBJECTS):
        if only and mod.SUBJECT not in only:
            continue
        seed = SEED + offset
        prov = provenance(
            command=command, seed=seed, reference_precision=mod.REFERENCE_PRECISION, generator=mod.__name__
        )
        path = out / f"{mod.SUBJECT}.json"
        cases = mod.build(seed)
        check_coverage(mod.SUBJECT, cases)
        dump(path, subject=mod.SUBJECT, description=mod.DESCRIPTION, prov=prov, cases=cases)
        paths.append(path)
    shutil.copyfile(SCHEMA_FILE, out / "schema.json")
    json.loads((out / "schema.json").read_text())
    return paths + [out / "schema.json"]
