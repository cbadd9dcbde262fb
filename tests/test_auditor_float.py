"""Floating-point attacks: a naive float Laplace (Mironov 2012) is refuted at 2*10^4 calls, float-safe mechanisms not.

The mechanisms release ``q + noise`` with ``q(D) = 0`` and ``q(D') = 1`` (a clipped count), scale 1, claim eps = 1.
In real arithmetic they are 1-DP; computed in float64 the set of outputs depends on ``q``: the event "reachable
from centre 0, not from centre 1" has probability about 0.62 under D and exactly 0 under D'.
"""

import numpy as np
import pytest
from scipy import special

from proofs_checks.audit.api import audit
from proofs_checks.audit.classifiers import attack_names
from proofs_checks.audit.float_attacks import (
    SAMPLERS,
    Reachability,
    fit_sampler,
    float_fits,
    lowest_set_bit,
    significant_bits,
)

D = np.array([[0.0], [0.0], [0.0]])
D_PRIME = np.array([[1.0], [0.0], [0.0]])


def _count(data):
    return float(np.clip(np.asarray(data, dtype=float)[:, 0], 0, 1).sum())


class TextbookLaplace:
    """``q - b sgn(v) log(1 - 2|v|)``, ``v = U - 1/2``: the inverse CDF as textbooks write it."""

    record_width = 1

    def sample(self, data, size, rng):
        v = rng.random(size) - 0.5
        return (_count(data) + -1.0 * np.sign(v) * np.log(1.0 - 2.0 * np.abs(v)))[:, None]


class NumpyLaplace:
    """numpy's own ``Generator.laplace(q, 1)``."""

    record_width = 1

    def sample(self, data, size, rng):
        return rng.laplace(_count(data), 1.0, size)[:, None]


class GaussianInverseCdf:
    """``q + ndtri(U)``: (1, 0.127)-DP in real arithmetic (Balle & Wang), claim (1, 0.13)."""

    record_width = 1

    def sample(self, data, size, rng):
        return (_count(data) + special.ndtri(rng.random(size)))[:, None]


class RoundedLaplace:
    """numpy's Laplace rounded to multiples of 2^-10: the float artefacts below the grid are erased (control)."""

    record_width = 1

    def sample(self, data, size, rng):
        return (np.round(rng.laplace(_count(data), 1.0, size) * 1024) / 1024)[:, None]


class Geometric:
    """Two-sided geometric count, exactly 1-DP (integer outputs; control)."""

    record_width = 1

    def sample(self, data, size, rng):
        a = np.exp(-1.0)
        return (_count(data) + rng.geometric(1 - a, size) - rng.geometric(1 - a, size)).astype(float)[:, None]


def _audit(mech, attack, seed=0, delta=0.0, samples=20_000):
    return audit(mech, epsilon=1.0, delta=delta, samples=samples, seed=seed, pairs=[(D, D_PRIME)], attack=attack)


def test_naive_float_laplace_passes_auto_and_is_refuted_with_the_float_attack():
    # measured (seed 0, 2*10^4 calls): auto 0.904 (not refuted); auto-float 7.118, 4633 of 7500 outputs of D in
    # the event and 0 of D'
    assert _audit(TextbookLaplace(), "auto").verdict == "not refuted"
    res = _audit(TextbookLaplace(), "auto-float")
    assert res.verdict == "refuted" and res.epsilon_lower > 5
    assert res.details["statistic"].startswith("float reachability (textbook-laplace")
    assert res.details["counts"]["in_S_other"] == 0 and res.details["counts"]["in_S_numerator"] > 4000


def test_numpy_laplace_is_refuted_too():
    # a finding about numpy's sampler, not about the auditor: Generator.laplace(q, 1) for q = 0 and 1 reaches
    # different float64 sets (measured 7.158, 4819 of 7500 against 0)
    res = _audit(NumpyLaplace(), "float")
    assert res.verdict == "refuted" and res.epsilon_lower > 5
    assert res.details["statistic"].startswith("float reachability (numpy-laplace")


