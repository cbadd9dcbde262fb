"""Truncation functions psi of [000 eq. (6)] (second moment) and [000 eq. (16)] (theta-th moment).

Both are odd, non-decreasing and bounded; the truncated empirical risk of [000 eq. (2)] only
evaluates them at non-negative arguments ``iota * |residual|``, where they take
values in ``[0, log theta]`` (``theta = 2`` for [000 eq. (6)]).

References
----------
.. [1] D. Wang and J. Xu, "Differentially private l1-norm linear regression with heavy-tailed
       data", ``000_e64de114947d2122.txt``: [000 eq. (3)], [000 eq. (6)], [000 eq. (15)],
       [000 eq. (16)].
.. [2] L. Zhang and Z.-H. Zhou, "l1-regression with heavy-tailed distributions", NeurIPS 2018.
.. [3] P. Chen, X. Jin, X. Li and L. Xu, "A generalized Catoni's M-estimator under finite
       alpha-th moment assumption with alpha in (1, 2)", EJS 2021.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

__all__ = ["check_theta", "psi", "psi_lower_envelope", "psi_upper_envelope", "psi_bound"]


def check_theta(theta, name: str = "theta") -> float:
    """Return ``theta`` as a float after checking ``1 < theta <= 2`` (``theta = 2`` is [000 eq. (6)])."""
    if isinstance(theta, bool) or not isinstance(theta, numbers.Real):
        raise TypeError(f"{name} must be a real number in (1, 2], got {theta!r} of type {type(theta).__name__}")
    t = float(theta)
    if math.isnan(t) or not (1.0 < t <= 2.0):
        raise ValueError(f"{name} must lie in (1, 2], got {theta!r}")
    return t


def _as_float_array(x, name="x"):
    try:
        arr = np.asarray(x, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be an array of real numbers, got {type(x).__name__}: {exc}") from None
    if np.any(np.isnan(arr)):
        bad = np.flatnonzero(np.isnan(arr.ravel()))
        raise ValueError(f"{name} must not contain NaN; entry {int(bad[0])} (flat index) is NaN")
    return arr


def _psi_nonneg(t: np.ndarray, theta: float) -> np.ndarray:
    """psi on ``t >= 0`` (``t`` may be ``+inf``); values in ``[0, log theta]``.  Elementwise, no loops."""
    s = np.minimum(t, 1.0)                     # psi is constant (log theta) on [1, inf]
    if theta == 2.0:
        # 1 - s + s^2/2 = (1 + (1 - s)^2) / 2.  Near 1: log 2 - log1p((1-s)^2), where 1 - s is exact
        # (Sterbenz) and every step is a monotone rounding, so psi stays non-decreasing; at s = 1 it
        # is exactly log 2.  Near 0 (s < 1/2): -log1p(s (s/2 - 1)), accurate for tiny s (subnormals).
        # One log1p per entry: the argument of either branch is chosen first (the same values as
        # evaluating each branch on its own entries, so the same bits, at half the logarithms).
        small = s < 0.5
        b = 1.0 - s
        arg = np.where(small, s * (0.5 * s - 1.0), b * b)
        out = np.log1p(arg)
        return np.where(small, -out, math.log(2.0) - out)
    # 1 - s + s^theta/theta; s^theta underflows harmlessly to 0 for tiny s.
    out = -np.log1p(np.power(s, theta) / theta - s)
    # Mathematically out <= log theta with equality at s = 1; one rounding of the log argument could
    # exceed it by an ulp near s = 1, so the exact bound is imposed (and exact equality for t >= 1).
    np.minimum(out, math.log(theta), out=out)
    out[s >= 1.0] = math.log(theta)
    return out


def psi(x, theta=2.0):
    """Truncation function psi of [000 eq. (6)] (``theta = 2``) or [000 eq. (16)] (``1 < theta < 2``).

    Parameters
    ----------
    x : array_like of float
        Arguments; any float64 including ``+-inf``, subnormals and ``+-1.7e308``.  NaN is rejected.
    theta : float, optional
        Moment order in ``(1, 2]``.  ``theta = 2`` gives [000 eq. (6)] exactly; for ``theta < 2``
        [000 eq. (16)].

    Returns
    -------
    numpy.ndarray
        ``psi(x)``, same shape as ``x``; never NaN or infinite, ``|psi| <= log theta``.

    Notes
    -----
    For ``0 <= x <= 1``, ``psi(x) = -log(1 - x + |x|^theta / theta)``; for ``x >= 1``,
    ``psi(x) = log theta``; for ``x < 0``, ``psi(x) = -psi(-x)``.  The branches meet at
    ``x = 1`` (``1 - 1 + 1/theta = 1/theta``).  On ``[0, 1]`` the argument of the log has
    derivative ``-1 + x^(theta-1) <= 0``, so psi is non-decreasing there, hence on all of R;
    it lies in ``[0, log theta]`` for ``x >= 0``.

    Proof note (used by the privacy argument of [000 Alg. 1] and [000 Alg. 2]).  Because every
    term of [000 eq. (2)] is ``psi(iota |r|)`` with ``iota |r| >= 0``, each record contributes a value in
    ``[0, log theta]``; replacing one record moves ``sum_i psi(iota |r_i|)`` by at most
    ``log theta``, i.e. ``L-hat_iota`` by at most ``log theta / (n iota)``.

    References
    ----------
    [000 eq. (6)] and [000 eq. (16)]; properties [000 eq. (3)] and [000 eq. (15)].

    Examples
    --------
    >>> float(psi(1.0)) == float(np.log(2.0))
    True
    >>> float(psi(-1e300, theta=1.5)) == -float(np.log(1.5))
    True
    """
    th = check_theta(theta)
    arr = _as_float_array(x)
    t = np.abs(arr)
    val = _psi_nonneg(t.ravel(), th).reshape(arr.shape)
    return np.where(arr < 0, -val, val)


def psi_bound(theta=2.0) -> float:
    """The bound ``sup |psi| = log theta`` stated below [000 eq. (6)] (``log 2``) and [000 eq. (16)]."""
    return math.log(check_theta(theta))


def _log_one_plus_s_plus_pow(s: np.ndarray, theta: float) -> np.ndarray:
    """``log(1 + s + |s|^theta / theta)`` for any float64 ``s`` without overflow.

    ``1 + s + |s|^theta/theta > 0`` for every real ``s`` (minimum ``1/theta`` at ``s = -1``).
    """
    a = np.abs(s)
    out = np.empty_like(s)
    moderate = a <= 1e100
    sm, am = s[moderate], a[moderate]
    out[moderate] = np.log1p(sm + np.power(am, theta) / theta)
    big = ~moderate
    sb, ab = s[big], a[big]
    log_pow = theta * np.log(ab) - math.log(theta)          # log(|s|^theta / theta)
    # 1 + s + |s|^theta/theta = (|s|^theta/theta) * (1 + (1 + s) * theta * |s|^-theta)
    one_plus = 1.0 + sb                                        # |1 + s| <= 2|s|, finite
    ratio = np.sign(one_plus) * np.exp(np.log(np.abs(one_plus)) + math.log(theta) - theta * np.log(ab))
    out[big] = log_pow + np.log1p(ratio)
    return out


def psi_upper_envelope(x, theta=2.0):
    """Right-hand side of [000 eq. (3)] (``theta = 2``) / [000 eq. (15)]: ``log(1 + x + |x|^theta / theta)``, overflow-free."""
    th = check_theta(theta)
    arr = _as_float_array(x)
    return _log_one_plus_s_plus_pow(arr.ravel().copy(), th).reshape(arr.shape)


def psi_lower_envelope(x, theta=2.0):
    """Left-hand side of [000 eq. (3)] / [000 eq. (15)]: ``-log(1 - x + |x|^theta / theta)``, overflow-free."""
    th = check_theta(theta)
    arr = _as_float_array(x)
    return -_log_one_plus_s_plus_pow(-arr.ravel(), th).reshape(arr.shape)
