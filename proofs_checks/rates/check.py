"""Build rate claims' checks from a trial function, a grid per profile and a stated exponent."""

from __future__ import annotations

import re

import numpy as np

from ..model import Result
from ..verdicts import CONFIDENCE
from .fit import RATE_VERDICT_TO_CLAIM, fit_rate
from .plot import plot_rate
from .sweep import run_sweep

__all__ = ["make_rate_check"]


def make_rate_check(
    claim_id,
    trial,
    grids,
    rate_variable,
    stated_exponent,
    *,
    repetitions,
    zeta=0.1,
    confidence=CONFIDENCE,
    xlabel="n * epsilon",
    paper_values=None,
    reading="",
):
    """Return ``check(ctx)`` sweeping ``grids[ctx.profile]`` and fitting the ``1 - zeta`` quantile.

    Parameters
    ----------
    claim_id : str or None
        Names the figure (file name and title); ``None``: the id of the claim the context is
        scoped to.  The randomness is the claim's own stream, ``ctx.seed_sequence()``.
    trial : callable
        ``trial(point, rng) -> float`` excess risk of one run (picklable for ``jobs > 1``).
    grids : dict
        ``{"quick": [...], "full": [...]}`` grid points.
    rate_variable : callable
        ``point -> x`` (e.g. ``n * epsilon``).
    stated_exponent : float
        ``a`` in the stated rate ``x^(-a)``.
    repetitions : dict
        ``{"quick": r, "full": R}``.
    zeta : float
        The theorem's failure probability; the ``1 - zeta`` quantile is judged.
    paper_values : list of dict, optional
        Numbers the paper reports, put beside ours in the evidence.
    reading : str
        The place in the paper and the reading of the rate (the result's ``reading``).

    The result's ``observed`` is the exponent fitted to the ``1 - zeta`` quantile, ``bound``
    the stated exponent, direction ``"at_least"`` (decay at least as fast as stated).  The
    verdict comes from the fit's confidence interval (:func:`~proofs_checks.rates.fit.fit_rate`:
    ``consistent`` -> confirmed, ``slower`` -> refuted, else inconclusive), not from the point
    estimate, so a confirmed rate may show a small negative margin.  The evidence holds
    ``stated_exponent``, ``observed_exponent``, ``ci_low``, ``ci_high``, ``rate_verdict`` of
    the quantile fit and the mean fit for reference.
    """

    def check(ctx):
        grid = grids[ctx.profile]
        reps = repetitions[ctx.profile]
        sweep = run_sweep(trial, grid, reps, seed=ctx.seed_sequence(), jobs=ctx.jobs)
        x = np.array([rate_variable(p) for p in grid], dtype=float)
        q_fit = fit_rate(x, sweep.errors, stated_exponent, confidence=confidence, quantile=1 - zeta)
        m_fit = fit_rate(x, sweep.errors, stated_exponent, confidence=confidence)
        figures = []
        if ctx.out_dir is not None:
            title = claim_id or ctx.stream_id()
            name = re.sub(r"[^A-Za-z0-9_.-]", "_", title) + ".png"
            plot_rate(
                ctx.out_dir / "figures" / name,
                x,
                sweep.errors,
                stated_exponent,
                quantile=1 - zeta,
                xlabel=xlabel,
                title=title,
            )
            figures.append(f"figures/{name}")
        evidence = {
            "stated_exponent": stated_exponent,
            "observed_exponent": q_fit.observed_exponent,
            "ci_low": q_fit.ci_low,
            "ci_high": q_fit.ci_high,
            "rate_verdict": q_fit.verdict,
            "confidence": confidence,
            "quantile": 1 - zeta,
            "method": q_fit.method,
            "mean_fit": m_fit.as_dict(),
            "rate_variable": xlabel,
            "x": x,
            "quantile_errors": sweep.quantile(1 - zeta),
            "mean_errors": sweep.errors.mean(axis=1),
            "repetitions": reps,
            "grid": grid,
        }
        if paper_values:
            evidence["paper_values"] = paper_values
        method = (
            f"{q_fit.method}: exponent of the {1 - zeta:g} quantile of the excess risk against {xlabel}, "
            f"{confidence:g} confidence interval [{q_fit.ci_low:.3g}, {q_fit.ci_high:.3g}] "
            f"({q_fit.verdict}); {len(grid)} grid points x {reps} repetitions"
        )
        return Result(
            RATE_VERDICT_TO_CLAIM[q_fit.verdict],
            observed=q_fit.observed_exponent,
            bound=stated_exponent,
            direction="at_least",
            method=method,
            reading=reading
            or f"stated rate {xlabel}^(-{stated_exponent:g}) for the {1 - zeta:g} quantile "
            f"of the excess risk (failure probability zeta = {zeta:g})",
            evidence=evidence,
            figures=figures,
            evidence_kind="rate_fit",
        )

    return check