def test_gaussian_inverse_cdf_is_refuted_at_its_real_delta():
    res = _audit(GaussianInverseCdf(), "auto-float", delta=0.13)
    assert res.verdict == "refuted" and res.details["counts"]["in_S_other"] == 0


@pytest.mark.parametrize("mech", [RoundedLaplace(), Geometric()])
@pytest.mark.parametrize("seed", [0, 1])
def test_float_safe_mechanisms_are_not_refuted(mech, seed):
    assert _audit(mech, "auto-float", seed=seed).verdict == "not refuted"


@pytest.mark.parametrize("name", sorted(SAMPLERS))
def test_every_output_of_a_sampler_is_reachable_from_its_centre_only(name):
    sampler = SAMPLERS[name]
    k = np.concatenate([np.arange(1, 3000), 2**52 + np.arange(-1500, 1500), 2**53 - np.arange(1, 3000)])
    u = k * 2.0**-53
    for q in (0.0, 1.0, 7.0):
        x = sampler.forward(q, 1.0, u, lambda t: t)
        assert sampler.reachable(x, q, 1.0).all()
        # the tails (small k, k near 2^53) are sparse: most of them unreachable from the other centre
        assert sampler.reachable(x[:3000], q + 1.0, 1.0).mean() < 0.5


def test_reachability_allows_one_ulp_of_the_logarithm():
    # numpy's SIMD log and the C library's differ by one ulp on some arguments; either is reachable
    u = np.arange(1, 2000) * 2.0**-53
    x = SAMPLERS["numpy-laplace"].forward(0.0, 1.0, u, lambda t: np.nextafter(t, np.inf))
    assert SAMPLERS["numpy-laplace"].reachable(x, 0.0, 1.0).all()
    x2 = SAMPLERS["numpy-laplace"].forward(0.0, 1.0, u, lambda t: np.nextafter(np.nextafter(t, np.inf), np.inf))
    assert not SAMPLERS["numpy-laplace"].reachable(x2, 0.0, 1.0).all()


def test_fit_sampler_finds_round_centres_and_scales():
    rng = np.random.default_rng(3)
    assert fit_sampler(5.0 + rng.laplace(0.0, 1 / 0.3, 400), SAMPLERS["numpy-laplace"]) == (5.0, 1 / 0.3)
    # a centre that is no round number: no model, no reachability statistic
    assert fit_sampler(0.123456 + rng.laplace(0.0, 1.0, 400), SAMPLERS["numpy-laplace"]) is None
    stats = [s for fit in float_fits(rng.laplace(0, 1, (300, 1)), 1 + rng.laplace(0, 1, (300, 1))) for s in fit()]
    assert isinstance(stats[-1], Reachability) and stats[-1].fit_a == (0.0, 1.0) and stats[-1].fit_b == (1.0, 1.0)
    assert float_fits(np.zeros((5, 2)), np.zeros((5, 2))) == []


def test_lattice_statistics():
    x = np.array([1.0, 0.75, 2.0**-60, 3.0 * 2.0**-1074, 0.0, np.inf])
    assert lowest_set_bit(x).tolist() == [0.0, -2.0, -60.0, -1074.0, 0.0, 0.0]
    assert significant_bits(x).tolist() == [1.0, 2.0, 1.0, 2.0, 0.0, 0.0]
    # fl(1 + n) is a multiple of 2^-53; n alone is not
    n = np.random.default_rng(0).laplace(0, 1, 1000)
    assert (lowest_set_bit(1.0 + n) >= -53).all() and (lowest_set_bit(n) < -53).mean() > 0.2


def test_the_float_attacks_are_registered_but_not_in_auto():
    from proofs_checks.audit.attacks import registered_attacks

    assert {"float", "auto-float"} <= set(attack_names())
    assert not any(e.in_auto for e in registered_attacks() if e.name in ("float", "auto-float"))
