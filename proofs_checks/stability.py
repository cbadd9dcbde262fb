"""Verdicts that do not depend on the seed.

A randomised check (one that draws from its context's streams) is run on several run
seeds: the default one and ``seeds - 1`` more derived from it.  Its verdict stands only
where every seed agrees; otherwise it is ``inconclusive``, with the split in the evidence.
A deterministic check (one that draws nothing) runs once: more seeds could not change it.

The extra seeds are ``SeedSequence(run seed).generate_state(seeds - 1)``: fixed before any
run, the same for every claim, and never chosen after looking at a result.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from .model import CheckContext, Claim, Result
from .runner import run_claim

__all__ = ["extra_seeds", "run_claim_across_seeds"]


def extra_seeds(seed: int, count: int) -> list:
    """``count`` further run seeds derived from ``seed`` (32-bit words of its seed sequence)."""
    if count < 0:
        raise ValueError(f"count must be >= 0, got {count}")
    return [int(s) for s in np.random.SeedSequence(seed).generate_state(count)] if count else []


def run_claim_across_seeds(claim: Claim, ctx: CheckContext, seeds: int) -> Result:
    """Run ``claim`` on ``seeds`` run seeds if it is randomised; return one Result.

    The Result is the default seed's, with its verdict kept when all seeds agree and
    ``inconclusive`` otherwise; ``evidence["seeds"]`` lists every seed's verdict and
    observed value.  ``seeds=1`` is a plain :func:`~proofs_checks.runner.run_claim`.
    """
    if isinstance(seeds, bool) or not isinstance(seeds, int) or seeds < 1:
        raise ValueError(f"seeds must be a positive integer, got {seeds!r}")
    scoped = ctx.for_claim(claim.id)
    first = run_claim(claim, scoped)
    if seeds == 1 or not scoped.randomised or first.verdict == "error":
        return first
    runs = [(ctx.seed, first)]
    for s in extra_seeds(ctx.seed, seeds - 1):
        runs.append((s, run_claim(claim, replace(ctx, seed=s))))
    split = [{"seed": s, "verdict": r.verdict, "observed": r.observed} for s, r in runs]
    verdicts = {r.verdict for _, r in runs}
    result = replace(first, evidence={**first.evidence, "seeds": split})
    result.seconds = sum(r.seconds for _, r in runs)
    if len(verdicts) > 1:
        counts = {v: sum(r.verdict == v for _, r in runs) for v in sorted(verdicts)}
        result.verdict = "inconclusive"
        result.method = (f"{first.method}; verdicts differ across {seeds} run seeds "
                         f"({', '.join(f'{n} {v}' for v, n in counts.items())})").lstrip("; ")
    return result
