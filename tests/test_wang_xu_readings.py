"""Readings of Wang & Xu (000): both neighbouring relations, the calibrated variant, the derivation
of eqs. (14) and (26), the concentration lemmas; each check refutes a deliberately broken argument."""

import math

import pytest

# private: _args: the derivation checks' own arguments are the subject
from proofs_checks.claim_sets.wang_xu import bounds, concentration, derivations, privacy, setup_for
from proofs_checks.model import CheckContext
from proofs_checks.registry import default_registry
from reference.wang_xu.l1_regression import EXPONENT_FACTORS, exponent_factor
from reference.wang_xu.truncation import psi

CTX = CheckContext(profile="quick", seed=1)


def _run(check, cid):
    return check(CTX.for_claim(cid))


def test_every_000_privacy_claim_states_its_relation():
    reg = default_registry()
    ids = [c.id for c in reg.claims if c.id.startswith("wang-xu.") and ".privacy." in c.id]
    assert len(ids) == 26  # 12 exact + 12 gray-box + 2 add/remove with the theorems' schedule
    for cid in ids:
        assert ("add/remove" in reg.claim(cid).statement) == (".add-remove" in cid)
        assert "neighbours" in reg.claim(cid).statement


def test_calibrated_variant_spends_the_whole_budget():
    assert EXPONENT_FACTORS == {"printed": 1.0, "standard": 0.25, "calibrated": 0.5}
    assert exponent_factor(2.0, 1.5, "calibrated") == 1.0
    with pytest.raises(ValueError, match="variant"):
        exponent_factor(1.0, 2.0, "hot")


@pytest.mark.parametrize("alg", [1, 2])
def test_printed_weight_refuted_replace_one_confirmed_add_remove(alg):
    cid = f"wang-xu.alg{alg}.privacy.printed"
    rep = _run(privacy.privacy_check(alg, "printed", epsilon=1.0), cid)
    add = _run(privacy.privacy_check(alg, "printed", epsilon=1.0, relation="add-remove"), cid + ".add-remove")
    assert rep.verdict == "refuted" and 1.5 < rep.observed <= 2.0
    assert add.verdict == "confirmed" and 0.5 < add.observed <= 1.0 + 1e-12  # exactly eps-DP, nearly attained
    assert "add/remove" in add.reading and "replace-one" in rep.reading and "[000 Def. 1]" in rep.reading


def test_add_remove_check_has_power():
    # twice the printed exponent loses up to 2 eps over add/remove neighbours
    res = _run(
        privacy.privacy_check(1, "printed", epsilon=1.0, relation="add-remove", exponent_scale=2.0),
        "wang-xu.alg1.privacy.printed.add-remove",
    )
    assert res.verdict == "refuted" and res.observed > 1.5


def test_calibrated_confirmed_and_power():
    ok = _run(privacy.privacy_check(1, "calibrated", epsilon=1.0), "wang-xu.alg1.privacy.calibrated")
    assert ok.verdict == "confirmed" and 0.75 < ok.observed <= 1.0 + 1e-12  # uses (almost) the whole eps
    hot = _run(
        privacy.privacy_check(1, "calibrated", epsilon=1.0, exponent_scale=1.5), "wang-xu.alg1.privacy.calibrated"
    )
    assert hot.verdict == "refuted"


def test_privacy_check_rejects_unknown_relation():
    with pytest.raises(ValueError, match="relation"):
        privacy.privacy_check(1, relation="swap")


def test_eq14_follows_eq26_does_not():
    r14 = _run(derivations.follows_check(1), "wang-xu.thm1.eq14.follows")
    r26 = _run(derivations.follows_check(2), "wang-xu.thm2.eq26.follows")
    assert r14.verdict == "confirmed" and abs(r14.observed - 1) < 1e-12
    assert r26.verdict == "refuted"
    at_eps1 = [r["ratio"] for r in r26.evidence["rows"] if r["epsilon"] == 1.0]
    assert 1.5 < min(at_eps1) and max(at_eps1) < 1.7
    # At eps <= log(theta) the doubled mechanism term absorbs the dropped one: (26) then follows.
    assert all(r["ratio"] < 1 for r in r26.evidence["rows"] if r["epsilon"] == 0.1)


