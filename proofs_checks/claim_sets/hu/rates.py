"""Rate claims of 002 (Hu, Ni, Xiao & Wang): the excess-risk rates of [002 Thm. 2], [002 Thm. 3],
[002 Thm. 5], [002 Thm. 7] and [002 Thm. 8].

Each rate claim sweeps ``n`` (or ``epsilon`` at fixed ``n``), runs the algorithm with
the theorem's own parameter setting on data that satisfies the theorem's assumptions
with known constants, measures the exact excess population risk
(:mod:`proofs_checks.rates.trials_hu`; settings in :mod:`.rate_settings`) and fits the
log-log slope of its ``1 - zeta`` quantile (the high-probability statement; ``zeta = 0.1``) against
``n * epsilon`` (:func:`proofs_checks.rates.check.make_rate_check`).  The mean fit is
reported beside it.

Where the grid sits.  With every hidden constant of the theorems set to 1, the privacy
noise of Algorithms 2, 3 and 5 exceeds the trivial error (``||w*||^2``) until
``n epsilon`` is of order ``10^6``-``10^7`` (see ``docs/section6.md``).  The rates are
statements in ``n epsilon``; to reach the regime where the bound is not vacuous at
sizes a sweep can afford, the quick checks of Theorems 5 and 8 sweep ``epsilon`` at fixed
``n`` and Theorem 7 sweeps ``n`` at ``epsilon = 1600`` (outside the ``0 < epsilon < 1`` of
the privacy theorems, which the utility arguments do not use).  Theorems 2 and 3 sweep
``epsilon`` in [1/16, 4] at ``n = 2000`` (quick) and ``n`` at ``epsilon = 1`` (full).
Theorems 7 and 8 are fitted against ``n eps / T`` and ``n eps / T^2`` (``T = floor(log n)``):
the ``log n`` the bound displays, and for Algorithm 5 the second ``log n`` its noise variance
carries (an "other log term" of its ``O``).

Dimension.  ``rates.hu.thm2.dimension`` and ``rates.hu.thm3.dimension`` sweep ``d`` at fixed ``n eps`` with the
theorem's own parameters at each ``d`` and judge ``error ~ log(2d)^b`` (stated exponent ``-1`` in ``x = log(2d)``: the
exponential mechanism's ``log |V|`` and Lemma 4's union bound over ``d``) on a vertex ``w*``, whose signal does not
shrink with ``d``, with the saturation rule (:data:`.rate_settings.THM2_DIMENSION_NOTE`,
:data:`.rate_settings.THM3_DIMENSION_NOTE`).  On the earlier data (``w*`` uniform on the l1 sphere, entries ~ ``1/d``)
the vertex choices stopped carrying information as ``d`` grew and the large-d end measured the blind walk
(``docs/rates.md``, "002: the d-sweeps of Theorems 2 and 3"); Theorem 3's quick sweep still saturates (the full
profile judges it).  ``rates.hu.thm5.dimension`` judges the
``log |V| = log(2d)`` of the exponential mechanism (stated exponent ``-1`` in ``x = log(2d)``) on a vertex ``w*``,
whose signal does not shrink with ``d`` (:data:`.rate_settings.THM5_DIMENSION_NOTE`); inconclusive at quick by
:data:`QUICK_BOUNDARY_REASONS`.  ``rates.hu.thm7.dimension`` and
``rates.hu.thm8.dimension`` judge the ``log^2(d / zeta)`` and ``log(d / zeta)`` of Theorems 7 and 8
(stated exponents ``-2`` and ``-1`` in ``x = log(d / zeta)``), with a one-sided saturation rule
(a ``consistent`` sweep that reaches half the trivial error gives no verdict).

Sparsity.  ``rates.hu.thm7.sparsity`` and ``rates.hu.thm8.sparsity`` sweep ``s*`` at fixed
``n eps`` and judge ``error ~ s*^b`` as a rate in ``x = s*`` with stated exponent ``-b``
(``b = 2`` for Theorem 7, ``3/2`` for Theorem 8): ``slower`` means the error grows
significantly faster than the theorem allows.  Theorem 7's sweep runs on a flat ``w*`` at ``eps = 12800``
with the saturation rule (trivial error 0.25; the statistical term leads at small ``s*``, the privacy term
at the top: :data:`.rate_settings.THM7_SPARSITY_NOTE`).  The Theorem 8 sweeps run where the privacy-noise term of the
proof leads (:data:`.rate_settings.THM8_SPARSITY_NOTE`), so that ``s*^2`` and ``s*^(3/2)`` can be told apart.

Eps.  :mod:`.rate_eps` sweeps eps at fixed ``n`` under the reading "one O-constant for every eps";
:func:`register` registers those claims too.

Factories take the trial as an argument (default: the real algorithm), so the tests
pass a deliberately broken variant (output ignoring the data, noise not shrinking
with ``n epsilon``) and see it refuted.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from reference.hu.frank_wolfe import fw_step_sizes
from reference.hu.parameters import theorem2_parameters, theorem3_parameters, theorem5_parameters

from ...model import Claim, Mutant
from ...rates import trials_hu
from ...rates.blind_walk import blind_walk_distance2
from ...rates.check import make_rate_check
from .rate_settings import SETTINGS, ZETA, n_epsilon

__all__ = [
    "SATURATION_FRACTION",
    "PAPER_VALUES",
    "with_saturation_rule",
    "blind_walk_error",
    "rate_check",
    "broken_trial",
    "MUTANT_NAMES",
    "mutant_kinds",
    "MUTANT_EXTRA",
    "mutant_label",
    "rate_mutants",
    "register",
]

#: A sweep whose largest ``1 - zeta`` quantile exceeds this fraction of the trivial error is saturating.
SATURATION_FRACTION = 0.5

#: Numbers 002 reports that bear on a rate ([002 Sec. 6.3], about Figure 1(b)).
PAPER_VALUES = {
    "rates.hu.thm2": [
        {"what": "Figure 1(b), eps = 1 (Section 6.3 text): excess risk", "n": 10_000, "value": 0.14},
        {
            "what": "Figure 1(b), eps = 1 (Section 6.3 text): excess risk",
            "n": 90_000,
            "value": 0.03,
            "implied_exponent": math.log(0.14 / 0.03) / math.log(9.0),
        },
    ],
}


def with_saturation_rule(claim_id, check):
    """``check`` with the trivial error and a one-sided rule against saturation.

    The error of the sparse algorithms cannot exceed the trivial level by much (Algorithm 3 projects on
    the unit ball; both start at ``w = 0``), so once the quantiles approach it, the growth in ``d``
    flattens whatever the algorithm does, and a ``consistent`` slope proves nothing.  When the largest
    ``1 - zeta`` quantile of the sweep exceeds ``SATURATION_FRACTION`` times the trivial error, a
    ``consistent`` verdict becomes ``inconclusive``; a ``slower`` one stands (saturation can only
    flatten the growth).
    """
    trivial = SETTINGS[claim_id]["trivial_error"]

    def wrapped(ctx):
        res = check(ctx)
        largest = float(np.max(res.evidence["quantile_errors"]))
        saturated = largest > SATURATION_FRACTION * trivial
        res.evidence.update(
            trivial_error=trivial,
            largest_quantile_over_trivial=largest / trivial,
            saturation_fraction=SATURATION_FRACTION,
            saturated=saturated,
        )
        if saturated and res.verdict == "confirmed":
            res.verdict = "inconclusive"
            res.method += (
                f"; saturated: largest {1 - ZETA:g} quantile {largest:.3g} > "
                f"{SATURATION_FRACTION:g} x trivial error {trivial:g}, no verdict"
            )
        return res

    return wrapped


#: Claims whose quick grid cannot resolve the stated growth from the measured one (the error sits on the stated
#: boundary): at the quick profile a ``confirmed`` becomes ``inconclusive`` with this reason, a ``refuted`` stands
#: (its interval lies wholly above the stated growth).  The full profile gives the verdict.
QUICK_BOUNDARY_REASONS = {
    "rates.hu.thm5.dimension": (
        "quick grid on the stated boundary: the error of Algorithm 2 grows like log(2d) itself (the exponential "
        "mechanism's log |V|; measured growth 0.92-1.11 at quick, 32 runs, 0.95 intervals about 0.3 wide, wider "
        "than the 0.25 the fit calls conclusive), so a quick confirmation would rest on a seed; the full profile "
        "(d = 2 ... 2048, 128 runs) gives the verdict"
    ),
}


def with_quick_boundary_rule(claim_id, check):
    """``check`` that, at the quick profile, reports ``inconclusive`` in place of ``confirmed`` for the claims of
    :data:`QUICK_BOUNDARY_REASONS` (a ``refuted`` verdict stands: its interval excludes the stated growth)."""
    reason = QUICK_BOUNDARY_REASONS[claim_id]

    def wrapped(ctx):
        res = check(ctx)
        if ctx.profile == "quick" and res.verdict == "confirmed":
            res.verdict = "inconclusive"
            res.method += f"; {reason}"
        return res

    return wrapped


def blind_walk_error(claim_id, point):
    """Excess risk of Frank-Wolfe with the setting of ``claim_id`` (Theorem 2, 3 or 5) whose vertex choices are uniform over
    the ``2d`` vertices of the unit l1 ball (no information from the data), at the expected
    ``||w^T - w*||^2`` of the trial's ``w^0``, ``w*``.

    ``E||w^T - w*||^2`` is :func:`proofs_checks.rates.blind_walk.blind_walk_distance2`.  Its
    ``sum_t a_t^2`` term does not depend on ``d`` except through ``T``:
    a sweep whose errors sit at this level measures the walk, not the data.  Theorem 3 (biweight) is
    evaluated at that expected squared distance (``H`` is not linear: a reference level, not a mean).
    """
    n, eps, d = int(point["n"]), float(point["epsilon"]), int(point["d"])
    zeta = point.get("zeta", ZETA)
    var, _ = trials_hu._t_moments(trials_hu.T_DF_X)
    if claim_id.startswith("rates.hu.thm2"):
        alpha, tau = trials_hu.theorem2_constants(d)
        p = theorem2_parameters(
            n, eps, d, 2 * d, alpha, tau, zeta, c_T=point.get("c_T", 1.0), c_s=point.get("c_s", 1.0)
        )
        etas, r = fw_step_sizes(p["T"], p["step_size"]), 1.0
    elif claim_id.startswith("rates.hu.thm3"):
        p = theorem3_parameters(n, eps, d, zeta, c_T=point.get("c_T", 1.0), c_s=point.get("c_s", 1.0))
        etas, r = np.full(p["T"], p["eta"]), point.get("w_norm", 0.5)
    elif claim_id.startswith("rates.hu.thm5"):
        p = theorem5_parameters(n, eps, float(point["delta"]), d, var, zeta, c_T=point.get("c_T", 1.0))
        etas, r = fw_step_sizes(p["T"], p["step_size"]), 1.0
    else:
        raise ValueError(f"blind_walk_error covers the Theorem 2, 3 and 5 settings, got {claim_id!r}")
    dist2 = blind_walk_distance2(etas, d, r)
    if point.get("w_shape", "polytope") == "flat":
        # w* = +-r e_j / s* on s* coordinates: E||w*||^2 = r^2 / s* in place of the l1 sphere's 2 r^2 / (d + 1)
        dist2 += r * r / int(point["s_star"]) - 2.0 * r * r / (d + 1)
    if claim_id.startswith("rates.hu.thm3"):
        return trials_hu.biweight_excess_risk(dist2)
    return var * dist2


def _with_blind_walk(claim_id, check):
    """``check`` with ``evidence["blind_walk_error"]``: :func:`blind_walk_error` at each grid point."""

    def wrapped(ctx):
        res = check(ctx)
        res.evidence["blind_walk_error"] = [blind_walk_error(claim_id, p) for p in res.evidence["grid"]]
        return res

    return wrapped


#: Claims that check the other readings of the same statement (each reading judged side by side).
_OTHER_READINGS = {
    "rates.hu.thm8.sparsity": (
        "k as the theorem prints it",
        ("rates.hu.thm8.sparsity.proof-k", "rates.hu.thm8.sparsity.balanced-k"),
    ),
    "rates.hu.thm8.sparsity.proof-k": (
        "k as the proof sets it",
        ("rates.hu.thm8.sparsity", "rates.hu.thm8.sparsity.balanced-k"),
    ),
    "rates.hu.thm8.sparsity.balanced-k": (
        "k balancing the proof's inequality",
        ("rates.hu.thm8.sparsity", "rates.hu.thm8.sparsity.proof-k"),
    ),
}


def _reading(claim_id):
    st = SETTINGS[claim_id]
    text = (
        f"{st['source']}: {st['statement']}; judged on the {1 - ZETA:g} quantile of the excess population "
        f"risk against {st.get('xlabel', 'n * epsilon')} (stated exponent {st['exponent']:g}). O~ hides "
        f"constants and log factors the theorem does not give, so only the exponent is judged, never the "
        f"level; ||W||_1 is the l1 diameter [002 Sec. 3]"
    )
    if st.get("note"):
        text += f"; {st['note']}"
    if claim_id in _OTHER_READINGS:
        this, others = _OTHER_READINGS[claim_id]
        text += f"; this claim reads {this}, the other readings are checked by {', '.join(others)}"
    return text


def rate_check(claim_id, trial=None, grids=None, repetitions=None):
    """The rate check of ``claim_id`` with an optional replacement trial, grids and repetitions (tests pass broken ones)."""
    st = SETTINGS[claim_id]
    check = make_rate_check(
        claim_id,
        trial or st["trial"],
        grids or st["grids"],
        st.get("x", n_epsilon),
        st["exponent"],
        repetitions=repetitions or st["repetitions"],
        zeta=ZETA,
        xlabel=st.get("xlabel", "n * epsilon"),
        paper_values=PAPER_VALUES.get(claim_id),
        reading=_reading(claim_id),
    )
    if claim_id in ("rates.hu.thm2.dimension", "rates.hu.thm3.dimension", "rates.hu.thm5.dimension"):
        check = _with_blind_walk(claim_id, check)
    if "trivial_error" in st:
        check = with_saturation_rule(claim_id, check)
    if claim_id in QUICK_BOUNDARY_REASONS:
        check = with_quick_boundary_rule(claim_id, check)
    return check


def broken_trial(claim_id, kind, **extra):
    """A deliberately broken algorithm for ``claim_id``: ``kind`` is one of the trial's ``broken`` modes
    (``"ignore_data"``, ``"fixed_noise"``, ``"s_noise"``, ``"s_noise_power"``, ``"d_noise"``, ``"output_noise"``,
    ``"noise_x20"``); ``extra`` goes into every grid point (``output_sigma``, ``s_power``)."""
    return functools.partial(_broken, SETTINGS[claim_id]["trial"], kind, extra)


def _broken(trial, kind, extra, point, rng):
    return trial(dict(point, broken=kind, **extra), rng)


#: The broken algorithms every rate claim must refute (its mutants), by the trial's ``broken`` mode.
MUTANT_NAMES = {
    "ignore_data": "blind algorithm (output ignores the data)",
    "fixed_noise": "privacy noise that does not shrink with n eps",
    "output_noise": "output noise N(0, sigma^2) added to w",
    "noise_x20": "privacy noise scale x20",
    "d_noise": "privacy noise x d",
    "log_d_noise": "privacy noise x log(d / zeta)^p",
    "s_noise": "privacy noise x s*",
    "s_noise_power": "privacy noise x s*^p",
    "step_small": "step sizes x 0.1",
    "frozen_truncation": "truncation level of the robust estimator frozen at the grid's smallest n eps",
}

#: The n-eps sweeps that carry the step-size and truncation-level mutants.
_N_SWEEPS = ("rates.hu.thm2", "rates.hu.thm3", "rates.hu.thm5", "rates.hu.thm7", "rates.hu.thm8")


def mutant_kinds(claim_id):
    """The ``broken`` modes of :func:`broken_trial` that apply to ``claim_id``'s trial."""
    kinds = ["ignore_data", "fixed_noise", "output_noise"]
    if not (claim_id.endswith(".dimension") or ".sparsity" in claim_id):
        # a constant factor on the noise leaves a growth in d or s* unchanged: only the n eps sweeps can see it
        kinds.append("noise_x20")
    if claim_id.endswith(".dimension"):
        kinds.append("d_noise")
    if (claim_id, "log_d_noise") in MUTANT_EXTRA:
        kinds.append("log_d_noise")
    if ".sparsity" in claim_id:
        kinds.append("s_noise")
    if (claim_id, "s_noise_power") in MUTANT_EXTRA:
        kinds.append("s_noise_power")
    if claim_id in _N_SWEEPS:
        kinds += ["step_small", "frozen_truncation"]
    return tuple(kinds)


