"""Claims of Wang & Xu (000): registered verdicts, and every check rejects a deliberately broken variant."""

import json
import math

import numpy as np
import pytest

from proofs_checks.claim_sets.wang_xu import nets, privacy, sensitivity, truncation
from proofs_checks.model import CheckContext
from proofs_checks.registry import default_registry
from proofs_checks.runner import run_claim
from reference.wang_xu.nets import covering_bound
from reference.wang_xu.truncation import psi

CTX = CheckContext(profile="quick", seed=1)

EXPECTED = {
    "wang-xu.alg1.privacy.printed": "refuted",
    "wang-xu.alg1.privacy.standard": "confirmed",
    "wang-xu.alg2.privacy.printed": "refuted",
    "wang-xu.alg2.privacy.standard": "confirmed",
    "wang-xu.sensitivity.eq6": "confirmed",
    "wang-xu.sensitivity.eq16.text": "confirmed",
    "wang-xu.sensitivity.eq16.proof": "confirmed",
    "wang-xu.psi.eq6.inequality-3": "confirmed",
    "wang-xu.psi.eq6.non-decreasing": "confirmed",
    "wang-xu.psi.eq6.bounded": "confirmed",
    "wang-xu.psi.eq16.inequality-15": "confirmed",
    "wang-xu.psi.eq16.non-decreasing": "confirmed",
    "wang-xu.psi.eq16.bounded": "confirmed",
    "wang-xu.lemma2.covering-number": "confirmed",
    "wang-xu.alg1.privacy.printed.add-remove": "confirmed",
    "wang-xu.alg2.privacy.printed.add-remove": "confirmed",
    "wang-xu.alg1.privacy.calibrated": "confirmed",
    "wang-xu.alg2.privacy.calibrated": "confirmed",
    "wang-xu.thm1.eq14.follows": "confirmed",
    "wang-xu.thm2.eq26.follows": "refuted",
}


def test_registered_claims_have_expected_verdicts():
    reg = default_registry()
    for cid, verdict in EXPECTED.items():
        res = run_claim(reg.claim(cid), CTX)
        assert res.verdict == verdict, cid
        # Every result says what it measured, against what, how, and where in the paper.
        assert None not in (res.observed, res.bound, res.direction, res.margin), cid
        assert res.method and "[000 " in res.reading, cid
        if ".privacy." in cid or ".sensitivity." in cid:
            relation = "add/remove" if cid.endswith(".add-remove") else "replace-one"
            assert relation in res.reading and "[000 Def. 1]" in res.reading, cid


def test_printed_variant_loses_almost_twice_epsilon_standard_at_most_half():
    printed = privacy.privacy_check(1, "printed")(CTX.for_claim("wang-xu.alg1.privacy.printed"))
    standard = privacy.privacy_check(1, "standard")(CTX.for_claim("wang-xu.alg1.privacy.standard"))
    assert 1.5 < printed.observed <= 2.0  # loss / eps; analytic: <= 2 eps, approached
    assert standard.observed <= 0.5 + 1e-12  # analytic: <= eps / 2


def _flipped_psi(x, theta=2.0):
    return -psi(x, theta)


def _untruncated_psi(x, theta=2.0):
    x = np.asarray(x, dtype=float)
    t = np.minimum(np.abs(x), 1e100)
    v = np.log(1 + t + t**theta / theta)  # the upper envelope: satisfies (3) but is unbounded
    return np.sign(x) * v


def _untruncated_terms(Wp, X, y, iota, theta):
    with np.errstate(over="ignore", invalid="ignore"):
        r = np.abs(y[:, None] - X @ np.atleast_2d(Wp).T)
        t = np.nan_to_num(iota * r, nan=0.0, posinf=1e300)
    return np.abs(_untruncated_psi(t, theta))


S = sensitivity
T = truncation


