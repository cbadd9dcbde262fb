"""Claims of Wang & Xu (000): private l1 regression by the exponential mechanism over a zeta-net.

Algorithms ``wang-xu-1`` (psi of eq. (6)) and ``wang-xu-2`` (psi of eq. (16)), each with the
``printed`` exponent and the ``standard`` exponential-mechanism calibration, and the claims:

* Theorems 1-2: Algorithm 1 (2) is eps-DP -- checked exactly (max privacy loss over
  neighbouring datasets that replace one row by an adversarial record), per variant;
* the sensitivity of L-hat_iota stated for eq. (6) and (two statements) for eq. (16);
* psi satisfies (3) / (15), is non-decreasing and bounded by log 2 / log theta;
* Lemma 2: covering number ``<= (3 Delta / zeta)^d``.

Every check is built by a factory whose arguments default to the implementation in
:mod:`reference`; the tests pass deliberately broken ones (a flipped psi, a halved
sensitivity, a quadrupled exponent, a wrong covering bound) to show each check can fail.
"""

from __future__ import annotations

import functools
import math

import numpy as np
from scipy.spatial import cKDTree

from reference.wang_xu.l1_regression import make_mechanism, record_psi_terms
from reference.wang_xu.nets import BoxNet, L1BallNet, L2BallNet, covering_bound, volumetric_lower_bound
from reference.wang_xu.truncation import psi, psi_lower_envelope, psi_upper_envelope

from ..adversarial import candidate_records
from ..audit.exact import max_privacy_loss
from ..claims import Algorithm, Claim, Result

#: Relative slack for float64 rounding when comparing an exact loss with a bound.
FLOAT_SLACK = 1e-9
SOURCE = "000"
THETAS_QUICK = (1.01, 1.1, 1.5, 1.9, 1.999)


def _within(value, bound):
    return value <= bound * (1 + FLOAT_SLACK) + 1e-12


# --------------------------------------------------------------------------- privacy

def _fitting_records(points, magnitudes, rng):
    """Records ``[x, <x, w>]`` that fit net point ``w`` exactly, for large random ``x``."""
    d = points.shape[1]
    out = []
    for m in magnitudes:
        u = rng.standard_normal((points.shape[0], d))
        u /= np.linalg.norm(u, axis=1, keepdims=True)
        x = m * u
        out.append(np.column_stack([x, np.einsum("ij,ij->i", x, points)]))
    return np.vstack(out)


def _instances(profile):
    """(dim, zeta, iota, n) of the small instances on which the privacy loss is computed exactly."""
    quick = [(1, 0.25, 1.0, 6), (2, 0.5, 0.5, 5), (1, 0.5, 1e-3, 4)]
    if profile == "quick":
        return quick
    return quick + [(2, 0.3, 2.0, 8), (3, 0.8, 1.0, 6), (1, 0.1, 10.0, 10)]


def _datasets(points, n, rng):
    """Datasets on which one output is strongly favoured, plus heavy-tailed and extreme ones."""
    d = points.shape[1]
    K = points.shape[0]
    out = []
    for _ in range(3):
        a, b = rng.choice(K, size=2, replace=False)
        fit_a = _fitting_records(points[[a] * (n - 1)], [1e4], rng)
        fit_b = _fitting_records(points[[b]], [1e4], rng)
        out.append(np.vstack([fit_a, fit_b]))
    w_star = points[rng.integers(K)]
    x = rng.standard_t(1.5, size=(n, d))
    out.append(np.column_stack([x, x @ w_star + rng.standard_t(1.5, size=n)]))
    pool = candidate_records(d + 1, rng)
    out.append(pool[rng.choice(pool.shape[0], size=n, replace=False)])
    return out


