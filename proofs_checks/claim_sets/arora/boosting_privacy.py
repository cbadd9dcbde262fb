"""Privacy of Boosting [004 App. E], [004 Thm. E], judged over many draws of the models.

Neighbouring datasets replace one record.  The ``m + 1`` chunks are fixed and disjoint, so the
record lies in one chunk only: in a training chunk only that chunk's model changes (``(epsilon/2,
delta)``, the selection is post-processing); in ``S_{m+1}`` the models' law is unchanged and only
the report-noisy-max selection sees the change.  By parallel composition the algorithm is
``(max(epsilon/2, epsilon_selection), delta)``-DP, so the selection is judged against ``epsilon``.

Two measurements at each ``n``, on a neighbouring pair fixed before any draw (row 0 of ``S_{m+1}``
is ``(e_1, -Y)`` in ``S`` and ``(e_1, +Y)`` in ``S'``; every other record is the same sample):

1. *the proof's route*: the exact privacy loss of the selected index given the models, on
   ``draws`` independent draws of the models (quadrature, [004 App. E] step 3);
2. *the output* ``w_hat_{i*}`` (what the paper releases): a statistical audit, Boosting run
   ``runs`` times on each dataset, event ``{<w_hat_{i*}, e_1> > t}`` (or ``< -t``) chosen on an
   independent pilot, Clopper-Pearson bounds; hockey-stick lower bound at ``epsilon`` against ``delta``.

For the paper's two readings (``"printed"``, ``"standard"``) a third, which decides where the two sampled audits cannot:
the exact law of the release on a designed pair at the same ``n`` and learner
(:func:`.audit_design.boosting_validation_pair`: ``m`` chunks of ``(e_1, Y)``, a validation chunk of ``(0, 0)``
records but its last, ``(e_1, +-Y)``), by quadrature with guaranteed brackets
(:func:`.audit_design.boosting_law_bounds`), and the implementation's sampler tested against that law (bins
fixed from the law before the runs).  The random datasets of 1-2 do not
reach the violation (their models spread the scores less); the designed pair does at ``n = 400``.
"""

from __future__ import annotations

import functools
import math
from types import SimpleNamespace

import numpy as np

from reference.arora.data import make_problem, sample_records
from reference.arora.learners import OutputPerturbation, delta_output_perturbation
from reference.arora.model_selection import (
    boosting,
    boosting_laplace_scale,
    boosting_n0,
    boosting_scores,
    boosting_sigma_tilde,
    calibrated_laplace_scale,
    gaussian_output_subgaussian_constant,
)
from reference.mechanisms import report_noisy_max, report_noisy_max_log_prob

from ...model import Claim, Result
from ...verdicts import CONFIDENCE, clopper_pearson
from ._common import scaled_mutants, with_power
from .audit_design import boosting_law_bounds, boosting_validation_pair

__all__ = ["boosting_privacy_check", "BOOST_PRIVACY", "register"]

#: Draws of the models (exact part) and runs per dataset (output audit) per profile.
BOOST_PRIVACY = {
    "quick": dict(sizes=(400,), draws=16, pilot=10000, runs=40000),
    "full": dict(sizes=(400, 2000), draws=80, pilot=40000, runs=400000),
}
THRESHOLDS = (0.0, 1.0, 2.0, 3.0, 4.0, 6.0, 8.0)
#: Exact-law audit of the paper's variants on the designed pair (:func:`_exact_law_audit`): quadrature brackets
#: (cells of the model grid, lattice steps per Laplace scale), the sampler's runs per dataset, its bins (equal
#: mass under the law of ``S``, fixed before the runs) and its error (a disagreement refutes, so it is small).
EXACT_LAW = dict(cells=20000, steps_per_scale=256, runs=20000, bins=20, alpha=1e-3)


