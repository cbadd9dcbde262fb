"""Settings of the rate claims of 002: grid, trial, stated exponent and rate variable of each claim.

``SETTINGS`` maps a claim id to ``algorithm``, ``source`` (citation tags), ``statement``, ``trial``
(``trial(point, rng) -> excess risk``, :mod:`proofs_checks.rates.trials_hu`), ``exponent`` (``a`` in the
stated rate ``x^(-a)``; a negative ``-b`` for a growth ``x^b`` allowed in ``d`` or ``s*``), optional
``x`` (the rate variable, default ``n * epsilon``) and ``xlabel``, ``grids`` and ``repetitions`` per
profile, and for the sparse dimension claims ``trivial_error`` (the saturation rule of
:mod:`.rates`).  Why each grid sits where it does is told in :mod:`.rates` and ``docs/section6.md``.
"""

from __future__ import annotations

import math

from ...rates import trials_hu

__all__ = ["ZETA", "n_epsilon", "ne_grid", "SETTINGS", "sparsity_grid", "dimension_grid"]

#: Failure probability of the high-probability statements: the ``1 - ZETA`` quantile is judged.
ZETA = 0.1


def n_epsilon(point):
    """``n * epsilon``: the default rate variable."""
    return point["n"] * point["epsilon"]


def _T(point):
    """``T = floor(log n)`` (at least 1): the iteration count of Theorems 7 and 8."""
    return max(1, int(math.floor(math.log(point["n"]))))


def _ne_over_T(point):
    """``n eps / T`` with ``T = floor(log n)``: the bound of Theorem 7 displays one ``log n``."""
    return n_epsilon(point) / _T(point)


def _ne_over_T2(point):
    """``n eps / T^2``: Theorem 8 displays one ``log n``; the noise variance of Algorithm 5 carries
    ``T^2`` (``lambda ~ k T / n``), one of the "other log terms" its ``O`` omits."""
    return n_epsilon(point) / _T(point) ** 2


def ne_grid(ns, eps, **common):
    """Grid points ``n x eps`` with ``common`` fields; ``ne_ref`` is the smallest ``n eps`` (the broken trials' reference)."""
    pts = [dict(common, n=int(n), epsilon=float(e)) for n in ns for e in eps]
    ref = min(n_epsilon(p) for p in pts)
    return [dict(p, ne_ref=ref) for p in pts]


#: Settings: claim id -> (algorithm, source, statement, trial, stated exponent, grids, repetitions).
#: The loss Theorem 3's claims run on, and how Assumption 2 is read for it.
BIWEIGHT_NOTE = (
    "the loss is Tukey's biweight (c = 4.685), the example the paper names for its robust-regression "
    "assumptions (the sentence before Assumption 2 says they include the biweight loss); as printed, "
    "[002 Assumption 2] item 2 asks "
    "psi'(s) > 0 for every s > 0, which the biweight breaks (psi'(s) = 0 for |s| >= c).  So the claim reads "
    "Assumption 2 as the paper applies it (its own example inside), not as printed; under the printed "
    "assumption the instance is outside the theorem and the claim would be vacuous for it"
)

#: ``w* = +-e_j`` (a vertex of the unit l1 ball, ``s* = 1``): the d-sweeps of Theorems 2 and 3 (``w_norm`` scales it
#: for Theorem 3) and 5.  Under the default ``w*`` (uniform on the l1 sphere, entries of order ``1/d``) the signal
#: shrinks with ``d`` and the large-d end of a sweep measured the blind walk (``docs/rates.md``, "002: the d-sweeps of
#: Theorems 2 and 3").
_VERTEX_W_STAR = dict(w_shape="flat", s_star=1)
#: ``var(x) ||w*||^2 = 10/8``: the excess risk of the output 0 on Theorem 2's vertex design (saturation rule).
THM2_DIMENSION_TRIVIAL = 1.25

