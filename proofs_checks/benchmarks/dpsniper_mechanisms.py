"""The classic benchmark mechanisms of DP auditing, at claimed epsilon 0.1, in the auditor's protocol.

These are the mechanisms on which StatDP [1]_ and DP-Sniper [2]_ report their lower bounds.  The
definitions (noise scales, thresholds, output encodings, the budget split of each sparse-vector
variant) are taken from the two papers and from the DP-Sniper repository's mechanism descriptions
(github eth-sri/dp-sniper, ``dpsniper/mechanisms``); the sparse-vector variants are Lyu, Su and
Li's Algorithms 1, 3, 4, 5 [3]_, the report-noisy-max variants StatDP's Algorithms 5 and 7, the
noisy histograms StatDP's Algorithms 9 and 10, and the truncated geometric mechanism Balcer and
Vadhan's GeoSample [4]_.  The code here is written from those definitions, vectorised over
samples (the sparse-vector abort rule by a cumulative sum over the queries).

Protocol (as every auditor mechanism, ``docs/architecture.md``): ``data`` is a 2-D array whose first
row is the vector ``a`` of query answers (sensitivity 1 per query); ``sample(data, size, rng)``
returns ``size`` output rows.  A neighbouring pair is two one-row datasets, so the auditor's
replace-one check holds; the pairs are the ones DP-Sniper's own search chose (:data:`DPSNIPER_PAIRS`).

References
----------
.. [1] Z. Ding, Y. Wang, G. Wang, D. Zhang and D. Kifer, "Detecting violations of differential
       privacy", CCS 2018.
.. [2] B. Bichsel, S. Steffen, I. Bogunovic and M. Vechev, "DP-Sniper: black-box discovery of
       differential privacy violations using classifiers", IEEE S&P 2021.
.. [3] M. Lyu, D. Su and N. Li, "Understanding the sparse vector technique for differential
       privacy", PVLDB 10(6), 2017.
.. [4] V. Balcer and S. Vadhan, "Differential privacy on finite computers", ITCS 2018 (Alg. 4.8).
"""

from __future__ import annotations

import math

import numpy as np

from reference.validation import as_generator, check_epsilon, check_integer, check_probability

from ..audit._cp_bound import _cp_eps_vector

__all__ = [
    "EPSILON",
    "LaplaceMech",
    "NoisyHist",
    "ReportNoisyMax",
    "SparseVector",
    "TruncatedGeometric",
    "svt_outputs",
    "benchmark_mechanisms",
    "DPSNIPER_PAIRS",
    "DPSNIPER_FULL",
    "DPSNIPER_TENTH",
    "DPSNIPER_BUDGET",
    "svt_pattern_probabilities",
    "svt3_law",
    "oracle_bound",
    "ORACLE_CASES",
]

#: The claimed epsilon of every benchmark mechanism.
EPSILON = 0.1


def _answers(data):
    arr = np.asarray(data, dtype=np.float64)
    if arr.ndim != 2 or arr.shape[0] < 1:
        raise ValueError(f"data must be a 2-D array whose first row holds the query answers, got shape {arr.shape}")
    return arr[0]


class LaplaceMech:
    """``a[0] + Lap(1/eps)`` (eps-DP for sensitivity 1)."""

    name = "Laplace"

    def __init__(self, eps=EPSILON):
        self.scale = 1.0 / check_epsilon(eps)

    def sample(self, data, size, rng=None):
        a = _answers(data)
        return (a[0] + as_generator(rng).laplace(0.0, self.scale, check_integer("size", size, minimum=0)))[:, None]


class NoisyHist:
    """``a + Lap(scale)`` on every bin: NoisyHist1 (scale 1/eps, eps-DP), NoisyHist2 (scale eps, not DP)."""

    def __init__(self, eps=EPSILON, wrong_scale=False):
        eps = check_epsilon(eps)
        self.scale = eps if wrong_scale else 1.0 / eps
        self.name = "NoisyHist2" if wrong_scale else "NoisyHist1"

    def sample(self, data, size, rng=None):
        a = _answers(data)
        return a[None, :] + as_generator(rng).laplace(0.0, self.scale, (check_integer("size", size, minimum=0), a.size))


