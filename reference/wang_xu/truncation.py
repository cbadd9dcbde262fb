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
from numpy.typing import ArrayLike, NDArray

from ..floating import FUNCTION_ULPS, UNIT_ROUNDOFF

__all__ = ["check_theta", "psi", "psi_lower_envelope", "psi_upper_envelope", "psi_bound", "psi_evaluation_error_bound"]


def check_theta(theta: float, name: str = "theta") -> float:
    """Return ``theta`` as a float after checking ``1 < theta <= 2`` (``theta = 2`` is [000 eq. (6)]).

    Parameters
    ----------
    theta : float
        The moment order of the truncated loss.
    name : str, default "theta"
        The parameter's name, for the error message.

    Returns
    -------
    float
        ``float(theta)``.

    Raises
    ------
    TypeError
        If ``theta`` is a bool or not a real number.
    ValueError
        If ``theta`` is NaN or not in (1, 2].

    References
    ----------
    .. [1] [000 eq. (6)] (``theta = 2``) and [000 eq. (16)] (``1 < theta < 2``).

    Examples
    --------
    >>> check_theta(1.5)
    1.5
    >>> check_theta(1)
    Traceback (most recent call last):
    ValueError: theta must lie in (1, 2], got 1
    """
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
    s = np.minimum(t, 1.0)  # psi is constant (log theta) on [1, inf]
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


