"""Independent values of paper 002's golden cases in mpmath and exact integers (no float64 code of ``reference``).

* per-record losses and per-example gradients: squared ``(<w, x> - y)^2`` [002 Alg. 2], logistic
  ``log(1 + exp(-y <w, x>))`` [002 Sec. 6.1], Tukey's biweight (footnote to [002 Thm. 3], ``c = 4.685``),
  with ``<w, x>`` an exact sum of exact products at 60 digits;
* the parameter settings of [002 Thm. 2], [002 Thm. 3], [002 Thm. 5], [002 Thm. 7], [002 Thm. 8],
  [002 Thm. 9] and [002 Sec. 6.2], each displayed formula with its hidden constants set to 1 and the ``O~``
  logarithms dropped (the convention ``reference.hu.parameters`` documents), at 60 digits; iteration counts
  and sparsities are exact integers (a floor or ceiling decided at 60 digits, and for the powers of
  [002 Sec. 6.2] by integer arithmetic), and the implicit ``T`` of [002 Thm. 5] is iterated to its fixed point
  in mpmath rather than for a set number of rounds;
* the exact output laws of [002 Alg. 1] and [002 Alg. 2]: :mod:`.hu_law_mp`.

References
----------
.. [1] L. Hu, S. Ni, H. Xiao and D. Wang, ``002_6c597657f27a60c9.txt``.
"""

from __future__ import annotations

import mpmath
import numpy as np

__all__ = [
    "DIGITS",
    "PROVENANCE",
    "BIWEIGHT_C",
    "loss_value",
    "loss_gradient",
    "loss_gradient_batch",
    "theorem2_parameters",
    "theorem3_parameters",
    "theorem5_parameters",
    "theorem7_parameters",
    "theorem8_parameters",
    "theorem9_lower_bound",
    "section62_parameters",
]

#: Significant digits of every evaluation here.
DIGITS = 60

#: Provenance of the values of this module.
PROVENANCE = (
    "mpmath, 60 digits, from the displayed formulas (proofs_checks/golden/hu_mp.py): losses with exact inner "
    "products; settings with hidden constants 1, integers (T, s) exact"
)

#: Tuning constant of the biweight loss (the conventional 4.685, as the golden cases use).
BIWEIGHT_C = 4.685


def _mp(x):
    return mpmath.mpf(float(x))


def _inner(w, x):
    return mpmath.fsum(_mp(a) * _mp(b) for a, b in zip(w, x))


def _one_record(loss, w, x, y):
    """``(value, derivative in <w, x>)`` of one record: the gradient is the derivative times ``x``."""
    z, y = _inner(w, x), _mp(y)
    if loss == "squared":
        r = z - y
        return r * r, 2 * r
    if loss == "logistic":
        m = y * z
        return mpmath.log1p(mpmath.exp(-m)), -y / (1 + mpmath.exp(m))
    if loss == "biweight":
        c, r = _mp(BIWEIGHT_C), z - y
        if abs(r) > c:
            return c * c / 6, mpmath.mpf(0)
        u2 = (r / c) ** 2
        return c * c / 6 * (1 - (1 - u2) ** 3), r * (1 - u2) ** 2
    raise ValueError(f"loss must be 'squared', 'logistic' or 'biweight', got {loss!r}")


def loss_value(loss, w, X, y):
    """Per-record losses (list of mpf).

    Examples
    --------
    >>> [float(v) for v in loss_value("squared", [1.0], [[2.0], [1.0]], [0.0, 1.0])]
    [4.0, 0.0]
    """
    with mpmath.workdps(DIGITS):
        return [_one_record(loss, w, x, t)[0] for x, t in zip(np.asarray(X, dtype=np.float64), np.ravel(y))]


def loss_gradient(loss, w, X, y):
    """Per-example gradients, one row per record (nested lists of mpf).

    Examples
    --------
    >>> [[float(v) for v in row] for row in loss_gradient("squared", [1.0], [[2.0], [1.0]], [0.0, 1.0])]
    [[8.0], [0.0]]
    """
    with mpmath.workdps(DIGITS):
        out = []
        for x, t in zip(np.asarray(X, dtype=np.float64), np.ravel(y)):
            der = _one_record(loss, w, x, t)[1]
            out.append([der * _mp(v) for v in x])
        return out


