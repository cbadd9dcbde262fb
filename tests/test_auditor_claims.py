"""zCDP, Renyi-DP and mu-GDP claims: the divergences against independent references, and the audits' power.

References used: mpmath (50 digits) for the two-point and Laplace Renyi divergences and the GDP profile; Google's
dp-accounting 0.6 for the Gaussian's and randomized response's Renyi divergences (its RDP accountant's own
formulas); a brute-force maximum over all events for the exact mu of finite laws.
"""

from __future__ import annotations

import itertools
import math

import mpmath
import numpy as np
import pytest
from scipy.special import ndtri

from proofs_checks.audit.calibration import GaussianCount, LaplaceCount, RandomizedResponse
from proofs_checks.audit.claim_audit import audit_claim
from proofs_checks.audit.claim_types import GDPClaim, RenyiClaim, ZCDPClaim, parse_claim
from proofs_checks.audit.gdp import gdp_delta, law_gdp, mu_from_curve
from proofs_checks.audit.renyi import binary_renyi, binary_renyi_array, density_renyi, law_renyi

rdp = pytest.importorskip("dp_accounting.rdp.rdp_privacy_accountant")
# private: _compute_randomized_response_rdp, _compute_rdp_poisson_subsampled_gaussian: dp-accounting's own RDP
# formulas are the independent reference, and it exposes them only under these names
# private: _directed_law_gdp: one direction of law_gdp is the mutant the brute-force test must tell apart
mpmath.mp.dps = 50

ALPHAS = (1.5, 2.0, 8.0, 32.0)


def _mp_binary(p, q, a):
    p, q, a = mpmath.mpf(p), mpmath.mpf(q), mpmath.mpf(a)
    return float(mpmath.log(p**a * q ** (1 - a) + (1 - p) ** a * (1 - q) ** (1 - a)) / (a - 1))


@pytest.mark.parametrize("p,q", [(0.75, 0.25), (0.3, 0.01), (1e-6, 1e-9), (0.999, 0.5)])
@pytest.mark.parametrize("a", ALPHAS)
def test_binary_renyi_matches_mpmath(p, q, a):
    ref = _mp_binary(p, q, a)
    assert binary_renyi(p, q, a) == pytest.approx(ref, rel=1e-12, abs=1e-15)
    assert binary_renyi_array([p], [q], a)[0] == pytest.approx(ref, rel=1e-12, abs=1e-15)


def _rr_laws(eps):
    mech = RandomizedResponse(true_eps=eps)
    D, Dp = mech.pair()
    (out_a, lp), (out_b, lq) = mech.log_prob(D), mech.log_prob(Dp)
    assert np.array_equal(out_a, out_b)
    return np.asarray(lp), np.asarray(lq)


@pytest.mark.parametrize("eps", [0.5, 1.0, 2.0])
def test_law_renyi_of_randomized_response_matches_dp_accounting(eps):
    lp, lq = _rr_laws(eps)
    noise = 2.0 / (1.0 + math.exp(eps))  # keep-probability e^eps/(1+e^eps) = 1 - noise/2 with 2 buckets
    ref = rdp._compute_randomized_response_rdp(noise, 2, list(ALPHAS), rdp.NeighborRel.REPLACE_ONE)
    got = [law_renyi(lp, lq, a) for a in ALPHAS]
    np.testing.assert_allclose(got, ref, rtol=1e-10)


@pytest.mark.parametrize("sigma", [0.7, 1.0, 3.0])
def test_density_renyi_of_gaussian_matches_dp_accounting(sigma):
    mech = GaussianCount(sigma)
    D, Dp = mech.pair()
    orders = [1.25, 2.0, 8.0, 64.0]
    ref = rdp._compute_rdp_poisson_subsampled_gaussian(1.0, sigma, orders)  # alpha / (2 sigma^2)
    got = [
        density_renyi(
            lambda x: mech.log_density(D, x[:, None]), lambda x: mech.log_density(Dp, x[:, None]), a, [0.0, 1.0]
        )
        for a in orders
    ]
    np.testing.assert_allclose(got, ref, rtol=1e-9)


@pytest.mark.parametrize("scale", [0.5, 1.0, 4.0])
def test_density_renyi_of_laplace_matches_mpmath_closed_form(scale):
    lp = lambda x: -np.abs(x) / scale - math.log(2 * scale)  # noqa: E731
    lq = lambda x: -np.abs(x - 1.0) / scale - math.log(2 * scale)  # noqa: E731
    for a in ALPHAS:
        am, b = mpmath.mpf(a), mpmath.mpf(scale)
        ref = mpmath.log(am / (2 * am - 1) * mpmath.exp((am - 1) / b) + (am - 1) / (2 * am - 1) * mpmath.exp(-am / b))
        assert density_renyi(lp, lq, a, [0.0, 1.0]) == pytest.approx(float(ref / (am - 1)), rel=1e-9)


