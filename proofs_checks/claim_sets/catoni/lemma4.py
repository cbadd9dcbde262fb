"""[002 Lemma 4]: the deviation bound [002 eq. (12)] of the smoothed Catoni mean, by simulation."""

from __future__ import annotations

import math

import numpy as np

from reference.hu.catoni import robust_mean

from ...model import Result
from ...verdicts import CONFIDENCE, clopper_pearson, coverage_verdict

__all__ = ["lemma4_bound", "lemma4_check"]

_LAWS = {
    # name: (sampler(rng, size), mean, second moment)
    "student_t3_shift1": (lambda g, size: 1.0 + g.standard_t(3, size), 1.0, 1.0 + 3.0),
    "lognormal_0_1": (lambda g, size: g.lognormal(0.0, 1.0, size), math.exp(0.5), math.exp(2.0)),
    "pareto_3": (lambda g, size: g.pareto(3.0, size) + 1.0, 1.5, 3.0),
}


def lemma4_bound(tau, s, beta, n, zeta):
    """Right-hand side of [002 eq. (12)]: ``tau/(2s)(1/beta + 1) + s/n(beta/2 + log(2/zeta))``."""
    return tau / (2 * s) * (1 / beta + 1) + s / n * (beta / 2 + math.log(2 / zeta))


def lemma4_check(bound_factor=1.0, estimator=None, reps=None):
    """Check factory: coverage of [002 Lemma 4] under heavy-tailed laws with known mean and ``E x^2``.

    For each law and scale ``s`` (the bound's minimiser and 4x either side), ``reps`` data sets
    of size ``n`` are drawn; the coverage of ``|x-hat - E x| <= bound_factor * bound`` must be at
    least ``1 - zeta``.  Refuted when the upper Clopper-Pearson limit of some setting's coverage
    lies below ``1 - zeta`` (:func:`proofs_checks.verdicts.coverage_verdict`); ``observed`` is the
    lowest coverage over the settings.
    """
    estimator = (lambda x, s, beta: robust_mean(x, s, beta, axis=1)) if estimator is None else estimator

    def check(ctx):
        rng = ctx.rng()
        n, beta, zeta = 100, 1.0, 0.05
        n_reps = reps if reps is not None else (1000 if ctx.profile == "quick" else 40000)
        rows, verdicts = [], []
        for name, (sampler, mean, tau) in _LAWS.items():
            s_star = math.sqrt(tau * (1 / beta + 1) * n / (2 * (beta / 2 + math.log(2 / zeta))))
            for s in (s_star / 4, s_star, 4 * s_star):
                est = estimator(sampler(rng, (n_reps, n)), s, beta)
                bound = bound_factor * lemma4_bound(tau, s, beta, n, zeta)
                covered = int(np.sum(np.abs(est - mean) <= bound))
                verdicts.append(coverage_verdict(covered, n_reps, 1 - zeta, CONFIDENCE))
                rows.append(
                    {
                        "law": name,
                        "s": s,
                        "bound": bound,
                        "covered": covered,
                        "repetitions": n_reps,
                        "coverage": covered / n_reps,
                        "clopper_pearson": list(clopper_pearson(covered, n_reps, CONFIDENCE)),
                        "max_abs_deviation": float(np.max(np.abs(est - mean))),
                    }
                )
        return Result(
            "refuted" if "refuted" in verdicts else "confirmed",
            observed=min(r["coverage"] for r in rows),
            bound=1 - zeta,
            direction="at_least",
            evidence_kind="coverage",
            method=f"Monte Carlo: {n_reps} data sets of n = {n} per setting, 3 laws x 3 scales s; "
            f"Clopper-Pearson {CONFIDENCE:g} interval of each setting's coverage; observed = the "
            "lowest coverage",
            reading="[002 Lemma 4], [002 eq. (12)] (file lines 608-612): n i.i.d. samples, with probability >= 1 - zeta, |x-hat(s, beta) - E x| "
            "<= tau/(2s)(1/beta + 1) + s/n(beta/2 + log(2/zeta)) when E x^2 <= tau; x-hat of "
            "[002 eq. (4)] with phi of [002 eq. (2)]",
            evidence={
                "n": n,
                "beta": beta,
                "zeta": zeta,
                "confidence": CONFIDENCE,
                "bound_factor": bound_factor,
                "settings": rows,
            },
        )

    return check
