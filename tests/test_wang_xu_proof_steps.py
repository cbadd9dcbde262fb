"""The proof-step claims of Wang & Xu (000): verdicts per reading, witnesses, and power (each declared mutant detected).

Independent references: exact rationals (the display after (14)), mpmath at 50 digits ((26)'s coefficient, (39),
the eps sweeps' explicit bound at one point), brute force on a fine grid (the covering radius).
"""

from __future__ import annotations

import functools
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from scipy.spatial import cKDTree

from proofs_checks.claim_sets.wang_xu import eps_sweeps as E
from proofs_checks.claim_sets.wang_xu import proof_steps as P
from proofs_checks.claim_sets.wang_xu import zeta_net as Z

# private: _common: setup_for is public as proofs_checks.claim_sets.wang_xu.setup_for; imported from where it lives
from proofs_checks.claim_sets.wang_xu._common import setup_for
from proofs_checks.model import CheckContext
from proofs_checks.power import claim_power
from proofs_checks.registry import default_registry
from proofs_checks.runner import run_claim
from reference.wang_xu.nets import BoxNet, L1BallNet, L2BallNet

CTX = CheckContext(profile="quick", seed=1)

EXPECTED = {
    "wang-xu.nets.zeta-net": "confirmed",
    "wang-xu.thm2.eq26.m-coefficient": "refuted",
    "wang-xu.thm1.sup-moment-display": "refuted",
    "wang-xu.thm1.sup-moment-display.uncorrelated": "confirmed",
    "wang-xu.thm1.sup-moment-display.factor-2": "confirmed",
    "wang-xu.eq39.follows": "refuted",
    "wang-xu.eq39.follows.term-kept": "confirmed",
    "wang-xu.thm1.display.log-term": "refuted",
    "wang-xu.thm1.display.log-term.eta": "confirmed",
    "wang-xu.thm1.display.statistical-term": "refuted",
    "wang-xu.thm2.display.statistical-term": "refuted",
    "wang-xu.alg1.privacy.printed.add-remove.schedule": "refuted",
    "wang-xu.alg2.privacy.printed.add-remove.schedule": "refuted",
    **{f"wang-xu.thm{a}.eq{eq}.eps-uniform": "refuted" for eq, (a, _) in E.EPS_RATES.items()},
    **{f"wang-xu.thm{a}.eq{eq}.eps-bounded": "confirmed" for eq, (a, _) in E.EPS_RATES.items()},
}


@functools.lru_cache(maxsize=1)
def _registry():
    return default_registry()


@pytest.mark.parametrize("claim_id", sorted(EXPECTED))
def test_verdict_and_power(claim_id):
    claim = _registry().claim(claim_id)
    res = run_claim(claim, CTX)
    assert res.verdict == EXPECTED[claim_id], (claim_id, res.observed)
    assert "[000 " in res.reading and res.method
    # power: every declared mutant is detected (refuted, or confirmed where the mutant is a true statement)
    assert claim.mutants, claim_id
    power = claim_power(claim, CTX.for_claim(claim_id))
    assert all(m.detected for m in power.mutants), power.mutants


def test_eq26_coefficient_is_the_closed_form():
    # 2b / (2a + b) = 2^theta / (2 + 2^(theta-1)): 0.8284 at theta = 1.5 (mpmath, 50 digits), never >= 1 below 2
    res = P.eq26_m_coefficient_check()(CTX.for_claim("x"))
    row = next(r for r in res.evidence["rows"] if r["theta"] == 1.5)
    with mpmath.workdps(50):
        want = mpmath.mpf(2) ** 1.5 / (2 + mpmath.mpf(2) ** 0.5)
    assert row["ratio"] == pytest.approx(float(want), rel=1e-14)
    assert all(r["ratio"] < 1 for r in res.evidence["rows"])


def test_display_after_14_witness_is_exact():
    # the l1 minimiser w* has E[sign(xi) x] = 0 but E[xi x] != 0, and the printed display fails by 1.265
    lhs, rhs, rhs2 = P.display_after_14_values(Fraction(1, 4), 5, Fraction(1, 2), 6, Fraction(2, 5))
    assert (lhs, rhs) == (Fraction(19907, 800), Fraction(15739, 800))
    assert lhs > rhs and lhs <= rhs2
    # uncorrelated noise (s = t): the cross term vanishes and the display holds
    lhs, rhs, _ = P.display_after_14_values(Fraction(1, 4), 5, 3, 3, Fraction(2, 5))
    assert lhs <= rhs


