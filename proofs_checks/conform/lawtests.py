"""The distributional tests the kit runs on draws: counts against an exact finite law, Laplace noise.

Both have family-wise level :data:`ALPHA` by default (Bonferroni over their own tests); their power at the
kit's sizes is stated by :func:`.samplers.stated_power` and measured in ``tests/test_conform_kit.py``.
"""

from __future__ import annotations

import numpy as np
from scipy import stats

__all__ = ["ALPHA", "counts_test", "laplace_noise_test"]

#: Family-wise level of each sampler's tests (thresholds fixed before the run).
ALPHA = 1e-3


def counts_test(counts, probs, alpha=ALPHA, min_prob=1e-3):
    """``(ok, message, detail)``: per-outcome z-tests (p >= min_prob) and a chi-square test, Bonferroni.

    Parameters
    ----------
    counts : array_like
        How often each outcome was drawn.
    probs : array_like
        The exact probability of each outcome.
    alpha : float
        Family-wise level of the tests.
    min_prob : float
        Outcomes at least this likely get their own z-test.

    Returns
    -------
    ok : bool
        False when a test rejects the exact law.
    message : str or None
        The rejecting test, its statistic and p-value.
    detail : dict
        Every statistic.

    Examples
    --------
    >>> counts_test([2500, 7500], [0.25, 0.75])[0], counts_test([3000, 7000], [0.25, 0.75])[0]
    (True, False)
    """
    counts = np.asarray(counts, dtype=np.float64)
    probs = np.asarray(probs, dtype=np.float64)
    n = counts.sum()
    big = probs >= min_prob
    n_tests = int(big.sum()) + 1
    with np.errstate(all="ignore"):
        z = (counts - n * probs) / np.sqrt(n * probs * (1.0 - probs))
    pz = np.where(big, 2.0 * stats.norm.sf(np.abs(z)), 1.0)
    expected = n * probs
    small = expected < 5.0
    obs = np.append(counts[~small], counts[small].sum())
    exp = np.append(expected[~small], expected[small].sum())
    keep = exp > 0
    chi2 = float(np.sum((obs[keep] - exp[keep]) ** 2 / exp[keep]))
    dof = max(int(keep.sum()) - 1, 1)
    p_chi2 = float(stats.chi2.sf(chi2, dof))
    worst = int(np.argmin(pz))
    level = alpha / n_tests
    detail = {
        "draws": int(n),
        "tests": n_tests,
        "level_per_test": level,
        "min_z_p_value": float(pz[worst]),
        "worst_outcome": worst,
        "chi2": chi2,
        "chi2_dof": dof,
        "chi2_p_value": p_chi2,
    }
    if pz[worst] < level:
        return (
            False,
            (
                f"outcome {worst}: observed frequency {counts[worst] / n:.6g} vs exact probability "
                f"{probs[worst]:.6g} (relative error {counts[worst] / n / probs[worst] - 1:+.3%}), "
                f"z = {z[worst]:.2f}, p = {pz[worst]:.3g} < {level:.3g} "
                f"(alpha {alpha:g} Bonferroni over {n_tests} tests, {int(n)} draws)"
            ),
            detail,
        )
    if p_chi2 < level:
        return (
            False,
            (f"chi-square over all outcomes: {chi2:.1f} on {dof} dof, p = {p_chi2:.3g} < {level:.3g} ({int(n)} draws)"),
            detail,
        )
    return True, None, detail


def laplace_noise_test(noise, scale, alpha=ALPHA):
    """``(ok, message, detail)`` for noise that should be i.i.d. Laplace(0, scale): a scale test and a KS test.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> laplace_noise_test(rng.laplace(0.0, 2.0, 5000), 2.0)[0], laplace_noise_test(rng.laplace(0.0, 2.4, 5000), 2.0)[0]
    (True, False)
    """
    x = np.abs(np.asarray(noise, dtype=np.float64).ravel()) / scale
    k = x.size
    stat = 2.0 * x.sum()
    p_scale = float(2.0 * min(stats.chi2.cdf(stat, 2 * k), stats.chi2.sf(stat, 2 * k)))
    ks = stats.kstest(x, "expon")
    level = alpha / 2.0
    ratio = x.mean()
    detail = {
        "noise_draws": k,
        "scale_ratio": float(ratio),
        "scale_p_value": p_scale,
        "ks_statistic": float(ks.statistic),
        "ks_p_value": float(ks.pvalue),
        "level_per_test": level,
    }
    if p_scale < level:
        return (
            False,
            (
                f"noise scale: mean |noise| / exact scale {scale:.6g} is {ratio:.4f} (expected 1), "
                f"chi2 scale test p = {p_scale:.3g} < {level:.3g} ({k} draws)"
            ),
            detail,
        )
    if ks.pvalue < level:
        return (
            False,
            (
                f"noise shape: KS statistic {ks.statistic:.4f} against Laplace(0, {scale:.6g}), "
                f"p = {ks.pvalue:.3g} < {level:.3g} ({k} draws)"
            ),
            detail,
        )
    return True, None, detail