class ReportNoisyMax:
    """``a + Lap(2/eps)`` per query; ReportNoisyMax1 releases the argmax (eps-DP), ReportNoisyMax3 the max value.

    Releasing the noisy maximum itself (variant 3) is not eps-DP: the value carries the winning
    query's noise, whose budget was spent on the selection.
    """

    def __init__(self, eps=EPSILON, release_value=False):
        self.scale = 2.0 / check_epsilon(eps)
        self.release_value = bool(release_value)
        self.name = "ReportNoisyMax3" if release_value else "ReportNoisyMax1"

    def sample(self, data, size, rng=None):
        a = _answers(data)
        noisy = a[None, :] + as_generator(rng).laplace(
            0.0, self.scale, (check_integer("size", size, minimum=0), a.size)
        )
        if self.release_value:
            return noisy.max(axis=1)[:, None]
        return noisy.argmax(axis=1)[:, None].astype(np.int64)


#: Output codes of the sparse-vector variants: below the threshold, after the abort (SVT1/4 use
#: 0 and -1; SVT3 releases the noisy answer when above, and -1000 / -2000 otherwise).
SVT_CODES = {"flags": (0.0, -1.0), "values": (-1000.0, -2000.0)}


def svt_outputs(noisy, rho, threshold, c, release_values, abort=True):
    """Outputs of one sparse-vector run per row, from the noise already drawn.

    ``noisy`` (n, m) noisy answers, ``rho`` (n,) threshold noise; query j is "above" when
    ``noisy[:, j] >= threshold + rho``; after ``c`` answers above, every later query is aborted.
    Above: 1 (or the noisy answer when ``release_values``); below: 0 (or -1000); aborted: -1 (or -2000).
    """
    above = noisy >= (threshold + rho)[:, None]
    below_code, abort_code = SVT_CODES["values" if release_values else "flags"]
    out = np.where(above, noisy if release_values else 1.0, below_code)
    if abort:
        before = np.cumsum(above, axis=1) - above  # answers above strictly before query j
        out = np.where(before >= c, abort_code, out)
    return out


class SparseVector:
    """Lyu, Su and Li's sparse-vector variants 1, 3, 4 and 5 [3]_ with DP-Sniper's settings.

    ========  =====================  ====================  ==============================  =========
    variant   threshold noise        query noise           output                          correct?
    ========  =====================  ====================  ==============================  =========
    1         Lap(2/eps)             Lap(4c/eps)           1/0, -1 after c answers above   eps-DP
    3         Lap(2/eps)             Lap(2c/eps)           noisy answer / -1000, -2000     no
    4         Lap(4/eps)             Lap(4/(3 eps))        1/0, -1 after c answers above   no
    5         Lap(2/eps)             none                  1/0 on every query, no abort    no
    ========  =====================  ====================  ==============================  =========

    DP-Sniper runs them with ``c = 1`` and threshold ``t = 0.5`` (variant 1) or ``t = 1``.
    """

    def __init__(self, variant, eps=EPSILON, c=1, threshold=None):
        if variant not in (1, 3, 4, 5):
            raise ValueError(f"variant must be 1, 3, 4 or 5, got {variant!r}")
        eps = check_epsilon(eps)
        self.variant, self.c = variant, check_integer("c", c, minimum=1)
        self.threshold = (0.5 if variant == 1 else 1.0) if threshold is None else float(threshold)
        eps1 = eps / 4.0 if variant == 4 else eps / 2.0
        eps2 = eps - eps1
        self.rho_scale = 1.0 / eps1
        self.nu_scale = {1: 2.0 * self.c / eps2, 3: self.c / eps2, 4: 1.0 / eps2, 5: 0.0}[variant]
        self.name = f"SVT{variant}"

    def sample(self, data, size, rng=None):
        a = _answers(data)
        gen = as_generator(rng)
        size = check_integer("size", size, minimum=0)
        rho = gen.laplace(0.0, self.rho_scale, size)
        noisy = a[None, :] + (
            gen.laplace(0.0, self.nu_scale, (size, a.size)) if self.nu_scale > 0 else np.zeros((size, a.size))
        )
        return svt_outputs(
            noisy, rho, self.threshold, self.c, release_values=self.variant == 3, abort=self.variant != 5
        )


