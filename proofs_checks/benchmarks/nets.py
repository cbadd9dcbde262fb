"""Streaming scoring and sampling of Wang & Xu's Algorithms 1-2 over a 10^7-point zeta-net in d = 2.

Run ``python -m proofs_checks.benchmarks.nets [--points 1e7] [--n 50] [--draws 1000]``, or at the
theorems' resolution ``zeta = 1/n`` of [000 Thm. 1] with ``--theorem-zeta --n 600``.
Measures wall time and peak memory of (a) the streaming log-normaliser (log-sum-exp over the
whole net), (b) the streaming Gumbel-max sampler, with the net enumerated lazily block by block.
Peak memory is reported twice: ``tracemalloc`` (peak of Python/numpy allocations during the
call) and the process peak resident set size (``resource.getrusage``, Linux KiB).
"""

from __future__ import annotations

import argparse
import json
import math
import resource
import sys
import time
import tracemalloc

import numpy as np

from reference.wang_xu.data import LinearModel, lomax, student_t
from reference.wang_xu.l1_regression import streaming_gumbel_max_sample, streaming_log_normaliser
from reference.wang_xu.nets import L2BallNet

__all__ = ["run", "main"]


def _measure(fn):
    tracemalloc.start()
    t0 = time.perf_counter()
    out = fn()
    seconds = time.perf_counter() - t0
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return out, seconds, peak


def run(points=10_000_000, n=50, draws=1000, epsilon=1.0, iota=0.5, theta=2.0, seed=0, zeta=None):
    if zeta is None:
        zeta = math.sqrt(2.0) * math.sqrt(math.pi / points)  # L2BallNet spacing zeta/sqrt(2) in d = 2
    net = L2BallNet(1.0, zeta, 2)
    t0 = time.perf_counter()
    size = net.size
    count_seconds = time.perf_counter() - t0
    data = LinearModel((0.3, -0.4), student_t(2.5), lomax(2.5)).sample(n, seed)
    X, y = data[:, :-1], data[:, -1]
    log_z, t_norm, peak_norm = _measure(lambda: streaming_log_normaliser(X, y, net, epsilon, iota, theta))
    sample, t_samp, peak_samp = _measure(
        lambda: streaming_gumbel_max_sample(X, y, net, epsilon, iota, theta, size=draws, rng=seed)
    )
    return {
        "net_points": size,
        "zeta": zeta,
        "dim": 2,
        "n_records": n,
        "draws": draws,
        "count_seconds": count_seconds,
        "log_normaliser": log_z,
        "normaliser_seconds": t_norm,
        "normaliser_peak_tracemalloc_MB": peak_norm / 2**20,
        "sample_seconds": t_samp,
        "sample_peak_tracemalloc_MB": peak_samp / 2**20,
        "sample_mean": np.mean(sample, axis=0).tolist(),
        "process_peak_rss_MB": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "dense_net_array_would_need_MB": size * 2 * 8 / 2**20,
    }


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m proofs_checks.benchmarks.nets", description=__doc__.splitlines()[0])
    p.add_argument("--points", type=float, default=1e7, help="approximate net size (default 1e7)")
    p.add_argument("--n", type=int, default=50, help="number of records (default 50)")
    p.add_argument("--draws", type=int, default=1000, help="number of samples (default 1000)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--theorem-zeta", action="store_true", help="use zeta = 1/n of [000 Thm. 1] (ignores --points)")
    args = p.parse_args(argv)
    zeta = 1.0 / args.n if args.theorem_zeta else None
    print(json.dumps(run(int(args.points), args.n, args.draws, seed=args.seed, zeta=zeta), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
