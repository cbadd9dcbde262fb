"""Claims of 002 (Hu, Ni, Xiao & Wang) about Algorithms 1-5 and the algorithms themselves.

Modules
-------
algorithms
    The algorithms ``hu-1`` ... ``hu-5`` as mechanisms for the auditor.
frank_wolfe
    Privacy of Algorithms 1 and 2: [002 Thm. 1], [002 Thm. 4] (exact output laws).
sparse
    Privacy of Algorithms 3 and 5 per iteration: [002 Thm. 6], [002 Thm. 8] (Peeling, [002 Lemma 10]).
sensitivities
    The sensitivity statements of [002 Alg. 1 step 6], [002 Alg. 2 step 4], [002 Alg. 3 step 6],
    [002 Alg. 5 step 7] (adversarial search for the largest change).
utility
    [002 Lemma 1] (utility of the exponential mechanism) at Algorithm 1's step 6.
parameters
    Printed parameters as formulas: step sizes, Algorithm 5's lambda, the [002 Sec. 6.2] noise.
lower_bound
    [002 Lemma 3] (two readings of its event; exact LP over all DP tests) and [002 Thm. 9] (packing, formula,
    the Omega statement as vacuous).
alg5_readings
    The two index readings of [002 Alg. 5 step 4]: the proof's recursion and one iteration's privacy under each.
gray_box
    Gray-box replays of Algorithms 1, 2, 3 and 5 at the paper's parameter schedules ([002 Thm. 1], [002 Thm. 4],
    [002 Thm. 6], [002 Thm. 8]), with mutants inside the algorithms.
findings
    The headline findings about 002, each with its claim ids, reading and numbers.
add_remove
    [002 Thm. 1] under add/remove neighbours: the contiguous split and a random partition.
units
    Units checks: Algorithm 2's exact selection law invariant when features, labels and K are rescaled together;
    Algorithm 1's sensitivity scaling like its score.
units_sparse
    Units check of one Algorithm 3 iteration: its Peeling inputs invariant under a joint change of units.
lemmas, peeling_lemmas, assumptions, lower_bound_steps, alg5_sensitivity
    Single steps of the proofs: [002 Lemma 6], [002 Lemma 7], [002 Lemma 12], [002 Lemma 15], [002 Assumption 2],
    [002 Remark 2], the final bound of [002 Lemma 3], [002 Lemma 11], the packing of [002 Thm. 9], and the exact
    sensitivity behind [002 Alg. 5 step 7].
peeling_projection, support_gradient
    [002 Lemma 13] (the Peeling projection inequality, two readings of ``I``) and [002 Lemma 14] (eq. (72) on
    quadratics, readings of the loss's scale and of ``w*``).
frank_wolfe_gap
    [002 Lemma 5] by simulation with the constants of its proof (two readings of the mechanism's logarithms).
composition_sweep
    An eps sweep of the composition argument of [002 Thm. 4] inside and beyond its stated range ``0 < eps < 1``.
peeling_sweep
    The same for Peeling's budgets in [002 Thm. 6] and [002 Thm. 8] ([002 Lemma 10]).
truncation_moments
    [002 Lemma 8] with its hidden constants fixed as the proof's steps give them: the truncation bias (36) and
    (38), the variance step before (34), the union bound's ``t``, and the coverage of (33) by simulation.
rates, rate_settings
    The excess-risk rates of [002 Thm. 2], [002 Thm. 3], [002 Thm. 5], [002 Thm. 7], [002 Thm. 8]
    and their dependence on ``d`` and ``s*``.
rate_thm3_pseudo_huber
    [002 Thm. 3] on the pseudo-Huber loss, inside [002 Assumption 2] as printed.
rate_eps_thm3_5_7
    Eps sweeps at fixed ``n`` of [002 Thm. 3], [002 Thm. 5], [002 Thm. 7] (reading "uniform in eps").

Every check factory keeps the arguments that a test can break on purpose (a sensitivity or
noise parameter scaled down, a stated bound halved, a trial that ignores the data) to show
that the check can fail.  Claims about the Catoni estimator itself belong to the Catoni
claim set.
"""

from . import (
    add_remove,
    alg5_readings,
    alg5_sensitivity,
    algorithms,
    assumptions,
    composition_sweep,
    findings,
    frank_wolfe,
    frank_wolfe_gap,
    fw_first_step,
    gray_box,
    lemmas,
    lower_bound,
    lower_bound_steps,
    parameters,
    peeling_lemmas,
    peeling_projection,
    peeling_sweep,
    rate_eps_thm3_5_7,
    rate_thm3_pseudo_huber,
    rates,
    sensitivities,
    sparse,
    support_gradient,
    truncation_moments,
    units,
    units_sparse,
    utility,
)
from ._common import NEIGHBOURS, corner_records, variant_reading

#: ``NEIGHBOURS``, ``variant_reading`` and ``corner_records``: the neighbouring relation and readings the claims of
#: 002 state, and the designed records of the sensitivity checks.
__all__ = ["register", "NEIGHBOURS", "variant_reading", "corner_records"]


def register(registry):
    """Add the algorithms and claims of 002 to ``registry``."""
    for module in (
        algorithms,
        frank_wolfe,
        sparse,
        sensitivities,
        parameters,
        utility,
        lower_bound,
        alg5_readings,
        gray_box,
        rates,
        rate_thm3_pseudo_huber,
        rate_eps_thm3_5_7,
        add_remove,
        lower_bound_steps,
        alg5_sensitivity,
        lemmas,
        assumptions,
        peeling_lemmas,
        peeling_projection,
        support_gradient,
        truncation_moments,
        composition_sweep,
        peeling_sweep,
        frank_wolfe_gap,
        fw_first_step,
        units,
        units_sparse,
        findings,
    ):
        module.register(registry)