class TruncatedGeometric:
    """Balcer and Vadhan's GeoSample [4]_ (Alg. 4.8) for a count ``c`` in ``{0, ..., n}``.

    With ``k = ceil(ln(2/eps))`` and ``d = (2^{k+1} + 1)(2^k + 1)^{n-1}``, output ``z`` with
    probability ``(F(z) - F(z-1))/d``, where ``F(z) = 2^{k(c-z)} (2^k+1)^{n-(c-z)}`` for ``z < c``,
    ``d - 2^{k(z-c+1)} (2^k+1)^{n-1-(z-c)}`` for ``c <= z < n`` and ``F(n) = d`` (integers, exact).
    Their Theorem 4.7 gives ``ln(1 + 2^-k)``-DP: 0.1178 at eps 0.1, above the claimed 0.1.
    """

    name = "TruncatedGeometric"

    def __init__(self, eps=EPSILON, n=5):
        eps = check_epsilon(eps)
        self.n = check_integer("n", n, minimum=1)
        self.k = math.ceil(math.log(2.0 / eps))
        self.d = (2 ** (self.k + 1) + 1) * (2**self.k + 1) ** (self.n - 1)

    def _cdf(self, c):
        if not (0 <= c <= self.n) or c != int(c):
            raise ValueError(f"the count must be an integer in [0, {self.n}], got {c!r}")
        c, k, n, d = int(c), self.k, self.n, self.d
        F = [2 ** (k * (c - z)) * (2**k + 1) ** (n - (c - z)) for z in range(c)]
        F += [d - 2 ** (k * (z - c + 1)) * (2**k + 1) ** (n - 1 - (z - c)) for z in range(c, n)]
        return F + [d]

    def log_prob(self, data):
        F = self._cdf(_answers(data)[0])
        mass = np.diff([0] + F)
        with np.errstate(divide="ignore"):
            return np.arange(self.n + 1), np.log(mass.astype(np.float64)) - math.log(self.d)

    def sample(self, data, size, rng=None):
        F = np.array(self._cdf(_answers(data)[0]), dtype=np.int64)
        u = as_generator(rng).integers(1, self.d + 1, check_integer("size", size, minimum=0))
        return np.searchsorted(F, u, side="left")[:, None].astype(np.int64)  # smallest z with F(z) >= u


def _row(values):
    return np.asarray(values, dtype=np.float64)[None, :]


#: DP-Sniper's chosen pair per mechanism (its logistic-regression run, ``eval_sp2021`` reference
#: results of the repository): ``(a1, a2)`` as one-row datasets.
DPSNIPER_PAIRS = {
    "Laplace": (_row([1.0]), _row([2.0])),
    "NoisyHist1": (_row([0, 1, 1, 1, 1]), _row([1, 1, 1, 1, 1])),
    "NoisyHist2": (_row([0, 1, 1, 1, 1]), _row([1, 1, 1, 1, 1])),
    "ReportNoisyMax1": (_row([1, 1, 1, 1, 1]), _row([0, 2, 2, 2, 2])),
    "ReportNoisyMax3": (_row([0, 0, 0, 0, 0]), _row([1, 1, 1, 1, 1])),
    "SVT1": (_row([0] * 5 + [1] * 5), _row([1] * 5 + [0] * 5)),
    "SVT3": (_row([1] * 10), _row([2] * 5 + [0] * 5)),
    "SVT4": (_row([1] * 10), _row([2] * 5 + [0] * 5)),
    "SVT5": (_row([2] * 5 + [0] * 5), _row([1] * 10)),
    "TruncatedGeometric": (_row([2]), _row([1])),
}

