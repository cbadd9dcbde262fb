"""Audit records of 004's algorithms: what each ``audit.arora-*`` claim needs beyond the mechanism.

One :class:`~proofs_checks.audit_record.AuditRecord` per algorithm and variant of :mod:`.mechanisms` (Private
Grid Search [004 Alg. 1], Boosting [004 App. E] and the two base learners of [004 Lemma D.4]): the power knob's
multipliers, the measured power, the proofs (``not_a_violation``) and reasons (``out_of_reach``) of the mutants,
and Boosting's designed pairs (:mod:`.designed_pairs`; the learners' label-flip pair comes from their mechanism's
``audit_design()``).  The numbers are recomputed in tests/test_power_reach_arora.py, test_power_reach_boosting.py,
test_power_reach_boosting_calibrated.py and test_power_reach_gd.py.  :func:`register` adds them (called by the
package's ``register``, after the algorithms).
"""

from __future__ import annotations

from ...audit_record import AuditRecord
from .designed_pairs import boosting_flip_pair, boosting_split_pair, boosting_validation_pair

__all__ = ["AUDIT_RECORDS", "register"]

_GRID_EXACT = "arora.thm1.privacy.composition, .parallel, arora.gem.privacy"
# [004 Alg. 1] at m eps: a replaced record lies in S1 or in S2 (deterministic split, same n), so the mutant's
# epsilon at delta is the larger of the two parts' (parallel composition); numbers recomputed in
# tests/test_power_reach_arora.py.
_GRID_PROOF = (
    "{m:g}x over-spend is no violation: a replaced record lies in S1 or in S2 (parallel composition).  "
    "S1: the K = 3 noisy-GD runs at ({m:g} eps/6, delta/6) are each sqrt(2 rho)-GDP (T Gaussian steps of "
    "sensitivity 2G/n, [DRS22] Cor. 3.3) and compose to mu = {mu:.4f}-GDP, {s1:.3f} eps at delta = 1e-5 "
    "(Balle-Wang); GEM and the output are post-processing.  S2: the candidates do not depend on S2 and "
    "GEM at {m:g} eps/2 is {s2:g} eps-DP ([004 App. D.1]) because every score moves by at most its "
    "sensitivity: the candidates lie in the ball, where every domain loss is in [0, 2Y^2 + H B^2 X^2] "
    "(standard sensitivities Delta(B)/|S2|; the printed Delta(B) = Y^2 + H B^2 X^2 exceeds "
    "(B X + Y)^2/|S2| whenever |S2| >= 2, i.e. n >= 3, here n = 8).  Bound {bound:g} eps <= 1 on every pair"
)


def _grid_record(variant):
    """The record of ``audit.arora-grid-search.<variant>``: x2 and x1.25 proven private (parallel composition)."""
    return AuditRecord(
        "arora-grid-search",
        variant,
        multipliers=(2.0, 1.25, 30.0),
        power="misses x30; x2 and x1.25 are no violations (proved: S2's GEM spends m eps/2, S1's three noisy-GD "
        "runs 0.38 eps at x2).  The statistical audit's lower bound is 0.0 at every multiplier (quick, "
        "20000 calls, black-box pairs at n = 8): at n = 8 GEM's penalties exceed Y^2 and it returns "
        "w_0 = 0 with probability about 0.99 on both datasets.  A label-flip pair at n = 64 (all records "
        "(e_1, 3)) reaches only 0.50-0.77 at x30 with the flip in S1 and 0.05-0.62 with it in S2 (seeds "
        "0-2): the selected candidate dilutes the learners' shift; whether x30 violates on a pair the "
        "audit can reach is not established.  The exact claims catch x2 (" + _GRID_EXACT + ")",
        reach={
            2.0: {"not_a_violation": _GRID_PROOF.format(m=2, mu=0.1112, s1=0.383, s2=1, bound=1)},
            1.25: {"not_a_violation": _GRID_PROOF.format(m=1.25, mu=0.0697, s1=0.230, s2=0.625, bound=0.625)},
        },
    )


GRID_SEARCH = tuple(_grid_record(variant) for variant in ("printed", "standard"))

