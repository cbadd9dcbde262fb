"""Python interface of the auditor: :func:`audit` judges "this mechanism is (epsilon, delta)-DP".

``audit`` works on a mechanism object, on neighbouring datasets:

* **exact** when the mechanism has ``log_prob(data) -> (outputs, log_probabilities)``
  (finite output set): the exact epsilon at ``delta`` (hockey-stick) of the given
  pairs, or of the worst pair found by :func:`~proofs_checks.audit.neighbours.search_exact`
  (adversarial heavy-tailed replacements, all candidate pairs, hill climbing);
  ``epsilon_lower`` is then the exact privacy loss found;
* **statistical** otherwise: :func:`~proofs_checks.audit.statistical.statistical_audit`
  on the given pairs or on a few opposite-extreme replacements of one record;
  ``epsilon_lower`` is a lower confidence bound.

The verdict is ``"refuted"`` exactly when ``epsilon_lower`` exceeds the claimed
epsilon (for exact audits, by more than float64 rounding: :data:`EXACT_RTOL`,
:data:`EXACT_ATOL`), ``"not refuted"`` otherwise.

The auditor knows nothing of claims or of the registry: auditing a registered
algorithm by its id, and turning an audit into a claim's result, is the job of
:mod:`proofs_checks.audit_claims`.
"""

from __future__ import annotations

import math
import time
from dataclasses import asdict, dataclass, field

import numpy as np

from ..jsonable import to_jsonable
from ..verdicts import ROUNDING_ATOL, ROUNDING_RTOL
from .neighbours import (black_box_pairs, check_neighbouring, default_dataset, differing_rows, domain_projector,
                         exact_pair_epsilon, search_exact)
from .statistical import check_confidence, check_samples, statistical_audit

__all__ = ["AuditResult", "audit", "profile_options", "QUICK", "FULL", "EXACT_RTOL", "EXACT_ATOL"]

#: Float64 rounding allowed when an exact loss is compared with the claim (the rounding
#: tolerances of :mod:`proofs_checks.verdicts`): refuted when ``loss > epsilon (1 + EXACT_RTOL) + EXACT_ATOL``.
EXACT_RTOL, EXACT_ATOL = ROUNDING_RTOL, ROUNDING_ATOL

#: Default budget of the exact neighbour search (candidate evaluations) outside verify.
DEFAULT_SEARCH = {"cheap": 20_000, "expensive": 40}

#: Sizes of the verify profiles: statistical calls, exact-search evaluations (cheap / expensive log_prob).
QUICK = {"samples": 20_000, "evaluations": 2_000, "expensive_evaluations": 6, "refine_steps": 10}
FULL = {"samples": 1_000_000, "evaluations": 50_000, "expensive_evaluations": 200, "refine_steps": 40}


def _expensive(mech):
    """True when log_prob is declared expensive and there is no O(K d) rescoring."""
    incremental = hasattr(mech, "score_terms") and hasattr(mech, "log_prob_from_terms")
    return not incremental and bool(getattr(mech, "expensive_log_prob", False))


def profile_options(mechanism, profile="quick"):
    """Keyword arguments of :func:`audit` giving the sizes of a verify profile (:data:`QUICK`, :data:`FULL`).

    The exact search budget is ``evaluations``, or ``expensive_evaluations`` when the
    mechanism sets ``expensive_log_prob = True`` and has no O(K d) rescoring.
    """
    if profile not in ("quick", "full"):
        raise ValueError(f"profile must be 'quick' or 'full', got {profile!r}")
    sizes = QUICK if profile == "quick" else FULL
    budget = sizes["expensive_evaluations"] if _expensive(mechanism) else sizes["evaluations"]
    return {"samples": sizes["samples"], "search_evaluations": budget, "refine_steps": sizes["refine_steps"]}


@dataclass
class AuditResult:
    """Outcome of an audit; :meth:`as_dict` gives the CLI's JSON object."""

    algorithm: str
    variant: str | None
    claimed_epsilon: float
    claimed_delta: float
    method: str
    epsilon_lower: float
    confidence: float | None
    samples: int
    pair: str
    verdict: str
    seed: int
    seconds: float
    p_value: float | None = None
    details: dict = field(default_factory=dict)

    def as_dict(self):
        """Plain JSON types; infinite floats become the strings "inf" / "-inf" (strict JSON)."""
        return to_jsonable(asdict(self))


def _check_mechanism(mechanism):
    if mechanism is None:
        raise TypeError("give a mechanism object (an algorithm id is audited by proofs_checks.audit_claims)")
    if not callable(getattr(mechanism, "sample", None)):
        raise TypeError(f"mechanism {type(mechanism).__name__} has no callable sample(data, size, rng) method")


def _collect_pairs(pairs, neighbours, any_pair):
    out = []
    if pairs is not None:
        out.extend(pairs if isinstance(pairs, list) else [pairs] if isinstance(pairs, tuple) else list(pairs))
    if neighbours is not None:
        out.extend(list(neighbours() if callable(neighbours) else neighbours))
    checked = []
    for i, p in enumerate(out):
        if len(p) not in (2, 3):
            raise ValueError(f"pair {i} must be (D, D_prime), got {len(p)} items")
        D, Dp = check_neighbouring(p[0], p[1], any_pair=any_pair)
        desc = p[2] if len(p) == 3 else (f"user pair {i}" + (" (taken as given)" if any_pair else
                                                              f" (rows differ: {differing_rows(D, Dp).tolist()})"))
        checked.append((D, Dp, desc))
    return checked