#: Per-claim settings of the broken modes.  Theorem 2's privacy noise dominates its quick grid: an output noise
#: of sigma = 0.05 (the default) leaves the exponent at 0.36 (consistent); sigma = 0.3 (an error floor of
#: 4 sigma^2 var(x) = 0.45) flattens the decay and is refuted (exponent 0.08 [-0.06, 0.23]).
#: Theorems 3 and 8 likewise (seed 20261121, quick): at sigma = 0.05 Theorem 3's exponent stays 0.31
#: [0.23, 0.40] (consistent; its floor d sigma^2 = 0.01 is below its smallest quantile 0.043) and Theorem 8's
#: 1.08 [0.94, 1.21] (its smallest quantile is 30, the floor 0.015); sigma = 0.3 (Theorem 3: 0.16 [0.10, 0.23],
#: 0.12 [0.04, 0.20] and 0.08 [0.01, 0.16] at seeds 20261121, 1, 2) and sigma = 10 (Theorem 8, floor
#: 6 sigma^2 = 600: 0.56 [0.35, 0.77], 0.53 [0.39, 0.66], 0.56 [0.41, 0.72]) are refuted.
#: The Theorem 8 sparsity sweeps with the proof's and the balanced k carry a mutant whose error grows like s*^2, the growth
#: the claim must tell from s*^(3/2): their privacy-noise term grows like s (proof's k) and s^(3/2) (balanced k), so a
#: noise scale times s*^(1/2) and s*^(1/4) makes it s^2 (the printed k's own noise term already grows like s^2).
#: Measured at quick (seeds 20261121, 1, 2): 1.76 [1.66, 1.87], 1.81 [1.70, 1.92], 1.93 [1.81, 2.05] (proof's k) and
#: 1.75 [1.64, 1.86], 1.90 [1.78, 2.02], 1.71 [1.59, 1.83] (balanced k): refuted.
#: The d-sweeps of Theorems 7 and 8 carry a mutant whose squared error grows one power of log(d / zeta) faster than
#: stated (``log_d_noise``: Peeling's noise scale times ``log(d / zeta)^p``, ``p = 1`` and ``3/2``): the smallest growth
#: above the stated one each claim must catch (measured in ``docs/rates.md``, "002: the d-sweeps of Theorems 7 and 8").
#: Theorem 7's d-sweep scales its ``d_noise`` by ``d / d_ref`` (``d_ref = 8``, the grid's smallest d: factor 1 there, so
#: the mutant is not saturated from the first point on, as the factor d itself made it); measured at quick (seed
#: 20261121): growth 5.18 [4.86, 5.50] in log(d / zeta) against 2, refuted (0.9 quantiles 0.032, 0.337, then the
#: ceiling 1.25 from d = 128 on; a refuted verdict stands under the saturation rule).
MUTANT_EXTRA = {
    ("rates.hu.thm7.dimension", "log_d_noise"): {"log_d_power": 1.5, "d_ref": 8},
    ("rates.hu.thm7.dimension", "d_noise"): {"d_ref": 8},
    ("rates.hu.thm8.dimension", "log_d_noise"): {"log_d_power": 1.0, "d_ref": 8},
    # the exponential mechanism's suboptimality is linear in its scale: error times log(d / zeta) / log(2 / zeta)
    ("rates.hu.thm5.dimension", "log_d_noise"): {"log_d_power": 1.0, "d_ref": 2},
    ("rates.hu.thm2.dimension", "log_d_noise"): {"log_d_power": 2.0, "d_ref": 2},
    ("rates.hu.thm3.dimension", "log_d_noise"): {"log_d_power": 1.0, "d_ref": 2},
    ("rates.hu.thm7.sparsity", "s_noise_power"): {"s_power": 0.5},
    ("rates.hu.thm8.sparsity.proof-k", "s_noise_power"): {"s_power": 0.5},
    ("rates.hu.thm8.sparsity.balanced-k", "s_noise_power"): {"s_power": 0.25},
    ("rates.hu.thm2", "output_noise"): {"output_sigma": 0.3},
    ("rates.hu.thm3", "output_noise"): {"output_sigma": 0.3},
    ("rates.hu.thm8", "output_noise"): {"output_sigma": 10.0},
}