def _setup(n, rng, variant, epsilon, delta, scale_factor):
    """Problem, learner, the fixed neighbouring pair, the Laplace scale and the clip level at ``n``."""
    p = make_problem("squared", (1.2, -0.6))
    L = OutputPerturbation("squared", 1.0, p.y_bound, lam=0.5)
    m, B = 4, 2.0
    z = sample_records(p, n, rng)
    c = n // (m + 1)
    first = m * c  # row 0 of S_(m+1)
    zA, zB = z.copy(), z.copy()
    zA[first] = (1.0, 0.0, -p.y_bound)
    zB[first] = (1.0, 0.0, p.y_bound)
    sigma = L.sigma(B, c, epsilon / 2, delta)
    gamma = gaussian_output_subgaussian_constant(B, sigma)
    st = boosting_sigma_tilde(n, epsilon, p.y_bound, L.H, gamma, 1.0)
    clip = None
    if variant == "calibrated":
        clip = delta_output_perturbation(B, 1.0, p.y_bound, L.H, sigma, m, delta, beta=0.1, dim=2)
        scale = calibrated_laplace_scale(clip, c, epsilon)
    else:
        scale = boosting_laplace_scale(st, variant)
    return dict(
        p=p,
        L=L,
        m=m,
        B=B,
        zA=zA,
        zB=zB,
        c=c,
        first=first,
        sigma=sigma,
        gamma=gamma,
        st=st,
        clip=clip,
        scale=scale_factor * scale,
        calibrated_scale=scale,
    )


def _conditional_losses(s, epsilon, delta, draws, rng, worst_moves):
    """Exact selection losses given ``draws`` model draws; with ``worst_moves`` also the largest loss over
    score moves within the clipped sensitivity (index j up by s, the others down: the worst case)."""
    m, c, L = s["m"], s["c"], s["L"]
    first = s["first"]
    models = np.stack(
        [L.fit(s["zA"][i * c : (i + 1) * c], s["B"], epsilon / 2, delta, draws, rng) for i in range(m)], axis=1
    )  # (draws, m, d)
    VA, VB = s["zA"][first : first + c], s["zB"][first : first + c]
    qa = boosting_scores(models, VA, "squared", s["clip"])
    qb = boosting_scores(models, VB, "squared", s["clip"])
    la, lb = report_noisy_max_log_prob(qa, s["scale"]), report_noisy_max_log_prob(qb, s["scale"])
    loss = np.max(np.abs(la - lb), axis=1)
    wn = np.linalg.norm(models, axis=2)
    lmax = (wn + s["p"].y_bound) ** 2
    if s["clip"] is not None:
        lmax = np.minimum(lmax, s["clip"])
    sens = lmax.max(axis=1) / c  # worst-case score sensitivity per draw
    worst_move = None
    if worst_moves:
        eye = np.eye(m, dtype=bool)
        move = np.where(eye, 1.0, -1.0) * (s["clip"] / c)  # (m patterns, m)
        worst_move = np.array(
            [
                np.max(
                    np.abs(
                        report_noisy_max_log_prob(q + move, s["scale"]) - report_noisy_max_log_prob(q[None], s["scale"])
                    )
                )
                for q in qa
            ]
        )
    return loss, sens, worst_move


def _release(s, z, size, epsilon, delta, rng):
    """First coordinate of ``size`` independent outputs ``w_hat_{i*}`` of Boosting on ``z`` at the scale of ``s``."""
    if s["clip"] is None:  # "printed" takes sigma~ as the scale: pass the (possibly scaled) scale itself
        w = boosting(
            z, s["L"], s["B"], s["m"], epsilon, delta, sigma_tilde=s["scale"], variant="printed", size=size, rng=rng
        )
    elif s["scale"] == s["calibrated_scale"]:
        w = boosting(
            z, s["L"], s["B"], s["m"], epsilon, delta, variant="calibrated", size=size, rng=rng, loss_clip=s["clip"]
        )
    else:  # a mis-scaled calibration (tests): same steps, the clip kept, the scale changed
        c = s["c"]
        models = np.stack(
            [s["L"].fit(z[i * c : (i + 1) * c], s["B"], epsilon / 2, delta, size, rng) for i in range(s["m"])], axis=1
        )
        q = boosting_scores(models, z[s["first"] : s["first"] + c], "squared", s["clip"])
        w = models[np.arange(size), report_noisy_max(q, s["scale"], rng=rng)]
    return w[:, 0]


