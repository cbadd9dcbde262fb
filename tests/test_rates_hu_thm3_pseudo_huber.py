"""[002 Thm. 3] on the pseudo-Huber loss (proofs_checks/claim_sets/hu/rate_thm3_pseudo_huber.py): the loss class
(reference/losses/pseudo_huber.py), its exact excess risk by quadrature, and the claim with its mutants (power)."""

import math

import mpmath
import numpy as np
import pytest
from scipy import integrate, stats

from proofs_checks.claim_sets.hu import rate_thm3_pseudo_huber as ph_claim
from proofs_checks.model import CheckContext
from proofs_checks.rates import trials_hu_pseudo_huber as ph
from reference.losses.pseudo_huber import PseudoHuberLoss, pseudo_huber_dpsi, pseudo_huber_psi

SEED = 20261121

#: ``G(v) = E[psi(sqrt(v) Z - xi) - psi(xi)]``, ``Z ~ N(0, 1)``, ``xi ~ t(3)``, ``psi(r) = sqrt(1 + r^2) - 1``:
#: mpmath quad, 20 digits, nested (inner over z on (-inf, 0, inf), outer 2 x over xi on [0, 1, 4, inf]), the
#: integrand written directly from the densities (script of :func:`_mpmath_excess_risk`; about 17 s CPU each).
MPMATH_G = {
    0.01: 0.0025495728377434100746,
    0.5: 0.11938057308474379094,
    2.25: 0.46068423041608182233,
}


def _mpmath_excess_risk(v, dps=20):
    with mpmath.workdps(dps):
        return _mpmath_excess_risk_at_precision(v)


def _mpmath_excess_risk_at_precision(v):
    v = mpmath.mpf(v)
    sv = mpmath.sqrt(v)

    def psi(r):
        return mpmath.sqrt(1 + r * r) - 1

    def p3(x):
        return 6 * mpmath.sqrt(3) / (mpmath.pi * (3 + x * x) ** 2)

    def phi(z):
        return mpmath.exp(-z * z / 2) / mpmath.sqrt(2 * mpmath.pi)

    def inner(x):
        return mpmath.quad(lambda z: (psi(sv * z - x) - psi(x)) * phi(z), [-mpmath.inf, 0, mpmath.inf])

    return 2 * mpmath.quad(lambda x: p3(x) * inner(x), [0, 1, 4, mpmath.inf])


# --------------------------------------------------------------------------- the loss


def test_psi_and_its_derivative_match_mpmath_and_assumption2():
    r = np.array([-1e3, -3.0, -0.5, -1e-9, 0.0, 1e-9, 0.5, 3.0, 1e3])
    # psi(1e-9) = 5e-19 needs more than 18 digits in the mpmath reference
    with mpmath.workdps(40):
        for delta in (0.5, 1.0, 2.0):
            ref = [float(delta**2 * (mpmath.sqrt(1 + (mpmath.mpf(x) / delta) ** 2) - 1)) for x in r]
            dref = [float(mpmath.mpf(x) / mpmath.sqrt(1 + (mpmath.mpf(x) / delta) ** 2)) for x in r]
            assert np.allclose(pseudo_huber_psi(r, delta), ref, rtol=1e-14, atol=0)
            assert np.allclose(pseudo_huber_dpsi(r, delta), dref, rtol=1e-14, atol=0)
    d = pseudo_huber_dpsi(np.linspace(1e-6, 50.0, 1001))
    assert np.all(d > 0) and np.all(d < 1.0)  # [002 Assumption 2] items 1, 2: psi' > 0 on s > 0, <= C_psi = 1
    assert np.array_equal(pseudo_huber_dpsi(-np.linspace(0, 5, 11)), -pseudo_huber_dpsi(np.linspace(0, 5, 11)))


def test_same_loss_as_the_lemma7_and_assumption2_claims():
    from proofs_checks.claim_sets.hu.lemmas import pseudo_huber

    for r in (-4.0, -0.3, 0.0, 0.7, 2.5):
        psi, dpsi, _ = pseudo_huber(r)
        assert pseudo_huber_psi(r) == pytest.approx(psi, rel=1e-14, abs=1e-300)
        assert pseudo_huber_dpsi(r) == pytest.approx(dpsi, rel=1e-14, abs=1e-300)


def test_extreme_residuals_stay_finite():
    assert list(pseudo_huber_dpsi(np.array([-np.inf, np.inf, 1e308]))) == [-1.0, 1.0, 1.0]
    assert pseudo_huber_psi(np.array([1e300]))[0] == pytest.approx(1e300, rel=1e-15)
    loss = PseudoHuberLoss()
    g = loss.gradient(np.array([1.0, 1.0]), np.array([[1e300, 1e300], [0.0, 0.0]]), np.array([-1e300, 0.0]))
    assert np.all(np.isfinite(g)) and g[0, 0] == pytest.approx(1e300) and np.all(g[1] == 0.0)


