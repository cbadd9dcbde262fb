"""Independent high-precision values of the golden closed forms and laws (mpmath, 50 digits; no ``reference`` code).

Each function evaluates the printed formula the golden case names directly in mpmath from the float64 inputs,
so the golden files carry, next to the reference's float64 output, a value computed by a separate path
(``mp_reference``, with its ``provenance``).  ``tests/test_golden.py`` holds every shipped float64 value to the
kit's tolerance against it: the golden values are checked against an oracle, not only against the reference's
own snapshot.

* scales and sensitivities: [002 Def. 2], report-noisy-max (Dwork and Roth, Claim 3.9), [002 Alg. 4],
  [004 App. D.1], [002 Alg. 1 step 6], [002 Alg. 2 step 4], [002 Alg. 2] (per-step budget), [002 Lemma 2];
* the exponential mechanism's law [002 Def. 3] (log-softmax) and GEM's [004 App. D.1];
* report-noisy-max's law and Peeling's ordered support [002 Alg. 4 steps 3-6] by exact integration of
  ``P(argmax = i) = int f_b(x - u_i) prod_{j != i} F_b(x - u_j) dx`` (Laplace noise: between consecutive
  ``u_j`` the integrand is a sum of exponentials).  Tanh-sinh quadrature of the same integral needed 100
  subintervals per gap to agree with the reference to 1e-13 at scale 0.2 (scores 95 noise scales apart).
"""

from __future__ import annotations

from itertools import permutations

import mpmath
import numpy as np

__all__ = [
    "DIGITS",
    "PROVENANCE",
    "QUADRATURE",
    "to_strings",
    "laplace_scale",
    "report_noisy_max_scale",
    "peeling_scale",
    "gem_threshold",
    "dp_fw_sensitivity",
    "lasso_sensitivity",
    "lasso_epsilon_step",
    "advanced_composition_epsilon",
    "advanced_composition_split",
    "exponential_log_prob",
    "gem_normalized_scores",
    "gem_log_prob",
    "report_noisy_max_log_prob",
    "peeling_support_log_prob",
]

#: Significant digits of the evaluations.
DIGITS = 50

#: Provenance of a closed form's value.
PROVENANCE = (
    "mpmath, 50 digits, the printed formula evaluated from the float64 inputs (proofs_checks/golden/mechanisms_mp.py)"
)

#: Provenance of a value through quadrature.
QUADRATURE = (
    "exact integration in mpmath (60 digits plus the range of its terms) of the report-noisy-max integral, a sum of exponentials "
    "between consecutive scores (proofs_checks/golden/mechanisms_mp.py)"
)


def _mp(x):
    return mpmath.mpf(float(x))


def to_strings(values, digits=25):
    """Decimal strings of ``digits`` significant digits of an mpmath value or a nested list of them, flattened.

    Examples
    --------
    >>> with mpmath.workdps(DIGITS):
    ...     to_strings([mpmath.mpf(1) / 3])
    ['0.3333333333333333333333333']
    """
    flat = []

    def walk(v):
        if isinstance(v, (list, tuple)):
            for x in v:
                walk(x)
        else:
            flat.append(mpmath.nstr(v, digits, min_fixed=-30, max_fixed=30))

    walk(values)
    return flat


def laplace_scale(sensitivity, epsilon):
    """``Delta / eps`` [002 Def. 2].

    Examples
    --------
    >>> to_strings(laplace_scale(1.0, 3.0), 5)
    ['0.33333']
    """
    with mpmath.workdps(DIGITS):
        return _mp(sensitivity) / _mp(epsilon)


def report_noisy_max_scale(sensitivity, epsilon):
    """``2 Delta / eps`` (report-noisy-max with Laplace noise, not monotone)."""
    with mpmath.workdps(DIGITS):
        return 2 * _mp(sensitivity) / _mp(epsilon)


def peeling_scale(s, epsilon, delta, lam):
    """``2 lam sqrt(3 s log(1/delta)) / eps`` [002 Alg. 4]."""
    with mpmath.workdps(DIGITS):
        return 2 * _mp(lam) * mpmath.sqrt(3 * int(s) * mpmath.log(1 / _mp(delta))) / _mp(epsilon)


def gem_threshold(epsilon, beta, k):
    """``2 log(k / beta) / eps`` [004 App. D.1]."""
    with mpmath.workdps(DIGITS):
        return 2 * mpmath.log(int(k) / _mp(beta)) / _mp(epsilon)


def _l1_norm_of_polytope(vertices, reading):
    V = [[_mp(x) for x in row] for row in np.asarray(vertices, dtype=np.float64)]
    if reading == "radius":
        return max(sum(abs(x) for x in row) for row in V)
    return max(sum(abs(a - b) for a, b in zip(u, v)) for u in V for v in V)


def dp_fw_sensitivity(vertices, s, m, reading="radius"):
    """``4 ||W||_1 sqrt(2) s / (3 m)`` [002 Alg. 1 step 6], ``||W||_1`` under ``reading``.

    Examples
    --------
    >>> V = [[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [0.0, -1.0]]
    >>> float(dp_fw_sensitivity(V, 3.0, 4, "diameter") / dp_fw_sensitivity(V, 3.0, 4))
    2.0
    """
    with mpmath.workdps(DIGITS):
        return 4 * _l1_norm_of_polytope(vertices, reading) * mpmath.sqrt(2) * _mp(s) / (3 * int(m))


