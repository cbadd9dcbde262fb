"""Sequential estimation split: count the chosen event in looks and stop once the verdict is settled.

The statistical audit tests one event ``S`` on its estimation split (:mod:`~proofs_checks.audit.statistical`).
With ``looks = L > 1`` the split's ``n`` calls per dataset are drawn in ``L`` equal looks; after look ``i`` the
counts so far give the bound of step 3 at error ``(1 - confidence) / L`` (each one-sided bound at half of it):

* **refuted** -- the bound exceeds the claimed epsilon: stop;
* **cannot reach** -- even optimistic counts cannot refute at the full size: with ``P(S)`` at its upper and
  ``P'(S)`` at its lower Clopper-Pearson bound at error :data:`FUTILITY_ERROR` from the counts so far, the bound
  at ``n`` calls and error ``(1 - confidence) / L`` stays at or below the claim: stop, not refuted;
* otherwise draw the next look.

Alpha spending (Bonferroni over the looks): each look's bound fails with probability at most
``(1 - confidence) / L``, so the probability that any look refutes an (eps, delta)-DP mechanism is at most
``1 - confidence`` -- the confidence of the audit holds whatever the stopping time.  Stopping for futility never
refutes, so it cannot raise that probability; it may cost power (a look's optimistic bound wrong with probability
at most ``2 FUTILITY_ERROR``).  At the full size the bound is at error ``(1 - confidence)/L`` instead of
``1 - confidence``: a little less power than the one-look audit, bought by the early stops.

References
----------
.. [1] C. Jennison and B. W. Turnbull, "Group sequential methods with applications to clinical trials",
       Chapman & Hall 2000 (alpha spending; the Bonferroni split is its simplest spending function).
"""

from __future__ import annotations

import time

import numpy as np
from statsmodels.stats.proportion import proportion_confint

from .confidence_bounds import _eps_from_bounds, clopper_pearson_bounds
from .sampling import _chunk_sizes, _draw_task, _run_tasks

__all__ = ["sequential_count", "FUTILITY_ERROR"]

#: Error of the optimistic bounds of the futility rule.
FUTILITY_ERROR = 1e-3


def _optimistic_final_bound(k_num, k_den, n_done, n_total, delta, confidence_look):
    """The bound at ``n_total`` calls if the rates were at their optimistic ends (``P`` high, ``P'`` low)."""
    p_high = proportion_confint(k_num, n_done, alpha=2 * FUTILITY_ERROR, method="beta")[1]
    q_low = proportion_confint(k_den, n_done, alpha=2 * FUTILITY_ERROR, method="beta")[0]
    k1 = int(np.ceil(p_high * n_total))
    k2 = int(np.floor(q_low * n_total))
    return _eps_from_bounds(*clopper_pearson_bounds(min(k1, n_total), n_total, k2, n_total, confidence_look), delta)


def sequential_count(
    mechanism, pair, est_root, n_est, stat, sign, thr, epsilon, delta, confidence, looks, *, jobs, chunk_size
):
    """Count ``{sign * stat > thr}`` on fresh calls in ``looks`` looks, stopping when the verdict is settled.

    Parameters
    ----------
    mechanism, pair, est_root, n_est, stat, sign, thr
        As the estimation split of :func:`~proofs_checks.audit.statistical.statistical_audit`.
    epsilon, delta : float
        The claim.
    confidence : float
        The audit's confidence; each look's bound is at error ``(1 - confidence) / looks``.
    looks : int
        At least 2.

    Returns
    -------
    dict
        ``k_num``, ``k_den`` (counts of the numerator's and the other dataset's calls in ``S``), ``n`` (calls per
        dataset used), ``looks_used``, ``stopped`` (``"refuted"``, ``"cannot reach"`` or ``"budget"``),
        ``epsilon_lower``, ``p_low``, ``q_high`` (at the look's confidence), ``confidence_per_look``,
        ``seconds_mechanism``, ``seconds_auditor``.

    Examples
    --------
    >>> from proofs_checks.audit.calibration import LaplaceCount
    >>> lap = LaplaceCount(scale=1.0)
    >>> out = sequential_count(lap, lap.pair(), np.random.SeedSequence(0), 40_000, lambda o: -o[:, 0], 1.0, 0.0,
    ...                        0.25, 0.0, 0.95, 8, jobs=1, chunk_size=65_536)
    >>> out["stopped"], out["n"] < 40_000
    ('refuted', True)
    """
    if looks < 2:
        raise ValueError(f"looks must be at least 2, got {looks!r}")
    confidence_look = 1.0 - (1.0 - confidence) / looks
    ea, eb = est_root.spawn(2)
    seeds = list(zip(ea.spawn(looks), eb.spawn(looks)))
    sizes = [n_est // looks + (1 if i < n_est % looks else 0) for i in range(looks)]
    counts = [0, 0]
    n_done, t_mech, t_aud = 0, 0.0, 0.0
    out: dict = {}
    for i, m in enumerate(sizes):
        for side, (data, where) in enumerate(((pair[0], "D"), (pair[1], "D_prime"))):
            chunks = _chunk_sizes(m, chunk_size)
            tasks = [
                (_draw_task, (mechanism, data, c, s, where, stat, [(sign, thr)]))
                for c, s in zip(chunks, seeds[i][side].spawn(len(chunks)))
            ]
            res = _run_tasks(tasks, jobs)
            counts[side] += int(sum(r[0][0] for r in res))
            t_mech += sum(r[1] for r in res)
            t_aud += sum(r[2] for r in res)
        n_done += m
        t0 = time.perf_counter()
        k_num, k_den = (counts[0], counts[1]) if sign > 0 else (counts[1], counts[0])
        p_low, q_high = clopper_pearson_bounds(k_num, n_done, k_den, n_done, confidence_look)
        eps_lower = _eps_from_bounds(p_low, q_high, delta)
        stopped = "budget" if i == looks - 1 else None
        if eps_lower > epsilon:
            stopped = "refuted"
        elif (
            stopped is None and _optimistic_final_bound(k_num, k_den, n_done, n_est, delta, confidence_look) <= epsilon
        ):
            stopped = "cannot reach"
        t_aud += time.perf_counter() - t0
        if stopped:
            out = {
                "k_num": k_num,
                "k_den": k_den,
                "n": n_done,
                "looks_used": i + 1,
                "stopped": stopped,
                "epsilon_lower": eps_lower,
                "p_low": p_low,
                "q_high": q_high,
                "confidence_per_look": confidence_look,
            }
            break
    out.update(seconds_mechanism=t_mech, seconds_auditor=t_aud)
    return out
