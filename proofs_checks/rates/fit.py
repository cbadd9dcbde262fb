"""Log-log fits of error against a rate variable, compared with a stated exponent.

The stated rate is ``error ~ C * x^(-a)`` (x = n*epsilon, n, ...), i.e. a
slope of ``-a`` on log axes.  We fit the slope of the mean log-error by OLS
with heteroscedasticity-robust (HC3) standard errors, and the slope of the
``1 - zeta`` quantile by quantile regression (statsmodels ``QuantReg``), and
compare each confidence interval with ``-a``.

Verdicts
--------
``consistent``
    the interval reaches ``-a`` or below (decay at least as fast as stated is
    not excluded) and is narrower than ``max_ci_width``, or the whole interval
    lies at or below ``-a`` (decay at least as fast as stated, at this confidence);
``slower``
    the whole interval lies above ``-a``: decay slower than stated, which
    refutes the rate at this confidence;
``inconclusive``
    otherwise (interval too wide).

References
----------
.. [1] J. G. MacKinnon and H. White, "Some heteroskedasticity-consistent covariance matrix
       estimators with improved finite sample properties", J. Econometrics 29 (1985).
.. [2] R. Koenker, "Quantile Regression", Cambridge University Press (2005).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import asdict, dataclass

import numpy as np

from reference.validation import check_finite_array, check_probability

from ..verdicts import CONFIDENCE

__all__ = ["RateFit", "fit_rate", "RATE_VERDICT_TO_CLAIM"]

RATE_VERDICT_TO_CLAIM = {"consistent": "confirmed", "slower": "refuted", "inconclusive": "inconclusive"}


@dataclass
class RateFit:
    """Observed exponent (``-slope``) with its confidence interval and verdict."""

    stated_exponent: float
    observed_exponent: float
    ci_low: float
    ci_high: float
    confidence: float
    verdict: str
    method: str
    points: int
    observations: int

    def as_dict(self):
        return asdict(self)

    def summary(self) -> str:
        """A short text table: the exponents, the interval and the verdict.

        Returns
        -------
        str
            One ``field  value`` row per line (plain text, as the auditor's ``AuditResult.summary()``).

        Examples
        --------
        >>> fit = RateFit(0.5, 0.61, 0.52, 0.70, 0.95, "consistent", "quantile regression", 8, 384)
        >>> print(fit.summary())
        rate fit: error ~ x^(-0.61), stated x^(-0.5)
          verdict             consistent
          observed_exponent   0.61 [0.52, 0.7] (confidence 0.95)
          stated_exponent     0.5
          method              quantile regression
          data                8 points, 384 observations
        """
        rows = [
            ("verdict", self.verdict),
            (
                "observed_exponent",
                f"{self.observed_exponent:.4g} [{self.ci_low:.4g}, {self.ci_high:.4g}] (confidence {self.confidence:g})",
            ),
            ("stated_exponent", f"{self.stated_exponent:.4g}"),
            ("method", self.method),
            ("data", f"{self.points} points, {self.observations} observations"),
        ]
        width = max(len(name) for name, _ in rows)
        head = f"rate fit: error ~ x^(-{self.observed_exponent:.4g}), stated x^(-{self.stated_exponent:.4g})"
        return "\n".join([head] + [f"  {name.ljust(width)}   {value}" for name, value in rows])


def _verdict(slope_lo, slope_hi, stated, max_ci_width):
    if slope_lo > -stated:
        return "slower"
    # The whole interval at or below -a: decay at least as fast as stated, whatever its width.
    if slope_hi <= -stated or slope_hi - slope_lo <= max_ci_width:
        return "consistent"
    return "inconclusive"


def fit_rate(x, errors, stated_exponent, *, confidence=CONFIDENCE, quantile=None, max_ci_width=None):
    """Fit ``log error = c + slope * log x`` and judge it against ``slope = -stated_exponent``.

    Parameters
    ----------
    x : array_like, shape (p,)
        Rate variable at each grid point (positive).
    errors : array_like, shape (p, r)
        Positive errors, ``r`` repetitions per point.
    stated_exponent : float
        ``a`` in the stated rate ``x^(-a)``.
    confidence : float, default :data:`proofs_checks.verdicts.CONFIDENCE` (0.95)
        Two-sided level of the interval.
    quantile : float or None
        Fit the ``quantile`` of the errors by quantile regression (e.g. ``1 - zeta``);
        ``None`` fits the mean log-error by OLS with HC3 standard errors.
    max_ci_width : float or None
        Widest interval still called conclusive (default ``max(0.25, a/2)``).

    Returns
    -------
    RateFit
        ``observed_exponent = -slope``; ``ci_low``/``ci_high`` bound the exponent.
    """
    x = check_finite_array("x", x, ndim=1)
    err = check_finite_array("errors", errors, ndim=2)
    check_probability("confidence", confidence)
    if err.shape[0] != x.size:
        raise ValueError(f"errors must have one row per x value, got {err.shape[0]} rows for {x.size} values")
    if np.any(x <= 0) or np.any(err <= 0):
        raise ValueError("x and errors must be positive for a log-log fit")
    if x.size < 3:
        raise ValueError(f"a rate fit needs at least 3 grid points, got {x.size}")
    # imported here: statsmodels.api (with pandas) costs ~0.8 s of CPU at import, paid by the rate fits only,
    # not by every process that builds the registry
    import statsmodels.api as sm
    from statsmodels.regression.quantile_regression import QuantReg
    from statsmodels.tools.sm_exceptions import IterationLimitWarning

    lx = np.repeat(np.log(x), err.shape[1])
    ly = np.log(err).ravel()
    design = sm.add_constant(lx)
    alpha = 1 - confidence
    if quantile is None:
        res = sm.OLS(ly, design).fit(cov_type="HC3")
        method = "OLS of log error, HC3 robust standard errors"
    else:
        check_probability("quantile", quantile)
        method = f"quantile regression of log error at q={quantile}"
        with warnings.catch_warnings():
            # A degenerate (exact) fit makes statsmodels' sparsity estimate divide by zero.
            warnings.simplefilter("ignore", RuntimeWarning)
            warnings.simplefilter("ignore", IterationLimitWarning)
            res = QuantReg(ly, design).fit(q=quantile)
    slope = float(res.params[1])
    lo, hi = (float(v) for v in res.conf_int(alpha=alpha)[1])
    if not (math.isfinite(lo) and math.isfinite(hi)):
        # Quantile regression's interval is undefined when the residuals vanish (errors exactly on a
        # line in log-log, e.g. an exact, data-independent error).  The fitted line is then exact:
        # the interval is the point itself.  Any other non-finite interval stays inconclusive.
        resid = np.abs(ly - design @ np.asarray(res.params))
        if np.all(resid <= 1e-9 * max(1.0, float(np.max(np.abs(ly))))):
            lo = hi = slope
            method += " (exact fit: zero residuals, interval = point)"
        else:
            # statsmodels' Hall-Sheather bandwidth h gives a NaN interval when q + h > 1, i.e. with few
            # observations at a high quantile (at q = 0.9, fewer than about 50).  No silent fallback:
            # other bandwidths are anti-conservative there.  The fit is then inconclusive.
            lo, hi = -math.inf, math.inf
            method += " (interval undefined: too few observations for this quantile)"
    width = max(0.25, stated_exponent / 2) if max_ci_width is None else max_ci_width
    verdict = _verdict(lo, hi, stated_exponent, width)
    return RateFit(
        stated_exponent=float(stated_exponent),
        observed_exponent=-slope,
        ci_low=-hi,
        ci_high=-lo,
        confidence=confidence,
        verdict=verdict,
        method=method,
        points=int(x.size),
        observations=int(ly.size),
    )
