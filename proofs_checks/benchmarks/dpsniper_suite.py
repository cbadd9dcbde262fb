"""The auditor on DP-Sniper's benchmark: epsilon_lower beside DP-Sniper's, time per audit.

Run: ``python -m proofs_checks.benchmarks.dpsniper_suite [--calls 1e7] [--confidence 0.9] [--seed 0]
[--statistic estimate] [--threshold-scoring pessimistic] [--only NAME ...] [--jobs 1] [--json]``.

Every mechanism of :mod:`~proofs_checks.benchmarks.dpsniper_mechanisms` is audited at claimed
epsilon 0.1 on DP-Sniper's own chosen pair with ``--calls`` mechanism calls, by the black-box
statistical audit (``method="statistical"``; ``--statistic estimate`` by default, so the
truncated geometric mechanism's exact law is not used, as DP-Sniper cannot use it either), at
DP-Sniper's confidence 0.9.  The table gives ``epsilon_lower``, DP-Sniper's values at a tenth of
its default budget and at its full budget (:data:`DPSNIPER_TENTH`, :data:`DPSNIPER_FULL`), whether
each is met, the wall time of the audit, and for the mechanisms of
:data:`~proofs_checks.benchmarks.dpsniper_mechanisms.ORACLE_CASES` the oracle: the largest bound any
event can give with the audit's estimation calls (``oracle_est``) or with all its calls spent on
estimation (``oracle_all``), a ceiling no sound audit of that pair at that budget can expect to pass.  Numbers are recorded in ``docs/auditor.md``; nothing
here is a timed test.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from proofs_checks.audit.api import audit
from proofs_checks.audit.statistical import DEFAULT_THRESHOLD_SCORING, THRESHOLD_SCORINGS
from proofs_checks.benchmarks.dpsniper_mechanisms import (
    DPSNIPER_FULL,
    DPSNIPER_PAIRS,
    DPSNIPER_TENTH,
    EPSILON,
    ORACLE_CASES,
    benchmark_mechanisms,
    oracle_bound,
)

__all__ = ["run", "main"]


def run(
    calls=1_000_000,
    confidence=0.9,
    seed=0,
    statistic="estimate",
    only=None,
    jobs=1,
    oracle_cases=True,
    threshold_scoring=None,
):
    """Audit each benchmark mechanism once; return one dict per mechanism (``threshold_scoring`` as in
    :func:`~proofs_checks.audit.api.audit`; None: the audit's default)."""
    if threshold_scoring is None:
        threshold_scoring = DEFAULT_THRESHOLD_SCORING
    rows = []
    for name, mech in benchmark_mechanisms().items():
        if only and name not in only:
            continue
        D, Dp = DPSNIPER_PAIRS[name]
        t0 = time.perf_counter()
        res = audit(
            mech,
            epsilon=EPSILON,
            pairs=[(D, Dp, f"DP-Sniper's pair {name}")],
            samples=int(calls),
            confidence=confidence,
            seed=seed,
            method="statistical",
            statistic=statistic,
            jobs=jobs,
            name=name,
            progress=False,
            threshold_scoring=threshold_scoring,
        )
        sec = time.perf_counter() - t0
        tenth, full = DPSNIPER_TENTH.get(name), DPSNIPER_FULL.get(name)
        n_est = res.details.get("counts", {}).get("n_each")
        oracle = {}
        if oracle_cases and name in ORACLE_CASES:
            oracle = {
                "oracle_est": oracle_bound(name, n_est, confidence) if n_est else None,
                "oracle_all": oracle_bound(name, int(calls) // 2, confidence),
            }
        rows.append(
            {
                "mechanism": name,
                "epsilon_lower": res.epsilon_lower,
                "verdict": res.verdict,
                "dpsniper_tenth": tenth,
                "dpsniper_full": full,
                "meets_tenth": None if tenth is None else res.epsilon_lower >= tenth,
                "meets_full": None if full is None else res.epsilon_lower >= full,
                "seconds": sec,
                "threshold_scoring": threshold_scoring,
                "calls": res.samples,
                "confidence": confidence,
                "seed": seed,
                "statistic": res.details.get("statistic"),
                "direction": res.details.get("direction"),
                # the event's threshold and counts: bit-identity of results across --jobs and versions
                "threshold": res.details.get("threshold"),
                "counts": res.details.get("counts"),
                "oracle_est": oracle.get("oracle_est"),
                "oracle_all": oracle.get("oracle_all"),
            }
        )
    return rows


def _table(rows):
    head = f"{'mechanism':<19} {'eps_lower':>10} {'DPS 1/10':>9} {'DPS full':>9}  {'>=1/10':>6} {'>=full':>6} {'oracle':>7} {'s':>7}  statistic"
    lines = [head, "-" * len(head)]
    for r in rows:

        def fmt(v):
            return "" if v is None else f"{v:.4f}"

        def ok(v):
            return "" if v is None else ("yes" if v else "NO")

        lines.append(
            f"{r['mechanism']:<19} {r['epsilon_lower']:>10.4f} {fmt(r['dpsniper_tenth']):>9} "
            f"{fmt(r['dpsniper_full']):>9}  {ok(r['meets_tenth']):>6} {ok(r['meets_full']):>6} "
            f"{fmt(r.get('oracle_est')):>7} "
            f"{r['seconds']:>7.1f}  {r['statistic']}"
        )
    return "\n".join(lines)


def main(argv=None):
    p = argparse.ArgumentParser(
        prog="python -m proofs_checks.benchmarks.dpsniper_suite",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--calls", type=float, default=1e6, help="mechanism calls per audit (default 1e6)")
    p.add_argument("--confidence", type=float, default=0.9, help="confidence (DP-Sniper's: 0.9)")
    p.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    p.add_argument(
        "--statistic",
        choices=("auto", "estimate"),
        default="estimate",
        help="estimate: black box as DP-Sniper (default); auto: use a log_prob where given",
    )
    p.add_argument(
        "--threshold-scoring",
        choices=THRESHOLD_SCORINGS,
        default=None,
        help="selection rule of searched thresholds (default: the audit's, cross-fit-smooth)",
    )
    p.add_argument("--only", nargs="+", metavar="NAME", help="audit only these mechanisms")
    p.add_argument("--jobs", type=int, default=1, help="parallel workers (results do not depend on it)")
    p.add_argument("--json", action="store_true", help="print JSON rows")
    args = p.parse_args(argv)
    if args.calls < 100 or args.calls != int(args.calls):
        p.error(f"--calls must be an integer >= 100, got {args.calls}")
    unknown = sorted(set(args.only or ()) - set(DPSNIPER_PAIRS))
    if unknown:
        p.error(f"--only: unknown mechanism(s) {unknown}; known: {sorted(DPSNIPER_PAIRS)}")
    rows = run(
        int(args.calls),
        args.confidence,
        args.seed,
        args.statistic,
        args.only,
        args.jobs,
        threshold_scoring=args.threshold_scoring,
    )
    print(json.dumps(rows, indent=2) if args.json else _table(rows))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
