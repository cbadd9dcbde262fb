"""Audits of zCDP, Renyi-DP and mu-GDP claims on one neighbouring pair: exact from the laws, or statistical.

**Exact** (``log_prob``, or ``log_density`` with one-column outputs): the claim's parameter of the pair itself --
:func:`~proofs_checks.audit.renyi.law_renyi` / :func:`~proofs_checks.audit.renyi.density_renyi` (zCDP: their
largest ``D_alpha / alpha`` over the fixed orders :data:`~proofs_checks.audit.renyi.ZCDP_ALPHAS`),
:func:`~proofs_checks.audit.gdp.law_gdp` or, for densities, :func:`~proofs_checks.audit.gdp.mu_from_curve` of the
exact privacy curve on a fixed grid.  Each is the true value or a lower bound on it (a grid of orders or epsilons
only lowers it), so the verdict is ``refuted`` exactly when it exceeds the claim beyond the arithmetic's tolerance
(relative 1e-9 for laws, 1e-6 for quadrature).

**Statistical** (any mechanism with ``sample``): the recipe of the (epsilon, delta) audit with the claim's own
bound.  ``samples / 2`` calls per dataset; a fifth of them (the selection split) chooses one event ``S = {sign *
s > t}`` and its direction among thresholds at 255 quantiles of a statistic ``s`` (the exact log-likelihood ratio
when the mechanism gives it, the output when it has one column, else a user ``statistic``), scoring each by the
bound predicted at the estimation size from the selection frequencies; the other calls (fresh) count ``S`` on both
datasets, and exact one-sided Clopper-Pearson bounds, each at error ``(1 - confidence)/2``, give ``p_low <= P(S)``
and ``q_high >= Q(S)`` together with probability at least ``confidence``.  On that event the claim's bound
(:mod:`~proofs_checks.audit.claim_types`: data processing for Renyi and zCDP, the trade-off point for GDP) holds, so
the reported number is a lower confidence bound on the claim's parameter and a correct claim is refuted with
probability at most ``1 - confidence``.
"""

from __future__ import annotations

import math
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Optional

import numpy as np
from scipy.stats import beta as beta_law

from reference.validation import check_integer

from .checks import check_confidence
from .claim_types import Claim, GDPClaim, RenyiClaim, ZCDPClaim, parse_claim
from .confidence_bounds import clopper_pearson_bounds
from .gdp import law_gdp, mu_from_curve
from .renyi import density_renyi, law_renyi, zcdp_from_renyi
from .sampling import draw_outputs

__all__ = ["ClaimAuditResult", "audit_claim", "DENSITY_GDP_GRID", "SELECTION_FRACTION"]

#: Share of each dataset's calls spent choosing the event.
SELECTION_FRACTION = 0.2
#: One-sided error of the selection counts' bounds that score the candidate events (a heuristic: any choice is sound).
SELECTION_ERROR = 0.05
#: Quantile levels of the pooled selection statistic tried as thresholds.
THRESHOLD_LEVELS = np.linspace(0.0, 1.0, 257)[1:-1]
#: Epsilons at which the exact privacy curve of two densities is compared with the GDP profile.
DENSITY_GDP_GRID = (0.0, 0.25, 0.5, 1.0, 2.0, 3.0)
#: Points of the exact curve below this delta are not used: the quadrature's absolute error (1e-12) would move mu.
MIN_CURVE_DELTA = 1e-6
#: Relative tolerance of exact verdicts: float64 sums of laws, and quadrature of densities.
LAW_TOLERANCE, DENSITY_TOLERANCE = 1e-9, 1e-6
METHODS = ("auto", "exact", "statistical")