def loss_gradient_batch(loss, W, X, y):
    """Per-example gradients at each row of ``W``: nested lists of shape ``(rows of W, n, d)``."""
    return [loss_gradient(loss, w, X, y) for w in np.asarray(W, dtype=np.float64)]


def _floor(x):
    return max(1, int(mpmath.floor(x)))


def _floor_root(x, a, b):
    """The largest integer ``T >= 1`` with ``T^b <= x^a`` for a float64 ``x`` (exact rational arithmetic)."""
    from fractions import Fraction

    q = Fraction(float(x)) ** a
    with mpmath.workdps(DIGITS):
        t = max(1, int(mpmath.floor(mpmath.mpf(float(x)) ** (mpmath.mpf(a) / b))))
    while Fraction(t + 1) ** b <= q:
        t += 1
    while t > 1 and Fraction(t) ** b > q:
        t -= 1
    return t


def theorem2_parameters(n, epsilon, d, n_vertices, alpha, tau, zeta):
    """[002 Thm. 2]: ``T = floor((n eps alpha^2 / (tau log(|V| d / zeta)))^(1/3))``,
    ``s = sqrt(n eps tau / (T log(|V| d T / zeta)))``, ``beta = 1``."""
    with mpmath.workdps(DIGITS):
        ne, tau, zeta = int(n) * _mp(epsilon), _mp(tau), _mp(zeta)
        T = _floor(mpmath.cbrt(ne * _mp(alpha) ** 2 / (tau * mpmath.log(int(n_vertices) * int(d) / zeta))))
        s = mpmath.sqrt(ne * tau / (T * mpmath.log(int(n_vertices) * int(d) * T / zeta)))
        return {"T": T, "s": s, "beta": mpmath.mpf(1), "step_size": "theorem2"}


def theorem3_parameters(n, epsilon, d, zeta):
    """[002 Thm. 3]: ``T = floor(sqrt(n eps / log(d / zeta)))``, ``s = sqrt(n eps / (T log(d T / zeta)))``,
    ``beta = 1``, ``eta = 1 / sqrt(T)``."""
    with mpmath.workdps(DIGITS):
        ne, zeta = int(n) * _mp(epsilon), _mp(zeta)
        T = _floor(mpmath.sqrt(ne / mpmath.log(int(d) / zeta)))
        s = mpmath.sqrt(ne) / mpmath.sqrt(T * mpmath.log(int(d) * T / zeta))
        return {"T": T, "s": s, "beta": mpmath.mpf(1), "eta": 1 / mpmath.sqrt(T)}


def theorem5_parameters(n, epsilon, delta, d, lambda_max, zeta):
    """[002 Thm. 5]: the fixed point ``T = (sqrt(n eps) lambda_max / (sqrt(log(1/delta)) log(d T / zeta)))^(4/5)``
    (``T >= 1``; iterated from ``T = 1`` until it moves by less than ``10^-40``), floored, and
    ``K = (n eps)^(1/4) / T^(1/8)``."""
    with mpmath.workdps(DIGITS):
        ne, lam, zeta = int(n) * _mp(epsilon), _mp(lambda_max), _mp(zeta)
        root_log = mpmath.sqrt(mpmath.log(1 / _mp(delta)))
        T = mpmath.mpf(1)
        for _ in range(10_000):
            nxt = max(
                mpmath.mpf(1),
                (mpmath.sqrt(ne) * lam / (root_log * mpmath.log(int(d) * T / zeta))) ** (mpmath.mpf(4) / 5),
            )
            if abs(nxt - T) < mpmath.mpf(10) ** -40:
                break
            T = nxt
        else:  # pragma: no cover - the map is a contraction on the instances used
            raise ArithmeticError("the fixed point of [002 Thm. 5] did not converge")
        T = _floor(nxt)
        return {"T": T, "K": ne ** mpmath.mpf(0.25) / mpmath.mpf(T) ** mpmath.mpf(0.125), "step_size": "theorem2"}


