"""The outcome of a gray-box audit: :class:`GrayBoxResult`, its checks and its report."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .check_result import ERROR, NO_VIOLATION, REFUTED, GrayBoxCheck

__all__ = ["CHECK_NAMES", "GrayBoxResult", "overall_verdict"]

#: The checks of a gray-box audit, in the order they are reported (``calibration`` runs only when the caller
#: supplies the proof's per-call steps).
CHECK_NAMES = ("control_flow", "sensitivity", "calibration", "law_conformance", "pair_loss", "composition")


def overall_verdict(checks) -> str:
    """``refuted`` if a check refuted, else ``error`` if one raised, else ``no violation found``.

    Examples
    --------
    >>> overall_verdict([GrayBoxCheck("sensitivity", "no violation found", "", "proof premise")])
    'no violation found'
    """
    verdicts = {check.verdict for check in checks}
    if REFUTED in verdicts:
        return REFUTED
    if ERROR in verdicts:
        return ERROR
    return NO_VIOLATION


@dataclass(frozen=True)
class GrayBoxResult:
    """What :func:`~proofs_checks.audit.gray_box_audit` found.

    Parameters
    ----------
    algorithm : str
        The audited callable's name.
    verdict : str
        :func:`overall_verdict` of the checks.
    checks : tuple of GrayBoxCheck
        One per check run, in :data:`CHECK_NAMES` order.
    epsilon, delta : float
        The claim.
    confidence : float
        The level of each statistical check.
    paths : int
        Paths per direction.
    seed : int
        The seed of the audit's :class:`numpy.random.SeedSequence`.
    relation : str
        ``"replace-one"`` or ``"add-remove"`` (what ``D'`` is to ``D``).
    D, D_prime : numpy.ndarray
        The audited pair.
    calls : int
        Primitive calls of the first recorded run on ``D``.
    seconds : float
        Wall-clock time.
    neighbour_search : NeighbourSearchResult or None, default None
        The search that chose ``D_prime`` (``neighbours="search"``).

    Examples
    --------
    >>> r = GrayBoxResult("f", "no violation found", (), 1.0, 0.0, 0.95, 10, 0, "replace-one",
    ...                   np.zeros(2), np.ones(2), 1, 0.1, None)
    >>> r.as_dict()["D_prime"]
    [1.0, 1.0]
    """

    algorithm: str
    verdict: str
    checks: tuple
    epsilon: float
    delta: float
    confidence: float
    paths: int
    seed: int
    relation: str
    D: np.ndarray
    D_prime: np.ndarray
    calls: int
    seconds: float
    neighbour_search: Any = None

    def check(self, name: str) -> GrayBoxCheck:
        """The check called ``name`` (one of :data:`CHECK_NAMES`).

        Parameters
        ----------
        name : str
            The check's name.

        Returns
        -------
        GrayBoxCheck

        Raises
        ------
        KeyError
            If the audit did not run that check.

        Examples
        --------
        >>> r = GrayBoxResult("f", "error", (GrayBoxCheck("pair_loss", "error", "x", "transcript"),), 1.0, 0.0,
        ...                   0.95, 10, 0, "replace-one", np.zeros(1), np.ones(1), 1, 0.1)
        >>> r.check("pair_loss").summary
        'x'
        """
        for check in self.checks:
            if check.name == name:
                return check
        raise KeyError(f"no check {name!r} in this result (ran: {[c.name for c in self.checks]})")

    def as_dict(self) -> dict[str, Any]:
        """The result as JSON-able values.

        Returns
        -------
        dict

        Examples
        --------
        >>> GrayBoxResult("f", "refuted", (), 1.0, 0.0, 0.95, 10, 0, "replace-one", np.zeros(1), np.ones(1), 2,
        ...               0.1).as_dict()["verdict"]
        'refuted'
        """
        from ...jsonable import to_jsonable

        return to_jsonable(
            {
                "algorithm": self.algorithm,
                "verdict": self.verdict,
                "epsilon": self.epsilon,
                "delta": self.delta,
                "confidence": self.confidence,
                "paths": self.paths,
                "seed": self.seed,
                "relation": self.relation,
                "D": self.D,
                "D_prime": self.D_prime,
                "calls": self.calls,
                "seconds": self.seconds,
                "checks": [check.as_dict() for check in self.checks],
                "neighbour_search": None if self.neighbour_search is None else self.neighbour_search.as_dict(),
            }
        )

    def report(self) -> str:
        """A few lines for people: the verdict, each check's verdict and summary, the pair.

        Returns
        -------
        str

        Examples
        --------
        >>> r = GrayBoxResult("f", "refuted", (), 1.0, 0.0, 0.95, 10, 0, "replace-one", np.zeros(1), np.ones(1),
        ...                   2, 0.1)
        >>> r.report().splitlines()[0]
        'f: claim (1, 0)-DP: refuted (gray-box, 10 paths per direction, 2 calls per run)'
        """
        lines = [
            f"{self.algorithm}: claim ({self.epsilon:g}, {self.delta:g})-DP: {self.verdict} (gray-box, {self.paths} "
            f"paths per direction, {self.calls} calls per run)"
        ]
        for check in self.checks:
            lines.append(f"  {check.name} [{check.covers}]: {check.verdict}: {check.summary}")
        lines.append(f"  pair ({self.relation}): D = {_short(self.D)}; D' = {_short(self.D_prime)}")
        if self.neighbour_search is not None:
            found = self.neighbour_search
            lines.append(
                f"  neighbour searched: {found.change} (ratio {found.ratio:.6g}, {found.evaluations} of {found.budget} "
                "evaluations)"
            )
        lines.append(f"  seed {self.seed}, {self.seconds:.2f} s")
        return "\n".join(lines)


def _short(array) -> str:
    text = np.array2string(np.asarray(array), threshold=12, precision=6, separator=", ")
    return " ".join(text.split())
