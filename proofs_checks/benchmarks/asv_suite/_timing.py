"""Timing helper: best of ``repeat`` wall-clock runs (the minimum is the least noisy estimate)."""

from __future__ import annotations

import time


def best_seconds(fn, repeat=5, number=1):
    """Smallest wall time of ``fn()`` over ``repeat`` rounds of ``number`` calls each, per call."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - t0) / number)
    return best


def ratio(target, baseline, repeat=5, number=1):
    """``best_seconds(target) / best_seconds(baseline)``, both measured now, interleaved."""
    return best_seconds(target, repeat, number) / best_seconds(baseline, repeat, number)
