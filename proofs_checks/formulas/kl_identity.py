"""The KL identity [002 eq. (18)] in the proof of [002 Lemma 4], checked at high precision.

In the PAC-Bayes step of the proof of [002 Lemma 4] (appendix, [002 eq. (13)] to
[002 eq. (18)]) the posterior is the law of the multiplicative noise, ``v = N(0, 1/beta)``,
and the prior is ``v0 = N(1, 1/beta)``.  Identity (18) evaluates ``K(v, v0)`` of the
definition [002 eq. (14)] in three printed lines:

* line 1: ``int log(exp(beta (u-1)^2/2 - beta u^2/2)) dv(u)``  (the log density ratio),
* line 2: ``int (1 - 2u) beta / 2 dv(u)``                      (the ratio simplified),
* line 3: ``beta / 2``                                          (the closed form).

This module computes each line, and the KL divergence from its definition
(log of the ratio of the two Gaussian densities, each written out
separately), by mpmath quadrature at ``dps`` digits, splitting the real line
at the mean plus/minus ``4^k`` standard deviations so that no interval misses
the Gaussian mass whatever ``beta`` is.  The generic
:func:`gaussian_kl_quad` / :func:`gaussian_kl_closed_form` pair checks the
textbook formula for two arbitrary univariate Gaussians, which is what the
hypothesis tests exercise.

References
----------
.. [1] Hu, Ni, Xiao and Wang, appendix, proof of Lemma 4: [002 eq. (14)], [002 eq. (18)].
.. [2] O. Catoni and I. Giulini, "Dimension-free PAC-Bayesian bounds for matrices, vectors, and
       linear least squares regression", 2017 (the Gaussian perturbation argument).
"""

from __future__ import annotations

from typing import Callable, NamedTuple

import mpmath

from reference.validation import check_integer, check_positive

from ..verdicts import HIGH_PRECISION_TOL

__all__ = [
    "DEFAULT_DPS",
    "HIGH_PRECISION_TOL",
    "gaussian_kl_closed_form",
    "gaussian_kl_quad",
    "identity18_lines",
    "Identity18Report",
    "check_identity18",
]

#: Working precision (decimal digits) of every quadrature here.
DEFAULT_DPS = 30


def _real(name, value):
    try:
        x = mpmath.mpf(value)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be a real number, got {value!r}: {exc}") from None
    if not mpmath.isfinite(x):
        raise ValueError(f"{name} must be finite, got {value!r}")
    return x


def _pos(name, value):
    x = _real(name, value)
    if x <= 0:
        raise ValueError(f"{name} must be a positive finite number, got {value!r}")
    return x


def _breakpoints(mu, sd):
    """mu +- {1, 4, 16, 64} sd and +-inf: every piece sees a smooth, well-scaled integrand."""
    steps = [mpmath.mpf(4) ** k for k in range(0, 4)]
    pts = [mu - sd * s for s in reversed(steps)] + [mu] + [mu + sd * s for s in steps]
    return [-mpmath.inf] + pts + [mpmath.inf]


def _quad_to_digits(make, dps, cap=4000):
    """``quad`` of the integrand ``make()`` returns, to ``dps`` correct digits despite cancellation.

    ``make()`` (called inside the working precision) returns ``(f, points)``.
    The relative loss of a quadrature of a sign-changing integrand is about
    ``int |f| / |int f|``; the precision is raised until ``dps`` digits survive
    it (identity (18) at beta = 1e-300 cancels about 300 digits).
    """
    with mpmath.workdps(20):  # int |f| has no cancellation: 20 digits give its size
        f, pts = make()
        size = mpmath.quad(lambda u: abs(f(u)), pts)
    prec = dps + 10
    for _ in range(8):
        with mpmath.workdps(prec):
            f, pts = make()
            value = mpmath.quad(f, pts)
            lost = mpmath.inf if value == 0 else mpmath.log10(size / abs(value))
            if size == 0 or lost + dps + 5 <= prec:
                return +value
            prec = 2 * prec if value == 0 else int(mpmath.ceil(lost)) + dps + 10
            if prec > cap:
                break
    raise ArithmeticError(f"quadrature cancels beyond {cap} digits")


def _normal_logpdf(u, mu, var):
    return -((u - mu) ** 2) / (2 * var) - mpmath.log(2 * mpmath.pi * var) / 2


def gaussian_kl_closed_form(mu1, var1, mu2, var2, *, dps=DEFAULT_DPS):
    """``KL(N(mu1, var1) || N(mu2, var2))`` by the textbook closed form, in mpmath.

    ``(log(var2/var1) + (var1 + (mu1 - mu2)^2) / var2 - 1) / 2``, evaluated as
    ``(r - 1 - log r + (mu1 - mu2)^2 / var2) / 2`` with ``r = var1/var2`` so that
    equal variances give the mean term exactly, with no cancellation.

    Examples
    --------
    >>> float(gaussian_kl_closed_form(0, 0.5, 1, 0.5))   # beta = 2: beta/2 = 1
    1.0
    """
    with mpmath.workdps(check_integer("dps", dps, minimum=15)):
        m1, m2 = _real("mu1", mu1), _real("mu2", mu2)
        v1, v2 = _pos("var1", var1), _pos("var2", var2)
        r = v1 / v2
        return +((r - 1 - mpmath.log(r) + (m1 - m2) ** 2 / v2) / 2)


