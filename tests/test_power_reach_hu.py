"""Reach of the audit.* claims of 002, 000 and the primitives: each mutant decided.

A mutant marked ``not_a_violation`` must provably still satisfy its claim on every replace-one pair:
these tests recompute each proof's numbers from the reference implementation (closed forms, no
sampling) and check the ingredients the proof relies on (the instance's parameters, the ranges of
the per-record terms), plus the plumbing that carries the marks to ``power`` and the report.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from proofs_checks.audit_claims import audit_mutants, resolve_mechanism
from proofs_checks.model import Algorithm, CheckContext, Claim, Mutant, Result
from proofs_checks.registry import default_registry
from proofs_checks.report import verdict_line
from reference.hu.frank_wolfe import fw_step_sizes, lasso_epsilon_step, lasso_sensitivity
from reference.hu.sparse import iht_lambda
from reference.mechanisms.peeling import peeling_scale, peeling_support_log_prob
from tests._audit_records import audit_record, audit_records

DELTA = 1e-5


@pytest.fixture(scope="module")
def registry():
    return default_registry()


def _claim(registry, cid):
    return next(c for c in registry.select([cid]) if c.id == cid)


def _number(text):
    """The first 'still (B eps' bound of a not_a_violation text."""
    return float(re.match(r"still \(([0-9.]+) eps", text).group(1))


# ----------------------------------------------------------------------------------------- plumbing


def test_audit_mutants_carry_reach_and_reject_unknown_keys():
    from proofs_checks.audit.primitive_mechanisms import laplace_factory

    lap = Algorithm(
        "laplace", "[002 Def. 2]", "Laplace", mechanism=laplace_factory, privacy_knob=("Laplace scale", -1.0)
    )
    ms = audit_mutants(lap, "standard", multipliers=(2.0, 1.25), reach={2: {"not_a_violation": "proof"}})
    assert [(m.not_a_violation, m.out_of_reach) for m in ms] == [("proof", ""), ("", "")]
    with pytest.raises(TypeError, match="reach\\[2\\]"):
        audit_mutants(lap, "standard", multipliers=(2.0,), reach={2.0: {"why": "x"}})
    with pytest.raises(ValueError, match="not among multipliers"):
        audit_mutants(lap, "standard", multipliers=(2.0,), reach={4.0: {"out_of_reach": "x"}})


def test_verify_power_share_leaves_out_proven_non_violations_and_the_report_names_them():
    # private: _claim_power: verify's power record of a claim (the report's power field) is the subject
    from proofs_checks.commands.verify import _claim_power

    ok = lambda ctx: Result("confirmed")  # noqa: E731
    bad = lambda ctx: Result("refuted")  # noqa: E731
    claim = Claim(
        "toy.reach",
        "[002 Alg. 4]",
        "s",
        "privacy",
        ok,
        mutants=(
            Mutant("scale x0.5 (2x over-spend)", ok, factor=0.5, not_a_violation="proof"),
            Mutant("scale x0.1 (10x over-spend)", bad, factor=0.1),
            Mutant("scale x0.03 (30x over-spend)", ok, factor=1 / 30, out_of_reach="oracle"),
        ),
    )
    power = _claim_power(claim, CheckContext(), Result("confirmed"))
    assert power["share"] == 0.5 and power["mutants"] == 3
    assert power["not_violations"] == ["scale x0.5 (2x over-spend)"]
    assert power["out_of_reach"] == ["scale x0.03 (30x over-spend)"]
    line = verdict_line({"verdict": "inconclusive", "power": power})
    assert "not violations (no sound check can catch them): scale x0.5" in line
    assert line.endswith("(out of reach at this profile: scale x0.03 (30x over-spend))")


def test_registered_audit_claims_carry_the_reach_of_audit_power(registry):
    for record in registry.audit_records:
        claim = _claim(registry, record.claim_id)
        for m in claim.mutants:
            mult = float(re.search(r"\(([0-9.]+)x over-spend\)", m.name).group(1))
            why = record.reach.get(mult, {})
            assert m.not_a_violation == why.get("not_a_violation", "")
            assert m.out_of_reach == why.get("out_of_reach", "")


# ------------------------------------------------------------------------------- hu-2: FW LASSO


@pytest.mark.parametrize("variant", ["printed", "lemma2", "standard"])
def test_hu2_mutants_are_proven_private_by_pure_composition(registry, variant):
    mech, alg, _, eps, delta = resolve_mechanism("hu-2", variant, registry=registry)
    assert (eps, delta) == (1.0, DELTA)
    # The instance the proof describes: T = 2, K = 1, d = 2, w0 = 0, unit-l1-ball vertices, step sizes <= 1
    assert (mech.T, mech.K, mech.d, mech.sensitivity) == (2, 1.0, 2, None)
    assert np.all(mech.w0 == 0) and np.allclose(np.abs(mech.vertices).sum(axis=1), 1.0)
    etas = fw_step_sizes(mech.T, mech.step_size)
    assert np.all((etas > 0) & (etas <= 1))
    assert lasso_sensitivity(mech.vertices, mech.K, 10) == pytest.approx(8 * mech.K**2 / 10, rel=1e-15)
    claim = _claim(registry, f"audit.hu-2.{variant}")
    for m in (2.0, 1.25):
        mut = next(x for x in claim.mutants if f"({m:g}x over-spend)" in x.name)
        bound = 2 * lasso_epsilon_step(m * eps, delta, mech.T, variant)  # pure composition of T = 2 steps
        assert bound <= eps
        assert _number(mut.not_a_violation) == pytest.approx(bound, abs=1e-4)


def test_hu2_step_score_moves_by_at_most_its_sensitivity_on_extreme_pairs(registry):
    """The proof's sensitivity: the score of a step moves by <= 8 K^2 / n for any replaced record, any ||w||_1 <= 1."""
    mech, *_ = resolve_mechanism("hu-2", "standard", registry=registry)
    rng = np.random.default_rng(0)
    n = 5
    corners = np.array([[a, b, c] for a in (-1, 1) for b in (-1, 1) for c in (-1, 1)], dtype=float) * 3.0
    data = rng.standard_t(1.5, size=(n, 3))
    worst = 0.0
    for w in (np.zeros(2), np.array([1.0, 0.0]), np.array([-0.5, 0.5]), np.array([0.0, -1.0])):
        step = mech.step(w, n)
        for r_old, r_new in [(a, b) for a in corners for b in corners]:
            d2 = data.copy()
            d2[0] = r_old
            d3 = data.copy()
            d3[0] = r_new
            diff = step.score_terms(d2).sum(axis=0) - step.score_terms(d3).sum(axis=0)
            # score_terms are eps_step u / (2 Delta_u): back to the score scale
            worst = max(worst, np.max(np.abs(diff)) * 2 * step.delta_u / mech.epsilon_step)
    assert worst <= 8 * mech.K**2 / n * (1 + 1e-12)
    assert worst >= 0.99 * 8 * mech.K**2 / n  # attained (x = +-K, y = -+K, w at a vertex)


