"""Python interface of the auditor: :func:`audit`, :func:`audit_algorithm` and a privacy-claim check factory.

``audit`` judges a claim "M is (epsilon, delta)-DP" on neighbouring datasets:

* **exact** when the mechanism has ``log_prob(data) -> (outputs, log_probabilities)``
  (finite output set): the exact epsilon at ``delta`` (hockey-stick) of the given
  pairs, or of the worst pair found by :func:`~proofs_checks.audit.neighbours.search_exact`
  (adversarial heavy-tailed replacements, all candidate pairs, hill climbing);
  ``epsilon_lower`` is then the exact privacy loss found;
* **statistical** otherwise: :func:`~proofs_checks.audit.statistical.statistical_audit`
  on the given pairs or on a few opposite-extreme replacements of one record;
  ``epsilon_lower`` is a lower confidence bound.

The verdict is ``"refuted"`` exactly when ``epsilon_lower`` exceeds the claimed
epsilon (for exact audits, by more than float64 rounding: relative 1e-9),
``"not refuted"`` otherwise.
"""

from __future__ import annotations

import math
import time
from dataclasses import asdict, dataclass, field

import numpy as np

from ..report import to_jsonable
from ..claims import Result
from .neighbours import (black_box_pairs, check_neighbouring, default_dataset, differing_rows, domain_projector,
                         exact_pair_epsilon, search_exact)
from .statistical import check_confidence, check_samples, statistical_audit

__all__ = ["AuditResult", "audit", "resolve_mechanism", "audit_algorithm", "privacy_audit_check", "algorithm_audit_claims",
           "QUICK", "FULL", "EXACT_SLACK"]

#: Relative slack for float64 rounding when an exact loss is compared with the claim.
EXACT_SLACK = 1e-9

#: Default budget of the exact neighbour search (candidate evaluations) outside verify.
DEFAULT_SEARCH = {"cheap": 20_000, "expensive": 40}


def _expensive(mech):
    """True when log_prob is declared expensive and there is no O(K d) rescoring."""
    incremental = hasattr(mech, "score_terms") and hasattr(mech, "log_prob_from_terms")
    return not incremental and bool(getattr(mech, "expensive_log_prob", False))


#: Sizes of the verify profiles: statistical calls, exact-search evaluations (cheap / expensive log_prob).
QUICK = {"samples": 20_000, "evaluations": 2_000, "expensive_evaluations": 6, "refine_steps": 10}
FULL = {"samples": 1_000_000, "evaluations": 50_000, "expensive_evaluations": 200, "refine_steps": 40}


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


def resolve_mechanism(algorithm_id, variant=None, epsilon=None, delta=None, registry=None, **params):
    """Build the mechanism of a registered algorithm id (registry first, then the primitives' fallback).

    Returns ``(mechanism, algorithm, variant, epsilon, delta)`` with defaults
    filled in.  Raises KeyError naming the known ids for an unknown id, and
    ValueError for a variant the algorithm does not have.
    """
    from ..claims import default_registry
    from .primitive_mechanisms import PRIMITIVE_DEFAULTS, PRIMITIVE_FACTORIES

    reg = registry if registry is not None else default_registry()
    try:
        alg = reg.algorithm(algorithm_id)
    except KeyError:
        known = sorted({a.id for a in reg.algorithms if a.mechanism is not None} | set(PRIMITIVE_FACTORIES))
        raise KeyError(f"unknown algorithm id {algorithm_id!r}; auditable ids: {', '.join(known)}") from None
    factory = alg.mechanism or PRIMITIVE_FACTORIES.get(alg.id)
    if factory is None:
        raise ValueError(f"algorithm {algorithm_id!r} registers no mechanism factory; nothing to audit")
    if variant is None:
        variant = "standard" if "standard" in alg.variants else alg.variants[0]
    if variant not in alg.variants:
        raise ValueError(f"variant {variant!r} not available for {algorithm_id!r}; choose from {alg.variants}")
    d_eps, d_delta = PRIMITIVE_DEFAULTS.get(alg.id, (1.0, alg.default_delta or 0.0))
    epsilon = d_eps if epsilon is None else epsilon
    delta = d_delta if delta is None else delta
    mech = factory(variant=variant, epsilon=epsilon, delta=delta, **params)
    return mech, alg, variant, float(epsilon), float(delta)


def _check_mechanism(mechanism):
    if mechanism is None:
        raise TypeError("give a mechanism object or an algorithm id")
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


def audit(mechanism=None, *, algorithm=None, variant=None, epsilon=None, delta=None, pairs=None,
          neighbours=None, data=None, any_pair=False, samples=100_000, confidence=0.95, seed=0, jobs=1,
          method="auto", statistic="auto", search_evaluations=None, refine_steps=30, registry=None,
          name=None, **params):
    """Audit "mechanism is (epsilon, delta)-DP"; return an :class:`AuditResult`.

    Parameters
    ----------
    mechanism : object, optional
        ``sample(data, size, rng)``; optionally ``log_prob(data)`` (exact audit),
        ``log_density(data, outputs)``, ``score_terms``/``log_prob_from_terms``.
    algorithm : str, optional
        A registered algorithm id instead of ``mechanism`` (built by its factory
        with ``variant``, ``epsilon``, ``delta`` and ``**params``).
    epsilon, delta : float
        The claim (required with ``mechanism``; defaults of the algorithm otherwise).
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
    """
    start = time.perf_counter()
    samples = check_samples(samples)
    confidence = check_confidence(confidence)
    if method not in ("auto", "exact", "statistical"):
        raise ValueError(f"method must be 'auto', 'exact' or 'statistical', got {method!r}")
    if algorithm is not None:
        if mechanism is not None:
            raise ValueError("give either mechanism or algorithm, not both")
        mechanism, alg, variant, epsilon, delta = resolve_mechanism(algorithm, variant, epsilon, delta,
                                                                    registry, **params)
        name = alg.id
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
        verdict = "refuted" if eps_found > epsilon * (1 + EXACT_SLACK) + 1e-12 else "not refuted"
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


