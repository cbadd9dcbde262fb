"""Exact composition of pure-DP mechanisms, to judge [002 Lemma 2] (advanced composition).

[002 Lemma 2] splits a target ``(eps, delta)`` into a
per-round ``(eps', delta')`` and claims that ``T`` adaptive rounds compose to
``(eps, T delta' + delta)``.  Advanced composition is a bound; the exact
answer is known:

* Randomized response is the worst case.  By the optimal composition theorem of
  Kairouz, Oh and Viswanath (KOV), the ``T``-fold adaptive composition of
  ``(eps0, delta0)``-DP mechanisms is dominated by the ``T``-fold product of
  the ``(eps0, delta0)`` randomized-response pair, whose hockey-stick
  divergence at ``eps`` is (:func:`exact_composition_delta`)

      ``1 - (1 - delta0)^T (1 - delta_RR(eps))``,
      ``delta_RR(eps) = sum_{i: (T-2i) eps0 > eps} C(T,i) (e^{(T-i) eps0} - e^{eps + i eps0}) / (1 + e^{eps0})^T``.

  The supremum over all mechanisms is attained, so this is the smallest total
  delta that holds for every choice of ``(eps0, delta0)``-DP rounds.
* The Laplace mechanism is one particular ``eps0``-DP mechanism; its
  ``T``-fold composition is computed from its privacy-loss distribution (PLD)
  by numerical convolution (:func:`laplace_composition_delta`), with rounding
  of the loss up (and down) to a grid, which brackets the exact delta.

References
----------
.. [1] P. Kairouz, S. Oh and P. Viswanath, "The composition theorem for differential privacy",
       ICML 2015, Theorem 3.3 (optimal composition).
.. [2] J. Murtagh and S. Vadhan, "The complexity of computing the optimal composition of
       differential privacy", TCC 2016 (the binomial-sum form of the hockey-stick divergence).
.. [3] A. Koskela, J. Jalko and A. Honkela, "Computing tight differential privacy guarantees
       using FFT", AISTATS 2020; Y. Zhu, J. Dong and Y.-X. Wang, "Optimal accounting of
       differential privacy via characteristic function", AISTATS 2022 (pessimistic PLD
       discretisation).
.. [4] N. J. Higham, "Accuracy and stability of numerical algorithms", 2nd ed., Section 24.1
       (error of FFT-based convolution).
.. [5] Hu, Ni, Xiao and Wang, [002 Lemma 2].
"""

from __future__ import annotations

import math
import numbers
from typing import NamedTuple

import mpmath
import numpy as np
from scipy import signal, special

from reference.mechanisms.exponential import _log_sum_exp
from reference.validation import check_delta, check_epsilon, check_integer

__all__ = [
    "rr_composition_delta",
    "rr_composition_delta_mpmath",
    "exact_composition_delta",
    "exact_composition_epsilon",
    "largest_step_factor",
    "laplace_pld",
    "LaplaceCompositionDelta",
    "laplace_composition_delta",
    "laplace_single_delta",
]

_U = 2.0**-53


def _check_real(name, value):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {value!r} of type {type(value).__name__}")
    return float(value)


def _check_eps_target(epsilon):
    e = _check_real("epsilon", epsilon)
    if math.isnan(e) or e < 0 or math.isinf(e):
        raise ValueError(f"epsilon must be a finite number >= 0, got {epsilon!r}")
    return e