def test_gradient_is_the_derivative_and_batch_agrees():
    rng = np.random.default_rng(3)
    X, y, w = rng.standard_t(3, size=(40, 3)), rng.standard_t(3, size=40), rng.normal(size=3) * 0.3
    loss = PseudoHuberLoss(delta=1.5)
    h = 1e-6
    numeric = np.stack(
        [(loss.value(w + h * e, X, y) - loss.value(w - h * e, X, y)) / (2 * h) for e in np.eye(3)], axis=1
    )
    assert np.allclose(loss.gradient(w, X, y), numeric, rtol=1e-6, atol=1e-8)
    W = np.stack([w, -w, np.zeros(3)])
    batch = loss.gradient_batch(W, X, y)
    assert np.allclose(batch, np.stack([loss.gradient(v, X, y) for v in W]), rtol=1e-13, atol=1e-15)


@pytest.mark.parametrize("bad", [0.0, -1.0, math.inf, math.nan])
def test_bad_delta_raises_naming_it(bad):
    with pytest.raises(ValueError, match="delta"):
        PseudoHuberLoss(delta=bad)
    with pytest.raises(ValueError, match="delta"):
        pseudo_huber_psi(1.0, bad)


# --------------------------------------------------------------------------- the exact excess risk


@pytest.mark.parametrize("v", sorted(MPMATH_G))
def test_excess_risk_matches_mpmath(v):
    assert ph.pseudo_huber_excess_risk(v) == pytest.approx(MPMATH_G[v], rel=1e-12)


@pytest.mark.slow
def test_excess_risk_mpmath_reference_recomputed():
    assert float(_mpmath_excess_risk(0.5)) == pytest.approx(MPMATH_G[0.5], rel=1e-15)


def test_excess_risk_near_zero_is_half_h_prime_and_constant_matches():
    # G(v) ~ v E[psi''(xi)] / 2 (heat equation: dG/dv = E psi''(sqrt(v) Z - xi) / 2); scipy quad of the t(3) density
    h0, err = integrate.quad(lambda x: (1 + x * x) ** -1.5 * stats.t.pdf(x, 3), -np.inf, np.inf)
    assert err < 1e-8 and ph_claim.H_PRIME_0 == pytest.approx(h0, abs=5e-5)
    assert ph.pseudo_huber_excess_risk(1e-6) / 1e-6 == pytest.approx(h0 / 2, rel=1e-5)
    vs = np.linspace(0.0, 2.25, 10)
    g = [ph.pseudo_huber_excess_risk(v) for v in vs]
    assert g[0] == 0.0 and np.all(np.diff(g) > 0)
    with pytest.raises(ValueError, match="v must"):
        ph.pseudo_huber_excess_risk(-0.1)


# --------------------------------------------------------------------------- the claim and its power


def _run(trial=None):
    ctx = CheckContext(profile="quick", seed=SEED).for_claim(ph_claim.CLAIM_ID)
    return ph_claim.thm3_pseudo_huber_check(trial)(ctx)


def test_stated_algorithm_confirmed_inside_assumption2():
    # measured (seed 20261121): 0.388 [0.319, 0.456] against 1/4; 0.9 quantiles 0.1245, 0.0822, 0.0406, 0.0241
    res = _run()
    assert res.verdict == "confirmed" and res.evidence["ci_low"] > 0.25 - 0.2
    assert "as printed" in res.reading and "biweight" in res.reading


@pytest.mark.parametrize(
    "kind",
    [
        "ignore_data",  # 0.111 [0.039, 0.182]
        pytest.param("fixed_noise", marks=pytest.mark.slow),  # 0.151 [0.084, 0.218]
        pytest.param("output_noise", marks=pytest.mark.slow),  # 0.038 [-0.051, 0.126] (sigma = 0.3)
    ],
)
def test_mutants_refuted(kind):
    res = _run(ph_claim.broken_trial(kind, **ph_claim.MUTANTS[kind][1]))
    assert res.verdict == "refuted" and res.evidence["ci_high"] < 0.25


def test_registered_with_labelled_mutants():
    from proofs_checks.registry import default_registry

    claim = default_registry().claim(ph_claim.CLAIM_ID)
    names = {m.name: m for m in claim.mutants}
    assert len(names) == 4 and claim.seed_policy == "once"
    x20 = names["privacy noise scale x20"]
    assert x20.not_a_violation and "Lemma 1" in x20.not_a_violation
    assert all(not m.not_a_violation and not m.out_of_reach for n, m in names.items() if n != x20.name)
