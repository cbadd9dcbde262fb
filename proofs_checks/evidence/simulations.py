"""Evidence records of the simulated checks: coverage, rate fits, and the auditor's calibration self-tests."""

from __future__ import annotations

from ..model import VERDICTS
from .common import (
    BETA,
    BOUND_FACTOR,
    CLOPPER_PEARSON,
    COMMON_FIELDS,
    CONFIDENCE,
    MEAN_EXCESS_OUTPUT,
    MODEL,
    THETA,
    VACUOUS_CASES,
    WORST_N,
)
from .record import EvidenceRecord, Field
from .types import BOOLEAN, INTEGER, OBJECT, REAL, STRING, AnyOf, Enum, ListOf, MapOf, optional

__all__ = ["COVERAGE", "RATE_FIT", "CALIBRATION"]

COVERAGE = EvidenceRecord(
    "coverage",
    "coverage by simulation: the fraction of simulated runs in which a bound holds, with a Clopper-Pearson "
    "interval, against the nominal probability (at each n, setting or case)",
    "builders.coverage_check and the concentration, error-split and excess-risk claims that build their Result",
    COMMON_FIELDS
    + (
        CONFIDENCE,
        BETA,
        BOUND_FACTOR,
        MODEL,
        VACUOUS_CASES,
        MEAN_EXCESS_OUTPUT,
        WORST_N,
        Field("covered", INTEGER, "simulations in which the bound held"),
        Field("simulations", INTEGER, "simulations run"),
        Field("clopper_pearson", CLOPPER_PEARSON, "Clopper-Pearson interval of the coverage at the confidence"),
        Field(
            "cases",
            ListOf(OBJECT),
            "one row per case (n, epsilon, ...): the allowed deviation or bound, the "
            "measured deviations or terms, and how often the bound held",
        ),
        Field("largest_deviation_over_allowed", REAL, "the largest deviation / the allowed one, over all cases"),
        Field("tau", REAL, "tau of [000 Assumption 3] for the model"),
        Field("sup_moment", REAL, "M = sup_w E|y - <x,w>|^theta of the model (exact or a Minkowski upper bound)"),
        Field("lad", STRING, "how the LAD baseline beside the estimator is computed"),
        Field("n", AnyOf(INTEGER, ListOf(INTEGER)), "the sample size n of the simulations, or the sizes of the sweep"),
        Field("zeta", REAL, "the failure probability zeta of [002 Lemma 4]"),
        Field("settings", ListOf(OBJECT), "one row per setting (law, scale): its bound, coverage and interval"),
        Field("by_n", ListOf(OBJECT), "one row per sample size n: the runs, how many held, and the terms used"),
        Field("slack", REAL, "factor on the statement's terms (1 as stated; others are mutants)"),
        Field("violation_rate", REAL, "fraction of the runs in which the bound failed"),
        Field("runs", INTEGER, "runs of the algorithm simulated"),
        Field("coverage_clopper_pearson", CLOPPER_PEARSON, "Clopper-Pearson interval of the coverage"),
        Field("m", INTEGER, "the number of chunks m of Boosting"),
        Field("mean_excess_single_model", REAL, "mean excess risk of a single chunk's model"),
        Field("q95_excess_output", REAL, "0.95 quantile of the excess risk of the output"),
        Field("q95_excess_single_model", REAL, "0.95 quantile of the excess risk of a single chunk's model"),
        Field("n0_of_theorem", REAL, "the smallest n for which the theorem's statement applies"),
        Field("extra_terms", REAL, "the explicit terms of the bound beyond the best model's excess risk"),
        Field(
            "single_model_3x_median_rate", REAL, "fraction of runs whose single model exceeds 3x its median excess risk"
        ),
        Field("excess_of_zero_vector", REAL, "the excess risk of the output w = 0 (the trivial level)"),
        Field("vacuous", BOOLEAN, "the bound is at least the excess risk of w = 0 (no output could break it)"),
        Field(
            "readings",
            MapOf(OBJECT),
            "per reading of the slack terms: refuted or not, smallest coverage and violation rates",
        ),
        Field("judged_under", STRING, "the reading of the slack terms the verdict uses"),
        Field("K", INTEGER, "the grid size K of [004 Alg. 1]"),
        Field("confidence_per_n", REAL, "confidence of each n's interval (Bonferroni over the n)"),
        Field("per_n", ListOf(OBJECT), "one row per n: runs, violations, coverage and its interval, excess risks"),
        Field("Y^2", REAL, "the squared label bound Y^2 (the trivial excess risk)"),
        Field(
            "excess_quantile_fit_against_n",
            optional(OBJECT),
            "the fitted exponent of the excess quantile in n (reported, not the verdict); null below 3 n",
        ),
        Field("fit_reference_exponent", STRING, "the exponent the fit is read against, and why"),
    ),
)

