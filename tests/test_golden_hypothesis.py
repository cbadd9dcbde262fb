"""Property tests: the example ports agree with the reference on hypothesis-drawn inputs, at the kit's tolerance.

The golden files fix their inputs; here ``hypothesis`` draws new ones (derandomized: the same examples on every
run, so no verdict depends on a seed) and :func:`proofs_checks.conform.property.check_against_reference` holds the
independent numpy port (``examples/numpy_port.py``, written from the papers) to the reference within each
function's stated tolerance.  Power: for each function, ``hypothesis.find`` finds an input on which a slipped port
fails the same check (the slips of ``tests/test_conform_slips.py`` and smaller ones).
"""

from __future__ import annotations

import math
import types

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, find, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from scipy import special

import examples.numpy_port as good
from proofs_checks.conform.compare import Mismatch
from proofs_checks.conform.functions import declared
from proofs_checks.conform.property import check_against_reference

SETTINGS = settings(
    max_examples=40, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck)
)
#: Finding a failing input: the first one found (shrinking it is what costs time, and any failing input shows power).
FIND_SETTINGS = settings(SETTINGS, phases=[Phase.generate])

finite = st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False)
positive = st.floats(1e-3, 1e3, allow_nan=False, allow_infinity=False)
probability = st.floats(1e-9, 0.5, allow_nan=False, allow_infinity=False)
small_vectors = hnp.arrays(np.float64, st.integers(1, 12), elements=st.floats(-50, 50, allow_nan=False))
ab_pairs = st.tuples(st.floats(-8, 8, allow_nan=False), st.floats(0, 8, allow_nan=False))

#: (function, strategy of (args, kwargs)) drawn for each property test.
PROPERTIES = {
    "phi": hnp.arrays(np.float64, st.integers(1, 20), elements=st.floats(-5, 5, allow_nan=False)).map(
        lambda x: ([x], {})
    ),
    # theta over all of (1, 2]: the scale max(log theta, 1/2) holds as theta -> 1 (with log(theta) alone the numpy
    # port was 6 ulps of log theta off at theta = 1.0547, x = 1, and the range stopped at 1.2)
    "psi": st.tuples(small_vectors, st.floats(1.0, 2.0, exclude_min=True)).map(lambda t: ([t[0]], {"theta": t[1]})),
    "expected_phi": st.lists(ab_pairs, min_size=1, max_size=8).map(
        lambda ps: ([np.array([p[0] for p in ps]), np.array([p[1] for p in ps])], {})
    ),
    "robust_mean": st.tuples(small_vectors, positive, positive).map(lambda t: ([t[0], t[1], t[2]], {})),
    "laplace_scale": st.tuples(positive, positive).map(lambda t: (list(t), {})),
    "report_noisy_max_scale": st.tuples(positive, positive).map(lambda t: (list(t), {})),
    "peeling_scale": st.tuples(st.integers(1, 20), positive, probability, positive).map(lambda t: (list(t), {})),
    "gem_threshold": st.tuples(positive, probability, st.integers(1, 1000)).map(lambda t: (list(t), {})),
    "exponential_log_prob": st.tuples(small_vectors, positive, positive).map(lambda t: (list(t), {})),
    "gem_log_prob": st.tuples(st.integers(2, 8), st.integers(0, 2**32 - 1), positive, probability).map(
        lambda t: (_gem_inputs(*t), {})
    ),
}


def _gem_inputs(k, seed, epsilon, beta):
    rng = np.random.default_rng(seed)
    return [rng.uniform(0.05, 2.0, k), rng.uniform(-1.0, 1.0, k), epsilon, beta]


@pytest.mark.parametrize("name", sorted(PROPERTIES))
def test_the_numpy_port_agrees_with_the_reference_on_drawn_inputs(name):
    @SETTINGS
    @given(PROPERTIES[name])
    def agrees(drawn):
        args, kwargs = drawn
        check_against_reference(good, name, args, kwargs)

    agrees()


def _slipped(**overrides):
    mod = types.ModuleType("slipped_port")
    mod.__dict__.update({k: v for k, v in vars(good).items() if not k.startswith("__")})
    mod.__dict__.update(overrides)
    return mod


#: Slips, each a few ulps to a factor off: (function, slipped port).
SLIPS = {
    "phi": _slipped(phi=lambda x: good.phi(x) * (1 + 1e-14)),  # about 40 ulps
    "psi": _slipped(psi=lambda x, theta=2.0: good.psi(x, 2.0)),  # theta ignored
    "expected_phi": _slipped(expected_phi=lambda a, b: good.expected_phi(a, np.asarray(b) * 1.001)),
    "robust_mean": _slipped(robust_mean=lambda x, s, beta, **kw: good.robust_mean(x, s, beta * beta, **kw)),
    "laplace_scale": _slipped(laplace_scale=lambda sens, eps: sens / eps * (1 + 2**-52)),  # one ulp
    "report_noisy_max_scale": _slipped(report_noisy_max_scale=lambda sens, eps, **kw: sens / eps),
    "peeling_scale": _slipped(peeling_scale=lambda s, e, d, lam: 2 * lam * math.sqrt(3 * s * math.log(1 / d) / e)),
    "gem_threshold": _slipped(gem_threshold=lambda e, b, k: 2 * math.log(k / b) / e * (1 + 1e-14)),
    "exponential_log_prob": _slipped(
        exponential_log_prob=lambda u, e, s, **kw: good.exponential_log_prob(u, e, s, weight_factor=1.0)
    ),
    "gem_log_prob": _slipped(gem_log_prob=lambda g, q, e, b: good.gem_log_prob(g, q, 2 * e, b)),
}


