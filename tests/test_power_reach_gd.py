"""Reach of audit.arora-noisy-gd.standard x2 [issue 18]: the violation, its pair and why no quick audit shows it.

Every number of the mutant's ``out_of_reach`` text is recomputed here: the output law on the designed pair
(closed form of :func:`noisy_gd_linear_output`, checked against the implementation by replaying its own
noise draws), Balle-Wang's exact Gaussian curve cross-checked with dp-accounting's pessimistic PLD, the
projection bound, and the Clopper-Pearson oracle of proofs_checks.audit.calibration at expected counts.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from proofs_checks.audit.curves import gaussian_curve
from proofs_checks.audit_claims import AUDIT_POWER
from proofs_checks.claim_sets.arora.audit_design import (calls_for_oracle, gaussian_epsilon, gaussian_oracle,
                                                          learner_mu_bound, noisy_gd_linear_output,
                                                          noisy_gd_violation_pair)
from reference.arora.learners import noisy_gd, noisy_gd_rho

DELTA = 1e-5
GD = "audit.arora-noisy-gd.standard"


def _replay(D, m, size, seed):
    """noisy_gd's iterates rebuilt from its own noise stream (d = 1), without projection: (outputs, max |w_t|)."""
    r = noisy_gd_linear_output(D.shape[0], m, DELTA)
    gen = np.random.default_rng(seed)
    A = 2.0 * np.mean(D[:, 0] ** 2)
    b = 2.0 * np.mean(D[:, 0] * D[:, 1])
    w = np.zeros((size, 1))
    acc = np.zeros((size, 1))
    top = 0.0
    for _ in range(r["T"]):   # iterations, as the implementation loops
        w = w - r["eta"] * (A * w - b + gen.normal(0.0, r["sigma"], size=(size, 1)))
        top = max(top, float(np.abs(w).max()))
        acc += w
    return acc[:, 0] / r["T"], top


def test_the_closed_form_law_is_the_implementations_output_on_the_pair():
    D, Dp, _ = noisy_gd_violation_pair()
    for data in (D, Dp):
        out = noisy_gd(data, "squared", 1.0, 2.0, DELTA, x_bound=1.0, y_bound=3.0, size=64, rng=7)[:, 0]
        lin, top = _replay(data, 2.0, 64, 7)
        assert top < 0.5                                  # no projection on these paths
        np.testing.assert_allclose(out, lin, rtol=0, atol=1e-13)


def test_the_closed_form_mean_and_weights_follow_the_recursion():
    # impulse responses of the linear recursion: noise at step s enters the average with weight c_s
    r = noisy_gd_linear_output(400, 2.0, DELTA)
    T, k = r["T"], r["k"]
    W = np.zeros(T)
    acc = np.zeros(T)
    impulse = np.eye(T)
    for t in range(T):
        W = (1 - k) * W + impulse[t]
        acc += W
    c = acc                      # c_s = sum_{t > s} (1 - k)^(t - 1 - s)
    mu = (12.0 / 400) * c.sum() / (r["sigma"] * np.linalg.norm(c))
    assert mu == pytest.approx(r["mu"], rel=1e-12)
    assert r["mu"] <= r["transcript_mu"] <= learner_mu_bound("noisy-gd", 2.0, DELTA)


def test_noisy_gd_x2_violates_and_is_out_of_reach_with_the_stated_numbers():
    r = noisy_gd_linear_output(400, 2.0, DELTA)
    mu, worst = r["mu"], learner_mu_bound("noisy-gd", 2.0, DELTA)
    d1 = float(gaussian_curve([1.0], 1.0 / mu)[0])
    eps = gaussian_epsilon(mu, DELTA)
    assert d1 - (1 + math.e) * r["projection"] > DELTA and eps > 1.0       # a violation of (1, 1e-5)-DP
    pld = pytest.importorskip("dp_accounting.pld.privacy_loss_distribution")
    p = pld.from_gaussian_mechanism(standard_deviation=1.0 / mu, sensitivity=1.0, pessimistic_estimate=True,
                                    value_discretization_interval=1e-4)
    assert p.get_delta_for_epsilon(1.0) == pytest.approx(d1, rel=1e-3)
    oracle, oracle_any = gaussian_oracle(mu, 20_000, 0.95, DELTA), gaussian_oracle(worst, 20_000, 0.95, DELTA)
    assert oracle < 1.0 and oracle_any < 1.0                                # not at quick, on any pair
    assert worst == pytest.approx(math.sqrt(2 * noisy_gd_rho(2.0, DELTA)))
    text = AUDIT_POWER[GD]["reach"][2.0]["out_of_reach"]
    for value in (f"k = 2 eta = {r['k']:.4f}", f"mu = {mu:.4f}", f"{r['transcript_mu']:.4f}", f"{d1 * 1e5:.2f}e-5",
                  f"{eps:.3f} > 1", f"is {oracle:.3f}", f"{oracle_any:.3f} on any pair", f"{worst:.4f}-GDP",
                  f"{r['projection']:.2g}"):
        assert value in text, value
    calls = calls_for_oracle(mu, 1.0, 0.95, DELTA, start=20_000 * 2 ** 11)
    assert calls == 81_920_000 and "8.2e7 calls" in text


def test_noisy_gd_claim_carries_the_classification():
    from proofs_checks.registry import default_registry

    ms = {m.factor: m for m in default_registry().claim(GD).mutants}
    assert ms[2.0].out_of_reach and not ms[2.0].not_a_violation
    assert ms[1.25].not_a_violation and not ms[6.0].out_of_reach