#: Why a rate mutant is no violation of the claim as stated, by the mutant kind; ``{g}`` is the
#: stated growth of the claim, ``{bound}`` the bound on the error of any output the algorithm can release.
_SAME_NOISE = (
    "equivalent mutant: the sweep holds n eps fixed, so the factor n eps / (n eps)_ref of this broken "
    "mode is exactly 1 at every grid point and the mutant runs the stated algorithm with the stated "
    "noise scale"
)
_BOUNDED = (
    "the claim bounds the growth of the error in {x} by O({g}) with a hidden constant, and {g} is at "
    "least its value at the sweep's smallest {x}; this algorithm's output stays in a bounded set whatever "
    "the noise ({bound}), so its error is bounded and satisfies O({g}) with O-constant bound / "
    "(smallest {g}).  (Under the asymptotic reading no implementation whose output stays in that set can "
    "violate a growth claim; the check judges the local log-log growth over the grid, a second reading, under which "
    "the blind algorithm's error, constant in {x}, grows by 0, below the stated growth)"
)
_BLIND_VIA_CLAIM = (
    "the blind mutant is the stated algorithm run on data of another parameter that meets the same "
    "assumptions ({other}); by the claim for that instance, ||w - {other_sym}||^2 <= C {g} with "
    "probability 1 - zeta, so the error ||w - {sym}||^2 <= 2 C {g} + 2 ||{other_sym} - {sym}||^2 <= "
    "(2 C + 2 {dist2} / smallest {g}) {g}: the same growth, another O-constant (a proof conditional on the claim "
    "for the stated algorithm; where that fails, the base check is the one to show it)"
)
_OUTPUT_NOISE_S = (
    "the added noise xi ~ N(0, sigma^2 I_d), sigma = 0.05, has d fixed along the s* sweep (d = {d}): "
    "error <= 2 ||w - w*||^2 + 2 ||xi||^2, and the 1 - zeta quantile q of ||xi||^2 = sigma^2 "
    "chi^2_d is {q}, constant in s*; with s*^b >= 1 the growth bound O(s*^b) holds with O-constant "
    "2 C + 2 q (at probability 1 - 2 zeta)"
)
_X20_THM8 = (
    "a constant factor on the noise scale changes only the O-constant of a rate whose constants are "
    "hidden: in the proof of [002 Thm. 8] the privacy noise enters only through sum_i ||w_i||_inf^2 + "
    "s ||w~||_inf^2 <= O(eta0^2 s^2 k^2 T^2 log^2(Ts/zeta) log(1/delta) / (n^2 eps^2)), quadratic in the "
    "noise scale, so with k, T, s unchanged the bound O~(s*^(3/2) / (n eps)) holds with an O-constant at "
    "most 20^2 = 400 times the stated one (and the mutant is 20 times more private)"
)
_BLIND_THM8 = (
    "a real violation (the blind output estimates mean 0, so its error stays near ||mu||^2 = 1 while the "
    "rate goes to 0) that the grid cannot show: Theorem 8's grid is noise-dominated, its smallest 0.9 "
    "quantile is 30 at eps = 256 (quick, stated algorithm; the blind mutant's is 11.8 at full, seed 20261121), "
    "10-30 times the floor 1, so the blind mutant decays like the stated algorithm (quick: confirmed; "
    "full: exponent 1.11 [0.97, 1.25], confirmed).  At the stated slope 1 the quantile meets the floor "
    "near eps ~ 3,000-8,000, outside the grid (eps <= 256)"
)
_FW = (
    "Frank-Wolfe iterates are convex combinations of the vertices of the unit l1 ball (noise enters only the "
    "vertex choice) and ||w*||_1 <= 1, so ||w - w*||_2 <= 2"
)
_ALG3 = "Algorithm 3 projects on the unit l2 ball (step 7) and ||w*||_2 = 0.5, so ||w - w*||_2^2 <= 2.25"
_DIM = {
    "rates.hu.thm2.dimension": ("d", "log(2d)", _FW + ", excess risk <= var(x) x 4"),
    "rates.hu.thm3.dimension": ("d", "log^(1/4)(d n / zeta)", _FW + ", the biweight excess risk is bounded"),
    "rates.hu.thm5.dimension": ("d", "log(2d)", _FW + ", excess risk <= var(x) x 4"),
    "rates.hu.thm7.dimension": ("d", "log^2(d / zeta)", _ALG3),
    "rates.hu.thm7.sparsity": ("s*", "s*^2", _ALG3),
}


