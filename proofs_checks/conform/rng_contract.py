"""The rng contract of the port's samplers: its randomness comes from ``rng`` and from nothing else.

Every sampler takes ``(..., size, rng)`` with ``rng`` a :class:`numpy.random.Generator`.  The kit checks, on the
sampler's instance of :data:`.samplers.INSTANCES` with :data:`DRAWS` draws per call:

* **same seed, same outputs**: two generators seeded alike give identical draws (reproducibility);
* **different seeds, different outputs**: the draws depend on ``rng`` (a port that ignores it and seeds a
  constant of its own fails here);
* **no global state**: numpy's legacy stream (``numpy.random.get_state``) and the ``random`` module's state are
  the same after the calls as before (a port drawing from the global stream fails here and on the first check);
* **fresh noise per call**: two consecutive calls with one generator give different draws (a port that
  re-seeds from the generator's seed, or a fixed seed, on every call fails here).

A correct sampler fails a check only if two independent sets of :data:`DRAWS` draws coincide: at most
``max_p ** DRAWS`` for finite outputs whose likeliest outcome has probability ``max_p`` (below ``0.6 ** 64 <
1e-14`` on the kit's instances), zero for continuous outputs.
"""

from __future__ import annotations

import pickle
import random
from typing import Any, Callable, Collection, Optional

import numpy as np

from .algorithms import ALGORITHM_INSTANCES
from .algorithms_sparse import SPARSE_INSTANCES
from .functions import sampler_functions
from .samplers import INSTANCES

__all__ = ["DRAWS", "RNG_CALLS", "run_rng_contract"]

#: Draws per call of a sampler in the contract's checks.
DRAWS = 64


def _call_laplace(port, rng):
    i = INSTANCES["laplace_mechanism"]
    return port.laplace_mechanism(i["value"], i["sensitivity"], i["epsilon"], DRAWS, rng)


def _call_rnm(port, rng):
    i = INSTANCES["report_noisy_max"]
    return port.report_noisy_max(i["scores"], i["scale"], DRAWS, rng)


def _call_exp(port, rng):
    i = INSTANCES["exponential_sample"]
    return port.exponential_sample(i["scores"], i["epsilon"], i["sensitivity"], DRAWS, rng)


def _call_gem(port, rng):
    i = INSTANCES["gem_sample"]
    return port.gem_sample(i["sensitivities"], i["scores"], i["epsilon"], i["beta"], DRAWS, rng)


def _call_peeling(port, rng):
    i = INSTANCES["peeling"]
    return port.peeling(i["v"], i["s"], i["epsilon"], i["delta"], i["lam"], DRAWS, rng)


def _algorithm_call(name, instances):
    def call(port, rng):
        return getattr(port, name)(**instances[name], size=DRAWS, rng=rng)

    return call


#: ``{sampler: call(port, rng) -> draws}``: how the contract calls each declared sampler.
RNG_CALLS: dict[str, Callable] = {
    "laplace_mechanism": _call_laplace,
    "report_noisy_max": _call_rnm,
    "exponential_sample": _call_exp,
    "gem_sample": _call_gem,
    "peeling": _call_peeling,
    **{name: _algorithm_call(name, ALGORITHM_INSTANCES) for name in ALGORITHM_INSTANCES},
    **{name: _algorithm_call(name, SPARSE_INSTANCES) for name in SPARSE_INSTANCES},
}


def _as_arrays(out):
    parts = out if isinstance(out, (tuple, list)) else (out,)
    return [np.asarray(p) for p in parts]


def _same(a, b):
    a, b = _as_arrays(a), _as_arrays(b)
    return len(a) == len(b) and all(x.shape == y.shape and np.array_equal(x, y) for x, y in zip(a, b))


def _global_state():
    return pickle.dumps(np.random.get_state()), pickle.dumps(random.getstate())