def audit(mechanism=None, *, variant=None, epsilon=None, delta=None, pairs=None, neighbours=None, data=None,
          any_pair=False, samples=100_000, confidence=0.95, seed=0, jobs=1, method="auto", statistic="auto",
          search_evaluations=None, refine_steps=30, name=None):
    """Audit "mechanism is (epsilon, delta)-DP"; return an :class:`AuditResult`.

    Parameters
    ----------
    mechanism : object, optional
        ``sample(data, size, rng)``; optionally ``log_prob(data)`` (exact audit),
        ``log_density(data, outputs)``, ``score_terms``/``log_prob_from_terms``.
    variant : str, optional
        Label of the variant audited (reported, not used).
    epsilon, delta : float
        The claim (epsilon required; delta defaults to 0).
    pairs : (D, D_prime) or list of them, optional
    neighbours : callable returning an iterable of (D, D_prime), optional
    data : array, optional
        Base dataset for the neighbour search (default: :func:`default_dataset`).
    any_pair : bool
        Accept pairs that differ in more than one record.
    samples : int
        Total mechanism calls of a statistical audit (>= 100).
    confidence : float in (0, 1)
    seed : int
    jobs : int
    method : {"auto", "exact", "statistical"}
    statistic : {"auto", "exact", "estimate"}
        Passed to the statistical audit.
    search_evaluations : int, optional
        Budget of the exact neighbour search (default :data:`DEFAULT_SEARCH`).
    refine_steps : int
        Hill-climbing steps of the exact neighbour search.
    name : str, optional
        Name reported for the mechanism (default: its class name).

    To audit a registered algorithm by its id, use
    :func:`proofs_checks.audit_claims.audit_algorithm`.
    """
    start = time.perf_counter()
    samples = check_samples(samples)
    confidence = check_confidence(confidence)
    if method not in ("auto", "exact", "statistical"):
        raise ValueError(f"method must be 'auto', 'exact' or 'statistical', got {method!r}")
    _check_mechanism(mechanism)
    if epsilon is None:
        raise ValueError("epsilon (the claimed privacy parameter) is required when auditing a mechanism object")
    epsilon = float(epsilon)
    delta = 0.0 if delta is None else float(delta)
    if not (epsilon >= 0) or math.isinf(epsilon):
        raise ValueError(f"epsilon must be finite and >= 0, got {epsilon!r}")
    if not (0 <= delta < 1):
        raise ValueError(f"delta must be in [0, 1), got {delta!r}")
    name = name or type(mechanism).__name__
    given = _collect_pairs(pairs, neighbours, any_pair)
    use_exact = method == "exact" or (method == "auto" and callable(getattr(mechanism, "log_prob", None)))
    if method == "exact" and not callable(getattr(mechanism, "log_prob", None)):
        raise ValueError("method='exact' needs a mechanism with log_prob(data)")
    rng = np.random.default_rng(np.random.SeedSequence([int(seed), 6]))

    if use_exact:
        details = {}
        if given:
            best = None
            for D, Dp, desc in given:
                eps, direction = exact_pair_epsilon(mechanism, D, Dp, delta)
                if best is None or eps > best[0]:
                    best = (eps, f"{desc}; worst direction {direction}")
            eps_found, pair_desc = best
            details["pairs_evaluated"] = len(given)
        else:
            D = default_dataset(mechanism, rng) if data is None else np.asarray(data, dtype=np.float64)
            if search_evaluations is None:
                search_evaluations = DEFAULT_SEARCH["expensive" if _expensive(mechanism) else "cheap"]
            res = search_exact(mechanism, D, delta, rng, max_evaluations=search_evaluations,
                               refine_steps=refine_steps)
            eps_found, pair_desc = res.epsilon, res.description
            details.update({"candidates_evaluated": res.evaluated, "incremental": res.extra["incremental"],
                            "worst_direction": res.direction})
        verdict = "refuted" if eps_found > epsilon * (1 + EXACT_RTOL) + EXACT_ATOL else "not refuted"
        return AuditResult(name, variant, epsilon, delta, "exact", float(eps_found), None, 0, pair_desc,
                           verdict, int(seed), time.perf_counter() - start, None, details)

    if given:
        plist = [(D, Dp) for D, Dp, _ in given]
        descs = [d for _, _, d in given]
    else:
        D = default_dataset(mechanism, rng) if data is None else np.asarray(data, dtype=np.float64)
        made = black_box_pairs(D, project=domain_projector(mechanism))
        plist = [(a, b) for a, b, _ in made]
        descs = [d for _, _, d in made]
    res = statistical_audit(mechanism, plist, epsilon, delta, samples=samples, confidence=confidence,
                            seed=int(seed), jobs=jobs, statistic=statistic)
    details = {k: v for k, v in res.as_dict().items()
               if k in ("direction", "statistic", "threshold", "counts", "p_low", "q_high", "selection_samples",
                        "estimation_samples", "seconds_mechanism", "seconds_auditor", "extra")}
    details["pairs_considered"] = len(plist)
    return AuditResult(name, variant, epsilon, delta, "statistical", res.epsilon_lower, confidence, res.samples,
                       descs[res.pair_index], res.verdict, int(seed), time.perf_counter() - start,
                       res.p_value, details)
