"""Evidence records of the privacy checks: exact privacy over neighbours, and the auditor's audits as claims."""

from __future__ import annotations

from .common import (
    BETA,
    COMMON_FIELDS,
    DELTA,
    EPSILON,
    LAPLACE_SCALE,
    NEIGHBOUR_PAIRS,
    NORM_READING,
    ROBUST_GRADIENT_VARIANT,
    SENSITIVITY_FACTOR,
    THETAS,
)
from .record import EvidenceRecord, Field
from .types import INTEGER, OBJECT, REAL, STRING, Enum, ListOf, MapOf, Struct, optional

__all__ = ["EXACT_PRIVACY", "EXACT_AUDIT", "STATISTICAL_AUDIT", "AUDIT_NOT_RUN", "GRAY_BOX"]

EXACT_PRIVACY = EvidenceRecord(
    "exact_privacy",
    "exact privacy over neighbouring datasets: the worst privacy loss over epsilon (or hockey-stick divergence "
    "over delta) of exact output laws, or of an exact accounting, against 1",
    "builders.PrivacyTally.result, builders.exact_privacy_check and the privacy claims that build their Result",
    COMMON_FIELDS
    + (
        NEIGHBOUR_PAIRS,
        EPSILON,
        DELTA,
        BETA,
        THETAS,
        LAPLACE_SCALE,
        SENSITIVITY_FACTOR,
        NORM_READING,
        ROBUST_GRADIENT_VARIANT,
        Field("epsilons", ListOf(REAL), "the epsilons the check ran at"),
        Field("max_loss_over_eps_per_epsilon", MapOf(REAL), "the largest privacy loss / epsilon at each epsilon"),
        Field(
            "analytic_upper_bound_over_epsilon",
            REAL,
            "the analytic bound on the privacy loss / epsilon of this variant over this relation",
        ),
        Field("relation", STRING, "the neighbouring relation of the check: replace-one or add-remove"),
        Field("profile", STRING, "the profile whose instances the check ran"),
        Field(
            "output_merge_tolerance",
            REAL,
            "outputs within this max-norm distance were merged as one output (equal in exact arithmetic, apart only "
            "by float rounding along different selection paths)",
        ),
        Field(
            "output_merge_gap",
            REAL,
            "the smallest max-norm distance between two outputs kept apart (far above the merge tolerance)",
        ),
        Field(
            "float64_outputs_max_loss_over_epsilon",
            REAL,
            "the largest privacy loss / epsilon with outputs merged only when bit-equal, as a float64 implementation "
            "releases them (rounding can tell selection paths apart)",
        ),
        Field("epsilon_gem", REAL, "the epsilon of the GEM step (epsilon / 2 of [004 Alg. 1])"),
        Field(
            "assumption1_events_failed",
            INTEGER,
            "candidate losses on S2 or a replacement record that reach Delta(B_j) ([004 Assumption 1] fails)",
        ),
        Field(
            "weight_factor", REAL, "factor on the exponential mechanism's log-weights (1 as stated; others are mutants)"
        ),
        Field("weight_scale", REAL, "factor on epsilon in GEM's exponent (1 as stated; others are mutants)"),
        Field("score_vectors", INTEGER, "score vectors whose neighbours were checked"),
        Field("budget_variant", STRING, "the per-step budget rule of [002 Alg. 2]: printed, lemma2 or standard"),
        Field(
            "max_pure_privacy_loss_over_epsilon",
            REAL,
            "the largest pure privacy loss / epsilon over the same pairs (beside the (epsilon, delta) verdict)",
        ),
        Field(
            "skipped_datasets_cannot_run",
            INTEGER,
            "neighbouring datasets on which the implementation cannot run (skipped, not judged)",
        ),
        Field(
            "skipped_neighbours_cannot_run",
            INTEGER,
            "neighbours on which the implementation cannot run (skipped, not judged)",
        ),
        Field(
            "max_selection_delta_over_delta",
            REAL,
            "the largest delta of Peeling's released support / delta (a lower bound on the release's)",
        ),
        Field(
            "max_certified_joint_delta_over_delta",
            REAL,
            "the largest certified upper bound on the delta of support and Laplace values / delta",
        ),
        Field("max_selection_pure_loss_over_epsilon", REAL, "the largest pure privacy loss of the support / epsilon"),
        Field("left_to_statistical_auditor", STRING, "what the exact check does not cover, and which claim does"),
        Field("epsilon_selection", REAL, "the epsilon of Boosting's selection step"),
        Field(
            "by_n",
            ListOf(OBJECT),
            "one row per sample size n: the setup, the selection losses over the draws, "
            "the output audit and the exact law on the designed pair",
        ),
        Field("refuted_by", ListOf(STRING), "the parts of the check that refute the claim (empty when none)"),
        Field("scale_factor", REAL, "factor on the Laplace scale of the selection (1 as stated; others are mutants)"),
        Field(
            "largest_per_round_epsilon_factor",
            MapOf(REAL),
            "per (eps, delta, T): how much larger the per-round epsilon could be at the claimed total delta",
        ),
        Field(
            "min_largest_per_round_epsilon_factor",
            optional(REAL),
            "the smallest of largest_per_round_epsilon_factor; null when it has no entry",
        ),
        Field(
            "max_pure_part_delta_over_delta",
            REAL,
            "the largest delta of the T pure rounds (randomized response) at the target epsilon / delta",
        ),
        Field(
            "max_exact_epsilon_at_claimed_delta_over_target",
            REAL,
            "the largest exact total epsilon at the claimed total delta / the target epsilon (below 1: slack)",
        ),
        Field("exact_epsilon_worst_at", optional(OBJECT), "the (epsilon, delta, T) of that largest exact epsilon"),
        Field(
            "outside_stated_range_exact_over_claimed",
            MapOf(REAL),
            "per (eps, delta, T) with eps >= 1, outside the lemma's range: exact / claimed total delta",
        ),
        Field(
            "max_lower_total_delta_over_claimed",
            REAL,
            "the largest lower end of the total delta bracket / the claimed total delta",
        ),
        Field(
            "points",
            ListOf(OBJECT),
            "one row per (epsilon, delta, T): the Laplace delta bracket, its float "
            "error bound and the randomized-response delta",
        ),
        Field("sigma_factor", REAL, "factor on the Gaussian noise's sigma (1 as calibrated; others are mutants)"),
        Field(
            "outside_claim_epsilon_ge_1",
            ListOf(OBJECT),
            "exact delta / delta at epsilon >= 1, outside the calibration's claim (informative only)",
        ),
    ),
)