# --------------------------------------------------------------------------------- Peeling, hu-4


def _peeling_bound(m, s, sens_over_lam):
    lam = 1.0
    b = peeling_scale(s, m * 1.0, DELTA, lam)
    return s * 2 * sens_over_lam * lam / b


@pytest.mark.parametrize(
    "cid, sens_over_lam", [("audit.peeling.standard", 1.0), ("audit.hu-4.standard", 1 / (math.sqrt(2) + 1))]
)
def test_peeling_mutants_are_proven_private_by_report_noisy_max_rounds(registry, cid, sens_over_lam):
    claim = _claim(registry, cid)
    for m in (2.0, 1.25):
        mut = next(x for x in claim.mutants if f"({m:g}x over-spend)" in x.name)
        bound = _peeling_bound(m, 2, sens_over_lam)
        assert bound <= 1.0
        assert _number(mut.not_a_violation) == pytest.approx(bound, abs=1e-4)


def test_hu4_instance_and_its_sensitivity_ratio(registry):
    mech, *_ = resolve_mechanism("hu-4", registry=registry)
    data = np.zeros((6, 5))
    # private: _step: the audited mechanism's step is the instance whose sensitivity ratio is checked
    step = mech._step(data)
    assert np.all(step.w == 0) and (step.K, step.eta0, step.s) == (1.0, 0.5, 2)
    S = 2 * step.K**2 * step.eta0 / 6
    assert S / iht_lambda(step.K, step.eta0, step.s, 6) == pytest.approx(1 / (math.sqrt(2) + 1), rel=1e-14)
    # v at w = 0 moves by exactly S per coordinate for the extreme replacement
    d1, d2 = data.copy(), data.copy()
    d1[0] = [1, 1, 1, 1, 1]
    d2[0] = [1, 1, 1, 1, -1]
    assert np.max(np.abs(step.v(d1) - step.v(d2))) == pytest.approx(S, rel=1e-14)


