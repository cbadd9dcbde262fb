"""The draw-file protocol: a port in any language writes its samplers' draws to a file and the kit tests them.

``python -m proofs_checks conform --draw-instances FILE [--size small]`` writes every sampler's instance (its
keyword arguments in the golden encoding) and the number of draws the tests need; the port runs each sampler
on it and writes

.. code-block:: json

    {"schema": "heavytail-draws/1", "unsupported": ["peeling"],
     "draws": [{"function": "exponential_sample", "output": {"i64": [3, 0, 2]}},
               {"function": "peeling", "output": [{"f64": [[0.41, -1.3]]}, {"i64": [[2, 0]]}]}]}

(``output`` is what the sampler returns for ``size = draws``, one draw per row; Peeling returns its
``(values, selected)`` pair).  ``conform --draws FILE`` then runs the same distributional tests as on a Python
port (:mod:`.samplers`) on those draws.  The rng contract cannot be checked from a file (it needs calls with
chosen seeds) and neither can the privacy audits; a file's draws must come from a seeded generator of the
port's own and must not be reused between samplers.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Mapping, Union

import numpy as np

from ..golden.encoding import decode, encode
from .coverage import gaps_from
from .functions import sampler_functions
from .samplers import INSTANCES, SAMPLER_CHECKS, SIZES

__all__ = ["DRAWS_SCHEMA", "instances_document", "load_draws", "ReplayPort"]

#: The schema id of a draw file.
DRAWS_SCHEMA = "heavytail-draws/1"

_RNG_NOTE = "draw from a seeded generator of your own; never reuse draws between samplers"


def _draws_needed(name: str, sizes: Mapping[str, int]) -> int:
    kind = SAMPLER_CHECKS[name][0]
    n = sizes[kind]
    if name == "laplace_mechanism":
        return max(n // INSTANCES[name]["value"].size, 1)
    return n


def instances_document(size: Union[str, Mapping[str, int]] = "default") -> dict:
    """Every sampler's instance and the draws its tests need, in the golden encoding.

    Parameters
    ----------
    size : {"default", "small"} or mapping
        The kit's size (``SIZES``).

    Returns
    -------
    dict
        ``{"schema", "size", "instances": [{"function", "signature", "kwargs", "draws"}], "note"}``.

    Examples
    --------
    >>> doc = instances_document("small")
    >>> [(i["function"], i["draws"]) for i in doc["instances"]][:2]
    [('laplace_mechanism', 1666), ('report_noisy_max', 200000)]
    """
    sizes = SIZES[size] if isinstance(size, str) else size
    out = []
    for f in sampler_functions():
        out.append(
            {
                "function": f.name,
                "signature": f.signature,
                "kwargs": encode(dict(INSTANCES[f.name])),
                "draws": _draws_needed(f.name, sizes),
            }
        )
    return {
        "schema": DRAWS_SCHEMA,
        "size": size if isinstance(size, str) else dict(size),
        "instances": out,
        "note": _RNG_NOTE,
    }


def load_draws(path: Union[str, os.PathLike]) -> tuple[dict[str, Any], Any]:
    """``({function: decoded output}, gaps)`` from a draw file.

    Parameters
    ----------
    path : str or os.PathLike
        A draw file (``{"schema": "heavytail-draws/1", "draws": [...], "unsupported": [...]}``).

    Returns
    -------
    tuple
        ``{sampler: its decoded draws}`` and the declared gaps (:class:`.coverage.Gaps`).

    Raises
    ------
    ValueError
        If the schema is not :data:`DRAWS_SCHEMA`, an entry lacks ``function`` or ``output``, or a function
        appears twice or is not a declared sampler.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "draws.json"
    >>> _ = path.write_text(json.dumps({"schema": DRAWS_SCHEMA,
    ...     "draws": [{"function": "report_noisy_max", "output": {"i64": [2, 2, 1]}}]}))
    >>> draws, gaps = load_draws(path)
    >>> draws["report_noisy_max"].tolist()
    [2, 2, 1]
    """
    doc = json.loads(Path(path).read_text(encoding="utf-8"))
    if doc.get("schema") != DRAWS_SCHEMA:
        raise ValueError(f"{path}: schema must be {DRAWS_SCHEMA!r}, got {doc.get('schema')!r}")
    names = {f.name for f in sampler_functions()}
    draws: dict[str, Any] = {}
    for k, entry in enumerate(doc.get("draws", [])):
        if not isinstance(entry, dict) or "function" not in entry or "output" not in entry:
            raise ValueError(f"{path}: draws[{k}] must have 'function' and 'output'")
        name = entry["function"]
        if name not in names:
            raise ValueError(f"{path}: draws[{k}]: {name!r} is not a declared sampler (docs/porting.md)")
        if name in draws:
            raise ValueError(f"{path}: draws[{k}]: {name!r} appears twice")
        draws[name] = decode(entry["output"])
    return draws, gaps_from(doc.get("unsupported"))


class ReplayPort:
    """A port whose samplers return the draws of a file, in order, whatever ``rng`` they are given.

    Parameters
    ----------
    draws : mapping
        ``{sampler: output}`` (:func:`load_draws`).

    Raises
    ------
    ValueError
        (from a sampler call) when the kit asks for more draws than the file holds.

    Examples
    --------
    >>> port = ReplayPort({"report_noisy_max": np.array([2, 2, 1])})
    >>> port.report_noisy_max(None, None, 2, None).tolist(), port.report_noisy_max(None, None, 1, None).tolist()
    ([2, 2], [1])
    """

    def __init__(self, draws: Mapping[str, Any]) -> None:
        self._draws = dict(draws)
        self._used = {name: 0 for name in draws}

    def __getattr__(self, name: str):
        if name.startswith("_") or name not in self._draws:
            raise AttributeError(name)

        def replay(*args, size=None, **kwargs):
            n = size if size is not None else args[-2] if len(args) >= 2 else None
            if n is None:
                raise ValueError(f"{name}: the kit asked for draws without a size")
            start, out = self._used[name], self._draws[name]
            parts = out if isinstance(out, (list, tuple)) else [out]
            total = len(parts[0])
            if start + n > total:
                raise ValueError(
                    f"{name}: the draw file holds {total} draws, the kit's test needs {start + n} "
                    "(write as many as --draw-instances lists)"
                )
            self._used[name] = start + n
            sliced = [np.asarray(p)[start : start + n] for p in parts]
            return tuple(sliced) if isinstance(out, (list, tuple)) else sliced[0]

        return replay
