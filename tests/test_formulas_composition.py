"""Exact composition (KOV randomized response, Laplace PLD) and the Lemma 2 checks built on it."""

import math

import mpmath
import pytest

from proofs_checks.claim_sets import proof_identities as PI
from proofs_checks.formulas import composition as C
from proofs_checks.model import CheckContext
from proofs_checks.registry import Registry
from proofs_checks.runner import run_claim
from reference.mechanisms import advanced_composition_split

CTX = CheckContext(profile="quick", seed=5, claim_id="proofs.002.lemma2.test")


@pytest.mark.parametrize(
    "e0, rounds, eps",
    [(0.1, 10, 0.5), (0.01, 2000, 0.3), (1.0, 7, 0.0), (0.5, 300, 2.0), (3.0, 4, 1.0), (1e-4, 5000, 0.01)],
)
def test_rr_binomial_sum_matches_mpmath(e0, rounds, eps):
    # Reference: the same KOV sum term by term in mpmath at 50 digits.
    ref = C.rr_composition_delta_mpmath(e0, rounds, eps, dps=50)
    got = C.rr_composition_delta(e0, rounds, eps)
    assert abs(got - ref) <= 1e-11 * ref + 1e-300


def test_rr_one_round_closed_form_and_edges():
    # One round: (e^e0 - e^eps)/(1 + e^e0) for eps < e0, else 0 (hand derivation).
    for e0, eps in [(1.0, 0.3), (0.2, 0.0), (5.0, 4.9)]:
        assert math.isclose(
            C.rr_composition_delta(e0, 1, eps), (math.exp(e0) - math.exp(eps)) / (1 + math.exp(e0)), rel_tol=1e-13
        )
    assert C.rr_composition_delta(1.0, 10, 10.0) == 0.0  # eps = T e0: no loss exceeds it
    assert C.rr_composition_delta(1e-300, 10**6, 0.0) >= 0.0  # tiny eps0 gives no NaN
    assert C.rr_composition_delta(700.0, 3, 1.0) > 0.99  # huge eps0 gives no overflow


def test_exact_composition_with_delta_step():
    # One round of (eps0, delta0): delta0 + (1 - delta0) * delta_RR.
    d_rr = C.rr_composition_delta(0.5, 1, 0.1)
    assert math.isclose(C.exact_composition_delta(0.5, 1e-3, 1, 0.1), 1e-3 + (1 - 1e-3) * d_rr, rel_tol=1e-13)
    # Tiny delta0: T*delta0 without cancellation.
    assert math.isclose(C.exact_composition_delta(1e-6, 1e-20, 10**6, 1.0), 1e-14, rel_tol=1e-9)


def test_exact_epsilon_inverts_delta():
    e = C.exact_composition_epsilon(0.01, 1e-8, 1000, 1e-5)
    assert abs(C.exact_composition_delta(0.01, 1e-8, 1000, e) - 1e-5) < 1e-9
    assert C.exact_composition_epsilon(0.01, 1e-3, 1000, 1e-5) == math.inf


def _laplace_two_round_reference(e0, eps):
    """T = 2 exactly: condition on the first round's loss, mpmath quad at 30 digits."""
    mpmath.mp.dps = 30
    e0, eps = mpmath.mpf(e0), mpmath.mpf(eps)

    def one(t):  # delta of one round at threshold t (any real t)
        if t >= e0:
            return mpmath.mpf(0)
        if t <= -e0:
            return 1 - mpmath.exp(t)
        return 1 - mpmath.exp((t - e0) / 2)

    cont = mpmath.quad(
        lambda l: mpmath.exp((l - e0) / 2) / 4 * one(eps - l),
        [-e0, max(-e0, min(e0, eps - e0)), max(-e0, min(e0, eps + e0)), e0],
    )
    return float(one(eps - e0) / 2 + mpmath.exp(-e0) / 2 * one(eps + e0) + cont)


