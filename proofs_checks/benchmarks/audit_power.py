"""Power, calibration and cost of the statistical auditor on the calibration suite.

Run: ``python -m proofs_checks.benchmarks.audit_power [--samples 1e6] [--seeds 5] [--jobs 1]
[--false-rate 200] [--json]`` (or by path).  For every calibration case and
both statistics (the exact log-likelihood ratio, and the black-box estimate),
it reports the oracle Clopper-Pearson bound at the same number of calls and
confidence, the mean epsilon lower bound over seeds and their ratio, the
verdicts, the wall time split between the mechanism and the auditor, and the
peak resident memory.  ``--false-rate K`` also runs K audits of the correct
Laplace case at 2*10^4 calls and reports the refutation rate.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time

import numpy as np

from proofs_checks.audit.calibration import calibration_suite, oracle_bound
from proofs_checks.audit.statistical import statistical_audit
from proofs_checks.verdicts import CONFIDENCE

__all__ = ["run", "false_rate", "main"]


def run(samples=1_000_000, seeds=5, confidence=CONFIDENCE, jobs=1, cases=None, statistics=("auto", "estimate")):
    rows = []
    for case in calibration_suite():
        if cases and case.name not in cases:
            continue
        oracle = oracle_bound(case, samples, confidence)
        for statistic in statistics:
            vals, verdicts, t_mech, t_aud, wall = [], [], 0.0, 0.0, 0.0
            for s in range(seeds):
                t0 = time.perf_counter()
                r = statistical_audit(
                    case.mechanism,
                    [case.pair()],
                    case.claimed_epsilon,
                    case.claimed_delta,
                    samples=samples,
                    confidence=confidence,
                    seed=1000 + s,
                    jobs=jobs,
                    statistic=statistic,
                )
                wall += time.perf_counter() - t0
                vals.append(r.epsilon_lower)
                verdicts.append(r.verdict)
                t_mech += r.seconds_mechanism
                t_aud += r.seconds_auditor
            rows.append(
                {
                    "case": case.name,
                    "statistic": statistic,
                    "true_epsilon": case.true_epsilon(),
                    "claimed": case.claimed_epsilon,
                    "oracle": oracle,
                    "mean_lower": float(np.mean(vals)),
                    "min_lower": float(np.min(vals)),
                    "ratio": float(np.mean(vals) / oracle),
                    "refuted": sum(v == "refuted" for v in verdicts),
                    "seeds": seeds,
                    "expected": "not refuted" if case.correct else "refuted",
                    "seconds_per_audit": wall / seeds,
                    "mechanism_ns_per_call": 1e9 * t_mech / (seeds * samples),
                    "auditor_ns_per_call": 1e9 * t_aud / (seeds * samples),
                }
            )
    return rows


def false_rate(audits=200, samples=20_000, confidence=CONFIDENCE, statistic="auto", case_name="laplace-correct"):
    case = [c for c in calibration_suite() if c.name == case_name][0]
    refuted = sum(
        statistical_audit(
            case.mechanism,
            [case.pair()],
            case.claimed_epsilon,
            case.claimed_delta,
            samples=samples,
            confidence=confidence,
            seed=50_000 + s,
            statistic=statistic,
        ).verdict
        == "refuted"
        for s in range(audits)
    )
    return {
        "case": case.name,
        "statistic": statistic,
        "audits": audits,
        "samples": samples,
        "confidence": confidence,
        "refuted": refuted,
        "rate": refuted / audits,
    }


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--samples", type=float, default=1e6)
    p.add_argument("--seeds", type=int, default=5)
    p.add_argument("--confidence", type=float, default=CONFIDENCE)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--cases", nargs="*")
    p.add_argument("--false-rate", type=int, default=0, metavar="K")
    p.add_argument(
        "--false-statistic",
        choices=("auto", "estimate"),
        default="auto",
        help="statistic of the --false-rate audits (estimate: black box, the attacks compete)",
    )
    p.add_argument("--false-case", default="laplace-correct", help="correct calibration case of --false-rate")
    p.add_argument("--json", action="store_true")
    a = p.parse_args(argv)
    t0 = time.perf_counter()
    rows = run(int(a.samples), a.seeds, a.confidence, a.jobs, a.cases)
    out = {
        "samples": int(a.samples),
        "seeds": a.seeds,
        "confidence": a.confidence,
        "rows": rows,
        "min_ratio": min(r["ratio"] for r in rows),
    }
    if a.false_rate:
        out["false_refutation"] = false_rate(
            a.false_rate, confidence=a.confidence, statistic=a.false_statistic, case_name=a.false_case
        )
    out["seconds"] = time.perf_counter() - t0
    out["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    if a.json:
        print(json.dumps(out, indent=2))
        return 0
    print(f"samples {out['samples']:.0e}, {a.seeds} seeds, confidence {a.confidence}")
    print(
        "| case | statistic | true eps | claim | oracle | mean lower | ratio | refuted/seeds | s/audit | "
        "mech ns/call | auditor ns/call |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(
            f"| {r['case']} | {r['statistic']} | {r['true_epsilon']:.4f} | {r['claimed']} | {r['oracle']:.4f} | "
            f"{r['mean_lower']:.4f} | {r['ratio']:.3f} | {r['refuted']}/{r['seeds']} | "
            f"{r['seconds_per_audit']:.2f} | {r['mechanism_ns_per_call']:.0f} | {r['auditor_ns_per_call']:.0f} |"
        )
    print(f"min ratio {out['min_ratio']:.3f}; total {out['seconds']:.0f} s; peak RSS {out['peak_rss_mb']:.0f} MB")
    if a.false_rate:
        print("false refutations:", out["false_refutation"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