def rr_composition_delta(epsilon_step, rounds, epsilon):
    """Exact ``delta(eps)`` of ``rounds``-fold randomized response with parameter ``epsilon_step``.

    Parameters
    ----------
    epsilon_step : float
        ``eps0 > 0`` of each round.
    rounds : int
        ``T >= 1``.
    epsilon : float
        Target ``eps >= 0``.

    Returns
    -------
    float
        The hockey-stick divergence ``sum (P - e^eps Q)_+`` of the ``T``-fold
        product pair (KOV), evaluated as a log-sum-exp of positive terms:
        ``log C(T, i) + (T-i) eps0 + log(-expm1(eps - (T-2i) eps0)) - T log(1 + e^eps0)``.
        No term cancels; the relative error is a few ulps times
        ``|log C(T, i)|`` (about 1e-11 at ``T = 1e6``), cross-checked against
        :func:`rr_composition_delta_mpmath`.

    Examples
    --------
    >>> round(rr_composition_delta(1.0, 1, 0.0), 12)   # one round: (e - 1)/(e + 1) = tanh(1/2)
    0.46211715726
    """
    e0 = check_epsilon(epsilon_step, "epsilon_step")
    t = check_integer("rounds", rounds, minimum=1)
    eps = _check_eps_target(epsilon)
    # Terms with (T - 2i) eps0 > eps, i.e. i < (T - eps/eps0)/2.
    i_max = math.ceil((t - eps / e0) / 2.0)
    i = np.arange(0, max(min(i_max, t + 1), 0), dtype=np.float64)
    loss = (t - 2.0 * i) * e0
    i = i[loss > eps]
    if i.size == 0:
        return 0.0
    loss = (t - 2.0 * i) * e0
    log_terms = (
        special.gammaln(t + 1.0)
        - special.gammaln(i + 1.0)
        - special.gammaln(t - i + 1.0)
        + (t - i) * e0
        + np.log(-np.expm1(eps - loss))
        - t * np.logaddexp(0.0, e0)
    )
    # scipy's logsumexp arithmetic without its per-call overhead (0.5 ms a call; the Lemma 2 grids call this
    # thousands of times): the batched copy of the exponential mechanism, within a few ulps of scipy's value
    # (the exp/log code is the CPU's choice on both sides; tests/test_formulas_composition.py states the bound)
    return float(np.exp(_log_sum_exp(log_terms)[0]))


def rr_composition_delta_mpmath(epsilon_step, rounds, epsilon, *, dps=50):
    """The same binomial sum in mpmath at ``dps`` digits (reference for tests; O(T) mpmath terms)."""
    e0 = check_epsilon(epsilon_step, "epsilon_step")
    t = check_integer("rounds", rounds, minimum=1)
    eps = _check_eps_target(epsilon)
    with mpmath.workdps(check_integer("dps", dps, minimum=15)):
        e0m, epsm = mpmath.mpf(e0), mpmath.mpf(eps)
        total = mpmath.mpf(0)
        for i in range(t + 1):
            if (t - 2 * i) * e0m <= epsm:
                break
            total += mpmath.binomial(t, i) * (mpmath.exp((t - i) * e0m) - mpmath.exp(epsm + i * e0m))
        return +(total / (1 + mpmath.exp(e0m)) ** t)


#: The backends of :func:`exact_composition_delta`.
EXACT_BACKENDS = ("closed-form", "dp_accounting")
#: The backends of :func:`laplace_composition_delta`.
LAPLACE_BACKENDS = ("fft", "dp_accounting")
#: Value discretisation of the dp_accounting backends, relative to the per-round epsilon (dp_accounting's
#: default interval is 1e-4 absolute; relative keeps the grid's size independent of eps0).
DP_ACCOUNTING_POINTS_PER_STEP = 10_000


def _check_backend(backend, choices):
    if backend not in choices:
        raise ValueError(f"backend must be one of {', '.join(map(repr, choices))}, got {backend!r}")
    return backend


def _pld_module():
    # dp_accounting is a core dependency (the gray-box composition check); imported here only when asked for,
    # so the closed forms cost no import of it
    from dp_accounting.pld import common, privacy_loss_distribution

    return common, privacy_loss_distribution


