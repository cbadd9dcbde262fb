"""Evidence keys every record accepts (:data:`COMMON_FIELDS`) and keys several records share.

The common keys are written by the machinery around a check, whatever its shape: the seed
policy (:func:`proofs_checks.stability.run_claim_across_seeds` adds ``seeds`` and
``seed_policy``), the power note (:func:`proofs_checks.builders.with_power_note` adds ``power``),
and the place and words of the observed value most checks give (``worst_at``, ``observed_is``).
The shared fields below are declared once and listed by each record that uses them.
"""

from __future__ import annotations

from ..model import VERDICTS
from .record import Field
from .types import INTEGER, OBJECT, REAL, STRING, AnyOf, Enum, ListOf, Struct, optional

__all__ = [
    "COMMON_FIELDS",
    "SEED_RUN",
    "CLOPPER_PEARSON",
    "EPSILON",
    "DELTA",
    "BETA",
    "THETA",
    "THETAS",
    "CONFIDENCE",
    "EVALUATIONS",
    "NEIGHBOUR_PAIRS",
    "SENSITIVITY_FACTOR",
    "NORM_READING",
    "ROBUST_GRADIENT_VARIANT",
    "LAPLACE_SCALE",
    "BOUND_FACTOR",
    "ROWS",
    "WORST",
    "RULE",
    "MODEL",
    "VACUOUS_CASES",
    "MEAN_EXCESS_OUTPUT",
    "WORST_N",
]

#: One run seed's outcome in ``seeds``: the run seed, the verdict and the observed value there.
SEED_RUN = Struct(
    {"seed": INTEGER, "verdict": Enum(*VERDICTS), "observed": optional(REAL)}, required=("seed", "verdict", "observed")
)

#: A two-sided Clopper-Pearson interval ``[low, high]``.
CLOPPER_PEARSON = ListOf(REAL, length=2)

COMMON_FIELDS = (
    Field(
        "seeds",
        AnyOf(ListOf(SEED_RUN), INTEGER),
        "verdict and observed value on each run seed, the default seed first (a randomised claim run on several "
        "seeds); audit.calibration.power on one run seed: its own number of audit seeds per case",
    ),
    Field(
        "seed_policy",
        STRING,
        "why this randomised claim ran on fewer run seeds than the default (stability.EXPENSIVE), and how to run more",
    ),
    Field("power", STRING, "what the claim's mutants show the check catches and misses, and why (measured)"),
    Field(
        "worst_at",
        optional(OBJECT),
        "where the observed (worst) value was found: the instance, pair or "
        "parameters, in the check's own keys; null when none was evaluated",
    ),
    Field("observed_is", STRING, "what the observed number is, in words"),
    Field(
        "variant",
        optional(STRING),
        "the variant the check ran: of the algorithm (printed, standard, calibrated), of a reading or of a budget rule",
    ),
    Field("note", STRING, "a remark on the reading or the numbers, in words"),
)

EPSILON = Field("epsilon", REAL, "the privacy parameter epsilon of the instance checked")
DELTA = Field("delta", REAL, "the privacy parameter delta of the instance checked")
BETA = Field(
    "beta",
    REAL,
    "the parameter beta of the statement: a failure probability ([004], GEM) or the "
    "scale of Catoni's estimator ([002 Lemma 4])",
)
THETA = Field("theta", REAL, "the moment order theta of [000] (psi's truncation, Assumption 4)")
THETAS = Field("thetas", ListOf(REAL), "the values of theta of [000] the check ran at")
CONFIDENCE = Field("confidence", REAL, "confidence level of the check's intervals")
EVALUATIONS = Field("evaluations", INTEGER, "values the search evaluated")
NEIGHBOUR_PAIRS = Field("neighbour_pairs", INTEGER, "neighbouring pairs whose exact output laws were compared")
SENSITIVITY_FACTOR = Field(
    "sensitivity_factor", REAL, "factor on the stated sensitivity (1 as stated; other values build mutants)"
)
NORM_READING = Field("norm_reading", STRING, "how ||W||_1 of [002] is read: the l1 radius or the l1 diameter")
ROBUST_GRADIENT_VARIANT = Field(
    "robust_gradient_variant", STRING, "the robust gradient evaluated: the printed C-hat or the standard E phi form"
)
LAPLACE_SCALE = Field("laplace_scale", REAL, "scale of the Laplace noise")
BOUND_FACTOR = Field("bound_factor", REAL, "factor on the stated bound (1 as stated; other values build mutants)")
ROWS = Field("rows", ListOf(OBJECT), "the check's table, one row per instance or setting (columns named in it)")
WORST = Field("worst", optional(OBJECT), "the row or point with the worst value, in the check's own keys")
RULE = Field("rule", STRING, "the parameter rule or reading the check evaluates")
MODEL = Field("model", STRING, "the data model the check simulates (its repr)")
VACUOUS_CASES = Field("vacuous_cases", STRING, "how many cases could not fail whatever the data (k/m), and why")
MEAN_EXCESS_OUTPUT = Field("mean_excess_output", REAL, "mean excess risk of the released output over the runs")
WORST_N = Field("worst_n", INTEGER, "the sample size n with the smallest coverage")