def test_step39_fails_on_a_point_mass_at_the_papers_scale():
    # r = 0, ||x|| = 1, iota = 1, zeta = 0.01, theta = 1.5: left 1 + 0.01 + 0.001/1.5, right exp(2^0.5 0.001/1.5)
    # private: _step39_sides: the two sides of the step are the subject
    with mpmath.workdps(50):
        one = mpmath.mpf(1)
        atoms = [(one, mpmath.mpf(0), one)]
        left, right = P._step39_sides(one, mpmath.mpf("0.01"), mpmath.mpf("1.5"), atoms, keep_term=False)
        assert left == pytest.approx(1 + 0.01 + 0.001 / 1.5, rel=1e-15) and left > right
        left, right = P._step39_sides(one, mpmath.mpf("0.01"), mpmath.mpf("1.5"), atoms, keep_term=True)
        assert left <= right


@pytest.mark.parametrize(
    "net", [L2BallNet(1.0, 0.3, 2), L1BallNet(1.0, 0.3, 2), BoxNet(-1.0, 1.0, 0.3, 2), L2BallNet(1.0, 0.3, 1)]
)
def test_exact_covering_radius_against_brute_force(net):
    # brute force: the largest nearest distance over a fine grid of W is a lower bound within a grid step
    # private: _in_set: membership of W, the brute force's domain
    r, at = Z.covering_radius_exact(net)
    g = np.linspace(-1, 1, 801)
    grid = np.array(np.meshgrid(*([g] * net.dim))).reshape(net.dim, -1).T
    grid = grid[Z._in_set(net, grid)]
    brute = cKDTree(net.points()).query(grid)[0].max()
    assert brute <= r + 1e-12 and r - brute <= 2 * (g[1] - g[0])
    assert Z._in_set(net, np.array([at]))[0]


def test_box_covering_radius_is_half_the_cell_diagonal():
    net = BoxNet(-1.0, 1.0, 0.3, 2)
    r, _ = Z.covering_radius_exact(net)
    assert r == pytest.approx(np.sqrt(2) * net.spacing / 2, rel=1e-12)


def test_search_finds_a_coarse_net_in_higher_dimension():
    net = BoxNet(-1.0, 1.0, 0.8, 3)  # built for 0.8, declared a 0.4-net
    r, _ = Z.covering_radius_search(net, np.random.default_rng(3), starts=256)
    # the exact radius of a box net is half a cell diagonal (0.577 here); the search reaches it, above 0.4
    assert r == pytest.approx(np.sqrt(3) * net.spacing / 2, rel=1e-9) and r > 0.4


def test_explicit_bound_of_the_sweep_against_mpmath():
    # (14) at n = 1e4, eps = 1000 recomputed term by term in mpmath (50 digits) from the same parameters
    # private: _setup, _terms: the sweep's own parameters are the subject (recomputed in mpmath)
    setup = E._setup("7")
    p, (n, eps, zeta, iota, tau, N, eta, M) = E._terms(setup, 10_000, 1000.0)
    with mpmath.workdps(50):
        lg = mpmath.log(mpmath.mpf(N) / eta)
        b = (
            3 * zeta * tau
            + iota * zeta**2 * tau**2
            + mpmath.mpf(5) / 2 * iota * M
            + 3 / (n * mpmath.mpf(iota)) * lg
            + 4 * mpmath.log(2) / (n * mpmath.mpf(iota) * eps) * lg
        )
        want = float(b / p["rate"])
    assert E.explicit_over_rate("7", 10_000, 1000.0) == pytest.approx(want, rel=1e-12)
    assert N == len(setup_for(1).net(10_000))


def test_eps_ratio_grows_linearly_for_large_eps():
    r100, r1000 = (E.explicit_over_rate("7", 10_000, e) for e in (100.0, 1000.0))
    assert 9 < r1000 / r100 < 10.1


def test_theorem1_display_misses_three_eps_times_its_size():
    # private: _display_ratio, _IOTAS: the ratio and the iota grid of the display claim are the subject
    # for tiny iota (14) is about 3 log(N/eta)/(n iota) and the display log(N/eta)/(n iota eps): ratio about 3 eps
    ratio = max(E._display_ratio(1, 10_000, 1000.0, i, False) for i in E._IOTAS)
    assert ratio == pytest.approx(3000, rel=0.01)
    assert max(E._display_ratio(1, 10_000, 1000.0, i, True) for i in E._IOTAS) == pytest.approx(3.0, rel=0.01)