def theorem7_parameters(n, epsilon, s_star, gamma, mu):
    """[002 Thm. 7]: ``T = floor((gamma/mu) log n)``, ``s = ceil(72 (gamma/mu)^2 s*)``,
    ``K = (n eps / (s T))^(1/4)``, ``eta = eta0 = 2/(3 gamma)``."""
    with mpmath.workdps(DIGITS):
        g, m = _mp(gamma), _mp(mu)
        T = _floor(g / m * mpmath.log(int(n)))
        s = int(mpmath.ceil(72 * (g / m) ** 2 * int(s_star)))
        eta = 2 / (3 * g)
        return {"T": T, "s": s, "K": (int(n) * _mp(epsilon) / (s * T)) ** mpmath.mpf(0.25), "eta": eta, "eta0": eta}


def theorem8_parameters(n, epsilon, s_star, gamma_r, mu_r, tau):
    """[002 Thm. 8]: ``T = floor((gamma/mu) log n)``, ``s = ceil((gamma/mu)^2 s*)``, ``beta = 1``,
    ``eta = 2/(3 gamma)``, ``k = sqrt(n eps tau)``."""
    with mpmath.workdps(DIGITS):
        g, m = _mp(gamma_r), _mp(mu_r)
        T = _floor(g / m * mpmath.log(int(n)))
        s = int(mpmath.ceil((g / m) ** 2 * int(s_star)))
        return {
            "T": T,
            "s": s,
            "beta": mpmath.mpf(1),
            "eta": 2 / (3 * g),
            "k": mpmath.sqrt(int(n) * _mp(epsilon) * _mp(tau)),
        }


def theorem9_lower_bound(n, epsilon, delta, d, s_star, tau):
    """[002 Thm. 9]: ``tau min(s* log d, log(1/delta)) / (n eps)`` (constant 1)."""
    with mpmath.workdps(DIGITS):
        low = min(int(s_star) * mpmath.log(int(d)), mpmath.log(1 / _mp(delta)))
        return _mp(tau) * low / (int(n) * _mp(epsilon))


def section62_parameters(algorithm, n, epsilon, *, s_star=None):
    """[002 Sec. 6.2] as printed (``c = 2``, ``c2 = 1``, ``beta = 1``, ``delta = 1/n^1.1`` with the exponent
    the float64 nearest 1.1)."""
    n = int(n)
    ne_float = n * float(epsilon)
    with mpmath.workdps(DIGITS):
        ne = n * _mp(epsilon)
        # the exponent as the float64 nearest 1.1, as any float64 port writes it: the exact decimal 1.1 gives a delta
        # 5 ulps away at n = 10^4 (1.1 - float(1.1) = -8.9e-17, times log n), beyond the kit's 4 ulps
        delta = mpmath.mpf(n) ** -mpmath.mpf(1.1)
        if algorithm == 1:
            return {
                "T": _floor_root(ne_float, 1, 3),
                "s": mpmath.floor(ne),
                "beta": mpmath.mpf(1),
                "step_size": "section6",
            }
        if algorithm == 2:
            T = _floor_root(ne_float, 2, 5)
            return {
                "T": T,
                "K": ne ** mpmath.mpf(0.25) / mpmath.mpf(T) ** mpmath.mpf(0.125),
                "step_size": "section6",
                "delta": delta,
            }
        T = _floor(mpmath.log(n))
        if algorithm == 3:
            s = 2 * int(s_star)
            return {"T": T, "s": s, "K": (ne / (s * T)) ** mpmath.mpf(0.25), "eta0": mpmath.mpf(0.5), "delta": delta}
        if algorithm == 5:
            return {
                "T": T,
                "s": 2 * int(s_star),
                "k": ne,
                "eta": mpmath.mpf(0.5),
                "beta": mpmath.mpf(1),
                "delta": delta,
            }
    raise ValueError(f"algorithm must be 1, 2, 3 or 5, got {algorithm!r}")
