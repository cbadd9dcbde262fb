"""Claims of 004 (Arora, Bassily, Guzman, Menart & Ullah): Private Grid Search [004 Alg. 1] with GEM
[004 App. D.1], its Theorem [004 Thm. 1], the base learners and [004 Lemma D.4], Boosting [004 App. E]
with its theorem [004 Thm. E] and the concentration lemma [004 Lemma E].

Every check is built by a factory whose arguments default to the implementation in
:mod:`reference.arora`; the tests pass deliberately broken arguments (noise 30% too small,
sensitivity halved, ...) and show each check refutes them.

Modules
-------
mechanisms
    The four algorithms and their mechanism factories for the auditor.
audit_records
    Their audit records (multipliers, proofs and reasons of the mutants, designed pairs, measured power).
grid_search
    Privacy of [004 Alg. 1]: the GEM step and the composition of [004 Thm. 1].
theorem2
    [004 Thm. 2]: its choice of K, and the noise level H X^2 sigma_j^2 = O~(Y^2) of [004 App. D.3].
theorem2_privacy
    [004 Thm. 2]'s privacy without its premise: the boosted learner at (eps/K, delta/K), printed sigma~.
excess_risk
    The excess-risk bound of [004 Thm. 1].
guess_bound
    [004 App. D.2]: the smallest guess 2^(j') against max{2||w*||, 1} (proof) and 2 max{||w*||, 1} (statement).
validation_concentration
    [004 App. D.2]: the second-moment bound 4Y^2 and eq. (1) of the validation losses.
gem
    GEM's privacy and utility [004 App. D.1] on the pairs of [004 Alg. 1].
lemma_d4
    [004 Lemma D.4]: the loss bounds Delta(B) of the base learners.
learners
    Sensitivities and Gaussian calibrations of the base learners.
boosting_privacy
    Boosting's privacy [004 Thm. E], over many model draws, with the clipped calibrated variant.
boosting_rescaled
    Boosting's privacy at the printed sigma~ for n >= n0, labels, radius and model rescaled.
boosting
    Boosting [004 App. E]: the Laplace notation, sub-Gaussian condition, excess risk [004 Thm. E].
concentration
    [004 Lemma E].
units
    Units checks: Boosting's privacy, Lemma D.4's Delta(B) and the validation penalty under a change of units.
gray_box
    Gray-box checks of Theorems 1-2, Boosting and the learners at realistic parameters, mutants inside.
"""

from __future__ import annotations

from . import (
    audit_records,
    boosting,
    boosting_privacy,
    boosting_rescaled,
    concentration,
    excess_risk,
    findings,
    gem,
    gray_box,
    grid_search,
    guess_bound,
    learners,
    lemma_d4,
    mechanisms,
    statement_slips,
    theorem2,
    theorem2_privacy,
    units,
    validation_concentration,
)
from ._common import grid_configs

#: ``grid_configs``: the configurations the grid-search and GEM claims of 004 run on.
__all__ = ["register", "grid_configs"]


def register(registry):
    """Add the algorithms with their audit records, and the claims of 004 (in the order the report lists them)."""
    mechanisms.register(registry)
    audit_records.register(registry)
    for module in (
        grid_search,
        theorem2,
        theorem2_privacy,
        excess_risk,
        validation_concentration,
        statement_slips,
        guess_bound,
        gem,
        lemma_d4,
        learners,
        boosting_privacy,
        boosting_rescaled,
        boosting,
        concentration,
        units,
        gray_box,
        findings,
    ):
        module.register(registry)
