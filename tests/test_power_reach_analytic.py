"""Reach of the analytic (non-audit) privacy claims: mutants proven to be no violation.

A mutant marked ``not_a_violation`` must provably still satisfy its claim on the instances its check
runs.  These tests recompute each proof's numbers independently (mpmath binomial sums at 50 digits
for randomized-response composition, closed forms for the sensitivities), check the ingredients the
proof relies on (the instances the checks run, the noise calibrations), and that the registered
mutants carry the proofs -- and that the undecided ones carry none.
"""

from __future__ import annotations

import itertools
import math
import re

import mpmath
import numpy as np
import pytest

from proofs_checks.claim_sets.hu import frank_wolfe, sparse
from proofs_checks.formulas.composition import rr_composition_delta, rr_composition_delta_mpmath
from proofs_checks.registry import default_registry
from reference.hu.frank_wolfe import (
    dp_fw_sensitivity,
    l1_ball_vertices,
    lasso_epsilon_step,
    lasso_sensitivity,
    polytope_l1_norm,
)
from reference.mechanisms.peeling import peeling_scale


@pytest.fixture(scope="module")
def registry():
    return default_registry()


def _claim(registry, cid):
    return next(c for c in registry.select([cid]) if c.id == cid)


def _by_factor(claim):
    return {m.factor: m for m in claim.mutants}


def _rr_product_mpmath(epsilons, epsilon, dps=50):
    """Reference: hockey-stick of a product of randomized responses, every outcome in mpmath (50 digits)."""
    with mpmath.workdps(dps):
        total = mpmath.mpf(0)
        for bits in itertools.product((0, 1), repeat=len(epsilons)):
            p = q = mpmath.mpf(1)
            for b, e in zip(bits, epsilons):
                hi = mpmath.exp(e) / (1 + mpmath.exp(e))
                p *= hi if b else 1 - hi
                q *= (1 - hi) if b else hi
            total += max(p - mpmath.exp(epsilon) * q, 0)
        return float(total)


# ------------------------------------------------------------------------------------------ helpers


@pytest.mark.parametrize(
    "eps_list, eps",
    [([1.0], 0.0), ([0.7533, 0.3767], 0.99), ([0.3424] * 3, 0.9), ([2.49, 2.49, 2.49], 0.99), ([1e-300, 5.0], 0.1)],
)
def test_rr_product_delta_matches_mpmath(eps_list, eps):
    # mpmath enumeration at 50 digits
    assert sparse.rr_product_delta(eps_list, eps) == pytest.approx(
        _rr_product_mpmath(eps_list, eps), rel=1e-12, abs=1e-15
    )


def test_rr_product_delta_equals_the_homogeneous_binomial_sum():
    for e0, k, eps in [(0.3, 3, 0.5), (1.2, 2, 0.9), (2.0, 3, 0.0)]:
        assert sparse.rr_product_delta([e0] * k, eps) == pytest.approx(rr_composition_delta(e0, k, eps), rel=1e-12)


# ------------------------------------------------------------------------- Theorem 4 (Algorithm 2)


def _thm4_ratio_mpmath(variant, factor):
    configs = frank_wolfe.THM4_QUICK + frank_wolfe.THM4_FULL
    return max(
        rr_composition_delta_mpmath(lasso_epsilon_step(eps, dlt, T, variant) / factor, T, eps) / dlt
        for T, n, K, eps, dlt in configs
    )


