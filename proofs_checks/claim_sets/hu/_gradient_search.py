"""Adversarial search for the largest change of the robust gradient [002 Alg. 1 steps 4-5] between neighbours.

The robust gradient ``g~`` applies the smoothed Catoni estimator [002 eqs. (2)-(5)] to each
coordinate of the per-example gradients.  Its l_inf sensitivity, ``4 sqrt(2) s / (3m)`` in the proof of
[002 Thm. 1], drives the score sensitivity of Algorithm 1 step 6 and the Peeling parameter of
Algorithm 5 step 7.  Two searches find large changes: one over the per-example gradient value of the
replaced record (a float64-wide grid, refined around the extremes), one over whole candidate records
through a loss.
"""

from __future__ import annotations

import math

import numpy as np

from reference.hu import catoni
from reference.hu.frank_wolfe import GRAD_CAP
from reference.losses import get_loss

from ...adversarial import heavy_tailed_records
from ._common import as_labels, base_data, candidate_pool


def gradient_grid(quick):
    """Per-example gradient values spanning float64 (0, subnormal, ..., 1.8e308), both signs."""
    mags = np.concatenate(
        [
            [0.0, 5e-324, 1e-310],
            10.0 ** np.linspace(-300, 308, 120 if quick else 1200),
            10.0 ** np.linspace(-3, 3, 150 if quick else 3000),
            [1.7976931348623157e308],
        ]
    )
    return np.unique(np.concatenate([mags, -mags]))


def robust_columns_or_nan(G, s, beta, variant):
    """:func:`reference.hu.frank_wolfe.robust_gradient_matrix` without its refusal: NaN where it would raise.

    The implementation refuses a column whose estimate is not finite (the printed variant at a zero
    gradient entry, ``b = 0``, outside the paper's ``b > 0``).  The searches skip those inputs, count
    them, and judge the claim on the columns where the algorithm runs.  Same cap of the entries.
    """
    G = np.asarray(G, dtype=np.float64)
    cap = GRAD_CAP * s * min(1.0, math.sqrt(beta))
    G = np.where(np.abs(G) > cap, np.sign(G) * cap, G)
    g = np.asarray(catoni.robust_gradient(G, s, beta, variant=variant), dtype=np.float64)
    return np.where(np.isfinite(g), g, np.nan)


def _robust_columns(base, cand, s, beta, variant):
    """Robust gradient of coordinate 0 of ``base`` (m, 1) with row 0 replaced by each candidate value (NaN: cannot run)."""
    G = np.repeat(base, cand.size, axis=1)
    G[0, :] = cand
    return robust_columns_or_nan(G, s, beta, variant)


def max_coordinate_change(s, beta, m, variant, rng, quick):
    """Largest change of one robust-gradient coordinate when one of ``m`` per-example gradients is replaced.

    Searches a float64-wide grid of replacement values against one (quick) or six base samples and
    refines around the extremes (the maximiser may lie between grid points).

    Returns
    -------
    change : float
    pair : dict
        The base sample and the two replacement values that attain ``change``.
    evaluations : int
        Replacement values evaluated.
    skipped : int
        Evaluations on which the estimator is not finite (the implementation cannot run); skipped.
    """
    grid = gradient_grid(quick)
    best, pair, evaluations, skipped = -1.0, None, 0, 0
    for _ in range(1 if quick else 6):
        base = heavy_tailed_records(1, m, rng) * s * 10.0 ** rng.uniform(-2, 2)
        vals = _robust_columns(base, grid, s, beta, variant)
        if np.all(np.isnan(vals)):
            skipped += vals.size
            continue
        hi, lo = int(np.nanargmax(vals)), int(np.nanargmin(vals))
        cand = [grid]
        for j in (hi, lo):
            a, b = grid[max(j - 1, 0)], grid[min(j + 1, grid.size - 1)]
            cand.append(np.linspace(a, b, 201))
        cand = np.unique(np.concatenate(cand))
        vals = _robust_columns(base, cand, s, beta, variant)
        skipped += int(np.sum(np.isnan(vals)))
        evaluations += grid.size + cand.size
        hi, lo = int(np.nanargmax(vals)), int(np.nanargmin(vals))
        change = float(vals[hi] - vals[lo])
        if change > best:
            best, pair = (
                change,
                {
                    "m": m,
                    "base_row0": float(base[0, 0]),
                    "other_rows": base[1:, 0].tolist(),
                    "replacement_a": float(cand[hi]),
                    "replacement_b": float(cand[lo]),
                    "g_tilde_a": float(vals[hi]),
                    "g_tilde_b": float(vals[lo]),
                },
            )
    return best, pair, evaluations, skipped


def record_level_change(loss_name, s, beta, m, d, variant, rng, quick):
    """Largest sup-norm change of the robust gradient when record 0 is replaced by a candidate record.

    Returns ``(change, pair, evaluations, skipped)`` as :func:`max_coordinate_change`; candidates on
    which the estimator is not finite are skipped and counted.
    """
    loss = get_loss(loss_name)
    labels = loss_name.startswith("logistic")
    data = base_data(rng, m, d)
    if labels:
        data = as_labels(data)
    pool = candidate_pool(d + 1, rng, quick)
    if labels:
        pool = as_labels(pool)
    w = rng.dirichlet(np.ones(d + 1))[:d] * rng.choice([-1.0, 1.0], size=d)
    G = loss.gradient(w, data[:, :-1], data[:, -1])  # (m, d)
    Gc = loss.gradient(w, pool[:, :-1], pool[:, -1])  # (C, d)
    C = Gc.shape[0]
    stack = np.repeat(G[:, None, :], C + 1, axis=1)  # column 0: the original dataset
    stack[0, 1:] = Gc
    g = robust_columns_or_nan(stack.reshape(m, (C + 1) * d), s, beta, variant).reshape(C + 1, d)
    if np.any(np.isnan(g[0])):  # the original dataset itself cannot run: nothing to compare
        return 0.0, {"loss": loss_name, "skipped": "original dataset not finite"}, C, C
    change = np.max(np.abs(g[1:] - g[0]), axis=1)
    runs = ~np.isnan(change)
    if not np.any(runs):
        return 0.0, {"loss": loss_name, "skipped": "no runnable candidate"}, C, C
    j = int(np.nanargmax(change))
    return (
        float(change[j]),
        {"loss": loss_name, "w": w.tolist(), "original": data[0].tolist(), "replacement": pool[j].tolist()},
        C,
        int(np.sum(~runs)),
    )