def check_rng_contract(call: Callable, port: object, seeds: tuple[int, int]) -> tuple[bool, Optional[str], dict]:
    """``(ok, message, detail)`` of the four checks of the contract for one sampler.

    Parameters
    ----------
    call : callable
        ``call(port, rng) -> draws`` (an entry of :data:`RNG_CALLS`).
    port : module or object
        The port.
    seeds : tuple of int
        Two different seeds.

    Returns
    -------
    ok : bool
        False when a check fails.
    message : str or None
        The failed check, in words.
    detail : dict
        Each check's outcome (``same_seed``, ``different_seeds``, ``global_state``, ``fresh_per_call``).

    Examples
    --------
    >>> import types
    >>> port = types.ModuleType("p")
    >>> port.report_noisy_max = lambda u, b, size, rng: np.argmax(
    ...     u + np.random.default_rng(0).laplace(0, b, (size, len(u))), axis=1)
    >>> ok, message, _ = check_rng_contract(_call_rnm, port, (1, 2))
    >>> ok, message.split(":")[0]
    (False, 'different seeds, different outputs')
    """
    before = _global_state()
    first = call(port, np.random.default_rng(seeds[0]))
    again = call(port, np.random.default_rng(seeds[0]))
    other = call(port, np.random.default_rng(seeds[1]))
    gen = np.random.default_rng(seeds[1])
    call_1, call_2 = call(port, gen), call(port, gen)
    after = _global_state()
    detail = {
        "draws_per_call": DRAWS,
        "same_seed": _same(first, again),
        "different_seeds": not _same(first, other),
        "global_state": before == after,
        "fresh_per_call": not _same(call_1, call_2),
    }
    if not detail["same_seed"]:
        return False, "same seed, same outputs: two generators seeded alike gave different draws", detail
    if not detail["different_seeds"]:
        return (
            False,
            (
                f"different seeds, different outputs: seeds {seeds[0]} and {seeds[1]} gave the same {DRAWS} "
                "draws (rng is ignored)"
            ),
            detail,
        )
    if not detail["global_state"]:
        names = ("numpy.random's legacy stream", "the random module's state")
        moved = [w for w, x, y in zip(names, before, after) if x != y]
        return False, f"no global state: the calls changed {' and '.join(moved)}", detail
    if not detail["fresh_per_call"]:
        return (
            False,
            (
                f"fresh noise per call: two consecutive calls with one generator gave the same {DRAWS} draws "
                "(a seed re-used on every call)"
            ),
            detail,
        )
    return True, None, detail


def run_rng_contract(port: object, *, seed: int = 0, only: Optional[Collection[str]] = None) -> list[dict]:
    """One record per declared sampler: the rng contract ``passed``, ``failed`` (which check) or ``skipped``.

    Parameters
    ----------
    port : module or object
        The port; a sampler it does not provide is ``skipped``.
    seed : int
        Seed the two seeds of the checks are derived from.
    only : collection of str, optional
        Check only these samplers.

    Returns
    -------
    list of dict
        ``kind`` (``"rng"``), ``function``, ``case``, ``status``, ``message`` and ``detail``.

    Raises
    ------
    ValueError
        If a declared sampler has no call in :data:`RNG_CALLS`.

    Examples
    --------
    >>> import examples.numpy_port as port
    >>> [r["status"] for r in run_rng_contract(port, only={"peeling"})]
    ['passed']
    """
    records = []
    for k, function in enumerate(sampler_functions()):
        name = function.name
        if only and name not in only:
            continue
        if name not in RNG_CALLS:
            raise ValueError(f"the sampler {name!r} is declared but RNG_CALLS has no call for it")
        rec: dict[str, Any] = {"kind": "rng", "function": name, "case": f"{name}/rng"}
        if not callable(getattr(port, name, None)):
            records.append(dict(rec, status="skipped", message="not provided by the port"))
            continue
        s = np.random.SeedSequence([int(seed), 16, k]).generate_state(2)
        seeds = (int(s[0]), int(s[1]))
        try:
            ok, msg, detail = check_rng_contract(RNG_CALLS[name], port, seeds)
        except Exception as exc:
            records.append(
                dict(rec, status="failed", message=f"{name}: rng contract: raised {type(exc).__name__}: {exc}")
            )
            continue
        rec["detail"] = detail
        records.append(
            dict(rec, status="passed") if ok else dict(rec, status="failed", message=f"{name}: rng contract, {msg}")
        )
    return records
