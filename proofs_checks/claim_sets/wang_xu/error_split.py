"""The error of Algorithms 1-2 split into the statistical and the mechanism's term, with the non-private
baselines: [000 Lemma 6] (Theorem 1) and [000 eq. (24)] (Theorem 2), the statistical part of the proofs.

For each simulated dataset (the d = 1 models of the rate checks, zeta = 1/n, the theorems' iota):

* ``w-hat_iota``, the minimiser of L-hat_iota (non-private, Zhang & Zhou;
  :func:`reference.wang_xu.baselines.truncated_loss_minimiser`), taken global over the zeta-net
  (zeta = 1/n; its L_D is within ``zeta tau`` of the continuous minimiser's);
* statistical term ``L_D(w-hat_iota) - L_D(w*)`` (quadrature);
* mechanism term ``E[L_D(w~)] - L_D(w-hat_iota)``, the mean over the exact output law of the printed
  mechanism (and of the calibrated one);
* LAD (:func:`reference.wang_xu.baselines.lad_regression`, unconstrained) and its excess risk.

The verdict is on the statistical term: Lemma 6 (``2 zeta tau + iota zeta^2 tau^2 + (3 iota/2) M +
log(N/eta)/(n iota)``, w.p. ``1 - 2 eta``) and the printed (24) (``2 zeta tau + b M + 2 b zeta^theta
tau^theta + 2 log(N/eta)/(n iota)``, w.p. ``1 - 2 eta``) as a coverage over datasets; the split and
the baselines are in the evidence.  A case whose bound is at least the largest excess risk over W is
vacuous (no estimator in W could break it); all cases vacuous gives the verdict ``vacuous``.
"""

from __future__ import annotations

import math

import numpy as np

from reference.wang_xu.baselines import lad_regression, truncated_loss_minimiser
from reference.wang_xu.l1_regression import wang_xu_log_prob

from ...model import Claim, Mutant, Result
from ...rates.trials_wang_xu import excess_risk_1d, net_excess_risk
from ...verdicts import CONFIDENCE, clopper_pearson, coverage_verdict
from ._common import setup_for
from .bounds import sup_moment

__all__ = ["SPLIT_CASES", "statistical_bound", "scaled_bound", "error_split_check", "error_split_mutants", "register"]

SPLIT_CASES = [(100, 1.0), (400, 1.0), (400, 4.0)]
SPLIT_DATASETS = {"quick": 8, "full": 100}


def statistical_bound(setup, n, eps):
    """Lemma 6 (Theorem 1) or the printed (24) (Theorem 2): a bound on ``L_D(w-hat_iota) - L_D(w*)``."""
    p = setup.parameters(n, eps)
    z, io, tau, th, M = p["zeta"], p["iota"], setup.tau, setup.theta, sup_moment(setup)
    lg = math.log(len(setup.net(n)) / setup.eta) / (n * io)
    if setup.algorithm == 1:
        return 2 * z * tau + io * z**2 * tau**2 + 1.5 * io * M + lg
    b = (2 * io) ** (th - 1) / th
    return 2 * z * tau + b * M + 2 * b * z**th * tau**th + 2 * lg