@pytest.mark.parametrize(
    "variant, factor, expected",
    [
        # recomputed with mpmath (rr_composition_delta_mpmath, 50 digits) over the 8 instances
        ("lemma2", 0.5, 0.0755),
        ("lemma2", 0.8, 0.00915),
        ("standard", 0.5, 0.329),
        ("standard", 0.8, 0.0368),
    ],
)
def test_thm4_mutants_are_no_violation(registry, variant, factor, expected):
    ratio = _thm4_ratio_mpmath(variant, factor)
    assert ratio == pytest.approx(expected, rel=2e-3) and ratio < 1.0
    assert frank_wolfe.thm4_mutant_delta_ratio(variant, factor)[0] == pytest.approx(ratio, rel=1e-9)
    text = _by_factor(_claim(registry, f"hu.thm4.privacy.{variant}"))[factor].not_a_violation
    assert text.startswith(
        f"still (eps, {float(ratio):.3g} delta)-DP"
    )  # mpmath < 1.4 (sympy caps it) has no format spec


def test_thm4_printed_rr_bound_does_not_close(registry):
    # the randomized-response bound breaks delta at x0.5 on a quick instance (T = 4, delta = 0.99) and at x0.8
    # on a full one (T = 5, delta = 0.999); the proofs on those mutants use bounded range instead
    # (tests/test_power_reach_br.py); x0.1 and x0.05 carry none
    quick = max(
        rr_composition_delta_mpmath(lasso_epsilon_step(eps, dlt, T, "printed") / 0.5, T, eps) / dlt
        for T, n, K, eps, dlt in frank_wolfe.THM4_QUICK
    )
    assert quick > 1.0
    assert frank_wolfe.thm4_mutant_delta_ratio("printed", 0.8)[0] > 1.0
    ms = _by_factor(_claim(registry, "hu.thm4.privacy.printed"))
    assert "bounded-range" in ms[0.5].not_a_violation and "bounded-range" in ms[0.8].not_a_violation
    assert not ms[0.1].not_a_violation and not ms[0.05].not_a_violation
    for v in ("lemma2", "standard"):
        ms = _by_factor(_claim(registry, f"hu.thm4.privacy.{v}"))
        assert not ms[0.1].not_a_violation and not ms[0.05].not_a_violation


def test_thm4_ingredients():
    # the proof's step sensitivity is the one the check uses: unit l1 ball, radius reading, 8 K^2 / n
    V = l1_ball_vertices(2)
    assert polytope_l1_norm(V, "radius") == 1.0
    for _T, n, K, eps, dlt in frank_wolfe.THM4_QUICK + frank_wolfe.THM4_FULL:
        assert lasso_sensitivity(V, K, n) == pytest.approx(8.0 * K * K / n, rel=1e-15)
        assert 0 < eps < 1 and 0 < dlt < 1


# ------------------------------------------------------------------------ Theorem 1, diameter reading


def test_thm1_diameter_mutants_are_no_violation(registry):
    V = l1_ball_vertices(2)
    # the diameter reading's Delta is diam(W) 4 sqrt(2) s / (3m), twice the radius reading's on the l1 ball,
    # so x0.5 is exactly the radius reading
    assert dp_fw_sensitivity(V, 1.5, 4, "diameter") == pytest.approx(2.0 * 4 * math.sqrt(2) * 1.5 / 12, rel=1e-15)
    assert dp_fw_sensitivity(V, 1.5, 4, "diameter") == pytest.approx(2.0 * dp_fw_sensitivity(V, 1.5, 4, "radius"))
    ms = _by_factor(_claim(registry, "hu.thm1.privacy.standard.diameter"))
    for f, bound in ((0.5, 1.0), (0.8, 0.625)):
        assert frank_wolfe.thm1_diameter_mutant_loss(f) == bound
        assert ms[f].not_a_violation.startswith(f"still ({bound:.4g} eps, 0)-DP")
    assert not ms[0.25].not_a_violation


# --------------------------------------------------------------------- Theorems 6 and 8 (Peeling)


def test_peeling_instances_are_those_the_checks_run():
    for quick, full in (sparse.IHT_CONFIGS, sparse.SPARSE_OPT_CONFIGS):
        assert tuple(c[2:5] for c in quick) == sparse.PEELING_INSTANCES["quick"]
        assert tuple(c[2:5] for c in full) == sparse.PEELING_INSTANCES["full"]