def test_peeling_x2_exact_loss_is_below_the_proven_bound_on_worst_looking_pairs():
    """Consistency of the proof with the exact law: v and v' at l_inf distance lam, all directions."""
    lam, s, m = 1.0, 2, 2.0
    v = np.array([0.5, 0.3, -0.2])
    worst = 0.0
    for signs in ([1, -1, -1], [-1, 1, 1], [1, 1, -1]):
        v2 = v + lam * np.array(signs)
        _, lp1 = peeling_support_log_prob(v, s, m, DELTA, lam)
        _, lp2 = peeling_support_log_prob(v2, s, m, DELTA, lam)
        worst = max(worst, np.max(np.abs(lp1 - lp2)))
    assert worst <= _peeling_bound(m, s, 1.0)


# ------------------------------------------------------------------------------------- wang-xu


@pytest.mark.parametrize("a", [1, 2])
def test_wang_xu_standard_mutants_are_proven_private(registry, a):
    claim = _claim(registry, f"audit.wang-xu-{a}.standard")
    for m in (2.0, 1.25):
        mech, *_ = resolve_mechanism(f"wang-xu-{a}", "standard", registry=registry, privacy_multiplier=m)
        k = m * 1.0 / 4
        # every record's log-weight term lies in [-k, 0]: extreme and ordinary records
        recs = np.array([[0.0, 0.0], [1e300, -1e300], [1e-300, 5.0], [-3.0, 2.0], [0.5, 0.5]])
        terms = mech.score_terms(recs)
        assert np.all(terms <= 0) and np.all(terms >= -k * (1 + 1e-12))
        assert terms.min() == pytest.approx(-k, rel=1e-9)  # the range is attained
        mut = next(x for x in claim.mutants if f"({m:g}x over-spend)" in x.name)
        assert 2 * k <= 1.0
        assert _number(mut.not_a_violation) == pytest.approx(2 * k, abs=1e-4)


def test_no_not_a_violation_mark_without_its_recomputation():
    """Every proven mark of an audit record is one of those recomputed above or in test_power_reach_arora (a new one
    needs its test)."""
    marked = {
        (cid, m) for cid, e in audit_records().items() for m, why in e.reach.items() if why.get("not_a_violation")
    }
    tested = {(f"audit.hu-2.{v}", m) for v in ("printed", "lemma2", "standard") for m in (2.0, 1.25)}
    tested |= {
        (c, m)
        for c in (
            "audit.peeling.standard",
            "audit.hu-4.standard",
            "audit.wang-xu-1.standard",
            "audit.wang-xu-2.standard",
            "audit.hu-3.standard",
            "audit.hu-5.standard",
        )
        for m in (2.0, 1.25)
    }
    # recomputed in tests/test_power_reach_arora.py
    tested |= {("audit.arora-output-perturbation.standard", 1.25), ("audit.arora-noisy-gd.standard", 1.25)}
    tested |= {(f"audit.arora-grid-search.{v}", m) for v in ("printed", "standard") for m in (2.0, 1.25)}
    # hu-1 below (test_hu1_x125_proof_numbers); GEM and Gaussian in test_power_reach_primitives
    tested |= {("audit.hu-1.standard", 1.25), ("audit.gem.standard", 1.25), ("audit.gaussian.standard", 1.25)}
    assert marked <= tested, sorted(marked - tested)


# ------------------------------------------------------------------------- hu-3, hu-5: one Peeling call


def _full_peeling_bound(m, s=2):
    lam = 1.0
    return 3 * s * lam / peeling_scale(s, m * 1.0, DELTA, lam)  # s rounds at 2 lam/b + release s lam/b


@pytest.mark.parametrize("cid", ["audit.hu-3.standard", "audit.hu-5.standard"])
def test_hu3_hu5_mutants_are_proven_private_by_parallel_composition(registry, cid):
    alg_id, variant = cid.split(".")[1], cid.split(".")[2]
    mech, *_, eps, delta = resolve_mechanism(alg_id, variant, registry=registry)
    assert (eps, delta, mech.T, mech.d, mech.s, mech.lam) == (1.0, DELTA, 2, 4, 2, None)
    assert np.all(mech.w1 == 0)
    if alg_id == "hu-3":
        assert (mech.K, mech.eta0) == (1.0, 0.5)
    else:
        assert (mech.k, mech.beta, mech.eta, mech.variant) == (1.0, 1.0, 0.5, "standard")
    claim = _claim(registry, cid)
    for m in (2.0, 1.25):
        mut = next(x for x in claim.mutants if f"({m:g}x over-spend)" in x.name)
        bound = _full_peeling_bound(m)
        assert bound <= 1.0
        assert _number(mut.not_a_violation) == pytest.approx(bound, abs=1e-4)