def error_split_check(algorithm, *, cases=None, datasets=None, bound=statistical_bound):
    """Check factory: the statistical term is within Lemma 6 / (24) with probability ``>= 1 - 2 eta``.

    ``bound(setup, n, eps)`` defaults to :func:`statistical_bound`; the tests pass a broken one.
    """
    setup = setup_for(algorithm)

    def check(ctx):
        rng = ctx.rng()
        reps = datasets or SPLIT_DATASETS[ctx.profile]
        held, rows, vacuous = [], [], 0
        # L_D - L_D(w*) is convex in w: its largest value over W = [-R, R] is at an end point.
        worst_in_W = float(np.max(excess_risk_1d(setup.model, [-setup.radius, setup.radius])[0]))
        for n, eps in cases or SPLIT_CASES:
            p = setup.parameters(n, eps)
            net = setup.net(n)
            pts, excess, _ = net_excess_risk(setup.model, float(setup.radius), float(p["zeta"]))
            B = bound(setup, n, eps)
            w_hat, w_lad, mean_printed, mean_calibrated = (np.empty(reps) for _ in range(4))
            for r in range(reps):
                data = setup.model.sample(n, rng)
                X, y = data[:, :1], data[:, 1]
                # global over the zeta-net (zeta = 1/n); L_D of the continuous minimiser differs by <= zeta tau
                w_hat[r] = truncated_loss_minimiser(X, y, p["iota"], setup.theta, net=net, polish=False)[0][0]
                w_lad[r] = np.clip(lad_regression(X, y), -setup.radius, setup.radius)[0]
                for variant, out in (("printed", mean_printed), ("calibrated", mean_calibrated)):
                    _, lp = wang_xu_log_prob(X, y, net, eps, p["iota"], setup.theta, variant)
                    out[r] = float(np.exp(lp) @ excess)
            # One vectorised quadrature for every dataset's two estimates (it was one per dataset,
            # 95% of the check's time); the error control covers the whole vector.
            ex, _ = excess_risk_1d(setup.model, np.concatenate([w_hat, w_lad]))
            stat, lad = ex[:reps], ex[reps:]
            mech, mech_cal = mean_printed - stat, mean_calibrated - stat
            held.append(stat <= B)
            vacuous += B >= worst_in_W
            q = 1 - setup.eta
            rows.append(
                {
                    "n": n,
                    "epsilon": eps,
                    "iota": p["iota"],
                    "statistical_bound": B,
                    "statistical_term_quantile": float(np.quantile(stat, q)),
                    "mechanism_term_printed_quantile": float(np.quantile(mech, q)),
                    "mechanism_term_calibrated_quantile": float(np.quantile(mech_cal, q)),
                    "lad_excess_quantile": float(np.quantile(lad, q)),
                    "mechanism_term_in_proof": 4
                    * math.log(setup.theta)
                    / (n * p["iota"] * eps)
                    * math.log(len(net) / setup.eta),
                }
            )
        held = np.concatenate(held)
        k, m = int(held.sum()), int(held.size)
        nominal = 1 - 2 * setup.eta
        src = "[000 Lemma 6]" if algorithm == 1 else "[000 eq. (24)] (second line as printed)"
        verdict = coverage_verdict(k, m, nominal, CONFIDENCE, vacuous=vacuous == len(rows))
        return Result(
            verdict,
            observed=k / m,
            bound=nominal,
            direction="at_least",
            evidence_kind="coverage",
            method=f"{reps} simulated datasets per (n, eps); w-hat_iota global over the zeta-net; excess "
            "risks by quadrature; mechanism term from the exact output law (mean); quantiles at 1 - eta",
            reading=f"{src} in the proof of [000 Thm. {algorithm}]: w.p. >= 1 - 2 eta, L_D(w-hat_iota) - L_D(w*) is "
            "at most the stated bound, w-hat_iota = argmin over W of L-hat_iota [000 eq. (2)]; the split "
            "total = statistical + mechanism term follows the proof's chain (9)/(20)",
            evidence={
                "covered": k,
                "simulations": m,
                "clopper_pearson": list(clopper_pearson(k, m, CONFIDENCE)),
                "vacuous_cases": f"{vacuous}/{len(rows)} (bound >= largest excess risk over W, {worst_in_W:.4g})",
                "cases": rows,
                "lad": "statsmodels QuantReg (q = 0.5), clipped to W",
            },
        )

    return check


def scaled_bound(factor):
    """:func:`statistical_bound` times ``factor`` (the mutants)."""

    def bound(setup, n, eps):
        return factor * statistical_bound(setup, n, eps)

    return bound


#: Bound scales of the mutants.  Lemma 6 / (24) are loose by a factor ~250-5000 on these models (the 0.9 quantile
#: of the statistical term is 0.0009-0.011 against bounds 1.0-10.5; every case of Theorem 2 and two of three of
#: Theorem 1 are vacuous), so x0.9 cannot be refuted by any sound check; the power is stated as the factor caught.
BOUND_FACTORS = (0.9, 1e-3, 1e-4)


def error_split_mutants(algorithm):
    """The error-split check with the stated bound scaled by each of :data:`BOUND_FACTORS`."""
    return tuple(
        Mutant(f"bound x{f:g}", error_split_check(algorithm, bound=scaled_bound(f)), factor=f) for f in BOUND_FACTORS
    )


def register(registry):
    """Register the two error-split claims."""
    for alg in (1, 2):
        registry.add_claim(
            Claim(
                f"wang-xu.alg{alg}.error-split",
                "[000 Lemma 6]" if alg == 1 else "[000 eq. (24)]",
                "The statistical term L_D(w-hat_iota) - L_D(w*) of the non-private minimiser of (2) is within "
                + ("Lemma 6" if alg == 1 else "(24)")
                + " w.p. 1 - 2 eta; the evidence splits the private error into "
                "it and the mechanism's term, beside LAD.",
                "inequality",
                error_split_check(alg),
                algorithm=f"wang-xu-{alg}",
                mutants=error_split_mutants(alg),
                seed_policy="once",
            )
        )  # 6-31 s a quick run
