"""Python interface of the auditor: :func:`audit` judges "this mechanism is (epsilon, delta)-DP".

``audit`` works on a mechanism object, on neighbouring datasets:

* **exact** when the mechanism has ``log_prob(data) -> (outputs, log_probabilities)``
  (finite output set): the exact epsilon at ``delta`` (hockey-stick) of the given
  pairs, or of the worst pair found by :func:`~proofs_checks.audit.neighbours.search_exact`
  (adversarial heavy-tailed replacements, all candidate pairs, then multi-start hill climbing
  over the replaced records, the other rows, the dataset size and the replaced row; budget
  ``search_budget`` law evaluations);
  ``epsilon_lower`` is then the exact privacy loss found;
* **statistical** otherwise: :func:`~proofs_checks.audit.statistical.statistical_audit`
  on the given pairs or on :func:`~proofs_checks.audit.neighbours.black_box_pairs` (the
  StatDP / DP-Sniper input patterns carried to one replaced record, deduplicated, at most
  ``search_budget`` pairs);
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
import sys
import time
from dataclasses import asdict, dataclass, field, replace

import numpy as np

from ..jsonable import to_jsonable
from ..verdicts import ROUNDING_ATOL, ROUNDING_RTOL
from reference.validation import check_epsilon, check_integer, check_probability

from .classifiers import check_attack
from .features import check_features
from .laws import LawError, align_laws, sampler_check
from .neighbours import (CANNOT_RUN, black_box_pairs, check_neighbouring, default_dataset, differing_rows,
                         domain_projector, exact_pair_epsilon, mechanism_law, search_exact)

__all__ = ["AuditResult", "MechanismError", "NoRunnablePair", "SAMPLER_SAMPLES", "audit", "profile_options", "QUICK", "FULL", "EXACT_RTOL", "EXACT_ATOL"]

#: Float64 rounding allowed when an exact loss is compared with the claim (the rounding
#: tolerances of :mod:`proofs_checks.verdicts`): refuted when ``loss > epsilon (1 + EXACT_RTOL) + EXACT_ATOL``.
EXACT_RTOL, EXACT_ATOL = ROUNDING_RTOL, ROUNDING_ATOL

#: Default budget of the exact neighbour search (law evaluations) outside verify.
DEFAULT_SEARCH = {"cheap": 20_000, "expensive": 40}

#: Default budget of the black-box search: distinct neighbouring pairs sharing the selection split.
DEFAULT_PAIRS = 12

#: Draws per dataset of the exact audit's sampler check outside verify: with two datasets of up to
#: four outcomes it detects a 10% change of any outcome of probability >= 1e-3 with probability
#: 0.95 at error 0.05 (:func:`~proofs_checks.audit.laws.detectable_change` gives 0.098).
SAMPLER_SAMPLES = 2_000_000

#: Sizes of the verify profiles: statistical calls, exact-search evaluations (cheap / expensive log_prob).
QUICK = {"samples": 20_000, "evaluations": 2_000, "expensive_evaluations": 6, "refine_steps": 10,
         "sampler_samples": 20_000}
FULL = {"samples": 1_000_000, "evaluations": 50_000, "expensive_evaluations": 200, "refine_steps": 40,
        "sampler_samples": 1_000_000}


def _expensive(mech):
    """True when log_prob is declared expensive and there is no O(K d) rescoring."""
    incremental = hasattr(mech, "score_terms") and hasattr(mech, "log_prob_from_terms")
    return not incremental and bool(getattr(mech, "expensive_log_prob", False))


def profile_options(mechanism, profile="quick"):
    """Keyword arguments of :func:`audit` giving the sizes of a verify profile (:data:`QUICK`, :data:`FULL`).

    The exact search budget (``search_budget``, for mechanisms with ``log_prob``) is
    ``evaluations``, or ``expensive_evaluations`` when the mechanism sets
    ``expensive_log_prob = True`` and has no O(K d) rescoring.
    """
    if profile not in ("quick", "full"):
        raise ValueError(f"profile must be 'quick' or 'full', got {profile!r}")
    sizes = QUICK if profile == "quick" else FULL
    out = {"samples": sizes["samples"], "refine_steps": sizes["refine_steps"], "sampler_samples": sizes["sampler_samples"]}
    if callable(getattr(mechanism, "log_prob", None)):     # the black-box search keeps DEFAULT_PAIRS
        out["search_budget"] = sizes["expensive_evaluations"] if _expensive(mechanism) else sizes["evaluations"]
    return out


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
    #: A statistical audit's pairs in the order they competed (the selection split is shared among them), for
    #: ``--counterexample`` / ``--replay``; not part of :meth:`as_dict` (the JSON carries the worst pair).
    compared_pairs: list | None = field(default=None, repr=False, compare=False)

    def as_dict(self):
        """Plain JSON types; infinite floats become the strings "inf" / "-inf" (strict JSON)."""
        out = asdict(replace(self, compared_pairs=None))
        del out["compared_pairs"]
        return to_jsonable(out)


class MechanismError(RuntimeError):
    """A user's mechanism raised during an audit; the message names the mechanism and what it raised."""