def test_hu5_step_moves_by_at_most_lambda_on_extreme_pairs(registry):
    """The proof's premise for hu-5: the half step moves by <= lam = 4 sqrt(2) k eta / m (in fact <= lam / 3)."""
    from reference.hu.sparse import sparse_opt_half_step, sparse_opt_lambda

    mech, *_ = resolve_mechanism("hu-5", "standard", registry=registry)
    rng = np.random.default_rng(1)
    m = 4
    base = rng.standard_t(1.5, size=(m, 5))
    extremes = np.vstack(
        [rng.standard_t(1.0, size=(30, 5)) * 100, np.full((1, 5), 1e300), np.full((1, 5), -1e300), np.zeros((1, 5))]
    )
    W = np.vstack([np.zeros(4), [1.0, 0, 0, 0], [0.6, -0.8, 0, 0]])
    lam = sparse_opt_lambda(mech.k, mech.eta, m)
    worst = 0.0
    ref = None
    for r in extremes:
        D = base.copy()
        D[0] = r
        h = sparse_opt_half_step(W, D[:, :-1], D[:, -1], mech.loss, mech.k, mech.beta, mech.eta, "standard")
        if ref is not None:
            worst = max(worst, np.max(np.abs(h - ref)))
        else:
            ref = h
    # each (ref, D) is a replace-one pair (record 0): the proof's bound, a third of lam, holds and is nearly reached
    assert np.isfinite(worst) and worst <= lam / 3 * (1 + 1e-9)
    assert worst >= 0.5 * lam / 3


# ------------------------------------------------------------------- designed pairs: RNM and GEM


def _pair_loss(mech, D, Dp):
    _, a = mech.log_prob(D)
    _, b = mech.log_prob(Dp)
    return float(np.max(np.abs(a - b)))


@pytest.mark.parametrize(
    "cid, expected",
    [
        # exact laws (RNM: adaptive quadrature, rtol 1e-11; GEM: closed form), computed once when the pairs were chosen
        ("audit.report-noisy-max.standard", {1.0: 0.9826, 1.25: 1.2382, 2.0: 1.9968}),
        ("audit.gem.standard", {1.0: 0.2769, 1.25: 0.5304, 2.0: 1.3185}),
        # hu-1: exact law of w^T over all |V|^T selection paths
        ("audit.hu-1.standard", {1.0: 0.6786, 1.25: 0.8519, 2.0: 1.3653}),
    ],
)
def test_designed_pairs_are_within_epsilon_at_x1_and_beyond_it_at_x2(registry, cid, expected):
    ((D, Dp),) = audit_record(cid).pairs
    assert D.shape == Dp.shape and np.sum(np.any(D != Dp, axis=1)) == 1  # replace-one neighbours
    alg_id = cid.split(".")[1]
    for m, value in expected.items():
        mech, *_ = resolve_mechanism(alg_id, "standard", registry=registry, privacy_multiplier=m)
        assert np.array_equal(mech.log_prob(D)[0], mech.log_prob(Dp)[0])  # the same outputs, in order
        assert _pair_loss(mech, D, Dp) == pytest.approx(value, abs=1e-4)
    assert expected[1.0] <= 1.0 < expected[2.0]


def test_designed_pair_result_keeps_both_audits_in_the_evidence(registry):
    from proofs_checks.audit_claims import privacy_audit_check

    D = np.array([[1.0, 0.0, 0.0, 0.0]] + [[0.0, 1.0, 1.0, 1.0]] * 5)
    Dp = np.vstack([[0.0, 1.0, 1.0, 1.0], D[1:]])
    res = privacy_audit_check("exponential", registry=registry, privacy_multiplier=2.0, pairs=[(D, Dp)])(
        CheckContext(profile="quick").for_claim("audit.exponential.standard")
    )
    ev = res.evidence
    assert ev["designed_pairs"]["pairs"] == 1 and "epsilon_lower" in ev["search"]
    assert res.observed == max(ev["designed_pairs"]["epsilon_lower"], ev["search"]["epsilon_lower"])
    assert "designed pair" in res.method


@pytest.mark.slow
@pytest.mark.parametrize("cid", ["audit.report-noisy-max.standard", "audit.gem.standard", "audit.hu-1.standard"])
def test_designed_pairs_catch_x2_on_five_run_seeds(registry, cid):
    from dataclasses import replace

    from proofs_checks.runner import run_claim

    claim = _claim(registry, cid)
    x2 = next(m for m in claim.mutants if "(2x over-spend)" in m.name)
    for seed in (20261121, 1, 2, 3, 4):
        ctx = CheckContext(profile="quick", seed=seed)
        assert run_claim(replace(claim, mutants=()), ctx).verdict == "confirmed"
        assert run_claim(replace(claim, check=x2.check, mutants=()), ctx).verdict == "refuted"