#: DP-Sniper's published epsilon lower bounds at its full budget (confidence 0.9), as DP-Sniper [2]_ reports them.
DPSNIPER_FULL = {
    "Laplace": 0.0968,
    "NoisyHist1": 0.0978,
    "NoisyHist2": 4.6020,
    "ReportNoisyMax1": 0.0923,
    "ReportNoisyMax3": 0.2478,
    "SVT1": 0.0858,
    "SVT3": 0.1716,
    "SVT4": 0.1687,
    "SVT5": 1.7612,
    "TruncatedGeometric": 0.1156,
}
#: DP-Sniper at a tenth of its default budget, measured with DP-Sniper's own code on this kind of machine.
DPSNIPER_TENTH = {
    "Laplace": 0.0906,
    "NoisyHist1": 0.0914,
    "NoisyHist2": 4.6039,
    "ReportNoisyMax1": 0.0839,
    "ReportNoisyMax3": 0.2388,
    "SVT1": 0.0839,
    "SVT4": 0.1638,
    "SVT5": 1.7559,
}


def benchmark_mechanisms(eps=EPSILON):
    """``{name: mechanism}`` for the ten benchmark mechanisms, in the order of :data:`DPSNIPER_PAIRS`."""
    mechs = [
        LaplaceMech(eps),
        NoisyHist(eps),
        NoisyHist(eps, wrong_scale=True),
        ReportNoisyMax(eps),
        ReportNoisyMax(eps, release_value=True),
        SparseVector(1, eps),
        SparseVector(3, eps),
        SparseVector(4, eps),
        SparseVector(5, eps),
        TruncatedGeometric(eps),
    ]
    return {m.name: m for m in mechs}


#: DP-Sniper's default budget (its ``DDConfig``): training, threshold and check samples per input of
#: the pair, and ``n_final`` samples per input for the final Clopper-Pearson bound.  "A tenth of its
#: budget" divides each by 10, so its final bound alone uses 2*10^7 calls per input (4*10^7 in all),
#: four times the 5*10^6 per input of a 10^7-call audit here.
DPSNIPER_BUDGET = {"n_train": 10_700_000, "n": 10_700_000, "n_check": 10_700_000, "n_final": 200_000_000}


def _lap_cdf(x, b):
    x = np.asarray(x, dtype=np.float64)
    return np.where(x < 0, 0.5 * np.exp(np.minimum(x, 0.0) / b), 1.0 - 0.5 * np.exp(-np.maximum(x, 0.0) / b))


def svt_pattern_probabilities(variant, answers, grid=200_001):
    """Exact law of the output of :class:`SparseVector` ``variant`` 1 or 4 (``c = 1``) on ``answers``.

    With ``c = 1`` the output is fixed by the index of the first query above the noisy threshold, so
    the law has ``m + 1`` atoms: entry ``i < m`` is P(first above at query i), entry ``m`` P(none above).
    Given the threshold noise ``rho``, queries are independent: P(first at i | rho) =
    prod_{j<i} P(a_j + nu_j < T + rho) * P(a_i + nu_i >= T + rho) (Laplace CDFs); ``rho`` is integrated
    by Simpson's rule on +-60 scales (tail mass e^-60).  [Lyu, Su & Li Alg. 1, 4]

    Examples
    --------
    >>> p = svt_pattern_probabilities(1, np.zeros(10))
    >>> bool(abs(p.sum() - 1) < 1e-9)
    True
    """
    from scipy import integrate

    if variant not in (1, 4):
        raise ValueError(f"variant must be 1 or 4 (flag outputs), got {variant!r}")
    m = SparseVector(variant)
    a = np.asarray(answers, dtype=np.float64).ravel()
    b = m.rho_scale
    r = np.linspace(-60 * b, 60 * b, check_integer("grid", grid, minimum=101) | 1)
    w = np.exp(-np.abs(r) / b) / (2 * b)
    above = _lap_cdf(a[None, :] - (m.threshold + r)[:, None], m.nu_scale)  # P(a_j + nu_j >= T + rho)
    before = np.cumprod(np.hstack([np.ones((r.size, 1)), 1.0 - above]), axis=1)
    dens = np.hstack([before[:, :-1] * above, before[:, -1:]])
    return integrate.simpson(dens * w[:, None], x=r, axis=0)


