"""Check (a): the same primitive calls with the same public arguments on both datasets of the pair.

The recorder raises :class:`~reference.mechanisms.recorder.ControlFlowDivergence` on a different primitive or
public argument; this module adds what the recorder leaves to the replay engine: a declared ``privacy``,
``sensitivity`` or ``norm`` that changed between the runs is a public parameter read from the data too (a budget or
a sensitivity the proof treats as fixed).

References
----------
.. [1] T. Cebere, D. Erb, D. Desfontaines, A. Bellet and J. Fitzsimons, "Re:cord-play", PETS 2026 (control flow
   and public parameters).
.. [2] C. Dwork and A. Roth, "The algorithmic foundations of differential privacy", Found. Trends TCS 9 (2014),
   Thm. 3.16 (composition presumes the calls and their parameters fixed or chosen from earlier outputs).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from .check_result import NO_VIOLATION, PROOF_PREMISE, REFUTED, VACUOUS, GrayBoxCheck
from .runs import Divergence, PathRun

__all__ = ["declared_divergence", "first_divergence", "control_flow_check"]


def _same_float(a: float, b: float) -> bool:
    return a == b or (math.isnan(a) and math.isnan(b))


def _same_privacy(a, b) -> bool:
    if set(a) != set(b):
        return False
    return all(_same_float(float(a[k]), float(b[k])) for k in a)


def declared_divergence(recorded: Sequence, replayed: Sequence) -> Divergence | None:
    """The first call whose declared ``privacy``, ``sensitivity`` or ``norm`` differs between the two runs."""
    for rec, rep in zip(recorded, replayed):
        if not _same_privacy(rec.privacy, rep.privacy):
            return Divergence(rec.index, rec.site, "privacy", dict(rec.privacy), dict(rep.privacy))
        if not _same_float(float(rec.sensitivity), float(rep.sensitivity)):
            return Divergence(rec.index, rec.site, "sensitivity", float(rec.sensitivity), float(rep.sensitivity))
        if rec.norm != rep.norm:
            return Divergence(rec.index, rec.site, "norm", rec.norm, rep.norm)
    return None


def first_divergence(run: PathRun) -> Divergence | None:
    """The earliest divergence of a path: declared parameters of the calls both runs made, or the recorder's."""
    declared = declared_divergence(run.recorded, run.replayed)
    if declared is not None and (run.divergence is None or declared.index <= run.divergence.index):
        return declared
    return run.divergence


def control_flow_check(runs: Sequence[tuple[str, int, PathRun]]) -> GrayBoxCheck:
    """Verdict of check (a) over the sampled paths.

    Parameters
    ----------
    runs : sequence of (direction, path, PathRun)
        Every path of the audit with its direction (``"D->D'"`` or ``"D'->D"``) and number.

    Returns
    -------
    GrayBoxCheck
        ``refuted`` with the first diverging call (index, site, field, both values) of the first path that
        diverged; ``no violation found`` when every replay followed its transcript; ``vacuous`` when no path
        made a call.
    """
    calls = 0
    for direction, path, run in runs:
        calls += len(run.recorded)
        found = first_divergence(run)
        if found is not None:
            witness = {"direction": direction, "path": path, **found.as_dict()}
            summary = (
                f"call {found.index} at {found.site or '?'} ({direction}, path {path}): {found.field} is "
                f"{found.recorded!r} on the recorded run, {found.replayed!r} on the replay"
            )
            return GrayBoxCheck("control_flow", REFUTED, summary, PROOF_PREMISE, witness)
    if calls == 0:
        return GrayBoxCheck("control_flow", VACUOUS, "no primitive call was recorded", PROOF_PREMISE, {})
    summary = f"{len(runs)} replays followed their transcripts ({calls} calls): same primitives and public arguments"
    return GrayBoxCheck("control_flow", NO_VIOLATION, summary, PROOF_PREMISE, {"paths": len(runs), "calls": calls})
