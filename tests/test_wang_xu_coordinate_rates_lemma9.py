"""Wang & Xu (000): the per-coordinate rates (8) and (19), and Lemma 9.

Each new check is run on the implementation and on its declared mutants (Claim.mutants); the
reference values are closed forms derived in the module docstrings (exponents of n in the bound over
the stated rate), re-derived here by hand.
"""

import math

import numpy as np
import pytest

from proofs_checks.claim_sets.wang_xu import assumptions as A
from proofs_checks.claim_sets.wang_xu import bounds, lemma9
from proofs_checks.model import CheckContext
from proofs_checks.registry import default_registry

CTX = CheckContext(profile="quick", seed=20261121)


@pytest.fixture(scope="module")
def registry():
    return default_registry()


def _run(check, cid):
    return check(CTX.for_claim(cid))


def test_eq26_log_form_matches_bounds_module():
    # the log-N form of (26) used for large d agrees with bounds.eq26_printed / eq26_derived (identity)
    theta, n, eps, iota, tau, N, eta, M = 1.5, 400, 1.0, 0.01, 2.0, 801, 0.1, 3.0
    lg = math.log(N / eta)
    # private: _eq26_log: the log form of (26) used for large d is the subject
    got_p = A._eq26_log(theta, n, eps, iota, tau, lg, M, "printed")
    got_d = A._eq26_log(theta, n, eps, iota, tau, lg, M, "derived")
    assert got_p == pytest.approx(bounds.eq26_printed(theta, n, eps, 1 / n, iota, tau, N, eta, M), rel=1e-12)
    assert got_d == pytest.approx(bounds.eq26_derived(theta, n, eps, 1 / n, iota, tau, N, eta, M), rel=1e-12)


def test_eq8_follows_and_refutes_its_mutants(registry):
    claim = registry.claim("wang-xu.thm1.eq8.follows")
    res = _run(claim.check, claim.id)
    assert res.verdict == "confirmed" and res.observed <= A.SLOPE_TOL
    for m in claim.mutants:
        if m.name.startswith("iota exponent 0.45"):
            continue
        assert _run(m.check, claim.id).verdict in m.detected_by, m.name
    # iota of (7) puts sqrt(d) into the iota M term: bound/rate grows like d^(1/2)
    assert _run(A.follows_check(8, "eq7"), claim.id).observed == pytest.approx(0.5, abs=0.01)
    # resolution: exponent 0.4 (slope 0.1) caught, 0.45 (slope 0.05, the limit) missed
    assert _run(A.follows_check(8, "exponent=0.4"), claim.id).observed == pytest.approx(0.1, abs=0.005)
    assert _run(A.follows_check(8, "exponent=0.45"), claim.id).verdict == "confirmed"


def test_eq19_printed_iota_refuted_with_the_predicted_slope(registry):
    # with iota ~ (n eps)^(-(theta-1)/theta) the term iota^(theta-1) d tau^theta decays like
    # (n eps)^(-(theta-1)^2/theta): bound/rate grows like n^((theta-1)(2-theta)/theta), 1/6 at theta = 1.5
    claim = registry.claim("wang-xu.thm2.eq19.follows")
    res = _run(claim.check, claim.id)
    assert res.verdict == "refuted"
    assert res.evidence["worst"]["theta"] == 1.5
    assert res.observed == pytest.approx(1 / 6, abs=0.01)
    (m,) = claim.mutants
    assert _run(m.check, claim.id).verdict == "confirmed"


def test_eq19_balanced_confirmed_and_refutes_its_mutants(registry):
    claim = registry.claim("wang-xu.thm2.eq19.follows.balanced")
    assert _run(claim.check, claim.id).verdict == "confirmed"
    for m in claim.mutants:
        assert _run(m.check, claim.id).verdict == "refuted", m.name


def test_eq19_balanced_iota_is_o_of_the_printed_one():
    # reading B: iota ~ (n eps)^(-1/theta) is O((n eps)^(-(theta-1)/theta)) since 1/theta > (theta-1)/theta
    n = np.logspace(6, 16, 11)
    for theta in A.THETAS:
        r = A.iota_of(19, n, 1, 1.0, theta, "balanced") / A.iota_of(19, n, 1, 1.0, theta, "printed")
        assert np.all(np.diff(r) < 0) and r[0] <= 1


def test_lemma9_allowed_matches_the_printed_terms():
    setup = lemma9.setup_for(2)
    n, iota, zeta, N, eta, M = 100, 0.05, 0.01, 201, 0.1, 2.0
    th, tau = setup.theta, setup.tau
    b = (2 * iota) ** (th - 1) / th
    want = 2 * zeta * tau + b * M + b * zeta**th * tau**th + math.log(N / eta) / (n * iota)
    assert lemma9.lemma9_allowed(setup, n, iota, zeta, N, eta, M) == pytest.approx(want, rel=1e-14)


def test_lemma9_minimiser_is_global_on_a_fine_grid():
    rng = np.random.default_rng(3)
    setup = lemma9.setup_for(2)
    data = setup.model.sample(300, rng)
    x, y = data[:, 0], data[:, 1]
    grid = np.linspace(-1, 1, lemma9.GRID)
    w, val = lemma9.minimise_1d(lemma9.psi, setup.theta, x, y, 0.01, grid)
    fine = np.linspace(-1, 1, 4001)
    # private: _risk, _scaled_psi: the check's plain risk and its broken psi are the reference and the mutant
    assert val <= lemma9._risk(lemma9.psi, setup.theta, x, y, 0.01, fine).min() + 1e-9


def test_lemma9_confirmed_and_its_mutant_refuted():
    cases, cid = [(2000, 1.0, 1.0)], "wang-xu.lemma9.concentration"
    res = _run(lemma9.lemma9_check(cases=cases, datasets=6, table_spacing=0.02), cid)
    assert res.verdict in ("confirmed", "inconclusive")  # 6 datasets cannot confirm at 0.9 with 0.95 confidence
    assert res.evidence["cases"][0]["held"] == 6 and not res.evidence["cases"][0]["vacuous"]
    broken = lemma9.lemma9_check(
        psi_fn=lemma9._scaled_psi(0.25), minimiser="worst", cases=cases, datasets=6, table_spacing=0.02
    )
    assert _run(broken, cid).verdict == "refuted"


def test_lemma9_declares_its_mutant(registry):
    claim = registry.claim("wang-xu.lemma9.concentration")
    assert [m.name for m in claim.mutants] == ["w-hat replaced by the worst point of W, psi x0.25"]


@pytest.mark.slow
def test_lemma9_full_claim_confirmed(registry):
    claim = registry.claim("wang-xu.lemma9.concentration")
    assert _run(claim.check, claim.id).verdict == "confirmed"
    (m,) = claim.mutants
    assert _run(m.check, claim.id).verdict == "refuted"
