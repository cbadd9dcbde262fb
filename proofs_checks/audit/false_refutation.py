"""False-refutation rate of the zCDP, Renyi-DP and mu-GDP audits on correct mechanisms, exact and statistical.

Run: ``python -m proofs_checks.audit.false_refutation [--audits 200] [--samples 200000] [--confidence 0.95]
[--json]``.  Every audit is of a mechanism whose claim is true (closed forms below), so each refutation is a false
one; the rate is reported with its two-sided 95% Clopper-Pearson interval.

* **statistical**: ``audits`` seeds (0, 1, ...) per case, each at ``samples`` calls: the Gaussian counting query
  (sigma 1, sensitivity 1) at its tight claims ``zcdp:0.5``, ``renyi:2:1``, ``gdp:1``, and randomized response
  (epsilon 1) as a black box at its tight ``mu = 2 Phi^-1(e/(1+e))``.  The audit promises a rate at most
  ``1 - confidence``.
* **exact**: ``audits`` correct mechanisms drawn from a seeded generator: Gaussians of sigma log-uniform in
  [0.3, 3] at their tight claims (``rho = 1/(2 sigma^2)``, ``D_alpha = alpha rho`` at alpha in {1.5, 2, 8},
  ``mu = 1/sigma``) and randomized responses of epsilon uniform in [0.1, 3] at ``rho = eps^2/2`` (pure DP implies
  it [1]_) and their tight ``mu``.  The exact audit promises no false refutation at all.

References
----------
.. [1] M. Bun and T. Steinke, "Concentrated differential privacy", TCC 2016 (Proposition 1.4).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time

import numpy as np
from scipy.stats import beta, norm

from .calibration import GaussianCount, RandomizedResponse
from .claim_audit import audit_claim

__all__ = ["clopper_pearson_interval", "exact_cases", "main", "rate", "statistical_cases"]


def clopper_pearson_interval(k: int, n: int, level: float = 0.95) -> tuple[float, float]:
    """Two-sided Clopper-Pearson interval of a binomial proportion ``k / n`` at ``level``.

    Parameters
    ----------
    k, n : int
        Successes and trials, ``0 <= k <= n``, ``n >= 1``.
    level : float
        Coverage, in (0, 1).

    Returns
    -------
    tuple of float
        ``(low, high)``.

    Raises
    ------
    ValueError
        ``k`` or ``n`` out of range.

    Examples
    --------
    >>> low, high = clopper_pearson_interval(0, 200)
    >>> low, round(high, 4)
    (0.0, 0.0183)
    """
    if not (isinstance(n, int) and n >= 1 and isinstance(k, int) and 0 <= k <= n):
        raise ValueError(f"need integers 0 <= k <= n, n >= 1; got k={k!r}, n={n!r}")
    a = (1.0 - level) / 2.0
    low = 0.0 if k == 0 else float(beta.ppf(a, k, n - k + 1))
    high = 1.0 if k == n else float(beta.ppf(1 - a, k + 1, n - k))
    return low, high


def _rr_mu(eps):
    return 2.0 * float(norm.ppf(math.exp(eps) / (1.0 + math.exp(eps))))


class _BlackBox:
    """A mechanism's ``sample`` alone (its law hidden): the statistical audit then uses the output itself."""

    def __init__(self, mechanism):
        self._mechanism = mechanism

    def sample(self, data, size, rng):
        return self._mechanism.sample(data, size, rng)


def statistical_cases():
    """``(label, mechanism, claim text)`` of the statistical runs: tight, correct claims."""
    g = GaussianCount(1.0)
    rr = RandomizedResponse(true_eps=1.0)
    return [
        ("gaussian sigma 1, zcdp:0.5", g, "zcdp:0.5"),
        ("gaussian sigma 1, renyi:2:1", g, "renyi:2:1"),
        ("gaussian sigma 1, gdp:1", g, "gdp:1"),
        (f"randomized response eps 1 (black box), gdp:{_rr_mu(1.0):.6f}", _BlackBox(rr), f"gdp:{_rr_mu(1.0)!r}"),
    ]


def exact_cases(audits, seed=0):
    """``audits`` ``(label, mechanism, claim text)`` of correct mechanisms and claims (module notes)."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(audits):
        if i % 2 == 0:
            sigma = float(math.exp(rng.uniform(math.log(0.3), math.log(3.0))))
            rho = 0.5 / sigma**2
            alpha = float(rng.choice([1.5, 2.0, 8.0]))
            claim = [f"zcdp:{rho!r}", f"renyi:{alpha!r}:{alpha * rho!r}", f"gdp:{1.0 / sigma!r}"][(i // 2) % 3]
            out.append((f"gaussian sigma {sigma:.4f}", GaussianCount(sigma), claim))
        else:
            eps = float(rng.uniform(0.1, 3.0))
            claim = [f"zcdp:{eps**2 / 2!r}", f"gdp:{_rr_mu(eps)!r}"][(i // 2) % 2]
            out.append((f"randomized response eps {eps:.4f}", RandomizedResponse(true_eps=eps), claim))
    return out


def rate(runs, method, samples=200_000, confidence=0.95, seeds=None):
    """Audit every ``(label, mechanism, claim)`` of ``runs`` (with each seed of ``seeds`` when given).

    Returns a dict: ``audits``, ``refuted``, ``rate``, ``interval`` (Clopper-Pearson 95%), ``seconds``, and
    ``refuted_runs`` (label, claim, seed, bound of each refutation).
    """
    t0 = time.perf_counter()
    n, bad = 0, []
    for label, mech, claim in runs:
        for seed in seeds if seeds is not None else [0]:
            res = audit_claim(
                mech, claim, mech_pair(mech), method=method, samples=samples, confidence=confidence, seed=seed
            )
            n += 1
            if res.verdict == "refuted":
                bad.append({"case": label, "claim": claim, "seed": seed, "bound": res.bound})
    low, high = clopper_pearson_interval(len(bad), n)
    return {
        "method": method,
        "audits": n,
        "refuted": len(bad),
        "rate": len(bad) / n,
        "interval": [low, high],
        "seconds": time.perf_counter() - t0,
        "refuted_runs": bad,
    }


def mech_pair(mech):
    """The canonical neighbouring pair of a calibration mechanism (or of the one a black box wraps)."""
    inner = getattr(mech, "_mechanism", mech)
    return inner.pair()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--audits", type=int, default=200, help="statistical seeds per case; exact mechanisms")
    parser.add_argument("--samples", type=int, default=200_000)
    parser.add_argument("--confidence", type=float, default=0.95)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows = []
    for label, mech, claim in statistical_cases():
        r = rate([(label, mech, claim)], "statistical", args.samples, args.confidence, seeds=range(args.audits))
        rows.append({"case": label, **r})
    rows.append({"case": "exact, mixed", **rate(exact_cases(args.audits), "exact", confidence=args.confidence)})
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print("| case | method | audits | refuted | rate | 95% CP interval | seconds |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        lo, hi = r["interval"]
        print(
            f"| {r['case']} | {r['method']} | {r['audits']} | {r['refuted']} | {r['rate']:.3f} | "
            f"[{lo:.4f}, {hi:.4f}] | {r['seconds']:.0f} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