class NoRunnablePair(MechanismError):
    """The mechanism cannot run on any of the neighbouring pairs the audit made: nothing was audited.

    Not a verdict on the mechanism's privacy (an adapter reports it as inconclusive), and not a
    bug of the auditor; ``skipped`` holds the count and the first errors.
    """

    def __init__(self, message, skipped):
        super().__init__(message)
        self.skipped = skipped


class MechanismCannotRun(ValueError):
    """The mechanism raised one of :data:`~proofs_checks.audit.neighbours.CANNOT_RUN` on a dataset.

    A ``ValueError``, so the neighbour search skips that dataset; raised out of :func:`audit` as
    :class:`MechanismError`.
    """


def _check_mechanism(mechanism):
    if mechanism is None:
        raise TypeError("give a mechanism object (an algorithm id is audited by proofs_checks.audit_claims)")
    if not callable(getattr(mechanism, "sample", None)):
        raise TypeError(f"mechanism {type(mechanism).__name__} has no callable sample(data, size, rng) method")


def _check_data(name, value):
    arr = np.asarray(value)
    if arr.ndim < 2 or arr.shape[0] == 0 or arr.size == 0:
        raise ValueError(f"{name} must be a non-empty 2-D array of records (rows), got shape {arr.shape}")
    return arr


def _collect_pairs(pairs, neighbours, any_pair):
    out = []
    if pairs is not None:
        out.extend(pairs if isinstance(pairs, list) else [pairs] if isinstance(pairs, tuple) else list(pairs))
        if not out:
            raise ValueError("pairs is empty; give at least one (D, D_prime) pair, or pairs=None for the search")
    if neighbours is not None:
        got = list(neighbours() if callable(neighbours) else neighbours)
        if not got:
            raise ValueError("neighbours gave no (D, D_prime) pair")
        out.extend(got)
    checked = []
    for i, p in enumerate(out):
        if len(p) not in (2, 3):
            raise ValueError(f"pair {i} must be (D, D_prime), got {len(p)} items")
        if not any_pair:
            _check_data(f"D of pair {i}", p[0])
            _check_data(f"D_prime of pair {i}", p[1])
        D, Dp = check_neighbouring(p[0], p[1], any_pair=any_pair)
        if D.size == 0:
            raise ValueError(f"D of pair {i} is empty")
        if np.array_equal(D, Dp):
            raise ValueError(f"pair {i}: D and D_prime are identical; a neighbouring pair differs in one record")
        desc = p[2] if len(p) == 3 else (f"user pair {i}" + (" (taken as given)" if any_pair else
                                                              f" (rows differ: {differing_rows(D, Dp).tolist()})"))
        checked.append((D, Dp, desc))
    return checked


