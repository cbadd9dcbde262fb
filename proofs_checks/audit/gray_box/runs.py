"""One path of a gray-box audit: a recorded run on one dataset and its replay on the neighbour.

The algorithm runs on ``D`` under :func:`~reference.mechanisms.recorder.recording` with a generator seeded from
the path's :class:`numpy.random.SeedSequence`, then on ``D'`` under
:func:`~reference.mechanisms.recorder.replaying` with a generator seeded from the same sequence: every primitive
draws anyway (so the generator's stream stays aligned with the first run, and randomness outside the primitives
is shared between the runs) and returns the first run's output.

References
----------
.. [1] T. Cebere, D. Erb, D. Desfontaines, A. Bellet and J. Fitzsimons, "Re:cord-play", PETS 2026 (the replay
   with forced outputs).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["AlgorithmError", "Divergence", "PathRun", "run_path", "path_seeds", "recorded_run"]


class AlgorithmError(RuntimeError):
    """The audited algorithm raised on a run (not a replay divergence): the audit cannot give verdicts."""


@dataclass(frozen=True)
class Divergence:
    """The first call at which the replay on the neighbour left the recorded transcript.

    ``field`` is ``"primitive"``, ``"public[...]"`` (the recorder's names), ``"privacy"``, ``"sensitivity"``,
    ``"norm"`` (compared here) or ``"end of run"`` (the replay made fewer calls than the recorded run).
    """

    index: int
    site: str
    field: str
    recorded: Any
    replayed: Any

    def as_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "site": self.site,
            "field": self.field,
            "recorded": _plain(self.recorded),
            "replayed": _plain(self.replayed),
        }


def _plain(value):
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


@dataclass(frozen=True)
class PathRun:
    """A recorded run and its replay.

    ``recorded`` and ``replayed`` are tuples of :class:`~reference.mechanisms.recorder.PrimitiveCall`;
    ``replayed`` stops at the call that diverged (``divergence``, raised by the recorder) and may be shorter
    than ``recorded`` when the replay ended early (``complete`` false).
    """

    recorded: tuple
    replayed: tuple
    divergence: Divergence | None
    complete: bool


def path_seeds(seed: int | np.random.SeedSequence, paths: int, stream: int) -> list[np.random.SeedSequence]:
    """``paths`` independent seed sequences of stream ``stream`` (0 forward, 1 reverse, 2 the checks' own draws).

    One :class:`~numpy.random.SeedSequence` per audit, one child per stream, one grandchild per path: the paths
    are independent and a path's randomness does not depend on how many paths are drawn.
    """
    root = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    streams = np.random.SeedSequence(root.entropy, spawn_key=root.spawn_key + (stream,))
    return streams.spawn(paths)


def _check_single(calls, where):
    for call in calls:
        # a batch of one run (shape (1,), as a learner drawing size=1) is a single run with a leading axis
        if "batch" in call.public and int(np.prod(call.public["batch"])) != 1:
            raise ValueError(
                f"the gray-box audit replays single runs; call {call.index} at {call.site or '?'} on {where} recorded "
                f"a batch of shape {call.public['batch']} (call the primitive with size=None)"
            )


def recorded_run(algorithm: Callable, data: Any, seed: np.random.SeedSequence, where: str) -> tuple:
    """The calls of one recorded run of ``algorithm(data, rng)``.

    Raises
    ------
    AlgorithmError
        If the algorithm raised.
    ValueError
        If a call recorded a batch (a leading run axis).
    """
    from reference.mechanisms.recorder import recording

    try:
        with recording() as transcript:
            algorithm(data, np.random.default_rng(seed))
    except Exception as exc:
        raise AlgorithmError(f"the algorithm raised on {where}: {type(exc).__name__}: {exc}") from exc
    calls = tuple(transcript.calls)
    _check_single(calls, where)
    return calls, transcript


def run_path(
    algorithm: Callable, data: Any, neighbour: Any, seed: np.random.SeedSequence, where: Sequence[str] = ("D", "D'")
) -> PathRun:
    """Record ``algorithm`` on ``data``, replay it on ``neighbour`` with the same seed.

    Parameters
    ----------
    algorithm : callable
        ``algorithm(data, rng)``.
    data, neighbour : array_like
        The dataset of the recorded run and its neighbour.
    seed : numpy.random.SeedSequence
        The path's seed; both runs get ``numpy.random.default_rng(seed)``.
    where : (str, str)
        Names of the two datasets in messages.

    Returns
    -------
    PathRun

    Raises
    ------
    AlgorithmError
        If the algorithm raised on either run (other than by the recorder's divergence).
    """
    from reference.mechanisms.recorder import ControlFlowDivergence, replaying

    recorded, transcript = recorded_run(algorithm, data, seed, where[0])
    divergence = None
    try:
        with replaying(transcript) as replay:
            algorithm(neighbour, np.random.default_rng(seed))
    except ControlFlowDivergence as exc:
        divergence = Divergence(exc.index, exc.site, exc.field, exc.recorded, exc.replayed)
    except Exception as exc:
        raise AlgorithmError(
            f"the algorithm raised on {where[1]} while replaying the run on {where[0]}: {type(exc).__name__}: {exc}"
        ) from exc
    replayed = tuple(replay.calls)
    complete = divergence is None and bool(replay.complete)
    if divergence is None and not complete:
        last = recorded[len(replayed)]
        divergence = Divergence(len(replayed), last.site, "end of run", last.primitive, None)
    return PathRun(recorded, replayed, divergence, complete)