# ------------------------------------------------------------------------------ hu-3: designed pair


def test_hu3_designed_pair_is_a_replace_one_pair_in_the_last_part(registry):
    from reference.hu.frank_wolfe import data_split

    entry = audit_record("audit.hu-3.standard")
    ((D, Dp),) = entry.pairs
    rows = np.flatnonzero(np.any(D != Dp, axis=1))
    assert rows.tolist() == [D.shape[0] - 1]
    assert rows[0] in data_split(D.shape[0], 2)[-1]
    assert entry.features(np.array([[1.0, 2.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]])).tolist() == [[3.0], [0.0]]
    claim = _claim(registry, "audit.hu-3.standard")
    res = claim.check(CheckContext(profile="quick").for_claim(claim.id))
    assert res.verdict == "inconclusive" and res.evidence["designed_pairs"]["pairs"] == 1
    assert "instead of the search" in res.method


@pytest.mark.slow
def test_hu3_designed_pair_shows_x30_violates_at_100000_calls(registry):
    """The measured reach (seeded, thresholds fixed before the run): x30 refuted, x1 lower bound 0."""
    from proofs_checks.audit.api import audit

    ((D, Dp),) = audit_record("audit.hu-3.standard").pairs
    feats = audit_record("audit.hu-3.standard").features
    for m, refuted in ((30.0, True), (1.0, False)):
        mech, *_ = resolve_mechanism("hu-3", "standard", registry=registry, privacy_multiplier=m)
        res = audit(
            mech,
            epsilon=1.0,
            delta=DELTA,
            pairs=[(D, Dp)],
            samples=100_000,
            seed=0,
            features=feats,
            method="statistical",
        )
        assert (res.verdict == "refuted") is refuted, (m, res.epsilon_lower)


def test_hu1_x125_proof_numbers():
    # a record's robust-mean term E phi(a + |a| Z) (beta = 1) stays below B (2 Phi(1) - 1) and approaches it as
    # a -> inf (grid over 200001 + 2000 points up to 1e300; the limit by the normal CDF): the selection's loss is
    # at most m x 0.682689 eps, attained by the frozen pair within 0.005 (0.6786, 0.8519, 1.3653 above)
    from scipy.special import ndtr

    from proofs_checks.claim_sets.hu.audit_records import HU1_TERM_RATIO as _HU1_RATIO
    from reference.hu.catoni import expected_phi

    B = 2 * math.sqrt(2) / 3
    limit = 2 * ndtr(1.0) - 1
    assert limit == pytest.approx(_HU1_RATIO, abs=1e-6)
    a = np.concatenate([np.linspace(1e-6, 20, 200_001), np.logspace(1.3, 300, 2000)])
    h = np.asarray(expected_phi(a, np.abs(a))) / B
    assert h.max() <= limit + 1e-12 and h[-1] == pytest.approx(limit, abs=1e-12)
    assert np.allclose(np.asarray(expected_phi(-a[:5], a[:5])), -np.asarray(expected_phi(a[:5], a[:5])))  # odd
    for m, attained in ((1.0, 0.6786), (1.25, 0.8519), (2.0, 1.3653)):
        assert attained <= m * limit + 1e-4
        assert m * limit - attained < 0.005
    text = audit_record("audit.hu-1.standard").reach[1.25]["not_a_violation"]
    assert "0.8534 eps <= eps" in text and "0.682689" in text


@pytest.mark.parametrize("alg_id", ["wang-xu-1", "wang-xu-2"])
def test_wang_xu_calibrated_designed_pair_attains_the_bound(registry, alg_id):
    # the calibrated variant's bound 2k = m eps is attained on the designed pair, so the
    # exact audit refutes x1.25 (1.25) and x2 (2.0) on every run seed and keeps x1 (0.999999) confirmed
    ((D, Dp),) = audit_record(f"audit.{alg_id}.calibrated").pairs
    assert D.shape == (32, 2) and np.flatnonzero(np.any(D != Dp, axis=1)).tolist() == [0]
    for m, value in ((1.0, 0.999999), (1.25, 1.25), (2.0, 2.0)):
        mech, *_ = resolve_mechanism(alg_id, "calibrated", registry=registry, privacy_multiplier=m)
        assert _pair_loss(mech, D, Dp) == pytest.approx(value, abs=2e-6)
    mech, *_ = resolve_mechanism(alg_id, "calibrated", registry=registry)
    assert _pair_loss(mech, D, Dp) < 1.0