class _Guarded:
    """The user's mechanism with every call's exceptions turned into :class:`MechanismError`.

    Exceptions in :data:`~proofs_checks.audit.neighbours.CANNOT_RUN` stay as they are inside the
    neighbour search (which skips such datasets); anything else, and those outside the search,
    become a one-line error naming the mechanism and what it raised.
    """

    def __init__(self, mechanism, name):
        self._m, self._name = mechanism, name
        for attr in ("log_prob", "log_density", "score_terms", "log_prob_from_terms"):
            if callable(getattr(mechanism, attr, None)):
                setattr(self, attr, self._wrap(attr))

    def _wrap(self, attr):
        fn = getattr(self._m, attr)

        def call(*args, **kwargs):
            return self._call(attr, fn, args, kwargs)
        return call

    def _call(self, attr, fn, args, kwargs):
        try:
            return fn(*args, **kwargs)
        except Exception as exc:
            msg = f"mechanism {self._name}: {attr}() raised {type(exc).__name__}: {exc}".splitlines()[0]
            if isinstance(exc, (MechanismError, MechanismCannotRun)):
                raise
            if isinstance(exc, CANNOT_RUN):
                raise MechanismCannotRun(msg) from exc
            raise MechanismError(msg) from exc

    def sample(self, *args, **kwargs):
        return self._call("sample", self._m.sample, args, kwargs)

    def __getattr__(self, attr):
        if attr.startswith("__") or attr in ("_m", "_name"):
            raise AttributeError(attr)
        return getattr(self._m, attr)