def _output_audit(s, epsilon, delta, pilot, runs, rng):
    """Hockey-stick lower bound at ``epsilon`` for the released ``w_hat_{i*}`` (event chosen on a pilot)."""
    e = math.exp(epsilon)
    pa, pb = _release(s, s["zA"], pilot, epsilon, delta, rng), _release(s, s["zB"], pilot, epsilon, delta, rng)
    best = None
    for t in THRESHOLDS:
        for sign in (1.0, -1.0):
            a, b = np.sum(sign * pa > t), np.sum(sign * pb > t)
            for likely_b, est in ((True, (b - e * a) / pilot), (False, (a - e * b) / pilot)):
                if best is None or est > best[3]:
                    best = (t, sign, likely_b, est)
    t, sign, likely_b, _ = best
    wa, wb = _release(s, s["zA"], runs, epsilon, delta, rng), _release(s, s["zB"], runs, epsilon, delta, rng)
    ca, cb = int(np.sum(sign * wa > t)), int(np.sum(sign * wb > t))
    hi, lo = (cb, ca) if likely_b else (ca, cb)
    level = CONFIDENCE  # two-sided intervals: each one-sided limit at 1 - alpha/2 (Bonferroni over two)
    lower = clopper_pearson(hi, runs, level)[0]
    upper = clopper_pearson(lo, runs, level)[1]
    return {
        "event": f"{'+' if sign > 0 else '-'}<w, e1> > {t}",
        "more_likely_under": "S'" if likely_b else "S",
        "count_likely": hi,
        "count_other": lo,
        "runs": runs,
        "pilot_runs": pilot,
        "hockey_stick_lower": float(lower - e * upper),
        "hockey_stick_estimate": float((hi - e * lo) / runs),
    }


def _designed_pair(s):
    """The validation pair of :func:`boosting_validation_pair` at the check's ``n``, learner and domain, in ``d = 2``.

    ``m`` training chunks of ``c`` records ``(e_1, Y)``, a validation chunk of ``(0, 0)`` records but its last,
    ``(e_1, Y)`` in ``S`` and ``(e_1, -Y)`` in ``S'``: fixed before any draw, from the domain only.
    """
    D, Dp, desc = boosting_validation_pair(s["c"], s["m"], 1.0, s["p"].y_bound)
    dim = s["zA"].shape[1] - 1
    pad = [np.insert(x, [1] * (dim - 1), 0.0, axis=1) for x in (D, Dp)]
    return pad[0], pad[1], desc + f" (embedded in d = {dim}: the other coordinates of x are 0)"


def _law(s, scale, epsilon, delta, cells, steps_per_scale):
    """:func:`boosting_law_bounds` on the designed pair of ``s``, cached: the law is deterministic (it depends on
    ``n``, the learner and the scale only), so the run seeds of one claim share it; only the sampler check reruns."""
    L = s["L"]
    return _law_cached(
        s["c"],
        s["m"],
        s["zA"].shape[1] - 1,
        L.loss,
        L.x_bound,
        L.y_bound,
        L.lam,
        s["B"],
        float(scale),
        float(epsilon),
        float(delta),
        int(cells),
        int(steps_per_scale),
    )


@functools.lru_cache(maxsize=32)
def _law_cached(c, m, dim, loss, x_bound, y_bound, lam, B, scale, epsilon, delta, cells, steps_per_scale):
    s = {"c": c, "m": m, "p": SimpleNamespace(y_bound=y_bound), "zA": np.zeros((1, dim + 1))}
    D, Dp, _ = _designed_pair(s)
    return boosting_law_bounds(
        OutputPerturbation(loss, x_bound, y_bound, lam=lam),
        D,
        Dp,
        epsilon,
        delta,
        scale=scale,
        m=m,
        B=B,
        cells=cells,
        steps_per_scale=steps_per_scale,
    )


def _law_delta_lower(law, epsilon):
    """Guaranteed lower bound on the release's ``delta(epsilon)``: the event ``{cells where p_lo > e^eps q_hi}``
    (and the mirror), ``P_lo(E) - e^eps Q_hi(E)``; the event is read off the exact law, no run is involved."""
    e = math.exp(epsilon)
    return max(
        float(np.sum(np.maximum(law["p_lo"] - e * law["q_hi"], 0.0))),
        float(np.sum(np.maximum(law["q_lo"] - e * law["p_hi"], 0.0))),
    )


def _law_epsilon_lower(law, delta, top=60.0):
    """Largest ``eps`` (bisection, to 1e-6) with ``_law_delta_lower(eps) > delta``: the release is not
    ``(eps', delta)``-DP for any ``eps' <`` it (0.0 if none; ``top`` if even ``top`` is violated)."""
    if _law_delta_lower(law, 0.0) <= delta:
        return 0.0
    if _law_delta_lower(law, top) > delta:
        return top
    lo, hi = 0.0, top
    while hi - lo > 1e-6:
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if _law_delta_lower(law, mid) > delta else (lo, mid)
    return lo


