"""``gray_box_audit``: replay an algorithm on a neighbouring pair with the same randomness, check every call.

The algorithm ``algorithm(data, rng)`` is any callable whose privacy primitives report to the recorder
(:mod:`reference.mechanisms.recorder`: the project's primitives, or a user's declared with ``@primitive`` /
``wrapped_primitive``).  ``paths`` runs on ``D`` (seeds: children of one :class:`numpy.random.SeedSequence`) are
each replayed on ``D'``, and, unless ``reverse=False``, ``paths`` runs on ``D'`` on ``D``.  The five checks:

=================  =============================================================  ================
check              refuted when                                                   covers
=================  =============================================================  ================
control_flow       a replay calls another primitive, with other public arguments  proof premise
                   or another declared privacy / sensitivity / norm
sensitivity        a call's measured input distance exceeds its declared          proof premise
                   sensitivity
calibration        a call's privacy, from the law it sampled at the proof's       proof premise
                   sensitivity, exceeds the proof's per-call budget
law_conformance    the outputs' standardised noise does not follow the recorded   transcript
                   law (Kolmogorov-Smirnov, Bonferroni over primitives)
pair_loss          the lower confidence bound on ``delta_pair(epsilon)`` of the   transcript
                   transcript exceeds the claimed delta
composition        never: ``confirmed`` or ``not confirmed`` (an upper bound)     transcript
=================  =============================================================  ================

References
----------
.. [1] T. Cebere, D. Erb, D. Desfontaines, A. Bellet and J. Fitzsimons, "Re:cord-play: auditing differential
   privacy implementations", PETS 2026 (the dp-recorder package).
.. [2] C. Dwork and A. Roth, "The algorithmic foundations of differential privacy", Found. Trends TCS 9 (2014).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .bounds import BOUNDS
from .calibration import ProofStep, calibration_check
from .check_result import ERROR, PROOF_PREMISE, TRANSCRIPT, GrayBoxCheck
from .composition import composition_check
from .conformance import conformance_check
from .control_flow import control_flow_check
from .neighbour_search import RELATIONS, search_neighbours
from .pair_loss import losses_of, pair_loss_check
from .result import CHECK_NAMES, GrayBoxResult, overall_verdict
from .runs import AlgorithmError, path_seeds, run_path
from .sensitivity import sensitivity_check
from .validation import check_algorithm, check_dataset, check_int, check_real

__all__ = ["gray_box_audit"]

_COVERS = {
    "control_flow": PROOF_PREMISE,
    "sensitivity": PROOF_PREMISE,
    "calibration": PROOF_PREMISE,
    "law_conformance": TRANSCRIPT,
    "pair_loss": TRANSCRIPT,
    "composition": TRANSCRIPT,
}


def _guarded(name, compute):
    """The check's result, or an ``error`` check carrying what it raised (never a verdict on the algorithm)."""
    start = time.perf_counter()
    try:
        check = compute()
    except Exception as exc:
        check = GrayBoxCheck(
            name,
            ERROR,
            f"the check raised {type(exc).__name__}: {exc}",
            _COVERS[name],
            {"exception": type(exc).__name__, "message": str(exc)},
        )
    return GrayBoxCheck(
        check.name, check.verdict, check.summary, check.covers, check.witness, time.perf_counter() - start
    )


