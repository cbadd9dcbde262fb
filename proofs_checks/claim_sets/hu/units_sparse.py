"""Units check of [002 Alg. 3]'s Peeling step: rescale features, labels and ``K`` by ``k`` and ``eta0`` by ``1/k^2``.

One iteration of [002 Alg. 3] releases Peeling ([002 Alg. 4]) of ``v = w - eta0 g~`` with
``g~ = mean(x~ (<x~, w> - y~))`` on the shrunken records, at the noise parameter
``lambda = 2 K^2 eta0 (sqrt(s) + 1) / m`` [002 Alg. 3 step 6].  Its law depends on ``(v, lambda)`` alone.  In units
``k`` (features, labels and ``K`` times ``k``, ``w`` fixed) the gradient is ``k^2`` times larger; ``eta0`` has the
units of ``1 / E[x x^T]`` (Theorem 7 takes ``eta0 = eta' / gamma``, ``gamma = lambda_max(E[x x^T])``), so it is divided
by ``k^2``, and ``v`` and ``lambda`` -- hence the release's law and its privacy -- must not change.
"""

from __future__ import annotations

import numpy as np

from reference.hu.sparse import IHTPeelingStep

from ...builders import compare_result
from ...model import Claim, Mutant

__all__ = ["register"]

#: Unit factors (powers of 2: the rescaled inputs are exact in float64).
FACTORS = (8.0, 1024.0)
#: Relative tolerance: sums of products in a fixed order, rescaled by powers of 2 (exact up to the final rounding).
RTOL = 1e-12


def _records(k):
    """Six fixed records ``[x_1..x_4, y]`` in units ``k``, two of them beyond ``K = k`` (shrunken)."""
    base = np.array(
        [
            [0.3, -0.2, 0.5, 0.1, 0.7],
            [0.9, 0.4, -0.7, 0.2, -0.3],
            [-0.6, 0.8, 0.1, -0.5, 0.4],
            [0.2, -0.9, -0.4, 0.6, 2.5],
            [3.0, 0.5, 0.9, -0.1, 0.2],
            [1.0, -1.0, 1.0, 0.8, -1.5],
        ]
    )
    return base * k


def peeling_inputs(k, lambda_power=2.0):
    """``(v, lambda)`` of one Algorithm 3 iteration in units ``k`` (``eta0 = 0.5 / k^2``, ``w = (0.5, -0.5, 0, 0)``).

    ``lambda_power``: the power of ``K`` in ``lambda`` (2 as printed; another value builds a mutant).

    Examples
    --------
    >>> v1, lam1 = peeling_inputs(1.0)
    >>> v8, lam8 = peeling_inputs(8.0)
    >>> bool(np.allclose(v1, v8, rtol=1e-12, atol=0)), abs(lam8 / lam1 - 1) < 1e-12
    (True, True)
    """
    K, eta0 = k, 0.5 / k**2
    step = IHTPeelingStep(w=np.array([0.5, -0.5, 0.0, 0.0]), m=6, epsilon=0.5, delta=1e-3, K=K, s=2, eta0=eta0)
    lam = step.lam * K ** (lambda_power - 2.0)
    return step.v(_records(k)), lam


def iht_units_check(lambda_power=2.0):
    """The Peeling inputs ``(v, lambda)`` of Algorithm 3 must be the same in every unit (relative 1e-12)."""

    def check(ctx):
        v1, lam1 = peeling_inputs(1.0, lambda_power)
        rows, worst = [], 0.0
        for k in FACTORS:
            v, lam = peeling_inputs(k, lambda_power)
            change = max(float(np.max(np.abs(v - v1) / np.maximum(np.abs(v1), 1e-300))), abs(lam / lam1 - 1.0))
            rows.append({"k": k, "lambda": lam, "lambda_at_k_1": lam1, "largest_relative_change": change})
            worst = max(worst, change)
        return compare_result(
            worst,
            RTOL,
            "at_most",
            method="reference IHTPeelingStep (d = 4, s = 2, m = 6, one fixed dataset with two shrunken entries) at "
            f"k = 1 and k = {', '.join(f'{k:g}' for k in FACTORS)}: v = w - eta0 g~ and lambda; observed: the largest "
            "relative change of an entry of v or of lambda",
            reading="[002 Alg. 3 steps 2-6]: features, labels and K times k, w fixed, eta0 divided by k^2 (its units, "
            "1 / E[x x^T], from [002 Thm. 7]'s eta0 = eta'/gamma); the Peeling law depends on (v, lambda) alone"
            + ("" if lambda_power == 2.0 else f"; mutant: lambda with K^{lambda_power:g}"),
            evidence={"rows": rows, "observed_is": "largest relative change of v or lambda against k = 1"},
            evidence_kind="formula",
        )

    return check


def register(registry):
    """Add the units check of Algorithm 3."""
    registry.add_claim(
        Claim(
            "hu.units.iht-peeling",
            "[002 Alg. 3] [002 Thm. 6]",
            "One iteration of Algorithm 3 releases the same law when features, labels, K and 1/sqrt(eta0) change "
            "units together.",
            "privacy",
            iht_units_check(),
            algorithm="hu-4",
            mutants=(Mutant("lambda = 2 K eta0 (sqrt s + 1)/m (K not squared)", iht_units_check(1.0)),),
        )
    )