@pytest.mark.parametrize("e0, eps", [(0.3, 0.1), (0.3, 0.35), (1.0, 0.0), (1.0, 1.5)])
def test_laplace_bracket_contains_exact_value(e0, eps):
    one = C.laplace_composition_delta(e0, 1, eps, points_per_step=2000)
    assert one.lower <= C.laplace_single_delta(e0, eps) <= one.upper
    two = C.laplace_composition_delta(e0, 2, eps, points_per_step=2000)
    ref = _laplace_two_round_reference(e0, eps)
    assert two.lower <= ref <= two.upper
    assert two.upper - two.lower < 2e-3 * max(ref, 1e-3)


def test_laplace_is_dominated_by_rr_and_bracket_shrinks():
    wide = C.laplace_composition_delta(0.05, 50, 0.4, points_per_step=20)
    narrow = C.laplace_composition_delta(0.05, 50, 0.4, points_per_step=2000)
    assert wide.lower <= narrow.lower <= narrow.upper <= wide.upper
    assert narrow.upper - narrow.lower < 0.05 * (wide.upper - wide.lower)
    assert narrow.upper <= C.rr_composition_delta(0.05, 50, 0.4)  # RR is the worst case (KOV)


def test_registered_lemma2_claims_are_confirmed():
    reg = Registry()
    PI.register(reg)
    results = {
        cid: run_claim(reg.claim(cid), CTX)
        for cid in (
            "proofs.002.lemma2.exact-rr.printed",
            "proofs.002.lemma2.exact-rr.standard",
            "proofs.002.lemma2.exact-laplace.printed",
        )
    }
    assert {r.verdict for r in results.values()} == {"confirmed"}
    # measured slack: the printed per-round epsilon could be about 2.4x larger (exact composition)
    printed = results["proofs.002.lemma2.exact-rr.printed"].evidence
    assert 2.0 < printed["min_largest_per_round_epsilon_factor"] < 3.0


def _no_sqrt_t(eps, delta, rounds):
    """Deliberately wrong: the per-round epsilon does not shrink with sqrt(T)."""
    return eps / (2 * math.sqrt(2 * math.log(2 / delta))), delta / rounds, 2 * delta


def _times(factor):
    def split(eps, delta, rounds):
        s = advanced_composition_split(eps, delta, rounds, "printed")
        return factor * s.epsilon_step, s.delta_step, s.delta_total

    return split


SMALL_GRID = ((0.1, 0.999), (1e-3, 1e-9), (1, 10, 1000, 10**4))


@pytest.mark.parametrize(
    "broken",
    [
        PI.lemma2_exact_rr_check(split=_no_sqrt_t, grid=SMALL_GRID),
        PI.lemma2_exact_rr_check(split=_times(4.0), grid=SMALL_GRID),
        PI.lemma2_exact_laplace_check(split=_no_sqrt_t),
    ],
)
def test_checks_reject_wrong_splits(broken):
    assert broken(CTX).verdict == "refuted"


def test_dropping_the_factor_two_is_within_the_exact_composition():
    # Measured finding, not a bug of the checker: the printed split is ~2.4x conservative in
    # epsilon, so a split without the factor 2 still meets the claimed total exactly.
    assert PI.lemma2_exact_rr_check(split=_times(2.0), grid=SMALL_GRID)(CTX).verdict == "confirmed"


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: C.rr_composition_delta(0.0, 3, 1.0), "epsilon_step"),
        (lambda: C.rr_composition_delta(0.1, 0, 1.0), "rounds"),
        (lambda: C.rr_composition_delta(0.1, 3, -1.0), "epsilon"),
        (lambda: C.rr_composition_delta(0.1, 3, float("nan")), "epsilon"),
        (lambda: C.exact_composition_delta(0.1, 1.5, 3, 1.0), "delta_step"),
        (lambda: C.laplace_pld(0.1, 10, "sideways"), "rounding"),
        (lambda: C.laplace_pld(0.1, 0), "points_per_step"),
    ],
)
def test_bad_input_raises_naming_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_rounds_type_error():
    with pytest.raises(TypeError, match="rounds"):
        C.rr_composition_delta(0.1, 2.5, 1.0)
    with pytest.raises(TypeError, match="epsilon"):
        C.rr_composition_delta(0.1, 2, "x")


