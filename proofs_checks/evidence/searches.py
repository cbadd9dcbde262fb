"""Evidence records of the deterministic checks: an adversarial search against a bound, and a formula."""

from __future__ import annotations

from .common import (BETA, BOUND_FACTOR, COMMON_FIELDS, EPSILON, EVALUATIONS, LAPLACE_SCALE, NORM_READING,
                     ROBUST_GRADIENT_VARIANT, ROWS, RULE, SENSITIVITY_FACTOR, THETA, THETAS, WORST)
from .record import EvidenceRecord, Field
from .types import BOOLEAN, INTEGER, OBJECT, REAL, STRING, AnyOf, ListOf, MapOf, optional

__all__ = ["BOUND_SEARCH", "FORMULA"]

BOUND_SEARCH = EvidenceRecord(
    "bound_search",
    "an adversarial maximum (or minimum) against a stated bound: the largest value a search over instances, "
    "neighbours or a grid finds, or the smallest margin, against the bound",
    "builders.max_search_check and the sensitivity and inequality claims that build their Result",
    COMMON_FIELDS + (
        EVALUATIONS, EPSILON, BETA, THETA, THETAS, LAPLACE_SCALE, BOUND_FACTOR, SENSITIVITY_FACTOR, NORM_READING,
        ROBUST_GRADIENT_VARIANT, WORST,
        Field("cases", AnyOf(ListOf(OBJECT), MapOf(OBJECT)),
              "one row per case of the check (a list, or an object by case label): parameters and measured values"),
        Field("settings", ListOf(OBJECT), "one row per parameter setting the check evaluates"),
        Field("instances", ListOf(OBJECT), "one row per instance of the check, with its measured values"),
        Field("configs", ListOf(OBJECT), "one row per configuration searched: its parameters, largest change and "
                                         "ratio to the stated bound"),
        Field("looseness_factor", optional(REAL), "1 / observed: how far the stated bound is above the largest "
                                                  "change found; null when nothing moved"),
        Field("skipped_inputs_cannot_run", INTEGER, "inputs on which the implementation cannot run (skipped)"),
        Field("analytic_worst_case", STRING, "the analytic worst case of the quantity, as a formula"),
        Field("analytic_ratio", REAL, "the analytic worst case / the stated bound under this reading"),
        Field("worst_pair", optional(OBJECT), "the neighbouring pair with the largest finite change"),
        Field("skipped_non_finite_pairs_cannot_run", INTEGER,
              "pairs on which the estimator is not finite (outside the paper's domain; skipped, not judged)"),
        Field("max_finite_change_over_bound", REAL, "the largest finite change / the stated bound"),
        Field("smallest_non_finite_example", optional(OBJECT), "the smallest input with a non-finite value; null "
                                                               "when there is none"),
        Field("budget_per_case", INTEGER, "evaluations the neighbour search may spend per case"),
        Field("max_observed_over_stated", REAL, "the largest observed change / the stated sensitivity, over cases"),
        Field("grid_points", INTEGER, "points of the grid the inequality was evaluated on"),
        Field("closest_to_failing", OBJECT, "the grid point closest to failing: x, theta, the values compared and "
                                            "the tolerance used"),
        Field("non_finite_psi_at", optional(OBJECT), "the first grid point where psi is not finite (the claim is "
                                                     "refuted there)"),
        Field("exactly_non_decreasing_in_float64", BOOLEAN, "psi is non-decreasing in float64 with no tolerance"),
        Field("exactly_odd_in_float64", BOOLEAN, "psi(-x) == -psi(x) in float64 with no tolerance"),
        Field("etas", ListOf(REAL), "the failure probabilities eta at which the tail bound is checked"),
        Field("vacuous_bounds", STRING, "bounds above the largest gap on the net (no law could violate them), k/m"),
        Field("datasets_per_case", INTEGER, "datasets drawn per case"),
        Field("weight_over_calibrated", REAL, "the variant's log-weight over the calibrated one (4 or more: the "
                                              "bound holds for any data, vacuous)"),
        Field("t_values", ListOf(REAL), "the deviations t of the utility bound checked"),
        Field("any_three_points_at_most", REAL, "the largest separation any three points of a packing can share"),
        Field("guaranteed_by_lemma11", REAL, "the separation [002 Lemma 11] guarantees"),
        Field("excess_risk", ListOf(REAL), "L(w^t) - L* at each iteration t"),
        Field("ratios", ListOf(REAL), "consecutive excess-risk ratios (L(w^(t+1)) - L*) / (L(w^t) - L*)"),
        Field("worst_step", INTEGER, "the iteration with the largest ratio (1-based)"),
        Field("gradient_at", STRING, "where the robust gradient is taken: the current or the lagged iterate"),
        Field("eta", REAL, "the step size eta of [002 Alg. 5]"),
        Field("at_u", REAL, "the point u of the largest |phi|"),
        Field("non_finite", INTEGER, "points where phi is not finite"),
        Field("max_abs_phi_mpmath", STRING, "the largest |x - x^3/6| on [-sqrt 2, sqrt 2] in mpmath (25 digits)"),
        Field("mpmath_within_bound", BOOLEAN, "that maximum is within the stated bound"),
        Field("points", INTEGER, "points evaluated"),
        Field("smallest_margin_for_|u|>=1e-3", STRING, "the smallest margin of the sandwich away from u = 0 "
                                                        "(where both sides touch phi)"),
        Field("smallest_margin_at", STRING, "the u of that smallest margin"),
        Field("smallest_margin_side", STRING, "which side of the sandwich gives it: lower or upper"),
        Field("counterexample", OBJECT, "the first point where the sandwich fails: u, the side, phi and the bound"),
        Field("loss", STRING, "the loss of the learner: squared or logistic"),
        Field("n", INTEGER, "the sample size n of the instance"),
        Field("d", INTEGER, "the dimension d of the instance"),
        Field("B", REAL, "the radius B of the parameter ball"),
        Field("lambda", REAL, "the regularisation lambda of the learner"),
        Field("X", REAL, "the bound X on the feature norm"),
        Field("Y", REAL, "the bound Y on the labels"),
        Field("accounting", STRING, "the composition accounting used for the total privacy"),
        Field("per_guess", INTEGER, "learners run per guess of the grid"),
        Field("target", REAL, "the target total epsilon"),
        Field("worst_by_d", MapOf(REAL), "the largest failure probability / target at each dimension d"),
        Field("proof_inequality_violations", INTEGER, "noise draws violating a step of the standard proof"),
    ))