def svt3_law(answers, step=0.05, span=60.0):
    """Law of :class:`SparseVector` variant 3 (``c = 1``) on ``answers``: a density per pattern and one atom.

    With ``c = 1`` the output is fixed by the index ``i`` of the first query above the noisy threshold and
    its noisy answer ``v = a_i + nu_i`` (the other entries are the codes -1000 before, -2000 after).  Its
    density is ``f_nu(v - a_i) H_i(v - T)`` with ``H_i(x) = int_{r <= x} f_rho(r) prod_{j<i} F_nu(T + r - a_j) dr``
    (query ``i`` above means ``v >= T + rho``); ``H`` is a cumulative trapezoid sum on a grid of step ``step``
    over +-``span`` threshold-noise scales.  Returns ``(v, dens, none)``: the grid, the densities ``(len(v), m)``
    and P(no query above).  [Lyu, Su & Li Alg. 3]

    Examples
    --------
    >>> v, dens, none = svt3_law(np.ones(10))
    >>> [round(float(x), 4) for x in (dens.sum(axis=0)[:3] * (v[1] - v[0]))] + [round(none, 4)]
    [0.5, 0.1667, 0.0833, 0.0909]
    """
    m = SparseVector(3)
    a = np.asarray(answers, dtype=np.float64).ravel()
    b, s, T = m.rho_scale, m.nu_scale, m.threshold
    x = np.arange(-span * b, span * b + step / 2, step)  # x = v - T = the noise rho
    f = np.exp(-np.abs(x) / b) / (2 * b)
    below = _lap_cdf((T + x)[:, None] - a[None, :], s)  # P(a_j + nu_j < T + rho)
    pre = np.cumprod(np.hstack([np.ones((x.size, 1)), below]), axis=1)  # prod_{j<i}, i = 0..m
    g = f[:, None] * pre
    H = np.vstack([np.zeros((1, a.size + 1)), np.cumsum(0.5 * (g[1:] + g[:-1]) * step, axis=0)])
    v = x + T
    dens = np.exp(-np.abs(v[:, None] - a[None, :]) / s) / (2 * s) * H[:, : a.size]
    return v, dens, float(H[-1, a.size])


def _svt3_events():
    D, Dp = DPSNIPER_PAIRS["SVT3"]
    laws = []
    for ans in (D[0], Dp[0]):
        v, dens, none = svt3_law(ans)
        laws.append(np.concatenate([(dens * (v[1] - v[0])).T.ravel(), [none]]))
    return [tuple(laws)]


def _svt_events(name):
    var = int(name[3])
    D, Dp = DPSNIPER_PAIRS[name]
    return [(svt_pattern_probabilities(var, D[0]), svt_pattern_probabilities(var, Dp[0]))]


def _rnm3_events():
    # max of 5 Laplace(2/eps) around 0 and around 1: the likelihood ratio is monotone in the max,
    # so the super-level sets are {max <= t} (numerator D) and {max > t} (numerator D').
    b = 2.0 / EPSILON
    t = np.linspace(-40 * b, 40 * b + 1, 40_001)
    P, Q = _lap_cdf(t, b) ** 5, _lap_cdf(t - 1.0, b) ** 5
    return [(np.diff(P, prepend=0.0), np.diff(Q, prepend=0.0))]


