"""[004 App. D.2]: the second moment ``E l^2 <= 4Y^2`` and eq. (1) on the witness of
:mod:`proofs_checks.claim_sets.arora.validation_concentration`.

Independent references: the second moment by hand (64^4 / 2^18 = 2^24 / 2^18 = 64); the binomial tails by mpmath
(50 digits, log-gamma pmf summed term by term over the tails' support beyond 1e-40).
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest

from proofs_checks.claim_sets.arora import validation_concentration as vc
from proofs_checks.model import CheckContext

CTX = CheckContext(profile="quick", seed=20261121)


def _run(claim_id, check):
    return check(CTX.for_claim(claim_id))


def test_second_moment_of_the_witness_by_hand():
    second, pop, excess = vc.witness_second_moment()
    assert second == Fraction(2**24, 2**18) == 64 and pop == Fraction(64**2, 2**18) == excess
    res = _run("arora.thm1.proof.second-moment", vc.second_moment_check())
    assert res.verdict == "refuted" and res.observed == 16.0


def test_second_moment_power():
    assert _run("x", vc.second_moment_check(0.5)).verdict == "refuted"
    # the bound x16 equals E l^2: not refuted (and never confirmed from one witness)
    assert _run("x", vc.second_moment_check(16.0)).verdict == "inconclusive"


def _mp_tail(n2, tau):
    """P[|4096 C/n2 - 4096 p| >= tau], C ~ Bin(n2, 2^-18), by mpmath at 50 digits."""
    mpmath.mp.dps = 50
    p = mpmath.mpf(1) / 2**18
    mean = n2 * p
    hi = math.ceil(n2 * (float(p) + tau / 4096))
    lo = math.floor(n2 * (float(p) - tau / 4096))

    def pmf(k):
        return mpmath.exp(
            mpmath.loggamma(n2 + 1)
            - mpmath.loggamma(k + 1)
            - mpmath.loggamma(n2 - k + 1)
            + k * mpmath.log(p)
            + (n2 - k) * mpmath.log1p(-p)
        )

    total, k = mpmath.mpf(0), hi
    while True:
        t = pmf(k)
        total += t
        if k > mean and t < mpmath.mpf(10) ** -40:
            break
        k += 1
    k = lo
    while k >= 0:
        t = pmf(k)
        total += t
        if t < mpmath.mpf(10) ** -40:
            break
        k -= 1
    return float(total)


@pytest.mark.parametrize("n2", [10**6, 10**8])
def test_eq1_tail_matches_mpmath(n2):
    prob, tau = vc.eq1_failure_probability(n2, 8193.0)
    assert prob == pytest.approx(_mp_tail(n2, tau), rel=1e-9)


def test_eq1_refuted_under_the_most_generous_reading():
    res = _run("arora.thm1.proof.eq1", vc.eq1_check())
    assert res.verdict == "refuted" and res.evidence["worst_at"]["probability"] == pytest.approx(0.25993, abs=1e-5)
    # every reading at |S2| = 1e8 exceeds beta/2
    assert min(r["probability_by_S2_size"]["100000000"] for r in res.evidence["settings"]) > 0.05


def test_eq1_power():
    assert _run("x", vc.eq1_check(0.5)).verdict == "refuted"
    assert _run("x", vc.eq1_check(4.0)).verdict == "inconclusive"


def test_eq1_limit_is_the_gaussian_tail():
    # the true standard deviation of L(w; S2) is sqrt(64/n2): tau/sd -> sqrt(4 log 240 / 64)
    z = math.sqrt(4 * math.log(240) / 64)
    limit = math.erfc(z / math.sqrt(2))
    assert limit == pytest.approx(0.558, abs=1e-3)
    assert vc.eq1_failure_probability(10**12, 8193.0)[0] == pytest.approx(limit, abs=0.02)


def test_bad_arguments_raise():
    with pytest.raises(ValueError, match="n2"):
        vc.eq1_failure_probability(0, 8193.0)
    with pytest.raises(ValueError, match="delta_b"):
        vc.eq1_failure_probability(10, -1.0)