@pytest.mark.parametrize("name", sorted(SLIPS))
def test_a_slipped_port_fails_the_property_on_some_drawn_input(name):
    def fails(drawn):
        args, kwargs = drawn
        try:
            check_against_reference(SLIPS[name], name, args, kwargs)
        except Mismatch as exc:
            assert name in str(exc)
            return True
        return False

    args, kwargs = find(PROPERTIES[name], fails, settings=FIND_SETTINGS)
    with pytest.raises(Mismatch, match=name):
        check_against_reference(SLIPS[name], name, args, kwargs)


def test_every_property_is_declared_and_provided_by_the_port():
    from proofs_checks.conform.functions import declared

    for name in PROPERTIES:
        assert declared(name).kind == "values" and callable(getattr(good, name))
    assert set(SLIPS) == set(PROPERTIES)


# ---- the log-sum-exp scales of gem_log_prob and wang_xu_log_prob: correct ports that normalise differently


def _gem_by_differences(sensitivities, scores, epsilon, beta):
    """A correct GEM law: s_i formed as (q_i - q_j) + t (g_i - g_j) over g_i + g_j, then z - logsumexp(z)."""
    g, q = np.asarray(sensitivities, dtype=np.float64), np.asarray(scores, dtype=np.float64)
    t = 2.0 * math.log(q.size / beta) / epsilon
    ratio = ((q[:, None] - q[None, :]) + t * (g[:, None] - g[None, :])) / (g[:, None] + g[None, :])
    z = -epsilon * np.maximum(ratio.max(axis=1), 0.0) / 2.0
    return z - special.logsumexp(z)


def _wang_xu_shift_first(X, y, net, epsilon, iota, theta=2.0, variant="printed"):
    """A correct law of [000 Alg. 1]: the reference's log-weights, normalised as (w - max w) - log sum exp(w - max w)."""
    from reference.wang_xu.l1_regression import log_weights

    net = np.asarray(net, dtype=np.float64)
    w = log_weights(net, X, y, epsilon, iota, theta, variant)
    return net, (w - w.max()) - np.log(np.sum(np.exp(w - w.max())))


def _mirrored(x, w, epsilon):
    """Records x and -x with y = 0 and the net {w, -w}: equal risks, log p = -log 2, log-weights of size eps."""
    X = np.concatenate([x, -x])[:, None]
    return [X, np.zeros(X.shape[0]), np.array([[w], [-w]]), epsilon, 1.0]


#: (strategy of (args, kwargs), a correct port normalising differently from the reference)
NORMALISING = {
    "gem_log_prob": (
        st.tuples(st.integers(2, 6), st.integers(0, 2**32 - 1), st.floats(0.0, 7.0), positive).map(
            lambda t: (_large_gem_inputs(*t), {})
        ),
        _slipped(gem_log_prob=_gem_by_differences),
    ),
    "wang_xu_log_prob": (
        st.tuples(
            hnp.arrays(np.float64, st.integers(1, 6), elements=st.floats(-1, 1, allow_nan=False)),
            st.floats(0.1, 1.0),
            st.floats(1.0, 1e4),
        ).map(lambda t: (_mirrored(*t), {})),
        _slipped(wang_xu_log_prob=_wang_xu_shift_first),
    ),
}


def _large_gem_inputs(k, seed, log10_base, epsilon):
    rng = np.random.default_rng(seed)
    return [rng.uniform(0.05, 2.0, k), 10.0**log10_base + rng.uniform(-1.0, 1.0, k), epsilon, 0.1]


def _case_scale_ulps(name, port, args, kwargs):
    """The port's error in ulps of the largest |log-probability| (the scale both functions had before)."""
    expected = declared(name).reference(*args, **kwargs)
    actual = getattr(port, name)(*args, **kwargs)
    if name == "wang_xu_log_prob":
        expected, actual = expected[1], actual[1]
    return float(np.max(np.abs(actual - expected)) / np.spacing(np.max(np.abs(expected))))


@pytest.mark.parametrize("name", sorted(NORMALISING))
def test_a_port_normalising_differently_passes_at_the_logit_scale(name):
    strategy, port = NORMALISING[name]

    @SETTINGS
    @given(strategy)
    def agrees(drawn):
        args, kwargs = drawn
        check_against_reference(port, name, args, kwargs)

    agrees()


@pytest.mark.parametrize("name", sorted(NORMALISING))
def test_the_largest_log_probability_is_the_wrong_scale(name):
    """Witness: hypothesis finds an input on which the same correct port is more than 64 ulps of max|log p| off
    (the tolerance before the logit scale), so that scale would fail a correct port."""
    strategy, port = NORMALISING[name]
    args, kwargs = find(strategy, lambda d: _case_scale_ulps(name, port, *d) > 64, settings=FIND_SETTINGS)
    assert _case_scale_ulps(name, port, args, kwargs) > 64
    check_against_reference(port, name, args, kwargs)