def _sampler_gof(s, pair, law, runs, bins, alpha, epsilon, delta, rng):
    """Goodness of fit of the implementation's release (first coordinate) to the bracketed law, both datasets.

    ``bins`` bins of equal mass under the law of ``S`` (edges at cell edges, fixed before the runs; the mass beyond
    the grid joins the outer bins' upper brackets); per bin and dataset, exact binomial tails against the bracket's
    ends, Bonferroni over ``2 bins`` cells and both sides.  Power (normal approximation,
    :func:`~proofs_checks.audit.laws.detectable_change`): stated for a bin of mass ``1/bins``.
    """
    from scipy import stats

    from ...audit.laws import detectable_change

    mid = 0.5 * (law["p_lo"] + law["p_hi"])
    cum = np.cumsum(mid) / mid.sum()
    cut = np.unique(np.searchsorted(cum, np.arange(1, bins) / bins))
    inner = law["edges"][cut + 1]
    groups = np.concatenate([[0], cut + 1, [mid.size]])
    worst, cells = None, 2 * (inner.size + 1)
    for name, z, lo, hi in (("S", pair[0], law["p_lo"], law["p_hi"]), ("S'", pair[1], law["q_lo"], law["q_hi"])):
        blo = np.add.reduceat(lo, groups[:-1])
        bhi = np.add.reduceat(hi, groups[:-1])
        bhi[[0, -1]] += law["outside"]
        bhi = np.minimum(bhi, 1.0)
        w = _release(s, z, runs, epsilon, delta, rng)
        k = np.bincount(np.searchsorted(inner, w, side="right"), minlength=inner.size + 1)
        pv = np.minimum(stats.binom.sf(k - 1, runs, bhi), stats.binom.cdf(k, runs, blo))
        j = int(np.argmin(pv))
        if worst is None or pv[j] < worst[0]:
            worst = (float(pv[j]), name, j, int(k[j]), float(blo[j]), float(bhi[j]))
    adjusted = min(1.0, 2 * cells * worst[0])
    r = detectable_change(runs, 1.0 / (inner.size + 1), cells, alpha)
    return {
        "runs_per_dataset": runs,
        "bins": inner.size + 1,
        "alpha": alpha,
        "p_value_bonferroni": adjusted,
        "agrees": adjusted > alpha,
        "worst_bin": {
            "dataset": worst[1],
            "bin": worst[2],
            "observed": worst[3],
            "law_probability": [worst[4], worst[5]],
        },
        "power": f"detects a {100 * r:.3g}% change of a bin's probability {1 / (inner.size + 1):.3g} with "
        f"probability 0.95 (normal approximation, Bonferroni over {cells} cells)",
    }


def _exact_law_audit(s, epsilon, delta, cfg, rng):
    """The release's law on the designed pair (guaranteed brackets) and the sampler checked against it."""
    pair = _designed_pair(s)
    law = _law(s, s["scale"], epsilon, delta, cfg["cells"], cfg["steps_per_scale"])
    gof = _sampler_gof(s, pair, law, cfg["runs"], cfg["bins"], cfg["alpha"], epsilon, delta, rng)
    d_lo = _law_delta_lower(law, epsilon)
    readings = _readings(s, pair, epsilon, delta)
    width = max(float(np.sum(law["p_hi"] - law["p_lo"])), float(np.sum(law["q_hi"] - law["q_lo"])))
    return {
        "pair": pair[2],
        "models_mean": law["w_hat"],
        "models_sd": law["s"],
        "laplace_scale": law["scale"],
        "quadrature": {k: cfg[k] for k in ("cells", "steps_per_scale")},
        "bracket_width_total": width,
        "outside_mass": law["outside"],
        "delta_at_eps_lower": d_lo,
        "delta_at_eps_upper_binned": max(
            float(np.sum(np.maximum(law["p_hi"] - math.exp(epsilon) * law["q_lo"], 0.0))),
            float(np.sum(np.maximum(law["q_hi"] - math.exp(epsilon) * law["p_lo"], 0.0))),
        ),
        "epsilon_at_delta_lower": _law_epsilon_lower(law, delta),
        "law_violates": d_lo > delta,
        "sampler": gof,
        "readings": readings,
    }


