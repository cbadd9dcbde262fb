"""Completeness of the registered primitive laws (reference.mechanisms.primitive_laws).

Every registered law gets a case here (a test fails when one is missing): its ``log_prob`` sums (discrete) or
integrates (continuous, quadrature) to 1 on a small instance; its ``noise`` standardises seeded draws (KS test)
or, for a law without one, the draws' frequencies match ``log_prob`` (chi-square); and its accounting bound is
at least the largest per-call privacy loss over a few neighbouring inputs at the declared sensitivity.
Each instance is the ``law`` a primitive records, so the laws are tested on what the samplers consume.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import integrate, stats

from reference.mechanisms import (
    exponential_sample,
    gaussian_mechanism,
    gem_sample,
    laplace_mechanism,
    peeling,
    primitive_law,
    record_call,
    recording,
    registered_primitives,
    report_noisy_max,
)

SENSITIVITY = 0.5


def _record(draw):
    with recording() as transcript:
        draw()
    (call,) = transcript.calls
    return call


def _laplace(x, rng=0, size=None):
    return laplace_mechanism(x, SENSITIVITY, 0.7, size=size, rng=rng)


def _gaussian(x, rng=0, size=None):
    return gaussian_mechanism(x, SENSITIVITY, 0.7, 1e-3, size=size, rng=rng)


def _categorical(u, rng=0, size=None):
    return exponential_sample(u, 0.8, SENSITIVITY, size=size, rng=rng)


def _rnm(u, rng=0, size=None):
    # report_noisy_max takes a scale, not a sensitivity: its caller declares the scores' (as Boosting does)
    scale = 2.0 * SENSITIVITY / 0.8
    return record_call(
        "report_noisy_max",
        data=u,
        sensitivity=SENSITIVITY,
        norm="linf",
        privacy={"epsilon": 0.8},
        law={"scores": u, "scale": scale},
        public={},
        sample=lambda: report_noisy_max(u, scale, size=size, rng=rng),
    )


def _gem(u, rng=0, size=None):
    return gem_sample([0.0, SENSITIVITY, SENSITIVITY / 2], u, 0.8, 0.2, size=size, rng=rng)


def _peeling(v, rng=0, size=None):
    return peeling(v, 1, 0.8, 0.1, SENSITIVITY, size=size, rng=rng)


# name -> (primitive, input, neighbouring inputs at the declared sensitivity in the law's norm, finite outputs)
CASES = {
    "laplace": (_laplace, np.array([0.3]), [np.array([0.8]), np.array([-0.2])], None),
    "gaussian": (_gaussian, np.array([0.3]), [np.array([0.8]), np.array([-0.2])], None),
    "categorical": (
        _categorical,
        np.array([0.0, 1.0, 0.4]),
        [np.array([0.5, 0.5, 0.4]), np.array([-0.5, 1.5, 0.9]), np.array([0.5, 1.0, -0.1])],
        3,
    ),
    "report_noisy_max": (
        _rnm,
        np.array([0.0, 1.0, 0.4]),
        [np.array([0.5, 0.5, 0.4]), np.array([-0.5, 1.5, 0.9]), np.array([0.5, 1.0, -0.1])],
        3,
    ),
    "gem": (
        _gem,
        np.array([0.2, 1.0, 0.4]),
        [np.array([0.2, 0.5, 0.65]), np.array([0.2, 1.5, 0.15]), np.array([0.2, 0.5, 0.15])],
        3,
    ),
    "peeling": (_peeling, np.array([0.3, -0.9]), [np.array([0.8, -0.4]), np.array([-0.2, -1.4])], None),
}


def test_every_registered_law_has_a_case():
    assert set(CASES) == set(registered_primitives())


def _total_probability(name, law):
    log_prob = primitive_law(name).log_prob
    if name in ("laplace", "gaussian"):
        c = float(np.ravel(law["center"])[0])
        return sum(
            integrate.quad(lambda x: math.exp(log_prob(law, np.array([x]))), a, b, epsabs=1e-13, epsrel=1e-11)[0]
            for a, b in ((-math.inf, c), (c, math.inf))
        )
    if name == "peeling":  # s = 1 of d = 2: each selected coordinate, then its released value
        v = np.asarray(law["v"])
        total = 0.0
        for j in range(v.size):

            def density(x, j=j):
                values = np.zeros(v.size)
                values[j] = x
                return math.exp(log_prob(law, (values, np.array([j]))))

            total += sum(
                integrate.quad(density, a, b, epsabs=1e-13, epsrel=1e-11)[0]
                for a, b in ((-math.inf, v[j]), (v[j], math.inf))
            )
        return total
    k = np.shape(law.get("log_weights", law.get("scores")))[-1]
    return sum(math.exp(log_prob(law, np.int64(i))) for i in range(k))


@pytest.mark.parametrize("name", sorted(CASES))
def test_log_prob_is_a_normalised_law(name):
    draw, x, _, _ = CASES[name]
    call = _record(lambda: draw(x))
    assert call.primitive == name
    assert _total_probability(name, call.law) == pytest.approx(1.0, abs=1e-8)


@pytest.mark.parametrize("name", sorted(CASES))
def test_noise_standardises_draws_or_frequencies_match(name):
    draw, x, _, outcomes = CASES[name]
    law = primitive_law(name)
    call = _record(lambda: draw(x))
    if law.noise is not None:
        # the recorded law of one call, and many independent draws of the same call
        draws = [draw(x, rng=seed) for seed in range(1500)]
        z = np.concatenate([law.noise(call.law, out) for out in draws])
        reference = stats.laplace if name in ("laplace", "peeling") else stats.norm
        assert stats.kstest(z, reference.cdf).pvalue > 1e-3
        wrong_scale = np.concatenate(
            [law.noise(call.law, (out[0] * 1.5, out[1]) if name == "peeling" else (out - x) * 1.5 + x) for out in draws]
        )
        assert stats.kstest(wrong_scale, reference.cdf).pvalue < 1e-6  # the test sees a draw at another scale
        return
    assert outcomes is not None
    draws = np.asarray(draw(x, rng=np.random.default_rng(3), size=6000))
    observed = np.bincount(draws, minlength=outcomes)
    expected = np.array([math.exp(law.log_prob(call.law, np.int64(i))) for i in range(outcomes)]) * draws.size
    assert stats.chisquare(observed, expected).pvalue > 1e-3


def _pure_bound(law, call):
    kind, value = law.accounting(call)
    if kind == "laplace":
        return 1.0 / value
    assert kind == "pure"
    return value


def _outputs(name, x, outcomes):
    if outcomes is not None:
        return [np.int64(i) for i in range(outcomes)]
    grid = np.linspace(-6.0, 6.0, 61)
    if name == "peeling":
        return [(np.where(np.arange(x.size) == j, t, 0.0), np.array([j])) for j in range(x.size) for t in grid]
    return [np.array([t]) for t in grid]


@pytest.mark.parametrize("name", sorted(CASES))
def test_accounting_bounds_the_loss_of_every_neighbour_at_the_declared_sensitivity(name):
    draw, x, neighbours, outcomes = CASES[name]
    law = primitive_law(name)
    call = _record(lambda: draw(x))
    assert call.sensitivity == SENSITIVITY and call.norm == law.norm
    worst = 0.0
    for x_prime in neighbours:
        distance = {
            "l1": np.abs(x - x_prime).sum(),
            "l2": np.linalg.norm(x - x_prime),
            "linf": np.abs(x - x_prime).max(),
        }[law.norm]
        assert distance <= SENSITIVITY + 1e-15
        other = _record(lambda x_prime=x_prime: draw(x_prime))
        for out in _outputs(name, x, outcomes):
            loss = law.log_prob(call.law, out) - law.log_prob(other.law, out)
            if name == "gaussian":  # no pure bound: the loss of N(0, 1) against N(mu, 1) at the same output
                kind, ratio = law.accounting(call)
                mu, z = 1.0 / ratio, abs(float(out[0]) - float(x[0])) / call.law["sigma"]
                assert kind == "gaussian" and loss <= mu * z + mu * mu / 2 + 1e-12
            else:
                worst = max(worst, abs(loss))
    if name != "gaussian":
        assert worst <= _pure_bound(law, call) + 1e-9
        assert worst > 0.2 * _pure_bound(law, call)  # the instances are not vacuous
    if law.components is not None:
        parts = law.components(call)
        assert all(kind in ("pure", "laplace", "gaussian") for kind, _ in parts)


@pytest.mark.parametrize("name, scale_key", [("laplace", "scale"), ("gaussian", "sigma")])
def test_a_non_finite_centre_is_an_atom_at_itself(name, scale_key):
    # noise added to a NaN (inf) answer gives NaN (inf): that coordinate's law is a point mass there
    law = primitive_law(name)
    nan_centre = {"center": np.array([np.nan, 1.0]), scale_key: 1.0}
    finite = {"center": np.array([0.0, 1.0]), scale_key: 1.0}
    one_coordinate = {"center": np.array([1.0]), scale_key: 1.0}
    assert law.log_prob(nan_centre, np.array([0.3, 1.2])) == -math.inf  # a finite release is impossible
    assert law.log_prob(nan_centre, np.array([np.nan, 1.2])) == law.log_prob(one_coordinate, np.array([1.2]))
    assert law.log_prob({"center": np.inf, scale_key: 1.0}, np.inf) == 0.0
    assert law.log_prob(finite, np.array([np.nan, 1.2])) == -math.inf  # NaN is impossible around a finite centre
    assert law.log_prob(finite, np.array([0.3, 1.2])) > -math.inf
    assert np.array_equal(law.noise(nan_centre, np.array([np.nan, 1.5])), [0.5])  # the atom carries no noise


def test_conformance_refutes_values_a_finite_law_cannot_give():
    import dataclasses

    from proofs_checks.audit.gray_box.conformance import conformance_check

    rng = np.random.default_rng(7)
    calls = [_record(lambda: laplace_mechanism(np.array([0.0]), SENSITIVITY, 1.0, rng=rng)) for _ in range(50)]
    assert conformance_check(calls, confidence=0.95, rng=rng).verdict == "no violation found"
    broken = [*calls, dataclasses.replace(calls[0], output=np.array([np.inf]))]
    check = conformance_check(broken, confidence=0.95, rng=rng)
    assert check.verdict == "refuted" and "1 of 51 standardised values are not finite" in check.summary
    atom = dataclasses.replace(calls[0], law={**calls[0].law, "center": np.array([np.nan])}, output=np.array([np.nan]))
    assert conformance_check([atom], confidence=0.95, rng=rng).verdict == "vacuous"  # nothing to test