#: The reading of ``rates.hu.thm2.dimension`` (``docs/rates.md``, "002: the d-sweeps of Theorems 2 and 3").
THM2_DIMENSION_NOTE = (
    "d enters Theorem 2 through the exponential mechanism's log |V| (times its union bound log(T / zeta) in "
    "[002 eq. (23)]; the mechanism's own utility gives log |V| + log(T / zeta)), through Lemma 4's union bound over "
    "the d coordinates (log(dT / zeta), [002 eq. (22)]) and through T and s, chosen with log(|V| d / zeta) and "
    "log(|V| dT / zeta); the display (6) writes log(n |V| d / zeta)^(1/3) = log(2 d^2 n / zeta)^(1/3), Remark 1 "
    "'O(log d)'.  At fixed n the log(n / zeta) inside is a d-free offset of the union bounds, under which a growth "
    "test in log(2 d^2 n / zeta) judges the offset, not d; the claim reads Remark 1's log d, the log |V| = log(2d) of "
    "the privacy term at fixed T and s (growth at most 1 in x = log(2d); T and s only fall with d).  The design: "
    "w* = +-e_j (a vertex, the same signal at every d), n = 2000, eps = 1024 (above the eps of the privacy "
    "privacy statement; only n eps and T enter the mechanism's scale), d = 2 ... 128 (quick, 32 "
    "runs; full to 2048, 64 runs): the vertex choices stay informative at every d (the blind algorithm's 0.9 "
    "quantiles are 2.2-4.4, the stated algorithm's 0.03-0.08) and the largest 0.9 quantile stays far below half "
    "the trivial error var(x) ||w*||^2 = 1.25 (saturation rule)"
)

SETTINGS = {
    "rates.hu.thm2": dict(
        algorithm="hu-1",
        source="[002 Thm. 2], [002 eq. (6)], [002 Cor. 1]",
        statement="Algorithm 1 (squared loss, unit l1 ball, Theorem 2 parameters): excess population risk "
        "O~((n eps)^(-1/3)) with probability 1 - zeta",
        trial=trials_hu.trial_theorem2,
        exponent=1 / 3,
        grids={
            "quick": ne_grid([2000], [0.0625, 0.25, 1.0, 4.0], d=4),
            "full": ne_grid([2000, 4000, 8000, 16000, 32000, 64000], [1.0], d=10),
        },
        repetitions={"quick": 24, "full": 30},
    ),
    "rates.hu.thm2.dimension": dict(
        algorithm="hu-1",
        source="[002 Thm. 2], [002 eq. (6)], [002 Remark 1], [002 eq. (23)]",
        statement="Algorithm 1 (Theorem 2 parameters at each d): at fixed n eps the excess population risk grows at "
        "most like log d (the log |V| = log(2d) of the exponential mechanism over the polytope's 2d vertices), i.e. "
        "error ~ log(2d)^b with b <= 1",
        note=THM2_DIMENSION_NOTE,
        trial=trials_hu.trial_theorem2,
        exponent=-1.0,
        x=lambda p: math.log(2 * p["d"]),
        xlabel="log(2d)",
        trivial_error=THM2_DIMENSION_TRIVIAL,
        grids={
            "quick": [dict(n=2000, epsilon=1024.0, d=d, ne_ref=2048000.0, **_VERTEX_W_STAR) for d in (2, 8, 32, 128)],
            "full": [
                dict(n=2000, epsilon=1024.0, d=d, ne_ref=2048000.0, **_VERTEX_W_STAR)
                for d in (2, 8, 32, 128, 512, 2048)
            ],
        },
        repetitions={"quick": 48, "full": 64},
    ),
    "rates.hu.thm3": dict(
        algorithm="hu-1",
        source="[002 Thm. 3], [002 eq. (8)], [002 Assumption 2]",
        statement="Algorithm 1 (biweight loss, Theorem 3 parameters, constant step 1/sqrt(T)): excess "
        "population risk O~((n eps)^(-1/4)) with probability 1 - zeta",
        note=BIWEIGHT_NOTE,
        trial=trials_hu.trial_theorem3,
        exponent=1 / 4,
        grids={
            "quick": ne_grid([2000], [0.0625, 0.25, 1.0, 4.0], d=4),
            "full": ne_grid([2000, 4000, 8000, 16000, 32000, 64000], [1.0], d=10),
        },
        repetitions={"quick": 48, "full": 30},
    ),
    "rates.hu.thm5": dict(
        algorithm="hu-2",
        source="[002 Thm. 5], [002 eq. (9)], [002 Assumption 3]",
        statement="Algorithm 2 (Theorem 5 parameters, printed budget, delta = 1e-5): excess population "
        "risk O~((n eps)^(-2/5)) with probability 1 - zeta",
        trial=trials_hu.trial_theorem5,
        exponent=2 / 5,
        grids={
            "quick": ne_grid([4000], [64.0, 256.0, 1024.0, 4096.0, 16384.0], d=10, delta=1e-5),
            "full": ne_grid([16000], [16.0, 64.0, 256.0, 1024.0, 4096.0, 16384.0], d=10, delta=1e-5),
        },
        repetitions={"quick": 16, "full": 30},
    ),
    "rates.hu.thm7": dict(
        algorithm="hu-3",
        source="[002 Thm. 7], [002 Assumption 3]",
        statement="Algorithm 3 (Theorem 7 parameters, gamma = mu = 1, s = 2 s*): excess population risk "
        "O~(s*^2 / (n eps)) with probability 1 - zeta",
        trial=trials_hu.trial_theorem7,
        exponent=1.0,
        x=_ne_over_T,
        xlabel="n eps / T  (T = floor(log n))",
        grids={
            "quick": ne_grid([1000, 2000, 4000, 8000, 16000, 32000], [1600.0], d=20, s_star=2, c_s=2.0, delta=1e-5),
            "full": ne_grid([4000, 16000, 64000, 256000], [100.0, 400.0], d=50, s_star=2, c_s=2.0, delta=1e-5),
        },
        repetitions={"quick": 64, "full": 40},
    ),
    "rates.hu.thm8": dict(
        algorithm="hu-5",
        source="[002 Thm. 8], [002 Assumption 4], [002 Thm. 9]",
        statement="Algorithm 5 (Theorem 8 parameters, gamma_r = mu_r = 2, s = s*): excess population risk "
        "O~(s*^(3/2) / (n eps)) with probability 1 - zeta",
        trial=trials_hu.trial_theorem8,
        exponent=1.0,
        x=_ne_over_T2,
        xlabel="n eps / T^2  (T = floor(log n))",
        grids={
            "quick": ne_grid([600], [0.25, 1.0, 4.0, 16.0, 64.0, 256.0], d=6, s_star=2, delta=1e-5),
            "full": ne_grid([2000], [0.25, 1.0, 4.0, 16.0, 64.0, 256.0], d=20, s_star=2, delta=1e-5),
        },
        repetitions={"quick": 24, "full": 30},
    ),
}