#: Measured exponents of the frozen-truncation mutant at quick (seed 20261121), stated exponent beside them.
_FROZEN_MEASURED = {
    "rates.hu.thm2": "0.494 [0.390, 0.598] against 1/3",
    "rates.hu.thm3": "0.379 [0.285, 0.472] against 1/4",
    "rates.hu.thm5": "0.933 [0.863, 1.003] against 2/5",
    "rates.hu.thm7": "1.34 [1.24, 1.44] against 1",
    "rates.hu.thm8": "1.91 [1.73, 2.09] against 1",
}
_FROZEN = (
    "a real violation where the estimator's bias shows (the bias term tau / level of Lemma 4 stops shrinking), "
    "out of reach on this instance: the frozen level is below the stated one at every larger n eps, so the "
    "mutant adds less privacy noise (its sensitivity is proportional to the level), and the bias it leaves stays "
    "below the error at every grid point; the data are symmetric about the optimum (Student t features, symmetric "
    "noise), where a robust mean of a symmetric gradient is unbiased whatever its scale.  Measured at quick (seed "
    "20261121): exponent {m}, faster than stated.  On right-skewed data the mutant is caught: rates.hu.thm8.asymmetric "
    "(Theorem 8, x - mu = exp(Z) - e^(1/2)) refutes it (0.441 [0.346, 0.536] against 1, seed 20261121); no such "
    "design is built for Theorems 2, 3, 5 and 7"
)
#: Step sizes x 0.1 where the quick sweep still decays at the stated rate (seed 20261121).
_STEP_REACH = {
    "rates.hu.thm3": (
        "a slower optimiser that the grid cannot show: with the constant step 1/sqrt(T) x 0.1 the Frank-Wolfe "
        "iterates still approach w* within the grid's T (T grows with n eps), and the biweight excess risk "
        "decays with exponent 0.313 [0.258, 0.368] against the stated 1/4 (quick, seed 20261121; the stated "
        "algorithm: 0.372 [0.298, 0.446]); its 0.9 quantiles 0.129, 0.121, 0.062, 0.036 against the stated "
        "algorithm's 0.165, 0.099, 0.056, 0.043"
    ),
    "rates.hu.thm8": (
        "a real violation (with eta = 2 / (3 gamma_r) x 0.1 each step keeps 1 - 2 eta = 0.93 of the distance "
        "to mu, so after T = 6 steps from w = 0 the error is at least (0.93^6)^2 ||mu||^2 = 0.44 in the noise-free "
        "limit) that the grid cannot show: the noise dominates (smallest 0.9 quantile 1.94 at eps = 256, quick, seed "
        "20261121; step x 0.1 also divides the Peeling noise by 10), so the mutant decays like the stated "
        "algorithm: 0.905 [0.781, 1.030], consistent with 1"
    ),
}