def lasso_sensitivity(vertices, K, n, reading="radius"):
    """``8 ||W||_1 K^2 / n`` [002 Alg. 2 step 4], ``||W||_1`` under ``reading``."""
    with mpmath.workdps(DIGITS):
        return 8 * _l1_norm_of_polytope(vertices, reading) * _mp(K) ** 2 / int(n)


def lasso_epsilon_step(epsilon, delta, T, variant):
    """Per-step budget of [002 Alg. 2]: ``printed`` ``eps / (2 sqrt(2 T log(1/delta)))``; ``lemma2`` with
    ``log(2/delta)`` ([002 Lemma 2]); None for ``standard`` (a root, not a closed form)."""
    with mpmath.workdps(DIGITS):
        if variant == "printed":
            return _mp(epsilon) / (2 * mpmath.sqrt(2 * int(T) * mpmath.log(1 / _mp(delta))))
        if variant == "lemma2":
            return _mp(epsilon) / (2 * mpmath.sqrt(2 * int(T) * mpmath.log(2 / _mp(delta))))
        return None


def advanced_composition_epsilon(epsilon_step, rounds, delta_slack):
    """``sqrt(2 T log(1/delta')) eps' + T eps' (e^eps' - 1)`` [002 Lemma 2]."""
    with mpmath.workdps(DIGITS):
        e, T = _mp(epsilon_step), int(rounds)
        return mpmath.sqrt(2 * T * mpmath.log(1 / _mp(delta_slack))) * e + T * e * mpmath.expm1(e)


def advanced_composition_split(epsilon, delta, rounds, variant):
    """Per-round budget of [002 Lemma 2] as a dict (``epsilon_step``, ``delta_step``, ``epsilon_total``,
    ``delta_total``, ``variant``).

    ``printed``: ``eps' = eps / (2 sqrt(2 T log(2/delta)))``, ``delta' = delta / T``, total ``(eps, 2 delta)``.
    ``standard``: the root ``eps'`` of :func:`advanced_composition_epsilon` ``(eps', T, delta/2) = eps``
    (mpmath's secant-free bisection-safe solver on a bracket), ``delta' = delta / (2T)``, total ``(eps, delta)``.

    Examples
    --------
    >>> d = advanced_composition_split(0.5, 1e-5, 10, "standard")
    >>> round(float(advanced_composition_epsilon(d["epsilon_step"], 10, 0.5e-5)), 12)
    0.5
    """
    with mpmath.workdps(DIGITS):
        e, dl, T = _mp(epsilon), _mp(delta), int(rounds)
        if variant == "printed":
            step = e / (2 * mpmath.sqrt(2 * T * mpmath.log(2 / dl)))
            return {
                "epsilon_step": step,
                "delta_step": dl / T,
                "epsilon_total": e,
                "delta_total": 2 * dl,
                "variant": variant,
            }
        if variant != "standard":
            raise ValueError(f"variant must be 'printed' or 'standard', got {variant!r}")
        slack = dl / 2
        total = lambda x: mpmath.sqrt(2 * T * mpmath.log(1 / slack)) * x + T * x * mpmath.expm1(x) - e  # noqa: E731
        hi = e
        while total(hi) < 0:
            hi *= 2
        step = mpmath.findroot(total, (mpmath.mpf(0), hi), solver="anderson")
        return {
            "epsilon_step": step,
            "delta_step": slack / T,
            "epsilon_total": e,
            "delta_total": dl,
            "variant": variant,
        }


def _log_softmax(logits):
    top = max(logits)
    norm = top + mpmath.log(mpmath.fsum(mpmath.exp(x - top) for x in logits))
    return [x - norm for x in logits]


def exponential_log_prob(scores, epsilon, sensitivity, weight_factor=0.5):
    """``log P(i) = eps w u_i / Delta - log sum_j exp(eps w u_j / Delta)`` [002 Def. 3], per row."""
    with mpmath.workdps(DIGITS):
        c = _mp(epsilon) * _mp(weight_factor) / _mp(sensitivity)
        rows = np.atleast_2d(np.asarray(scores, dtype=np.float64))
        return [_log_softmax([c * _mp(u) for u in row]) for row in rows]


def gem_normalized_scores(sensitivities, scores, epsilon, beta):
    """``s_i = max_j [(q_i + t g_i) - (q_j + t g_j)] / (g_i + g_j)``, ``t = 2 log(k/beta)/eps`` [004 App. D.1].

    A pair with ``g_i = g_j = 0`` contributes 0 (it does not depend on the data).
    """
    with mpmath.workdps(DIGITS):
        g = [_mp(x) for x in np.asarray(sensitivities, dtype=np.float64)]
        q = [_mp(x) for x in np.asarray(scores, dtype=np.float64)]
        t = gem_threshold(epsilon, beta, len(q))
        pen = [qi + t * gi for qi, gi in zip(q, g)]
        out = []
        for i in range(len(q)):
            terms = [(pen[i] - pen[j]) / (g[i] + g[j]) if g[i] + g[j] > 0 else mpmath.mpf(0) for j in range(len(q))]
            out.append(max(terms))
        return out


