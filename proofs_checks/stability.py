"""Verdicts that do not depend on the seed.

A randomised check (one that draws from its context's streams) is run on several run
seeds: the default one and ``seeds - 1`` more derived from it.  Its verdict stands only
where every seed agrees; otherwise it is ``inconclusive``, with the split in the evidence.
A deterministic check (one that draws nothing) runs once: more seeds could not change it.

The extra seeds are ``SeedSequence(run seed).generate_state(seeds - 1)``: fixed before any
run, the same for every claim, and never chosen after looking at a result.

Default policy (``verify`` without ``--seeds``, :func:`default_seeds`): every randomised claim runs on
:data:`DEFAULT_SEEDS` seeds of its profile, except the claims that declare themselves expensive
(:attr:`Claim.seed_policy <proofs_checks.model.Claim>` ``"once"``: one quick run costs about 2 s or more,
measured), which keep one seed; their evidence says so (``seed_policy``).  The declaration is made where the
claim is built (its claim set, or the algorithm's audit record), never decided by a run's own wall time, so a
report does not depend on the machine's load.  Cost of the default (measured 2026-11-23): 108 of 170 claims ran
on 3 seeds; their single-seed time was 48 s of the 295 s of an uncontended quick verify, so the two extra seeds
added about 80 s (+27 %).  The expensive claims' seed stability is argued elsewhere: the rate claims fit
Bonferroni-corrected intervals and the d-sweeps of 000 are inconclusive at quick by rule.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from .model import CheckContext, Claim, Result
from .runner import run_claim

__all__ = ["DEFAULT_SEEDS", "default_seeds", "extra_seeds", "run_claim_across_seeds"]


#: Run seeds of a cheap randomised claim when ``--seeds`` is not given.
DEFAULT_SEEDS = {"quick": 3, "full": 3}


def default_seeds(claim: Claim, profile: str):
    """``(seeds, reason)``: the default run seeds of ``claim`` at ``profile`` (``reason`` None when not reduced).

    Parameters
    ----------
    claim : Claim
        Its ``seed_policy`` decides: ``"several"`` gives :data:`DEFAULT_SEEDS` ``[profile]``, ``"once"`` one seed.
    profile : {"quick", "full"}

    Returns
    -------
    (int, str or None)

    Raises
    ------
    TypeError
        When ``claim`` is not a :class:`~proofs_checks.model.Claim`.

    Examples
    --------
    >>> from proofs_checks.model import Claim
    >>> default_seeds(Claim("x", "[000 Thm. 1]", "s", "rate", lambda ctx: None, seed_policy="once"), "quick")[0]
    1
    """
    if not isinstance(claim, Claim):
        raise TypeError(f"claim must be a Claim, got {type(claim).__name__}")
    if claim.seed_policy == "once":
        return 1, (
            "1 run seed by default: the claim is declared expensive (Claim.seed_policy 'once': a single "
            "quick run costs seconds); --seeds N runs N"
        )
    return DEFAULT_SEEDS[profile], None


def extra_seeds(seed: int, count: int) -> list:
    """``count`` further run seeds derived from ``seed`` (32-bit words of its seed sequence)."""
    if count < 0:
        raise ValueError(f"count must be >= 0, got {count}")
    return [int(s) for s in np.random.SeedSequence(seed).generate_state(count)] if count else []


def run_claim_across_seeds(claim: Claim, ctx: CheckContext, seeds=None) -> Result:
    """Run ``claim`` on ``seeds`` run seeds if it is randomised; return one Result.

    The Result is the default seed's, with its verdict kept when all seeds agree and
    ``inconclusive`` otherwise; ``evidence["seeds"]`` lists every seed's verdict and
    observed value.  ``seeds=1`` is a plain :func:`~proofs_checks.runner.run_claim`; ``seeds=None``
    is the default policy (:func:`default_seeds`), which records a reduction in
    ``evidence["seed_policy"]`` of a randomised claim.
    """
    reason = None
    if seeds is None:
        seeds, reason = default_seeds(claim, ctx.profile)
    if isinstance(seeds, bool) or not isinstance(seeds, int) or seeds < 1:
        raise ValueError(f"seeds must be a positive integer, got {seeds!r}")
    scoped = ctx.for_claim(claim.id)
    first = run_claim(claim, scoped)
    if reason is not None and scoped.randomised and first.verdict != "error":
        first.evidence = {**first.evidence, "seed_policy": reason}
    if seeds == 1 or not scoped.randomised or first.verdict == "error":
        return first
    runs = [(ctx.seed, first)]
    # The extra seeds draw no figures: the report shows the default seed's, which its result describes
    # (with the same out_dir each extra seed re-drew it and the last one overwrote it).
    for s in extra_seeds(ctx.seed, seeds - 1):
        runs.append((s, run_claim(claim, replace(ctx, seed=s, out_dir=None))))
    split = [{"seed": s, "verdict": r.verdict, "observed": r.observed} for s, r in runs]
    verdicts = {r.verdict for _, r in runs}
    result = replace(first, evidence={**first.evidence, "seeds": split})
    result.seconds = sum(r.seconds for _, r in runs)
    if len(verdicts) > 1:
        counts = {v: sum(r.verdict == v for _, r in runs) for v in sorted(verdicts)}
        result.verdict = "inconclusive"
        result.method = (
            f"{first.method}; verdicts differ across {seeds} run seeds "
            f"({', '.join(f'{n} {v}' for v, n in counts.items())})"
        ).lstrip("; ")
    return result
