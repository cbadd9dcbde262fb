"""Sequential stopping of the counts tests: look at the draws three times, stop when clearly wrong or clearly right.

A finite-output sampler or whole algorithm is tested on ``n`` draws (:func:`.lawtests.counts_test`).  Here the
draws come in three looks, at :data:`LOOKS` of ``n``:

* **clearly wrong** -- at look ``k`` the counts test runs at level ``SPENDING[k] * alpha``; the levels add up to
  ``alpha`` (error spending with the union bound: ``P(any false rejection) <= sum of the levels = alpha`` whatever
  the dependence between the looks), so a correct port still fails with probability at most ``alpha``.  A port
  rejected at an interim look is reported with the draws used.
* **clearly right** -- at an interim look the test stops and passes when every outcome of probability at least
  ``min_prob`` already excludes the stated minimal slip: ``|z_i| <= rel * sqrt(n p_i / (1 - p_i)) - z(FUTILITY) r_i``
  (``rel`` = :data:`EFFECT`, the 10% error the kit's power is stated against; ``r_i`` the ratio of the slipped
  count's standard deviation to the exact one's, for a 10% excess).  Under a slip of that size in
  outcome ``i`` its ``|z_i|`` is below that bound with probability at most ``FUTILITY``, so each interim look
  gives up at most ``FUTILITY`` of the stated power (2 looks: at most 0.01).  Errors only in outcomes below
  ``min_prob``, which only the chi-square test sees, are not protected by this rule.

The final look runs at ``SPENDING[-1] * alpha`` (0.9 alpha): :func:`.samplers.stated_power` states the power at
that level minus the futility losses.
"""

from __future__ import annotations

import math
from contextvars import ContextVar
from typing import Callable

import numpy as np
from scipy import stats

from .lawtests import ALPHA, counts_test

__all__ = [
    "LOOKS",
    "SPENDING",
    "EFFECT",
    "FUTILITY",
    "ENABLED",
    "look_sizes",
    "clearly_right",
    "sequential_counts_test",
]

#: The fractions of the draws at which the counts are tested.
LOOKS = (1 / 16, 1 / 4, 1.0)

#: The share of ``alpha`` each look may spend (they add up to 1).
SPENDING = (0.05, 0.05, 0.9)

#: The relative error of one outcome's probability an early pass must already exclude (the stated slip).
EFFECT = 0.10

#: The power an early pass may give up against that error, per interim look.
FUTILITY = 0.005

#: Whether the counts tests stop early (:func:`.samplers.run_samplers` sets it for one run; False: all draws).
ENABLED: ContextVar[bool] = ContextVar("sequential_stopping", default=True)

_CHUNK = 500_000


def look_sizes(n: int) -> list[int]:
    """The cumulative draws at each look (increasing, the last ``n``; looks that would repeat a size dropped).

    Examples
    --------
    >>> look_sizes(200_000), look_sizes(8)
    ([12500, 50000, 200000], [1, 2, 8])
    >>> look_sizes(2)
    [1, 2]
    """
    sizes: list[int] = []
    for f in LOOKS:
        m = max(1, int(math.ceil(n * f)))
        if not sizes or m > sizes[-1]:
            sizes.append(m)
    return sizes


def clearly_right(counts: np.ndarray, probs: np.ndarray, min_prob: float = 1e-3) -> bool:
    """Whether every outcome of probability ``>= min_prob`` already excludes a relative error :data:`EFFECT` with
    one-sided confidence ``1 - FUTILITY``.

    Examples
    --------
    >>> p = np.array([0.25, 0.75])
    >>> bool(clearly_right(np.array([2500, 7500]), p)), bool(clearly_right(np.array([25, 75]), p))
    (True, False)
    """
    counts = np.asarray(counts, dtype=np.float64)
    probs = np.asarray(probs, dtype=np.float64)
    n = counts.sum()
    big = probs >= min_prob
    p = probs[big]
    z = (counts[big] - n * p) / np.sqrt(n * p * (1.0 - p))
    # under a slip to p(1 +- r) the count's sd is sqrt((1 +- r)(1 - p(1 +- r))/(1 - p)) times the exact law's (the
    # larger of the two directions; a 10% excess is impossible above p = 1/1.1): the bound leaves FUTILITY of the
    # slip's own spread below it
    up = np.clip((1.0 + EFFECT) * (1.0 - p * (1.0 + EFFECT)), 0.0, None)
    spread = np.sqrt(np.maximum(up, (1.0 - EFFECT) * (1.0 - p * (1.0 - EFFECT))) / (1.0 - p))
    bound = EFFECT * np.sqrt(n * p / (1.0 - p)) - stats.norm.isf(FUTILITY) * spread
    return bool(np.all(np.abs(z) <= bound))


def sequential_counts_test(
    draw: Callable[[int], np.ndarray], probs: np.ndarray, n: int, alpha: float = ALPHA
) -> tuple[bool, str | None, dict]:
    """The counts test of :func:`.lawtests.counts_test` over at most ``n`` draws, stopping early (module doc).

    Parameters
    ----------
    draw : callable
        ``draw(m)`` returns ``m`` outcome indices (integers in ``0..len(probs) - 1``; anything else fails).
    probs : array_like
        The exact law.
    n : int
        The draws of a full run.
    alpha : float
        The overall chance of failing a correct port.

    Returns
    -------
    tuple
        ``(ok, message, detail)`` as :func:`.lawtests.counts_test`; ``detail`` adds ``draws_used``, ``look``
        (1-based) and ``stopped`` (``"clearly wrong"``, ``"clearly right"`` or ``"final"``).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> ok, msg, detail = sequential_counts_test(lambda m: rng.choice(2, m, p=[0.3, 0.7]), np.array([0.3, 0.7]),
    ...                                          200_000)
    >>> ok, detail["stopped"], detail["draws_used"]
    (True, 'clearly right', 12500)
    """
    probs = np.asarray(probs, dtype=np.float64)
    k = probs.size
    counts = np.zeros(k, dtype=np.int64)
    done = 0
    sizes = look_sizes(n)
    if len(sizes) != len(LOOKS):  # too few draws to look three times: one test at alpha
        sizes = [int(n)]
    levels = [alpha * share for share in SPENDING] if len(sizes) == len(LOOKS) else [alpha]
    for look, target in enumerate(sizes):
        while done < target:
            m = min(_CHUNK, target - done)
            idx = np.asarray(draw(m)).ravel()
            if idx.size != m or (idx.size and (idx.min() < 0 or idx.max() >= k)):
                bad = idx[(idx < 0) | (idx >= k)]
                what = f"the outcome {int(bad[0])}" if bad.size else f"{idx.size} outcomes for {m} draws"
                return False, f"returned {what}, outside the output set 0..{k - 1}", {"draws_used": done + m}
            counts += np.bincount(idx.astype(np.int64), minlength=k)
            done += m
        final = look == len(sizes) - 1
        ok, msg, detail = counts_test(counts, probs, alpha=levels[look])
        detail.update(draws_used=done, look=look + 1, alpha_spent=sum(levels[: look + 1]))
        if not ok:
            stop = "final" if final else "clearly wrong"
            where = "" if final else f" [stopped early at look {look + 1} of {len(sizes)}, {done} of {n} draws]"
            return False, f"{msg}{where}", dict(detail, stopped=stop)
        if not final and clearly_right(counts, probs):
            return True, None, dict(detail, stopped="clearly right")
    return True, None, dict(detail, stopped="final")