class _SingleRegistry:
    """A registry holding one algorithm (lets :func:`audit_algorithm` take an Algorithm object)."""

    def __init__(self, alg):
        self.algorithms = [alg]

    def algorithm(self, algorithm_id):
        if algorithm_id != self.algorithms[0].id:
            raise KeyError(f"unknown algorithm id {algorithm_id!r}")
        return self.algorithms[0]


def audit_algorithm(algorithm, variant=None, epsilon=None, delta=None, *, profile="quick", seed=0, jobs=1,
                    confidence=0.95, **params):
    """Audit a registered :class:`~proofs_checks.claims.Algorithm` (or id) with the sizes of a verify profile.

    Exact when the mechanism has ``log_prob`` (search budget: ``QUICK``/``FULL``
    ``evaluations``, or ``expensive_evaluations`` when the mechanism sets
    ``expensive_log_prob = True`` and has no O(K d) rescoring), statistical
    otherwise (``samples``).
    """
    from .primitive_mechanisms import PRIMITIVE_FACTORIES

    sizes = QUICK if profile == "quick" else FULL
    alg_id = algorithm if isinstance(algorithm, str) else algorithm.id
    if not isinstance(algorithm, str):
        factory = algorithm.mechanism or PRIMITIVE_FACTORIES.get(alg_id)
        if factory is None:
            raise ValueError(f"algorithm {alg_id!r} registers no mechanism factory; nothing to audit")

        registry = _SingleRegistry(algorithm)
    else:
        registry = None
    mech, alg, variant, epsilon, delta = resolve_mechanism(alg_id, variant, epsilon, delta, registry, **params)
    budget = sizes["expensive_evaluations"] if _expensive(mech) else sizes["evaluations"]
    return audit(mech, epsilon=epsilon, delta=delta, variant=variant, samples=sizes["samples"],
                 confidence=confidence, seed=seed, jobs=jobs, search_evaluations=budget,
                 refine_steps=sizes["refine_steps"], name=alg_id)


def privacy_audit_check(algorithm, variant=None, epsilon=None, delta=None, claim_id=None, **params):
    """A claim check ``check(ctx) -> Result`` running :func:`audit_algorithm` with the context's profile.

    ``refuted`` when the audit refutes the claim.  Otherwise an exact audit
    gives ``confirmed`` (the exact privacy loss of every neighbouring pair the
    adversarial search visited is within epsilon, the standard of the other
    exact checks), and a statistical audit gives ``inconclusive``: a lower
    confidence bound can refute a claim, never establish it.  A mechanism that
    raises ``ValueError`` on an audited dataset (e.g. a printed formula that
    yields NaN) gives ``inconclusive`` with the error in the evidence.
    """
    def check(ctx):
        key = claim_id or f"audit.{algorithm if isinstance(algorithm, str) else algorithm.id}.{variant}"
        seed = int(ctx.seed_sequence(key).generate_state(1)[0])
        try:
            res = audit_algorithm(algorithm, variant, epsilon, delta, profile=ctx.profile, seed=seed,
                                  jobs=ctx.jobs, **params)
        except (ValueError, FloatingPointError) as exc:
            return Result("inconclusive", {"error": f"{type(exc).__name__}: {exc}",
                                           "note": "the mechanism raised on an audited dataset"}, seed=seed)
        if res.verdict == "refuted":
            verdict = "refuted"
        else:
            verdict = "confirmed" if res.method == "exact" else "inconclusive"
        return Result(verdict, res.as_dict(), seed=seed)

    return check


def algorithm_audit_claims(registry, *, skip=(), epsilon=None, delta=None):
    """One privacy claim per (auditable algorithm, variant) of ``registry``, judged by the auditor.

    An algorithm is auditable when it registers a ``mechanism`` factory (or is a
    primitive of :data:`~proofs_checks.audit.primitive_mechanisms.PRIMITIVE_FACTORIES`).
    Claim ids are ``audit.<algorithm id>.<variant>``; ids in ``skip`` (or already
    registered) are left out.  Meant to be called after every claim set has
    registered, e.g. by ``verify``::

        for claim in algorithm_audit_claims(reg):
            reg.add_claim(claim)
    """
    from ..claims import Claim
    from .primitive_mechanisms import PRIMITIVE_FACTORIES

    existing = {c.id for c in getattr(registry, "claims", [])}
    out = []
    for alg in registry.algorithms:
        if alg.mechanism is None and alg.id not in PRIMITIVE_FACTORIES:
            continue
        for variant in alg.variants:
            cid = f"audit.{alg.id}.{variant}"
            if cid in skip or cid in existing:
                continue
            out.append(Claim(cid, alg.source,
                             f"{alg.id} ({variant}) is DP at its claimed parameters (auditor, adversarial neighbours).",
                             "privacy", privacy_audit_check(alg, variant, epsilon, delta, claim_id=cid),
                             algorithm=alg.id, variant=variant))
    return out
