"""Claims about the auditor itself, judged on the calibration suite of :mod:`proofs_checks.audit.calibration`.

* ``audit.calibration.exact``: exact audits of the finite-output calibration
  mechanisms equal the analytic epsilon to 1e-9.
* ``audit.calibration.verdicts``: the statistical audit refutes every violating
  calibration mechanism and none of the correct ones (fixed seeds).
* ``audit.calibration.power``: the statistical audit's epsilon lower bound is at
  least 0.9 of the oracle Clopper-Pearson bound at 10^6 calls, with the exact
  log-ratio statistic and black box: the mean over 10 seeds for every case in
  the full profile; in the quick profile one seed on the five violating cases,
  judged by the mean ratio (>= 0.9) and each ratio (>= 0.8).

The per-algorithm audits (``audit.<algorithm id>.<variant>``, primitives included) are
generated for every registered algorithm with a mechanism factory by
:func:`proofs_checks.audit_claims.algorithm_audit_claims`.

Each check is built by a factory whose arguments default to the real auditor;
tests pass broken variants (an auditor that over-states its bound, a
mechanism that violates its claim) to show each check can fail.
"""

from __future__ import annotations

import numpy as np

from ..audit.exact import privacy_profile
from ..builders import compare_result
from ..model import Claim, Result
from ..verdicts import CONFIDENCE, ROUNDING_RTOL, at_least

__all__ = [
    "POWER_TARGET",
    "SINGLE_SEED_FLOOR",
    "exact_calibration_check",
    "verdict_calibration_check",
    "power_calibration_check",
    "register",
]

POWER_TARGET = 0.9
#: Smallest single-seed ratio accepted in the quick profile.
SINGLE_SEED_FLOOR = 0.8
#: The claims' source: the project's own calibration suite, no paper.
_SOURCE = "auditor calibration suite (proofs_checks.audit.calibration)"
#: The reading shared by the three claims: what the calibration suite is and what it knows.
_READING = (
    "auditor calibration: mechanisms of known output laws and analytic epsilon, each audited "
    "on its canonical replace-one neighbouring pair (D, D'); eps-DP: P(S) <= e^eps P'(S) + delta for every "
    "event S, both directions"
)


def _defaults(suite, audit):
    """``suite`` and ``audit``, the calibration suite and the statistical audit where ``None``.

    Imported when a check runs, not when the claims are registered: the statistical audit pulls in statsmodels
    (~0.6 s of CPU at import), which a process that only builds the registry (verify's parent) need not pay.
    """
    from ..audit.calibration import calibration_suite
    from ..audit.statistical import statistical_audit

    return (calibration_suite if suite is None else suite), (statistical_audit if audit is None else audit)


def _audit_seed(ctx, *stream):
    """A 32-bit seed for the auditor from the named sub-stream ``stream`` of the claim."""
    return int(ctx.seed_sequence("/".join(map(str, stream))).generate_state(1)[0])


def exact_calibration_check(suite=None, tolerance=ROUNDING_RTOL):
    """Check factory: exact audit (hockey-stick over the exact laws) against the analytic epsilon.

    Finite-output cases only; ``observed`` is the largest absolute difference (epsilons are of order 1).
    ``suite`` defaults to :func:`proofs_checks.audit.calibration.calibration_suite`.
    """

    def check(ctx):
        suite_, _ = _defaults(suite, None)
        rows = []
        for case in suite_():
            if not hasattr(case.mechanism, "log_prob"):
                continue
            D, Dp = case.pair()
            got = privacy_profile(case.mechanism.log_prob(D)[1], case.mechanism.log_prob(Dp)[1], case.claimed_delta)[0]
            want = case.true_epsilon()
            rows.append({"case": case.name, "exact_audit": got, "analytic": want, "abs_error": abs(got - want)})
        return compare_result(
            max(r["abs_error"] for r in rows),
            tolerance,
            "at_most",
            rtol=0.0,
            atol=0.0,
            evidence_kind="calibration",
            method=f"exact audit (privacy profile of the exact output laws) of {len(rows)} "
            "finite-output calibration mechanisms against their analytic epsilon; "
            "observed = largest absolute difference",
            reading=_READING,
            evidence={"cases": rows},
        )

    return check


