"""What the checks of 004 share: adversarial domain records, the grid-search configurations, and
coverage judged separately at each sample size.
"""

from __future__ import annotations

import numpy as np

from reference.arora.data import make_problem, project_to_domain
from reference.arora.learners import NoisyGD, OutputPerturbation

from ...adversarial import candidate_records
from ...builders import with_power_note as with_power  # noqa: F401  (re-exported to the 004 claim modules)
from ...model import Mutant
from ...verdicts import clopper_pearson, coverage_verdict

__all__ = ["domain_candidates", "grid_configs", "coverage_at_each_n", "scaled_mutants", "with_power"]


def domain_candidates(d, loss, X, Y, rng, random_count=32):
    """Adversarial candidate records projected into the learners' domain, plus boundary records.

    Parameters
    ----------
    d : int
        Feature dimension.
    loss : {"squared", "logistic"}
        Logistic labels are snapped to +-1.
    X, Y : float
        Feature norm bound and label bound of the domain.
    rng : numpy.random.Generator
    random_count : int
        Heavy-tailed random records of :func:`proofs_checks.adversarial.candidate_records`.

    Returns
    -------
    ndarray (m, d + 1)
        Distinct records ``(x, y)`` with ``||x|| <= X`` and ``|y| <= Y``: the projected candidates
        and the records ``(+-X e_i, +-Y)`` on the boundary.
    """
    raw = candidate_records(d + 1, rng, random_count=random_count)
    z = project_to_domain(raw, X, Y)
    eye = np.eye(d) * X
    boundary = np.vstack([np.column_stack([s * eye, np.full(d, t)]) for s in (1, -1) for t in (Y, -Y)])
    z = np.vstack([z, boundary])
    if loss == "logistic":
        z[:, -1] = np.where(z[:, -1] < 0, -1.0, 1.0)
    return np.unique(z, axis=0)


def grid_configs(profile: str) -> list[tuple]:
    """``(loss, problem, learner, n, K)`` configurations of [004 Alg. 1] with real candidates.

    Both losses and both base learners, trained on heavy-tailed data of size ``n`` (40 in
    the quick profile, 200 in the full one) with ``K = 3`` guesses.

    Parameters
    ----------
    profile : {"quick", "full"}
        The verify profile.

    Returns
    -------
    list of tuple
        ``(loss name, problem, learner, n, K)`` for each loss and base learner.

    Examples
    --------
    >>> [(loss, type(learner).__name__, n, K) for loss, _, learner, n, K in grid_configs("quick")][:2]
    [('squared', 'OutputPerturbation', 40, 3), ('squared', 'NoisyGD', 40, 3)]
    """
    out = []
    for loss in ("squared", "logistic"):
        p = make_problem(loss, (1.2, -0.6))
        for name in ("output-perturbation", "noisy-gd"):
            L = (
                OutputPerturbation(loss, 1.0, p.y_bound)
                if name == "output-perturbation"
                else NoisyGD(loss, 1.0, p.y_bound, steps=20)
            )
            out.append((loss, p, L, 40 if profile == "quick" else 200, 3))
    return out


def coverage_at_each_n(rows, nominal, confidence):
    """Judge a coverage claim separately at each sample size (the builder judges one sample).

    Parameters
    ----------
    rows : list of dict
        One per sample size, with ``"covered"`` and ``"runs"``; each gets its coverage, its
        Clopper-Pearson interval at ``confidence`` and its verdict (refuted when the upper
        limit is below ``nominal``) added in place.
    nominal : float
        The probability the paper states.
    confidence : float
        Level of each interval (Bonferroni-adjusted by the caller when several sizes are judged).

    Returns
    -------
    worst : dict
        The row of smallest coverage.
    refuted : bool
        Whether the claim is refuted at some sample size.
    """
    for row in rows:
        row["coverage"] = row["covered"] / row["runs"]
        row["coverage_clopper_pearson"] = list(clopper_pearson(row["covered"], row["runs"], confidence))
        row["verdict_here"] = coverage_verdict(row["covered"], row["runs"], nominal, confidence)
    worst = min(rows, key=lambda r: r["coverage"])
    return worst, any(r["verdict_here"] == "refuted" for r in rows)


def scaled_mutants(what, build, factors, notes=None):
    """One :class:`~proofs_checks.model.Mutant` per factor: ``build(f)`` is the check with ``what`` scaled by ``f``.

    ``notes`` maps a factor to words added to its name (``{0.5: "2x over-spend"}``).
    """
    notes = notes or {}
    return tuple(
        Mutant(f"{what} x{f:g}" + (f" ({notes[f]})" if f in notes else ""), build(f), factor=f) for f in factors
    )