def _laplace_events():
    b = 1.0 / EPSILON
    t = np.linspace(-40 * b, 40 * b + 1, 40_001)
    P, Q = _lap_cdf(t - 1.0, b), _lap_cdf(t - 2.0, b)
    return [(np.diff(P, prepend=0.0), np.diff(Q, prepend=0.0))]


#: Mechanisms whose oracle bound :func:`oracle_bound` computes.
ORACLE_CASES = ("Laplace", "ReportNoisyMax3", "SVT1", "SVT3", "SVT4")


def _oracle_sets(name):
    """``[(P(S), P'(S))]`` arrays over the likelihood-ratio super-level sets of DP-Sniper's pair, both
    directions (randomised sets between consecutive ones too, for laws with few atoms)."""
    if name not in ORACLE_CASES:
        raise ValueError(f"name must be one of {ORACLE_CASES}, got {name!r}")
    laws = (
        _svt3_events()
        if name == "SVT3"
        else _svt_events(name)
        if name.startswith("SVT")
        else _rnm3_events()
        if name == "ReportNoisyMax3"
        else _laplace_events()
    )
    out = []
    f = np.linspace(0.0, 1.0, 65)[:, None]
    for P, Q in laws:
        for p, q in ((P, Q), (Q, P)):
            with np.errstate(divide="ignore", invalid="ignore"):
                llr = np.where(p > 0, np.log(p) - np.log(q), -np.inf)
            order = np.argsort(-llr, kind="stable")
            cp = np.concatenate([[0.0], np.cumsum(p[order])])
            cq = np.concatenate([[0.0], np.cumsum(q[order])])
            if p.size > 64:  # continuous law on a fine grid: the sets alone
                pp, qq = cp, cq
            else:  # few atoms: also fractions of the next atom (randomised events)
                pp = (cp[:-1] + f * p[order]).ravel()
                qq = (cq[:-1] + f * q[order]).ravel()
            out.append((np.minimum(pp, 1.0), np.minimum(qq, 1.0)))
    return out


def _near_best(pp, qq, n, gamma):
    """The sets counted at least once in expectation, thinned to every 1/4096 of a fine grid plus every set
    around the best expected bound."""
    ok = pp * n >= 1.0  # an event expected less than once cannot be counted
    pp, qq = pp[ok], qq[ok]
    if pp.size > 4096:  # fine grid: every 1/4096 of the sets, then every set around the best
        idx = np.unique(np.linspace(0, pp.size - 1, 4096).round().astype(np.int64))
        j = int(np.argmax(_cp_eps_vector(pp[idx] * n, n, qq[idx] * n, n, 0.0, gamma)))
        sl = slice(idx[max(j - 8, 0)], idx[min(j + 8, idx.size - 1)] + 1)
        pp, qq = np.concatenate([pp[idx], pp[sl]]), np.concatenate([qq[idx], qq[sl]])
    return pp, qq


def oracle_bound(name, n_each, confidence=0.9):
    """The largest Clopper-Pearson epsilon bound any event can give on DP-Sniper's pair with ``n_each`` calls per input.

    Neyman-Pearson: for fixed ``P(S)`` the ratio ``P(S)/P'(S)`` is largest on a likelihood-ratio
    super-level set, so the best event (randomised ones included: the bound is computed along the
    segments between consecutive sets too) is on that family.  The bound is evaluated with the expected
    counts ``n_each P(S)``, ``n_each P'(S)``, each one-sided bound at error ``(1 - confidence)/2``, both
    directions.  A sound audit spending ``n_each`` calls per input on its estimation cannot expect more.

    Examples
    --------
    >>> round(oracle_bound("SVT1", 5_000_000), 3)
    0.078
    """
    n = float(check_integer("n_each", n_each, minimum=1))
    gamma = (1.0 - check_probability("confidence", confidence)) / 2.0
    best = 0.0
    for pp, qq in _oracle_sets(name):
        pp, qq = _near_best(pp, qq, n, gamma)
        if pp.size:
            best = max(best, float(np.max(_cp_eps_vector(pp * n, n, qq * n, n, 0.0, gamma))))
    return best