def _s_star(point):
    """``s*``: the rate variable of the sparsity claims."""
    return point["s_star"]


def sparsity_grid(s_values, **common):
    """Grid points over ``s*`` at the ``n``, ``epsilon`` (and other fields) of ``common``."""
    return [dict(common, s_star=int(v), ne_ref=common["n"] * common["epsilon"]) for v in s_values]


#: Data of the Theorem 8 sparsity sweeps: ``mu`` with entries ``+-1/sqrt(s*)`` on its support (no small entry whose
#: loss in the top-s selection would add a support-recovery error unrelated to the noise), ``x = mu + t(3) / 64`` (the
#: non-private statistical error is then negligible) and ``tau = 12``, an ``s*``-free bound on
#: ``E[(grad_j l(w, x))^2] = 4 (3 / 64^2 + (w_j - mu_j)^2)`` wherever ``|w_j - mu_j| <= 1.73`` (at the start ``w = 0``
#: and at every iterate below the trivial error).
_THM8_SPARSITY_DATA = dict(x_scale=1.0 / 64.0, mu_shape="flat", tau=12.0)

#: The reading shared by the three Theorem 8 sparsity claims (see ``docs/rates.md``, "Theorem 8's sparsity").
THM8_SPARSITY_NOTE = (
    "the design makes the privacy-noise term of the proof [002 App. A] lead: x = mu + t(3)/64 with flat mu "
    "(entries +-1/sqrt(s*)), tau = 12 (an s*-free bound on E[(grad_j l)^2] along the iterates), n = 500 and "
    "eps = 2^22 at quick (full: n = 1000, eps = 2^25), so that the 0.9-quantile error stays below half the "
    "trivial error ||mu||^2 = 1; eps is far above the 0 < eps < 1 of the privacy statement, but only n eps and "
    "T enter the privacy noise, whose growth in s (s released coordinates, each of variance proportional to "
    "s k^2 T^2 / (n eps)^2) is the same at every eps.  The proof's inequality, re-derived, grows like s^2 with "
    "the printed k and with the proof's k (through its bias term s tau^2 / k^2, a bound the estimator's real "
    "bias stays far below here) and like s^(3/2) only with the balanced k; the privacy term alone grows like "
    "s^2, s and s^(3/2).  At eps >> 1 the proof's third term (Lemma 4's deviation, proportional to s eps / n) "
    "would dominate its inequality: the claim judges the displayed s*^(3/2)"
)

