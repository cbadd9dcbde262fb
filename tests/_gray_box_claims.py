"""Shared helpers of the gray-box claim tests (tests/test_gray_box_claims_*.py)."""

from __future__ import annotations

import functools
import warnings

from proofs_checks.model import CheckContext
from proofs_checks.registry import default_registry

#: The mutant kinds every call site gets; a selection (categorical, GEM, report-noisy-max) also its weight.
KINDS = ("noise scale x0.5", "sensitivity x0.5", "per-step budget x2")
SELECTIONS = ("categorical", "gem", "report_noisy_max")


@functools.lru_cache(maxsize=1)
def gray_box_claims():
    """``{id: Claim}`` of every registered gray-box claim."""
    return {c.id: c for c in default_registry().claims if ".gray-box" in c.id}


def run(check, claim_id):
    """The Result of ``check`` with the claim's default context (seeded), its warnings silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return check(CheckContext().for_claim(claim_id))