def audit(mechanism=None, *, variant=None, epsilon=None, delta=None, pairs=None, neighbours=None, data=None,
          any_pair=False, samples=100_000, confidence=0.95, seed=0, jobs=1, method="auto", statistic="auto",
          search_budget=None, refine_steps=30, sampler_samples=None, sampler_alpha=None, name=None, progress=None,
          attack="auto", features=None, curve=False, fixed_event_scoring="plug-in",
          threshold_scoring=None):
    """Audit "mechanism is (epsilon, delta)-DP"; return an :class:`AuditResult`.

    Parameters
    ----------
    mechanism : object, optional
        ``sample(data, size, rng)``; optionally ``log_prob(data)`` (exact audit),
        ``log_density(data, outputs)``, ``score_terms``/``log_prob_from_terms``.
    variant : str, optional
        Label of the variant audited (reported, not used).
    epsilon, delta : float
        The claim (epsilon > 0 required; delta in [0, 1), default 0), checked by
        :mod:`reference.validation` (no coercion: ``"1.5"`` is a TypeError).
    pairs : (D, D_prime) or non-empty list of them, optional
    neighbours : callable returning a non-empty iterable of (D, D_prime), optional
    data : array, optional
        Base dataset for the neighbour search (default: :func:`default_dataset`), non-empty, 2-D.
    any_pair : bool
        Accept pairs that differ in more than one record.
    samples : int
        Total mechanism calls of a statistical audit (>= 100).
    confidence : float in (0, 1)
    seed : int >= 0
    jobs : int
    method : {"auto", "exact", "statistical"}
    statistic : {"auto", "exact", "estimate"}
        Passed to the statistical audit.
    search_budget : int >= 1, optional
        Budget of the neighbour search when no pairs are given: law evaluations of
        the exact search (>= 2; default :data:`DEFAULT_SEARCH`), or distinct
        black-box pairs of the statistical audit (default :data:`DEFAULT_PAIRS`).
    refine_steps : int
        Hill-climbing steps of the exact neighbour search.
    sampler_samples : int, optional
        Draws per dataset of the exact audit's sampler check
        (:func:`~proofs_checks.audit.laws.sampler_check`; default :data:`SAMPLER_SAMPLES`; 0 skips it).
    sampler_alpha : float in (0, 1), optional
        Error of the sampler check (its chance of refuting a correct sampler); default
        ``1 - confidence``.  A battery of many audits (the registered claims) sets it lower so that
        the battery as a whole keeps a small chance of any false refutation.
    name : str, optional
        Name reported for the mechanism (default: its class name).
    progress : bool, optional
        tqdm progress bars on stderr (default: when stderr is a terminal).
    attack : {"auto", "logistic", "histogram"}
        Statistical audit, estimated statistics: which attacks compete on the selection split
        (:mod:`~proofs_checks.audit.classifiers`).
    features : callable, optional
        ``features(outputs) -> (samples, k)`` finite floats on which the estimated statistics of a
        statistical audit work (:class:`~proofs_checks.audit.features.UserFeatures`).
    curve : bool or sequence of float
        Also give the privacy curve ``delta(eps)`` of the worst pair in ``details["curve"]``
        (:mod:`~proofs_checks.audit.curves`): ``True`` on :func:`~proofs_checks.audit.curves.default_grid`,
        or on the given epsilons.  Exact audits give the exact curve; statistical audits a lower
        curve, simultaneous over the grid at ``confidence``, from ``samples`` further calls on the
        worst pair (and the exact curve too when the mechanism gives its law).
    fixed_event_scoring : {"plug-in", "cross-fit"}
        Statistical audit: how events a model fixes itself compete with searched thresholds on the
        selection split (:func:`~proofs_checks.audit.statistical.statistical_audit`; default ``"plug-in"``).
    threshold_scoring : {"pessimistic", "cross-fit", "cross-fit-smooth"}
        Statistical audit: how searched thresholds of estimated statistics compete when no model fixes
        its events (:func:`~proofs_checks.audit.statistical.statistical_audit`; None, the default, is
        :data:`~proofs_checks.audit.statistical.DEFAULT_THRESHOLD_SCORING`, ``"cross-fit-smooth"``).

    Raises
    ------
    TypeError, ValueError
        Bad arguments (each names the parameter).
    MechanismError
        The mechanism raised (one line naming the mechanism and the exception).

    To audit a registered algorithm by its id, use
    :func:`proofs_checks.audit_claims.audit_algorithm`.
    """
    # imported here, not at module level: the statistical audit pulls in statsmodels (~0.6 s of CPU), which a
    # process that only builds the registry (verify's parent, the CLI) need not pay
    from .statistical import (DEFAULT_THRESHOLD_SCORING, check_confidence, check_fixed_event_scoring, check_samples,
                              check_threshold_scoring)

    start = time.perf_counter()
    samples = check_samples(samples)
    confidence = check_confidence(confidence)
    if sampler_alpha is None:
        sampler_alpha = 1.0 - confidence
    elif isinstance(sampler_alpha, bool) or not isinstance(sampler_alpha, (int, float)) or not 0 < sampler_alpha < 1:
        raise ValueError(f"sampler_alpha must be a number in (0, 1), got {sampler_alpha!r}")
    if method not in ("auto", "exact", "statistical"):
        raise ValueError(f"method must be 'auto', 'exact' or 'statistical', got {method!r}")
    if statistic not in ("auto", "exact", "estimate"):
        raise ValueError(f"statistic must be 'auto', 'exact' or 'estimate', got {statistic!r}")
    attack = check_attack(attack)
    features = check_features(features)
    fixed_event_scoring = check_fixed_event_scoring(fixed_event_scoring)
    threshold_scoring = check_threshold_scoring(DEFAULT_THRESHOLD_SCORING if threshold_scoring is None
                                                else threshold_scoring)
    _check_mechanism(mechanism)
    if epsilon is None:
        raise ValueError("epsilon (the claimed privacy parameter) is required when auditing a mechanism object")
    epsilon = check_epsilon(epsilon)
    delta = 0.0 if delta is None else check_probability("delta", delta, low_open=False)
    seed = check_integer("seed", seed, minimum=0)
    jobs = check_integer("jobs", jobs, minimum=1)
    if search_budget is not None:
        search_budget = check_integer("search_budget", search_budget, minimum=1)
    sampler_samples = SAMPLER_SAMPLES if sampler_samples is None else \
        check_integer("sampler_samples", sampler_samples, minimum=0)
    name = name or type(mechanism).__name__
    curve = _check_curve(curve)
    if data is not None:
        data = _check_data("data", data).astype(np.float64)
    given = _collect_pairs(pairs, neighbours, any_pair)
    use_exact = method == "exact" or (method == "auto" and callable(getattr(mechanism, "log_prob", None)))
    if method == "exact" and not callable(getattr(mechanism, "log_prob", None)):
        raise ValueError("method='exact' needs a mechanism with log_prob(data)")
    rng = np.random.default_rng(np.random.SeedSequence([int(seed), 6]))
    mech = _Guarded(mechanism, name)
    if progress is None:
        progress = sys.stderr.isatty()

    try:
        if use_exact:
            if search_budget is not None and search_budget < 2:
                raise ValueError(f"search_budget must be >= 2 for an exact audit (two datasets), got {search_budget}")
            res = _exact_audit(mech, name, variant, epsilon, delta, given, data, rng, search_budget,
                               refine_steps, sampler_samples, confidence, seed, start, sampler_alpha)
        else:
            res = _statistical(mech, name, variant, epsilon, delta, given, data, rng, samples, confidence, seed,
                               jobs, statistic, progress, start, attack, features, search_budget,
                               fixed_event_scoring, threshold_scoring)
        if curve is not None and "counterexample" in res.details:
            from .curves import add_curve

            add_curve(res, mech, curve, samples, confidence, seed, jobs, statistic, progress)
            res.seconds = time.perf_counter() - start
        return res
    except MechanismCannotRun as exc:
        raise MechanismError(str(exc)) from exc.__cause__