#: Data of the Theorem 7 sparsity sweep: ``w*`` with entries ``+-1/(2 sqrt(s*))`` on its support (norm 1/2, trivial
#: error ``||w*||^2 = 0.25``), so that no small entry adds a support-recovery error unrelated to the noise.
_THM7_SPARSITY_DATA = dict(w_shape="flat")

#: The reading of the Theorem 7 sparsity claim (see ``docs/rates.md``, "002: Theorem 7's s*-sweep on a flat w*").
THM7_SPARSITY_NOTE = (
    "flat w* (entries +-1/(2 sqrt(s*)), trivial error ||w*||^2 = 0.25) at eps = 12800 (quick: n = 16000, d = 50; "
    "full: n = 64000, d = 100), where the 0.9-quantile error stays below half the trivial error (at eps = 1600 it "
    "reached twice the trivial error at s* = 16); eps is far above the 0 < eps < 1 of the privacy statement, only "
    "n eps enters the noise and the truncation level.  The non-private statistical term (s T / n) leads at s* <= 4 "
    "(80-87 % of the 0.9 quantile), the privacy term at s* = 16 (0.042 of 0.071, growing about like s*^2 there): "
    "the sweep judges their sum"
)

#: Dependence on the sparsity: ``error ~ s*^b`` is judged as a "rate" in ``x = s*`` with stated
#: exponent ``-b`` (``slower`` = grows significantly faster than ``s*^b``).
SETTINGS.update(
    {
        "rates.hu.thm7.sparsity": dict(
            algorithm="hu-3",
            source="[002 Thm. 7], [002 Remark 3]",
            statement="Algorithm 3 (Theorem 7 parameters, s = 2 s*): excess population risk grows at most like s*^2",
            trial=trials_hu.trial_theorem7,
            exponent=-2.0,
            x=_s_star,
            xlabel="s*",
            trivial_error=0.25,
            note=THM7_SPARSITY_NOTE,
            grids={
                "quick": sparsity_grid(
                    [1, 2, 4, 8, 16], n=16000, epsilon=12800.0, d=50, c_s=2.0, delta=1e-5, **_THM7_SPARSITY_DATA
                ),
                "full": sparsity_grid(
                    [1, 2, 4, 8, 16, 32], n=64000, epsilon=12800.0, d=100, c_s=2.0, delta=1e-5, **_THM7_SPARSITY_DATA
                ),
            },
            repetitions={"quick": 48, "full": 60},
        ),
        **{
            cid: dict(
                algorithm="hu-5",
                source="[002 Thm. 8], [002 Remark 4], [002 App. A]",
                statement=(
                    "Algorithm 5 (Theorem 8 parameters, s = s*, " + what + "): excess population risk grows at "
                    "most like s*^(3/2)"
                ),
                trial=trials_hu.trial_theorem8,
                exponent=-1.5,
                x=_s_star,
                xlabel="s*",
                trivial_error=1.0,
                note=THM8_SPARSITY_NOTE,
                grids={
                    "quick": sparsity_grid(
                        [2, 4, 8, 16], n=500, epsilon=2.0**22, d=32, delta=1e-5, k_rule=rule, **_THM8_SPARSITY_DATA
                    ),
                    "full": sparsity_grid(
                        [2, 4, 8, 16, 32, 64],
                        n=1000,
                        epsilon=2.0**25,
                        d=128,
                        delta=1e-5,
                        k_rule=rule,
                        **_THM8_SPARSITY_DATA,
                    ),
                },
                repetitions={"quick": 160, "full": 160},
            )
            for cid, rule, what in (
                ("rates.hu.thm8.sparsity", "printed", "k = sqrt(n eps tau) as the theorem prints it, independent of s"),
                ("rates.hu.thm8.sparsity.proof-k", "proof", "k^4 = (n eps tau)^2 / (s T)^2 as the proof sets it"),
                (
                    "rates.hu.thm8.sparsity.balanced-k",
                    "balanced",
                    "k^4 = (n eps tau)^2 / (s T^2), which balances the proof's inequality",
                ),
            )
        },
    }
)


def _log_dn_over_zeta(point):
    """``log(d n / zeta)``: the logarithm through which Theorems 3 and 5 (eqs. (8), (9)) name ``d``."""
    return math.log(point["d"] * point["n"] / point.get("zeta", ZETA))


