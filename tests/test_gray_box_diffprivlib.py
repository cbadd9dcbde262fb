"""diffprivlib audited unchanged: its mechanisms recorded by run-time wrapping (the ``thirdparty`` extra).

What these tests prove:

* the wrapping is complete and faithful: every wrapped method (``WRAPPED_METHODS``) makes one event whose law is
  registered, whose scale is diffprivlib's own and whose accounting gives the mechanism's epsilon; diffprivlib's
  releases are bit for bit those of an unwrapped run; the methods and the registry are restored on exit, also
  when the block raises;
* the two laws added for diffprivlib are laws (they sum or integrate to 1) and are the ones its samplers draw from;
* a data-dependent public parameter of a real model is flagged by ``control_flow`` with the diverging value
  (``tools.mean`` and ``GaussianNB`` without ``bounds``: diffprivlib reads them from the private data and warns);
* used correctly (bounds given, records finite), the mechanisms' declared sensitivities hold on searched
  adversarial neighbours and the audit finds no violation; a NaN record, which diffprivlib's clipping passes
  through, is found by the search and refutes the declared sensitivity.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

pytest.importorskip(
    "diffprivlib", reason='diffprivlib is an optional extra: pip install -e ".[thirdparty]" (.ci/run installs it)'
)

from diffprivlib import mechanisms, tools  # noqa: E402  (after the skip)
from diffprivlib.accountant import BudgetAccountant  # noqa: E402
from diffprivlib.models import GaussianNB  # noqa: E402
from diffprivlib.utils import PrivacyLeakWarning  # noqa: E402
from scipy import integrate, stats  # noqa: E402

from proofs_checks.audit import gray_box_audit, search_neighbours  # noqa: E402
from proofs_checks.audit.gray_box.composition import call_mechanisms  # noqa: E402
from proofs_checks.audit.gray_box.third_party.diffprivlib import (  # noqa: E402
    BOUNDED_LAPLACE,
    DIFFPRIVLIB_NOISE_LAWS,
    GEOMETRIC,
    WRAPPED_METHODS,
    bounded_laplace_log_prob,
    diffprivlib_primitives,
    geometric_log_prob,
    random_state_of,
)
from reference.mechanisms.recorder import primitive_law, recording, registered_primitives  # noqa: E402

#: One mechanism per wrapped class (and per subclass recorded through it), with the value it randomises: a new
#: entry of WRAPPED_METHODS without one here fails test_every_wrapped_method_records_its_law.
MECHANISMS = {
    "Laplace": [
        (lambda rs: mechanisms.Laplace(epsilon=0.7, sensitivity=2.0, random_state=rs), 1.5),
        (lambda rs: mechanisms.Laplace(epsilon=0.7, delta=0.1, sensitivity=2.0, random_state=rs), 1.5),
        (lambda rs: mechanisms.LaplaceTruncated(epsilon=0.5, sensitivity=1.0, lower=0, upper=3, random_state=rs), 1.0),
        (lambda rs: mechanisms.LaplaceFolded(epsilon=0.5, sensitivity=1.0, lower=0, upper=3, random_state=rs), 1.0),
    ],
    "LaplaceBoundedDomain": [
        (
            lambda rs: mechanisms.LaplaceBoundedDomain(epsilon=0.8, sensitivity=1.0, lower=0, upper=4, random_state=rs),
            3.0,
        ),
    ],
    "Gaussian": [
        (lambda rs: mechanisms.Gaussian(epsilon=0.5, delta=1e-5, sensitivity=1.0, random_state=rs), 2.0),
        (lambda rs: mechanisms.GaussianAnalytic(epsilon=2.0, delta=1e-5, sensitivity=1.0, random_state=rs), 2.0),
    ],
    "Geometric": [
        (lambda rs: mechanisms.Geometric(epsilon=0.5, sensitivity=2, random_state=rs), 7),
        (lambda rs: mechanisms.GeometricTruncated(epsilon=0.5, sensitivity=1, lower=0, upper=9, random_state=rs), 7),
    ],
}


def _gaussian_delta(noise_multiplier, epsilon):
    """delta(epsilon) of the Gaussian mechanism of noise ``noise_multiplier`` times the sensitivity (Balle and
    Wang 2018, Thm. 8: exact)."""
    m = noise_multiplier
    return stats.norm.cdf(-epsilon * m + 0.5 / m) - math.exp(epsilon) * stats.norm.cdf(-epsilon * m - 0.5 / m)


def test_every_wrapped_method_records_its_law():
    assert {class_name for class_name, _, _ in WRAPPED_METHODS} == set(MECHANISMS)
    with diffprivlib_primitives():
        for class_name, _, name in WRAPPED_METHODS:
            for make, value in MECHANISMS[class_name]:
                mechanism = make(np.random.RandomState(0))
                with recording() as transcript:
                    released = mechanism.randomise(value)
                (call,) = transcript.calls
                assert call.primitive == name and name in registered_primitives()
                assert call.public["mechanism"] == type(mechanism).__name__
                assert call.sensitivity == mechanism.sensitivity and float(call.data) == value
                assert call.privacy == {"epsilon": mechanism.epsilon, "delta": mechanism.delta}
                law = primitive_law(name)
                assert math.isfinite(law.log_prob(call.law, call.output))
                ((kind, parameter),) = call_mechanisms(call)
                if kind == "gaussian":  # both calibrations meet the mechanism's (epsilon, delta)
                    assert _gaussian_delta(parameter, mechanism.epsilon) <= mechanism.delta * (1 + 1e-6)
                else:  # diffprivlib's Laplace spends epsilon - log(1 - delta) of pure budget
                    epsilon = 1.0 / parameter if kind == "laplace" else parameter
                    slack = -math.log(1.0 - mechanism.delta) if kind == "laplace" else 0.0
                    assert epsilon == pytest.approx(mechanism.epsilon + slack, rel=1e-6)
                if hasattr(mechanism, "lower") and class_name != "Laplace" and class_name != "Geometric":
                    assert mechanism.lower <= released <= mechanism.upper


def test_scales_are_diffprivlibs_own():
    # private: _scale: diffprivlib's own attribute, the scale its sampler reads, which the recorded law must equal
    with diffprivlib_primitives(), recording() as transcript:
        mechanisms.Laplace(epsilon=0.5, delta=0.2, sensitivity=3.0).randomise(0.0)
        gaussian = mechanisms.GaussianAnalytic(epsilon=1.0, delta=1e-6, sensitivity=2.0)
        gaussian.randomise(0.0)
        bounded = mechanisms.LaplaceBoundedDomain(epsilon=1.0, sensitivity=1.0, lower=0.0, upper=2.0)
        bounded.randomise(9.0)
        mechanisms.Geometric(epsilon=0.5, sensitivity=2).randomise(4)
    laplace, normal, bounded_call, geometric = transcript.calls
    assert laplace.law["scale"] == 3.0 / (0.5 - np.log(0.8))
    assert normal.law["sigma"] == gaussian._scale
    assert bounded_call.law == {"center": 2.0, "scale": bounded._scale, "lower": 0.0, "upper": 2.0}
    assert geometric.law == {"center": 4.0, "scale": -0.25}


def test_releases_are_unchanged_by_the_wrapping():
    data = np.random.default_rng(1).uniform(0, 1, (40, 2))
    labels = np.arange(40) % 2

    def releases():
        mean = tools.mean(data[:, 0], epsilon=1.0, bounds=(0, 1), random_state=5, accountant=BudgetAccountant())
        variance = tools.var(data[:, 1], epsilon=1.0, bounds=(0, 1), random_state=5, accountant=BudgetAccountant())
        model = GaussianNB(epsilon=1.0, bounds=(0, 1), random_state=5, accountant=BudgetAccountant())
        model.fit(data, labels)
        return np.concatenate([[mean, variance], model.theta_.ravel(), model.var_.ravel()])

    plain = releases()
    with diffprivlib_primitives():
        wrapped = releases()
        with recording() as transcript:
            recorded = releases()
    assert np.array_equal(plain, wrapped) and np.array_equal(plain, recorded)
    assert {call.primitive for call in transcript.calls} == {"laplace", BOUNDED_LAPLACE, GEOMETRIC}


def test_methods_and_registry_restored_on_exit_even_when_the_block_raises():
    originals = {class_name: vars(getattr(mechanisms, class_name))["randomise"] for class_name, _, _ in WRAPPED_METHODS}
    before = registered_primitives()
    with pytest.raises(KeyError), diffprivlib_primitives() as wrapped:
        assert len(wrapped) == len(WRAPPED_METHODS)
        assert all(vars(getattr(mechanisms, c))["randomise"] is not originals[c] for c in originals)
        raise KeyError("inside")
    assert all(vars(getattr(mechanisms, c))["randomise"] is originals[c] for c in originals)
    assert registered_primitives() == before


def test_geometric_law_sums_to_one_and_is_the_samplers():
    law = {"center": 7.0, "scale": -0.5}
    support = range(-60, 75)
    assert sum(math.exp(geometric_log_prob(law, k)) for k in support) == pytest.approx(1.0, abs=1e-12)
    mechanism = mechanisms.Geometric(epsilon=0.5, sensitivity=1, random_state=np.random.RandomState(3))
    draws = np.array([mechanism.randomise(7) for _ in range(40000)])
    for k in range(3, 12):  # frequencies within 5 standard errors of the law's probabilities
        p = math.exp(geometric_log_prob(law, k))
        assert abs(np.mean(draws == k) - p) < 5 * math.sqrt(p * (1 - p) / draws.size)
    # a value that is not an integer: the noises rounding to each output, half to even
    shifted = {"center": 2.5, "scale": -0.5}
    assert sum(math.exp(geometric_log_prob(shifted, k)) for k in support) == pytest.approx(1.0, abs=1e-12)


def test_bounded_laplace_law_integrates_to_one_and_is_the_samplers():
    mechanism = mechanisms.LaplaceBoundedDomain(
        epsilon=0.5, sensitivity=1.0, lower=0.0, upper=3.0, random_state=np.random.RandomState(4)
    )
    with diffprivlib_primitives(), recording() as transcript:
        mechanism.randomise(2.5)
    law = transcript.calls[0].law
    total, _ = integrate.quad(lambda x: math.exp(bounded_laplace_log_prob(law, x)), 0.0, 3.0, points=[2.5])
    assert total == pytest.approx(1.0, abs=1e-9)
    draws = np.array([mechanism.randomise(2.5) for _ in range(20000)])
    share_below_1, _ = integrate.quad(lambda x: math.exp(bounded_laplace_log_prob(law, x)), 0.0, 1.0)
    assert abs(np.mean(draws < 1.0) - share_below_1) < 5 * math.sqrt(share_below_1 / draws.size)


# ----------------------------------------------------------------------------------------------------------
# real models


def _mean_without_bounds(data, rng):
    return tools.mean(data, epsilon=1.0, random_state=random_state_of(rng), accountant=BudgetAccountant())


def _mean_with_bounds(data, rng):
    return tools.mean(
        data, epsilon=1.0, bounds=(0.0, 1.0), random_state=random_state_of(rng), accountant=BudgetAccountant()
    )


def _finite_mean_with_bounds(data, rng):
    if not np.all(np.isfinite(data)):
        raise ValueError("records must be finite")
    return _mean_with_bounds(data, rng)


def _naive_bayes(bounds):
    def fit(data, rng):
        if bounds is not None and (not np.all(np.isfinite(data)) or not np.isin(data[:, -1], (0, 1)).all()):
            raise ValueError("features must be finite and labels 0 or 1")
        model = GaussianNB(epsilon=1.0, bounds=bounds, random_state=random_state_of(rng), accountant=BudgetAccountant())
        model.partial_fit(data[:, :-1], data[:, -1].astype(int), classes=[0, 1])
        return model.theta_, model.var_

    return fit


@pytest.fixture(scope="module")
def records():
    rng = np.random.default_rng(0)
    features = rng.uniform(0.0, 1.0, (60, 2))
    labels = (rng.uniform(size=60) < 0.5).astype(float)
    return rng.uniform(0.0, 1.0, 100), np.column_stack([features, labels])


def test_mean_without_bounds_reads_them_from_the_data(records):
    values, _ = records
    with diffprivlib_primitives(), pytest.warns(PrivacyLeakWarning, match="Bounds have not been specified"):
        res = gray_box_audit(_mean_without_bounds, values, neighbours="search", epsilon=1.0, paths=20)
    check = res.check("control_flow")
    assert res.verdict == "refuted" and check.verdict == "refuted"
    assert check.witness["field"] == "public[upper]" and check.witness["recorded"] == values.max()
    assert check.witness["replayed"] == 1e300 and check.witness["site"] == "diffprivlib Laplace.randomise"
    assert "public[upper] is" in res.report()


def test_naive_bayes_without_bounds_reads_them_from_the_data(records):
    _, data = records
    with diffprivlib_primitives(), warnings.catch_warnings():
        warnings.simplefilter("ignore", PrivacyLeakWarning)
        warnings.simplefilter("ignore", RuntimeWarning)  # labels 1e300 cast to int by the candidates
        res = gray_box_audit(_naive_bayes(None), data, neighbours="search", epsilon=1.0, paths=20)
    check = res.check("control_flow")
    assert check.verdict == "refuted" and check.witness["field"] in ("public[lower]", "public[upper]", "sensitivity")
    assert check.witness["recorded"] != check.witness["replayed"]


def test_mean_with_bounds_holds_on_searched_neighbours(records):
    values, _ = records
    with diffprivlib_primitives():
        found = search_neighbours(_finite_mean_with_bounds, values, budget=200)
        res = gray_box_audit(_finite_mean_with_bounds, values, found.D_prime, epsilon=1.0, paths=100)
    assert found.divergence is None and found.ratio <= 1.0 and found.evaluations == 200
    assert res.verdict == "no violation found" and res.check("composition").verdict == "confirmed"


def test_a_nan_record_passes_diffprivlibs_clipping(records):
    values, _ = records
    with diffprivlib_primitives(), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        found = search_neighbours(_mean_with_bounds, values, budget=200)
        res = gray_box_audit(_mean_with_bounds, values, found.D_prime, epsilon=1.0, paths=20)
    assert math.isinf(found.ratio) and "nan" in found.change
    assert res.check("sensitivity").verdict == "refuted" and math.isinf(res.check("sensitivity").witness["measured"])
    # the release around a NaN answer is NaN: a finite release of D is impossible on D', an infinite loss
    assert res.check("pair_loss").verdict == "refuted", res.report()
    # the NaN centre is an atom with no noise to test; the finite centres' noise still follows the law
    assert res.check("law_conformance").verdict == "no violation found", res.report()


def test_naive_bayes_with_bounds_holds_on_searched_neighbours(records):
    _, data = records
    algorithm = _naive_bayes((np.zeros(2), np.ones(2)))
    with diffprivlib_primitives():
        found = search_neighbours(algorithm, data, budget=200)
        res = gray_box_audit(algorithm, data, found.D_prime, epsilon=1.0, paths=100, noise_laws=DIFFPRIVLIB_NOISE_LAWS)
    assert found.divergence is None and found.ratio <= 1.0 + 1e-9  # the sums' rounding
    for name in ("control_flow", "sensitivity", "law_conformance", "pair_loss"):
        assert res.check(name).verdict == "no violation found", res.report()