@dataclass
class ClaimAuditResult:
    """Outcome of :func:`audit_claim`: the claim, the lower bound on its parameter and the verdict.

    ``bound`` is the claim's parameter of the pair (exact) or a lower confidence bound on it (statistical),
    named by ``bound_name`` (``rho_lower``, ``eps_alpha_lower``, ``mu_lower``); ``verdict`` is ``refuted`` exactly
    when it exceeds the claimed value (exact: beyond ``details["tolerance"]``).

    Parameters
    ----------
    name : str
        The mechanism's name.
    claim : dict
        The parsed claim (:func:`~proofs_checks.audit.claim_types.parse_claim`): its type and parameters.
    method : str
        ``"exact"`` or ``"statistical"``.
    bound_name : str
        ``"rho_lower"``, ``"eps_alpha_lower"`` or ``"mu_lower"``.
    bound : float
        The pair's parameter (exact) or its lower confidence bound (statistical); may be ``inf``.
    verdict : str
        ``"refuted"`` or ``"not refuted"``.
    confidence : float or None
        The statistical bound's confidence; ``None`` for exact audits.
    samples : int
        Mechanism calls used (0 for exact audits).
    seed : int
        The audit's seed.
    seconds : float
        Wall time of the audit.
    details : dict
        Method-specific numbers (orders, events, counts, the exact tolerance).

    Examples
    --------
    >>> from proofs_checks.audit.calibration import GaussianCount
    >>> g = GaussianCount(sigma=1.0)
    >>> result = audit_claim(g, "zcdp:0.5", g.pair())
    >>> result.bound_name, result.verdict, result.samples
    ('rho_lower', 'not refuted', 0)
    """

    name: str
    claim: dict
    method: str
    bound_name: str
    bound: float
    verdict: str
    confidence: Optional[float]
    samples: int
    seed: int
    seconds: float
    details: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        """A JSON-ready dict (``inf`` as the string ``"inf"``)."""
        out = asdict(self)
        out[self.bound_name] = out["bound"] = "inf" if math.isinf(self.bound) else float(self.bound)
        return out


def _has(mechanism, name):
    return callable(getattr(mechanism, name, None))


def _one_column(mechanism, D, seed):
    out = np.asarray(mechanism.sample(D, 2, np.random.default_rng(seed)))
    return out.reshape(2, -1).shape[1] == 1


def _exact(mechanism, claim, D, Dp, seed):
    from .curves import _density_breakpoints, density_curve
    from .datasets import mechanism_law
    from .laws import align_laws

    if _has(mechanism, "log_prob"):
        _, lp, lq = align_laws(mechanism_law(mechanism, D, "D"), mechanism_law(mechanism, Dp, "D_prime"))
        renyi = lambda a: law_renyi(lp, lq, a)  # noqa: E731
        gdp = lambda: law_gdp(lp, lq)  # noqa: E731
        tol, source = LAW_TOLERANCE, "log_prob"
    else:
        pts = _density_breakpoints(mechanism, D, Dp, np.random.default_rng(np.random.SeedSequence([seed, 11])))
        dp = lambda x: np.asarray(mechanism.log_density(D, x[:, None]), dtype=np.float64)  # noqa: E731
        dq = lambda x: np.asarray(mechanism.log_density(Dp, x[:, None]), dtype=np.float64)  # noqa: E731
        renyi = lambda a: density_renyi(dp, dq, a, pts)  # noqa: E731

        def gdp():
            deltas = density_curve(dp, dq, DENSITY_GDP_GRID, pts)
            return mu_from_curve(DENSITY_GDP_GRID, np.where(deltas >= MIN_CURVE_DELTA, deltas, 0.0))

        tol, source = DENSITY_TOLERANCE, "log_density (quadrature)"
    extra: dict[str, Any] = {"source": source, "tolerance": tol}
    if isinstance(claim, ZCDPClaim):
        value, alpha = zcdp_from_renyi(renyi)
        extra["alpha"] = alpha
    elif isinstance(claim, RenyiClaim):
        value = renyi(claim.alpha)
    else:
        value = gdp()
    refuted = value > claim.value * (1.0 + tol)
    return value, refuted, extra


def _predicted_bounds(p_hat, q_hat, n, gamma):
    """Clopper-Pearson bounds at error ``gamma`` for the expected counts ``p_hat n``, ``q_hat n``."""
    kp, kq = p_hat * n, q_hat * n
    with np.errstate(invalid="ignore", divide="ignore"):
        lo = np.where(kp > 0, beta_law.ppf(gamma, np.maximum(kp, 1e-300), n - kp + 1), 0.0)
        hi = np.where(kq < n, beta_law.ppf(1 - gamma, kq + 1, np.maximum(n - kq, 1e-300)), 1.0)
    return lo, hi


