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
  (see ``docs/catoni.md`` for the measured error).  It is computed element by
  element by one compiled scalar kernel (:mod:`reference.hu._ephi_kernel`), so a
  batch call equals the scalar calls bit for bit.

:func:`robust_mean` and :func:`robust_gradient` offer ``variant="printed"``
([002 Alg. 1 step 4] evaluated as written, with :func:`c_hat`) and
``variant="standard"`` (the same expectation; the per-sample terms lie on one curve
``a -> E[phi(a + (|a|/sqrt beta) Z)]`` per ``beta``, evaluated by the kernel's short
expressions where ``|U| >= 9`` and by piecewise polynomials fitted per ``beta``
(:func:`reference.hu._ephi_kernel.curve_table`, within 6e-16 of mpmath like
:func:`expected_phi`) elsewhere; fused with the mean over axis 0 for a 2-d array, in the
order ``np.mean`` adds them).

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
from typing import cast

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import special

from ..validation import check_choice, check_finite_array, check_positive, check_real_array
from . import _ephi_kernel

__all__ = ["PHI_BOUND", "VARIANTS", "NAN_POLICIES", "phi", "c_hat", "expected_phi", "robust_mean", "robust_gradient"]

#: sup |phi| = 2*sqrt(2)/3 (text below [002 eq. (2)]).
PHI_BOUND = 2.0 * math.sqrt(2.0) / 3.0

#: The two evaluations of the estimator.
VARIANTS = ("printed", "standard")

_SQRT2 = math.sqrt(2.0)


# --------------------------------------------------------------------------- validation


def _check_ab(a: ArrayLike, b: ArrayLike) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
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


def phi(x: ArrayLike) -> NDArray[np.float64] | np.float64:
    """Soft truncation function of [002 eq. (2)].

    Parameters
    ----------
    x : array_like of float
        Finite reals.

    Returns
    -------
    ndarray
        ``x - x**3/6`` on ``[-sqrt(2), sqrt(2)]`` and ``+-2 sqrt(2)/3`` outside.

    Raises
    ------
    TypeError
        If ``x`` is not an array of real numbers.
    ValueError
        If ``x`` has a non-finite entry.

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
    >>> float(phi(0.5))       # 23/48; 15 digits, as the cube is numpy's power (within 4 ulps on any CPU)
    0.479166666666667
    """
    x = check_finite_array("x", x, nonempty=False)
    inner = np.clip(x, -_SQRT2, _SQRT2)
    out = np.where(np.abs(x) <= _SQRT2, inner - inner**3 / 6.0, np.sign(x) * PHI_BOUND)
    return out[()] if out.ndim == 0 else out


# --------------------------------------------------------------------------- printed C-hat


def c_hat(a: ArrayLike, b: ArrayLike) -> NDArray[np.float64] | np.float64:
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

    Raises
    ------
    TypeError
        If ``a`` or ``b`` is not an array of real numbers.
    ValueError
        If ``a`` or ``b`` has a non-finite entry, ``b`` a negative one, or they do not broadcast together.

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
        e_minus = np.exp(-(v_minus**2) / 2.0)
        e_plus = np.exp(-(v_plus**2) / 2.0)
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