def privacy_check(algorithm=1, variant="printed", epsilon=1.0, theta=None, exponent_scale=1.0,
                  mechanism_factory=make_mechanism):
    """Exact check that Algorithm ``algorithm`` (``variant``) is ``epsilon``-DP on small instances.

    For each instance (net, iota, n) and dataset D, every neighbour replacing one row of D by a
    candidate record (:func:`proofs_checks.adversarial.candidate_records`, plus records fitting
    each net point exactly) is rescored through ``score_terms`` and the exact privacy loss
    ``max_w |log p_D(w) - log p_D'(w)|`` is computed by
    :func:`proofs_checks.audit.exact.max_privacy_loss`.  ``exponent_scale`` multiplies the
    log-weights (a broken mechanism for the tests).
    """
    claim_id = f"wang-xu.alg{algorithm}.privacy.{variant}"

    def check(ctx):
        rng = ctx.rng(claim_id)
        worst, worst_at, pairs = 0.0, None, 0
        thetas = [2.0] if algorithm == 1 else ([theta] if theta is not None else [1.5, 1.1])
        for th in thetas:
            for dim, zeta, iota, n in _instances(ctx.profile):
                kw = {} if algorithm == 1 else {"theta": th}
                mech = mechanism_factory(algorithm, variant=variant, epsilon=epsilon, dim=dim, radius=1.0,
                                         zeta=zeta, iota=iota, **kw)
                pts = mech.outputs
                cands = np.vstack([candidate_records(dim + 1, rng),
                                   _fitting_records(pts, [1.0, 1e4], rng)])
                cand_terms = exponent_scale * mech.score_terms(cands)
                for D in _datasets(pts, n, rng):
                    terms = exponent_scale * mech.score_terms(D)
                    total = terms.sum(axis=0)
                    logp = mech.log_prob_from_terms(total)
                    for i in range(D.shape[0]):
                        logq_all = mech.log_prob_from_terms(total - terms[i] + cand_terms)
                        # Screen all replacements at once (every log-probability is finite: each
                        # log-weight lies in [-n k eps, 0]); the loss of the worst one is then
                        # computed by the auditor's exact function.
                        c = int(np.argmax(np.max(np.abs(logq_all - logp), axis=1)))
                        loss = max_privacy_loss(logp, logq_all[c])
                        pairs += cands.shape[0]
                        if loss > worst:
                            worst = loss
                            worst_at = {"theta": th, "dim": dim, "zeta": zeta, "iota": iota, "n": n,
                                        "net_size": int(pts.shape[0]), "row": i,
                                        "replacement": [float(v) for v in cands[c]]}
        k = (1.0 if variant == "printed" else 0.25) * exponent_scale
        verdict = "confirmed" if _within(worst, epsilon) else "refuted"
        return Result(verdict, {"method": "exact (all outputs, neighbours by one-row replacement)",
                                "epsilon": epsilon, "max_privacy_loss": worst,
                                "loss_over_epsilon": worst / epsilon,
                                "analytic_upper_bound": 2 * k * epsilon, "worst_at": worst_at,
                                "neighbour_pairs": pairs, "profile": ctx.profile})

    return check


# --------------------------------------------------------------------------- sensitivity

def stated_sensitivity_eq6(n, iota, theta=2.0):
    """Text below eq. (6) and proof of Theorem 1: ``2 log 2 / (n iota)``."""
    return 2 * math.log(2.0) / (n * iota)


def stated_sensitivity_eq16_text(n, iota, theta):
    """Text before Algorithm 2: ``2 log theta / (2 n iota)``."""
    return 2 * math.log(theta) / (2 * n * iota)


def stated_sensitivity_eq16_proof(n, iota, theta):
    """Proof of Theorem 2: ``2 log theta / (n iota)``."""
    return 2 * math.log(theta) / (n * iota)


