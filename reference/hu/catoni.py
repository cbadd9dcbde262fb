"""Smoothed Catoni estimator of [002 eq. (2)] to [002 eq. (5)] and [002 Alg. 1 step 4].

The estimator rescales each sample by ``s``, perturbs it multiplicatively with
Gaussian noise ``eta ~ N(0, 1/beta)``, passes it through the bounded soft
truncation ``phi`` of [002 eq. (2)] and averages the *expectation* over the noise
([002 eq. (4)]).  With ``a = x/s`` and ``b = |x|/(s sqrt(beta))`` each term is
``E[phi(a + b Z)]``, ``Z ~ N(0, 1)``.

Two evaluations of that expectation are provided:

* :func:`c_hat` is the correction term ``C-hat(a, b)`` exactly as printed in
  [002 App. A] (section "Explicit Form of C-hat(a,b)", terms T1..T5).
  Plugged into identity [002 eq. (5)] it is mathematically exact for ``b > 0`` but its
  float64 evaluation suffers catastrophic cancellation (the cubic polynomial
  ``a(1 - b^2/2) - a^3/6`` is cancelled by ``C-hat``), overflows for large
  ``|a|``/``b`` and gives NaN at ``b = 0``.  It is kept as printed on purpose.
* :func:`expected_phi` is a numerically robust evaluation, accurate to a few
  ulps of ``2 sqrt(2)/3`` in absolute terms over the whole float64 range
  (see ``docs/catoni.md`` for the measured error).

:func:`robust_mean` and :func:`robust_gradient` offer ``variant="printed"``
([002 Alg. 1 step 4] evaluated as written, with :func:`c_hat`) and
``variant="standard"`` (built on :func:`expected_phi`).

Proof note (privacy).  [002 Thm. 1] relies on the per-sample term
``s * E[phi(a + b Z)]`` lying in ``[-s B, s B]`` with ``B = 2 sqrt(2)/3``;
replacing one of ``m`` samples then moves each coordinate of the robust
gradient by at most ``2 s B / m = 4 sqrt(2) s / (3 m)``.  The ``standard``
variant guarantees the range for every float64 input: ``expected_phi``
computes ``|E phi|`` as a sum of non-negative parts (tail mass times ``B``
plus an integral of a non-negative integrand) and a final ``min(., B)`` absorbs
the last-ulp rounding, so its output lies in ``[-B, B]`` by construction.  The
``printed`` variant does not: see the claim ``catoni.sensitivity.printed``.
"""

from __future__ import annotations

import math
import numbers

import numpy as np
from scipy import special

from ..validation import check_finite_array, check_positive, check_choice

__all__ = ["PHI_BOUND", "VARIANTS", "phi", "c_hat", "expected_phi", "robust_mean", "robust_gradient"]

#: sup |phi| = 2*sqrt(2)/3 (text below [002 eq. (2)]).
PHI_BOUND = 2.0 * math.sqrt(2.0) / 3.0

#: The two evaluations of the estimator.
VARIANTS = ("printed", "standard")

_SQRT2 = math.sqrt(2.0)
_INV_SQRT2PI = 1.0 / math.sqrt(2.0 * math.pi)

#: b below which the window integral is done with truncated Gaussian moments in z-space,
#: at or above which it is done by Gauss-Legendre quadrature in x-space.
_B_SWITCH = 1.0
#: Gauss-Legendre rules (nodes on [-1, 1]).
_GL_WINDOW = np.polynomial.legendre.leggauss(48)
_GL_NARROW = np.polynomial.legendre.leggauss(20)
#: Points processed per block by the quadrature (bounds memory to ~ block * 48 floats).
_BLOCK = 1 << 15


# --------------------------------------------------------------------------- validation

def _check_ab(a, b):
    a = check_finite_array("a", a, nonempty=False)
    b = check_finite_array("b", b, nonempty=False)
    if np.any(b < 0):
        bad = b[b < 0].ravel()[0]
        raise ValueError(f"b must be >= 0 (it is the noise scale), got {bad!r}")
    try:
        a, b = np.broadcast_arrays(a, b)
    except ValueError:
        raise ValueError(f"a and b must broadcast together, got shapes {a.shape} and {b.shape}") from None
    return a, b


