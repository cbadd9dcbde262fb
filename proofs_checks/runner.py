"""Running checks: each gets the context scoped to its claim, so its random stream is the claim's own."""

from __future__ import annotations

import time
import traceback

from .model import CheckContext, Claim, Result

__all__ = ["run_claim", "run_claims"]


def run_claim(claim: Claim, ctx: CheckContext) -> Result:
    """Run one check with ``ctx.for_claim(claim.id)``, timing it.

    The result's ``seed`` is the entropy ``[run seed, claim key]`` of the claim's seed
    sequence, which reproduces every random draw of the check.  A check that raises (or
    returns something other than a Result) gets the verdict ``"error"``, with the exception
    and its traceback in the evidence: an error is never a verdict on the paper.
    ``KeyboardInterrupt`` and ``SystemExit`` propagate.
    """
    scoped = ctx.for_claim(claim.id)
    start = time.perf_counter()
    try:
        result = claim.check(scoped)
        if not isinstance(result, Result):
            raise TypeError(f"check of claim {claim.id} returned {type(result).__name__}, not Result")
    except Exception as exc:  # noqa: BLE001 - any failure of a check is recorded, not raised
        result = Result("error", method="the check raised", reading="",
                        evidence={"exception": f"{type(exc).__name__}: {exc}",
                                  "traceback": traceback.format_exc()})
    result.seconds = time.perf_counter() - start
    result.seed = scoped.seed_entropy()
    return result


def run_claims(claims, ctx: CheckContext, progress=None):
    """Run ``claims`` in order; return ``[(claim, result), ...]``.

    ``progress`` (a text stream such as ``sys.stderr``) receives one line per
    claim, ``[i/N] id ... verdict (seconds)``; data never goes there.
    """
    out = []
    for i, claim in enumerate(claims, 1):
        if progress is not None:
            print(f"[{i}/{len(claims)}] {claim.id} ...", file=progress, end=" ", flush=True)
        result = run_claim(claim, ctx)
        if progress is not None:
            print(f"{result.verdict} ({result.seconds:.1f} s)", file=progress, flush=True)
        out.append((claim, result))
    return out
