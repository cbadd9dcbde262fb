"""Parameter settings of 002: [002 Thm. 2], [002 Thm. 3], [002 Thm. 5], [002 Thm. 7], [002 Thm. 8],
[002 Sec. 6.2], and the lower bound of [002 Thm. 9].

The theorems state their settings up to ``O(.)`` / ``O~(.)``: each helper
here evaluates the displayed expression with every hidden constant set by an
explicit argument (``c=1`` by default) and the ``O~`` logarithmic factors
dropped, then rounds iteration counts down to an integer >= 1.  [002 Sec. 6.2]
states concrete values; :func:`section62_parameters` returns them as printed.
None of these helpers checks a rate; the rates belong to the rate claims.

References
----------
.. [1] L. Hu, S. Ni, H. Xiao and D. Wang, ``002_6c597657f27a60c9.txt``: [002 Thm. 2], [002 Thm. 3],
       [002 Thm. 5], [002 Thm. 7], [002 Thm. 8], [002 Thm. 9] and [002 Sec. 6.2].
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..validation import check_delta, check_epsilon, check_integer, check_positive, check_probability

__all__ = [
    "theorem2_parameters",
    "theorem3_parameters",
    "theorem5_parameters",
    "theorem7_parameters",
    "theorem8_parameters",
    "section62_parameters",
    "section62_delta",
    "theorem9_lower_bound",
    "fw_step_size",
]


def _iters(x):
    return max(1, int(math.floor(x)))


def _floor_pow(x, a, b):
    """Largest integer ``T >= 1`` with ``T <= x^(a/b)``, i.e. ``T^b <= x^a`` (exact where float powers are not:
    ``1000^(1/3)`` evaluates to 9.999..., whose floor would be 9)."""
    t = max(1, int(math.floor(x ** (a / b))))
    while (t + 1) ** b <= x**a:
        t += 1
    while t > 1 and t**b > x**a:
        t -= 1
    return t


def fw_step_size(t: int) -> float:
    """``eta_{t-1} = 2 / (t + 2)`` for iteration ``t >= 1`` ([002 Thm. 2] and [002 Thm. 5]).

    Parameters
    ----------
    t : int
        The iteration, ``>= 1``.

    Returns
    -------
    float
        The step size.

    Raises
    ------
    TypeError
        If ``t`` is not an integer.
    ValueError
        If ``t < 1``.

    References
    ----------
    .. [1] [002 Thm. 2], [002 Thm. 5].

    Examples
    --------
    >>> fw_step_size(1), fw_step_size(2)
    (0.6666666666666666, 0.5)
    """
    t = check_integer("t", t, minimum=1)
    return 2.0 / (t + 2.0)


def theorem2_parameters(
    n: int,
    epsilon: float,
    d: int,
    n_vertices: int,
    alpha: float,
    tau: float,
    zeta: float,
    *,
    c_T: float = 1.0,
    c_s: float = 1.0,
    beta: float = 1.0,
) -> dict[str, float | int | str]:
    """[002 Alg. 1] settings of [002 Thm. 2] (smooth convex loss over ``conv(V)``).

    ``T = c_T (n eps alpha^2 / (tau log(|V| d / zeta)))^(1/3)``,
    ``s = c_s sqrt(n eps tau / (T log(|V| d T / zeta)))``, ``beta = O(1)``,
    ``eta_{t-1} = 2/(t+2)``.

    Parameters
    ----------
    n : int
        Sample size, ``>= 1``.
    epsilon : float
        Privacy parameter, finite and > 0.
    d : int
        Dimension, ``>= 1``.
    n_vertices : int
        ``|V|``, ``>= 1``.
    alpha : float
        The constant ``alpha`` of the theorem, finite and > 0.
    tau : float
        The second-moment bound ``tau``, finite and > 0.
    zeta : float
        Failure probability, in (0, 1).
    c_T, c_s : float, default 1.0
        The hidden constants of ``T`` and ``s``, finite and > 0.
    beta : float, default 1.0
        The ``beta = O(1)`` returned, finite and > 0.

    Returns
    -------
    dict
        ``T`` (int >= 1), ``s``, ``beta`` and ``step_size`` (``"theorem2"``).

    Raises
    ------
    TypeError
        If ``n``, ``d`` or ``n_vertices`` is not an integer, or another parameter not a real number.
    ValueError
        If an integer is below 1, ``zeta`` not in (0, 1), or another parameter not finite and positive.

    References
    ----------
    .. [1] [002 Thm. 2].

    Examples
    --------
    >>> p = theorem2_parameters(10_000, 1.0, 10, 20, alpha=1.0, tau=1.0, zeta=0.1)
    >>> p["T"], round(p["s"], 3), p["step_size"]
    (10, 10.049, 'theorem2')
    """
    n = check_integer("n", n, minimum=1)
    eps = check_epsilon(epsilon)
    d = check_integer("d", d, minimum=1)
    k = check_integer("n_vertices", n_vertices, minimum=1)
    alpha, tau = check_positive("alpha", alpha), check_positive("tau", tau)
    zeta = check_probability("zeta", zeta)
    T = _iters(check_positive("c_T", c_T) * (n * eps * alpha**2 / (tau * math.log(k * d / zeta))) ** (1 / 3))
    s = check_positive("c_s", c_s) * math.sqrt(n * eps * tau / (T * math.log(k * d * T / zeta)))
    return {"T": T, "s": s, "beta": check_positive("beta", beta), "step_size": "theorem2"}


def theorem3_parameters(
    n: int, epsilon: float, d: int, zeta: float, *, c_T: float = 1.0, c_s: float = 1.0, beta: float = 1.0
) -> dict[str, float | int]:
    """[002 Alg. 1] settings of [002 Thm. 3] (robust regression with a biweight-type loss).

    ``T = c_T sqrt(n eps / log(d / zeta))``, ``s = c_s sqrt(n eps) / sqrt(T log(d T / zeta))``,
    ``eta = 1/sqrt(T)`` (constant), ``beta = O(1)``.

    Parameters
    ----------
    n : int
        Sample size, ``>= 1``.
    epsilon : float
        Privacy parameter, finite and > 0.
    d : int
        Dimension, ``>= 1``.
    zeta : float
        Failure probability, in (0, 1).
    c_T, c_s : float, default 1.0
        The hidden constants of ``T`` and ``s``, finite and > 0.
    beta : float, default 1.0
        The ``beta = O(1)`` returned, finite and > 0.

    Returns
    -------
    dict
        ``T`` (int >= 1), ``s``, ``beta``, ``eta`` (``eta`` is the constant step; pass ``[eta] * T`` as
        ``step_size``).

    Raises
    ------
    TypeError
        If ``n`` or ``d`` is not an integer, or another parameter not a real number.
    ValueError
        If an integer is below 1, ``zeta`` not in (0, 1), or another parameter not finite and positive.

    References
    ----------
    .. [1] [002 Thm. 3].

    Examples
    --------
    >>> p = theorem3_parameters(10_000, 1.0, 10, zeta=0.1)
    >>> p["T"], round(p["eta"], 6)
    (46, 0.147442)
    """
    n = check_integer("n", n, minimum=1)
    eps = check_epsilon(epsilon)
    d = check_integer("d", d, minimum=1)
    zeta = check_probability("zeta", zeta)
    T = _iters(check_positive("c_T", c_T) * math.sqrt(n * eps / math.log(d / zeta)))
    s = check_positive("c_s", c_s) * math.sqrt(n * eps) / math.sqrt(T * math.log(d * T / zeta))
    return {"T": T, "s": s, "beta": check_positive("beta", beta), "eta": 1.0 / math.sqrt(T)}


def theorem5_parameters(
    n: int,
    epsilon: float,
    delta: float,
    d: int,
    lambda_max: float,
    zeta: float,
    *,
    c_T: float = 1.0,
    iterations: int = 50,
) -> dict[str, float | int | str]:
    """[002 Alg. 2] settings of [002 Thm. 5] (heavy-tailed private LASSO).

    ``T = c_T (sqrt(n eps) lambda_max / (sqrt(log(1/delta)) log(d T / zeta)))^(4/5)`` -- ``T``
    appears on both sides, so the equation is solved by fixed-point iteration from
    ``T = 1`` -- and ``K = (n eps)^(1/4) / T^(1/8)``, ``eta_{t-1} = 2/(t+2)``.

    Parameters
    ----------
    n : int
        Sample size, ``>= 1``.
    epsilon : float
        Privacy parameter, finite and > 0.
    delta : float
        Privacy parameter, in (0, 1).
    d : int
        Dimension, ``>= 1``.
    lambda_max : float
        ``lambda_max(E[x x^T])``, finite and > 0.
    zeta : float
        Failure probability, in (0, 1).
    c_T : float, default 1.0
        The hidden constant of ``T``, finite and > 0.
    iterations : int, default 50
        Fixed-point iterations, ``>= 1``.

    Returns
    -------
    dict
        ``T`` (int >= 1), ``K`` and ``step_size`` (``"theorem2"``).

    Raises
    ------
    TypeError
        If ``n``, ``d`` or ``iterations`` is not an integer, or another parameter not a real number.
    ValueError
        If an integer is below 1, ``delta`` or ``zeta`` not in (0, 1), or another parameter not finite and positive.

    References
    ----------
    .. [1] [002 Thm. 5].

    Examples
    --------
    >>> p = theorem5_parameters(10_000, 1.0, 1e-5, 10, lambda_max=1.0, zeta=0.1)
    >>> p["T"], round(p["K"], 4)
    (3, 8.7169)
    """
    n = check_integer("n", n, minimum=1)
    eps, dlt = check_epsilon(epsilon), check_delta(delta)
    d = check_integer("d", d, minimum=1)
    lam = check_positive("lambda_max", lambda_max)
    zeta = check_probability("zeta", zeta)
    c = check_positive("c_T", c_T)
    T = 1.0
    for _ in range(check_integer("iterations", iterations, minimum=1)):
        T = max(1.0, c * (math.sqrt(n * eps) * lam / (math.sqrt(math.log(1 / dlt)) * math.log(d * T / zeta))) ** 0.8)
    T = _iters(T)
    return {"T": T, "K": (n * eps) ** 0.25 / T**0.125, "step_size": "theorem2"}


def theorem7_parameters(
    n: int, epsilon: float, s_star: int, gamma: float, mu: float, *, c_T: float = 1.0, c_s: float = 72.0
) -> dict[str, float | int]:
    """[002 Alg. 3] settings of [002 Thm. 7] (heavy-tailed private sparse linear regression).

    ``T = c_T (gamma/mu) log n``, ``s = ceil(c_s (gamma/mu)^2 s*)`` (the theorem asks
    ``s >= 72 (gamma/mu)^2 s*``), ``K = (n eps)^(1/4) / (s T)^(1/4)``, ``eta = 2/(3 gamma)`` as the
    theorem prints it, and the step of [002 Alg. 3] ``eta0 = 2/(3 gamma)``: the proof of [002 Thm. 7] writes
    the step as ``eta0 = eta'/gamma`` with its own dimensionless ``eta' = 2/3`` (file lines 1120 and ~1260),
    so the theorem's ``eta`` is the step itself, not to be divided by ``gamma`` again.

    Parameters
    ----------
    n : int
        Sample size, ``>= 2``.
    epsilon : float
        Privacy parameter, finite and > 0.
    s_star : int
        Sparsity of ``w*``, ``>= 1``.
    gamma : float
        Largest eigenvalue (smoothness), finite and > 0.
    mu : float
        Smallest eigenvalue (strong convexity), finite, > 0 and ``<= gamma``.
    c_T : float, default 1.0
        The hidden constant of ``T``, finite and > 0.
    c_s : float, default 72.0
        The constant of ``s``, finite and > 0.

    Returns
    -------
    dict
        ``T`` (int >= 1), ``s`` (int), ``K``, ``eta`` (as printed) and ``eta0`` (the step, equal to ``eta``).

    Raises
    ------
    TypeError
        If ``n`` or ``s_star`` is not an integer, or another parameter not a real number.
    ValueError
        If ``n < 2``, ``s_star < 1``, ``mu > gamma``, or another parameter not finite and positive.

    References
    ----------
    .. [1] [002 Thm. 7] and its proof.

    Examples
    --------
    >>> p = theorem7_parameters(10_000, 1.0, 2, gamma=2.0, mu=1.0)
    >>> p["T"], p["s"], round(p["eta0"], 6)
    (18, 576, 0.333333)
    """
    n = check_integer("n", n, minimum=2)
    eps = check_epsilon(epsilon)
    s_star = check_integer("s_star", s_star, minimum=1)
    gamma, mu = check_positive("gamma", gamma), check_positive("mu", mu)
    if mu > gamma:
        raise ValueError(f"mu must be <= gamma (smallest <= largest eigenvalue), got mu={mu}, gamma={gamma}")
    T = _iters(check_positive("c_T", c_T) * gamma / mu * math.log(n))
    s = int(math.ceil(check_positive("c_s", c_s) * (gamma / mu) ** 2 * s_star))
    eta = 2.0 / (3.0 * gamma)
    # the proof's eta' = 2/3 over gamma: the step is 2/(3 gamma) (dividing the printed eta by gamma again was a slip)
    return {"T": T, "s": s, "K": (n * eps) ** 0.25 / (s * T) ** 0.25, "eta": eta, "eta0": (2.0 / 3.0) / gamma}


def theorem8_parameters(
    n: int,
    epsilon: float,
    s_star: int,
    gamma_r: float,
    mu_r: float,
    tau: float,
    *,
    c_T: float = 1.0,
    c_s: float = 1.0,
    c_k: float = 1.0,
    beta: float = 1.0,
) -> dict[str, float | int]:
    """[002 Alg. 5] settings of [002 Thm. 8] (heavy-tailed private sparse optimisation).

    ``T = c_T (gamma_r/mu_r) log n``, ``s = ceil(c_s (gamma_r/mu_r)^2 s*)``, ``beta = O(1)``,
    ``eta = 2/(3 gamma_r)``, ``k = c_k sqrt(n eps tau)``.

    Parameters
    ----------
    n : int
        Sample size, ``>= 2``.
    epsilon : float
        Privacy parameter, finite and > 0.
    s_star : int
        Sparsity of ``w*``, ``>= 1``.
    gamma_r : float
        Restricted smoothness, finite and > 0.
    mu_r : float
        Restricted strong convexity, finite and > 0.
    tau : float
        The second-moment bound, finite and > 0.
    c_T, c_s, c_k : float, default 1.0
        The hidden constants of ``T``, ``s`` and ``k``, finite and > 0.
    beta : float, default 1.0
        The ``beta = O(1)`` returned, finite and > 0.

    Returns
    -------
    dict
        ``T`` (int >= 1), ``s`` (int), ``beta``, ``eta`` and ``k``.

    Raises
    ------
    TypeError
        If ``n`` or ``s_star`` is not an integer, or another parameter not a real number.
    ValueError
        If ``n < 2``, ``s_star < 1``, or another parameter not finite and positive.

    References
    ----------
    .. [1] [002 Thm. 8].

    Examples
    --------
    >>> p = theorem8_parameters(10_000, 1.0, 2, gamma_r=2.0, mu_r=1.0, tau=1.0)
    >>> p["T"], p["s"], p["k"]
    (18, 8, 100.0)
    """
    n = check_integer("n", n, minimum=2)
    eps = check_epsilon(epsilon)
    s_star = check_integer("s_star", s_star, minimum=1)
    g, m_ = check_positive("gamma_r", gamma_r), check_positive("mu_r", mu_r)
    tau = check_positive("tau", tau)
    T = _iters(check_positive("c_T", c_T) * g / m_ * math.log(n))
    s = int(math.ceil(check_positive("c_s", c_s) * (g / m_) ** 2 * s_star))
    return {
        "T": T,
        "s": s,
        "beta": check_positive("beta", beta),
        "eta": 2.0 / (3.0 * g),
        "k": check_positive("c_k", c_k) * math.sqrt(n * eps * tau),
    }


def section62_delta(n: int) -> float:
    """``delta = 1 / n^1.1`` ([002 Sec. 6.2]).

    Parameters
    ----------
    n : int
        Sample size, ``>= 2``.

    Returns
    -------
    float
        ``n ** -1.1``.

    Raises
    ------
    TypeError
        If ``n`` is not an integer.
    ValueError
        If ``n < 2``.

    References
    ----------
    .. [1] [002 Sec. 6.2].

    Examples
    --------
    >>> f"{section62_delta(1000):.4e}"
    '5.0119e-04'
    """
    n = check_integer("n", n, minimum=2)
    return float(n) ** -1.1


def section62_parameters(
    algorithm: int, n: int, epsilon: float, *, s_star: int | None = None, c: int = 2, c2: float = 1, beta: float = 1.0
) -> dict[str, float | int | str]:
    """Parameters of [002 Sec. 6.2] for [002 Alg. 1], [002 Alg. 2], [002 Alg. 3] or [002 Alg. 5], as printed.

    * [002 Alg. 1]: ``T = floor((n eps)^(1/3))``, ``eta_t = 2/(t+2)``, ``s = floor(n eps)`` (as
      printed; [002 Thm. 2] would give ``s ~ sqrt(n eps / T)`` instead).
    * [002 Alg. 2]: ``T = (n eps)^(2/5)`` (rounded down: an iteration count),
      ``K = (n eps)^(1/4) / T^(1/8)`` (with the rounded ``T``), ``eta_t = 2/(t+2)``.
    * [002 Alg. 3]: ``s = c s*``, ``T = floor(log n)``, ``K = (n eps / (s T))^(1/4)``, ``eta = 0.5``.
    * [002 Alg. 5]: ``s = 2 s*``, ``T = floor(log n)``, ``k = c2 n eps``, ``eta = 0.5`` ([002 Thm. 8]
      would give ``k ~ sqrt(n eps tau)``).
    * ``delta = 1/n^1.1`` for [002 Alg. 2], [002 Alg. 3] and [002 Alg. 5].

    [002 Sec. 6.2] writes ``eta_t = 2/(t+2)`` while [002 Thm. 2] writes ``eta_{t-1} = 2/(t+2)``;
    the [002 Sec. 6.2] schedule is returned as ``step_size="section6"``
    (see :func:`reference.hu.frank_wolfe.fw_step_sizes`).  ``beta`` is not given in
    [002 Sec. 6.2]; the theorems say ``beta = O(1)`` and ``beta`` is returned as passed.

    Parameters
    ----------
    algorithm : {1, 2, 3, 5}
        Which algorithm of 002.
    n : int
        Sample size, ``>= 2``.
    epsilon : float
        Privacy parameter, finite and > 0.
    s_star : int or None, default None
        Sparsity of ``w*``, ``>= 1``; required for algorithms 3 and 5.
    c : int, default 2
        The multiplier of ``s*`` for algorithm 3, ``>= 1``.
    c2 : float, default 1
        The multiplier of ``k`` for algorithm 5, finite and > 0.
    beta : float, default 1.0
        Returned for algorithms 1 and 5, finite and > 0.

    Returns
    -------
    dict
        The settings of that algorithm (keys among ``T, s, K, k, eta, eta0, beta, step_size, delta``).

    Raises
    ------
    TypeError
        If ``n``, ``s_star`` or ``c`` is not an integer, or ``epsilon``, ``c2`` or ``beta`` not a real number.
    ValueError
        If ``n < 2``, ``epsilon``, ``c2`` or ``beta`` is not finite and positive, ``s_star`` is missing or below
        1 for algorithms 3 and 5, ``c < 1``, or ``algorithm`` is not 1, 2, 3 or 5.

    References
    ----------
    .. [1] [002 Sec. 6.2].

    Examples
    --------
    >>> section62_parameters(1, 1000, 1.0)
    {'T': 10, 's': 1000.0, 'beta': 1.0, 'step_size': 'section6'}
    >>> p = section62_parameters(3, 1000, 1.0, s_star=2)
    >>> p["T"], p["s"], p["eta0"]
    (6, 4, 0.5)
    """
    n = check_integer("n", n, minimum=2)
    eps = check_epsilon(epsilon)
    ne = n * eps
    if algorithm == 1:
        return {
            "T": _floor_pow(ne, 1, 3),
            "s": float(max(1, math.floor(ne))),
            "beta": check_positive("beta", beta),
            "step_size": "section6",
        }
    if algorithm == 2:
        T = _floor_pow(ne, 2, 5)
        return {"T": T, "K": ne**0.25 / T**0.125, "step_size": "section6", "delta": section62_delta(n)}
    if s_star is None:
        raise ValueError(f"s_star is required for algorithm {algorithm}")
    s_star = check_integer("s_star", s_star, minimum=1)
    T = _iters(math.log(n))
    if algorithm == 3:
        s = check_integer("c", c, minimum=1) * s_star
        return {"T": T, "s": s, "K": (ne / (s * T)) ** 0.25, "eta0": 0.5, "delta": section62_delta(n)}
    if algorithm == 5:
        return {
            "T": T,
            "s": 2 * s_star,
            "k": check_positive("c2", c2) * ne,
            "eta": 0.5,
            "beta": check_positive("beta", beta),
            "delta": section62_delta(n),
        }
    raise ValueError(f"algorithm must be 1, 2, 3 or 5, got {algorithm!r}")


def theorem9_lower_bound(
    n: ArrayLike,
    epsilon: ArrayLike,
    delta: ArrayLike,
    d: ArrayLike,
    s_star: ArrayLike,
    tau: ArrayLike,
    *,
    c: float = 1.0,
) -> float | NDArray[np.float64]:
    """[002 Thm. 9]: ``c * tau * min(s* log d, log(1/delta)) / (n eps)``, the private minimax lower bound.

    The (eps, delta)-private minimax lower bound for s*-sparse mean estimation with ``E X_j^2 <= tau``
    (``c`` the unknown constant).  Vectorised over array arguments.

    Parameters
    ----------
    n : array_like
        Sample sizes, ``>= 1``.
    epsilon : array_like
        Privacy parameters, > 0.
    delta : array_like
        Privacy parameters, in (0, 1).
    d : array_like
        Dimensions, ``>= 1``.
    s_star : array_like
        Sparsities, ``1 <= s_star <= d``.
    tau : array_like
        Second-moment bounds, > 0.
    c : float, default 1.0
        The unknown constant, finite and > 0.

    Returns
    -------
    float or numpy.ndarray of float64
        The bound, broadcast over the arguments (a float for scalars).

    Raises
    ------
    ValueError
        If an argument is out of its range or not finite, or ``c`` not finite and positive.
    TypeError
        If ``c`` is not a real number.

    References
    ----------
    .. [1] [002 Thm. 9].

    Examples
    --------
    >>> round(theorem9_lower_bound(1000, 1.0, 1e-5, 100, 2, 1.0), 6)
    0.00921
    """
    n_, eps = np.asarray(n, dtype=np.float64), np.asarray(epsilon, dtype=np.float64)
    dlt, d_ = np.asarray(delta, dtype=np.float64), np.asarray(d, dtype=np.float64)
    s_, tau_ = np.asarray(s_star, dtype=np.float64), np.asarray(tau, dtype=np.float64)
    for name, v, ok in (
        ("n", n_, n_ >= 1),
        ("epsilon", eps, eps > 0),
        ("delta", dlt, (dlt > 0) & (dlt < 1)),
        ("d", d_, d_ >= 1),
        ("s_star", s_, (s_ >= 1) & (s_ <= d_)),
        ("tau", tau_, tau_ > 0),
    ):
        if not np.all(ok & np.isfinite(v)):
            raise ValueError(f"{name} out of range: {v!r}")
    out = check_positive("c", c) * tau_ * np.minimum(s_ * np.log(d_), np.log(1.0 / dlt)) / (n_ * eps)
    return float(out) if out.ndim == 0 else out