#: Coarser brackets for the other readings (evidence only, never a verdict): 1e-2 of total width.
_READING_GRID = dict(cells=5000, steps_per_scale=64)


def _readings(s, pair, epsilon, delta):
    """The exact law's epsilon at ``delta`` (guaranteed lower bound) on the designed pair under each reading of
    [004 Thm. E]'s constant, side by side (times the check's ``scale_factor``); the verdict is the claim's own."""
    p, L, n, m = s["p"], s["L"], s["zA"].shape[0], s["m"]
    f = s["scale"] / s["calibrated_scale"]
    st = s["st"]
    scales = {
        "Lap(0, sigma~) with sigma~ the scale (printed)": st,
        "Lap(0, sigma~) with sigma~^2 the variance (scale sigma~/sqrt 2)": st / math.sqrt(2.0),
        "n in sigma~ read as the chunk size n/(m+1) (scale sigma~ sqrt(m+1))": st * math.sqrt(m + 1.0),
        "gamma~ read as 3 gamma (scale)": boosting_sigma_tilde(n, epsilon, p.y_bound, L.H, 3 * s["gamma"], 1.0),
        "gamma~ read as 10 gamma (scale)": boosting_sigma_tilde(n, epsilon, p.y_bound, L.H, 10 * s["gamma"], 1.0),
    }
    out = {}
    for name, b in scales.items():
        law = _law(s, f * b, epsilon, delta, **_READING_GRID)
        out[name] = {"laplace_scale": f * b, "epsilon_at_delta_lower": _law_epsilon_lower(law, delta)}
    n0 = boosting_n0(s["gamma"], 0.1, L.H, p.y_bound)
    out["n >= n0 (the excess-risk sentence's condition read into the privacy sentence)"] = {
        "n": n,
        "n0_at_beta_0.1": n0,
        "inside": n >= n0,
        "note": "the privacy sentence carries no condition on n; under this reading n < n0 is outside the claim",
    }
    return out


