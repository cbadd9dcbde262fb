"""The fast density / survival helpers of reference.wang_xu.data against scipy.stats, within a stated bound.

They replace ``scipy.stats.t.pdf`` and ``scipy.stats.lomax.sf`` in the integrands of the excess-risk
quadratures (thousands of scalar calls per table) by scipy 1.17's own expressions in the same order.  Both
sides reach numpy's ``exp``/``log``/``log1p``, which the CPU chooses (docs/reproducibility.md, section 2), and
scipy decides how it calls them, so the comparison is within the bound of ``tests/_two_routes.py`` (a few ulps
of the exponent), not bit for bit.  That bound still catches a changed formula: a value off by 1e-12 relative.
"""

import numpy as np
import pytest
from scipy import stats

from proofs_checks.rates.trials_wang_xu import THEOREM1_MODEL, THEOREM2_MODEL, excess_risk_1d

# private: _lomax_sf, _t_pdf, _lomax_partial_mean: the fast densities are tested against scipy
from reference.wang_xu.data import _lomax_sf, _t_pdf, folded, student_t, two_sided_lomax
from tests._two_routes import assert_within, lomax_sf_gap, t_pdf_gap, within


def _grid():
    rng = np.random.default_rng(7)
    pts = np.concatenate(
        [
            [0.0, 5e-324, 1e-300, 1e-17, 0.5, 1.0, 1e8, 1e150, 1e300, np.inf, np.nan],
            np.logspace(-12, 12, 2001),
            rng.pareto(1.0, 2000),
            rng.random(500),
        ]
    )
    return pts


@pytest.mark.parametrize("nu", [1.0, 1.8, 2.5, 3.0, 7.3])
def test_t_pdf_within_the_stated_bound_of_scipy(nu):
    a = _grid()
    ours, ref = _t_pdf(a, nu), stats.t.pdf(a, nu)
    gap = t_pdf_gap(a, nu, ours, ref)
    assert_within(ours, ref, gap)
    assert not within(ours * (1 + 1e-12), ref, gap).all()  # power: a 1e-12 relative change is seen
    one, ref_one = _t_pdf(0.7, nu), stats.t.pdf(0.7, nu)
    assert np.ndim(one) == 0 and within(one, ref_one, t_pdf_gap(0.7, nu, one, ref_one))


@pytest.mark.parametrize("alpha", [1.5, 2.5, 3.0])
def test_lomax_sf_within_the_stated_bound_of_scipy(alpha):
    z = _grid()
    ours, ref = _lomax_sf(z, alpha), stats.lomax.sf(z, alpha)
    gap = lomax_sf_gap(z, alpha, ours, ref)
    assert_within(ours, ref, gap)
    assert not within(ours * (1 + 1e-12), ref, gap).all()
    one, ref_one = _lomax_sf(0.7, alpha), stats.lomax.sf(0.7, alpha)
    assert within(one, ref_one, lomax_sf_gap(0.7, alpha, one, ref_one))


def test_laws_use_them_consistently():
    # the laws multiply by exact factors (2, 0.5, scale 1) and take 1 - half: the density's bound, and one
    # more rounding of 1 - half (at most an ulp of it beyond the difference of the halves)
    x = np.linspace(-30, 30, 601)
    law, noise = folded(student_t(1.8)), two_sided_lomax(2.5, 1.5, 0.5)
    ref = stats.t.pdf(np.abs(x), 1.8)
    got = law.pdf(x)
    assert_within(got, np.where(x >= 0, 2 * ref, 0.0), 2 * t_pdf_gap(np.abs(x), 1.8, got / 2, ref))
    s = np.where(x >= 0, 1.5, 0.5)
    sf = stats.lomax.sf(np.abs(x) / s, 2.5)
    half = 0.5 * sf
    got = noise.cdf(x)
    ours_half = np.where(x >= 0, 1 - got, got)
    gap_half = 0.5 * lomax_sf_gap(np.abs(x) / s, 2.5, 2 * ours_half, sf)
    want = np.where(x >= 0, 1 - half, half)
    gap = np.where(x >= 0, gap_half + np.spacing(np.abs(want)), gap_half)
    assert_within(got, want, gap)
    assert not within(got, want * (1 + 1e-12), gap).all()


@pytest.mark.parametrize(
    "model", [THEOREM1_MODEL, pytest.param(THEOREM2_MODEL, marks=pytest.mark.slow)]
)  # the latter ~5 s
def test_excess_risk_table_unchanged(model):
    # reference: the table of the slow integrand (scipy.stats calls, the x < 0 term always added).  The two
    # integrands differ only through the density's last bits (the bound above), and quad_vec stops each
    # integral within its own tolerance (epsabs + epsrel of the table's 2-norm, its error estimate), so the
    # tables agree within the sum of the two tolerances; a table off by 1e-8 relative is outside it
    from scipy import integrate

    epsabs, epsrel = 1e-13, 1e-10  # excess_risk_1d's defaults
    w = np.linspace(-1, 1, 41)
    v = w - model.w_star[0]
    noise, law, m0 = model.noise_law, model.x_law, model.noise_law.abs_moment(1)

    def slow(x):
        pdf = lambda t: np.where(t >= 0, 2 * stats.t.pdf(np.abs(t), law.base.param), 0.0)
        return (noise.mean_abs_deviation(v * x) - m0) * pdf(x) + (noise.mean_abs_deviation(-v * x) - m0) * pdf(-x)

    ref, _ = integrate.quad_vec(slow, 0, np.inf, epsabs=epsabs, epsrel=epsrel, limit=2000)
    got = excess_risk_1d(model, w, epsabs=epsabs, epsrel=epsrel)[0]
    tol = 2 * (epsabs + epsrel * np.linalg.norm(ref))
    assert np.max(np.abs(got - ref)) <= tol
    assert np.max(np.abs(got - ref * (1 + 1e-8))) > tol


def test_two_sided_lomax_partial_mean_split_same_bits():
    # reference: the whole-array formula the 1-d split replaced (both halves on every entry).  Bit for bit on
    # any CPU: the split applies the same element-wise operations (one np.power each) to a subset of the same
    # values, and the constant half is power(1, -a) = 1, exact in every implementation
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