def _candidates(s_D, s_Dp):
    """Every (sign, threshold, forward) with selection frequencies on both datasets."""
    rows = []
    for sign in (1.0, -1.0):
        a, b = np.sort(sign * s_D), np.sort(sign * s_Dp)
        ts = np.unique(np.quantile(np.concatenate([a, b]), THRESHOLD_LEVELS))
        fa = 1.0 - np.searchsorted(a, ts, side="right") / a.size
        fb = 1.0 - np.searchsorted(b, ts, side="right") / b.size
        for forward, (p_hat, q_hat) in ((True, (fa, fb)), (False, (fb, fa))):
            rows.extend((sign, float(t), forward, float(p), float(q)) for t, p, q in zip(ts, p_hat, q_hat))
    return rows


def _statistic(mechanism, D, Dp, statistic, seed):
    from .candidates import ExactLogRatio

    if statistic is not None:
        if not callable(statistic):
            raise TypeError(f"statistic must be a callable mapping outputs to one number each, got {statistic!r}")
        return statistic, "user statistic"
    if _has(mechanism, "log_density") or _has(mechanism, "log_prob"):
        return ExactLogRatio(mechanism, D, Dp), "exact log-likelihood ratio"
    if _one_column(mechanism, D, np.random.SeedSequence([seed, 13])):
        return (lambda rows: rows[:, 0]), "output"
    raise ValueError("a black box with several output columns needs statistic= (outputs -> one number each)")


def _statistical(mechanism, claim, D, Dp, samples, confidence, seed, jobs, statistic):
    stat, stat_name = _statistic(mechanism, D, Dp, statistic, seed)
    n = samples // 2
    n_sel = max(50, int(n * SELECTION_FRACTION))
    n_est = n - n_sel
    sel_D, sel_Dp, est_D, est_Dp = np.random.SeedSequence(seed).spawn(4)

    def values(data, size, ss, where):
        v = np.asarray(stat(draw_outputs(mechanism, data, size, ss, jobs=jobs, where=where)), dtype=np.float64)
        return v.reshape(size)

    cands = _candidates(values(D, n_sel, sel_D, "D"), values(Dp, n_sel, sel_Dp, "D_prime"))
    gamma = (1.0 - confidence) / 2.0
    # pessimistic frequencies (selection counts' own bounds at SELECTION_ERROR) curb the winner's curse of thin tails
    p_sel, q_sel = _predicted_bounds(
        np.array([c[3] for c in cands]), np.array([c[4] for c in cands]), n_sel, SELECTION_ERROR
    )
    lo, hi = _predicted_bounds(p_sel, q_sel, n_est, gamma)
    scores = np.nan_to_num(claim.bounds_from_events(lo, hi), nan=0.0, posinf=np.finfo(float).max)
    sign, t, forward, _, _ = cands[int(np.argmax(scores))]
    on_D = np.count_nonzero(sign * values(D, n_est, est_D, "D") > t)
    on_Dp = np.count_nonzero(sign * values(Dp, n_est, est_Dp, "D_prime") > t)
    k, k2 = (on_D, on_Dp) if forward else (on_Dp, on_D)
    p_low, q_high = clopper_pearson_bounds(k, n_est, k2, n_est, confidence)
    value, extra = claim.bound_from_event(p_low, q_high)
    event = {"statistic": stat_name, "sign": sign, "threshold": t, "direction": "D vs D'" if forward else "D' vs D"}
    extra.update(event=event, counts=[int(k), int(n_est), int(k2), int(n_est)], p_low=p_low, q_high=q_high)
    extra["selection_samples"] = 2 * n_sel
    return value, value > claim.value, extra