def gem_log_prob(sensitivities, scores, epsilon, beta):
    """GEM's law: the exponential mechanism on ``-s`` with sensitivity 1, ``log P(i) = -eps s_i / 2 - log Z``."""
    with mpmath.workdps(DIGITS):
        s = gem_normalized_scores(sensitivities, scores, epsilon, beta)
        return _log_softmax([-_mp(epsilon) * x / 2 for x in s])


def _work_digits(u, b):
    """Digits for the exact integration: its terms reach ``e^(k |u| / b)`` (k up to the number of scores) and
    cancel to a result that may be as small as their reciprocal, so 60 digits plus twice that range."""
    span = (len(u) + 1) * max(abs(x) for x in u) / b
    return 60 + 2 * int(mpmath.ceil(span / mpmath.log(10)))


def _factor_terms(u_j, b, below):
    """``F_b(x - u_j)`` on one side of ``u_j`` as ``[(coefficient, k)]`` meaning ``sum c e^(k x / b)``."""
    if below:  # x < u_j: e^((x - u_j)/b) / 2
        return [(mpmath.exp(-u_j / b) / 2, 1)]
    return [(mpmath.mpf(1), 0), (-mpmath.exp(u_j / b) / 2, -1)]  # 1 - e^(-(x - u_j)/b) / 2


def _rnm_log_prob_one(u, i, b):
    """``log P(argmax_j (u_j + Lap(b)) = i)``, integrated exactly.

    Between consecutive scores the integrand ``f_b(x - u_i) prod_{j != i} F_b(x - u_j)`` is a finite sum of
    exponentials ``c e^(k x / b)``; each is integrated in closed form, the whole in :func:`_work_digits` digits.
    """
    with mpmath.workdps(_work_digits(u, b)):
        knots = sorted(set(u))
        edges = [mpmath.ninf] + knots + [mpmath.inf]
        total = mpmath.mpf(0)
        for lo, hi in zip(edges[:-1], edges[1:]):
            mid_below = (lambda v: hi <= v) if hi != mpmath.inf else (lambda v: False)
            poly = {0: mpmath.mpf(1) / (2 * b)}
            # the density of u_i's noise: e^((x - u_i)/b) below u_i, e^(-(x - u_i)/b) above
            if mid_below(u[i]):
                poly = {1: mpmath.exp(-u[i] / b) / (2 * b)}
            else:
                poly = {-1: mpmath.exp(u[i] / b) / (2 * b)}
            for j, uj in enumerate(u):
                if j == i:
                    continue
                nxt: dict = {}
                for k1, c1 in poly.items():
                    for c2, k2 in _factor_terms(uj, b, mid_below(uj)):
                        nxt[k1 + k2] = nxt.get(k1 + k2, 0) + c1 * c2
                poly = nxt
            for k, c in poly.items():
                if k == 0:
                    total += c * (hi - lo)
                else:
                    top = 0 if hi == mpmath.inf and k < 0 else mpmath.exp(k * hi / b) if hi != mpmath.inf else None
                    bottom = 0 if lo == mpmath.ninf and k > 0 else mpmath.exp(k * lo / b) if lo != mpmath.ninf else None
                    if top is None or bottom is None:  # pragma: no cover - a density that does not decay
                        raise ValueError("the integrand does not decay at infinity")
                    total += c * b / k * (top - bottom)
        return mpmath.log(total)


def report_noisy_max_log_prob(scores, scale):
    """The exact law of report-noisy-max with Laplace noise of scale ``b``, per row, by quadrature."""
    with mpmath.workdps(DIGITS):
        b = _mp(scale)
        rows = np.atleast_2d(np.asarray(scores, dtype=np.float64))
        return [[_rnm_log_prob_one([_mp(x) for x in row], i, b) for i in range(row.size)] for row in rows]


def peeling_support_log_prob(v, s, epsilon, delta, lam):
    """``(sequences, log-probabilities)`` of Peeling's ordered support [002 Alg. 4 steps 3-6].

    Each step is report-noisy-max of ``|v_j| + Lap(b)`` over the indices not yet selected, ``b`` the
    :func:`peeling_scale`: the log-probability of a sequence is the sum of its steps'.
    """
    with mpmath.workdps(DIGITS):
        absv = [abs(_mp(x)) for x in np.asarray(v, dtype=np.float64)]
        b = peeling_scale(s, epsilon, delta, lam)
        cache = {}
        seqs, logp = [], []
        for seq in permutations(range(len(absv)), int(s)):
            total = mpmath.mpf(0)
            left = tuple(range(len(absv)))
            for j in seq:
                key = (left, j)
                if key not in cache:
                    cache[key] = _rnm_log_prob_one([absv[k] for k in left], left.index(j), b)
                total += cache[key]
                left = tuple(k for k in left if k != j)
            seqs.append(list(seq))
            logp.append(total)
        return seqs, logp