def exact_composition_delta(epsilon_step, delta_step, rounds, epsilon, *, backend="closed-form"):
    """Optimal (KOV) total delta at ``epsilon`` of ``rounds`` adaptive (eps0, delta0)-DP mechanisms.

    ``1 - (1 - delta0)^T (1 - delta_RR(eps))``, computed as
    ``-expm1(T log1p(-delta0)) + exp(T log1p(-delta0)) delta_RR`` (no cancellation
    for tiny ``delta0``).  ``delta_step = 0`` gives the pure-DP case.

    ``backend="dp_accounting"`` composes dp_accounting's privacy loss distribution of an (eps0, delta0)-DP
    mechanism (``from_privacy_parameters``, the randomized-response pair) instead, on a grid of
    ``eps0 / 10,000`` with its pessimistic discretisation: an upper bound on the closed form, within about
    ``1e-9`` relative of it on the tests' grid (the closed form is the cross-check; a 50-digit mpmath sum
    checks the closed form).
    """
    _check_backend(backend, EXACT_BACKENDS)
    d0 = _check_real("delta_step", delta_step)
    if not (0.0 <= d0 < 1.0):
        raise ValueError(f"delta_step must lie in [0, 1), got {delta_step!r}")
    t = check_integer("rounds", rounds, minimum=1)
    if backend == "dp_accounting":
        e0 = check_epsilon(epsilon_step, "epsilon_step")
        eps = _check_eps_target(epsilon)
        common, pld = _pld_module()
        one = pld.from_privacy_parameters(
            common.DifferentialPrivacyParameters(e0, d0),
            value_discretization_interval=e0 / DP_ACCOUNTING_POINTS_PER_STEP,
        )
        return float(min(1.0, one.self_compose(t).get_delta_for_epsilon(eps)))
    d_rr = rr_composition_delta(epsilon_step, t, epsilon)
    log_keep = t * math.log1p(-d0)
    return -math.expm1(log_keep) + math.exp(log_keep) * d_rr


def exact_composition_epsilon(epsilon_step, delta_step, rounds, delta_total, *, rtol=1e-12):
    """Smallest ``eps`` whose optimal total delta (:func:`exact_composition_delta`) is <= ``delta_total``.

    Bisection on the non-increasing map ``eps -> delta``; returns ``inf`` when
    even ``eps = T eps0`` leaves more than ``delta_total`` (i.e. the
    ``delta_step`` part alone exceeds it), ``0.0`` when ``eps = 0`` suffices.
    """
    e0 = check_epsilon(epsilon_step, "epsilon_step")
    t = check_integer("rounds", rounds, minimum=1)
    target = check_delta(delta_total, "delta_total")
    f = lambda e: exact_composition_delta(e0, delta_step, t, e)  # noqa: E731
    hi = t * e0
    if f(hi) > target:
        return math.inf
    if f(0.0) <= target:
        return 0.0
    lo = 0.0
    while hi - lo > rtol * hi:
        mid = 0.5 * (lo + hi)
        if f(mid) > target:
            lo = mid
        else:
            hi = mid
    return hi


def largest_step_factor(epsilon_step, delta_step, rounds, epsilon, delta_total, *, rtol=1e-9, cap=1e6):
    """Largest ``c`` such that rounds at ``(c eps0, delta0)`` still meet ``(epsilon, delta_total)`` exactly.

    A measure of how conservative a per-round split is: ``c = 1`` means tight,
    ``c = 2.4`` means the per-round epsilon could be 2.4 times larger.  Returns
    0.0 when even ``c -> 0`` fails (the delta part alone exceeds ``delta_total``).
    """
    e0 = check_epsilon(epsilon_step, "epsilon_step")
    t = check_integer("rounds", rounds, minimum=1)
    target = check_delta(delta_total, "delta_total")
    ok = lambda c: exact_composition_delta(c * e0, delta_step, t, epsilon) <= target  # noqa: E731
    if not ok(rtol):
        return 0.0
    lo, hi = rtol, 1.0
    while ok(hi):
        lo, hi = hi, 2.0 * hi
        if hi > cap:
            return math.inf
    while hi - lo > rtol * hi:
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if ok(mid) else (lo, mid)
    return lo