def sensitivity_check(stated, thetas=(2.0,), psi_terms=record_psi_terms, claim_id="wang-xu.sensitivity"):
    """Measure ``max_w max_{D ~ D'} |L-hat(w, D) - L-hat(w, D')|`` in float64 against ``stated``.

    ``psi_terms(W, X, y, iota, theta) -> (n, K)`` gives the summands of eq. (2); L-hat of each
    neighbour is its sum divided by ``n iota``.  The worst pair is recomputed from scratch.
    """

    def check(ctx):
        rng = ctx.rng(claim_id)
        worst_ratio, worst, tested = 0.0, None, 0
        n_data = 4 if ctx.profile == "quick" else 20
        for th in thetas:
            for dim, zeta, iota, n in _instances(ctx.profile):
                pts = L2BallNet(1.0, zeta, dim).points()
                cands = np.vstack([candidate_records(dim + 1, rng), _fitting_records(pts, [1.0, 1e4], rng)])
                for D in _datasets(pts, n, rng)[:n_data] + [cands[rng.choice(cands.shape[0], n)]]:
                    X, y = D[:, :-1], D[:, -1]
                    P = psi_terms(pts, X, y, iota, th)
                    Pc = psi_terms(pts, cands[:, :-1], cands[:, -1], iota, th)
                    base = P.sum(axis=0) / (n * iota)
                    # (n, m, K): L-hat of the neighbour replacing row i by candidate c
                    neigh = (P.sum(axis=0)[None, None, :] - P[:, None, :] + Pc[None, :, :]) / (n * iota)
                    diff = np.abs(neigh - base)
                    tested += diff.shape[0] * diff.shape[1]
                    i, c, k = np.unravel_index(np.argmax(diff), diff.shape)
                    D2 = D.copy()
                    D2[i] = cands[c]
                    # Same code path (same matrix shapes) as for D, so both risks are rounded alike.
                    direct = abs(float(psi_terms(pts, D2[:, :-1], D2[:, -1], iota, th).sum(axis=0)[k] / (n * iota))
                                 - float(base[k]))
                    bound = stated(n, iota, th)
                    ratio = max(float(diff[i, c, k]), direct) / bound
                    if ratio > worst_ratio:
                        worst_ratio = ratio
                        worst = {"theta": th, "n": n, "iota": iota, "measured": max(float(diff[i, c, k]), direct),
                                 "stated": bound, "true_sup_log_theta_over_n_iota": math.log(th) / (n * iota)}
        verdict = "confirmed" if _within(worst_ratio, 1.0) else "refuted"
        return Result(verdict, {"method": "float64 evaluation of L-hat on one-row replacements",
                                "max_measured_over_stated": worst_ratio, "worst": worst,
                                "neighbour_pairs": tested})

    return check


# --------------------------------------------------------------------------- psi

def _psi_grid(profile):
    lin = np.linspace(-4.0, 4.0, 40001 if profile == "quick" else 400001)
    logs = 10.0 ** np.linspace(-323.5, 308.2, 2001 if profile == "quick" else 20001)
    special = np.array([0.0, 5e-324, 2.2250738585072014e-308, 1e-300, 1e-16, 0.5, 1.0, 1e300, 1.7e308,
                        np.nextafter(1.0, 0.0), np.nextafter(1.0, 2.0)])
    ulp = np.concatenate([c + np.arange(-2000, 2001) * np.spacing(c) for c in (0.25, 0.5, 0.9, 1.0)])
    g = np.concatenate([lin, logs, -logs, special, -special, ulp, -ulp])
    return np.unique(g)


def _float_tol(values):
    return 8 * np.finfo(float).eps * np.maximum(1.0, np.abs(values))


def psi_inequality_check(thetas=(2.0,), psi_fn=psi, claim_id="wang-xu.psi.inequality"):
    """``-log(1 - x + |x|^theta/theta) <= psi(x) <= log(1 + x + |x|^theta/theta)`` on a float grid.

    (3) for ``theta = 2`` (eq. (6)), (15) otherwise.  The envelopes are evaluated without
    overflow; the tolerance is 8 ulp of ``max(1, |envelope|)``.
    """

    def check(ctx):
        x = _psi_grid(ctx.profile)
        worst, worst_at, finite = -math.inf, None, True
        for th in thetas:
            v = np.asarray(psi_fn(x, th), dtype=float)
            finite &= bool(np.all(np.isfinite(v)))
            lo, up = psi_lower_envelope(x, th), psi_upper_envelope(x, th)
            excess = np.maximum((lo - v) - _float_tol(lo), (v - up) - _float_tol(up))
            j = int(np.argmax(excess))
            if excess[j] > worst:
                worst, worst_at = float(excess[j]), {"theta": th, "x": float(x[j]), "psi": float(v[j]),
                                                      "lower": float(lo[j]), "upper": float(up[j])}
        verdict = "confirmed" if worst <= 0 and finite else "refuted"
        return Result(verdict, {"grid_points": int(x.size), "thetas": list(thetas), "all_finite": finite,
                                "max_violation_beyond_tolerance": worst, "at": worst_at})

    return check