def expected_phi(a: ArrayLike, b: ArrayLike) -> NDArray[np.float64] | np.float64:
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

    Raises
    ------
    TypeError
        If ``a`` or ``b`` is not an array of real numbers.
    ValueError
        If ``a`` or ``b`` has a non-finite entry, ``b`` a negative one, or they do not broadcast together.

    Notes
    -----
    The function is odd in ``a``.  For ``a >= 0``, ``b > 0``, with ``r = sqrt 2``,
    ``B = 2 sqrt(2)/3``, ``U = (r - a)/b`` (the kernel, :mod:`reference.hu._ephi_kernel`):

    - ``U >= 9``: ``a - a (a^2 + 3 b^2)/6`` (the polynomial part of identity (5); the rest is
      below 1e-21); ``U <= -9``: ``B`` (the rest is below 3e-19);
    - ``b >= 1``: ``E = 1/2 int_{-r}^{r} (1 - x^2/2) erf((a - x)/(sqrt 2 b)) dx`` (integration by
      parts), summed as the Taylor series of the ``erf`` about ``x = 0``: ``B erf(t/sqrt 2)`` minus
      Hermite terms in ``t = a/b`` and ``2/b^2``, at most 19 of them;
    - otherwise (``b < 1``) identity (5) rearranged so that nothing cancels, with
      ``J_k(x) = E[(Z - x)_+^k]`` from tables computed in mpmath:
      ``a - a (a^2 + 3 b^2)/6 + b^2/6 [3r (J_2(U) - J_2(V)) + b (J_3(U) - J_3(V))]`` for ``U >= 1``,
      ``B - b^2/6 [3r (J_2(-U) + J_2(V)) - b (J_3(-U) - J_3(V))]`` for ``U < 1``
      (``V = (r + a)/b``); where ``2a/b < 0.25`` (tiny ``a``) the sum of non-negative parts
      ``B P(-a-r <= bZ <= a-r) + int_{-r}^{r} p(x) n(x; a, b) dx`` (``p(x) = x - x^3/6``) by exact
      truncated Gaussian moments with ``expm1``, which keeps the relative accuracy as ``a -> 0``.

    Each output element depends on its own ``(a, b)`` only, through the same scalar code: batch and
    scalar calls agree bit for bit.  Measured against the mpmath reference of
    ``proofs_checks.formulas.catoni`` the absolute error is below 4e-16 over
    ``a in +-[1e-300, 1e300]``, ``b in {0} U [1e-300, 1e300]`` (``docs/catoni.md``; the test
    ``tests/test_catoni_kernel.py`` checks 6e-16 on a stored 20 000-point stress grid).  A final
    ``min(., B)`` absorbs last-ulp rounding so the bound used by the privacy proof holds exactly in
    float64.

    References
    ----------
    [002 eq. (2)], [002 eq. (4)], [002 eq. (5)]; Catoni & Giulini (2017), ref. [17] of 002.

    Examples
    --------
    >>> # b = 0 gives phi; the cube 0.125 by the C library's pow against numpy's power, each within 4 ulps
    >>> abs(float(expected_phi(0.5, 0.0)) - float(phi(0.5))) <= 1.5e-16
    True
    >>> abs(float(expected_phi(1e300, 1e300))) <= PHI_BOUND
    True
    """
    a, b = _check_ab(a, b)
    shape = a.shape
    out = _ephi_kernel.ephi_array(a.ravel(), b.ravel()).reshape(shape)
    return out[()] if out.ndim == 0 else out


# --------------------------------------------------------------------------- estimator


def _check_axis(axis, ndim):
    if isinstance(axis, bool) or not isinstance(axis, numbers.Integral):
        raise TypeError(f"axis must be an integer, got {axis!r}")
    if not -ndim <= axis < ndim:
        raise ValueError(f"axis must lie in [{-ndim}, {ndim}) for an array of dimension {ndim}, got {axis!r}")
    return int(axis)


def _as_float_array(name: str, value: ArrayLike, *, ndim: int | None = None) -> NDArray[np.float64]:
    """:func:`check_finite_array` without the finiteness pass (the kernel counts non-finite entries)."""
    arr = check_real_array(name, value)
    if ndim is not None and arr.ndim != ndim:
        raise ValueError(f"{name} must be {ndim}-dimensional, got shape {arr.shape}")
    if arr.size == 0:
        raise ValueError(f"{name} must not be empty, got shape {arr.shape}")
    return arr


def _standard_mean(x, s, beta, axis):
    """``mean(E[phi(a + bZ)], axis)`` with ``a = x/s``, ``b = |a|/sqrt(beta)``, overflow-safe.

    Where ``|x/s|`` or ``|x/s|/sqrt(beta)`` exceeds 1e300 (or overflows), the value equals its limit
    ``sign(x) B erf(sqrt(beta/2))`` to within 1e-280 (the window and the shift ``r/b`` of the
    tail interval are below ``1.5e-300``), and that limit is used.  Where ``|U| >= 9`` a term is
    ``expected_phi(x/s, |x/s|/sqrt(beta))`` bit for bit; elsewhere it comes from the curve table
    of ``beta`` (a table look-up and a degree-9 polynomial, faster than the per-entry special
    functions; within 6e-16 of mpmath, ``tests/test_catoni_curve.py``), or from
    ``expected_phi`` for ``beta`` outside ``[1e-8, 1e8]``.  For a C-contiguous 2-d ``x`` and
    ``axis=0`` the terms are summed inside the kernel, row after row as ``np.mean`` adds them,
    without materialising them; otherwise ``np.mean`` of the term array.  Non-finite entries are
    reported by the kernel and raised here with :func:`check_finite_array`'s message.
    """
    if x.ndim == 2 and axis == 0 and x.flags.c_contiguous and x.shape[1] > 0 and _ephi_kernel.HAVE_NUMBA:
        sums, bad = _ephi_kernel.standard_column_sums(x, s, beta)
        if bad:
            check_finite_array("x", x)
        with np.errstate(all="ignore"):
            return np.true_divide(sums, x.shape[0])
    terms, bad = _ephi_kernel.standard_terms(x, s, beta)
    if bad:
        check_finite_array("x", x)
    with np.errstate(all="ignore"):
        return np.mean(terms, axis=axis)


#: scipy.stats' values of ``nan_policy``
NAN_POLICIES = ("raise", "propagate", "omit")


def robust_mean(
    x: ArrayLike,
    s: float,
    beta: float,
    *,
    variant: str = "standard",
    axis: int | None = 0,
    nan_policy: str = "raise",
) -> NDArray[np.float64] | np.float64:
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
        ``"standard"``: ``s * mean(E[phi(x/s + (|x|/(s sqrt beta)) Z)])``, each term within 6e-16 of
        the exact expectation (as :func:`expected_phi`; see the module docstring).
        ``"printed"``: ``s * mean(a(1 - b^2/2) - a^3/6 + c_hat(a, b))`` (identity [002 eq. (5)] evaluated
        in float64 as printed); may return NaN/inf or values far outside ``s B``.
    axis : int or None, default 0
        Axis of the samples; ``None`` flattens ``x`` first (as ``numpy.mean``).
    nan_policy : {"raise", "propagate", "omit"}, default "raise"
        What a NaN in ``x`` does, with scipy.stats' meaning: ``"raise"`` raises ``ValueError``;
        ``"propagate"`` returns NaN for each slice along ``axis`` that holds one; ``"omit"`` leaves the NaNs
        out, each slice's estimate then being exactly ``robust_mean`` of its other entries (NaN for a slice
        of NaNs only).  The default is ``"raise"``, not scipy's ``"propagate"``: this is a privacy
        primitive, and a NaN passed on is a release nobody chose.  An infinite entry always raises.

    Returns
    -------
    ndarray or float
        The estimate, with ``axis`` removed (a float for ``axis=None``).

    Raises
    ------
    TypeError
        If ``x`` is not an array of real numbers (strings, bools, complex numbers and objects are rejected),
        ``s`` or ``beta`` not a real number, or ``axis`` not an integer or None.
    ValueError
        If ``x`` is a scalar or has an infinite entry (or a NaN with ``nan_policy="raise"``), ``s`` or ``beta``
        is not finite and positive, ``axis`` is out of range, or ``variant`` or ``nan_policy`` is unknown.

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
    >>> bool(robust_mean([0.1, -0.2, float("nan"), 0.3], 10.0, 1.0, nan_policy="omit") == robust_mean(x, 10.0, 1.0))
    True
    >>> robust_mean(np.ones((2, 3)), 10.0, 1.0, axis=None).shape
    ()
    """
    _check_variant(variant)
    check_choice("nan_policy", nan_policy, NAN_POLICIES)
    if axis is None:
        x = check_real_array("x", x).ravel()
        axis = 0
    if nan_policy != "raise":
        return _robust_mean_with_nans(x, s, beta, variant, axis, nan_policy)
    if variant == "standard":
        x = _as_float_array("x", x)  # finiteness is checked inside the kernel pass
    else:
        x = check_finite_array("x", x)
    s = check_positive("s", s)
    beta = check_positive("beta", beta)
    if x.ndim == 0:
        raise ValueError("x must have at least one dimension (samples along axis)")
    axis = _check_axis(axis, x.ndim)
    if variant == "standard":
        mean = _standard_mean(x, s, beta, axis)
    else:
        with np.errstate(all="ignore"):
            a = x / s
            b = np.abs(x) / (s * math.sqrt(beta))
        terms = _identity5_float64(a, b)
        with np.errstate(all="ignore"):
            mean = np.mean(terms, axis=axis)
    with np.errstate(all="ignore"):
        out = s * mean
    return out[()] if np.ndim(out) == 0 else out


