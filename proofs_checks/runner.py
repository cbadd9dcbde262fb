"""Running checks: each gets the context scoped to its claim, so its random stream is the claim's own."""

from __future__ import annotations

import time
import traceback

from .model import CheckContext, Claim, Result

__all__ = ["iter_claims", "iter_claims_in_workers", "longest_first", "run_claim", "run_claims", "start_workers"]


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
        result = Result(
            "error",
            method="the check raised",
            reading="",
            evidence={"exception": f"{type(exc).__name__}: {exc}", "traceback": traceback.format_exc()},
        )
    result.seconds = time.perf_counter() - start
    result.seed = scoped.seed_entropy()
    return result


def iter_claims(claims, ctx: CheckContext, progress=None, run=None):
    """Run ``claims`` in order, yielding ``(claim, result)`` as each finishes.

    ``progress`` is a text stream (such as ``sys.stderr``) or ``None``.  On a terminal it shows a
    tqdm bar (claims done, the claim running, elapsed and remaining time); elsewhere (a log, a
    pipe, a captured stream) it gets one plain line per claim, ``[i/N] id verdict (seconds)``,
    and no animation.  Data never goes there.  A consumer that stops early (Ctrl-C) keeps every
    result yielded so far.  ``run(claim, ctx) -> Result`` replaces :func:`run_claim` (for example
    :func:`proofs_checks.stability.run_claim_across_seeds` with its ``seeds`` bound).
    """
    run = run_claim if run is None else run
    claims = list(claims)
    bar = _bar(len(claims), progress)
    try:
        for i, claim in enumerate(claims, 1):
            if bar is not None:
                bar.set_postfix_str(claim.id, refresh=True)
            elif progress is not None:
                print(f"[{i}/{len(claims)}] {claim.id} ...", file=progress, end=" ", flush=True)
            result = run(claim, ctx)
            if bar is not None:
                bar.update(1)
                if result.verdict in ("refuted", "error"):
                    bar.write(f"{claim.id}: {result.verdict}", file=progress)
            elif progress is not None:
                print(f"{result.verdict} ({result.seconds:.1f} s)", file=progress, flush=True)
            yield claim, result
    finally:
        if bar is not None:
            bar.close()


def iter_claims_in_workers(
    claims, ctx: CheckContext, workers, *, registry_factory, progress=None, run=None, after=None
):
    """Run ``claims`` in ``workers`` local processes; yield ``(claim, result, extra)`` in claim order.

    The claims start longest first (:func:`longest_first`, a static table of measured costs), so the
    wall time is near the total divided by the workers; progress is reported as claims finish, and
    the results are handed on in claim order.

    Each claim draws only from its own stream (``ctx.for_claim``), so its result does not depend on
    which process runs it or on what ran before: the results are those of :func:`iter_claims`, in
    the same order.  The workers look claims up by id in ``registry_factory()`` (a module-level
    callable, built once per worker process), because checks are closures that need not pickle.
    Inside a worker every claim gets ``ctx.jobs = 1``: the workers already fill the cores.

    Parameters
    ----------
    claims : list of Claim
        Claims of ``registry_factory()``.
    ctx : CheckContext
        The run's context (unscoped).
    workers : int
        Worker processes (joblib ``loky``); 1 runs :func:`iter_claims` in this process.
    registry_factory : callable
        ``registry_factory() -> Registry``; module-level, so that it pickles.
    progress, run
        As in :func:`iter_claims`; ``run`` must pickle (a module-level function or a
        ``functools.partial`` of one).
    after : callable or None
        ``after(claim, ctx, result) -> extra``, run in the worker after the check (for example
        the claim's power); ``extra`` is ``None`` without it.
    """
    claims = list(claims)
    if workers == 1 or len(claims) <= 1:
        for claim, result in iter_claims(claims, ctx, progress=progress, run=run):
            yield claim, result, (after(claim, ctx, result) if after is not None else None)
        return
    from dataclasses import replace

    from joblib import Parallel, delayed

    inner = replace(ctx, jobs=1, claim_id=None)
    # Longest first (LPT): a long claim started last would hold one core while the other idles.
    order = longest_first(claims, ctx.profile)
    tasks = (delayed(_evaluate_by_id)(registry_factory, claims[i].id, inner, run, after, i) for i in order)
    bar = _bar(len(claims), progress)
    done, next_out, finished = {}, 0, 0
    try:
        results = Parallel(n_jobs=workers, return_as="generator_unordered", batch_size=1)(tasks)
        for index, result, extra in results:
            if isinstance(result, _Interrupted):
                raise KeyboardInterrupt
            claim = claims[index]
            finished += 1
            if bar is not None:
                bar.update(1)
                bar.set_postfix_str(claim.id, refresh=True)
                if result.verdict in ("refuted", "error"):
                    bar.write(f"{claim.id}: {result.verdict}", file=progress)
            elif progress is not None:
                print(
                    f"[{finished}/{len(claims)}] {claim.id} ... {result.verdict} ({result.seconds:.1f} s)",
                    file=progress,
                    flush=True,
                )
            done[index] = (result, extra)
            while next_out in done:  # hand results on in claim order, as soon as the prefix is complete
                yield (claims[next_out], *done.pop(next_out))
                next_out += 1
    except KeyboardInterrupt:
        # The finished claims after a gap are kept too (in claim order), as without workers.
        for index in sorted(done):
            yield (claims[index], *done[index])
        raise
    finally:
        if bar is not None:
            bar.close()


