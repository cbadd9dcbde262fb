"""Check (e): an upper bound for all pairs, composing the recorded calls at their declared sensitivities.

Each call is the standard mechanism its law's ``accounting`` (or ``components``) names under the declared
sensitivity: ``("laplace", scale / sensitivity)``, ``("gaussian", sigma / sensitivity)`` or ``("pure", eps)``.
Their privacy loss distributions (dp_accounting) composed give ``eps(delta)`` of the transcript; within the claim
it is ``confirmed`` for the transcript *given the declared sensitivities* (check (b) tests those on pairs, it does
not prove them), above it ``not confirmed`` (an upper bound above the claim is not a refutation).

The composition is that of the sequence of calls of each distinct recorded run (paths whose calls compose to
the same standard mechanisms share one); the largest ``eps(delta)`` over them is reported.  This is the adaptive
composition of the calls the runs made; a run of another length the paths never took is not covered.

References
----------
.. [1] Y. Zhu, J. Dong and Y.-X. Wang, "Optimal accounting of differential privacy via characteristic function",
   AISTATS 2022; the dp_accounting library's privacy loss distributions (Google, "Privacy loss distributions",
   2020; pessimistic discretisation, an upper bound).
.. [2] C. Dwork and A. Roth, "The algorithmic foundations of differential privacy", 2014, Thm. 3.16.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from typing import Any

from .check_result import CONFIRMED, NOT_CONFIRMED, TRANSCRIPT, VACUOUS, GrayBoxCheck

__all__ = ["MAX_SEQUENCES", "call_mechanisms", "composed_epsilon", "composition_check"]

#: Distinct call sequences composed at most (the first ones met, in path order).
MAX_SEQUENCES = 8

#: Relative slack of the comparison with the claim: the sum of the calls' epsilons in float64 may exceed a
#: claim they meet exactly by a few units in the last place.
_RELATIVE_TOLERANCE = 1e-9

#: The value discretisation of the privacy loss distributions (dp_accounting's default).
_DISCRETISATION = 1e-4


def call_mechanisms(call) -> tuple[tuple[str, float], ...] | None:
    """The standard mechanisms a call composes as (``None`` when its law has no accounting)."""
    from reference.mechanisms.recorder import primitive_law

    law = primitive_law(call.primitive)
    components = getattr(law, "components", None)
    if components is not None:
        return tuple((str(kind), float(value)) for kind, value in components(call))
    if law.accounting is None:
        return None
    kind, value = law.accounting(call)
    return ((str(kind), float(value)),)


def _import_pld():
    try:
        from dp_accounting.pld import common, privacy_loss_distribution
    except ImportError as exc:  # an install without the dependency
        raise ImportError("the gray-box composition check needs dp-accounting (pip install dp-accounting)") from exc
    return common, privacy_loss_distribution


def composed_epsilon(mechanisms: Sequence[tuple[str, float]], delta: float) -> float:
    """``eps(delta)`` of the composition of standard mechanisms, by privacy loss distributions.

    Parameters
    ----------
    mechanisms : sequence of (kind, value)
        ``("laplace", scale / sensitivity)``, ``("gaussian", sigma / sensitivity)`` or ``("pure", epsilon)``.
    delta : float
        The delta at which epsilon is read.

    Returns
    -------
    float
        ``inf`` when a mechanism is unbounded (a zero scale at positive sensitivity, an infinite ``pure``).

    Raises
    ------
    ValueError
        If a kind is unknown or a value negative or NaN.

    Examples
    --------
    >>> composed_epsilon([("laplace", 2.0), ("laplace", 2.0)], 0.0)
    1.0
    >>> round(composed_epsilon([("gaussian", 4.0)] * 10, 1e-5), 2)
    3.34
    >>> composed_epsilon([("pure", math.inf)], 1e-5)
    inf
    """
    common, pld = _import_pld()
    counts: Counter[tuple[str, float]] = Counter()
    for kind, value in mechanisms:
        if kind not in ("laplace", "gaussian", "pure"):
            raise ValueError(f"mechanism kind must be 'laplace', 'gaussian' or 'pure', got {kind!r}")
        if math.isnan(value) or value < 0:
            raise ValueError(f"{kind} parameter must be >= 0, got {value!r}")
        if (kind == "pure" and value == 0.0) or (kind != "pure" and math.isinf(value)):
            continue  # a call that costs nothing (declared sensitivity 0)
        if (kind == "pure" and math.isinf(value)) or (kind != "pure" and value == 0.0):
            return math.inf
        counts[(kind, value)] += 1
    if not counts:
        return 0.0
    # every Laplace or pure call has a bounded loss, and bounded losses add (Dwork-Roth Thm. 3.16): exact at
    # delta = 0, where the distributions' discretised tails would read inf, and a valid bound at any delta
    pure_sum = math.fsum(
        count * (value if kind == "pure" else 1.0 / value)
        for (kind, value), count in counts.items()
        if kind != "gaussian"
    )
    bounded = all(kind != "gaussian" for kind, _ in counts)
    if delta == 0.0:
        return pure_sum if bounded else math.inf
    total: Any = None
    for (kind, value), count in sorted(counts.items()):
        if kind == "laplace":
            one = pld.from_laplace_mechanism(value, value_discretization_interval=_DISCRETISATION)
        elif kind == "gaussian":
            one = pld.from_gaussian_mechanism(value, value_discretization_interval=_DISCRETISATION)
        else:
            one = pld.from_privacy_parameters(
                common.DifferentialPrivacyParameters(value, 0.0), value_discretization_interval=_DISCRETISATION
            )
        block = one.self_compose(count) if count > 1 else one
        total = block if total is None else total.compose(block)
    epsilon = float(total.get_epsilon_for_delta(delta))
    return min(epsilon, pure_sum) if bounded else epsilon


def composition_check(runs: Sequence[tuple[str, int, Sequence]], *, epsilon: float, delta: float) -> GrayBoxCheck:
    """Verdict of check (e) over the recorded runs.

    Parameters
    ----------
    runs : sequence of (direction, path, calls)
        The recorded calls of each path.
    epsilon, delta : float
        The claim.

    Returns
    -------
    GrayBoxCheck
        ``confirmed`` (composed ``eps(delta) <= epsilon``), ``not confirmed``, or ``vacuous`` when some call
        has no accounting or no call was made.
    """
    sequences: dict[tuple[Any, ...], tuple[str, int, int]] = {}
    for direction, path, calls in runs:
        mechanisms: list[Any] = []
        for call in calls:
            found = call_mechanisms(call)
            if found is None:
                summary = f"call {call.index} ({call.primitive}) at {call.site or '?'} has no accounting: no bound"
                return GrayBoxCheck("composition", VACUOUS, summary, TRANSCRIPT, {"index": call.index})
            mechanisms.extend(found)
        key = tuple(mechanisms)
        if key not in sequences and len(sequences) < MAX_SEQUENCES:
            sequences[key] = (direction, path, len(calls))
    if not sequences or all(not key for key in sequences):
        return GrayBoxCheck("composition", VACUOUS, "no primitive call was recorded", TRANSCRIPT, {})
    worst_eps, worst_key = max((composed_epsilon(key, delta), key) for key in sequences)
    direction, path, n_calls = sequences[worst_key]
    kinds = Counter(kind for kind, _ in worst_key)
    witness = {
        "epsilon_upper": worst_eps,
        "epsilon": epsilon,
        "delta": delta,
        "calls": n_calls,
        "mechanisms": dict(kinds),
        "sequences": len(sequences),
        "direction": direction,
        "path": path,
    }
    numbers = (
        f"composed eps({delta:g}) = {worst_eps:.6g} over {len(worst_key)} mechanism(s) of {n_calls} call(s) "
        f"({direction}, path {path}; {len(sequences)} distinct sequence(s)) vs claimed epsilon {epsilon:g}"
    )
    if worst_eps <= epsilon * (1.0 + _RELATIVE_TOLERANCE):
        return GrayBoxCheck(
            "composition",
            CONFIRMED,
            f"{numbers}: within the claim for the transcript given the declared sensitivities",
            TRANSCRIPT,
            witness,
        )
    return GrayBoxCheck(
        "composition", NOT_CONFIRMED, f"{numbers}: the upper bound exceeds the claim", TRANSCRIPT, witness
    )