def test_derivation_check_has_power():
    s = setup_for(1)
    halved = derivations.follows_check(
        1, printed=lambda st, n, e: 0.5 * bounds.eq14_from_premises(*derivations._args(st, n, e))
    )
    assert _run(halved, "wang-xu.thm1.eq14.follows").verdict == "refuted"
    self_sum = derivations.follows_check(
        2, printed=lambda st, n, e: bounds.eq26_derived(st.theta, *derivations._args(st, n, e))
    )
    assert _run(self_sum, "wang-xu.thm2.eq26.follows").verdict == "confirmed"
    assert s.theta == 2.0


def test_eq26_terms_by_hand():
    # theta = 1.5, iota = 0.25, n = 100, eps = 1, zeta = 0.01, tau = 1, N = 201, eta = 0.1, M = 2 (by hand)
    th, n, e, z, io, tau, N, eta, M = 1.5, 100, 1.0, 0.01, 0.25, 1.0, 201, 0.1, 2.0
    lg = math.log(N / eta)
    a, b = io**0.5 / th, (2 * io) ** 0.5 / th
    printed = 3 * z * tau + 2 * b * M + 2 * b * z**th * tau**th + 8 * math.log(th) * lg / (n * io * e)
    derived = (
        3 * z * tau
        + (2 * a + b) * M
        + 2 * b * z**th * tau**th
        + 4 * lg / (n * io)
        + 4 * math.log(th) * lg / (n * io * e)
    )
    assert bounds.eq26_printed(th, n, e, z, io, tau, N, eta, M) == pytest.approx(printed, rel=1e-14)
    assert bounds.eq26_derived(th, n, e, z, io, tau, N, eta, M) == pytest.approx(derived, rel=1e-14)
    with pytest.raises(ValueError, match="reading"):
        bounds.eq26_derived(th, n, e, z, io, tau, N, eta, M, reading="other")


SMALL = {"cases": [(100, 1.0), (400, 4.0)], "datasets": 40}


@pytest.mark.slow
@pytest.mark.parametrize(
    "lemma, verdict", [(4, "confirmed"), (5, "confirmed"), (7, "vacuous"), (8, "confirmed"), (10, "confirmed")]
)
def test_concentration_lemmas_hold(lemma, verdict):
    res = _run(concentration.concentration_check(lemma, **SMALL), f"wang-xu.lemma{lemma}.concentration")
    assert res.verdict == verdict and res.observed == 1.0
    assert res.evidence["largest_deviation_over_allowed"] < 1


@pytest.mark.slow
def test_lemma7_is_vacuous_even_for_a_psi_near_zero():
    # Lemma 7's lower bound lies below 0 <= L-hat on the whole net at these parameters: nothing breaks it.
    res = _run(
        concentration.concentration_check(7, psi_fn=lambda x, t: 0.0 * psi(x, t), **SMALL),
        "wang-xu.lemma7.concentration",
    )
    assert res.verdict == "vacuous"


@pytest.mark.slow
@pytest.mark.parametrize("lemma, scale", [(4, 0.05), (5, 20.0), (8, 20.0)])
def test_concentration_check_has_power(lemma, scale):
    def broken(x, theta):  # a psi scaled down (lower-bound lemmas) or up (upper-bound lemmas)
        return scale * psi(x, theta)

    res = _run(concentration.concentration_check(lemma, psi_fn=broken, **SMALL), f"wang-xu.lemma{lemma}.concentration")
    assert res.verdict == "refuted", res.evidence["largest_deviation_over_allowed"]


def test_findings_cite_registered_claims():
    reg = default_registry()
    ids = {c.id for c in reg.claims}
    found = [f for f in reg.findings if f.paper == "000"]
    assert {f.id for f in found} >= {"000.printed-weight", "000.eq26-derivation"}
    for f in found:
        assert set(f.claims) <= ids and f.reading and f.summary and "[000 " in f.reading


@pytest.mark.slow
def test_error_split_reports_both_terms_and_has_power():
    from proofs_checks.claim_sets.wang_xu import error_split

    small = {"cases": [(400, 4.0)], "datasets": 4}
    res = _run(error_split.error_split_check(1, **small), "wang-xu.alg1.error-split")
    assert res.verdict == "confirmed"  # Lemma 6's bound 1.05 < largest excess 1.30 over W: not vacuous
    case = res.evidence["cases"][0]
    assert case["statistical_term_quantile"] < case["mechanism_term_printed_quantile"]
    zero = error_split.error_split_check(1, bound=lambda s, n, e: 0.0, **small)
    assert _run(zero, "wang-xu.alg1.error-split").verdict == "refuted"