def _peeling_ratio_mpmath(factor, profiles):
    out = []
    for p in profiles:
        for s, eps, dlt in sparse.PEELING_INSTANCES[p]:
            lam = 1.0
            b = peeling_scale(s, eps, dlt, factor * lam)  # the mutant's noise, sensitivity S = lam
            out.append(_rr_product_mpmath([2 * lam / b] * s + [s * lam / b], eps) / dlt)
    return max(out)


@pytest.mark.parametrize(
    "factor, profiles, expected",
    [
        # mpmath enumeration (50 digits) of the product of randomized responses
        (0.8, ("quick", "full"), 0.7812),
        (0.5, ("quick",), 0.6859),
    ],
)
def test_peeling_mutants_are_no_violation(registry, factor, profiles, expected):
    ratio = _peeling_ratio_mpmath(factor, profiles)
    assert ratio == pytest.approx(expected, rel=1e-3) and ratio < 1.0
    assert sparse.peeling_mutant_delta_ratio(factor, profiles)[0] == pytest.approx(ratio, rel=1e-9)
    # (hu.thm8.privacy.standard and .printed-indices use S <= lambda / 3: tests/test_power_reach_br.py)
    for cid in ("hu.thm6.privacy", "hu.thm8.privacy.proof-lambda"):
        ms = _by_factor(_claim(registry, cid))
        assert ms[factor].not_a_violation.startswith(f"still (eps, {ratio:.3g} delta)-DP"), cid
        assert not ms[0.1].not_a_violation and not ms[0.05].not_a_violation


def test_peeling_x05_proof_is_scoped_to_quick(registry):
    # at full the same bound exceeds delta on two s = 2 instances: the text must say so
    full = _peeling_ratio_mpmath(0.5, ("full",))
    assert full == pytest.approx(2.390, rel=1e-3)
    text = _by_factor(_claim(registry, "hu.thm6.privacy"))[0.5].not_a_violation
    assert "quick instances" in text and f"{full:.3g} delta" in text
    assert all(not m.not_a_violation for m in _claim(registry, "hu.thm8.privacy.printed").mutants)


def test_proof_numbers_are_finite_at_extreme_parameters():
    # tiny and huge per-round losses: no NaN or inf
    for eps_list in ([1e-300] * 3, [700.0, 1e-300], [1e300]):
        d = sparse.rr_product_delta(eps_list, 0.5)
        assert np.isfinite(d) and 0.0 <= d <= 1.0
    # private: _thm1_diameter_proof, _rr_grid, _split_of: the proofs are recomputed on the
    #   checks' own grids
    assert re.match(r"still", frank_wolfe._thm1_diameter_proof(0.5))


# ------------------------------------------------------------------------------ Lemma 2, printed split


def _lemma2_pure_ratio(factor, quick):
    from proofs_checks.claim_sets.proof_identities.lemma2 import _rr_grid, _split_of

    split = _split_of("printed")
    eg, dg, tg = _rr_grid(quick)
    points = [(float(e), d, t) for e in eg for d in dg for t in tg]
    # the Laplace check's grid (both profiles): eps in (0.5, 0.999), delta in (1e-3, 1e-6, 1e-9), T up to 1000
    points += [(e, d, t) for e in (0.5, 0.999) for d in (1e-3, 1e-6, 1e-9) for t in (1, 10, 100, 1000)]
    return max(rr_composition_delta(factor * split(e, d, t)[0], t, e) / d for e, d, t in points)