def test_logsumexp_is_scipys_within_the_stated_bound():
    # rr_composition_delta uses the exponential mechanism's _log_sum_exp instead of scipy.special.logsumexp for
    # speed: scipy's arithmetic in scipy's order, but numpy's exp/log/log1p on both sides run code the CPU
    # chooses, so on finite 1-D arrays (ties at the maximum, integers, magnitudes 1e-3..1e3, shifts to -800) the
    # two agree within tests/_two_routes.py's bound (a few ulps of the terms and of the maximum), which a 1e-12
    # relative change leaves
    import numpy as np
    from scipy import special

    from tests._two_routes import logsumexp_gap, within

    rng = np.random.default_rng(0)
    caught = 0
    for _ in range(3000):
        n = int(rng.integers(1, 300))
        a = rng.normal(0.0, 10.0 ** rng.uniform(-3, 3), n) - rng.uniform(0, 800)
        if rng.random() < 0.2:
            a[rng.integers(0, n, 3)] = a.max()
        if rng.random() < 0.1:
            a = np.round(a)
        # private: _log_sum_exp: the composition module's own log-sum-exp is tested against scipy
        ours, ref, gap = C._log_sum_exp(a)[0], special.logsumexp(a), logsumexp_gap(a)[0]
        assert within(ours, ref, gap), (ours, ref, gap)
        caught += not within(ours * (1 + 1e-12), ref, gap)
    assert caught == 3000
    for t, e0, eps in ((1, 1.0, 0.0), (1000, 0.01, 0.5), (10**4, 0.003, 0.999)):
        assert C.rr_composition_delta(e0, t, eps) == pytest.approx(
            float(C.rr_composition_delta_mpmath(e0, t, eps)), rel=1e-10
        )


@pytest.mark.parametrize("e0, d0, rounds, eps", [(0.5, 1e-6, 20, 3.0), (0.1, 0.0, 50, 1.0), (1.0, 1e-5, 4, 0.5)])
def test_dp_accounting_backend_agrees_with_the_closed_form(e0, d0, rounds, eps):
    # The closed form (checked against a 50-digit mpmath sum above) is the cross-check of the library backend.
    closed = C.exact_composition_delta(e0, d0, rounds, eps)
    library = C.exact_composition_delta(e0, d0, rounds, eps, backend="dp_accounting")
    assert library == pytest.approx(closed, rel=1e-6, abs=1e-15)
    # power: eps0 10% too small moves delta by 1,000 times that tolerance or more
    assert C.exact_composition_delta(0.9 * e0, d0, rounds, eps, backend="dp_accounting") < (1 - 1e-3) * closed


@pytest.mark.parametrize("e0, rounds, eps", [(0.3, 2, 0.1), (1.0, 10, 3.0), (0.05, 50, 0.4)])
def test_dp_accounting_laplace_bracket_overlaps_the_fft_bracket(e0, rounds, eps):
    fft = C.laplace_composition_delta(e0, rounds, eps, points_per_step=2000)
    library = C.laplace_composition_delta(e0, rounds, eps, backend="dp_accounting")
    assert library.lower <= library.upper
    assert max(fft.lower, library.lower) <= min(fft.upper, library.upper)  # the two brackets overlap
    assert library.float_error_bound == 0.0 and library.points_per_step == C.DP_ACCOUNTING_POINTS_PER_STEP
    if rounds == 2:
        assert library.lower <= _laplace_two_round_reference(e0, eps) <= library.upper


def test_unknown_backend_is_an_error_naming_it():
    with pytest.raises(ValueError, match="backend must be one of .*got 'scipy'"):
        C.exact_composition_delta(0.5, 0.0, 3, 1.0, backend="scipy")
    with pytest.raises(ValueError, match="backend must be one of .*got 'exact'"):
        C.laplace_composition_delta(0.5, 3, 1.0, backend="exact")