def longest_first(claims, profile="quick"):
    """Indices of ``claims``, most expensive first by :func:`proofs_checks.claim_costs.estimated_seconds`.

    Longest-processing-time-first scheduling: with claims of 0.01-10 s on a few workers, the
    wall time is near the total over the workers only when the long ones do not start last.
    Ties keep the claims' order, so the schedule is deterministic (the results never depend on it).

    >>> from proofs_checks.model import Claim
    >>> cs = [Claim(i, "[000 Lemma 9]", "s", "inequality", None) for i in ("a.cheap", "wang-xu.lemma9.concentration")]
    >>> longest_first(cs)
    [1, 0]
    """
    from .claim_costs import estimated_seconds

    costs = [estimated_seconds(c.id, profile) for c in claims]
    return sorted(range(len(claims)), key=lambda i: (-costs[i], i))


# One registry per worker process and factory: building it imports every claim module.
_WORKER_REGISTRIES = {}


def _worker_registry(registry_factory):
    registry = _WORKER_REGISTRIES.get(registry_factory)
    if registry is None:
        registry = _WORKER_REGISTRIES[registry_factory] = registry_factory()
    return registry


def _warm(registry_factory):
    """Build the worker's registry (the task of :func:`start_workers`); returns nothing to the parent."""
    _worker_registry(registry_factory)


def start_workers(workers, *, registry_factory):
    """Start ``workers`` local worker processes building their registries now, in a background thread.

    :func:`iter_claims_in_workers` reuses the same processes (joblib's reusable ``loky`` executor, same
    ``n_jobs``), so while the caller builds its own registry (1.5-2 s of CPU) the workers build theirs instead
    of waiting for it: start-up overlaps with start-up.  Nothing else is run early and no result depends on
    it (a worker that got no warm-up task builds its registry at its first claim, as without this).
    Returns the thread (join it before running claims), or ``None`` (nothing started) for ``workers < 2`` or a
    factory that does not pickle.
    """
    import threading

    def warm():
        from joblib import Parallel, delayed

        try:
            Parallel(n_jobs=workers, batch_size=1)(delayed(_warm)(registry_factory) for _ in range(workers))
        except Exception:  # noqa: BLE001 - a failed warm-up changes nothing: the claims build what they need
            pass

    import pickle

    if workers < 2:
        return None
    try:
        pickle.dumps(registry_factory)
    except Exception:  # noqa: BLE001 - e.g. a lambda standing in for the registry: the claims' run would fail the same way
        return None
    thread = threading.Thread(target=warm, name="start-workers", daemon=True)
    thread.start()
    return thread


def _evaluate_by_id(registry_factory, claim_id, ctx, run, after, index):
    """``(index, result, extra)`` of the claim ``claim_id``: the index tells the parent which claim finished."""
    claim = _worker_registry(registry_factory).claim(claim_id)
    try:
        result = (run_claim if run is None else run)(claim, ctx)
        return index, result, (after(claim, ctx, result) if after is not None else None)
    except KeyboardInterrupt:
        # Carried to the parent as a value: how loky reports an exception of this kind from a
        # worker depends on timing, and the parent must stop the same way as without workers.
        return index, _INTERRUPTED, None


class _Interrupted:
    """Marker returned by a worker whose claim was interrupted."""


_INTERRUPTED = _Interrupted()


def run_claims(claims, ctx: CheckContext, progress=None):
    """Run ``claims`` in order; return ``[(claim, result), ...]`` (progress as in :func:`iter_claims`)."""
    return list(iter_claims(claims, ctx, progress))


def _bar(total, stream):
    """A tqdm bar on ``stream`` when it is a terminal, else ``None``."""
    isatty = getattr(stream, "isatty", None)
    if stream is None or isatty is None or not isatty():
        return None
    from tqdm import tqdm

    return tqdm(total=total, file=stream, unit="claim", dynamic_ncols=True, leave=True)