def psi_monotone_check(thetas=(2.0,), psi_fn=psi):
    """psi is non-decreasing on a sorted float grid, including ulp-by-ulp scans near 0.25, 0.5, 0.9, 1.

    Drops of at most ``4 eps`` (four ulp of 1, the scale of the argument of the log in (16),
    where rounding happens) are attributed to float64 rounding; the evidence records whether
    psi is *exactly* non-decreasing in float64 (it is for eq. (6)).
    """

    def check(ctx):
        x = _psi_grid(ctx.profile)
        worst, worst_at, exact = 0.0, None, True
        for th in thetas:
            v = np.asarray(psi_fn(x, th), dtype=float)
            drops = -np.diff(v)
            exact &= bool(np.all(drops <= 0))
            j = int(np.argmax(drops))
            rel = drops[j] / (4 * np.finfo(float).eps)
            if rel > worst:
                worst, worst_at = float(rel), {"theta": th, "x": float(x[j]), "drop": float(drops[j])}
        verdict = "confirmed" if worst <= 1.0 else "refuted"
        return Result(verdict, {"grid_points": int(x.size), "thetas": list(thetas),
                                "exactly_non_decreasing_in_float64": exact,
                                "max_drop_over_4_machine_eps": worst, "at": worst_at})

    return check


def psi_bounded_check(thetas=(2.0,), psi_fn=psi, stated_bound=math.log):
    """``sup |psi| <= log theta`` (log 2 for eq. (6)) over the float grid, and psi is finite."""

    def check(ctx):
        x = _psi_grid(ctx.profile)
        worst, at, finite = 0.0, None, True
        for th in thetas:
            v = np.asarray(psi_fn(x, th), dtype=float)
            finite &= bool(np.all(np.isfinite(v)))
            r = float(np.max(np.abs(v))) / stated_bound(th)
            if r > worst:
                worst, at = r, th
        verdict = "confirmed" if finite and worst <= 1.0 + 4 * np.finfo(float).eps else "refuted"
        return Result(verdict, {"grid_points": int(x.size), "all_finite": finite,
                                "max_abs_psi_over_stated_bound": worst, "theta": at})

    return check


def psi_odd_check(thetas=(2.0,), psi_fn=psi):
    """``psi(-x) = -psi(x)`` exactly in float64 on the grid (the text calls psi odd; the proofs use it)."""

    def check(ctx):
        x = _psi_grid(ctx.profile)
        x = x[x >= 0]
        worst, at = 0.0, None
        for th in thetas:
            gap = np.abs(np.asarray(psi_fn(-x, th), dtype=float) + np.asarray(psi_fn(x, th), dtype=float))
            j = int(np.argmax(gap))
            if gap[j] > worst:
                worst, at = float(gap[j]), {"theta": th, "x": float(x[j])}
        return Result("confirmed" if worst == 0.0 else "refuted",
                       {"grid_points": int(x.size), "thetas": list(thetas), "max_abs_psi(-x)+psi(x)": worst,
                        "at": at})

    return check


# --------------------------------------------------------------------------- Lemma 2

