"""Additive noise: the Laplace mechanism [002 Def. 2] (its privacy and its printed density) and the
classic calibration of the Gaussian mechanism (Dwork & Roth 2014, Thm. 3.22).
"""

from __future__ import annotations

import math
import warnings

import numpy as np
from scipy import integrate

from reference.mechanisms import gaussian_exact_delta
from reference.mechanisms.gaussian import gaussian_sigma

from ...builders import WorstCase, compare_result, max_search_check
from ...verdicts import QUADRATURE_RTOL

__all__ = ["laplace_privacy_check", "laplace_printed_density_check", "gaussian_calibration_check"]

#: Neighbouring answers of a query of sensitivity Delta.
ANSWER_NEIGHBOURS = (
    "answers q(D), q(D') with ||q(D) - q(D')|| <= Delta (the sensitivity of q over replace-one neighbouring datasets)"
)


def laplace_privacy_check(scale_factor=1.0, epsilon=1.0, sensitivity=1.0):
    """Check factory: the largest Laplace log-density ratio for answers ``Delta_1`` apart, over epsilon.

    The log-ratio ``(|x - q'|_1 - |x - q|_1) / b`` is piecewise linear in each coordinate and attains its
    supremum beyond both answers, so evaluating it at a far point (plus random points) is exact.
    """

    def search(ctx):
        rng = ctx.rng()
        scale = scale_factor * sensitivity / epsilon
        worst = WorstCase(0.0)
        n_pairs = 50 if ctx.profile == "quick" else 500
        for _ in range(n_pairs):
            d = int(rng.integers(1, 5))
            q = rng.normal(0, 10, size=d)
            step = rng.dirichlet(np.ones(d)) * sensitivity * rng.choice([-1, 1], size=d)
            q2 = q + step
            far = q + np.sign(step) * (np.abs(step) + 100 * scale)
            grid = np.vstack([far, q2 + rng.normal(0, scale, size=(200, d))])
            ratio = (np.abs(grid - q2).sum(axis=1) - np.abs(grid - q).sum(axis=1)) / scale
            worst.update(float(np.max(np.abs(ratio))) / epsilon, {"answer": q.tolist(), "neighbour": q2.tolist()})
        return worst.value, worst.where, n_pairs

    return max_search_check(
        search,
        1.0,
        method="exact supremum of the log-density ratio (attained beyond both answers) for random answer pairs "
        "Delta_1 apart in dimension 1 to 4 (50 quick, 500 full); observed = largest privacy loss / epsilon",
        reading=f"Lap(Delta_1(q)/eps) noise added to each coordinate [002 Def. 2]; eps-DP over {ANSWER_NEIGHBOURS} "
        "in l1",
        evidence={"epsilon": epsilon, "laplace_scale": scale_factor * sensitivity / epsilon},
    )


def laplace_printed_density_check():
    """Check factory: does the printed density ``exp(-x/lambda)/(2 lambda)`` [002 Def. 2] integrate to 1?

    ``observed`` is its mass on [-100, 100] (lambda = 1); a density must give 1 there up to the
    tail mass ``e^-100`` and the quadrature tolerance.
    """

    def check(ctx):
        lam = 1.0
        masses = {
            str(w): integrate.quad(lambda x: math.exp(-x / lam) / (2 * lam), -w, w)[0] for w in (10.0, 50.0, 100.0)
        }
        corrected, _ = integrate.quad(lambda x: math.exp(-abs(x) / lam) / (2 * lam), -np.inf, np.inf)
        return compare_result(
            masses["100.0"],
            1.0,
            "equal",
            rtol=QUADRATURE_RTOL,
            atol=0.0,
            method="scipy quad of the printed density on [-M, M], M = 10, 50, 100, lambda = 1; observed = mass on "
            "[-100, 100]",
            reading="the density of Lap(lambda) as printed in [002 Def. 2], exp(-x/lambda)/(2 lambda) (without |x|)",
            evidence={
                "mass_on_[-M,M]_as_printed": masses,
                "mass_with_|x|": corrected,
                "note": "the printed density lacks |x|; the code uses exp(-|x|/lambda)/(2 lambda)",
            },
        )

    return check


def gaussian_calibration_check(sigma_factor=1.0):
    """Check factory: exact delta (Balle & Wang 2018, Thm. 8) of the classic Gaussian calibration over delta.

    On a grid of epsilon in (0, 1) and delta in [1e-12, 0.1]; epsilon >= 1 (outside the theorem) is
    reported in the evidence only.
    """

    def check(ctx):
        eps_grid = np.linspace(0.01, 0.99, 50 if ctx.profile == "quick" else 500)
        delta_grid = 10.0 ** -np.arange(1, 13)
        worst = WorstCase(0.0)
        for eps in eps_grid:
            for delta in delta_grid:
                sigma = sigma_factor * gaussian_sigma(1.0, eps, delta)
                worst.update(
                    gaussian_exact_delta(eps, sigma, 1.0) / delta, {"epsilon": float(eps), "delta": float(delta)}
                )
        beyond = []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # gaussian_sigma warns outside eps < 1
            for eps in (1.0, 2.0, 5.0, 10.0):
                sigma = sigma_factor * gaussian_sigma(1.0, eps, 1e-5)
                beyond.append({"epsilon": eps, "exact_delta_over_delta": gaussian_exact_delta(eps, sigma, 1.0) / 1e-5})
        return compare_result(
            worst.value,
            1.0,
            "at_most",
            method=f"exact delta of N(q, sigma^2) at l2-sensitivity 1 (Balle & Wang 2018, Thm. 8) on "
            f"{worst.count} grid points (epsilon in [0.01, 0.99], delta = 1e-1 .. 1e-12); observed = largest "
            "exact delta / claimed delta",
            reading="sigma = Delta_2 sqrt(2 log(1.25/delta))/eps gives (eps, delta)-DP for eps in (0, 1) "
            f"(Dwork & Roth 2014, Thm. 3.22); over {ANSWER_NEIGHBOURS} in l2",
            evidence={"worst_at": worst.where, "sigma_factor": sigma_factor, "outside_claim_epsilon_ge_1": beyond},
        )

    return check
