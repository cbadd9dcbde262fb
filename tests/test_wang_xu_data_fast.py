"""The fast density / survival helpers of reference.wang_xu.data give scipy.stats' bits exactly.

They replace ``scipy.stats.t.pdf`` and ``scipy.stats.lomax.sf`` in the integrands of the excess-risk
quadratures (thousands of scalar calls per table), so any difference would move the rate checks'
observed values; the reference here is scipy.stats itself, compared bit for bit.
"""

import numpy as np
import pytest
from scipy import stats

from reference.wang_xu.data import _lomax_sf, _t_pdf, folded, student_t, two_sided_lomax
from proofs_checks.rates.trials_wang_xu import THEOREM1_MODEL, THEOREM2_MODEL, excess_risk_1d


def _grid():
    rng = np.random.default_rng(7)
    pts = np.concatenate([[0.0, 5e-324, 1e-300, 1e-17, 0.5, 1.0, 1e8, 1e150, 1e300, np.inf, np.nan],
                          np.logspace(-12, 12, 2001), rng.pareto(1.0, 2000), rng.random(500)])
    return pts


@pytest.mark.parametrize("nu", [1.0, 1.8, 2.5, 3.0, 7.3])
def test_t_pdf_same_bits_as_scipy(nu):
    a = _grid()
    ours, ref = _t_pdf(a, nu), stats.t.pdf(a, nu)
    np.testing.assert_array_equal(ours.view(np.int64), ref.view(np.int64))
    assert _t_pdf(0.7, nu) == stats.t.pdf(0.7, nu) and np.ndim(_t_pdf(0.7, nu)) == 0


@pytest.mark.parametrize("alpha", [1.5, 2.5, 3.0])
def test_lomax_sf_same_bits_as_scipy(alpha):
    z = _grid()
    ours, ref = _lomax_sf(z, alpha), stats.lomax.sf(z, alpha)
    np.testing.assert_array_equal(ours.view(np.int64), ref.view(np.int64))
    assert _lomax_sf(0.7, alpha) == stats.lomax.sf(0.7, alpha)


def test_laws_use_them_consistently():
    x = np.linspace(-30, 30, 601)
    law, noise = folded(student_t(1.8)), two_sided_lomax(2.5, 1.5, 0.5)
    np.testing.assert_array_equal(law.pdf(x), np.where(x >= 0, 2 * stats.t.pdf(np.abs(x), 1.8), 0.0))
    s = np.where(x >= 0, 1.5, 0.5)
    half = 0.5 * stats.lomax.sf(np.abs(x) / s, 2.5)
    np.testing.assert_array_equal(noise.cdf(x), np.where(x >= 0, 1 - half, half))


@pytest.mark.parametrize("model", [THEOREM1_MODEL,
                                   pytest.param(THEOREM2_MODEL, marks=pytest.mark.slow)])  # the latter ~5 s
def test_excess_risk_table_unchanged(model):
    # reference: the table of the slow integrand (scipy.stats calls, the x < 0 term always added), same bits
    from scipy import integrate
    w = np.linspace(-1, 1, 41)
    v = w - model.w_star[0]
    noise, law, m0 = model.noise_law, model.x_law, model.noise_law.abs_moment(1)

    def slow(x):
        pdf = lambda t: np.where(t >= 0, 2 * stats.t.pdf(np.abs(t), law.base.param), 0.0)
        return (noise.mean_abs_deviation(v * x) - m0) * pdf(x) + (noise.mean_abs_deviation(-v * x) - m0) * pdf(-x)

    ref, _ = integrate.quad_vec(slow, 0, np.inf, epsabs=1e-13, epsrel=1e-10, limit=2000)
    np.testing.assert_array_equal(excess_risk_1d(model, w)[0], ref)


def test_two_sided_lomax_partial_mean_split_same_bits():
    # reference: the whole-array formula the 1-d split replaced (both halves on every entry)
    import numpy as np
    from reference.wang_xu.data import _lomax_partial_mean, two_sided_lomax
    law = two_sided_lomax(2.5, 1.5, 0.5)
    c = np.concatenate([np.linspace(-40, 40, 4001), [0.0, -0.0, 5e-324, -5e-324, 1e300, -1e300]])
    a, sp, sn = law.param, law.scale_pos, law.scale_neg
    pos = _lomax_partial_mean(np.maximum(c, 0.0), a, sp)
    neg = np.where(c < 0, -(sn / (a - 1) - _lomax_partial_mean(np.maximum(-c, 0.0), a, sn)), 0.0)
    want = 0.5 * (pos + neg)
    got = law.partial_mean(c)
    assert np.array_equal(got.view(np.int64), want.view(np.int64))
    assert float(law.partial_mean(-2.0)) == float(want[np.flatnonzero(c == -2.0)[0]])