# Boosting [004 App. E] with the paper's own sigma~ of [004 Thm. E] (the factory's default since the audits were
# given power against over-spends; before, the audit ran sigma~ = 0.1, 169 times below the printed 16.93 at n = 10,
# and its x1 verdict was a verdict on no paper's constant), audited on audit_design.boosting_validation_pair(4):
# four training chunks of four records (e_1, 3), the validation chunk (0, 0) but its last record, (e_1, 3) against
# (e_1, -3) (n = 20).  Exact output law by quadrature (audit_design.boosting_output_law, checked against runs of the
# implementation): epsilon at delta = 1e-5 is 4.91 (printed) at x1; numbers recomputed in
# tests/test_power_reach_boosting.py.
_BOOST_PAPER = (
    "the paper's Boosting is not (eps, delta)-DP at its printed sigma~: on the designed pair (n = 20, m = "
    "4 chunks of four records (e_1, 3) and a validation chunk of (0, 0) records but its last, (e_1, 3) "
    "against (e_1, -3); sigma~ = 2 sqrt(Y^2 + H gamma^2 X^2)/sqrt(n eps) = {st:.4g} by [004 Thm. E] with "
    "gamma = 16.14 the learner's sub-Gaussian constant) the output w_(i*) has exact epsilon {e1:.3g} at "
    "delta = 1e-5 (quadrature of the output law; {e10} at the 10-record flip pair), the best event's "
    "oracle bound at 20000 calls is {o1:.3g}; the quick audit (20000 calls) refutes x1 at {x1} on run "
    "seeds 20261121, 0-3 (20261121, 0-2 for standard).  Readings: Lap(0, sigma~) as scale (printed) or "
    "variance (standard) both violate; gamma~ = gamma (a gamma~ near 10 gamma would be needed: at n = 10 "
    "the scale x10 gives 0.965 eps, x3 still 1.97); the privacy sentence of [004 Thm. E] precedes and does "
    "not carry 'n >= n0' (n0 = 16 gamma^2 log^8(4/beta) H/Y^2, 3.2e7 here at beta = 0.1), which qualifies "
    "the excess-risk sentence only: under the reading that n >= n0 bounds the privacy claim too, this "
    "instance is outside it.  Mutants: x2 {x2}, x1.25 {x125}, x30 {x30} (refuted with the base; exact {m2} "
    "at x2)"
)
BOOSTING_PRINTED = AuditRecord(
    "arora-boosting",
    "printed",
    multipliers=(2.0, 1.25, 30.0),
    power="detects x2, x1.25 and x30 (the base itself is refuted): "
    + _BOOST_PAPER.format(
        st=10.2951,
        e1=4.910,
        e10="1.851",
        o1=2.409,
        x1="1.89-2.48",
        x2="2.49-3.46",
        x125="2.12-2.73",
        x30="3.72-5.02",
        m2=7.98,
    ),
)
BOOSTING_STANDARD = AuditRecord(
    "arora-boosting",
    "standard",
    multipliers=(2.0, 1.25, 30.0),
    power="detects x2, x1.25 and x30 (the base itself is refuted): "
    + _BOOST_PAPER.format(
        st=10.2951,
        e1=4.786,
        e10="1.845",
        o1=2.617,
        x1="1.98-2.51",
        x2="2.94-3.41",
        x125="2.42-2.80",
        x30="4.72-5.05",
        m2=7.94,
    ).replace("the output w_(i*)", "the output w_(i*) (Laplace scale sigma~/sqrt 2)"),
)
# The calibrated variant, on two pairs: boosting_flip_pair (10 records (1, 3) in chunks of two, the last validation
# label flipped, as the other variants) and boosting_validation_pair(64) (n = 320: 4 training chunks of 64 records
# (1, 3), a validation chunk of (0, 0) records but the last, (1, 3) against (1, -3)), whose output law is computed
# by quadrature in audit_design.boosting_output_law (numbers recomputed in tests/test_power_reach_gd.py).
_BOOST_CAL_PAIRS = [boosting_flip_pair(1.0, 3.0, 4)[:2], boosting_validation_pair(64)[:2]]
# x1.25: boosting_split_pair(4096, 3) (n = 20480): training chunk 1 of records (1, -3), chunks 2-4 of (1, 3) (models
# near -2 and +2), validation: 3 records (1, 3), the last (1, -3) against (1, 3), others (0, 0).  Sampled at full
# only (about 75 s a run of 10^6 calls; quick keeps its two pairs).
_BOOST_SPLIT_PAIR = boosting_split_pair(4096, 3)[:2]
BOOSTING_CALIBRATED = AuditRecord(
    "arora-boosting",
    "calibrated",
    multipliers=(2.0, 1.25, 30.0),
    pairs=_BOOST_CAL_PAIRS,
    profile_pairs={"full": _BOOST_CAL_PAIRS + [_BOOST_SPLIT_PAIR]},
    # x2's violation needs more calls than the quick profile's 20000 (below): 200000 at quick, 0.7-0.9 s a run.
    samples={"quick": 200_000},
    power="detects x2 and x30 at quick, x1.25 at full only (a violation, caught by a third pair sampled at full, "
    "below).  At quick this claim makes 200000 calls, not the profile's 20000: x2 1.098-1.247 (refuted), x1 "
    "0.43-0.49 (run seeds 20261121, 0-2; at 100000 calls x2 gave 1.003-1.133).  The text below is the record at "
    "20000 calls.  Two designed pairs: the validation flip of 10 records (e_1, 3) in chunks of two (as the other "
    "variants) and the same flip with chunks of 64 records, the validation chunk (0, 0) but its last (n = 320; "
    "the models concentrate, so a selected model far from the bulk has beaten competitors whose scores moved the "
    "other way).  Quick (20000 calls, run seeds 20261121, 0-2): x30 3.9-4.8 (10-record pair), x2 0.88-0.98, "
    "x1.25 0.35-0.53, x1 0.28-0.39 (320-record pair).  x2 violates: the output law on the 320-record pair "
    "(quadrature, audit_design.boosting_output_law: the m = 4 models i.i.d., report-noisy-max of i.i.d. "
    "candidates) has epsilon 1.281 at delta = 1e-5 (delta(1) = 0.016), but its best event's oracle bound at "
    "20000 calls is only 1.031 (chunks of 32-96 records: 0.98-1.03), so the audit, which chooses its event on "
    "part of the calls, cannot reach it at quick; the full profile (1e6 calls, oracle 1.237) refutes x2 at 1.21 "
    "on run seeds 20261121, 1, 2 (x1 0.50).  x1.25: 0.714 eps on that pair, 0.86 with chunks of 256; the "
    "conditional bound of the selection (report-noisy-max at scale 2 s/(m eps) given the models) is 1.25 eps, so "
    "neither a proof nor a violation; x1 0.538 on that pair.  arora.boosting.privacy.calibrated (exact selection "
    "law) catches x2 and x0.8.  x1.25, scanned: the output law (quadrature) on validation-flip pairs with chunks "
    "of 2-128 records and training labels y0 in {3, 1.5, 0, -1.5} reaches at most 0.792 eps (chunks of 128, y0 = "
    "3; 0.639 at 32), rising with the chunk while the quadrature starts to lose mass (0.998 at 128).  Decided "
    "since: x1.25 violates.  Report-noisy-max on non-monotone scores loses up to (the score difference's "
    "shift)/b: a pair whose models differ (audit_design.boosting_split_pair(4096, 3): training chunk 1 of "
    "records (1, -3), chunks 2-4 of (1, 3), so the models sit near -2 and +2 with noise s = 0.473; validation: 3 "
    "records (1, 3) keeping the lone model behind, the last (1, -3) against (1, 3), the others (0, 0)) moves the "
    "lone model's score against the others' by 8 B Y/c = 48/c, 0.923 of the calibration's 2 Delta/c = 52/c, so "
    "the lone model's win has likelihood ratio up to exp(1.154 eps) at x1.25 (the deterministic-model limit, "
    "audit_design.boosting_split_index_law: epsilon 1.153 at delta = 1e-5; its largest delta(1), 0.0236, with "
    "one (1, 3) record).  Output law by quadrature (audit_design.boosting_split_law, three resolutions agree to "
    "1e-3; P(w < -2) = 0.0389 on D, 0.0123 on D', runs of the implementation agree): epsilon 1.159 at delta = "
    "1e-5, delta(1) = 0.0068 (680 times the claim's 1e-5; x1: 0.915, within the claim); oracle 1.062 at the "
    "quick budget of 200000 calls, 1.110 at 10^6.  Full profile (10^6 calls, this pair beside the two above, "
    "about 75 s a run): x1.25 refuted at 1.067, 1.102, 1.093 on run seeds 20261121, 1, 2; x1 0.833 "
    "(inconclusive), x2 refuted at 1.75 (run seed 20261121).  Quick keeps the two pairs (the third costs about "
    "15 s at 200000 calls) and misses x1.25 (0.35-0.53)",
)
# The two base learners of [004 Lemma D.4], audited on the label-flip pair of
# proofs_checks.claim_sets.arora.audit_design (numbers recomputed in tests/test_power_reach_arora.py).
OUTPUT_PERTURBATION = AuditRecord(
    "arora-output-perturbation",
    "standard",
    multipliers=(2.0, 1.25, 6.0, 30.0),
    power="detects x6 and x30, misses x2 (out of reach) and x1.25 (no violation): on the designed label-flip "
    "pair ((e_1, 3) against (e_1, -3), n = 8, other records zero) the quick audit (20000 calls) gives "
    "1.51-1.91 at x6 and 5.9-6.6 at x30 on run seeds 20261121, 1-4 (x4: 0.77-0.98, missed), 0.00-0.19 at "
    "x1; the black-box pairs it used before moved the minimiser by at most 0.053 noise units and gave "
    "0.0 at x30.  arora.learners.output-perturbation.gaussian-calibration (exact) catches x1.25",
    reach={
        1.25: {
            "not_a_violation": "1.25x over-spend is no violation: any replace-one pair moves the constrained "
            "regularised minimiser by at most 2G/(n lam) ([CMS11] Cor. 8, any n, lam, data) "
            "and sigma = (2G/(n lam)) sqrt(2 log(1.25/delta))/(1.25 eps), so every pair is a "
            "Gaussian shift of at most mu = 1.25/sqrt(2 log(1.25e5)) = 0.2580 noise units: "
            "exact epsilon at delta = 1e-5 (Balle-Wang Thm. 8) 0.959 <= 1"
        },
        2.0: {
            "out_of_reach": "violates: on the label-flip pair the minimisers differ by exactly 12/(2 + n lam) "
            "= 0.4192 (0.698 of the sensitivity bound), mu = 0.2880, exact epsilon at delta = 1e-5 "
            "1.082 > 1 (the bound allows mu = 0.4128, 1.610).  The best event's Clopper-Pearson "
            "bound (oracle, expected counts, 10000 calls per dataset, confidence 0.95) is 0.424 on "
            "that pair and 0.711 on a pair attaining the bound, so no statistical audit at quick "
            "can show it; on the label-flip pair the oracle passes 1 at 8.2e7 calls"
        },
    },
)
NOISY_GD = AuditRecord(
    "arora-noisy-gd",
    "standard",
    multipliers=(2.0, 1.25, 6.0, 30.0),
    power="detects x6 and x30, misses x2 (out of reach) and x1.25 (no violation): on the designed label-flip "
    "pair ((e_1, 3) against (e_1, -3), n = 8, other records zero: every step's gradient moves by 12/n, 0.75 "
    "of 2G/n) the quick audit (20000 calls) gives 1.23-1.47 at x6 and 4.5-5.0 at x30 on run seeds "
    "20261121, 1-4 (x4: 0.65-0.87, missed), 0.00-0.08 at x1.  x2 violates (1.062 eps at delta = 1e-5 on a "
    "pair of n = 400 records whose iterates never reach the ball's edge, see its mutant) but every pair "
    "is at most 0.4001-GDP, whose best event's oracle bound at 20000 calls is 0.68.  "
    "arora.learners.noisy-gd.calibration (exact) catches x1.25",
    reach={
        1.25: {
            "not_a_violation": "1.25x over-spend is no violation: each of the T steps adds N(0, sigma^2 I) to an "
            "average gradient of replace-one sensitivity 2G/n (every iterate is in the ball), "
            "sigma = (2G/n) sqrt(T/(2 rho)), so the transcript is sqrt(2 rho)-GDP ([DRS22] "
            "Cor. 3.3, adaptive) with rho = noisy_gd_rho(1.25, 1e-5): mu = 0.2538, exact "
            "epsilon at delta = 1e-5 0.942 <= 1 on every pair; projection and averaging are "
            "post-processing"
        },
        2.0: {
            "out_of_reach": "violates: on n = 400 records (x = 1, y = 0) in d = 1 with row 0 (1, 3) against (1, -3) "
            "(audit_design.noisy_gd_violation_pair) the T = 200 unprojected iterates follow "
            "w_{t+1} = (1 - k) w_t + eta b - eta sigma xi_t, k = 2 eta = 0.0174, b = +-6/n, so "
            "the average is Gaussian, mu = 0.2832 noise units apart (the transcript's 0.3001 "
            "times sum c / (sqrt(T) ||c||), c_s = (1 - (1-k)^(T-s))/k); the real output equals it "
            "unless some unprojected iterate leaves [-1, 1], probability <= 2.3e-49 (every w_t "
            "is at least 15 standard deviations inside); so delta(1) >= 2.39e-5 - 3.7 x 2.3e-49 "
            "> 1e-5 (Balle-Wang; dp-accounting's pessimistic PLD gives the same 2.39e-5), "
            "epsilon at delta = 1e-5 is 1.062 > 1.  No statistical audit at quick can show it: "
            "the best event's Clopper-Pearson bound (oracle, expected counts, 10000 calls per "
            "dataset, confidence 0.95) is 0.414 on that pair and 0.680 on any pair (every pair "
            "is at most sqrt(2 rho(2 eps)) = 0.4001-GDP: T Gaussian steps of sensitivity 2G/n, "
            "[DRS22] Cor. 3.3, and the output is post-processing, so no event separates it "
            "better than a 0.4001 Gaussian shift's half-line); on that pair the oracle passes 1 "
            "at 8.2e7 calls"
        },
    },
)

AUDIT_RECORDS = GRID_SEARCH + (BOOSTING_PRINTED, BOOSTING_STANDARD, BOOSTING_CALIBRATED, OUTPUT_PERTURBATION, NOISY_GD)


def register(registry):
    """Add the audit records of 004's algorithms to ``registry`` (after the algorithms)."""
    for record in AUDIT_RECORDS:
        registry.add_audit_record(record)
