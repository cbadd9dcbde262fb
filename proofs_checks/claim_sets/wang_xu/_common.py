"""What several Wang & Xu (000) checks share: the small exact instances, their datasets, the rate setups.

The exact checks (privacy, sensitivity) run on small instances ``(dim, zeta, iota, n)`` on which the
whole output law of the exponential mechanism over the zeta-net is computed; their datasets are
built to favour one net point strongly, plus heavy-tailed and extreme ones.  The utility and rate
checks share the models and parameters of :func:`setup_for` (d = 1, Theorems 1-2).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...adversarial import candidate_records
from ...model import Claim
from ...rates.trials_wang_xu import THEOREM1_MODEL, THEOREM2_MODEL, WangXuRateSetup

__all__ = [
    "THETAS_QUICK",
    "ETA",
    "THETA2",
    "NEIGHBOURS",
    "ADD_REMOVE",
    "RELATIONS",
    "VARIANTS",
    "exact_instances",
    "fitting_records",
    "datasets",
    "replacement_candidates",
    "setup_for",
    "stated_exponent",
    "add_variant_claims",
]

#: The thetas of eq. (16) the psi and sensitivity checks sweep (theta in (1, 2)).
THETAS_QUICK = (1.01, 1.1, 1.5, 1.9, 1.999)
#: Failure probability of the rate and utility checks; the theta of the Theorem 2 checks.
ETA = 0.1
THETA2 = 1.5
#: The neighbouring relation of 000's privacy and sensitivity claims: [000 Def. 1] (Sec. III, first
#: definition) calls D, D' neighbours "if they differ by only one entry", and the sensitivity of
#: [000 Def. 2] and of the proofs of Theorems 1-2 is taken over datasets of the same size n.
NEIGHBOURS = "replace-one neighbours: datasets of the same size n that differ by one entry [000 Def. 1]"
#: The other relation the words allow, checked beside it (the paper does not say which it means).
ADD_REMOVE = (
    "add/remove neighbours: D' is D with one record added or removed (iota, zeta and the net "
    "fixed inputs, as in the Input line of [000 Alg. 1] / [000 Alg. 2])"
)
RELATIONS = {"replace-one": NEIGHBOURS, "add-remove": ADD_REMOVE}
#: The variants of Algorithms 1-2 (``k`` of the log-weight ``-k eps S / log theta``: 1, 1/4, 1/2).
VARIANTS = ("printed", "standard", "calibrated")


def exact_instances(profile):
    """(dim, zeta, iota, n) of the small instances on which the output law is computed exactly."""
    quick = [(1, 0.25, 1.0, 6), (2, 0.5, 0.5, 5), (1, 0.5, 1e-3, 4)]
    if profile == "quick":
        return quick
    return quick + [(2, 0.3, 2.0, 8), (3, 0.8, 1.0, 6), (1, 0.1, 10.0, 10)]


def fitting_records(points, magnitudes, rng):
    """Records ``[x, <x, w>]`` that fit net point ``w`` exactly, for random ``x`` of each magnitude."""
    d = points.shape[1]
    out = []
    for m in magnitudes:
        u = rng.standard_normal((points.shape[0], d))
        u /= np.linalg.norm(u, axis=1, keepdims=True)
        x = m * u
        out.append(np.column_stack([x, np.einsum("ij,ij->i", x, points)]))
    return np.vstack(out)


def replacement_candidates(points, rng):
    """The records a row is replaced by: extreme and heavy-tailed records, and records fitting each net point."""
    return np.vstack([candidate_records(points.shape[1] + 1, rng), fitting_records(points, [1.0, 1e4], rng)])


def datasets(points, n, rng):
    """Datasets on which one output is strongly favoured (three), a heavy-tailed one and an extreme one."""
    d = points.shape[1]
    K = points.shape[0]
    out = []
    for _ in range(3):
        a, b = rng.choice(K, size=2, replace=False)
        fit_a = fitting_records(points[[a] * (n - 1)], [1e4], rng)
        fit_b = fitting_records(points[[b]], [1e4], rng)
        out.append(np.vstack([fit_a, fit_b]))
    w_star = points[rng.integers(K)]
    x = rng.standard_t(1.5, size=(n, d))
    out.append(np.column_stack([x, x @ w_star + rng.standard_t(1.5, size=n)]))
    pool = candidate_records(d + 1, rng)
    out.append(pool[rng.choice(pool.shape[0], size=n, replace=False)])
    return out


def setup_for(algorithm: int, variant: str = "printed", **kw: Any) -> WangXuRateSetup:
    """The data and parameters of the d = 1 checks of Theorem 1 (algorithm 1) or 2 (algorithm 2).

    Theorem 1: Assumption 1, theta = 2; Theorem 2: Assumption 3, theta = :data:`THETA2`; both at
    failure probability :data:`ETA`.  Public as ``proofs_checks.claim_sets.wang_xu.setup_for``: the
    instances the claims of 000 are checked on.

    Parameters
    ----------
    algorithm : {1, 2}
        [000 Alg. 1] (Theorem 1) or [000 Alg. 2] (Theorem 2); any value but 1 is Algorithm 2.
    variant : {"printed", "standard", "calibrated"}
        The exponent of the exponential mechanism.
    **kw
        Further fields of :class:`~proofs_checks.rates.trials_wang_xu.WangXuRateSetup` (``broken=`` for
        the tests).

    Returns
    -------
    WangXuRateSetup
        The data model, theta, assumption, variant and failure probability.

    Examples
    --------
    >>> s = setup_for(2, "standard")
    >>> s.algorithm, s.theta == THETA2, s.assumption, s.variant, s.eta == ETA
    (2, True, 3, 'standard', True)
    """
    if algorithm == 1:
        return WangXuRateSetup(
            algorithm=1, model=THEOREM1_MODEL, theta=2.0, assumption=1, variant=variant, eta=ETA, **kw
        )
    return WangXuRateSetup(
        algorithm=2, model=THEOREM2_MODEL, theta=THETA2, assumption=3, variant=variant, eta=ETA, **kw
    )


def stated_exponent(algorithm: int, theta: float = THETA2) -> float:
    """``a`` of the stated rate ``x^(-a)``: 1/2 [000 eq. (7)], ``(theta - 1)/theta`` [000 eq. (18)].

    Parameters
    ----------
    algorithm : {1, 2}
        [000 Alg. 1] or [000 Alg. 2].
    theta : float
        The truncation exponent of Algorithm 2, in (1, 2].

    Returns
    -------
    float
        The exponent of ``n eps`` in the stated excess-risk rate.

    Examples
    --------
    >>> stated_exponent(1), stated_exponent(2, theta=1.5)
    (0.5, 0.3333333333333333)
    """
    return 0.5 if algorithm == 1 else (theta - 1) / theta


def add_variant_claims(registry, id_format, source_of, statement_of, kind, factory, variants=("printed", "standard")):
    """Register one claim per algorithm (1, 2) and variant ("printed", "standard").

    ``id_format`` is formatted with ``alg`` and ``variant``; ``source_of(alg)``,
    ``statement_of(alg)`` give the source tag and statement; ``factory(alg, variant)`` the check.
    """
    for alg in (1, 2):
        for variant in variants:
            registry.add_claim(
                Claim(
                    id_format.format(alg=alg, variant=variant),
                    source_of(alg),
                    statement_of(alg),
                    kind,
                    factory(alg, variant),
                    algorithm=f"wang-xu-{alg}",
                    variant=variant,
                )
            )


def coarse_pass(K, step):
    """First pass of the exact branch and bound over ``K`` ordered points (concentration maxima, Lemma 9's argmin).

    Returns ``(idx, seg)``: every ``step``-th index and the last (the points evaluated first), and for each of the
    ``K`` points the segment ``[idx[seg], idx[seg + 1]]`` holding it, from whose two ends a Lipschitz bound of the
    point's value is taken.

    >>> idx, seg = coarse_pass(7, 3)
    >>> idx.tolist(), seg.tolist()
    ([0, 3, 6], [0, 0, 0, 1, 1, 1, 1])
    """
    idx = np.arange(0, K, step)
    if idx[-1] != K - 1:
        idx = np.append(idx, K - 1)
    seg = np.minimum(np.searchsorted(idx, np.arange(K), side="right") - 1, max(idx.size - 2, 0))
    return idx, seg