def _sample_in(net, m, rng):
    d = net.dim
    g = rng.standard_normal((m, d))
    if isinstance(net, L2BallNet):
        w = g / np.linalg.norm(g, axis=1, keepdims=True)
        return w * net.radius * np.concatenate([np.ones(m // 4), rng.uniform(size=m - m // 4) ** (1 / d)])[:, None]
    if isinstance(net, L1BallNet):
        e = rng.exponential(size=(m, d + 1))
        w = np.sign(g) * e[:, :d] / e.sum(axis=1, keepdims=True)
        w[: m // 4] = np.sign(g[: m // 4]) * e[: m // 4, :d] / e[: m // 4, :d].sum(axis=1, keepdims=True)
        return w * net.radius
    return rng.uniform(net.low, net.high, size=(m, d))


def covering_check(bound=covering_bound, nets=None):
    """Lemma 2 on concrete sets: a verified zeta-net of size ``<= bound`` confirms; a volumetric
    lower bound on every zeta-net exceeding ``bound`` refutes; otherwise inconclusive.
    """

    def check(ctx):
        rng = ctx.rng("wang-xu.lemma2.covering-number")
        cases = nets if nets is not None else [
            L2BallNet(1.0, z, d) for d in (1, 2, 3) for z in (0.05, 0.3, 1.0)] + [
            L1BallNet(1.0, z, d) for d in (1, 2, 3) for z in (0.05, 0.3)] + [
            BoxNet(-1.0, 1.0, z, d) for d in (1, 2, 3) for z in (0.05, 0.3)]
        m = 2000 if ctx.profile == "quick" else 50000
        rows, confirmed, refuted = [], True, False
        for net in cases:
            pts = net.points()
            w = _sample_in(net, m, rng)
            dist, _ = cKDTree(pts).query(w)
            covers = bool(dist.max() <= net.zeta * (1 + 1e-12))
            b = bound(net.diameter, net.zeta, net.dim)
            lower = volumetric_lower_bound(net.volume, net.zeta, net.dim)
            rows.append({"net": type(net).__name__, "dim": net.dim, "zeta": net.zeta, "size": int(pts.shape[0]),
                         "bound": b, "volumetric_lower_bound": lower, "max_distance_over_zeta":
                         float(dist.max() / net.zeta)})
            confirmed &= covers and pts.shape[0] <= b
            refuted |= lower > b
        verdict = "refuted" if refuted else ("confirmed" if confirmed else "inconclusive")
        return Result(verdict, {"method": "explicit grid nets (covering verified on random and boundary points)"
                                          " vs volumetric lower bound", "cases": rows})

    return check


# --------------------------------------------------------------------------- registry

def register(registry):
    registry.add_algorithm(Algorithm(
        "wang-xu-1", "000, Algorithm 1 (Theorem 1)",
        "exponential mechanism over a zeta-net with the truncated l1 risk (2), psi of eq. (6)",
        variants=("printed", "standard"), mechanism=functools.partial(make_mechanism, 1)))
    registry.add_algorithm(Algorithm(
        "wang-xu-2", "000, Algorithm 2 (Theorem 2)",
        "exponential mechanism over a zeta-net with the truncated l1 risk (2), psi of eq. (16)",
        variants=("printed", "standard"), mechanism=functools.partial(make_mechanism, 2)))

    claim = registry.add_claim
    for alg, thm, expo in ((1, "Theorem 1", "exp(-n iota eps L-hat / log 2)"),
                           (2, "Theorem 2", "exp(-n iota eps L-hat / log theta)")):
        claim(Claim(f"wang-xu.alg{alg}.privacy.printed", f"000, Algorithm {alg}, {thm}",
                    f"Algorithm {alg} with output probability proportional to {expo} is eps-DP.",
                    "privacy", privacy_check(alg, "printed"), algorithm=f"wang-xu-{alg}", variant="printed"))
        claim(Claim(f"wang-xu.alg{alg}.privacy.standard", f"000, Definition 2 with the sensitivity of {thm}'s proof",
                    f"Algorithm {alg} calibrated as exp(eps u / (2 Delta)), u = -L-hat, Delta = 2 log theta/(n iota), "
                    "is eps-DP.",
                    "privacy", privacy_check(alg, "standard"), algorithm=f"wang-xu-{alg}", variant="standard"))
    claim(Claim("wang-xu.sensitivity.eq6", "000, text below eq. (6); proof of Theorem 1",
                "With psi of (6), the sensitivity of L-hat_iota(w, D) is at most 2 log 2 / (n iota).",
                "sensitivity", sensitivity_check(stated_sensitivity_eq6, (2.0,), claim_id="wang-xu.sensitivity.eq6"),
                algorithm="wang-xu-1"))
    claim(Claim("wang-xu.sensitivity.eq16.text", "000, text before Algorithm 2",
                "With psi of (16), the sensitivity of L-hat_iota(w, D) is at most 2 log theta / (2 n iota).",
                "sensitivity", sensitivity_check(stated_sensitivity_eq16_text, THETAS_QUICK,
                                                 claim_id="wang-xu.sensitivity.eq16.text"), algorithm="wang-xu-2"))
    claim(Claim("wang-xu.sensitivity.eq16.proof", "000, proof of Theorem 2",
                "With psi of (16), the sensitivity of the score L-hat_iota is at most 2 log theta / (n iota).",
                "sensitivity", sensitivity_check(stated_sensitivity_eq16_proof, THETAS_QUICK,
                                                 claim_id="wang-xu.sensitivity.eq16.proof"), algorithm="wang-xu-2"))
    claim(Claim("wang-xu.psi.eq6.inequality-3", "000, eqs. (3) and (6)",
                "psi of (6) satisfies -log(1 - x + x^2/2) <= psi(x) <= log(1 + x + x^2/2).",
                "inequality", psi_inequality_check((2.0,), claim_id="wang-xu.psi.eq6.inequality-3"),
                algorithm="wang-xu-1"))
    claim(Claim("wang-xu.psi.eq6.non-decreasing", "000, eq. (6) and the text below it",
                "psi of (6) is non-decreasing.", "inequality", psi_monotone_check((2.0,)), algorithm="wang-xu-1"))
    claim(Claim("wang-xu.psi.eq6.bounded", "000, text below eq. (6)",
                "psi of (6) is bounded by log 2 in absolute value.", "inequality", psi_bounded_check((2.0,)),
                algorithm="wang-xu-1"))
    claim(Claim("wang-xu.psi.eq6.odd", "000, eq. (6) and the text below it",
                "psi of (6) is odd: psi(-x) = -psi(x).", "inequality", psi_odd_check((2.0,)),
                algorithm="wang-xu-1"))
    claim(Claim("wang-xu.psi.eq16.odd", "000, eq. (16) and the text around it",
                "psi of (16) is odd: psi(-x) = -psi(x).", "inequality", psi_odd_check(THETAS_QUICK),
                algorithm="wang-xu-2"))
    claim(Claim("wang-xu.psi.eq16.inequality-15", "000, eqs. (15) and (16)",
                "psi of (16) satisfies -log(1 - x + |x|^theta/theta) <= psi(x) <= log(1 + x + |x|^theta/theta).",
                "inequality", psi_inequality_check(THETAS_QUICK, claim_id="wang-xu.psi.eq16.inequality-15"),
                algorithm="wang-xu-2"))
    claim(Claim("wang-xu.psi.eq16.non-decreasing", "000, eq. (16) and the text around it",
                "psi of (16) is non-decreasing.", "inequality", psi_monotone_check(THETAS_QUICK),
                algorithm="wang-xu-2"))
    claim(Claim("wang-xu.psi.eq16.bounded", "000, text after Algorithm 2",
                "psi of (16) is bounded by log theta in absolute value.", "inequality",
                psi_bounded_check(THETAS_QUICK), algorithm="wang-xu-2"))
    claim(Claim("wang-xu.lemma2.covering-number", "000, Lemma 2 (Vershynin 2018)",
                "A bounded W in R^d of diameter Delta has covering number N(W, zeta) <= (3 Delta / zeta)^d.",
                "inequality", covering_check()))