def _brute_mu(p, q):
    best = 0.0
    for mask in itertools.product([False, True], repeat=p.size):
        m = np.array(mask)
        if m.all():  # the whole output set: P = Q = 1 up to rounding, no test
            continue
        for a, b in ((p, q), (q, p)):
            ps, qs = a[m].sum(), b[m].sum()
            if ps > qs:
                best = max(best, float(ndtri(min(ps, 1.0)) - ndtri(min(qs, 1.0))))
    return best


def test_law_gdp_equals_the_brute_force_maximum_over_events_and_tells_a_one_direction_mutant():
    rng = np.random.default_rng(5)
    one_direction_differs = False
    for _ in range(30):
        p, q = rng.dirichlet(np.ones(6)), rng.dirichlet(np.ones(6))
        got = law_gdp(np.log(p), np.log(q))
        assert got == pytest.approx(_brute_mu(p, q), rel=1e-9, abs=1e-9)
        from proofs_checks.audit.gdp import _directed_law_gdp

        mutant = _directed_law_gdp(np.log(p), np.log(q), 0.0)  # one direction only
        one_direction_differs |= abs(mutant - got) > 1e-6
    assert one_direction_differs


def test_gdp_profile_matches_mpmath_and_mu_from_curve_inverts_it():
    for eps, mu in [(0.0, 1.0), (1.0, 0.5), (2.0, 2.0)]:
        e, m = mpmath.mpf(eps), mpmath.mpf(mu)
        ref = mpmath.ncdf(-e / m + m / 2) - mpmath.exp(e) * mpmath.ncdf(-e / m - m / 2)
        assert gdp_delta([eps], mu)[0] == pytest.approx(float(ref), rel=1e-10)
    grid = [0.0, 0.5, 1.0, 2.0]
    assert mu_from_curve(grid, gdp_delta(grid, 1.3)) == pytest.approx(1.3, rel=1e-9)


def test_gdp_profile_and_mu_from_curve_keep_the_callers_order():
    # each delta belongs to its own epsilon: an unsorted grid with a repeat is answered point by point, and pairing
    # deltas with a re-sorted grid (a larger delta moved to a larger epsilon) would overstate mu
    grid = [2.0, 0.0, 1.0, 0.0, 5e-324, 1e300]
    values = gdp_delta(grid, 1.0)
    assert values.tolist() == [gdp_delta([e], 1.0)[0] for e in grid]
    assert values[2] < values[1] and values[5] == 0.0
    deltas = gdp_delta([1.0, 0.5], 0.8)
    assert mu_from_curve([1.0, 0.5], deltas) == pytest.approx(0.8, rel=1e-9)
    assert mu_from_curve([0.5, 1.0], deltas[::-1]) == pytest.approx(0.8, rel=1e-9)


def test_parse_claim_and_bad_claims():
    assert parse_claim("zcdp:0.5") == ZCDPClaim(0.5)
    assert parse_claim("renyi:2:1") == RenyiClaim(2.0, 1.0)
    assert parse_claim("gdp:1") == GDPClaim(1.0)
    for text, needle in [
        ("dp:1", "unknown type"),
        ("renyi:2", "expected renyi:ALPHA:EPS"),
        ("zcdp:a", "numbers"),
        ("zcdp:-1", "rho"),
        ("renyi:1:1", "alpha"),
        ("gdp:inf", "mu"),
    ]:
        with pytest.raises(ValueError, match=needle):
            parse_claim(text)
    with pytest.raises(TypeError, match="claim"):
        parse_claim(0.5)


# --------------------------------------------------------------------------- audits: not refuted at the truth,
# refuted at half of it (the mutant claim) and for a mechanism with too little noise (the mutant mechanism)

SIGMA = 1.0  # sensitivity 1: rho = 1/2, D_2 = 1, mu = 1
TRUE = {"zcdp": "zcdp:0.5", "renyi": "renyi:2:1", "gdp": "gdp:1"}
HALF = {"zcdp": "zcdp:0.25", "renyi": "renyi:2:0.5", "gdp": "gdp:0.5"}