def _check_curve(curve):
    """``False``/``None`` (no curve), ``True`` (default grid) or a grid of epsilons (checked)."""
    if curve is None or curve is False:
        return None
    if curve is True:
        return True
    if isinstance(curve, (bool, np.bool_)):
        return True if curve else None
    from .curves import check_epsilons

    return check_epsilons(curve, "curve")


def _base_dataset(mech, name, rng):
    """:func:`default_dataset` probing the raw mechanism (its errors tell the widths it rejects)."""
    try:
        return default_dataset(mech._m, rng)
    except ValueError as exc:
        raise MechanismError(f"mechanism {name}: {exc}".splitlines()[0]) from exc


#: Draws of ``sample`` on each dataset of a black-box pair before the pair is used (a mechanism that
#: raises on them cannot run there; one that raises later, during the audit, is an error).
PROBE_DRAWS = 32


def _runnable_pairs(mech, made, rng):
    """The black-box pairs on whose datasets one call of ``sample`` runs; the others skipped and counted."""
    keep, count, errors = [], 0, []
    for a, b, desc in made:
        try:
            mech.sample(a, PROBE_DRAWS, rng)
            mech.sample(b, PROBE_DRAWS, rng)
            keep.append((a, b, desc))
        except MechanismCannotRun as exc:
            count += 1
            errors.append(str(exc)) if len(errors) < 3 else None
    return keep, {"datasets": count, "first_errors": errors}


def _statistical(mech, name, variant, epsilon, delta, given, data, rng, samples, confidence, seed, jobs,
                 statistic, progress, start, attack="auto", features=None, search_budget=None,
                 fixed_event_scoring="plug-in", threshold_scoring=None):
    """Statistical audit of the given pairs or of :func:`black_box_pairs`; see :func:`audit` (which resolves
    ``threshold_scoring=None`` to the default before calling this)."""

    if given:
        plist = [(D, Dp) for D, Dp, _ in given]
        descs = [d for _, _, d in given]
    else:
        D = _base_dataset(mech, name, rng) if data is None else data
        made = black_box_pairs(D, project=domain_projector(mech),
                               budget=DEFAULT_PAIRS if search_budget is None else search_budget)
        made, skipped = _runnable_pairs(mech, made, rng)
        if not made:
            raise NoRunnablePair(f"mechanism {name}: cannot run on any of the {skipped['datasets']} black-box "
                                 f"pairs (first error: {skipped['first_errors'][0]})", skipped)
        plist = [(a, b) for a, b, _ in made]
        descs = [d for _, _, d in made]
    from .statistical import statistical_audit

    res = statistical_audit(mech, plist, epsilon, delta, samples=samples, confidence=confidence,
                            seed=int(seed), jobs=jobs, statistic=statistic, progress=progress, attack=attack,
                            features=features, fixed_event_scoring=fixed_event_scoring,
                            threshold_scoring=threshold_scoring)
    details = {k: v for k, v in res.as_dict().items()
               if k in ("direction", "statistic", "threshold", "counts", "p_low", "q_high", "selection_samples",
                        "estimation_samples", "seconds_mechanism", "seconds_auditor", "extra")}
    details["pairs_considered"] = len(plist)
    details["pair_index"] = res.pair_index
    if not given:
        details["skipped"] = skipped
    D, Dp = plist[res.pair_index]
    details["counterexample"] = {"D": D, "D_prime": Dp,
                                 "event": details["extra"]["region"], "counts": details["counts"]}
    return AuditResult(name, variant, epsilon, delta, "statistical", res.epsilon_lower, confidence, res.samples,
                       descs[res.pair_index], res.verdict, int(seed), time.perf_counter() - start,
                       res.p_value, details, compared_pairs=list(plist))