def audit_claim(
    mechanism: Any,
    claim: Claim | str,
    pair: tuple,
    *,
    method: str = "auto",
    samples: int = 200_000,
    confidence: float = 0.95,
    seed: int = 0,
    jobs: int = 1,
    statistic: Optional[Callable] = None,
    name: Optional[str] = None,
) -> ClaimAuditResult:
    """Audit a zCDP, Renyi-DP or mu-GDP claim of ``mechanism`` on one neighbouring pair (module notes).

    Parameters
    ----------
    mechanism : object
        ``sample(data, size, rng)``; optionally ``log_prob`` or ``log_density`` (the exact path).
    claim : ZCDPClaim or RenyiClaim or GDPClaim or str
        The claim, or its text (``zcdp:RHO``, ``renyi:ALPHA:EPS``, ``gdp:MU``).
    pair : tuple
        ``(D, D_prime)``, 2-D arrays of records, taken as given.
    method : {"auto", "exact", "statistical"}
        ``auto``: exact when the mechanism gives ``log_prob``, or ``log_density`` with one-column outputs.
    samples : int
        Mechanism calls of a statistical audit, both datasets (>= 200).
    confidence : float
        Confidence of the statistical bound, in (0, 1).
    seed : int
        Seed of every random draw (>= 0).
    jobs : int
        Parallel workers of the draws (results do not depend on it).
    statistic : callable, optional
        Outputs ``(n, k)`` -> ``(n,)`` scores for a black box with several output columns.
    name : str, optional
        Name reported; the mechanism's class name when not given.

    Returns
    -------
    ClaimAuditResult

    Raises
    ------
    TypeError, ValueError
        A bad argument (named), or ``method="exact"`` for a mechanism without a usable law.

    References
    ----------
    .. [1] M. Jagielski, J. Ullman and A. Oprea, "Auditing differentially private machine learning", NeurIPS 2020
           (the recipe: search an event, certify it on fresh samples).

    Examples
    --------
    >>> from proofs_checks.audit.calibration import GaussianCount
    >>> g = GaussianCount(sigma=1.0)  # sensitivity 1: rho = 1/2, mu = 1
    >>> audit_claim(g, "zcdp:0.5", g.pair()).verdict
    'not refuted'
    >>> audit_claim(g, "gdp:0.5", g.pair()).verdict
    'refuted'
    """
    t0 = time.perf_counter()
    claim = parse_claim(claim) if isinstance(claim, str) else claim
    if not isinstance(claim, (ZCDPClaim, RenyiClaim, GDPClaim)):
        raise TypeError(f"claim must be a ZCDPClaim, RenyiClaim, GDPClaim or its text, got {claim!r}")
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    samples = check_integer("samples", samples, minimum=200)
    seed = check_integer("seed", seed, minimum=0)
    jobs = check_integer("jobs", jobs, minimum=1)
    confidence = check_confidence(confidence)
    if not (isinstance(pair, (tuple, list)) and len(pair) == 2):
        raise TypeError(f"pair must be a tuple (D, D_prime), got {type(pair).__name__}")
    D, Dp = (np.asarray(x, dtype=np.float64) for x in pair)
    if D.ndim != 2 or Dp.ndim != 2:
        raise ValueError(f"pair must hold two 2-D arrays of records, got shapes {D.shape} and {Dp.shape}")
    if not _has(mechanism, "sample"):
        raise TypeError(f"mechanism {mechanism!r} has no sample(data, size, rng)")
    has_law = _has(mechanism, "log_prob") or (
        _has(mechanism, "log_density") and _one_column(mechanism, D, np.random.SeedSequence([seed, 13]))
    )
    if method == "exact" and not has_law:
        raise ValueError("method='exact' needs log_prob, or log_density with one-column outputs")
    exact = method == "exact" or (method == "auto" and has_law)
    if exact:
        value, refuted, details = _exact(mechanism, claim, D, Dp, seed)
    else:
        value, refuted, details = _statistical(mechanism, claim, D, Dp, samples, confidence, seed, jobs, statistic)
    return ClaimAuditResult(
        name=name or type(mechanism).__name__,
        claim=claim.as_dict(),
        method="exact" if exact else "statistical",
        bound_name=claim.bound_name,
        bound=float(value),
        verdict="refuted" if refuted else "not refuted",
        confidence=None if exact else confidence,
        samples=0 if exact else 2 * (samples // 2),
        seed=seed,
        seconds=time.perf_counter() - t0,
        details=details,
    )