#: What the designed neighbouring pairs of an audit claim gave, beside or instead of the search.
_DESIGNED = Struct(
    {"pairs": INTEGER, "epsilon_lower": REAL, "verdict": Enum("refuted", "not refuted"), "features": optional(STRING)},
    required=("pairs", "epsilon_lower", "verdict"),
)

#: The auditor's AuditResult.as_dict(), as proofs_checks/audit/audit.schema.json declares it.
_AUDIT_RESULT = (
    Field("algorithm", STRING, "the audited algorithm's id", required=True),
    Field("claimed_epsilon", REAL, "the epsilon the claim states", required=True),
    Field("claimed_delta", REAL, "the delta the claim states (0 for pure DP)", required=True),
    Field(
        "epsilon_lower",
        REAL,
        "the audit's lower bound on the mechanism's epsilon at claimed_delta: exact loss "
        "of the worst pair (exact) or a lower confidence bound (statistical)",
        required=True,
    ),
    Field(
        "confidence",
        optional(REAL),
        "confidence level of the statistical bound; null where none applies",
        required=True,
    ),
    Field("samples", INTEGER, "mechanism calls of the audit", required=True),
    Field("pair", STRING, "the neighbouring pair behind epsilon_lower, in words", required=True),
    Field(
        "verdict",
        Enum("refuted", "not refuted"),
        "the auditor's own verdict (mapped to the claim's by the adapter)",
        required=True,
    ),
    Field("seed", INTEGER, "the audit's seed, drawn from the claim's seed sequence", required=True),
    Field("seconds", REAL, "wall time of the audit", required=True),
    Field("p_value", optional(REAL), "p-value of the statistical test; null for exact audits", required=True),
    Field(
        "details",
        OBJECT,
        "the auditor's details (AuditResult.details): search counts, counterexample, "
        "sampler check; keys are the auditor's",
        required=True,
    ),
    Field(
        "designed_pairs",
        _DESIGNED,
        "what the neighbouring pairs designed from the algorithm gave: their "
        "number, epsilon lower bound and verdict (and features, statistical)",
    ),
    Field("privacy_multiplier", REAL, "the mechanism was built for this multiple of the claimed epsilon (a mutant)"),
)