def _robust_mean_with_nans(x, s, beta, variant, axis, nan_policy):
    """:func:`robust_mean` of each slice along ``axis``, its NaNs propagated or left out."""
    x = check_real_array("x", x)
    if x.ndim == 0:
        raise ValueError("x must have at least one dimension (samples along axis)")
    axis = _check_axis(axis, x.ndim)
    s = check_positive("s", s)
    beta = check_positive("beta", beta)
    nan = np.isnan(x)
    if not nan.any():
        return robust_mean(x, s, beta, variant=variant, axis=axis)
    if np.isinf(x).any():
        check_finite_array("x", np.where(nan, 0.0, x))  # names the first infinite entry
    slices = np.moveaxis(x, axis, -1)
    out = np.full(slices.shape[:-1], np.nan)
    for index in np.ndindex(out.shape):
        row = slices[index]
        kept = row[~np.isnan(row)]
        if kept.size == row.size or (nan_policy == "omit" and kept.size > 0):
            out[index] = robust_mean(kept, s, beta, variant=variant)
    return out[()] if out.ndim == 0 else out


def robust_gradient(
    per_example_grads: ArrayLike, s: float, beta: float, *, variant: str = "standard", nan_policy: str = "raise"
) -> NDArray[np.float64]:
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
        ``"standard"``: ``robust_mean(per_example_grads, s, beta, axis=0)``.
    nan_policy : {"raise", "propagate", "omit"}, default "raise"
        What a NaN entry (a missing gradient coordinate) does, with scipy.stats' meaning, per coordinate:
        ``"propagate"`` returns NaN for each column that holds one; ``"omit"`` estimates each column from its
        non-NaN entries (NaN where none is left).  A column estimated from fewer rows has the sensitivity of
        its own row count, not of ``m``.

    Returns
    -------
    ndarray, shape (d,)

    Raises
    ------
    TypeError
        If ``per_example_grads`` is not an array of real numbers, or ``s`` or ``beta`` not a real number.
    ValueError
        If ``per_example_grads`` is not 2-D or has an infinite entry (or a NaN with ``nan_policy="raise"``),
        ``s`` or ``beta`` is not finite and positive, or ``variant`` or ``nan_policy`` is unknown.

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
    >>> with_missing = np.array([[0.1, 2.0], [np.nan, -1.0], [0.3, -1.0]])
    >>> bool(robust_gradient(with_missing, 5.0, 1.0, nan_policy="omit")[0] == robust_gradient(g, 5.0, 1.0)[0])
    True
    """
    _check_variant(variant)
    check_choice("nan_policy", nan_policy, NAN_POLICIES)
    if nan_policy != "raise":
        grads = _as_float_array("per_example_grads", per_example_grads, ndim=2)
        if np.isnan(grads).any():
            return _robust_gradient_with_nans(grads, s, beta, variant, nan_policy)
        per_example_grads = grads
    if variant == "standard":
        grads = _as_float_array("per_example_grads", per_example_grads, ndim=2)
        s = check_positive("s", s)
        beta = check_positive("beta", beta)
        try:
            # a 2-d array averaged over axis 0 is 1-d: never the scalar robust_mean returns for a 1-d input
            return cast(NDArray[np.float64], robust_mean(grads, s, beta, variant="standard", axis=0))
        except ValueError as exc:
            if "x must be finite" in str(exc):
                check_finite_array("per_example_grads", grads, ndim=2)
            raise
    grads = check_finite_array("per_example_grads", per_example_grads, ndim=2)
    s = check_positive("s", s)
    beta = check_positive("beta", beta)
    g = grads
    m = g.shape[0]
    with np.errstate(all="ignore"):
        poly = (g * (1.0 - g**2 / (2.0 * s**2 * beta)) - g**3 / (6.0 * s**2)).sum(axis=0) / m
        corr = s / m * _c_hat_raw(g / s, np.abs(g) / (s * math.sqrt(beta))).sum(axis=0)
        return poly + corr


def _robust_gradient_with_nans(grads, s, beta, variant, nan_policy):
    """:func:`robust_gradient` of each column, its NaNs propagated or left out (``grads`` holds a NaN)."""
    s = check_positive("s", s)
    beta = check_positive("beta", beta)
    nan = np.isnan(grads)
    if np.isinf(grads).any():
        check_finite_array("per_example_grads", np.where(nan, 0.0, grads))  # names the first infinite entry
    out = np.full(grads.shape[1], np.nan)
    for column in range(grads.shape[1]):
        kept = grads[~nan[:, column], column]
        if kept.size == grads.shape[0] or (nan_policy == "omit" and kept.size > 0):
            out[column] = robust_gradient(kept[:, None], s, beta, variant=variant)[0]
    return out