def dimension_grid(d_values, **common):
    """Grid points over ``d`` at the ``n``, ``epsilon`` (and other fields) of ``common``."""
    return [dict(common, d=int(v), ne_ref=common["n"] * common["epsilon"]) for v in d_values]


def _log_2d(point):
    """``log(2d)``: the ``log |V|`` of the exponential mechanism over the ``2d`` vertices of the unit l1 ball."""
    return math.log(2 * point["d"])


#: Data of Theorem 5's d-sweep: ``w* = +-e_j`` (flat, ``s* = 1``, a vertex of the unit l1 ball), the same signal at
#: every ``d``.  Under the default ``w*`` (uniform on the l1 sphere) the entries shrink like ``1/d`` and, once the
#: gradient's entries fall below the exponential mechanism's scale, the vertex choices carry no information: the
#: large-d end measured the blind walk (``docs/rates.md``, "002: Theorem 5's d-sweep").
_THM5_DIMENSION_DATA = dict(w_shape="flat", s_star=1)
#: ``var(x) ||w*||^2``: the excess risk of the output 0 (saturation rule of :func:`.rates.with_saturation_rule`).
THM5_DIMENSION_TRIVIAL = 1.25

#: The reading of ``rates.hu.thm5.dimension`` (``docs/rates.md``, "002: Theorem 5's d-sweep").
THM5_DIMENSION_NOTE = (
    "d enters the proof through the exponential mechanism's log |V| = log(2d) times its union bound log(T / zeta) "
    "[002 eq. (40)], through Lemma 8's union bound log(d / zeta) over coordinates (the sampling terms of (42), "
    "which the display drops) and through T (log(dT / zeta)); the display writes log(dn / zeta)^(4/5).  At fixed n "
    "the log(n / zeta) (log(T / zeta)) inside those logarithms is a d-free offset of the union bounds that the "
    "measured error does not carry: judged in x = log(dn / zeta) the growth of any term proportional to log d is "
    "about 5 over d = 2 ... 128 without the bound being exceeded (it is loose by that offset at small d).  The "
    "claim reads the d-dependence as the log d of the exponential mechanism (growth at most 1 in x = log(2d), "
    "the privacy term at fixed T; T(d) only falls with d).  The design exposes that term: w* = +-e_j, n = 1000, "
    "eps = 65536 (far above the 0 < eps < 1 of the privacy theorem; only n eps, T and K enter the mechanism's "
    "scale), where the vertex choices stay informative at every d and the error is the mechanism's suboptimality; "
    "measured growth 0.92-1.11, on the stated boundary, so the quick grid gives no confirmation (see the quick "
    "rule); the full grid (d = 2 ... 2048, 128 runs) gives the verdict"
)


#: ``H(||w*||^2) = H(1)``, the biweight excess risk of the output 0 on Theorem 3's vertex design (``w* = +-e_j``;
#: :func:`~proofs_checks.rates.trials_hu.biweight_excess_risk`, checked in ``tests/test_rates_hu_dim_thm23.py``).
THM3_DIMENSION_TRIVIAL = 0.28133
#: Theorem 3's full d-sweep: d grid, the point's (n, eps, c_T) and the runs per point.
THM3_FULL_D = (2, 4, 8, 16, 32, 64, 128)
THM3_FULL_POINT = dict(n=16000, epsilon=1.0, c_T=0.25)
THM3_FULL_REPETITIONS = 96