def laplace_single_delta(epsilon_step, epsilon):
    """Exact delta(eps) of one Laplace mechanism with ``eps0 = Delta/b``: ``1 - e^{(eps - eps0)/2}``."""
    e0 = check_epsilon(epsilon_step, "epsilon_step")
    eps = _check_eps_target(epsilon)
    return -math.expm1((eps - e0) / 2.0) if eps < e0 else 0.0


def laplace_pld(epsilon_step, points_per_step, rounding="up"):
    """Privacy-loss distribution of the Laplace mechanism, on the grid ``h = eps0 / m``.

    The worst pair ``Lap(0, b)`` vs ``Lap(Delta, b)`` (``eps0 = Delta/b``) has
    loss ``L = (|x - Delta| - |x|)/b`` under the first law: an atom ``1/2`` at
    ``eps0``, an atom ``e^{-eps0}/2`` at ``-eps0``, and density
    ``e^{(l - eps0)/2}/4`` on ``(-eps0, eps0)``.

    Parameters
    ----------
    epsilon_step : float
    points_per_step : int
        ``m``: grid cells per ``eps0``.
    rounding : {"up", "down"}
        Each continuous cell's mass goes to its upper (``"up"``: pessimistic,
        the loss only increases) or lower end.  Atoms sit on the grid exactly.

    Returns
    -------
    numpy.ndarray
        Masses at losses ``j h`` for ``j = -m, ..., m`` (length ``2m + 1``).
    """
    e0 = check_epsilon(epsilon_step, "epsilon_step")
    m = check_integer("points_per_step", points_per_step, minimum=1)
    if rounding not in ("up", "down"):
        raise ValueError(f"rounding must be 'up' or 'down', got {rounding!r}")
    h = e0 / m
    lower = np.arange(-m, m, dtype=np.float64) * h  # lower ends of the 2m cells
    cells = np.exp((lower - e0) / 2.0) * (np.expm1(h / 2.0) / 2.0)
    pmf = np.zeros(2 * m + 1)
    if rounding == "up":
        pmf[1:] += cells
    else:
        pmf[:-1] += cells
    pmf[-1] += 0.5
    pmf[0] += 0.5 * math.exp(-e0)
    return pmf


def _fft_convolve(a, b):
    """FFT convolution of non-negative vectors, clipped at 0, and a bound on its l1 float error.

    Bound used: the l2 error of an FFT-based convolution is at most
    ``c log2(n) u ||a||_1 ||b||_2`` (Higham 2002, Section 24.1, with the
    constant taken generously as ``c = 10``), hence an l1 error of at most
    ``sqrt(n)`` times that.  Clipping negatives at 0 only moves entries towards
    their non-negative true values.
    """
    n = a.size + b.size - 1
    out = signal.fftconvolve(a, b)
    np.maximum(out, 0.0, out=out)
    nb = min(float(np.linalg.norm(a)) * float(np.sum(b)), float(np.sum(a)) * float(np.linalg.norm(b)))
    return out, 10.0 * math.log2(max(n, 2)) * _U * math.sqrt(n) * nb


def _compose(pmf, rounds):
    """``rounds``-fold self-convolution by repeated squaring, and an l1 float error bound.

    Errors propagate additively to first order: ``||a' * b' - a * b||_1 <=
    ||a' - a||_1 + ||b' - b||_1`` (+ their product) when the masses are <= 1.
    The relative rounding of the single-round masses (a few ulps) is below the
    bracket's width by many orders of magnitude and not tracked.
    """
    result, res_err = None, 0.0
    base, base_err = pmf, 0.0
    t = rounds
    while t:
        if t & 1:
            if result is None:
                result, res_err = base.copy(), base_err
            else:
                result, e = _fft_convolve(result, base)
                res_err += base_err + e + res_err * base_err
        t >>= 1
        if t:
            base, e = _fft_convolve(base, base)
            base_err = 2 * base_err + e + base_err * base_err
    return result, res_err