#: Why the d-noise mutants of Theorem 3's d-sweep are out of reach at quick (measured, seed 20261121).
_THM3_DIM_REACH = (
    "a real violation (the mechanism's noise grows with d faster than the stated log d) that the quick sweep cannot "
    "show: at n = 2000, eps = 1 the sampling noise of a step's m = n / T records, maximised over the 2d coordinates, "
    "wins the vertex choice by d = 32, so the stated algorithm's 0.9 quantile already reaches the blind walk's level "
    "(0.104, 0.195, 0.273, 0.313 at d = 2, 8, 32, 128 against the walk's 0.308-0.316 and half the trivial error "
    "0.141): the sweep is saturated, and a noisier mechanism cannot rise above the walk ({m}); the full sweep "
    "(n = 16000, c_T = 1/4, informative to d = 128) is the one that can"
)
_THM3_DIM_MEASURED = {
    "d_noise": "measured: growth 0.40 [0.34, 0.46] in log(2d), 0.9 quantiles 0.122, 0.308, 0.338, 0.321, saturated",
    "log_d_noise": "measured: growth 0.62 [0.52, 0.72], 0.9 quantiles 0.122, 0.272, 0.320, 0.319, saturated",
    "output_noise": (
        "measured at sigma = 0.05: growth 0.67 [0.45, 0.89], saturated; the biweight excess risk is bounded and "
        "concave in ||w - w*||^2, so an added d sigma^2 shows as a growth of about 1 in log(2d) at most (1.16 [0.50, "
        "1.82] at sigma = 0.2, n = 1000, d = 2 ... 32, seed 1)"
    ),
}


