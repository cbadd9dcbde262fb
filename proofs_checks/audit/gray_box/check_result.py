"""The verdicts of the gray-box checks and the record of one check (:class:`GrayBoxCheck`).

References
----------
.. [1] T. Cebere, D. Erb, D. Desfontaines, A. Bellet and J. Fitzsimons, "Re:cord-play: auditing differential
   privacy implementations by replaying them on neighbours", PETS 2026 (the dp-recorder package).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "REFUTED",
    "CONFIRMED",
    "NOT_CONFIRMED",
    "NO_VIOLATION",
    "VACUOUS",
    "ERROR",
    "VERDICTS",
    "TRANSCRIPT",
    "PROOF_PREMISE",
    "GrayBoxCheck",
]

#: A witness shows the claim false on the audited pair (or the declared law false).
REFUTED = "refuted"
#: The composition of the declared calls is within the claim (an upper bound; check ``composition`` only).
CONFIRMED = "confirmed"
#: The composed upper bound exceeds the claim: nothing shown either way (an upper bound is no refutation).
NOT_CONFIRMED = "not confirmed"
#: The check ran on the sampled paths and found no violation.
NO_VIOLATION = "no violation found"
#: The check had nothing to test (no call with a law it can use, no paths).
VACUOUS = "vacuous"
#: The check raised: never a verdict on the algorithm.
ERROR = "error"

VERDICTS = (REFUTED, CONFIRMED, NOT_CONFIRMED, NO_VIOLATION, VACUOUS, ERROR)

#: What a verdict covers: the transcript of the primitives' outputs (with their public arguments), the object
#: the privacy proofs compose; any released output computed from it inherits a confirmation by post-processing,
#: not a refutation.
TRANSCRIPT = "transcript"
#: A premise of the proofs (same calls with the same public arguments; sensitivities that hold): a refutation
#: shows the proof does not apply, not by itself that an output leaks.
PROOF_PREMISE = "proof premise"


@dataclass(frozen=True)
class GrayBoxCheck:
    """One check of a gray-box audit: its verdict, a one-line summary and the witness behind it.

    Parameters
    ----------
    name : str
        ``"control_flow"``, ``"sensitivity"``, ``"law_conformance"``, ``"pair_loss"`` or ``"composition"``.
    verdict : str
        One of :data:`VERDICTS`.
    summary : str
        One line naming the failing call, the pair and the numbers.
    covers : str
        :data:`TRANSCRIPT` or :data:`PROOF_PREMISE`.
    witness : Mapping
        The numbers behind the verdict (JSON-able values).
    seconds : float
        Wall-clock time of the check.

    Examples
    --------
    >>> GrayBoxCheck("sensitivity", NO_VIOLATION, "max ratio 0.5", PROOF_PREMISE).verdict
    'no violation found'
    """

    name: str
    verdict: str
    summary: str
    covers: str
    witness: Mapping[str, Any] = field(default_factory=dict)
    seconds: float = 0.0

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {VERDICTS}, got {self.verdict!r}")
        if self.covers not in (TRANSCRIPT, PROOF_PREMISE):
            raise ValueError(f"covers must be {TRANSCRIPT!r} or {PROOF_PREMISE!r}, got {self.covers!r}")

    def as_dict(self) -> dict[str, Any]:
        """The check as JSON-able values.

        Returns
        -------
        dict
            ``name``, ``verdict``, ``summary``, ``covers``, ``witness`` and ``seconds``.

        Examples
        --------
        >>> GrayBoxCheck("pair_loss", VACUOUS, "no paths", TRANSCRIPT).as_dict()["covers"]
        'transcript'
        """
        from ...jsonable import to_jsonable

        return {
            "name": self.name,
            "verdict": self.verdict,
            "summary": self.summary,
            "covers": self.covers,
            "witness": to_jsonable(dict(self.witness)),
            "seconds": self.seconds,
        }