def psi(x: ArrayLike, theta: float = 2.0) -> NDArray[np.float64]:
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

    Raises
    ------
    TypeError
        If ``x`` is not an array of real numbers, or ``theta`` is a bool or not a real number.
    ValueError
        If ``x`` holds a NaN or ``theta`` is not in (1, 2].

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
    >>> float(psi(1.0)) == math.log(2.0)          # psi is exactly log theta for |x| >= 1
    True
    >>> float(psi(-1e300, theta=1.5)) == -float(np.log(1.5))
    True
    """
    th = check_theta(theta)
    arr = _as_float_array(x)
    t = np.abs(arr)
    val = _psi_nonneg(t.ravel(), th).reshape(arr.shape)
    return np.where(arr < 0, -val, val)


def psi_bound(theta: float = 2.0) -> float:
    """The bound ``sup |psi| = log theta`` stated below [000 eq. (6)] (``log 2``) and [000 eq. (16)].

    Parameters
    ----------
    theta : float, default 2.0
        Moment order in (1, 2].

    Returns
    -------
    float
        ``log theta``.

    Raises
    ------
    TypeError
        If ``theta`` is a bool or not a real number.
    ValueError
        If ``theta`` is not in (1, 2].

    References
    ----------
    .. [1] [000 eq. (6)] and [000 eq. (16)].

    Examples
    --------
    >>> round(psi_bound(), 12), round(psi_bound(1.5), 12)
    (0.69314718056, 0.405465108108)
    """
    return math.log(check_theta(theta))


#: Smallest positive subnormal float64 ``2^-1074``: the spacing below ``2^-1022``.
_ETA = 2.0**-1074
#: Relative margin of the bound's own float64 evaluation (``2^-40``, about ``8,000 u``).
_MARGIN = 2.0**-40


def psi_evaluation_error_bound(
    t: ArrayLike, theta: float = 2.0, function_ulps: float = FUNCTION_ULPS
) -> NDArray[np.float64]:
    """Bound on ``|computed psi(t) - psi(t)|`` for every float64 evaluation by the operations of :func:`psi`.

    Parameters
    ----------
    t : array_like of float
        Arguments of psi (any float64 but NaN).  psi is odd and the sign is applied exactly, so the bound
        at ``t`` is the bound at ``|t|``.
    theta : float, optional
        Moment order in ``(1, 2]`` ([000 eq. (6)] for ``theta = 2``, [000 eq. (16)] otherwise).
    function_ulps : float, optional
        Error of one evaluation of ``log1p``, ``pow`` and ``log`` in ulps of the exact result, by whatever
        implementation runs (default :data:`reference.floating.FUNCTION_ULPS`, the contract's bound).

    Returns
    -------
    numpy.ndarray
        ``B(t)``, same shape as ``t``, with ``|psi_computed(t) - psi(t)| <= B(t)`` for the exact ``psi`` of
        the float64 ``t`` and ``theta``.  Two implementations (the compiled kernels of
        :mod:`reference.wang_xu._score_kernel` and numpy's SIMD loops, say) differ by at most ``2 B(t)``.
        The bound is computed with ``+ - * /`` and :func:`reference.wang_xu._powers.pow_unit` only, so its
        bits are the same on every CPU.

    Raises
    ------
    TypeError
        If ``t`` is not an array of real numbers, or ``theta`` is a bool or not a real number.
    ValueError
        If ``t`` holds a NaN, ``theta`` is not in (1, 2], or ``function_ulps`` is not in [0, 2^20].

    Notes
    -----
    Proof note.  The evaluation covered is the one printed in ``_psi_nonneg``: ``s = min(|t|, 1)``
    (exact); for ``theta = 2``, ``-log1p(s (0.5 s - 1))`` if ``s < 1/2`` (branch A), else
    ``log 2 - log1p((1 - s)^2)`` (branch B, which the compiled ``_psi`` shortens to ``log 2`` at ``s = 1``);
    for ``theta < 2``, ``-log1p(pow(s, theta) / theta - s)`` capped at ``log theta`` (branch C), and
    ``log theta`` for ``s = 1``.  Model: with ``u = 2^-53`` and ``eta = 2^-1074``, every ``+ - * /`` gives
    ``fl(x) = x (1 + d) + e``, ``|d| <= u``, ``|e| <= eta / 2`` (``e = 0`` for ``+`` and ``-``); ``log1p``,
    ``pow`` and ``log`` (the constants ``log 2``, ``log theta``) are within ``F = function_ulps`` ulps of
    their exact value ``y``, and ``ulp(y) <= 2 u |y| + eta``.  ``g_2 = 2u / (1 - 2u)``.  ``log1p`` has
    slope ``1 / (1 + x)``, and for ``q = 1 + a > 0``, ``-log1p(a) = log(1/q) <= 1/q - 1 = -a / q``.

    Branch A (``theta = 2``, ``s < 1/2``): ``a = s (s/2 - 1)``, ``|a| <= 3/8``, ``q = 1 + a >= 5/8``.
    ``0.5 s`` is exact unless ``s < 2^-1021`` (then within ``eta / 2``), then two roundings: the computed
    ``a'`` has ``|a' - a| <= g_2 |a| + s (1 + g_2) eta / 2 + eta / 2 <= Da = g_2 |a| + eta``.  ``log1p``
    moves by ``D = Da / (q - Da)`` (slope at most ``1 / (1 + min(a, a'))``), its own error is
    ``F ulp(log1p(a')) <= F (2u (psi + D) + eta)`` with ``psi <= |a| / q``; the negation is exact::

        B_A = D + F (2u (|a| / q + D) + eta).

    Branch B (``theta = 2``, ``s >= 1/2``): ``b = 1 - s`` is exact (Sterbenz), ``fl(b b) = b^2 (1 + d)``
    (``b^2 >= 2^-106``: no underflow), ``log1p`` has slope at most 1 on ``[0, inf)`` and
    ``log1p(x) <= x``; the constant ``log 2`` errs by ``F ulp(log 2) = F u``; the final subtraction rounds
    by ``u`` times ``psi + E <= log 2 + E``::

        E = F u + u b^2 + F (2u (1 + u) b^2 + eta),    B_B = E + u (log 2 + E).

    Branch C (``theta < 2``, ``s < 1``): ``p = s^theta``, ``c = p / theta``, ``a = c - s <= 0``,
    ``q = 1 - s + c``; ``q`` decreases on ``[0, 1]`` (slope ``s^(theta-1) - 1``) to ``1 / theta``, so
    ``q >= 1/theta >= 1/2``: the sensitivity of ``log1p`` at ``a`` is at most ``theta``.  ``pow`` errs by
    ``F (2u p + eta)``, the division adds ``u c + eta / 2`` (``theta > 1`` shrinks the rest), so
    ``|c' - c| <= Ec = (2F (1 + u) + 1) u c + (F + 1/2) eta``; the subtraction ``c' - s`` rounds by
    ``u |c' - s| <= u (|a| + Ec)``::

        Da = (1 + u) Ec + u |a|,   D = Da / (q - Da),   B_C' = D + F (2u (|a| / q + D) + eta).

    The cap: if ``min(v, L) = L < v`` with ``L`` the computed ``log theta``, then ``-e_L <= L - psi <
    v - psi``, since ``psi <= log theta``; so ``B_C = max(B_C', e_L)``, ``e_L = F ulp(log theta) <=
    2 F u (theta - 1)``, which is also the bound for ``s = 1``.  The cap acts only if ``psi + B_C' >=
    log theta - e_L``, and ``log theta > 2 (theta - 1) / (theta + 1)``: below that ``B_C = B_C'``.

    Conditioning.  As ``theta -> 1``, ``psi ~ |a| = s - s^theta / theta`` is a small difference of two
    terms of size ``s`` while ``Ec`` is of order ``(2F + 1) u s``: ``B_C / psi`` grows like ``(2F + 1) u s
    / (q |a|)``, about ``9 u / ((theta - 1) (1 - log s))`` for ``F = 4``.  This is the condition of the
    formula (a one-ulp change of ``pow`` moves psi this much), not an error of either implementation:
    measured, 1 ulp of ``pow`` moves psi by up to about ``1e6`` ulps at ``theta = 1 + 1e-6``.

    Evaluation of the bound: ``c`` from :func:`reference.wang_xu._powers.pow_unit` (relative error at most
    ``8 u``, plus ``eta / 2``), every quantity replaced by an upper bound (``|a|``, ``c``) or a lower bound
    (``q``) with a relative margin of ``2^-40`` (more than the at most 20 roundings of its evaluation), the
    result multiplied by ``1 + 2^-40`` and increased by ``(4F + 16) eta`` (products that underflow).

    References
    ----------
    [000 eq. (6)], [000 eq. (16)]; N. J. Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd ed.,
    SIAM 2002, sections 2.2 (the model of floating-point arithmetic, with underflow) and 3.1 (``g_n``).

    Examples
    --------
    >>> import numpy as np
    >>> u = 2.0 ** -53
    >>> (psi_evaluation_error_bound([0.0, 0.25, 0.75, 1.0], 2.0) / u).round(2).tolist()   # psi = 0, .25, .52, .69
    [0.0, 2.8, 5.26, 4.7]
    >>> rel = psi_evaluation_error_bound(0.5, 1.0 + 1e-6) / psi(0.5, 1.0 + 1e-6)       # the conditioning
    >>> f"{float(rel):.1e}"
    '5.9e-10'
    """
    th = check_theta(theta)
    F = float(function_ulps)
    if not (math.isfinite(F) and 0.0 <= F <= 2.0**20):
        raise ValueError(f"function_ulps must be a number in [0, 2^20], got {function_ulps!r}")
    arr = _as_float_array(t, "t")
    s = np.minimum(np.abs(arr), 1.0).ravel()
    u, eta, up, down = UNIT_ROUNDOFF, _ETA, 1.0 + _MARGIN, 1.0 - _MARGIN
    g2 = 2.0 * u / (1.0 - 2.0 * u)
    out = np.empty_like(s)
    if th == 2.0:
        small = s < 0.5
        sa = s[small]
        a = (sa * (1.0 - 0.5 * sa)) * up + 2.0 * eta  # |a| = s - s^2/2, upper
        q = (1.0 - a) * down  # q = 1 - |a|, lower
        da = g2 * a + eta
        d = da / (q - da)
        out[small] = d + F * (2.0 * u * (a / q + d) + eta)
        b = 1.0 - s[~small]
        b2 = (b * b) * up
        e = F * u + u * b2 + F * (2.0 * u * (1.0 + u) * b2 + eta)
        out[~small] = e + u * (0.7 + e)  # log 2 < 0.7
    else:
        from ._score_kernel import _pow_np, pow_constants  # IEEE-only s^theta (portable bits)

        e_l = 2.0 * F * u * (th - 1.0)
        inner = s < 1.0
        si = s[inner]
        with np.errstate(under="ignore"):
            pw = _pow_np(si, *pow_constants(th))
        rel = 8.0 * u
        c_up = ((pw + 0.5 * eta) / (1.0 - rel) / th) * up + eta
        c_lo = np.maximum((pw - 0.5 * eta) / (1.0 + rel) / th * down - eta, 0.0)
        a = np.maximum(si - c_lo, 0.0) * up  # |a| = s - c, upper
        q = np.maximum(((1.0 - si) + c_lo) * down, (1.0 / th) * down)
        ec = (2.0 * F * (1.0 + u) + 1.0) * u * c_up + (F + 0.5) * eta
        da = (1.0 + u) * ec + u * a
        d = da / (q - da)
        psi_up = a / q
        bc = d + F * (2.0 * u * (psi_up + d) + eta)
        # the cap can act only where psi + B_C' reaches log theta - e_L > 2 (theta - 1) / (theta + 1) - e_L
        capped = psi_up + bc >= (2.0 * (th - 1.0) / (th + 1.0)) * down - e_l
        out[inner] = np.where(capped, np.maximum(bc, e_l), bc)
        out[~inner] = e_l
    out = out * up + (4.0 * F + 16.0) * eta
    return out.reshape(arr.shape)


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
    log_pow = theta * np.log(ab) - math.log(theta)  # log(|s|^theta / theta)
    # 1 + s + |s|^theta/theta = (|s|^theta/theta) * (1 + (1 + s) * theta * |s|^-theta)
    one_plus = 1.0 + sb  # |1 + s| <= 2|s|, finite
    ratio = np.sign(one_plus) * np.exp(np.log(np.abs(one_plus)) + math.log(theta) - theta * np.log(ab))
    out[big] = log_pow + np.log1p(ratio)
    return out


def psi_upper_envelope(x: ArrayLike, theta: float = 2.0) -> NDArray[np.float64]:
    """Right-hand side of [000 eq. (3)] / [000 eq. (15)]: ``log(1 + x + |x|^theta / theta)``, overflow-free.

    Parameters
    ----------
    x : array_like of float
        Arguments, any float64 but NaN.
    theta : float, default 2.0
        Moment order in (1, 2].

    Returns
    -------
    numpy.ndarray of float64
        The envelope at ``x``, the shape of ``x``.

    Raises
    ------
    TypeError
        If ``theta`` is a bool or not a real number.
    ValueError
        If ``theta`` is not in (1, 2], or ``x`` holds a NaN.

    References
    ----------
    .. [1] [000 eq. (3)] and [000 eq. (15)] (the envelopes ``psi`` lies between).

    Examples
    --------
    >>> x = np.array([1.5, 3.0])        # psi equals the lower envelope on [0, 1]; beyond, it lies strictly between
    >>> psi_lower_envelope(x).round(4), psi(x).round(4), psi_upper_envelope(x).round(4)
    (array([ 0.47  , -0.9163]), array([0.6931, 0.6931]), array([1.2879, 2.1401]))
    """
    th = check_theta(theta)
    arr = _as_float_array(x)
    return _log_one_plus_s_plus_pow(arr.ravel().copy(), th).reshape(arr.shape)


def psi_lower_envelope(x: ArrayLike, theta: float = 2.0) -> NDArray[np.float64]:
    """Left-hand side of [000 eq. (3)] / [000 eq. (15)]: ``-log(1 - x + |x|^theta / theta)``, overflow-free.

    Parameters
    ----------
    x : array_like of float
        Arguments, any float64 but NaN.
    theta : float, default 2.0
        Moment order in (1, 2].

    Returns
    -------
    numpy.ndarray of float64
        The envelope at ``x``, the shape of ``x``.

    Raises
    ------
    TypeError
        If ``theta`` is a bool or not a real number.
    ValueError
        If ``theta`` is not in (1, 2], or ``x`` holds a NaN.

    References
    ----------
    .. [1] [000 eq. (3)] and [000 eq. (15)] (the envelopes ``psi`` lies between).

    Examples
    --------
    >>> x = np.array([1.5, 3.0])        # psi equals the lower envelope on [0, 1]; beyond, it lies strictly between
    >>> psi_lower_envelope(x).round(4), psi(x).round(4), psi_upper_envelope(x).round(4)
    (array([ 0.47  , -0.9163]), array([0.6931, 0.6931]), array([1.2879, 2.1401]))
    """
    th = check_theta(theta)
    arr = _as_float_array(x)
    return -_log_one_plus_s_plus_pow(-arr.ravel(), th).reshape(arr.shape)