# Each broken check runs on the stream of the claim it breaks.
@pytest.mark.parametrize(
    "broken, claim_id",
    [
        (
            privacy.privacy_check(1, "standard", exponent_scale=4.0),
            "wang-xu.alg1.privacy.standard",
        ),  # exponent x4: 2 eps
        (privacy.privacy_check(2, "standard", exponent_scale=4.0), "wang-xu.alg2.privacy.standard"),
        (
            S.sensitivity_check(
                lambda n, i, t: 0.45 * S.stated_sensitivity_eq6(n, i, t), (2.0,)
            ),  # halved and then some
            "wang-xu.sensitivity",
        ),
        (
            S.sensitivity_check(lambda n, i, t: 0.5 * S.stated_sensitivity_eq16_text(n, i, t), (1.5,)),  # halved
            "wang-xu.sensitivity",
        ),
        (
            S.sensitivity_check(S.stated_sensitivity_eq6, (2.0,), psi_terms=_untruncated_terms),  # psi not truncated
            "wang-xu.sensitivity",
        ),
        (T.psi_inequality_check((2.0,), psi_fn=_flipped_psi), "psi"),  # flipped sign
        (T.psi_inequality_check((1.5,), psi_fn=lambda x, th: 1.5 * psi(x, th)), "psi"),  # scaled: breaks (15) near 0
        (T.psi_monotone_check((2.0,), psi_fn=_flipped_psi), "psi"),
        (T.psi_monotone_check((1.5,), psi_fn=lambda x, th: np.where(np.abs(x) > 2, 0.0, psi(x, th))), "psi"),
        (T.psi_bounded_check((2.0,), psi_fn=_untruncated_psi), "psi"),
        (T.psi_bounded_check((1.5,), stated_bound=lambda th: 0.5 * math.log(th)), "psi"),
        (
            nets.covering_check(bound=lambda diam, zeta, d: (diam / (3 * zeta)) ** d),  # bound below the volume bound
            "wang-xu.lemma2.covering-number",
        ),
    ],
)
def test_checks_reject_broken_variants(broken, claim_id):
    res = broken(CTX.for_claim(claim_id))
    assert res.verdict == "refuted"
    assert res.margin is None or res.margin < 0


def test_covering_check_not_confirmed_for_a_net_that_does_not_cover():
    from reference.wang_xu.nets import L2BallNet

    class Coarse(L2BallNet):
        def __init__(self):
            super().__init__(1.0, 0.2, 2)
            self.spacing *= 3  # grid three times too coarse for its stated zeta
            self.half = int(1.0 // self.spacing)
            self._size = None

    ctx = CTX.for_claim("wang-xu.lemma2.covering-number")
    assert nets.covering_check(nets=[Coarse()])(ctx).verdict == "inconclusive"
    assert nets.covering_check(nets=[L2BallNet(1.0, 0.2, 2)])(ctx).verdict == "confirmed"
    assert covering_bound(2.0, 0.2, 2) >= L2BallNet(1.0, 0.2, 2).size


def test_results_are_reproducible():
    ctx = CheckContext(seed=7).for_claim("wang-xu.alg2.privacy.printed")
    a = privacy.privacy_check(2, "printed")(ctx)
    b = privacy.privacy_check(2, "printed")(ctx)
    assert a.evidence == b.evidence and a.observed == b.observed


def test_list_shows_algorithms_and_claims(capsys):
    # in-process: a subprocess spent 4 s of CPU importing the package again
    from proofs_checks.cli import main

    assert main(["list", "--json"]) == 0
    listing = json.loads(capsys.readouterr().out)
    algs = {a["id"]: a for a in listing["algorithms"]}
    assert set(algs["wang-xu-1"]["variants"]) == {"printed", "standard", "calibrated"}
    assert set(algs["wang-xu-2"]["variants"]) == {"printed", "standard", "calibrated"}
    ids = {c["id"] for c in listing["claims"]}
    assert set(EXPECTED) <= ids


def test_registered_factories_follow_the_protocol():
    reg = default_registry()
    data = np.array([[0.5, 0.1], [-1.0, 0.3], [2.0, -0.7]])
    for alg in ("wang-xu-1", "wang-xu-2"):
        for variant in ("printed", "standard", "calibrated"):
            mech = reg.algorithm(alg).mechanism(variant=variant, epsilon=1.0, delta=None, zeta=0.5)
            outputs, logp = mech.log_prob(data)
            assert outputs.shape[0] == logp.shape[0]
            np.testing.assert_allclose(mech.log_prob_from_terms(mech.score_terms(data).sum(axis=0)), logp, atol=1e-12)
            assert mech.sample(data, 4, rng=0).shape == (4, 1)


def test_psi_odd_check_confirms_and_rejects_a_shifted_psi():
    ctx = CheckContext(seed=1).for_claim("psi")
    assert T.psi_odd_check((2.0, 1.5))(ctx).verdict == "confirmed"
    shifted = lambda x, th: psi(x, th) + 1e-3 * np.tanh(np.abs(np.asarray(x, dtype=float)))  # even part added
    assert T.psi_odd_check((2.0,), psi_fn=shifted)(ctx).verdict == "refuted"


def test_psi_checks_refute_a_non_finite_psi():
    ctx = CTX.for_claim("psi")
    nan_at_zero = lambda x, th: np.where(np.asarray(x) == 0, np.nan, psi(x, th))
    for factory in (T.psi_inequality_check, T.psi_monotone_check, T.psi_bounded_check, T.psi_odd_check):
        res = factory((2.0,), psi_fn=nan_at_zero)(ctx)
        assert res.verdict == "refuted" and res.evidence["non_finite_psi_at"]["x"] == 0.0