def boosting_privacy_check(variant="printed", scale_factor=1.0, *, epsilon=1.0, delta=1e-5, config=None):
    """Boosting's privacy against ``epsilon`` (parallel composition), over many model draws.

    ``variant``: ``"printed"`` (scale ``sigma~``), ``"standard"`` (scale ``sigma~/sqrt 2``) or
    ``"calibrated"`` (clipped losses, scale ``2 Delta/(|S_{m+1}| epsilon)``); ``scale_factor``
    multiplies the Laplace scale (tests: a broken calibration).  Verdict: refuted when the output
    audit's hockey-stick lower bound exceeds ``delta`` or, for the paper's variants, when the exact law of the
    release on the designed pair (:func:`_exact_law_audit`: guaranteed brackets, ``delta(eps)`` bounded below
    on an event read off the law) exceeds ``delta`` or the implementation's sampler disagrees with that law;
    confirmed when the exact selection loss
    (and, for ``"calibrated"``, the worst score move within the sensitivity) is at most ``epsilon``
    on every draw; inconclusive otherwise (the proof's route fails on some draws, the output audit
    finds no violation).  ``observed``: for ``"calibrated"`` the largest selection loss / epsilon over the
    draws; for the paper's variants the exact law's epsilon at ``delta`` (a guaranteed lower bound) / epsilon.
    """

    def check(ctx):
        rng = ctx.rng()
        cfg = config or BOOST_PRIVACY[ctx.profile]
        by_n, refuted, worst, exceed_any = [], False, 0.0, False
        law_refuted, sampler_refuted, law_eps = False, False, 0.0
        for n in cfg["sizes"]:
            s = _setup(n, rng, variant, epsilon, delta, scale_factor)
            loss, sens, moves = _conditional_losses(s, epsilon, delta, cfg["draws"], rng, variant == "calibrated")
            allloss = loss if moves is None else np.maximum(loss, moves)
            audit = _output_audit(s, epsilon, delta, cfg["pilot"], cfg["runs"], rng)
            exact = None
            if variant != "calibrated":  # the paper's variants: unclipped quadratic scores, the law is computable
                exact = _exact_law_audit(s, epsilon, delta, cfg.get("exact", EXACT_LAW), rng)
                law_refuted |= exact["law_violates"]
                sampler_refuted |= not exact["sampler"]["agrees"]
                law_eps = max(law_eps, exact["epsilon_at_delta_lower"] / epsilon)
            over = int(np.sum(allloss > epsilon * (1 + 1e-9)))
            exceed_any |= over > 0
            refuted |= audit["hockey_stick_lower"] > delta
            worst = max(worst, float(allloss.max()) / epsilon)
            by_n.append(
                {
                    "n": n,
                    "m": s["m"],
                    "validation_size": s["c"],
                    "laplace_scale": s["scale"],
                    "sigma_tilde": s["st"],
                    "learner_sigma": s["sigma"],
                    "gamma": s["gamma"],
                    "loss_clip": s["clip"],
                    "draws": cfg["draws"],
                    "selection_loss_over_eps": {
                        "median": float(np.median(loss) / epsilon),
                        "q90": float(np.quantile(loss, 0.9) / epsilon),
                        "max": float(loss.max() / epsilon),
                    },
                    "draws_with_loss_above_eps": over,
                    "fraction_above_eps_clopper_pearson": list(clopper_pearson(over, cfg["draws"])),
                    "worst_score_move_loss_over_eps": None if moves is None else float(moves.max() / epsilon),
                    "score_sensitivity": {
                        "median": float(np.median(sens)),
                        "min": float(sens.min()),
                        "max": float(sens.max()),
                    },
                    "scale_needed_2s_over_eps_median": float(2 * np.median(sens) / epsilon),
                    "output_audit": audit,
                    "exact_law_designed_pair": exact,
                }
            )
        # the calibrated variant claims eps for *any* models: a score move within its sensitivity that
        # exceeds eps refutes the calibration; the paper's variants are refuted only through the output
        calibration_broken = variant == "calibrated" and worst > 1 + 1e-9
        refuted_by = [
            why
            for why, hit in (
                ("the exact law of the release on the designed pair", law_refuted),
                ("the implementation's sampler disagrees with that law", sampler_refuted),
                ("the output audit on the random dataset", refuted),
                ("a score move within the clipped sensitivity", calibration_broken),
            )
            if hit
        ]
        verdict = "refuted" if refuted_by else ("inconclusive" if exceed_any else "confirmed")
        observed = worst if variant == "calibrated" else law_eps
        scale = {
            "printed": "Lap(0, sigma~) with sigma~ the scale (the box as written)",
            "standard": "Laplace of variance sigma~^2 (our alternative reading of the notation, not the paper's)",
            "calibrated": "losses clipped to [0, Delta], scale 2 Delta/(|S_(m+1)| eps) (not the paper's)",
        }[variant]
        return Result(
            verdict,
            observed=observed,
            bound=1.0,
            direction="at_most",
            method=f"per n: exact (quadrature) selection law given the models on {cfg['draws']} independent model "
            f"draws (statistic: the largest loss, the median, the 0.9 quantile and the count above eps); "
            f"output audit of w_hat_(i*) on {cfg['runs']} runs per dataset, event chosen on "
            f"{cfg['pilot']} pilot runs, Clopper-Pearson {CONFIDENCE} (Bonferroni over the two "
            f"probabilities)"
            + (
                ""
                if variant == "calibrated"
                else f"; and the exact law of the release on a designed pair at the same n and learner: guaranteed "
                f"quadrature brackets (audit_design.boosting_law_bounds), delta(eps) >= P_lo(E) - e^eps Q_hi(E) "
                f"on the event read off the law, and the implementation's sampler tested against the law "
                f"({EXACT_LAW['runs']} runs per dataset, {EXACT_LAW['bins']} bins fixed from the law, exact "
                f"binomial tails, Bonferroni, error {EXACT_LAW['alpha']}); refuted when the law's lower bound "
                f"exceeds delta or the sampler disagrees with the law"
            ),
            reading=f"[004 Thm. E] privacy ((eps, delta)-DP), [004 App. E] Boosting steps 1-3 with {scale}, "
            f"sigma~^2 = 4(Y^2 + H gamma^2 X^2)/(n eps); replace-one neighbours ([004 Lemma D.4] "
            f"proof: 'S and S' differ in only one point'); the chunks are fixed "
            f"and disjoint, so by parallel composition the selection must be eps = {epsilon}-DP in "
            f"S_(m+1) (a sequential count would ask eps/2); the pair (e1, -Y) / (e1, +Y) in S_(m+1) is "
            f"fixed before the draws; the release is w_hat_(i*) only (the index given the models is the "
            f"proof's route, not the output)"
            + (
                ""
                if variant == "calibrated"
                else "; gamma is the smallest constant meeting [004 Thm. E] condition 2 for the learner (a larger "
                "valid gamma enlarges sigma~, but the theorem must hold for every gamma meeting the condition). "
                "Readings side by side (evidence by_n[*].exact_law_designed_pair.readings, eps at delta on the "
                "designed pair at n = 400): Lap(0, sigma~) as scale 1.50 and as variance 2.10 (the verdicts of "
                ".privacy and .standard); n in sigma~ read as the chunk size 0.63, gamma~ = 3 gamma 0.46 and "
                "10 gamma 0.11 (no violation shown on this pair); the theorem's privacy sentence carries no "
                "condition on n, and reading the next sentence's n >= n0 (n0 = 1.1e7 here) into it puts "
                "n = 400 outside the claim; that reading is refuted at n = 1e6 >= n0 with labels, B and model "
                "in units of 1000 (arora.boosting.privacy.n-above-n0)"
            ),
            evidence={
                "variant": variant,
                "epsilon_selection": epsilon,
                "delta": delta,
                "by_n": by_n,
                "refuted_by": refuted_by,
                "observed_is": (
                    "largest exact selection loss given the models / epsilon over the draws"
                    if variant == "calibrated"
                    else "largest over n of the exact law's epsilon at delta on the designed pair "
                    "(a guaranteed lower bound) / epsilon"
                ),
                "scale_factor": scale_factor,
            },
        )

    return check


