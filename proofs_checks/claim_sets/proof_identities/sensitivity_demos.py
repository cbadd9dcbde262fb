"""Demonstrations of the generic sensitivity search (:mod:`proofs_checks.formulas.sensitivity`) on
functions whose sensitivity is known: the clipped mean, and the robust mean [002 eq. (4)] whose
sensitivity ``4 sqrt(2) s / (3n)`` the proof of [002 Thm. 1] uses.
"""

from __future__ import annotations

import math

import numpy as np

from reference.hu import catoni

from ...formulas import sensitivity

__all__ = ["clipped_mean"]


def clipped_mean(data, bound=1.0):
    """Coordinate-wise mean of records clipped to ``[-bound, bound]`` (float64, as code computes it)."""
    return np.mean(np.clip(data, -bound, bound), axis=0)


def _clipped_mean_base(rng, n=50, width=3, bound=1.0):
    base = rng.standard_t(1.5, size=(n, width))
    base[0] = -10.0 * bound  # one record clipped in every coordinate: the stated bound is attained
    return base


def _clipped_mean_cases(bound=1.0, n=50, width=3):
    """Sup, l1 and l2 cases of the clipped mean: stated sensitivities 2C/n, 2Cd/n, 2C sqrt(d)/n."""
    f = lambda d: clipped_mean(d, bound)  # noqa: E731
    make = lambda rng: _clipped_mean_base(rng, n, width, bound)  # noqa: E731
    case = sensitivity.SensitivityCase
    return [
        case("sup", f, make, 2 * bound / n, "sup"),
        case("l1", f, make, 2 * bound * width / n, "l1"),
        case("l2", f, make, 2 * bound * math.sqrt(width) / n, "l2"),
    ]


def _robust_mean_cases(n=40, width=3):
    """The robust mean x-hat(s, beta) of [002 eq. (4)] at three (s, beta): stated 4 sqrt(2) s / (3n), sup norm."""
    cases = []
    for s, beta in ((1.0, 1.0), (0.5, 2.0), (10.0, 0.1)):
        # vectorised over a stack of neighbouring datasets (k, n, width): the mean runs along axis -2
        f = lambda d, s=s, beta=beta: catoni.robust_mean(d, s, beta, axis=-2)  # noqa: E731
        make = lambda rng, n=n, width=width: rng.standard_t(1.5, size=(n, width))  # noqa: E731
        cases.append(
            sensitivity.SensitivityCase(
                f"s={s},beta={beta}", f, make, 4 * math.sqrt(2) * s / (3 * n), "sup", vectorized=True
            )
        )
    return cases