def gaussian_kl_quad(mu1, var1, mu2, var2, *, dps=DEFAULT_DPS):
    """``int log(p/q) dP`` for ``P = N(mu1, var1)``, ``Q = N(mu2, var2)``, by mpmath quadrature.

    The integrand is ``p(u) (log p(u) - log q(u))`` with both log-densities
    written out, integrated piecewise between the breakpoints
    ``mu1 +- 4^k sd1`` (``k = 0..3``) and infinity.
    """
    dps = check_integer("dps", dps, minimum=15)
    m1, m2 = _real("mu1", mu1), _real("mu2", mu2)
    v1, v2 = _pos("var1", var1), _pos("var2", var2)

    def make():
        def integrand(u):
            lp = _normal_logpdf(u, m1, v1)
            return mpmath.exp(lp) * (lp - _normal_logpdf(u, m2, v2))

        return integrand, _breakpoints(m1, mpmath.sqrt(v1))

    return _quad_to_digits(make, dps)


def identity18_lines(beta, *, dps=DEFAULT_DPS):
    """The three printed lines of identity (18) and the KL divergence by definition, at ``beta``.

    Returns
    -------
    dict of mpmath.mpf
        ``definition``: ``KL(N(0, 1/beta) || N(1, 1/beta))`` by quadrature of
        the log-ratio of the two densities; ``line1``/``line2``: quadratures of
        the printed integrands; ``line3``: ``beta/2``; ``closed_form``: the
        textbook Gaussian KL formula.
    """
    dps = check_integer("dps", dps, minimum=15)
    b = _pos("beta", beta)

    def density(u):
        return mpmath.sqrt(b / (2 * mpmath.pi)) * mpmath.exp(-b * u**2 / 2)

    def pts():
        return _breakpoints(mpmath.mpf(0), 1 / mpmath.sqrt(b))

    line1 = _quad_to_digits(
        lambda: (lambda u: mpmath.log(mpmath.exp(b * (u - 1) ** 2 / 2 - b * u**2 / 2)) * density(u), pts()), dps
    )
    line2 = _quad_to_digits(lambda: (lambda u: (1 - 2 * u) * b / 2 * density(u), pts()), dps)
    with mpmath.workdps(dps + 10):
        var = 1 / b
        return {
            "definition": gaussian_kl_quad(0, var, 1, var, dps=dps),
            "line1": line1,
            "line2": line2,
            "line3": b / 2,
            "closed_form": gaussian_kl_closed_form(0, var, 1, var, dps=dps + 10),
        }


class Identity18Report(NamedTuple):
    """Worst relative deviation of each printed line from the KL divergence by definition."""

    max_rel_error: dict
    worst_beta: dict
    points: int
    tolerance: float
    verdict: str


def check_identity18(betas, closed_form: Callable = None, *, dps=DEFAULT_DPS, tolerance=HIGH_PRECISION_TOL):
    """Compare identity (18) line by line with ``KL(N(0, 1/beta) || N(1, 1/beta))`` by quadrature.

    Parameters
    ----------
    betas : iterable of float
        Values of beta > 0.
    closed_form : callable, optional
        ``closed_form(beta) -> number``, the last line of (18); default ``beta/2`` as printed.
        Tests pass a wrong one (e.g. a flipped sign) to see the check fail.
    dps : int
        mpmath working digits.
    tolerance : float
        Largest accepted relative error (:data:`HIGH_PRECISION_TOL`).

    Returns
    -------
    Identity18Report
        ``verdict`` is ``"confirmed"`` when every line is within ``tolerance``
        at every beta, else ``"refuted"``.
    """
    if closed_form is None:
        closed_form = lambda b: mpmath.mpf(b) / 2  # noqa: E731
    check_positive("tolerance", tolerance)
    worst = {}
    at = {}
    n = 0
    with mpmath.workdps(dps):
        for beta in betas:
            lines = identity18_lines(beta, dps=dps)
            lines["line3"] = mpmath.mpf(closed_form(beta))
            ref = lines.pop("definition")
            for name, value in lines.items():
                err = float(abs(value - ref) / abs(ref))
                if err >= worst.get(name, -1.0):
                    worst[name], at[name] = err, float(beta)
            n += 1
    verdict = "confirmed" if all(e <= tolerance for e in worst.values()) else "refuted"
    return Identity18Report(worst, at, n, float(tolerance), verdict)