#: Why the finer noise mutant of Theorem 7's s*-sweep is out of reach (measured at quick, flat w*, eps = 12800).
_THM7_SPARSITY_REACH = (
    "a real violation (Peeling's noise scale times s*^(1/2) multiplies the privacy part of the squared error by s*; "
    "that part of the stated algorithm's 0.9 quantile grows about like s*^2 at the top of the grid, 0.012 to 0.042 "
    "from s* = 8 to 16 once the same algorithm's error without privacy noise, 0.020 and 0.029, is subtracted; 96 runs, "
    "generator seed 7; so the mutant's grows like s*^3 there) that the quick sweep cannot show: the non-private "
    "statistical term leads the stated error at s* <= 4 (80-87 % of its 0.9 quantile), "
    "where the mutant's error is the stated one, and at s* = 16 the mutant reaches the ceiling (0.9 quantile 0.79 "
    "against the trivial error 0.25); measured (seed 20261121): growth 1.84 [1.69, 1.98] against 2, 0.9 quantiles "
    "0.0054, 0.0095, 0.031, 0.12, 0.79.  The next power caught is s*^(3/4) only on some seeds (2.05 [1.96, 2.13], "
    "2.15 [2.06, 2.24], 2.05 [1.96, 2.14] at seeds 20261121, 731344922, 3972802103: refuted on 1 of 3); noise x s* is "
    "refuted (2.49 [2.36, 2.62])"
)