def _run_direction(algorithm, data, other, seeds, label, names, progress):
    runs = []
    step = max(1, len(seeds) // 10)
    for path, seed in enumerate(seeds):
        runs.append((label, path, run_path(algorithm, data, other, seed, names)))
        if progress is not None and (path + 1) % step == 0:
            progress(f"{label}: {path + 1}/{len(seeds)} paths")
    return runs


def _check_arguments(
    algorithm,
    D,
    D_prime,
    epsilon,
    delta,
    paths,
    confidence,
    seed,
    neighbours,
    relation,
    search_budget,
    bound,
    checks,
    proof_step,
):
    check_algorithm(algorithm)
    data = check_dataset("D", D)
    if neighbours not in (None, "search"):
        raise ValueError(f"neighbours must be None or 'search', got {neighbours!r}")
    if (D_prime is None) == (neighbours is None):
        raise ValueError("give exactly one of D_prime and neighbours='search'")
    other = None if D_prime is None else check_dataset("D_prime", D_prime)
    check_real("epsilon", epsilon, low=0.0, high=float("inf"), high_open=True)
    check_real("delta", delta, low=0.0, high=1.0, high_open=True)
    check_int("paths", paths, minimum=2)
    check_real("confidence", confidence, low=0.0, high=1.0, low_open=True, high_open=True)
    check_int("seed", seed, minimum=0)
    if relation not in RELATIONS:
        raise ValueError(f"relation must be one of {RELATIONS}, got {relation!r}")
    check_int("search_budget", search_budget, minimum=1)
    if bound not in BOUNDS:
        raise ValueError(f"bound must be one of {BOUNDS}, got {bound!r}")
    if proof_step is not None and not callable(proof_step):
        raise TypeError(f"proof_step must be callable or None, got {proof_step!r}")
    available = CHECK_NAMES if proof_step is not None else tuple(c for c in CHECK_NAMES if c != "calibration")
    selected = available if checks is None else tuple(checks)
    unknown = [name for name in selected if name not in CHECK_NAMES]
    if unknown or not selected or isinstance(checks, str):
        raise ValueError(f"checks must be a non-empty sequence of names from {CHECK_NAMES}, got {checks!r}")
    if "calibration" in selected and proof_step is None:
        raise ValueError("checks names 'calibration', which needs proof_step (the proof's per-call steps)")
    return data, other, selected


def gray_box_audit(
    algorithm: Callable[[Any, np.random.Generator], Any],
    D: ArrayLike,
    D_prime: ArrayLike | None = None,
    *,
    epsilon: float,
    delta: float = 0.0,
    paths: int = 200,
    confidence: float = 0.95,
    seed: int = 0,
    neighbours: str | None = None,
    relation: str = "replace-one",
    search_budget: int = 200,
    bound: str = "bernstein",
    reverse: bool = True,
    checks: Sequence[str] | None = None,
    noise_laws: Mapping[str, Any] | None = None,
    progress: Callable[[str], None] | None = None,
    proof_step: Callable[[Any], ProofStep | None] | None = None,
) -> GrayBoxResult:
    """Gray-box audit of the claim "``algorithm`` is (epsilon, delta)-DP" on one neighbouring pair.

    Parameters
    ----------
    algorithm : callable
        ``algorithm(data, rng)``: its privacy primitives report to the recorder; ``rng`` a numpy Generator.
    D : array_like of real numbers
        The dataset (records are its rows).
    D_prime : array_like of real numbers, optional
        Its neighbour; omit it with ``neighbours="search"``.
    epsilon : float
        The claimed epsilon, ``>= 0``.
    delta : float, default 0
        The claimed delta, in ``[0, 1)``.
    paths : int, default 200
        Paths per direction (``>= 2``).
    confidence : float, default 0.95
        Level of the audit's refutations: ``law_conformance`` and ``pair_loss`` each run at error
        ``(1 - confidence) / 2`` when both run (then within each, Bonferroni over primitives, over directions),
        so a correct algorithm is refuted with probability at most ``1 - confidence``.
    seed : int, default 0
        Root of the audit's :class:`numpy.random.SeedSequence` (same seed, same result).
    neighbours : {None, "search"}
        ``"search"``: ``D_prime`` is :func:`~.neighbour_search.search_neighbours`'s worst neighbour of ``D``.
    relation : {"replace-one", "add-remove"}
        The neighbouring relation of the search.
    search_budget : int, default 200
        Replays the neighbour search may spend.
    bound : {"bernstein", "hoeffding", "clopper-pearson"}
        The lower confidence bound of ``pair_loss`` (:func:`~.bounds.mean_lower_bound`).
    reverse : bool, default True
        Also sample paths on ``D'`` and replay them on ``D``.
    checks : sequence of str, optional
        A subset of ``("control_flow", "sensitivity", "calibration", "law_conformance", "pair_loss",
        "composition")``; by default all of them (``calibration`` only when ``proof_step`` is given).
    noise_laws : mapping, optional
        ``{primitive: scipy.stats name or cdf}``: the standard law of a user's primitive's ``noise``.
    progress : callable, optional
        Called with one-line progress messages (the command line writes them to stderr).
    proof_step : callable, optional
        ``proof_step(call) -> ProofStep | None``: the sensitivity the privacy proof establishes for a recorded
        call's data and the per-call budget it composes, computed from the paper's formulas
        (:class:`~.calibration.ProofStep`); given, the ``calibration`` check compares each call's privacy from the
        law it sampled with it (:func:`~.calibration.calibration_check`).  Absent: that check is not run.

    Returns
    -------
    GrayBoxResult
        The overall verdict and each check's verdict with its witness.

    Raises
    ------
    TypeError
        If ``algorithm`` or ``proof_step`` is not callable, a dataset is not real numbers or a number has the
        wrong type.
    ValueError
        If a value is out of range, both or neither of ``D_prime`` and ``neighbours`` are given, ``checks``
        names ``calibration`` without ``proof_step``, or a call recorded a batch.

    Notes
    -----
    A check that raises gives the verdict ``error``; so does every check when the algorithm itself raises on a
    run (the message names the run).

    References
    ----------
    .. [1] T. Cebere et al., "Re:cord-play", PETS 2026 (replay with forced outputs, control flow, sensitivity);
       the exact privacy loss of the transcript and its composition: C. Dwork and A. Roth, 2014, Sect. 3.5.

    Examples
    --------
    >>> import numpy as np
    >>> from reference.mechanisms import laplace_mechanism
    >>> def noisy_mean(data, rng):
    ...     clipped = np.clip(data, 0.0, 1.0)
    ...     return laplace_mechanism(clipped.mean(), sensitivity=1.0 / len(data), epsilon=1.0, rng=rng)
    >>> D = np.array([0.2, 0.9, 0.4, 0.0]); D_prime = np.array([0.2, 0.9, 0.4, 1.0])
    >>> res = gray_box_audit(noisy_mean, D, D_prime, epsilon=1.0, paths=50)
    >>> res.verdict, res.check("composition").verdict
    ('no violation found', 'confirmed')
    >>> def half_noise(data, rng):
    ...     clipped = np.clip(data, 0.0, 1.0)
    ...     return laplace_mechanism(clipped.mean(), sensitivity=1.0 / len(data), epsilon=2.0, rng=rng)
    >>> gray_box_audit(half_noise, D, D_prime, epsilon=1.0, paths=50).check("pair_loss").verdict
    'refuted'
    """
    start = time.perf_counter()
    data, other, selected = _check_arguments(
        algorithm,
        D,
        D_prime,
        epsilon,
        delta,
        paths,
        confidence,
        seed,
        neighbours,
        relation,
        search_budget,
        bound,
        checks,
        proof_step,
    )
    found = None
    if neighbours == "search":
        if progress is not None:
            progress(f"searching a {relation} neighbour ({search_budget} replays at most)")
        found = search_neighbours(algorithm, data, relation=relation, budget=search_budget, seed=seed)
        data, other = found.D, found.D_prime
    name = getattr(algorithm, "__qualname__", None) or repr(algorithm)
    try:
        runs = _run_direction(algorithm, data, other, path_seeds(seed, paths, 0), "D->D'", ("D", "D'"), progress)
        backward = []
        if reverse:
            backward = _run_direction(
                algorithm, other, data, path_seeds(seed, paths, 1), "D'->D", ("D'", "D"), progress
            )
    except AlgorithmError as exc:
        results = tuple(GrayBoxCheck(c, ERROR, str(exc), _COVERS[c], {"message": str(exc)}) for c in selected)
        return GrayBoxResult(
            name,
            ERROR,
            results,
            float(epsilon),
            float(delta),
            float(confidence),
            paths,
            seed,
            relation,
            np.asarray(data),
            np.asarray(other),
            0,
            time.perf_counter() - start,
            found,
        )
    everything = runs + backward
    rng = np.random.default_rng(path_seeds(seed, 1, 2)[0])
    # the two statistical checks share the error, so a correct algorithm is refuted with probability at most
    # 1 - confidence (control_flow and sensitivity are deterministic, composition never refutes)
    statistical = [c for c in ("law_conformance", "pair_loss") if c in selected]
    level = 1.0 - (1.0 - confidence) / max(len(statistical), 1)
    computations = {
        "control_flow": lambda: control_flow_check(everything),
        "sensitivity": lambda: sensitivity_check(everything),
        "calibration": lambda: calibration_check(everything, proof_step),  # type: ignore[arg-type]  # selected only with it
        "law_conformance": lambda: conformance_check(
            [call for _, _, run in everything for call in run.recorded],
            confidence=level,
            noise_laws=noise_laws,
            rng=rng,
        ),
        "pair_loss": lambda: pair_loss_check(
            {
                label: losses_of([run for lab, _, run in everything if lab == label])
                for label in ("D->D'", "D'->D")
                if any(lab == label for lab, _, _ in everything)
            },
            epsilon=float(epsilon),
            delta=float(delta),
            confidence=level,
            bound=bound,
            rng=rng,
        ),
        "composition": lambda: composition_check(
            [(label, path, run.recorded) for label, path, run in everything],
            epsilon=float(epsilon),
            delta=float(delta),
        ),
    }
    results = tuple(_guarded(c, computations[c]) for c in CHECK_NAMES if c in selected)
    return GrayBoxResult(
        algorithm=name,
        verdict=overall_verdict(results),
        checks=results,
        epsilon=float(epsilon),
        delta=float(delta),
        confidence=float(confidence),
        paths=paths,
        seed=seed,
        relation=relation,
        D=np.asarray(data),
        D_prime=np.asarray(other),
        calls=len(runs[0][2].recorded),
        seconds=time.perf_counter() - start,
        neighbour_search=found,
    )