FORMULA = EvidenceRecord(
    "formula",
    "a formula map or identity: closed forms (or a float64 implementation against its high-precision reference) "
    "evaluated over a grid or a region, the largest disagreement or slope against a tolerance",
    "builders.compare_result of the formula claims and the formula claims that build their Result",
    COMMON_FIELDS + (
        EPSILON, LAPLACE_SCALE, ROWS, RULE, WORST,
        Field("eps_above_one", ListOf(OBJECT), "the rule's grid size and required guess at epsilon > 1 (outside "
                                               "the statement; informative)"),
        Field("k_shift", INTEGER, "added to the rule's K (0 as stated; -1 builds a mutant)"),
        Field("scale_note", OBJECT, "how the rule's guess scale moves when the labels are scaled, with a note"),
        Field("worst_epsilon", REAL, "the epsilon of the largest slope"),
        Field("lambda", STRING, "the rule for the regularisation lambda (default or a mutant's)"),
        Field("analysis", STRING, "the closed-form analysis behind the check, in words"),
        Field("sigma_tilde", REAL, "the noise level sigma~ of [004 Thm. E]"),
        Field("mc_variance", REAL, "variance of the Laplace draws (Monte Carlo)"),
        Field("variance_over_sigma_tilde_sq", REAL, "the exact variance of the noise / sigma~^2"),
        Field("worst_point", OBJECT, "the point (a, b) of the largest error, with the value and the reference"),
        Field("term_signs", ListOf(INTEGER), "signs of the terms T1..T5 of C-hat at the worst point"),
        Field("target", STRING, "the function judged: expected-phi or c-hat"),
        Field("points", INTEGER, "points evaluated"),
        Field("max_abs_error", REAL, "the largest absolute error against the reference"),
        Field("max_rel_error", REAL, "the largest relative error against the reference"),
        Field("max_rel_error_normal_range", optional(REAL), "the largest relative error where the reference is a "
                                                            "normal float64; null when no point is"),
        Field("reference", STRING, "the high-precision reference: closed form or quadrature (mpmath)"),
        Field("inaccurate_points", INTEGER, "points beyond the tolerance"),
        Field("non_finite_values", INTEGER, "points where the implementation is not finite"),
        Field("raised_points", INTEGER, "points where the implementation raised"),
        Field("regions", MapOf(OBJECT), "per region of (a, b): points, largest errors and inaccurate points"),
        Field("accurate_region", OBJECT, "the region where every tested point is accurate: the box, b = 0, and "
                                         "the b-range per |a|"),
        Field("frontier", ListOf(OBJECT), "per b: the largest |a| up to which the implementation is accurate"),
        Field("judged_points_b_positive_finite", INTEGER, "points judged: b > 0 and a finite value"),
        Field("non_finite_at_b_zero_not_judged", INTEGER, "non-finite values at b = 0 (outside the paper's domain)"),
        Field("non_finite_at_b_positive_not_judged", INTEGER, "non-finite values at b > 0 (counted, not judged)"),
        Field("worst_finite_point", OBJECT, "the judged point of the largest error: a, b and the error"),
        Field("theorem2_first_steps", ListOf(REAL), "the first step sizes of [002 Thm. 2]'s schedule"),
        Field("section6_first_steps", ListOf(REAL), "the first step sizes of [002 Sec. 6.2]'s schedule"),
        Field("ratio", REAL, "the printed value / the proof's value"),
        Field("n", ListOf(INTEGER), "the sample sizes n evaluated"),
        Field("noise_scale", ListOf(REAL), "the privacy-noise scale at each n"),
        Field("ratio_last_first", REAL, "the noise scale at the largest n / at the smallest"),
        Field("mass_on_[-M,M]_as_printed", MapOf(REAL), "the printed density's mass on [-M, M], by M"),
        Field("mass_with_|x|", REAL, "the mass of the density with |x| on the same interval"),
        Field("beta_range", ListOf(REAL, length=2), "the smallest and largest beta evaluated"),
        Field("max_rel_error_per_line", MapOf(REAL), "the largest relative error of each line of the derivation"),
        Field("worst_beta_per_line", MapOf(REAL), "the beta of that largest error, per line"),
        Field("smallest_ratio", REAL, "the smallest (sum of premises) / (printed bound) over the grid"),
        Field("slope_tolerance", REAL, "the largest log-log slope that counts as a bounded ratio"),
        Field("abstract", optional(STRING), "how the abstract's rate relates to the statement; null where it does "
                                            "not state one"),
        Field("predicted_slope_with_printed_iota", optional(MapOf(REAL)),
              "per theta: the slope the printed iota predicts; null where no prediction applies"),
        Field("ratio_with_printed_26_at_n1e12_d10", optional(REAL),
              "the bound with the printed (26) over the stated rate at n = 1e12, d = 10; null for (8)"),
    ))