def _check_variant(variant):
    return check_choice("variant", variant, VARIANTS)


# --------------------------------------------------------------------------- phi

def phi(x):
    """Soft truncation function of [002 eq. (2)].

    Parameters
    ----------
    x : array_like of float
        Finite reals.

    Returns
    -------
    ndarray
        ``x - x**3/6`` on ``[-sqrt(2), sqrt(2)]`` and ``+-2 sqrt(2)/3`` outside.

    Notes
    -----
    ``phi`` is odd, non-decreasing, continuously differentiable (``phi'(+-sqrt 2) = 0``) and
    bounded by ``2 sqrt(2)/3`` (text below [002 eq. (2)]); it satisfies the sandwich inequality
    [002 eq. (16)] of [002 App. A], ``-log(1 - u + u^2/2) <= phi(u) <= log(1 + u + u^2/2)``.

    References
    ----------
    [002 eq. (2)] and [002 eq. (16)] (``002_6c597657f27a60c9.txt``).

    Examples
    --------
    >>> float(phi(0.5))
    0.4791666666666667
    """
    x = check_finite_array("x", x, nonempty=False)
    inner = np.clip(x, -_SQRT2, _SQRT2)
    out = np.where(np.abs(x) <= _SQRT2, inner - inner**3 / 6.0, np.sign(x) * PHI_BOUND)
    return out[()] if out.ndim == 0 else out


# --------------------------------------------------------------------------- printed C-hat

def c_hat(a, b):
    """Correction term ``C-hat(a, b)`` of identity [002 eq. (5)], exactly as printed in [002 App. A].

    Parameters
    ----------
    a : array_like of float
        Location (finite).
    b : array_like of float
        Noise scale, ``b >= 0`` (the paper states the identity for ``b > 0``).

    Returns
    -------
    ndarray
        ``T1 + T2 + T3 + T4 + T5`` evaluated in float64 as printed.  Where the printed form is
        undefined in float64 the IEEE result is returned unchanged: ``b = 0`` gives NaN
        (``inf * 0`` inside T4 and T5) and ``|a|`` or ``b`` beyond about ``1e102`` overflow.

    Notes
    -----
    With ``V-+ = (sqrt 2 -+ a)/b``, ``F-+ = Phi(-V-+)``, ``E-+ = exp(-V-+^2/2)``:

    - ``T1 = 2 sqrt(2)/3 (F- - F+)``
    - ``T2 = -(a - a^3/6)(F- + F+)``
    - ``T3 = b/sqrt(2 pi) (1 - a^2/2)(E+ - E-)``
    - ``T4 = a b^2/2 (F+ + F- + (V+ E+ + V- E-)/sqrt(2 pi))``
    - ``T5 = b^3/(6 sqrt(2 pi)) ((2 + V-^2) E- - (2 + V+^2) E+)``

    so that ``E[phi(a + b Z)] = a(1 - b^2/2) - a^3/6 + C-hat(a, b)`` (identity [002 eq. (5)]).  The
    identity is exact mathematics (the claim ``catoni.identity5.math`` checks it at 50+
    digits); its float64 evaluation cancels catastrophically once the cubic polynomial is
    large (claim ``catoni.identity5.float64``).  Use :func:`expected_phi` for a robust value.

    References
    ----------
    [002 eq. (5)] and [002 App. A] ("Explicit Form of C-hat(a,b)").

    Examples
    --------
    >>> a = 0.3; b = 0.2
    >>> round(float(a * (1 - b**2 / 2) - a**3 / 6 + c_hat(a, b)), 12) == round(float(expected_phi(a, b)), 12)
    True
    """
    a, b = _check_ab(a, b)
    out = _c_hat_raw(a, b)
    return out[()] if out.ndim == 0 else out