@pytest.mark.parametrize("factor", [2.0, pytest.param(1.25, marks=pytest.mark.slow)])
@pytest.mark.parametrize("quick", [True, pytest.param(False, marks=pytest.mark.slow)])
def test_lemma2_printed_mutants_are_no_violation(registry, factor, quick):
    # rr_composition_delta (log-space binomial sum, cross-checked against mpmath in test_composition) over the
    # grids of both Lemma 2 checks; quick grid 0.015555 at x2 (T = 1e4), full 0.015559 (T = 1e6)
    from proofs_checks.claim_sets.proof_identities import LEMMA2_PRINTED_PURE

    bound = LEMMA2_PRINTED_PURE[factor][0]
    ratio = _lemma2_pure_ratio(factor, quick)
    assert ratio <= bound and ratio > 0.99 * bound
    # the total 1 - (1 - delta/T)^T (1 - delta_RR) <= delta + delta_RR stays below the claimed 2 delta
    assert (1.0 + bound) / 2.0 < 1.0
    for cid in ("proofs.002.lemma2.exact-rr.printed", "proofs.002.lemma2.exact-laplace.printed"):
        text = _by_factor(_claim(registry, cid))[factor].not_a_violation
        assert f"delta_RR <= {bound:.4g} delta" in text, cid
    assert all(not m.not_a_violation for m in _claim(registry, "proofs.002.lemma2.exact-rr.standard").mutants)


# ------------------------------------------------------------------------- 000, Algorithms 1 and 2


def test_wang_xu_per_record_terms_lie_in_minus_k_eps_to_zero():
    # the proof's ingredient: each record's log-weight contribution lies in [-k eps, 0], extremes included
    from reference.wang_xu.l1_regression import EXPONENT_FACTORS, make_mechanism

    rng = np.random.default_rng(0)
    recs = np.vstack(
        [
            rng.standard_t(1.5, size=(50, 3)) * 10.0 ** rng.uniform(-3, 3, size=(50, 1)),
            [[1e300, -1e300, 1e300], [1e-300, 0.0, -5e-324], [0.0, 0.0, 0.0]],
        ]
    )
    for alg, theta in ((1, None), (2, 1.1)):
        for variant, k in EXPONENT_FACTORS.items():
            eps = 3.0
            kw = {} if theta is None else {"theta": theta}
            mech = make_mechanism(alg, variant=variant, epsilon=eps, dim=2, zeta=0.5, iota=0.7, **kw)
            t = mech.score_terms(recs)
            assert np.all(np.isfinite(t)) and t.max() <= 0.0 and t.min() >= -k * eps * (1 + 1e-15)


@pytest.mark.parametrize("alg", [1, 2])
def test_wang_xu_mutants_no_violation_exactly_where_the_loss_stays_within_eps(registry, alg):
    from reference.wang_xu.l1_regression import EXPONENT_FACTORS

    marked = {}
    for variant, k in EXPONENT_FACTORS.items():
        for relation, suffix, a in (("replace-one", "", 2 * k), ("add-remove", ".add-remove", k)):
            for m in _claim(registry, f"wang-xu.alg{alg}.privacy.{variant}{suffix}").mutants:
                assert bool(m.not_a_violation) == (a * m.factor <= 1.0), (variant, relation, m.name)
                if m.not_a_violation:
                    assert m.not_a_violation.startswith(
                        f"still eps-DP on every {relation} pair: the loss is at most {a * m.factor:g} eps"
                    )
                    marked.setdefault(f"{variant}{suffix}", []).append(m.factor)
    # the brief's list: standard (x1.25, x2), standard add/remove (up to x4), calibrated add/remove (x1.25, x2)
    assert marked == {
        "standard": [1.25, 2.0],
        "standard.add-remove": [1.25, 2.0, 4.0],
        "calibrated.add-remove": [1.25, 2.0],
    }


@pytest.mark.slow
@pytest.mark.parametrize("cid", ["proofs.002.lemma2.exact-rr.printed", "proofs.002.lemma2.exact-laplace.printed"])
def test_lemma2_printed_checks_refute_per_round_epsilon_x3(registry, cid):
    # measured at quick: exact-rr 7.9e3, exact-laplace 7.7 (x2, x1.25: proven no violation above)
    from dataclasses import replace

    from proofs_checks.model import CheckContext
    from proofs_checks.runner import run_claim

    claim = _claim(registry, cid)
    m = _by_factor(claim)[3.0]
    assert not m.not_a_violation
    assert run_claim(replace(claim, check=m.check, mutants=()), CheckContext(profile="quick")).verdict == "refuted"


