"""004: Private Grid Search and Boosting run end to end on heavy-tailed GLM data; bad input; GEM exactness."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.arora.data import glm_loss, make_problem, project_to_domain, sample_records
from reference.arora.learners import (
    NoisyGD,
    OutputPerturbation,
    check_domain,
    delta_noisy_gd,
    delta_output_perturbation,
    noisy_gd,
    output_perturbation,
    regularized_erm,
)
from reference.arora.model_selection import (
    BoostingSelection,
    GridSearchSelection,
    boosting,
    boosting_laplace_scale,
    boosting_sigma_tilde,
    gaussian_output_subgaussian_constant,
    grid_search_selection_log_prob,
    private_grid_search,
    subgaussian_mgf,
    subgaussian_mgf_estimate,
)
from reference.mechanisms import gem_log_prob
from reference.records import partition_records
from tests._stats import GOF_ALPHA, chisquare_pvalue

SQ = make_problem("squared", (1.2, -0.6, 0.3))
LOG = make_problem("logistic", (1.2, -0.6, 0.3))


@pytest.fixture(scope="module")
def sq_data():
    return sample_records(SQ, 4000, 11)


# ---------------------------------------------------------------------------------- data


def test_known_w_star_is_population_minimiser():
    # squared loss: L(w) = s ||w - w*||^2 + E xi^2 exactly; an ERM on a large sample lands near w*
    z = sample_records(SQ, 200_000, 3)
    w = regularized_erm(z, "squared", 10.0, 1e-9)
    assert np.linalg.norm(w - SQ.w_star) < 0.02
    # Monte Carlo risk agrees with the exact formula (tolerance: ~6 MC standard errors)
    w_test = np.array([0.5, 0.5, 0.5])
    mc = glm_loss(w_test, z, "squared").mean()
    assert abs(mc - SQ.population_risk(w_test)[0]) < 0.02


def test_records_lie_in_domain_and_are_heavy_tailed():
    z = sample_records(SQ, 50_000, 5)
    check_domain(z, "squared", SQ.x_bound, SQ.y_bound)
    # a sizeable fraction of features is projected onto the sphere (heavy-tailed raw law)
    assert np.mean(np.linalg.norm(z[:, :-1], axis=1) > 0.999) > 0.05
    zl = sample_records(LOG, 1000, 5)
    assert set(np.unique(zl[:, -1])) == {-1.0, 1.0}


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(allow_nan=False, allow_infinity=False, width=64), min_size=3, max_size=3))
def test_project_to_domain_whole_float_range(row):
    out = project_to_domain([row], 1.0, 2.0)
    assert np.all(np.isfinite(out))
    assert np.linalg.norm(out[0, :-1]) <= 1.0 + 1e-12 and abs(out[0, -1]) <= 2.0


# ---------------------------------------------------------------------------------- end to end


@pytest.mark.parametrize("learner", ["output-perturbation", "noisy-gd"])
@pytest.mark.parametrize("variant", ["printed", "standard"])
def test_grid_search_end_to_end(sq_data, learner, variant):
    L = (
        OutputPerturbation("squared", 1.0, SQ.y_bound)
        if learner == "output-perturbation"
        else NoisyGD("squared", 1.0, SQ.y_bound, steps=20)
    )
    w, det = private_grid_search(sq_data, L, 3, 1.0, 1e-5, 0.1, variant=variant, size=20, rng=1, return_details=True)
    assert w.shape == (20, 3) and np.all(np.isfinite(w))
    assert det["candidates"].shape == (3, 20, 3)
    # the trivial candidate scores Y^2 as Y * Y, one IEEE product: the same bits on any CPU (Y ** 2 would be the
    # C library's pow, within 4 ulps of it, not always equal)
    assert det["sensitivities"][0] == 0 and np.all(det["scores"][:, 0] == SQ.y_bound * SQ.y_bound)
    assert np.allclose(np.exp(det["log_prob"]).sum(axis=1), 1.0)
    ex = SQ.excess_risk(w)
    assert np.all(ex <= SQ.excess_risk(np.zeros(3))[0] + 50)  # finite, sane
    one = private_grid_search(sq_data, L, 3, 1.0, 1e-5, 0.1, variant=variant, rng=1)
    assert one.shape == (3,)


def test_grid_search_standard_beats_trivial_predictor(sq_data):
    # noisy GD + standard variant: the selected model is far better than w = 0 (seeded, measured 0.27 vs 0.94)
    L = NoisyGD("squared", 1.0, SQ.y_bound, steps=30)
    w = private_grid_search(sq_data, L, 3, 1.0, 1e-5, 0.2, size=40, rng=2)
    assert np.median(SQ.excess_risk(w)) < 0.6 * SQ.excess_risk(np.zeros(3))[0]


def test_grid_search_logistic_runs():
    z = sample_records(LOG, 2000, 4)
    L = NoisyGD("logistic", 1.0, 1.0, steps=10)
    w = private_grid_search(z, L, 2, 1.0, 1e-5, 0.1, size=5, rng=1)
    assert w.shape == (5, 3) and np.all(np.isfinite(LOG.excess_risk(w)))


@pytest.mark.parametrize("variant", ["printed", "standard"])
def test_boosting_end_to_end(sq_data, variant):
    L = OutputPerturbation("squared", 1.0, SQ.y_bound, lam=0.5)
    w, det = boosting(
        sq_data, L, 2.0, 4, 1.0, 1e-5, sigma_tilde=0.2, variant=variant, size=30, rng=3, return_details=True
    )
    assert w.shape == (30, 3) and det["models"].shape == (30, 4, 3)
    assert det["laplace_scale"] == pytest.approx(0.2 if variant == "printed" else 0.2 / math.sqrt(2))
    # boosting picks a better-than-average model most of the time
    ex_models = SQ.excess_risk(det["models"].reshape(-1, 3)).reshape(30, 4)
    assert np.mean(SQ.excess_risk(w)) < np.mean(ex_models)


# ---------------------------------------------------------------------------------- GEM exactness


def test_gem_distribution_matches_sampler_for_grid_search_scores(sq_data):
    L = NoisyGD("squared", 1.0, SQ.y_bound, steps=20)
    for variant in ("standard", "printed"):
        sel = GridSearchSelection(L, 4, 1.0, 1e-5, 0.1, variant=variant, candidate_seed=7)
        outs, logp = sel.log_prob(sq_data)
        assert outs.tolist() == [0, 1, 2, 3, 4]
        draws = sel.sample(sq_data, 20_000, rng=5)
        assert chisquare_pvalue(draws, logp) > GOF_ALPHA
        sens, scores = sel.pairs(sq_data)
        # one gem_log_prob call on the same arrays behind each (epsilon / 2 and beta / 4 are exact)
        assert np.array_equal(logp, gem_log_prob(sens, scores, 0.5, 0.025))
        assert np.array_equal(logp, grid_search_selection_log_prob(sens, scores, 1.0, 0.1))


def test_full_grid_search_selection_frequencies_match_gem(sq_data):
    # the vectorised end-to-end sampler draws index j* with GEM's exact probabilities (per run)
    L = OutputPerturbation("squared", 1.0, SQ.y_bound)
    _, det = private_grid_search(sq_data, L, 3, 1.0, 1e-5, 0.1, size=1500, rng=9, return_details=True)
    # output perturbation: the candidates differ per run but GEM's probabilities are nearly
    # constant, so compare the draws with the average exact distribution
    p = np.exp(det["log_prob"]).mean(axis=0)
    assert chisquare_pvalue(det["selected"], np.log(p)) > GOF_ALPHA


def test_boosting_selection_exact_matches_sampler(sq_data):
    L = OutputPerturbation("squared", 1.0, SQ.y_bound, lam=0.5)
    sel = BoostingSelection(L, 2.0, 3, 1.0, 1e-5, 0.05, "printed", model_seed=2)
    outs, logp = sel.log_prob(sq_data)
    draws = sel.sample(sq_data, 20_000, rng=4)
    assert chisquare_pvalue(draws, logp) > GOF_ALPHA


# ---------------------------------------------------------------------------------- learners


def test_learners_shapes_and_domain(sq_data):
    w = output_perturbation(sq_data, "squared", 2.0, 0.5, 1e-5, x_bound=1.0, y_bound=SQ.y_bound, size=4, rng=1)
    assert w.shape == (4, 3)
    g = noisy_gd(sq_data[:500], "squared", 2.0, 0.5, 1e-5, x_bound=1.0, y_bound=SQ.y_bound, steps=5, size=4, rng=1)
    assert g.shape == (4, 3) and np.all(np.linalg.norm(g, axis=1) <= 2.0 * (1 + 1e-12))


def test_regularized_erm_satisfies_kkt():
    z = sample_records(LOG, 300, 2)
    for loss, data in (("logistic", z), ("squared", sample_records(SQ, 300, 2))):
        for B in (0.3, 50.0):
            w = regularized_erm(data, loss, B, 0.1)
            from reference.arora.learners import glm_gradient

            grad = glm_gradient(w[None], data, loss)[0] + 0.1 * w
            if np.linalg.norm(w) < B * (1 - 1e-9):
                assert np.linalg.norm(grad) < 1e-8
            else:  # on the sphere the gradient points inwards along w
                assert np.linalg.norm(grad - (grad @ w) / (w @ w) * w) < 1e-7 and grad @ w < 0


def test_delta_functions_values():
    # hand computation: Y=1, H=2, B=1, X=1
    assert delta_noisy_gd(1.0, 1.0, 1.0, 2.0, "printed") == 3.0
    assert delta_noisy_gd(1.0, 1.0, 1.0, 2.0, "standard") == 4.0
    assert delta_output_perturbation(1.0, 1.0, 1.0, 2.0, 0.5, 4, 1e-4, variant="printed") == pytest.approx(
        1 + 2 * 0.25 * math.log(4e4) + 2
    )


def test_subgaussian_constant_and_estimate():
    g = gaussian_output_subgaussian_constant(1.5, 0.4)
    assert subgaussian_mgf(1.5, 0.4, g) == pytest.approx(2.0, rel=1e-10)
    assert subgaussian_mgf(0.0, 0.4, g) < 2.0
    A = np.array([1.5, 0.0]) + np.random.default_rng(0).normal(0, 0.4, size=(50_000, 2))
    est, _ = subgaussian_mgf_estimate(A, 1.3 * g, rng=0)
    assert est < 2.0
    est_bad, _ = subgaussian_mgf_estimate(A, 0.8 * g, rng=0)
    assert est_bad > 2.0
    assert subgaussian_mgf_estimate(np.array([[1e300, -1e300]]), 1.0)[0] == math.inf


def test_sigma_tilde_formula():
    # sqrt(4 (Y^2 + H gamma^2 X^2)/(n eps)) with Y=1, H=2, gamma=1, X=1, n=100, eps=1: sqrt(12/100)
    assert boosting_sigma_tilde(100, 1.0, 1.0, 2.0, 1.0, 1.0) == pytest.approx(math.sqrt(0.12))
    assert boosting_laplace_scale(1.0, "standard") == pytest.approx(1 / math.sqrt(2))


# ---------------------------------------------------------------------------------- bad input


class _BadShape:
    loss, y_bound = "squared", SQ.y_bound

    def fit(self, data, B, epsilon, delta, size, rng=None):
        return np.zeros((size, 2))

    def loss_bound(self, *a, **k):
        return 1.0


class _NonFinite(_BadShape):
    def fit(self, data, B, epsilon, delta, size, rng=None):
        out = np.zeros((size, 3))
        out[0, 1] = np.nan
        return out


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"K": 0}, "K"),
        ({"K": 2.5}, "K"),
        ({"beta": 0.0}, "beta"),
        ({"beta": 1.0}, "beta"),
        ({"beta": -0.1}, "beta"),
        ({"epsilon": 0.0}, "epsilon"),
        ({"delta": 1.5}, "delta"),
        ({"variant": "typo"}, "variant"),
    ],
)
def test_grid_search_bad_parameters(sq_data, kwargs, match):
    args = dict(K=2, epsilon=1.0, delta=1e-5, beta=0.1)
    args.update(kwargs)
    variant = args.pop("variant", "standard")
    L = NoisyGD("squared", 1.0, SQ.y_bound, steps=2)
    with pytest.raises((ValueError, TypeError), match=match):
        private_grid_search(sq_data[:20], L, args["K"], args["epsilon"], args["delta"], args["beta"], variant=variant)


def test_bad_learner_outputs(sq_data):
    with pytest.raises(ValueError, match="learner returned shape"):
        private_grid_search(sq_data[:20], _BadShape(), 2, 1.0, 1e-5, 0.1)
    with pytest.raises(ValueError, match="learner returned non-finite"):
        private_grid_search(sq_data[:20], _NonFinite(), 2, 1.0, 1e-5, 0.1)
    with pytest.raises(ValueError, match="learner returned shape"):
        boosting(sq_data[:20], _BadShape(), 1.0, 2, 1.0, 1e-5, sigma_tilde=1.0)


def test_too_small_datasets(sq_data):
    L = NoisyGD("squared", 1.0, SQ.y_bound, steps=2)
    with pytest.raises(ValueError, match="data has 1 records, too few to split"):
        private_grid_search(sq_data[:1], L, 2, 1.0, 1e-5, 0.1)
    with pytest.raises(ValueError, match="data has 4 records, too few to split into 5 parts"):
        boosting(sq_data[:4], OutputPerturbation("squared", 1.0, SQ.y_bound), 1.0, 4, 1.0, 1e-5, sigma_tilde=1.0)
    with pytest.raises(ValueError, match="too few to split into 3 parts"):
        partition_records(sq_data[:2], 3)


@pytest.mark.parametrize("B", [0.0, -1.0, float("nan"), float("inf")])
def test_bad_B(sq_data, B):
    with pytest.raises(ValueError, match="B must"):
        output_perturbation(sq_data[:20], "squared", B, 0.5, 1e-5, x_bound=1.0, y_bound=SQ.y_bound)
    with pytest.raises(ValueError, match="B must"):
        noisy_gd(sq_data[:20], "squared", B, 0.5, 1e-5, x_bound=1.0, y_bound=SQ.y_bound)
    with pytest.raises(ValueError, match="B must"):
        boosting(sq_data[:20], NoisyGD("squared", 1.0, SQ.y_bound), B, 2, 1.0, 1e-5, sigma_tilde=1.0)


def test_out_of_domain_records_rejected(sq_data):
    bad = sq_data[:10].copy()
    bad[3, 0] = 5.0
    with pytest.raises(ValueError, match="data row 3 has"):
        output_perturbation(bad, "squared", 1.0, 0.5, 1e-5, x_bound=1.0, y_bound=SQ.y_bound)
    lab = sample_records(LOG, 10, 1)
    lab[2, -1] = 0.5
    with pytest.raises(ValueError, match="data row 2 has label"):
        noisy_gd(lab, "logistic", 1.0, 0.5, 1e-5, x_bound=1.0, y_bound=1.0)
    with pytest.raises(ValueError, match="loss must be"):
        output_perturbation(sq_data[:10], "hinge", 1.0, 0.5, 1e-5, x_bound=1.0, y_bound=SQ.y_bound)


@settings(max_examples=80, deadline=None)
@given(
    st.floats(min_value=0.0, max_value=1e300, allow_nan=False),
    st.floats(min_value=5e-324, max_value=1e300, allow_nan=False),
)
def test_subgaussian_constant_whole_float_range(mean_bound, sigma):
    g = gaussian_output_subgaussian_constant(mean_bound, sigma)
    assert math.isfinite(g) and g > 0
    if min(sigma, mean_bound if mean_bound > 0 else sigma) > 1e-290:
        # normal range: gamma is the root to ~1e-12 (subnormal gamma loses digits, checked finite only)
        assert subgaussian_mgf(mean_bound, sigma, g) == pytest.approx(2.0, rel=1e-6)


def test_subgaussian_constant_overflow_is_an_error():
    with pytest.raises(ValueError, match="exceeds the float64 range"):
        gaussian_output_subgaussian_constant(1.7e308, 1.0)
    with pytest.raises(ValueError, match="mean_bound"):
        gaussian_output_subgaussian_constant(-1.0, 1.0)


def test_noisy_gd_output_meets_bounded_subgaussian_condition(sq_data):
    from reference.arora.model_selection import bounded_output_subgaussian_constant

    W = noisy_gd(sq_data[:400], "squared", 2.0, 0.5, 1e-5, x_bound=1.0, y_bound=SQ.y_bound, steps=5, size=2000, rng=3)
    g = bounded_output_subgaussian_constant(2.0)
    est, _ = subgaussian_mgf_estimate(W, g, rng=1)
    assert est <= 2.0
    with pytest.raises(ValueError, match="norm_bound"):
        bounded_output_subgaussian_constant(0.0)


_POS = st.floats(min_value=5e-324, max_value=1.7e308, allow_nan=False, allow_infinity=False)


@settings(max_examples=100, deadline=None)
@given(_POS, _POS, _POS, _POS, st.sampled_from(["squared", "logistic"]))
def test_calibrations_finite_or_named_error_over_float_range(B, X, Y, sigma, loss):
    from reference.arora.learners import lipschitz_constant, noisy_gd_sigma, output_perturbation_sigma
    from reference.arora.model_selection import boosting_n0

    calls = [
        lambda: lipschitz_constant(loss, B, X, Y),
        lambda: output_perturbation_sigma(loss, B, X, Y, 100, 0.1, 0.5, 1e-5),
        lambda: noisy_gd_sigma(loss, B, X, Y, 100, 10, 0.5, 1e-5),
        lambda: delta_noisy_gd(B, X, Y, 2.0, "printed"),
        lambda: delta_noisy_gd(B, X, Y, 2.0, "standard"),
        lambda: delta_output_perturbation(B, X, Y, 2.0, sigma, 4, 1e-5, variant="printed"),
        lambda: delta_output_perturbation(B, X, Y, 2.0, sigma, 4, 1e-5, beta=0.1, dim=3),
        lambda: boosting_sigma_tilde(100, 1.0, Y, 2.0, sigma, X),
        lambda: boosting_n0(sigma, 0.1, 2.0, Y),
    ]
    for call in calls:
        try:
            v = call()
        except ValueError as exc:
            # overflow of a bound, or an underflow to 0 rejected by the Gaussian calibration
            assert "overflows float64" in str(exc) or "must be a positive finite number" in str(exc)
        else:
            assert math.isfinite(v) and v >= 0


def test_squared_scores_and_gradients_from_moments_match_the_per_record_definition():
    # boosting_scores (clipped or not) and glm_gradient use the data's moments for the squared loss; the
    # per-record definitions agree to rounding (measured <= 2e-15 relative; 1e-13 allows for the platform).
    from reference.arora.learners import glm_gradient
    from reference.arora.model_selection import boosting_scores

    p = make_problem("squared", (1.2, -0.6))
    z = sample_records(p, 80, 1)
    W = np.random.default_rng(3).normal(size=(500, 4, 2)) * 2
    per_record = glm_loss(W.reshape(-1, 2), z, "squared")
    for clip in (None, 1.0, 30.0, 1e9):
        want = -(per_record if clip is None else np.minimum(per_record, clip)).mean(axis=1).reshape(500, 4)
        np.testing.assert_allclose(boosting_scores(W, z, "squared", clip), want, rtol=1e-13, atol=0)
    x, y = z[:, :-1], z[:, -1]
    w = W[:, 0]
    np.testing.assert_allclose(
        glm_gradient(w, z, "squared"), (2.0 * (w @ x.T - y)) @ x / len(z), rtol=1e-13, atol=1e-14
    )


EXTREME = st.one_of(
    st.floats(min_value=-1e300, max_value=1e300, allow_nan=False),
    st.sampled_from([0.0, 5e-324, -5e-324, 1e-300, 1e154, -1e154, 1e300, -1e300]),
)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(EXTREME, EXTREME), min_size=1, max_size=5),
    st.lists(EXTREME, min_size=1, max_size=4),
    st.sampled_from([None, 1.0, 1e300]),
)
def test_squared_moments_paths_never_give_nan_at_extreme_records(records, models, clip):
    # The moments overflow beyond about 1e154 (inf - inf); such models must fall back to the per-record
    # definition (d = 1: that one has no NaN), never return NaN.
    import warnings

    from reference.arora.learners import glm_gradient
    from reference.arora.model_selection import boosting_scores

    z = np.array(records, dtype=np.float64)
    W = np.array(models, dtype=np.float64)[:, None]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # overflow to inf is the per-record value too
        per_record = glm_loss(W, z, "squared")
        scores = boosting_scores(W, z, "squared", clip)
        grad = glm_gradient(W, z, "squared")
        per_record_grad = (2.0 * (W @ z[:, :1].T - z[:, 1])) @ z[:, :1] / len(z)
    assert not np.any(np.isnan(scores)) and not np.any(np.isnan(grad[~np.isnan(per_record_grad)]))
    want = -(per_record if clip is None else np.minimum(per_record, clip)).mean(axis=1)
    bad = ~np.isfinite(scores)
    assert np.array_equal(scores[bad], want[bad])