#: The reading of ``rates.hu.thm3.dimension`` (``docs/rates.md``, "002: the d-sweeps of Theorems 2 and 3").
THM3_DIMENSION_NOTE = (
    "d enters Theorem 3 through the exponential mechanism's log |V| = log(2d) and Lemma 4's union bound over the d "
    "coordinates, both written log(dT / zeta) in [002 eq. (31)] (the privacy term s T log(dT / zeta) / (n eps) and "
    "the sampling term s T log(dT / zeta) / n, the latter dropped from the display for eps < 1), and through T and "
    "s, chosen with log(d / zeta) and log(dT / zeta); the display (8) writes log(dn / zeta)^(1/4).  At fixed n the "
    "log(n / zeta) inside is a d-free offset of the union bounds: judged in x = log(dn / zeta), any informative "
    "design shows a growth of 1.7-2.5 (vertex w*, n = 2000, eps = 1 ... 256) with no bound exceeded, and the earlier "
    "design (w* uniform on the l1 sphere, entries ~ 1/d) fell with d onto the blind walk (0.9 quantile 0.048 at "
    "d = 128 against the walk's 0.046): confirmed on a quantity that is not the theorem's.  The claim reads the "
    "d-dependence as the log d of those two union bounds (linear in log(2d) at fixed T and s; T and s only fall "
    "with d): growth at most 1 in x = log(2d).  The design: w* = +-e_j (a vertex, the same signal at every d) with "
    "the saturation rule at half the trivial error H(1) = 0.281.  Quick (n = 2000, eps = 1, 16 runs): the sampling "
    "noise of the m = n / T records of a step, maximised over 2d coordinates, passes the signal by d = 32 and the "
    "0.9 quantile reaches the blind walk's level (0.313 at d = 128 against 0.316): saturated, inconclusive by the "
    "rule.  Full (n = 16000, eps = 1, hidden constant c_T = 1/4 of T, so m is 4 times larger; d = 2 ... 128, 96 "
    "runs): informative to d = 128 (0.9 quantile 0.117 against the walk's 0.324, seed 20261121), and judged there"
)


#: Dependence on the dimension of the Frank-Wolfe algorithms (Theorems 3 and 5; Theorem 2 above).  The displays write
#: ``log(d n / zeta)^b`` (``b = 1/4``, eq. (8); ``4/5``, eq. (9)); at fixed ``n`` the ``log(n / zeta)`` inside is a
#: d-free offset of the union bounds, under which any term proportional to ``log d`` shows a growth of several
#: powers of ``x = log(d n / zeta)`` without the bound being exceeded (and a design whose large-d end is the blind
#: walk is confirmed for nothing).  Both claims judge ``x = log(2d)`` with stated growth ``b <= 1`` (the notes of each
#: claim give the re-derivation); ``_log_dn_over_zeta`` is kept for the displays' logarithm.
SETTINGS.update(
    {
        "rates.hu.thm3.dimension": dict(
            algorithm="hu-1",
            source="[002 Thm. 3], [002 eq. (8)], [002 eq. (31)], [002 Assumption 2]",
            note=BIWEIGHT_NOTE + "; " + THM3_DIMENSION_NOTE,
            statement="Algorithm 1 (biweight loss, Theorem 3 parameters at each d): at fixed n eps the excess "
            "population risk grows at most like log d (the exponential mechanism's log |V| = log(2d) and Lemma 4's "
            "union bound over the d coordinates), i.e. error ~ log(2d)^b with b <= 1",
            trial=trials_hu.trial_theorem3,
            exponent=-1.0,
            x=_log_2d,
            xlabel="log(2d)",
            trivial_error=THM3_DIMENSION_TRIVIAL,
            grids={
                "quick": dimension_grid([2, 8, 32, 128], n=2000, epsilon=1.0, w_norm=1.0, **_VERTEX_W_STAR),
                "full": dimension_grid(THM3_FULL_D, **THM3_FULL_POINT, w_norm=1.0, **_VERTEX_W_STAR),
            },
            repetitions={"quick": 16, "full": THM3_FULL_REPETITIONS},
        ),
        "rates.hu.thm5.dimension": dict(
            algorithm="hu-2",
            source="[002 Thm. 5], [002 eq. (40)], [002 eq. (42)], [002 Assumption 3]",
            statement="Algorithm 2 (Theorem 5 parameters at each d, printed budget, delta = 1e-5): at fixed n eps "
            "the excess population risk grows at most like log d (the log |V| = log(2d) of the exponential "
            "mechanism over the 2d vertices), i.e. error ~ log(2d)^b with b <= 1",
            note=THM5_DIMENSION_NOTE,
            trial=trials_hu.trial_theorem5,
            exponent=-1.0,
            x=_log_2d,
            xlabel="log(2d)",
            trivial_error=THM5_DIMENSION_TRIVIAL,
            grids={
                "quick": dimension_grid([2, 8, 32, 128], n=1000, epsilon=65536.0, delta=1e-5, **_THM5_DIMENSION_DATA),
                "full": dimension_grid(
                    [2, 8, 32, 128, 512, 2048], n=1000, epsilon=65536.0, delta=1e-5, **_THM5_DIMENSION_DATA
                ),
            },
            repetitions={"quick": 32, "full": 128},
        ),
    }
)


def _log_d_over_zeta(point):
    """``log(d / zeta)``: the logarithm through which Theorems 7 and 8 name ``d``."""
    return math.log(point["d"] / point.get("zeta", ZETA))