# ---------------------------------------------------------------- 004, Theorem 1-2 composition accounting


@pytest.mark.parametrize(
    "cid, per_guess, target, accounting, delta_ratio",
    [
        # recomputed from the check's own rows (exact per-learner deltas, basic composition), noise x0.8
        ("arora.thm1.privacy.composition", 2, 1.0, "sequential", 0.621),
        ("arora.thm1.privacy.parallel", 2, 0.5, "parallel", 1.0),  # the Assumption-1 failure alone is delta/2
        ("arora.thm2.privacy", 1, 1.0, "parallel", 0.519),
    ],
)
def test_composition_noise_x08_is_no_violation(registry, cid, per_guess, target, accounting, delta_ratio):
    from proofs_checks.claim_sets.arora.grid_search import composition_rows

    rows = list(composition_rows(0.8, per_guess=per_guess, target=target, accounting=accounting))
    d = max(w["delta_total"] for _, w in rows) / (target * 1e-5)
    e = max(w["epsilon_total"] for _, w in rows) / target
    assert d == pytest.approx(delta_ratio, abs=5e-4) and d <= 1.0 and e <= 1.0
    # x0.5 breaks the target somewhere: no proof
    assert max(v for v, _ in composition_rows(0.5, per_guess=per_guess, target=target, accounting=accounting)) > 1.0
    ms = _by_factor(_claim(registry, cid))
    assert f"{d:.3g} target delta" in ms[0.8].not_a_violation
    assert not ms[0.5].not_a_violation and not ms[0.9].not_a_violation


def test_printed_gem_step_sensitivity_halved_is_proven_no_violation_on_the_checks_instances():
    """[004 Alg. 1 step 8] as printed declares Delta(B_j) for an average over S2: x f stays a valid sensitivity bound
    while f >= 1/|S2|; the check's S2 are 20 (quick) and 100 (full) records (split_in_two of 40 / 200)."""
    import numpy as np

    from proofs_checks.claim_sets.arora import grid_configs
    from proofs_checks.registry import default_registry
    from reference.arora.model_selection import split_in_two

    for profile in ("quick", "full"):
        for *_, n, _K in grid_configs(profile):
            S1, S2 = split_in_two(np.zeros((n, 2)))
            assert S2.shape[0] >= 2
    mutants = {m.factor: m for m in default_registry().claim("arora.thm1.privacy.gem-step.printed").mutants}
    assert "|S2| >= 2" in mutants[0.5].not_a_violation and "|S2| >= 2" in mutants[0.8].not_a_violation
    assert mutants[0.02].not_a_violation == ""
    standard = {m.factor: m for m in default_registry().claim("arora.thm1.privacy.gem-step").mutants}
    assert standard[0.25].not_a_violation == ""  # x0.5, x0.8: branch and bound, tests/test_power_reach_gem_step.py


def test_lemma2_split_x125_stays_within_by_dwork_roth_on_both_grids():
    """The number of primitives.composition.lemma2's x1.25 proof is the check's own observed value (Dwork & Roth
    Thm. 3.20 on the 1,120-point grid, the same at quick and full)."""
    from proofs_checks.model import CheckContext
    from proofs_checks.registry import default_registry

    mutants = {m.factor: m for m in default_registry().claim("primitives.composition.lemma2").mutants}
    assert "0.6244 eps" in mutants[1.25].not_a_violation and mutants[2.0].not_a_violation == ""
    for profile in ("quick", "full"):
        r = mutants[1.25].check(CheckContext(profile=profile))
        assert r.verdict == "confirmed" and round(r.observed, 4) == 0.6244
        assert r.evidence["evaluations"] == 1120