RATE_FIT = EvidenceRecord(
    "rate_fit",
    "a rate fit: the exponent of a quantile of the error against a rate variable over a sweep, with its "
    "confidence interval, against the stated exponent",
    "rates.check.make_rate_check and the rate claims built on it or on their own sweep",
    COMMON_FIELDS
    + (
        CONFIDENCE,
        MODEL,
        THETA,
        Field("stated_exponent", REAL, "the exponent a of the stated rate x^(-a) (negative: a stated growth)"),
        Field(
            "observed_exponent", optional(REAL), "the fitted exponent of the quantile; null when no fit was possible"
        ),
        Field("ci_low", optional(REAL), "lower end of the fitted exponent's confidence interval"),
        Field("ci_high", optional(REAL), "upper end of the fitted exponent's confidence interval"),
        Field(
            "rate_verdict",
            Enum("consistent", "slower", "inconclusive"),
            "the fit's own verdict: consistent (confirmed), slower (refuted) or inconclusive",
        ),
        Field("quantile", REAL, "the quantile of the error that is fitted (1 - failure probability)"),
        Field("method", STRING, "the fit's method (quantile regression on logs)"),
        Field("fit_method", STRING, "the fit's method (quantile regression on logs)"),
        Field("mean_fit", OBJECT, "the same fit to the mean error (for reference, not the verdict)"),
        Field("rate_variable", STRING, "the rate variable x, as a formula"),
        Field("x", ListOf(REAL), "the rate variable at each grid point"),
        Field("quantile_errors", ListOf(REAL), "the fitted quantile of the error at each grid point"),
        Field("mean_errors", ListOf(REAL), "the mean error at each grid point"),
        Field("repetitions", INTEGER, "runs per grid point"),
        Field("grid", ListOf(OBJECT), "the grid points: their parameters (n, epsilon, d, ...)"),
        Field("paper_values", ListOf(OBJECT), "the numbers the paper reports, beside ours"),
        Field("trivial_error", REAL, "the error of the trivial output (the saturation level)"),
        Field("largest_quantile_over_trivial", REAL, "the largest quantile / the trivial error"),
        Field("saturation_fraction", REAL, "above this fraction of the trivial error the sweep counts as saturated"),
        Field("saturated", BOOLEAN, "the sweep is saturated: a consistent fit gives no verdict"),
        Field("blind_walk_error", ListOf(REAL), "the error of an output that ignores the data, at each grid point"),
        Field("measurement", STRING, "how each error is measured"),
        Field("quadrature_abs_error_max", REAL, "the largest quadrature error estimate of an excess risk"),
        Field(
            "quadrature_error_relative_to_smallest_quantile",
            REAL,
            "that quadrature error / the smallest measured quantile",
        ),
        Field(
            "ratio_to_rate_with_O_constant_1",
            ListOf(REAL),
            "the quantile / the rate expression with O-constant 1, per grid point",
        ),
        Field(
            "ratio_to_explicit_bound", ListOf(REAL), "the quantile / the explicit bound (re-derived), per grid point"
        ),
        Field(
            "ratio_to_explicit_bound_printed",
            ListOf(REAL),
            "the quantile / the explicit bound as printed, per grid point",
        ),
        Field("explicit_bound", STRING, "which explicit bound of the proof the ratios use"),
        Field("tau", AnyOf(REAL, ListOf(REAL)), "tau of [000 Assumption 3] (per d in a d-sweep)"),
        Field("eta", REAL, "the failure probability eta of [000]"),
        Field("net_zeta", STRING, "the resolution of the net, as a formula in n"),
        Field("radius", REAL, "the radius R of the parameter set W"),
        Field("level_test", ListOf(OBJECT), "per grid point: P[excess > bound] with its lower confidence bound"),
        Field(
            "design_rows",
            ListOf(OBJECT),
            "per grid point of a law that changes with n: its scale, the algorithm's iota, the explicit bound and the "
            "quantile over the largest excess risk on W",
        ),
        Field("level_method", STRING, "how the level test is computed and judged"),
        Field("slope_verdict", Enum(*VERDICTS), "the verdict of the slope alone"),
        Field("large_n_fit", OBJECT, "the fit on the large-n end of the sweep alone (fresh datasets)"),
        Field("verdict_from", STRING, "which test gave the verdict: the slope, the large-n slope or the level"),
        Field("convention", STRING, "the sign convention of the exponents"),
        Field("stated_growth_exponent", REAL, "the stated growth exponent a in u^a"),
        Field("observed_growth_exponent", REAL, "the fitted growth exponent"),
        Field("growth_ci", ListOf(REAL, length=2), "confidence interval of the growth exponent"),
        Field("d", ListOf(INTEGER), "the dimensions d of the sweep"),
        Field("quantile_errors_over_tau", ListOf(REAL), "the fitted quantile of error / tau(d), per d"),
        Field("zero_conditional_quantiles_per_d", ListOf(INTEGER), "errors exactly 0 at each d"),
        Field("zero_recorded_as", STRING, "the value a zero error is fitted as, and why the fit is unaffected"),
        Field("zero_points_below_fitted_line", BOOLEAN, "the zero errors lie below the fitted quantile line"),
        Field("zero_errors", INTEGER, "errors exactly 0 (no log-log fit possible)"),
        Field("why", STRING, "why the sweep gives no verdict"),
        Field("net", OBJECT, "the net of each d: radius, zeta, spacing, size, distinct norms"),
        Field("distance_quantile", ListOf(REAL), "the 1 - eta quantile of ||w~ - w*|| per d"),
        Field("distance_quantile_over_zeta", ListOf(REAL), "that quantile / zeta per d"),
        Field("distance_quantile_over_radius", ListOf(REAL), "that quantile / R per d"),
        Field(
            "outer_shell_probability_max",
            ListOf(REAL),
            "the largest output probability on the outer shell ||w|| > R - zeta, per d",
        ),
        Field("diagnostic_datasets_per_d", INTEGER, "extra datasets per d for the net diagnostics"),
        Field("net_adequate", BOOLEAN, "the net resolves the law and W does not truncate it"),
        Field("net_adequacy_rule", STRING, "the rule of net_adequate"),
        Field("departure", STRING, "where the design departs from the theorem's parameters"),
        Field("broken", optional(STRING), "the mutant's deliberate break; null for the stated algorithm"),
    ),
)

CALIBRATION = EvidenceRecord(
    "calibration",
    "a self-test of the auditor: audits of mechanisms whose epsilon is known, against it",
    "claim_sets.audit_calibration",
    COMMON_FIELDS
    + (
        CONFIDENCE,
        Field("cases", ListOf(OBJECT), "one row per calibration mechanism: its known epsilon and what the audit gave"),
        Field(
            "audits",
            ListOf(OBJECT),
            "one row per statistical audit: the case, statistic, bound, p-value and whether its verdict is right",
        ),
        Field("samples", INTEGER, "mechanism calls per audit"),
        Field("min_ratio", REAL, "the smallest epsilon lower bound / the oracle bound over the cases"),
        Field("mean_ratio", REAL, "the mean epsilon lower bound / the oracle bound over the cases"),
    ),
)
