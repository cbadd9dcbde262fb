"""Reach of audit.arora-boosting.calibrated x1.25: a violation, caught at full.

The calibrated Boosting (losses clipped to [0, Delta], Laplace scale 2 Delta/(|S_(m+1)| eps)) built for 1.25 eps
(scale x0.8).  A replaced validation record moves each model's score by at most Delta/c, either way
(non-monotone scores), so report-noisy-max given the models is 1.25 eps-DP and no better in general: on
:func:`boosting_split_pair` the models sit near -2 (the lone one) and +2, and the flipped record shifts their
score difference by 48/c of the calibration's 52/c.  The lone model's win then has likelihood ratio near
exp(1.154 eps) (Laplace tail), on an event of probability about 0.04.

Provenance of the numbers: deterministic-model limit by scipy ``quad`` (relative error ~1e-10,
:func:`boosting_split_index_law`); the output law by Riemann quadrature (:func:`boosting_split_law`) at three
resolutions (epsilon 1.1595, 1.1586, 1.1589) and against runs of the implementation; the full-profile audits
measured with ``CheckContext(profile="full", seed=s)`` (slow tests).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from proofs_checks.claim_sets.arora.audit_design import (
    boosting_split_index_law,
    boosting_split_law,
    boosting_split_pair,
    law_epsilon,
    law_oracle,
)
from tests._audit_records import audit_record

BC = "audit.arora-boosting.calibrated"
DELTA = 1e-5


@pytest.fixture(scope="module")
def registry():
    from proofs_checks.registry import default_registry

    return default_registry()


def _two_outcome_epsilon(p, q, delta=DELTA):
    """Epsilon at ``delta`` of the laws (p, 1 - p) and (q, 1 - q), both directions (bisection, 200 steps)."""

    def excess(e, a, b):
        return max(a - math.exp(e) * b, 0.0) + max((1 - a) - math.exp(e) * (1 - b), 0.0)

    best = 0.0
    for a, b in ((p, q), (q, p)):
        lo, hi = 0.0, 10.0
        if excess(lo, a, b) <= delta:
            continue
        for _ in range(200):
            mid = 0.5 * (lo + hi)
            lo, hi = (mid, hi) if excess(mid, a, b) > delta else (lo, mid)
        best = max(best, hi)
    return best


def _limit(bad, multiplier, chunk=1.0):
    """(P_D(lone wins), P_D'(lone wins)) with deterministic models at -2 and +2 (chunk -> infinity).

    Scores in Laplace scales b = 2 Delta/(c m eps) = 52/(c m) (eps = 1): the lone model is 24 (1 - bad)/c ahead
    on D and 24 (1 + bad)/c behind on D' (its losses on (1, 3) and (1, -3) are 25 and 1, the others' 1 and 25).
    """
    b = 52.0 / (chunk * multiplier)
    return (boosting_split_index_law(24.0 * (1 - bad) / b, 0.0), boosting_split_index_law(-24.0 * (1 + bad) / b, 0.0))


def test_the_split_pair_is_the_one_audited_at_full():
    D, Dp, _ = boosting_split_pair(4096, 3)
    full = audit_record(BC).profile_pairs["full"]
    assert len(full) == 3
    for (a, ap), (b, bp) in zip(full[:2], audit_record(BC).pairs):
        assert (a == b).all() and (ap == bp).all()
    E, Ep = full[2]
    assert (E == D).all() and (Ep == Dp).all() and (D != Dp).sum() == 1
    assert "quick" not in audit_record(BC).profile_pairs  # quick keeps its two cheap pairs


def test_deterministic_limit_loses_1_15_eps_at_x1_25_and_stays_within_at_x1():
    # the ratio of the lone model's win tends to exp(48/52 * m eps): 1.1538 eps at x1.25, 0.923 at x1
    p, q = _limit(3, 1.25)
    e3 = _two_outcome_epsilon(p, q)
    best = max(_two_outcome_epsilon(*_limit(k, 1.25)) for k in (3, 4, 5, 6))
    assert 1.148 < e3 < 1.149 and 1.152 < best < 48 / 52 * 1.25
    assert _two_outcome_epsilon(*_limit(3, 1.0)) < 48 / 52 < 1.0
    text = audit_record(BC).power
    assert f"epsilon {best:.3f} at delta" in text
    d1 = max(max(p - math.e * q, 0.0) for p, q in (_limit(k / 4, 1.25) for k in range(40)))  # gaps on a 1/4 grid
    assert 0.0235 < d1 < 0.0237 and f"largest delta(1), {d1:.4f}, with one (1, 3) record" in text
    # the index law's quadrature: P(lone wins) at equal scores is 1/m
    assert abs(boosting_split_index_law(0.0, 0.0) - 0.25) < 1e-9


def test_split_law_coarse_resolution_already_violates():
    # a coarse grid (2001 x 401 x 4001, 3 s) of the audited pair: epsilon 1.1595 (fine: 1.1589), delta(1) 0.0068
    D, Dp, _ = boosting_split_pair(4096, 3)
    w, p, q, info = boosting_split_law(D, Dp, 1.25, grid=2001, lgrid=401, tgrid=4001)
    eps = law_epsilon(p, q, DELTA)
    d1 = max(np.maximum(p - math.e * q, 0).sum(), np.maximum(q - math.e * p, 0).sum())
    assert 1.155 < eps < 1.165 and 0.0065 < d1 < 0.0072
    assert abs(info["s"] - 0.473) < 1e-3 and info["w_hat"] == [-2.0, 2.0]


def test_split_pair_and_law_reject_bad_input():
    with pytest.raises(ValueError, match="bad"):
        boosting_split_pair(4, 4)
    with pytest.raises(ValueError, match="chunk"):
        boosting_split_pair(1, 0)
    D, Dp, _ = boosting_split_pair(8, 1)
    with pytest.raises(ValueError, match="share their m training chunks"):
        boosting_split_law(D, np.roll(Dp, 1, axis=0), 1.25)
    with pytest.raises(ValueError, match="gap"):
        boosting_split_index_law(float("nan"), 0.0)
    from proofs_checks.audit_claims import privacy_audit_check

    with pytest.raises(ValueError, match="profile_pairs names profiles"):
        privacy_audit_check("arora-boosting", "calibrated", profile_pairs={"fast": []})


def test_x1_25_mutant_is_neither_marked_nor_quick_cheap(registry):
    ms = {m.factor: m for m in registry.claim(BC).mutants}
    assert not ms[1.25].out_of_reach and not ms[1.25].not_a_violation  # a violation, caught at full
    assert "x1.25 at full only" in audit_record(BC).power


@pytest.mark.slow
def test_split_law_fine_numbers_and_oracle():
    D, Dp, _ = boosting_split_pair(4096, 3)
    w, p, q, _ = boosting_split_law(D, Dp, 1.25)
    eps = law_epsilon(p, q, DELTA)
    d1 = max(np.maximum(p - math.e * q, 0).sum(), np.maximum(q - math.e * p, 0).sum())
    o2, o6 = law_oracle(p, q, 200_000, 0.95, DELTA), law_oracle(p, q, 10**6, 0.95, DELTA)
    _, p1, q1, _ = boosting_split_law(D, Dp, 1.0)
    e1 = law_epsilon(p1, q1, DELTA)
    text = audit_record(BC).power
    for value in (
        f"epsilon {eps:.3f} at",
        f"delta(1) = {d1:.4f}",
        f"oracle {o2:.3f} at the quick",
        f"{o6:.3f} at 10^6",
        f"x1: {e1:.3f}",
        f"P(w < -2) = {p[w < -2].sum():.4f} on D",
        f"{q[w < -2].sum():.4f} on D'",
    ):
        assert value in text, value
    assert eps > 1.15 and d1 > 600 * DELTA and e1 < 1.0 and o6 > 1.1


@pytest.mark.slow
def test_split_law_matches_the_implementation():
    # 200000 runs of reference.arora.model_selection.boosting per dataset (seeded) against the quadrature:
    # P(w < t) within 4 standard errors + 1e-3 at five points
    from reference.arora.learners import OutputPerturbation
    from reference.arora.model_selection import BoostingMechanism

    D, Dp, _ = boosting_split_pair(4096, 3)
    w, p, q, _ = boosting_split_law(D, Dp, 1.25)
    mech = BoostingMechanism(
        OutputPerturbation("squared", 1.0, 3.0), 2.0, 4, 1.25, DELTA, None, "calibrated", loss_clip=26.0
    )
    rng = np.random.default_rng(20261123)
    for data, law in ((D, p), (Dp, q)):
        x = np.concatenate([mech.sample(data, 50_000, rng)[:, 0] for _ in range(4)])
        for t in (-3.0, -2.0, -1.0, 0.0, 2.0):
            e = law[w < t].sum()
            assert abs(np.mean(x < t) - e) < 4 * math.sqrt(e * (1 - e) / x.size) + 1e-3, t


@pytest.mark.slow
@pytest.mark.parametrize("seed", [20261121, 1, 2])
def test_full_profile_refutes_x1_25(registry, seed):
    # measured: 1.067, 1.102, 1.093 (about 75 s each)
    from proofs_checks.model import CheckContext

    (x125,) = [m for m in registry.claim(BC).mutants if m.factor == 1.25]
    res = x125.check(CheckContext(profile="full", seed=seed).for_claim(BC))
    assert res.verdict == "refuted" and res.observed > 1.0 and res.evidence["designed_pairs"]["pairs"] == 3


@pytest.mark.slow
def test_full_profile_base_stays_inconclusive(registry):
    # measured: x1 0.833 on run seed 20261121 with the three pairs
    from proofs_checks.model import CheckContext

    res = registry.claim(BC).check(CheckContext(profile="full", seed=20261121).for_claim(BC))
    assert res.verdict == "inconclusive"