def oracle_hit_probability(name, n_each, target, confidence=0.9, candidates=16):
    """The largest probability, over likelihood-ratio super-level sets S, that a bound on S reaches ``target``.

    An audit that tests the fixed event ``S`` on ``n_each`` fresh calls per input reports
    ``log(p_low(K) / q_high(K'))`` with ``K ~ Bin(n_each, P(S))`` and ``K' ~ Bin(n_each, P'(S))`` independent
    (Clopper-Pearson bounds, each at error ``(1 - confidence)/2``).  This is ``max_S P(bound >= target)`` over
    the ``candidates`` sets of :func:`oracle_bound`'s family with the largest expected bound: for each ``k`` the
    largest ``k'`` that still reaches ``target`` is a binomial quantile (``q_high`` increases in ``k'``), and
    ``sum_k P(K = k) P(K' <= k'(k))`` is summed over ``K``'s +-9 sd on a grid of at most 2,001 points weighted
    by the grid step (exact when ``K``'s sd is below 111; otherwise a Riemann sum of a smooth function, error
    far below the digits reported).  Even an auditor that knew the laws, chose on them and spent every call on
    estimation reaches ``target`` on a seed with about this probability at most (the family is where the best
    expected bound lies).

    Examples
    --------
    >>> p = oracle_hit_probability("SVT1", 5_000_000, 0.0839)
    >>> 0.0 < p < 0.2
    True
    """
    n = check_integer("n_each", n_each, minimum=1)
    candidates = check_integer("candidates", candidates, minimum=1)
    if isinstance(target, bool) or not isinstance(target, (int, float)) or not math.isfinite(target):
        raise ValueError(f"target must be a finite number, got {target!r}")
    gamma = (1.0 - check_probability("confidence", confidence)) / 2.0
    best = 0.0
    for pp, qq in _oracle_sets(name):
        pp, qq = _near_best(pp, qq, float(n), gamma)
        if not pp.size:
            continue
        e = _cp_eps_vector(pp * n, n, qq * n, n, 0.0, gamma)
        for i in np.argsort(-e)[:candidates]:
            if float(qq[i]) <= 0.0:
                return 1.0  # P'(S) = 0: the bound is infinite once S is hit
            best = max(best, _hit_probability(float(pp[i]), float(qq[i]), n, target, gamma))
    return best


def _hit_probability(p, q, n, target, gamma):
    """``P(log(p_low(K) / q_high(K')) >= target)`` for ``K ~ Bin(n, p)``, ``K' ~ Bin(n, q)`` independent
    (:func:`oracle_hit_probability`)."""
    from scipy import special, stats

    sd_p = math.sqrt(n * p * (1 - p)) + 1.0
    lo, hi = max(1, math.floor(n * p - 9 * sd_p)), min(n, math.ceil(n * p + 9 * sd_p))
    k = np.unique(np.linspace(lo, hi, min(hi - lo + 1, 2001)).round())
    w = np.gradient(k) if k.size > 1 else np.ones(1)
    cap = special.betaincinv(k, n - k + 1, gamma) * math.exp(-target)
    # the largest k' with q_high(k') <= cap: q_high(k') <= cap exactly when P(Bin(n, cap) <= k') <= gamma
    # (the upper Clopper-Pearson bound inverts that tail, decreasing in cap), so k' is one below the
    # gamma-quantile of Bin(n, cap) unless that quantile's tail equals gamma
    m = stats.binom.ppf(gamma, n, cap)
    kmax = np.where(stats.binom.cdf(m, n, cap) <= gamma, m, m - 1.0)
    below = np.where(kmax >= 0, stats.binom.cdf(kmax, n, q), 0.0)
    return min(1.0, float(np.sum(stats.binom.pmf(k, n, p) * w * below)))  # the Riemann sum may pass 1 by 1e-10