def _chi2_quantile(d, q=1 - ZETA):
    from scipy.stats import chi2

    return float(chi2.ppf(q, d))


def mutant_label(claim_id, kind):
    """``{"not_a_violation": ...}`` / ``{"out_of_reach": ...}`` for the broken mode ``kind`` of ``claim_id``
    where the quick sweep misses it, with the reason; ``{}`` where the check must catch it."""
    sweep = claim_id.endswith(".dimension") or ".sparsity" in claim_id
    if kind == "fixed_noise" and sweep:
        return {"not_a_violation": _SAME_NOISE}
    # blind only: noise x d (x s*) grows faster than stated over the grid, a violation of the local-growth reading
    # the check judges, even though a bounded error satisfies O(g) under the hidden-constant reading
    if claim_id in _DIM and kind == "ignore_data":
        x, g, bound = _DIM[claim_id]
        return {"not_a_violation": _BOUNDED.format(x=x, g=g, bound=bound)}
    if kind == "ignore_data" and claim_id.startswith("rates.hu.thm8.") and sweep:
        x = "d" if claim_id.endswith(".dimension") else "s*"
        g = "log(d / zeta)" if x == "d" else "s*^(3/2)"
        return {
            "not_a_violation": _BLIND_VIA_CLAIM.format(
                other="mean 0, the same Student t coordinates", other_sym="0", sym="mu", g=g, dist2="||mu||^2 = 1"
            )
        }
    if kind == "output_noise" and ".sparsity" in claim_id:
        ds = {prof: int(g[0]["d"]) for prof, g in SETTINGS[claim_id]["grids"].items()}
        return {
            "not_a_violation": _OUTPUT_NOISE_S.format(
                d=", ".join(f"{v} at {k}" for k, v in ds.items()),
                q=", ".join(f"{0.05**2 * _chi2_quantile(v):.3g} at {k}" for k, v in ds.items()),
            )
        }
    if kind == "noise_x20" and claim_id == "rates.hu.thm8":
        return {"not_a_violation": _X20_THM8}
    if kind == "ignore_data" and claim_id == "rates.hu.thm8":
        return {"out_of_reach": _BLIND_THM8}
    if claim_id == "rates.hu.thm3.dimension" and kind in _THM3_DIM_MEASURED:
        return {"out_of_reach": _THM3_DIM_REACH.format(m=_THM3_DIM_MEASURED[kind])}
    if claim_id == "rates.hu.thm7.sparsity" and kind == "s_noise_power":
        return {"out_of_reach": _THM7_SPARSITY_REACH}
    if kind == "frozen_truncation":
        return {"out_of_reach": _FROZEN.format(m=_FROZEN_MEASURED[claim_id])}
    if kind == "step_small" and claim_id in _STEP_REACH:
        return {"out_of_reach": _STEP_REACH[claim_id]}
    return {}


