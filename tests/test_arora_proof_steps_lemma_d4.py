"""[004 Lemma D.4], first bound per loss, and where the output-perturbation bound's worst case comes from.

References: mpmath (50 digits) for the logistic values; the squared rule by algebra,
(t + Y)^2 - Y^2 - H t^2 = t (2Y - (H - 1) t).
"""

from __future__ import annotations

import mpmath
import pytest

from proofs_checks.claim_sets.arora import lemma_d4 as ld
from proofs_checks.model import CheckContext

CTX = CheckContext(profile="quick", seed=20261121)


def test_logistic_first_bound_fails_where_the_squared_rule_says_never():
    mpmath.mp.dps = 50
    H, Y = mpmath.mpf(1) / 4, 1
    # the squared rule's threshold 2Y/(H - 1) is negative at H = 1/4: it would say the bound never fails
    assert 2 * Y / (H - 1) < 0
    sup = mpmath.log(1 + mpmath.e**2)  # sup over y = +-1 of log(1 + e^(-y t)) at |t| = BX = 2
    assert sup > Y**2 + H * 4 and float(sup) == pytest.approx(2.1269, abs=1e-4)
    # the interval's ends at Y = 1 as stated in the reading
    f = lambda t: mpmath.log(1 + mpmath.e**t) - 1 - t * t / 4  # noqa: E731
    assert float(mpmath.findroot(f, 0.76)) == pytest.approx(0.763, abs=1e-3)
    assert float(mpmath.findroot(f, 2.55)) == pytest.approx(2.549, abs=1e-3)


@pytest.mark.parametrize("Y, H, t", [(2.0, 2.0, 3.99), (2.0, 3.0, 1.99), (0.5, 2.0, 0.99)])
def test_squared_rule_threshold(Y, H, t):
    thr = 2 * Y / (H - 1)
    assert t < thr and (t + Y) ** 2 > Y * Y + H * t * t
    assert (thr + 0.01 + Y) ** 2 < Y * Y + H * (thr + 0.01) ** 2


def test_output_perturbation_worst_case_is_the_first_bound_slip():
    res = ld.lemma_d4_output_perturbation_check("printed")(CTX.for_claim("arora.lemma-d4.output-perturbation"))
    at = res.evidence["worst_at"]
    assert res.verdict == "refuted" and res.observed == pytest.approx(8.445e5, rel=1e-3)
    # squared, B X = 0.5 < 2Y = 4: the loss at b = 0, (BX + Y)^2 = 6.25, already exceeds Delta
    assert at["loss"] == "squared" and at["B"] == 0.5 and (0.5 + 2.0) ** 2 > at["Delta"]
    (noise,) = res.evidence["settings"]
    assert noise["worst_ratio"] == pytest.approx(2.256e4, rel=1e-3) and noise["at"]["loss"] == "logistic"
