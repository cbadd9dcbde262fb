"""[004 Thm. E]'s explicit terms with the O~ constant 1 on an output-perturbation design (evidence rows).

Shared by the coverage check :func:`proofs_checks.claim_sets.arora.boosting.boosting_excess_risk_check` and the
rate claim :mod:`.boosting_rate`, which carries the row beside its fit.
"""

from __future__ import annotations

import numpy as np

from reference.arora.data import make_problem, sample_records
from reference.arora.learners import OutputPerturbation
from reference.arora.model_selection import (
    boosting,
    boosting_n0,
    boosting_sigma_tilde,
    gaussian_output_subgaussian_constant,
)

from ...rates.trials_arora import theorem_e_explicit_terms
from ...verdicts import clopper_pearson

__all__ = ["EXPLICIT_TERMS", "explicit_terms_rows"]

#: The terms of [004 Thm. E] besides ``err``, as printed (O~ constant 1).
EXPLICIT_TERMS = "2 Delta/(n eps) + 2 Delta/n + 32 gamma sqrt(H) Y/sqrt(n) + 16 Y/sqrt(n) + 128 H gamma^2/n"


def _boost_setup(n, rng):
    """The squared-loss problem, output perturbation (lambda = 0.5), ``n`` records, ``m = 4``, ``B = 2``."""
    p = make_problem("squared", (1.2, -0.6))
    L = OutputPerturbation("squared", 1.0, p.y_bound, lam=0.5)
    return p, L, sample_records(p, n, rng), 4, 2.0


def explicit_terms_rows(rng, profile, variant="printed", slack=1.0, epsilon=1.0, delta=1e-5, beta=0.2):
    """[004 Thm. E]'s explicit terms with the O~ constant 1, on the output-perturbation design: one row.

    Checks ``excess(w_out) <= min_i excess(w_i) + 2 Delta/(n eps) + 2 Delta/n + 32 gamma sqrt(H) Y/sqrt(n)
    + 16 Y/sqrt(n) + 128 H gamma^2 / n`` (``err`` replaced by the best model's realised excess, ``Delta`` the
    worst domain loss of the models) in ``runs`` runs at ``n = 2500`` (full: ``20000``).  No output of
    Boosting can exceed the best model by more than the largest realised spread ``max_i excess(w_i) -
    min_i excess(w_i)`` of its run (the output is one of the models; the models themselves are unbounded,
    ``w + N(0, sigma^2 I)``), so where the extra terms are at least the largest spread over all runs the row
    says ``vacuous``: no selection rule could violate it.

    Parameters
    ----------
    rng : numpy.random.Generator
    profile : {"quick", "full"}
    variant : {"printed", "standard"}
    slack : float
        Factor on the whole bound (1 as stated).
    epsilon, delta, beta : float

    Returns
    -------
    dict
        ``status`` (``"vacuous"``, ``"holds"`` or ``"violated"``), the terms, the spreads and the coverage.

    References
    ----------
    .. [1] [004 Thm. E].
    """
    n = 2500 if profile == "quick" else 20000
    reps = 200 if profile == "quick" else 1000
    p, L, z, m, B = _boost_setup(n, rng)
    chunk = n // (m + 1)
    sigma = L.sigma(B, chunk, epsilon / 2, delta)
    gamma = gaussian_output_subgaussian_constant(B, sigma)
    st = boosting_sigma_tilde(n, epsilon, p.y_bound, L.H, gamma, 1.0)
    w, det = boosting(
        z, L, B, m, epsilon, delta, sigma_tilde=st, variant=variant, size=reps, rng=rng, return_details=True
    )
    ex_out = p.excess_risk(w)
    ex_models = p.excess_risk(det["models"].reshape(-1, 2)).reshape(reps, m)
    Y, H = p.y_bound, L.H
    Dl = float(((np.linalg.norm(det["models"], axis=2) + Y) ** 2).max())
    extra = theorem_e_explicit_terms(n, epsilon, Dl, gamma, H, Y)
    best = ex_models.min(axis=1)
    bound = slack * (best + extra)
    viol = int(np.sum(ex_out > bound))
    largest_spread = float((ex_models.max(axis=1) - best).max())
    vacuous = slack * extra >= largest_spread
    status = "vacuous" if vacuous else ("holds" if viol / reps <= beta else "violated")
    return {
        "design": "output perturbation (lambda = 0.5), squared loss, w* = (1.2, -0.6), m = 4",
        "n": n,
        "runs": int(reps),
        "status": status,
        "slack": slack,
        "extra_terms": extra,
        "largest_spread_of_models": largest_spread,
        "extra_over_largest_spread": extra / largest_spread,
        "excess_of_zero_vector": float(p.excess_risk(np.zeros(2))[0]),
        "violation_rate": viol / reps,
        "coverage_clopper_pearson": list(clopper_pearson(reps - viol, reps)),
        "beta": beta,
        "n0_of_theorem": boosting_n0(gamma, beta, H, Y),
        "mean_excess_output": float(ex_out.mean()),
        "mean_excess_single_model": float(ex_models[:, 0].mean()),
        "q95_excess_output": float(np.quantile(ex_out, 0.95)),
    }