#: What ``s_noise_power`` does to the error where it is not "growing like s*^2" (the Theorem 8 sweeps' text).
_S_POWER_EFFECT = {"rates.hu.thm7.sparsity": "squared privacy error times s*"}

#: The Frank-Wolfe d-sweeps: the exponential mechanism's suboptimality is linear in its scale.
_FW_DIMENSION = ("rates.hu.thm2.dimension", "rates.hu.thm3.dimension", "rates.hu.thm5.dimension")


def rate_mutants(claim_id):
    """:class:`~proofs_checks.model.Mutant` of each broken mode of :func:`mutant_kinds`."""
    out = []
    for k in mutant_kinds(claim_id):
        extra = MUTANT_EXTRA.get((claim_id, k), {})
        name = MUTANT_NAMES[k] + (f" (sigma = {extra['output_sigma']:g})" if "output_sigma" in extra else "")
        if "log_d_power" in extra:
            p = extra["log_d_power"]
            # Peeling's noise enters the squared error squared; the exponential mechanism's scale enters linearly
            what, q = ("error", p) if claim_id in _FW_DIMENSION else ("squared error", 2 * p)
            name = name.replace("^p", f"^{p:g} ({what} times log(d / zeta)^{q:g})")
        if "s_power" in extra:
            effect = _S_POWER_EFFECT.get(claim_id, "error growing like s*^2")
            name = name.replace("s*^p", f"s*^{extra['s_power']:g} ({effect})")
        out.append(
            Mutant(name, rate_check(claim_id, trial=broken_trial(claim_id, k, **extra)), **mutant_label(claim_id, k))
        )
    return tuple(out)


def register(registry):
    """Register the rate claims of :data:`.rate_settings.SETTINGS` with their mutants.

    Each sweep costs 2.6-17.5 s a quick run (thm7/8.sparsity 3-9 s), so they run on one seed by default; their
    seed stability rests on Bonferroni-corrected intervals of the fits.
    """
    for claim_id, st in SETTINGS.items():
        registry.add_claim(
            Claim(
                claim_id,
                st["source"],
                st["statement"],
                "rate",
                rate_check(claim_id),
                algorithm=st["algorithm"],
                mutants=rate_mutants(claim_id),
                seed_policy="once",
            )
        )
    from . import rate_asymmetric, rate_eps  # share the rate machinery, not this module

    rate_eps.register(registry)
    rate_asymmetric.register(registry)