def _c_hat_raw(a, b):
    """The printed T1 + ... + T5 in float64 without input checks (IEEE inf/NaN propagate)."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    r = _SQRT2
    with np.errstate(all="ignore"):
        v_minus = (r - a) / b
        v_plus = (r + a) / b
        f_minus = special.ndtr(-v_minus)
        f_plus = special.ndtr(-v_plus)
        e_minus = np.exp(-v_minus**2 / 2.0)
        e_plus = np.exp(-v_plus**2 / 2.0)
        s2pi = math.sqrt(2.0 * math.pi)
        t1 = 2.0 * math.sqrt(2.0) / 3.0 * (f_minus - f_plus)
        t2 = -(a - a**3 / 6.0) * (f_minus + f_plus)
        t3 = b / s2pi * (1.0 - a**2 / 2.0) * (e_plus - e_minus)
        t4 = a * b**2 / 2.0 * (f_plus + f_minus + 1.0 / s2pi * (v_plus * e_plus + v_minus * e_minus))
        t5 = b**3 / (6.0 * s2pi) * ((2.0 + v_minus**2) * e_minus - (2.0 + v_plus**2) * e_plus)
        return t1 + t2 + t3 + t4 + t5


def _identity5_float64(a, b, c_hat_fn=None):
    """Right-hand side of identity [002 eq. (5)] in float64: ``a(1 - b^2/2) - a^3/6 + C-hat(a, b)``."""
    c = (_c_hat_raw if c_hat_fn is None else c_hat_fn)(a, b)
    with np.errstate(all="ignore"):
        return a * (1.0 - b**2 / 2.0) - a**3 / 6.0 + c


# --------------------------------------------------------------------------- robust E[phi(a + bZ)]

def _pdf(z):
    with np.errstate(all="ignore"):
        return _INV_SQRT2PI * np.exp(-0.5 * z * z)


def _gauss_mass(lo, hi, center, half):
    """``P(lo <= Z <= hi)`` for ``Z ~ N(0,1)`` with relative accuracy; ``[lo, hi] = center -+ half``.

    The end points and the centre/half-width are passed separately because each may overflow
    on its own (``b`` subnormal).  Narrow intervals use a 20-point Gauss-Legendre rule on the
    (entire) normal density; wide ones the CDF difference on the side of zero where it does not
    cancel.
    """
    lo, hi, center, half = np.broadcast_arrays(lo, hi, center, half)
    out = np.empty(lo.shape)
    with np.errstate(all="ignore"):
        narrow_ok = np.isfinite(center) & np.isfinite(half) & (half * (np.abs(center) + half) <= 1.0)
        # each branch is evaluated only where it is used: the narrow rule costs 20 densities
        if np.any(narrow_ok):
            nodes, weights = _GL_NARROW
            c = center[narrow_ok][:, None]
            h = half[narrow_ok][:, None]
            out[narrow_ok] = (h * weights * _pdf(c + h * nodes)).sum(axis=-1)
        wide_at = ~narrow_ok
        if np.any(wide_at):
            # the CDF difference on the side of zero where it does not cancel
            lo_w, hi_w = lo[wide_at], hi[wide_at]
            wide = np.empty(lo_w.shape)
            left = hi_w <= 0
            right = ~left & (lo_w >= 0)
            straddle = ~left & ~right
            wide[left] = special.ndtr(hi_w[left]) - special.ndtr(lo_w[left])
            wide[right] = special.ndtr(-lo_w[right]) - special.ndtr(-hi_w[right])
            wide[straddle] = 0.5 * (special.erf(hi_w[straddle] / _SQRT2) - special.erf(lo_w[straddle] / _SQRT2))
            out[wide_at] = np.maximum(np.nan_to_num(wide, nan=0.0), 0.0)
    return out


def _window_small_b(aa, b):
    """``E[p(X); |X| <= sqrt 2]``, ``X ~ N(aa, b^2)``, ``p(x) = x - x^3/6``, for ``0 < b < 1``, ``aa >= 0``.

    Taylor-expands ``p`` about ``aa`` and uses truncated Gaussian moments ``M_k`` of
    ``Z`` on ``[L, U] = [-(sqrt 2 + aa)/b, (sqrt 2 - aa)/b]``; the differences of densities at
    the two ends are formed with ``expm1`` so that they keep relative accuracy as ``aa -> 0``.
    """
    r = _SQRT2
    with np.errstate(all="ignore"):
        up = (r - aa) / b
        lo = -(r + aa) / b
        active = (up > -40.0) & (lo < 40.0)
        a_ = np.where(active, aa, 0.0)
        b_ = np.where(active, b, 0.5)
        up = np.where(active, up, 0.0)
        lo = np.where(active, lo, -1.0)
        ratio = a_ / b_
        c = 2.0 * r * ratio / b_                      # (L^2 - U^2)/2 >= 0
        p_up = _pdf(up)
        p_lo = _pdf(lo)
        em = np.expm1(-c)                             # p_lo / p_up - 1
        m0 = _gauss_mass(lo, up, -ratio, r / b_)
        lp = np.where(p_lo > 0, lo * p_lo, 0.0)
        upp = np.where(p_up > 0, up * p_up, 0.0)
        l2p = np.where(p_lo > 0, lo * lo * p_lo, 0.0)
        u2p = np.where(p_up > 0, up * up * p_up, 0.0)
        # for small c the end-point differences cancel: form them with expm1 (relative accuracy)
        fine = (c < 1.0) & (p_up > 0)
        m1 = np.where(fine, p_up * em, p_lo - p_up)
        m2 = m0 + lp - upp
        m3 = 2.0 * m1 + np.where(fine, p_up * (lo * lo * em + 2.0 * c), l2p - u2p)
        val = ((a_ - a_**3 / 6.0) * m0 + (1.0 - a_**2 / 2.0) * b_ * m1
               - 0.5 * a_ * b_**2 * m2 - b_**3 / 6.0 * m3)
    return np.where(active, val, 0.0)


def _window_large_b(aa, b):
    """The same window integral for ``b >= 1``, by Gauss-Legendre quadrature in x on ``[0, sqrt 2]``.

    Folding the odd integrand gives ``int_0^r p(x) [n(x; aa) - n(x; -aa)] dx`` with
    ``n(x; aa) - n(x; -aa) = n(x; aa) * (-expm1(-2 aa x / b^2))``: every factor is >= 0, so the
    sum has no cancellation.  For ``b >= 1`` the integrand is entire and slowly varying wherever
    the window carries non-negligible mass, and 48 nodes reach machine precision.
    """
    r = _SQRT2
    nodes, weights = _GL_WINDOW
    x = 0.5 * r * (nodes + 1.0)
    w = 0.5 * r * weights * (x - x**3 / 6.0)
    out = np.empty_like(aa)
    for start in range(0, aa.size, _BLOCK):
        sl = slice(start, start + _BLOCK)
        a_ = aa[sl][:, None]
        b_ = b[sl][:, None]
        with np.errstate(all="ignore"):
            dens = _pdf((x - a_) / b_) / b_
            fold = -np.expm1(-2.0 * (a_ / b_) * (x / b_))
            out[sl] = (dens * fold) @ w
    return out


def expected_phi(a, b):
    """``E[phi(a + b Z)]`` for ``Z ~ N(0, 1)``: a numerically robust evaluation of identity [002 eq. (5)].

    Parameters
    ----------
    a : array_like of float
        Any finite reals.
    b : array_like of float
        Noise scales, finite and ``>= 0`` (``b = 0`` gives ``phi(a)``); broadcast with ``a``.

    Returns
    -------
    ndarray
        Values in ``[-2 sqrt(2)/3, 2 sqrt(2)/3]``, never NaN or inf.

    Notes
    -----
    The function is odd in ``a``; for ``a >= 0`` it is computed as a sum of non-negative parts,

    ``E phi(a + bZ) = B P(-a-r <= bZ <= a-r) + int_0^r p(x) [n(x; a, b) - n(x; -a, b)] dx``,

    with ``r = sqrt 2``, ``B = 2 sqrt(2)/3``, ``p(x) = x - x^3/6`` and ``n(.; m, b)`` the
    ``N(m, b^2)`` density.  The Gaussian interval mass is taken with relative accuracy (Gauss-
    Legendre for narrow intervals, the non-cancelling side of the CDF otherwise).  The window
    integral uses exact truncated Gaussian moments for ``b < 1`` and 48-point Gauss-Legendre in
    ``x`` for ``b >= 1`` (see the private helpers).  No part relies on the printed ``C-hat``.
    Measured against the mpmath reference of ``proofs_checks.formulas.catoni`` the absolute
    error is below 1e-15 over ``a in +-[1e-300, 1e300]``, ``b in {0} U [1e-300, 1e300]``
    (``docs/catoni.md``).  A final ``min(., B)`` absorbs last-ulp rounding so the bound used by
    the privacy proof holds exactly in float64.

    References
    ----------
    [002 eq. (2)], [002 eq. (4)], [002 eq. (5)]; Catoni & Giulini (2017), ref. [17] of 002.

    Examples
    --------
    >>> float(expected_phi(0.5, 0.0)) == float(phi(0.5))
    True
    >>> abs(float(expected_phi(1e300, 1e300))) <= PHI_BOUND
    True
    """
    a, b = _check_ab(a, b)
    shape = a.shape
    a = a.ravel()
    b = b.ravel()
    aa = np.abs(a)
    out = np.zeros_like(aa)
    zero = b == 0
    out[zero] = np.abs(phi(a[zero])) if np.any(zero) else out[zero]
    pos = ~zero
    if np.any(pos):
        ap, bp = aa[pos], b[pos]
        with np.errstate(all="ignore"):
            tails = PHI_BOUND * _gauss_mass((-ap - _SQRT2) / bp, (ap - _SQRT2) / bp, -_SQRT2 / bp, ap / bp)
        small = bp < _B_SWITCH
        window = np.empty_like(ap)
        if np.any(small):
            window[small] = _window_small_b(ap[small], bp[small])
        if np.any(~small):
            window[~small] = _window_large_b(ap[~small], bp[~small])
        out[pos] = tails + np.maximum(window, 0.0)
    out = np.minimum(out, PHI_BOUND) * np.where(a < 0, -1.0, 1.0)
    out = out.reshape(shape)
    return out[()] if out.ndim == 0 else out


# --------------------------------------------------------------------------- estimator

def _check_axis(axis, ndim):
    if isinstance(axis, bool) or not isinstance(axis, numbers.Integral):
        raise TypeError(f"axis must be an integer, got {axis!r}")
    if not -ndim <= axis < ndim:
        raise ValueError(f"axis must lie in [{-ndim}, {ndim}) for an array of dimension {ndim}, got {axis!r}")
    return int(axis)


def _standard_terms(x, s, beta):
    """Per-sample ``E[phi(a + bZ)]`` with ``a = x/s``, ``b = |x|/(s sqrt beta)``, overflow-safe.

    Where ``x/s`` or ``|x|/(s sqrt beta)`` exceeds 1e300 (or overflows), the value equals its limit
    ``sign(x) B erf(sqrt(beta/2))`` to within 1e-280 (the window and the shift ``r/b`` of the
    tail interval are below ``1.5e-300``), and that limit is used.
    """
    root = math.sqrt(beta)
    with np.errstate(all="ignore"):
        a = x / s
        b = np.abs(a) / root
    huge = ~(np.isfinite(a) & np.isfinite(b) & (np.abs(a) <= 1e300) & (b <= 1e300))
    limit = np.sign(x) * PHI_BOUND * math.erf(root / _SQRT2)
    vals = expected_phi(np.where(huge, 0.0, a), np.where(huge, 0.0, b))
    return np.where(huge, limit, vals)


def robust_mean(x, s, beta, *, variant="standard", axis=0):
    """Noise-smoothed Catoni mean ``x-hat(s, beta)`` of [002 eq. (4)], with ``chi = N(0, 1/beta)``.

    Parameters
    ----------
    x : array_like of float
        Finite samples; the mean is taken along ``axis``.
    s : float
        Scale ``s > 0``.
    beta : float
        Inverse noise variance ``beta > 0``.
    variant : {"standard", "printed"}
        ``"standard"``: ``s * mean(expected_phi(x/s, |x|/(s sqrt beta)))``.
        ``"printed"``: ``s * mean(a(1 - b^2/2) - a^3/6 + c_hat(a, b))`` (identity [002 eq. (5)] evaluated
        in float64 as printed); may return NaN/inf or values far outside ``s B``.
    axis : int
        Axis of the samples.

    Returns
    -------
    ndarray or float
        The estimate, with ``axis`` removed.

    Notes
    -----
    Each sample contributes ``(s/n) E[phi((x + eta x)/s)]``, ``eta ~ N(0, 1/beta)``, i.e.
    ``(s/n) E[phi(a + b Z)]`` with ``a = x/s`` and ``b = |x|/(s sqrt beta)``.  With the
    ``standard`` variant that contribution lies in ``[-sB/n, sB/n]`` for every float64 input,
    so replacing one sample moves the estimate by at most ``4 sqrt(2) s/(3 n)``.

    References
    ----------
    [002 eq. (3)] to [002 eq. (5)]; [002 Lemma 4] (deviation bound).

    Examples
    --------
    >>> x = [0.1, -0.2, 0.3]
    >>> abs(float(robust_mean(x, 10.0, 1.0)) - 0.2 / 3) < 1e-3
    True
    """
    _check_variant(variant)
    x = check_finite_array("x", x)
    s = check_positive("s", s)
    beta = check_positive("beta", beta)
    if x.ndim == 0:
        raise ValueError("x must have at least one dimension (samples along axis)")
    axis = _check_axis(axis, x.ndim)
    if variant == "standard":
        terms = _standard_terms(x, s, beta)
    else:
        with np.errstate(all="ignore"):
            a = x / s
            b = np.abs(x) / (s * math.sqrt(beta))
        terms = _identity5_float64(a, b)
    with np.errstate(all="ignore"):
        out = s * np.mean(terms, axis=axis)
    return out[()] if np.ndim(out) == 0 else out


def robust_gradient(per_example_grads, s, beta, *, variant="standard"):
    """Coordinate-wise robust gradient of [002 Alg. 1 step 4] (also [002 Alg. 5 step 7]).

    Parameters
    ----------
    per_example_grads : array_like, shape (m, d)
        Row ``i`` is the gradient of the loss at one record of the current data part.
    s, beta : float
        Scale and inverse noise variance of the estimator (both > 0).
    variant : {"standard", "printed"}
        ``"printed"``: [002 Alg. 1 step 4] as written, in float64:
        ``(1/m) sum(g (1 - g^2/(2 s^2 beta)) - g^3/(6 s^2)) + (s/m) sum C-hat(g/s, |g|/(s sqrt beta))``.
        ``"standard"``: ``robust_mean(per_example_grads, s, beta, axis=0)`` built on
        :func:`expected_phi`.

    Returns
    -------
    ndarray, shape (d,)

    Notes
    -----
    The proof of [002 Thm. 1] uses ``||g(D) - g(D')||_inf <= 4 sqrt(2) s / (3 m)`` for neighbouring data
    parts.  The ``standard`` variant satisfies it for every float64 input (see the module proof
    note).  The ``printed`` one does not: its float64 value is NaN whenever a gradient entry is
    exactly 0 (``b = 0``) and leaves ``[-sB, sB]`` through cancellation for large entries
    (claim ``catoni.sensitivity.printed``).

    References
    ----------
    [002 Alg. 1 step 4] to [002 Alg. 1 step 6], [002 Thm. 1], [002 Alg. 5 step 7].

    Examples
    --------
    >>> g = np.array([[0.1, 2.0], [0.3, -1.0]])
    >>> robust_gradient(g, 5.0, 1.0).shape
    (2,)
    """
    _check_variant(variant)
    grads = check_finite_array("per_example_grads", per_example_grads, ndim=2)
    s = check_positive("s", s)
    beta = check_positive("beta", beta)
    if variant == "standard":
        return robust_mean(grads, s, beta, variant="standard", axis=0)
    g = grads
    m = g.shape[0]
    with np.errstate(all="ignore"):
        poly = (g * (1.0 - g**2 / (2.0 * s**2 * beta)) - g**3 / (6.0 * s**2)).sum(axis=0) / m
        corr = s / m * _c_hat_raw(g / s, np.abs(g) / (s * math.sqrt(beta))).sum(axis=0)
        return poly + corr
