import numpy as np
import pytest

from proofs_checks.audit.neighbours import (
    black_box_pairs,
    check_neighbouring,
    default_dataset,
    differing_rows,
    load_pair,
    replacement_candidates,
    search_exact,
)
from tests._audit_helpers import AdditiveExp, FiniteCoin


def test_check_neighbouring():
    D = np.zeros((4, 2))
    Dp = D.copy()
    Dp[2] = [1e300, -1e300]
    check_neighbouring(D, Dp)
    assert differing_rows(D, Dp).tolist() == [2]
    Dp[3] = 1.0
    with pytest.raises(ValueError, match="not neighbouring.*any-pair"):
        check_neighbouring(D, Dp)
    check_neighbouring(D, Dp, any_pair=True)
    with pytest.raises(ValueError, match="same shape"):
        check_neighbouring(D, np.zeros((5, 2)))
    with pytest.raises(ValueError, match="NaN"):
        check_neighbouring(D, D * np.nan)


def test_candidates_cover_extremes():
    c = replacement_candidates(3, rng=0)
    assert np.all(np.isfinite(c))
    assert np.any(c == 0.0) and np.any(np.abs(c) >= 1e300) and np.any((c != 0) & (np.abs(c) < 1e-300))


def test_incremental_search_bounds_and_refutes_broken_factor():
    # Scores move by at most 1 each, so with factor c the loss is at most 2c (one score up, the others
    # down); from a heavy-tailed base dataset the search must stay below 1 for c = 1/2 and exceed 1 for
    # the broken c = 1 (the factor 2 dropped), whose loss on the pair of ExponentialArgmax is 1.3106.
    D = np.random.default_rng(0).standard_t(1.5, size=(50, 3))
    ok = search_exact(AdditiveExp(0.5), D, rng=1, max_evaluations=2000)
    assert ok.extra["incremental"] and 0.6636 < ok.epsilon <= 1.0 + 1e-12
    bad = search_exact(AdditiveExp(1.0), D, rng=1, max_evaluations=2000)
    assert bad.epsilon > 1.3
    assert differing_rows(bad.D, bad.D_prime).size <= 1


def test_incremental_matches_full_rescoring():
    class Full(AdditiveExp):
        score_terms = property(lambda self: (_ for _ in ()).throw(AttributeError()))

    D = np.random.default_rng(2).standard_t(1.5, size=(6, 3))
    cands = replacement_candidates(3, rng=3)[::7]
    a = search_exact(AdditiveExp(1.0), D, rng=4, candidates=cands, refine_steps=0)
    m = AdditiveExp(1.0)
    b = search_exact(_NoTerms(m), D, rng=4, candidates=cands, refine_steps=0)
    assert a.epsilon == pytest.approx(b.epsilon, abs=1e-12)


class _NoTerms:
    def __init__(self, inner):
        self.inner = inner

    def log_prob(self, data):
        return self.inner.log_prob(data)

    def sample(self, data, size, rng):
        return self.inner.sample(data, size, rng)


def test_search_budget_and_default_dataset(tmp_path):
    D = default_dataset(FiniteCoin(), rng=0)
    assert D.ndim == 2
    res = search_exact(FiniteCoin(), D, rng=0, max_evaluations=10, refine_steps=5)
    assert res.evaluated <= 10
    pairs = black_box_pairs(D)
    assert all(differing_rows(a, b).size == 1 for a, b, _ in pairs)
    np.savez(tmp_path / "p.npz", D=D, D_prime=pairs[0][1])
    a, b = load_pair(tmp_path / "p.npz")
    assert np.array_equal(a, D)
    np.savez(tmp_path / "q.npz", X=D)
    with pytest.raises(ValueError, match="D_prime"):
        load_pair(tmp_path / "q.npz")