def _exact_audit(mech, name, variant, epsilon, delta, given, data, rng, search_budget, refine_steps,
                 sampler_samples, confidence, seed, start, sampler_alpha=None):
    """Exact audit: law validation, worst pair (given or searched), sampler check; see :func:`audit`."""
    details = {}
    try:
        if given:
            best = None
            for D, Dp, desc in given:
                eps, direction = exact_pair_epsilon(mech, D, Dp, delta)
                if best is None or eps > best[0]:
                    best = (eps, f"{desc}; worst direction {direction}", D, Dp)
            eps_found, pair_desc, Da, Db = best
            details["pairs_evaluated"] = len(given)
        else:
            D = _base_dataset(mech, name, rng) if data is None else data
            if search_budget is None:
                search_budget = DEFAULT_SEARCH["expensive" if _expensive(mech) else "cheap"]
            res = search_exact(mech, D, delta, rng, max_evaluations=search_budget, refine_steps=refine_steps)
            eps_found, pair_desc, Da, Db = res.epsilon, res.description, res.D, res.D_prime
            details.update({"candidates_evaluated": res.evaluated, "search_budget": search_budget,
                            "dataset_rows": res.extra["rows"],
                            "duplicate_pairs_skipped": res.extra["duplicate_pairs_skipped"],
                            "incremental": res.extra["incremental"],
                            "worst_direction": res.direction, "skipped": res.extra["skipped"]})
    except LawError as exc:
        details["refuted_by"] = "invalid log_prob"
        details["reason"] = str(exc)
        return AuditResult(name, variant, epsilon, delta, "exact", math.inf, None, 0,
                           "log_prob is not a probability law", "refuted", int(seed),
                           time.perf_counter() - start, None, details)
    law_a, law_b = mechanism_law(mech, Da, "D"), mechanism_law(mech, Db, "D_prime")
    _, lp, lq = align_laws(law_a, law_b)
    details["counterexample"] = {"D": Da, "D_prime": Db, "outputs_compared": int(lp.size)}
    verdict = "refuted" if eps_found > epsilon * (1 + EXACT_RTOL) + EXACT_ATOL else "not refuted"
    if verdict == "refuted":
        details["refuted_by"] = "privacy loss of the law"
    calls = 0
    if sampler_samples > 0:
        check = sampler_check(mech, [Da, Db], [law_a, law_b], sampler_samples, rng,
                              1.0 - confidence if sampler_alpha is None else sampler_alpha)
        details["sampler_check"] = check
        calls = 2 * sampler_samples
        if not check["passed"]:
            verdict = "refuted"
            details["refuted_by"] = ("sampler disagrees with log_prob" if "refuted_by" not in details else
                                     details["refuted_by"] + "; sampler disagrees with log_prob")
            details["reason"] = check["reason"]
    return AuditResult(name, variant, epsilon, delta, "exact", float(eps_found),
                       confidence if sampler_samples > 0 else None, calls, pair_desc,
                       verdict, int(seed), time.perf_counter() - start, None, details)
