"""Gray-box audits: replay an algorithm on neighbouring datasets with the same randomness and check every
privacy primitive it calls.

The public names, importable from :mod:`proofs_checks.audit`: :func:`gray_box_audit` and its
:class:`GrayBoxResult` (with one :class:`GrayBoxCheck` per check), :func:`search_neighbours` and its
:class:`NeighbourSearchResult`.  One module per subject:

=====================  =======================================================================================
module                 subject
=====================  =======================================================================================
``audit``              :func:`gray_box_audit`: the paths, then the checks
``runs``               one path: a recorded run and its replay with forced outputs
``control_flow``       check (a): same calls, same public arguments, same declared privacy and sensitivity
``sensitivity``        check (b): measured input distance vs declared sensitivity
``calibration``        check (f): each call's privacy from its sampled law vs the proof's per-call budget
``conformance``        check (c): the outputs follow the recorded laws
``pair_loss``          check (d): the transcript's exact privacy loss on the pair, with a confidence bound
``bounds``             lower confidence bounds on the mean of a [0, 1] variable
``composition``        check (e): the declared calls composed with dp_accounting's privacy loss distributions
``neighbour_search``   adversarial neighbours (extremes, then hill climbing)
``check_result``       the verdicts and :class:`GrayBoxCheck`
``result``             :class:`GrayBoxResult` and its report
``validation``         checks of the arguments
``faults``             :func:`injected_fault`: a module attribute replaced for a block (mutants inside algorithms)
=====================  =======================================================================================

References
----------
.. [1] T. Cebere, D. Erb, D. Desfontaines, A. Bellet and J. Fitzsimons, "Re:cord-play: auditing differential
   privacy implementations", PETS 2026 (the dp-recorder package).
.. [2] C. Dwork and A. Roth, "The algorithmic foundations of differential privacy", Found. Trends TCS 9 (2014).
"""

from __future__ import annotations

from .audit import gray_box_audit
from .calibration import ProofStep
from .check_result import VERDICTS, GrayBoxCheck
from .faults import injected_fault
from .neighbour_search import NeighbourSearchResult, search_neighbours
from .result import CHECK_NAMES, GrayBoxResult

__all__ = [
    "CHECK_NAMES",
    "VERDICTS",
    "GrayBoxCheck",
    "GrayBoxResult",
    "NeighbourSearchResult",
    "ProofStep",
    "gray_box_audit",
    "injected_fault",
    "search_neighbours",
]