class LaplaceCompositionDelta(NamedTuple):
    """Bracket on the exact delta of ``T`` composed Laplace mechanisms."""

    lower: float
    upper: float
    points_per_step: int
    grid_points: int
    float_error_bound: float


def laplace_composition_delta(
    epsilon_step, rounds, epsilon, *, points_per_step=None, max_points=2_000_001, backend="fft"
):
    """Bracket ``[lower, upper]`` on delta(eps) of ``rounds`` composed eps0-DP Laplace mechanisms.

    The PLD of one round is rounded up (pessimistic) and down
    (:func:`laplace_pld`), composed by FFT convolution, and
    ``delta = sum_l p(l) (1 - e^{eps - l})_+`` is evaluated on each.  Rounding
    every round's loss up couples a loss sum ``L' >= L`` to the exact one, and
    ``l -> (1 - e^{eps - l})_+`` is non-decreasing, so the "up" value bounds
    the exact delta from above and the "down" value from below; the FFT's
    float error bound (see :func:`_fft_convolve`) is added to / subtracted from them.

    ``points_per_step`` defaults to the largest ``m`` with ``2 T m + 1 <= max_points``.
    The bracket's width is about ``z sqrt(T) / m`` relative, ``z`` the normal
    quantile of ``delta``.

    ``backend="dp_accounting"`` takes the bracket from dp_accounting's Laplace privacy loss distributions
    instead (``from_laplace_mechanism`` with scale ``1/eps0``: its pessimistic estimate for ``upper``, its
    optimistic one for ``lower``, on a grid of ``eps0 / points_per_step``, default 10,000), composed by
    dp_accounting; ``float_error_bound`` and ``grid_points`` are then 0 (dp_accounting states no float error
    bound, and its truncated grid is internal to it).  The FFT backend stays the cross-check: the tests
    require the two brackets to overlap.
    """
    _check_backend(backend, LAPLACE_BACKENDS)
    e0 = check_epsilon(epsilon_step, "epsilon_step")
    t = check_integer("rounds", rounds, minimum=1)
    eps = _check_eps_target(epsilon)
    if backend == "dp_accounting":
        return _laplace_composition_dp_accounting(e0, t, eps, points_per_step)
    if points_per_step is None:
        points_per_step = max(1, (int(max_points) - 1) // (2 * t))
    m = check_integer("points_per_step", points_per_step, minimum=1)
    h = e0 / m
    values = []
    float_err = 0.0
    for rounding in ("up", "down"):
        pmf, err = _compose(laplace_pld(e0, m, rounding), t)
        losses = np.arange(-t * m, t * m + 1, dtype=np.float64) * h
        weights = -np.expm1(np.minimum(eps - losses, 0.0))
        values.append(float(np.dot(pmf, weights)))
        float_err = max(float_err, err)
    upper = min(1.0, values[0] + float_err)
    lower = max(0.0, values[1] - float_err)
    return LaplaceCompositionDelta(lower, upper, m, 2 * t * m + 1, float_err)


def _laplace_composition_dp_accounting(e0, t, eps, points_per_step):
    """:func:`laplace_composition_delta`'s bracket from dp_accounting's privacy loss distributions."""
    if points_per_step is None:
        points_per_step = DP_ACCOUNTING_POINTS_PER_STEP
    m = check_integer("points_per_step", points_per_step, minimum=1)
    _, pld = _pld_module()
    interval = e0 / m
    upper_pld = pld.from_laplace_mechanism(1.0 / e0, value_discretization_interval=interval).self_compose(t)
    # the optimistic estimate exists only in the privacy-buckets discretisation, not connect-the-dots
    lower_pld = pld.from_laplace_mechanism(
        1.0 / e0, value_discretization_interval=interval, pessimistic_estimate=False, use_connect_dots=False
    ).self_compose(t)
    upper = float(min(1.0, upper_pld.get_delta_for_epsilon(eps)))
    lower = float(max(0.0, lower_pld.get_delta_for_epsilon(eps)))
    return LaplaceCompositionDelta(lower, upper, m, 0, 0.0)