@pytest.mark.parametrize("kind", sorted(TRUE))
def test_exact_audit_of_the_gaussian(kind):
    g = GaussianCount(SIGMA)
    res = audit_claim(g, TRUE[kind], g.pair(), method="exact")
    assert res.verdict == "not refuted" and res.method == "exact"
    assert res.bound == pytest.approx({"zcdp": 0.5, "renyi": 1.0, "gdp": 1.0}[kind], rel=1e-6)
    assert audit_claim(g, HALF[kind], g.pair(), method="exact").verdict == "refuted"
    # the mutant mechanism: noise sigma / 1.2 under the true claim
    assert audit_claim(GaussianCount(SIGMA / 1.2), TRUE[kind], g.pair(), method="exact").verdict == "refuted"


@pytest.mark.parametrize("kind", sorted(TRUE))
@pytest.mark.parametrize("seed", [0, 1])
def test_statistical_audit_of_the_gaussian(kind, seed):
    g = GaussianCount(SIGMA)
    res = audit_claim(g, TRUE[kind], g.pair(), method="statistical", samples=200_000, seed=seed)
    assert res.verdict == "not refuted" and res.confidence == 0.95 and res.samples == 200_000
    assert 0 < res.bound < {"zcdp": 0.5, "renyi": 1.0, "gdp": 1.0}[kind]
    assert audit_claim(g, HALF[kind], g.pair(), method="statistical", seed=seed).verdict == "refuted"


def test_statistical_black_box_and_exact_laws_of_randomized_response():
    rr = RandomizedResponse(true_eps=1.0)
    lp, lq = _rr_laws(1.0)
    exact = audit_claim(rr, "renyi:2:10", rr.pair())
    assert exact.method == "exact" and exact.bound == pytest.approx(law_renyi(lp, lq, 2.0), rel=1e-12)
    mu = law_gdp(lp, lq)
    assert audit_claim(rr, f"gdp:{mu}", rr.pair()).verdict == "not refuted"
    assert audit_claim(rr, f"gdp:{mu / 2}", rr.pair()).verdict == "refuted"

    class BlackBox:  # the same mechanism without its law: the output itself is the statistic
        def sample(self, data, size, rng):
            return rr.sample(data, size, rng)

    stat = audit_claim(BlackBox(), f"gdp:{mu}", rr.pair(), samples=100_000, seed=3)
    assert stat.method == "statistical" and stat.verdict == "not refuted" and stat.bound < mu
    assert audit_claim(BlackBox(), f"gdp:{mu / 2}", rr.pair(), samples=100_000, seed=3).verdict == "refuted"


def test_audit_claim_bad_arguments():
    lap = LaplaceCount(1.0)
    with pytest.raises(ValueError, match="method"):
        audit_claim(lap, "gdp:1", lap.pair(), method="fast")
    with pytest.raises(ValueError, match="samples"):
        audit_claim(lap, "gdp:1", lap.pair(), samples=10)
    with pytest.raises(TypeError, match="pair"):
        audit_claim(lap, "gdp:1", lap.pair()[0])
    with pytest.raises(TypeError, match="claim"):
        audit_claim(lap, 1.0, lap.pair())

    class TwoColumns:
        def sample(self, data, size, rng):
            return rng.normal(size=(size, 2))

    with pytest.raises(ValueError, match="exact"):
        audit_claim(TwoColumns(), "gdp:1", lap.pair(), method="exact")
    with pytest.raises(ValueError, match="statistic="):
        audit_claim(TwoColumns(), "gdp:1", lap.pair())


MODULE = """
from proofs_checks.audit.calibration import GaussianCount

def gauss():
    return GaussianCount(1.0)
"""


@pytest.fixture
def claimmod(tmp_path, monkeypatch):
    (tmp_path / "claimclimod.py").write_text(MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)


def test_cli_claim_json_and_usage_errors(claimmod, capsys):
    import json

    from proofs_checks.cli import main

    argv = ["audit", "--mechanism", "claimclimod:gauss", "--claim", "gdp:0.5", "--method", "statistical"]
    assert main([*argv, "--samples", "20000", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["claim"] == {"type": "gdp", "mu": 0.5} and out["verdict"] == "refuted"
    assert out["mu_lower"] == out["bound"] > 0.5 and out["details"]["counts"][1] == 8000
    assert main(["audit", "--mechanism", "claimclimod:gauss", "--claim", "zcdp:0.5"]) == 0
    assert "claim zcdp:0.5: not refuted" in capsys.readouterr().out
    for extra, needle in [
        (["--claim", "zcdp:x"], "numbers"),
        (["--claim", "gdp:1", "--attack", "logistic"], "--attack"),
    ]:
        assert main(["audit", "--mechanism", "claimclimod:gauss", *extra]) == 2
        assert needle in capsys.readouterr().err