EXACT_AUDIT = EvidenceRecord(
    "exact_audit",
    "an exact audit: the auditor's adversarial search over neighbouring pairs with exact output laws",
    "audit_claims.privacy_audit_check (claims audit.<algorithm>.<variant>) on a mechanism with log_prob",
    COMMON_FIELDS
    + _AUDIT_RESULT
    + (
        Field("method", Enum("exact"), "the audit's method", required=True),
        Field(
            "search",
            Struct(
                {"epsilon_lower": REAL, "verdict": Enum("refuted", "not refuted")},
                required=("epsilon_lower", "verdict"),
            ),
            "the adversarial search's own result when designed pairs were audited beside it",
        ),
    ),
)

STATISTICAL_AUDIT = EvidenceRecord(
    "statistical_audit",
    "a statistical audit: a Clopper-Pearson lower confidence bound on epsilon from mechanism samples (it can "
    "refute, never confirm)",
    "audit_claims.privacy_audit_check (claims audit.<algorithm>.<variant>) on a black-box mechanism",
    COMMON_FIELDS + _AUDIT_RESULT + (Field("method", Enum("statistical"), "the audit's method", required=True),),
)

AUDIT_NOT_RUN = EvidenceRecord(
    "audit_not_run",
    "an audit claim with no audit: the mechanism cannot run on any neighbouring pair, or raised on its draws",
    "audit_claims.privacy_audit_check when the auditor raises NoRunnablePair or a MechanismError it may skip",
    COMMON_FIELDS
    + (
        Field("reason", STRING, "why nothing was audited (the auditor's message)", required=True),
        Field("skipped", OBJECT, "the datasets skipped: their count and first errors"),
        Field(
            "privacy_multiplier", REAL, "the mechanism was built for this multiple of the claimed epsilon (a mutant)"
        ),
    ),
)

GRAY_BOX = EvidenceRecord(
    "gray_box",
    "a gray-box audit of a composed algorithm at realistic parameters: replayed on searched neighbours with the "
    "primitives' outputs forced, every call checked (control flow, sensitivity, calibration against the proof's "
    "per-call budget, law conformance, composition); refutes, confirms only where the composition confirms",
    "proofs_checks.claim_sets.*.gray_box (claims <paper>.<theorem>.privacy.gray-box*) via "
    "proofs_checks.audit.gray_box.gray_box_audit",
    COMMON_FIELDS
    + (
        Field("instance", OBJECT, "the algorithm's parameters (n, d, T, s, epsilon, delta, ...) and their schedule"),
        Field(
            "relations",
            MapOf(OBJECT),
            "per neighbouring relation: the audit's verdict, whether it counts for the claim's verdict, each check's "
            "verdict, coverage and summary, the searched neighbour and the seconds",
            required=True,
        ),
        Field("counted", ListOf(STRING), "the neighbouring relations whose audits give the claim's verdict"),
        Field("refuted_by", ListOf(STRING), "the checks that refuted, as relation/check"),
        Field("paths", INTEGER, "paths per direction of each audit"),
        Field("search_budget", INTEGER, "replays the neighbour search may spend per relation"),
        Field("covers", STRING, "what the verdict covers: the transcript the proof composes, or the released output"),
    ),
)
