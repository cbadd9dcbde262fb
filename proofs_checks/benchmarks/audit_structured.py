"""Power of the statistical audit's attacks on structured outputs (atoms, joint cells, per-coordinate, union).

Run: ``python -m proofs_checks.benchmarks.audit_structured [--samples 1e7] [--seeds 3]
[--attack auto] [--json]``.  For each target of :mod:`proofs_checks.audit.structured_cases`
(a Laplace count leaking record 0 as a (flag, value) pair or in one column; a
sparse vector releasing its noisy value) it audits the canonical pair as a black
box (``statistic="estimate"``) and prints the mean and minimum ``epsilon_lower``,
the verdicts, the statistic chosen and the seconds per audit.
"""

from __future__ import annotations

import argparse
import inspect
import json
import sys
import time

import numpy as np

from proofs_checks.audit.statistical import statistical_audit
from proofs_checks.audit.structured_cases import FlagLeakLaplace, SVTNoisyValue

__all__ = ["cases", "run", "main"]


def cases():
    return [
        ("flag-leak (flag, value)", FlagLeakLaplace(columns=2)),
        ("flag-leak one column", FlagLeakLaplace(columns=1)),
        ("svt noisy value (m=10, eps 1)", SVTNoisyValue()),
    ]


def run(samples, seeds, attack="auto", jobs=1):
    takes_attack = "attack" in inspect.signature(statistical_audit).parameters
    rows = []
    for name, mech in cases():
        vals, verdicts, stats, wall = [], [], [], 0.0
        for s in range(seeds):
            kw = {"attack": attack} if takes_attack else {}
            t0 = time.perf_counter()
            r = statistical_audit(
                mech,
                [mech.pair()],
                mech.claimed_epsilon,
                mech.claimed_delta,
                samples=samples,
                seed=2000 + s,
                jobs=jobs,
                statistic="estimate",
                **kw,
            )
            wall += time.perf_counter() - t0
            vals.append(r.epsilon_lower)
            verdicts.append(r.verdict)
            stats.append(r.statistic)
        rows.append(
            {
                "case": name,
                "claimed": [mech.claimed_epsilon, mech.claimed_delta],
                "mean_lower": float(np.mean(vals)),
                "min_lower": float(np.min(vals)),
                "refuted": sum(v == "refuted" for v in verdicts),
                "seeds": seeds,
                "statistics": sorted(set(stats)),
                "seconds_per_audit": wall / seeds,
            }
        )
    return rows


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--samples", type=float, default=1e6)
    p.add_argument("--seeds", type=int, default=3)
    p.add_argument("--attack", default="auto")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--json", action="store_true")
    a = p.parse_args(argv)
    rows = run(int(a.samples), a.seeds, a.attack, a.jobs)
    if a.json:
        print(json.dumps(rows, indent=2))
        return 0
    print(f"samples {a.samples:.0e}, {a.seeds} seeds, attack {a.attack}")
    print("| case | claim | mean lower | min lower | refuted/seeds | statistic | s/audit |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print(
            f"| {r['case']} | {tuple(r['claimed'])} | {r['mean_lower']:.4g} | {r['min_lower']:.4g} | "
            f"{r['refuted']}/{r['seeds']} | {'; '.join(r['statistics'])} | {r['seconds_per_audit']:.1f} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