BOOST_POWER = (
    "catches Laplace scale x0.5 and x0.8 at quick and full (refuted, like the base claim) through the "
    "exact law of the release on the designed pair at n = 400: the law's guaranteed epsilon "
    "at delta = 1e-5 is 1.50 / 1.87 / 2.91 (printed, x1 / x0.8 / x0.5) and 2.10 / 2.60 / 4.01 (variance "
    "reading); it would confirm nothing (the law shows a violation or it does not), and it is blind "
    "where the designed pair does not violate (n = 2000 at full: 0.28 eps printed).  The sampler check "
    "(20000 runs per dataset, 20 bins) catches an implementation whose Laplace scale is x0.8 or x1.25 off "
    "the law's and one that swaps the datasets; it misses x0.9 and x1.1.  The old random-dataset output "
    "audit (40000 runs) refutes none of them"
)


def _mutants(variant):
    return scaled_mutants(
        "Laplace scale", lambda f: boosting_privacy_check(variant, scale_factor=f), (0.5, 0.8), {0.5: "2x over-spend"}
    )


def register(registry):
    """Add the privacy claims of Boosting."""

    def claim(*a, **k):
        registry.add_claim(Claim(*a, **k))

    claim(
        "arora.boosting.privacy",
        "[004 Thm. E] [004 App. E]",
        "Boosting with Lap(0, sigma~), sigma~^2 = 4(Y^2 + H gamma^2 X^2)/(n eps), is (eps, delta)-DP.",
        "privacy",
        with_power(boosting_privacy_check("printed"), BOOST_POWER),
        algorithm="arora-boosting",
        variant="printed",
        mutants=_mutants("printed"),
    )
    claim(
        "arora.boosting.privacy.standard",
        "[004 Thm. E] [004 App. E]",
        "Boosting with Laplace noise of variance sigma~^2 (our alternative reading of Lap(0, sigma~)) is "
        "(eps, delta)-DP.",
        "privacy",
        with_power(boosting_privacy_check("standard"), BOOST_POWER),
        algorithm="arora-boosting",
        variant="standard",
        scope="reproduction",
        mutants=_mutants("standard"),
    )
    claim(
        "arora.boosting.privacy.calibrated",
        "[004 App. E] (variant, not the paper's)",
        "Boosting with validation losses clipped to [0, Delta] and Laplace scale 2 Delta/(|S_(m+1)| eps) "
        "(about 2(m+1) Delta/(n eps)) is (eps, delta)-DP: the selection is eps-DP in S_(m+1), the models "
        "(eps/2, delta) on disjoint chunks.",
        "privacy",
        boosting_privacy_check("calibrated"),
        algorithm="arora-boosting",
        variant="calibrated",
        scope="reproduction",
        mutants=_mutants("calibrated"),
    )
