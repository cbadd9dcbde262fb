"""Shared statistical helpers for the tests."""

import numpy as np
from scipy import stats

#: Significance level of every goodness-of-fit test in the suite (seeded, so deterministic).
GOF_ALPHA = 1e-3


def chisquare_pvalue(draws, log_prob, min_expected=5.0):
    """Pearson chi-square p-value of integer draws against exact probabilities (sparse cells pooled)."""
    p = np.exp(np.asarray(log_prob))
    n = len(draws)
    observed = np.bincount(draws, minlength=p.size).astype(float)
    expected = n * p
    big = expected >= min_expected
    obs = np.append(observed[big], observed[~big].sum())
    exp = np.append(expected[big], expected[~big].sum())
    if exp[-1] == 0:
        obs, exp = obs[:-1], exp[:-1]
    exp *= obs.sum() / exp.sum()
    return stats.chisquare(obs, exp).pvalue
