"""The exact output laws of [002 Alg. 1] and [002 Alg. 2] by enumeration in mpmath (no float64 code of ``reference``).

Both algorithms run ``T`` Frank-Wolfe steps over the vertices ``V`` of the unit l1 ball:
``w^t = (1 - eta_t) w^{t-1} + eta_t v_t`` with ``eta_t = 2/(t + 2)`` ([002 Thm. 2]), ``v_t`` drawn by the
exponential mechanism [002 Def. 3] with ``P(v) proportional to exp(eps u(v) / (2 Delta))``,
``u(v) = -<v, g_t>``.

* [002 Alg. 1]: the records are split into ``T`` consecutive parts of ``m = n/T`` (rounded bounds);
  ``g_t`` is the robust gradient [002 Alg. 1 step 4] of part ``t`` at ``w^{t-1}``: per coordinate, ``s`` times
  the mean of the exact ``E[phi(a + b Z)]``, ``a = g/s``, ``b = |g|/(s sqrt beta)``
  (:func:`.catoni_mp.robust_mean`); ``Delta = 4 ||W||_1 sqrt(2) s / (3 m)`` [002 Alg. 1 step 6] with the l1
  radius ``||W||_1 = 1``.  The printed and standard robust gradients are the same mathematics: one law.
* [002 Alg. 2]: the records are shrunk to ``[-K, K]`` coordinate-wise, ``g_t = (2/n) sum (<w, x> - y) x``
  on all of them, ``Delta = 8 ||W||_1 K^2 / n`` [002 Alg. 2 step 4], ``eps`` the per-step budget
  (printed: ``eps / (2 sqrt(2 T log(1/delta)))``; standard: the root of advanced composition,
  :func:`.mechanisms_mp.advanced_composition_split`).

Every iterate is an exact rational (``w0`` and the vertices are float64, the steps rationals), so paths that end
at the same point are merged exactly; their log-probabilities are summed in mpmath.

References
----------
.. [1] L. Hu, S. Ni, H. Xiao and D. Wang, ``002_6c597657f27a60c9.txt``: [002 Alg. 1], [002 Alg. 2],
       [002 Def. 3], [002 Thm. 2].
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import mpmath
import numpy as np

from . import catoni_mp, hu_mp, mechanisms_mp

__all__ = ["DIGITS", "PROVENANCE", "dp_fw_law", "private_lasso_law", "match_law"]

#: Significant digits of the probabilities.
DIGITS = 60

#: Provenance of the laws.
PROVENANCE = (
    "exact enumeration of the |V|^T selection paths with rational iterates, probabilities in mpmath at 60 digits "
    "from the printed steps (proofs_checks/golden/hu_law_mp.py); robust gradients from exact E[phi] "
    "(identity [002 eq. (5)] at adaptive precision)"
)


def _vertices(d):
    rows = []
    for j in range(d):
        for sign in (1, -1):
            v = [Fraction(0)] * d
            v[j] = Fraction(sign)
            rows.append(v)
    return rows


def _log_softmax(logits):
    top = max(logits)
    norm = top + mpmath.log(mpmath.fsum(mpmath.exp(x - top) for x in logits))
    return [x - norm for x in logits]


def _enumerate(w0, T, step_log_prob):
    """``{output (tuple of Fraction): log-probability (mpf)}`` over every selection path."""
    d = len(w0)
    V = _vertices(d)
    law: dict = {}
    with mpmath.workdps(DIGITS):
        for path in product(range(len(V)), repeat=T):
            w, logp = [Fraction(float(x)) for x in w0], mpmath.mpf(0)
            for t, j in enumerate(path, start=1):
                logp += step_log_prob(t, w)[j]
                eta = Fraction(2, t + 2)
                w = [(1 - eta) * a + eta * b for a, b in zip(w, V[j])]
            key = tuple(w)
            law[key] = law.get(key, []) + [logp]
        return {k: mpmath.log(mpmath.fsum(mpmath.exp(x) for x in v)) for k, v in law.items()}


def _scores(grad):
    """Scores ``-<v, g>`` of each vertex ``v`` (in :func:`_vertices` order: +e_1, -e_1, +e_2, ...)."""
    out = []
    for j in range(len(grad)):
        out.extend([-grad[j], grad[j]])
    return out


def dp_fw_law(data, w0, s, T, beta, epsilon, loss="squared"):
    """The law of ``w^T`` of [002 Alg. 1] (``{output: log-probability}``, outputs tuples of Fraction).

    Examples
    --------
    >>> law = dp_fw_law([[1.0, 0.0, 1.0], [0.0, 1.0, -1.0]], [0.0, 0.0], 1.0, 1, 1.0, 1.0)
    >>> round(float(mpmath.fsum(mpmath.exp(v) for v in law.values())), 12)
    1.0
    """
    data = np.asarray(data, dtype=np.float64)
    X, y = data[:, :-1], data[:, -1]
    n = X.shape[0]
    bounds = [round(i * n / T) for i in range(T + 1)]  # half to even, as numpy rounds linspace(0, n, T + 1)

    def step(t, w):
        lo, hi = bounds[t - 1], bounds[t]
        m = hi - lo
        # the gradient at the float64 nearest the rational iterate (E[phi] takes float64 points): a relative move
        # of 1e-16, which moves a log-probability by about eps/Delta times that, far inside the kit's 1e-9
        w_float = [float(a) for a in w]
        G = hu_mp.loss_gradient(loss, w_float, X[lo:hi], y[lo:hi])
        G = np.array([[float(v) for v in row] for row in G])  # per-example gradients rounded once, as inputs
        g = catoni_mp.robust_mean(G, s, beta)
        with mpmath.workdps(DIGITS):
            sens = 4 * mpmath.sqrt(2) * mpmath.mpf(float(s)) / (3 * m)
            c = mpmath.mpf(float(epsilon)) / (2 * sens)
            return _log_softmax([c * u for u in _scores(g)])

    return _enumerate(w0, T, step)


def private_lasso_law(data, w0, K, T, epsilon, delta, variant="printed"):
    """The law of ``w^T`` of [002 Alg. 2] (``{output: log-probability}``, outputs tuples of Fraction).

    Examples
    --------
    >>> law = private_lasso_law([[1.0, 0.0, 1.0], [0.0, 1.0, -1.0]], [0.0, 0.0], 1.0, 1, 1.0, 1e-3)
    >>> len(law), round(float(mpmath.fsum(mpmath.exp(v) for v in law.values())), 12)
    (4, 1.0)
    """
    data = np.clip(np.asarray(data, dtype=np.float64), -float(K), float(K))  # exact: a clip rounds nothing
    X, y = data[:, :-1], data[:, -1]
    n = X.shape[0]
    with mpmath.workdps(DIGITS):
        if variant == "printed":
            e_step = mpmath.mpf(float(epsilon)) / (
                2 * mpmath.sqrt(2 * int(T) * mpmath.log(1 / mpmath.mpf(float(delta))))
            )
        else:
            e_step = mechanisms_mp.advanced_composition_split(epsilon, delta, T, "standard")["epsilon_step"]
        sens = 8 * mpmath.mpf(float(K)) ** 2 / n
        c = e_step / (2 * sens)
    Xm = [[Fraction(float(v)) for v in row] for row in X]
    ym = [Fraction(float(v)) for v in y]

    def step(t, w):
        del t
        grad = [Fraction(0)] * len(w)
        for xi, yi in zip(Xm, ym):
            r = sum((a * b for a, b in zip(w, xi)), Fraction(0)) - yi
            grad = [g + 2 * r * a / n for g, a in zip(grad, xi)]
        with mpmath.workdps(DIGITS):
            g = [mpmath.mpf(q.numerator) / q.denominator for q in grad]
            return _log_softmax([c * u for u in _scores(g)])

    return _enumerate(w0, T, step)


def match_law(outputs, law, *, rtol=1e-12):
    """The log-probabilities of ``law`` in the order of the float64 ``outputs`` (each matched within ``rtol``).

    Raises
    ------
    ValueError
        If an output matches no point of the law, or the law has points no output matches.
    """
    keys = list(law)
    pts = np.array([[float(v) for v in k] for k in keys])
    used, out = set(), []
    for row in np.asarray(outputs, dtype=np.float64):
        dist = np.max(np.abs(pts - row), axis=1)
        j = int(np.argmin(dist))
        if dist[j] > rtol * (1.0 + np.max(np.abs(row))) or j in used:
            raise ValueError(f"output {row.tolist()} matches no point of the exact law")
        used.add(j)
        out.append(law[keys[j]])
    if len(used) != len(keys):
        raise ValueError(f"the exact law has {len(keys) - len(used)} points no output matches")
    return out