def verdict_calibration_check(suite=None, audit=None, confidence=CONFIDENCE):
    """Check factory: statistical audits refute exactly the violating calibration mechanisms.

    Each case is audited with the exact log-ratio statistic (``"auto"``) and black box
    (``"estimate"``); ``observed`` is the number of audits whose verdict is wrong.  ``suite`` and ``audit``
    default to :func:`~proofs_checks.audit.calibration.calibration_suite` and
    :func:`~proofs_checks.audit.statistical.statistical_audit`.
    """

    def check(ctx):
        suite_, audit_ = _defaults(suite, audit)
        samples = 200_000 if ctx.profile == "quick" else 1_000_000
        rows = []
        for case in suite_():
            for statistic in ("auto", "estimate"):
                res = audit_(
                    case.mechanism,
                    [case.pair()],
                    case.claimed_epsilon,
                    case.claimed_delta,
                    samples=samples,
                    confidence=confidence,
                    seed=_audit_seed(ctx, case.name, statistic),
                    statistic=statistic,
                )
                rows.append(
                    {
                        "case": case.name,
                        "statistic": res.statistic,
                        "epsilon_lower": res.epsilon_lower,
                        "claimed": case.claimed_epsilon,
                        "true": case.true_epsilon(),
                        "verdict": res.verdict,
                        "refutation_expected": not case.correct,
                        "p_value": res.p_value,
                        "right": (res.verdict == "refuted") == (not case.correct),
                    }
                )
        wrong = sum(not r["right"] for r in rows)
        return compare_result(
            wrong,
            0,
            "at_most",
            rtol=0.0,
            atol=0.0,
            evidence_kind="calibration",
            method=f"{len(rows)} statistical audits ({samples} calls each, confidence {confidence}), "
            "one seed per case and statistic; observed = audits with the wrong verdict",
            reading=_READING,
            evidence={"samples": samples, "confidence": confidence, "audits": rows},
        )

    return check


def power_calibration_check(
    suite=None, audit=None, confidence=CONFIDENCE, target=POWER_TARGET, samples=None, seeds=None
):
    """Check factory: the audit's epsilon lower bound over the oracle Clopper-Pearson bound is >= ``target``.

    With five seeds or more, every case's mean ratio over the seeds must reach ``target``
    (``observed`` is the smallest); with fewer, the mean ratio over the cases must reach it
    (``observed``) and every ratio must reach :data:`SINGLE_SEED_FLOOR`.
    """

    def check(ctx):
        from ..audit.calibration import calibration_suite, oracle_bound

        suite_, audit_ = _defaults(suite, audit)
        n_calls, n_seeds = (1_000_000, 1) if ctx.profile == "quick" else (1_000_000, 10)
        n_calls, n_seeds = samples or n_calls, seeds or n_seeds
        cases = suite_()
        if ctx.profile == "quick" and suite_ is calibration_suite:
            cases = [c for c in cases if not c.correct]  # the refutations; full runs every case
        rows = []
        for case in cases:
            oracle = oracle_bound(case, n_calls, confidence)
            for statistic in ("auto", "estimate"):
                vals = [
                    audit_(
                        case.mechanism,
                        [case.pair()],
                        case.claimed_epsilon,
                        case.claimed_delta,
                        samples=n_calls,
                        confidence=confidence,
                        seed=_audit_seed(ctx, case.name, statistic, s),
                        statistic=statistic,
                    ).epsilon_lower
                    for s in range(n_seeds)
                ]
                rows.append(
                    {
                        "case": case.name,
                        "statistic": statistic,
                        "oracle": oracle,
                        "mean_epsilon_lower": float(np.mean(vals)),
                        "ratio": float(np.mean(vals) / oracle) if oracle > 0 else None,
                    }
                )
        ratios = [r["ratio"] for r in rows if r["ratio"] is not None]
        worst, mean = min(ratios), float(np.mean(ratios))
        if n_seeds >= 5:
            observed, ok = worst, at_least(worst, target)
            rule = f"every case's mean ratio over {n_seeds} seeds >= {target}"
        else:
            # One seed: a single bound scatters around its mean (the oracle event itself, with random
            # counts, falls below 0.87 of its expected-count bound 5% of the time on the Gaussian case).
            observed, ok = mean, at_least(mean, target) and at_least(worst, SINGLE_SEED_FLOOR)
            rule = f"mean ratio over cases >= {target} and every ratio >= {SINGLE_SEED_FLOOR} ({n_seeds} seed)"
        return Result(
            "confirmed" if ok else "refuted",
            observed=observed,
            bound=target,
            direction="at_least",
            evidence_kind="calibration",
            method=f"statistical audits at {n_calls} calls, {n_seeds} seed(s) per case and statistic, "
            f"against the oracle Clopper-Pearson bound (confidence {confidence}) of the best event "
            f"at expected counts; rule: {rule}",
            reading=_READING,
            evidence={"samples": n_calls, "seeds": n_seeds, "min_ratio": worst, "mean_ratio": mean, "cases": rows},
        )

    return check


def register(registry):
    """Register the three calibration claims of the auditor."""
    claim = registry.add_claim
    claim(
        Claim(
            "audit.calibration.exact",
            _SOURCE,
            "Exact audits of finite-output calibration mechanisms match the analytic epsilon to 1e-9.",
            "inequality",
            exact_calibration_check(),
            scope="self-test",
        )
    )
    # verdicts and power cost 2.8 s and 2.6 s a quick run (measured when they were made expensive): one run seed
    claim(
        Claim(
            "audit.calibration.verdicts",
            _SOURCE,
            "The statistical audit refutes the violating calibration mechanisms and not the correct ones.",
            "inequality",
            verdict_calibration_check(),
            scope="self-test",
            seed_policy="once",
        )
    )
    claim(
        Claim(
            "audit.calibration.power",
            _SOURCE,
            "The statistical audit reaches at least 0.9 of the oracle Clopper-Pearson bound.",
            "inequality",
            power_calibration_check(),
            scope="self-test",
            seed_policy="once",
        )
    )
