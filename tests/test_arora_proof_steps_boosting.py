"""Printed Boosting [004 Thm. E] at ``n >= n0`` in rescaled units: ``arora.boosting.privacy.n-above-n0``.

Reference values: the guaranteed-bracket quadrature (boosting_law_bounds, 5000 cells, 64 steps per Laplace scale),
measured; independent cross-check (slow): the Riemann-sum law :func:`boosting_output_law` (grid 3001, tgrid
8001), which gave eps = 2.092 at delta = 1e-5 for k = 1000, n = 1e6 (120 s on the loaded 2-core machine), above
the guaranteed lower bound 2.060 as it must be.
"""

from __future__ import annotations

import math

import pytest

from proofs_checks.claim_sets.arora import boosting_rescaled as br
from proofs_checks.model import CheckContext
from reference.arora.model_selection import boosting_n0

CLAIM = "arora.boosting.privacy.n-above-n0"


def _run(check):
    return check(CheckContext(profile="quick", seed=20261121).for_claim(CLAIM))


def test_claim_refutes_at_n_above_n0_in_units_of_a_thousand():
    res = _run(br.rescaled_privacy_check())
    judged = res.evidence["worst_at"]
    assert res.verdict == "refuted"
    assert judged["n"] == 10**6 and judged["n0"] == pytest.approx(706677.3, rel=1e-6) and judged["n_at_least_n0"]
    assert res.observed == pytest.approx(2.0603, abs=1e-3)
    # the same n and n0 at Y = 3 (k = 1) show no violation: the failure is the units', not the sample size's
    (k1,) = res.evidence["by_n"]
    assert k1["k"] == 1.0 and k1["n0"] == pytest.approx(judged["n0"], rel=1e-12)
    assert k1["epsilon_at_delta_lower"] == 0.0


def test_n0_is_invariant_and_sigma_tilde_scales_like_the_labels():
    a, b = br.rescaled_boosting_law(1.0, 10**6), br.rescaled_boosting_law(1000.0, 10**6)
    assert b["sigma_tilde"] == pytest.approx(1000.0 * a["sigma_tilde"], rel=1e-9)
    assert b["gamma"] == pytest.approx(1000.0 * a["gamma"], rel=1e-9)
    # n0 from the formula directly: gamma^2/Y^2 is a ratio of two squares in one unit
    assert boosting_n0(b["gamma"], 0.1, 2.0, 3000.0) == pytest.approx(boosting_n0(a["gamma"], 0.1, 2.0, 3.0), rel=1e-9)


@pytest.mark.parametrize("factor, eps", [(0.5, 4.3824), (0.8, 2.6346)])
def test_power_smaller_scales_are_refuted(factor, eps):
    res = _run(br.rescaled_privacy_check(factor))
    assert res.verdict == "refuted" and res.observed == pytest.approx(eps, abs=1e-3)


def test_the_scale_in_units_of_y_squared_is_not_refuted():
    # sigma~ x k: the printed constant with the noise in the units of the scores; k = 1000 then behaves as k = 1
    res = _run(br.rescaled_privacy_check(1000.0))
    assert res.verdict == "inconclusive" and res.observed == 0.0


def test_bad_arguments_raise():
    with pytest.raises(ValueError, match="k"):
        br.rescaled_boosting_law(-1.0, 10**6)
    with pytest.raises(ValueError, match="n must be at least"):
        br.rescaled_boosting_law(1.0, 4, 4)
    with pytest.raises(TypeError):
        br.rescaled_boosting_law(1.0, 10.5)


@pytest.mark.slow
def test_riemann_law_agrees_with_the_guaranteed_lower_bound():
    from proofs_checks.claim_sets.arora.boosting_laws import boosting_output_law, law_epsilon
    from proofs_checks.claim_sets.arora.designed_pairs import boosting_validation_pair

    D, Dp, _ = boosting_validation_pair(200000, 4, 1.0, 3000.0)
    _, p, q = boosting_output_law(
        D, Dp, 1.0, m=4, B=2000.0, x_bound=1.0, y_bound=3000.0, variant="printed", grid=3001, tgrid=8001
    )
    eps = law_epsilon(p, q, 1e-5)
    lower = br.rescaled_boosting_law(1000.0, 10**6)["epsilon_at_delta_lower"]
    assert lower <= eps + 1e-9 and math.isclose(eps, 2.0924, abs_tol=2e-3)