#: Data of the d-sweeps of Theorems 7 and 8 (``docs/rates.md``, "002: the d-sweeps of Theorems 7 and 8"): flat
#: ``w*`` / ``mu`` (entries ``+-||w*|| / sqrt(s*)``, no small entry that Peeling's selection could miss) and, for
#: Theorem 8, ``x = mu + t(3) / 64`` with ``tau = 12`` (the sparsity sweeps' data) at ``s* = 8`` and ``n eps`` so
#: large that the largest of ``d`` Peeling noises stays far below the signal at every ``d`` of the grid: the sweeps
#: measure the noise of the released support, whose law does not depend on ``d``.  The earlier data (random
#: directions, ``x = mu + t(3)``) put the 0.9 quantile on the support-recovery threshold of small entries, a
#: threshold in ``d`` whose fitted growth split across seeds.
_THM7_DIMENSION_DATA = dict(w_shape="flat")
_THM8_DIMENSION_DATA = dict(mu_shape="flat", x_scale=1.0 / 64.0, tau=12.0)

#: Dependence on the dimension of the sparse algorithms: Theorem 7 carries ``log^2(d / zeta)``, Theorem 8
#: ``log(d / zeta)``; judged in ``x = log(d / zeta)`` with stated exponents ``-2`` and ``-1``.  ``(n, eps)`` sit
#: where the error stays well below the trivial one (the start ``w = 0``: ``||w*||^2``) at every ``d`` of the
#: grid and, for Theorem 8, where the privacy noise (not the non-private sampling error, which the bound for
#: ``eps < 1`` does not display) dominates: see ``docs/section6.md``, "Dimension of the sparse algorithms".
#: ``trivial_error`` feeds the saturation rule of :func:`.rates.with_saturation_rule`.
SETTINGS.update(
    {
        "rates.hu.thm7.dimension": dict(
            algorithm="hu-3",
            source="[002 Thm. 7], [002 Assumption 3]",
            statement="Algorithm 3 (Theorem 7 parameters, gamma = mu = 1, s = 2 s*): at fixed n eps the excess "
            "population risk grows at most like log^2(d / zeta)",
            trial=trials_hu.trial_theorem7,
            exponent=-2.0,
            x=_log_d_over_zeta,
            xlabel="log(d / zeta)",
            trivial_error=0.25,
            grids={
                "quick": dimension_grid(
                    [8, 32, 128, 512, 2048],
                    n=4000,
                    epsilon=6400.0,
                    s_star=2,
                    c_s=2.0,
                    delta=1e-5,
                    **_THM7_DIMENSION_DATA,
                ),
                "full": dimension_grid(
                    [8, 32, 128, 512, 2048, 8192],
                    n=4000,
                    epsilon=6400.0,
                    s_star=2,
                    c_s=2.0,
                    delta=1e-5,
                    **_THM7_DIMENSION_DATA,
                ),
            },
            repetitions={"quick": 32, "full": 60},
        ),
        "rates.hu.thm8.dimension": dict(
            algorithm="hu-5",
            source="[002 Thm. 8], [002 Assumption 4]",
            statement="Algorithm 5 (Theorem 8 parameters, gamma_r = mu_r = 2, s = s*): at fixed n eps the excess "
            "population risk grows at most like log(d / zeta)",
            trial=trials_hu.trial_theorem8,
            exponent=-1.0,
            x=_log_d_over_zeta,
            xlabel="log(d / zeta)",
            trivial_error=1.0,
            grids={
                "quick": dimension_grid(
                    [8, 32, 128, 512], n=200, epsilon=2.5 * 2.0**26, s_star=8, delta=1e-5, **_THM8_DIMENSION_DATA
                ),
                "full": dimension_grid(
                    [16, 64, 256, 1024, 4096], n=500, epsilon=2.0**26, s_star=8, delta=1e-5, **_THM8_DIMENSION_DATA
                ),
            },
            repetitions={"quick": 128, "full": 256},
            note="An implementation check: on this design Peeling misses a true coordinate with probability below "
            "4.6e-10 (5.8e-7 at full), so the output is the released noise on the true support, whose law does not "
            "depend on d by construction; a noise that grows with d (the log_d_noise mutant) is refuted, while the "
            "theorem's own d-term (the selection's maximum over d, Lemma 4's union over d) is out of reach here.",
        ),
    }
)
