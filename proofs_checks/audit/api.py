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

The settings are the fields of :class:`~proofs_checks.audit.options.AuditOptions` (given as one object or as
keywords); the result carries them (:attr:`AuditResult.options`).

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
from typing import Any, Callable, Iterable, Optional, Sequence, Union

import numpy as np

from ..jsonable import to_jsonable
from ..verdicts import ROUNDING_ATOL, ROUNDING_RTOL
from .datasets import (
    CANNOT_RUN,
    black_box_pairs,
    check_neighbouring,
    default_dataset,
    differing_rows,
    domain_projector,
    exact_pair_epsilon,
    mechanism_law,
)
from .exact_search import search_exact
from .laws import LawError, align_laws, sampler_check
from .options import SAMPLER_SAMPLES, AuditOptions, build_options

__all__ = [
    "AuditResult",
    "AuditOptions",
    "MechanismError",
    "InvalidLawError",
    "UnseededMechanismError",
    "NoRunnablePair",
    "SAMPLER_SAMPLES",
    "audit",
    "profile_options",
    "QUICK",
    "FULL",
    "EXACT_RTOL",
    "EXACT_ATOL",
    "DEFAULT_SEARCH",
    "DEFAULT_PAIRS",
]

#: Float64 rounding allowed when an exact loss is compared with the claim (the rounding
#: tolerances of :mod:`proofs_checks.verdicts`): refuted when ``loss > epsilon (1 + EXACT_RTOL) + EXACT_ATOL``.
EXACT_RTOL, EXACT_ATOL = ROUNDING_RTOL, ROUNDING_ATOL

#: Default budget of the exact neighbour search (law evaluations) outside verify.
DEFAULT_SEARCH = {"cheap": 20_000, "expensive": 40}

#: Default budget of the black-box search: distinct neighbouring pairs sharing the selection split.
DEFAULT_PAIRS = 12

#: Sizes of the verify profiles: statistical calls, exact-search evaluations (cheap / expensive log_prob).
QUICK = {
    "samples": 20_000,
    "evaluations": 2_000,
    "expensive_evaluations": 6,
    "refine_steps": 10,
    "sampler_samples": 20_000,
}
FULL = {
    "samples": 1_000_000,
    "evaluations": 50_000,
    "expensive_evaluations": 200,
    "refine_steps": 40,
    "sampler_samples": 1_000_000,
}


def _expensive(mech):
    """True when log_prob is declared expensive and there is no O(K d) rescoring."""
    incremental = hasattr(mech, "score_terms") and hasattr(mech, "log_prob_from_terms")
    return not incremental and bool(getattr(mech, "expensive_log_prob", False))


def profile_options(mechanism: Any, profile: str = "quick") -> dict:
    """Keyword arguments of :func:`audit` giving the sizes of a verify profile (:data:`QUICK`, :data:`FULL`).

    Parameters
    ----------
    mechanism : object
        The mechanism to audit; only its ``log_prob`` (whether it has one) and ``expensive_log_prob``
        are read.
    profile : {"quick", "full"}
        The verify profile.

    Returns
    -------
    dict
        ``samples``, ``refine_steps`` and ``sampler_samples`` of the profile; for a mechanism with
        ``log_prob`` also ``search_budget``: ``evaluations``, or ``expensive_evaluations`` when the
        mechanism sets ``expensive_log_prob = True`` and has no O(K d) rescoring.

    Raises
    ------
    ValueError
        ``profile`` is neither ``"quick"`` nor ``"full"``.

    Examples
    --------
    >>> from proofs_checks.audit.calibration import RandomizedResponse
    >>> profile_options(RandomizedResponse(true_eps=1.0))["search_budget"]
    2000
    >>> sorted(profile_options(object(), "full"))
    ['refine_steps', 'sampler_samples', 'samples']
    """
    if profile not in ("quick", "full"):
        raise ValueError(f"profile must be 'quick' or 'full', got {profile!r}")
    sizes = QUICK if profile == "quick" else FULL
    out = {
        "samples": sizes["samples"],
        "refine_steps": sizes["refine_steps"],
        "sampler_samples": sizes["sampler_samples"],
    }
    if callable(getattr(mechanism, "log_prob", None)):  # the black-box search keeps DEFAULT_PAIRS
        out["search_budget"] = sizes["expensive_evaluations"] if _expensive(mechanism) else sizes["evaluations"]
    return out


@dataclass
class AuditResult:
    """Outcome of an audit; :meth:`as_dict` gives the CLI's JSON object (``audit.schema.json``).

    ``epsilon_lower`` is the exact privacy loss of the worst pair found (``method="exact"``) or a lower
    confidence bound at ``confidence`` (``"statistical"``); ``verdict`` is ``"refuted"`` exactly when it exceeds
    the claimed epsilon.  ``details`` holds the counterexample pair and how it was found; ``options`` the
    :class:`~proofs_checks.audit.options.AuditOptions` the audit ran with (not part of :meth:`as_dict`).
    :func:`audit` makes it; the fields are the constructor's parameters.

    Parameters
    ----------
    algorithm : str
        Name of the mechanism audited (``AuditOptions.name``, else its class name).
    variant : str or None
        Label of the variant audited (``AuditOptions.variant``).
    claimed_epsilon : float
        The epsilon of the claim.
    claimed_delta : float
        The delta of the claim.
    method : {"exact", "statistical"}
        How ``epsilon_lower`` was obtained.
    epsilon_lower : float
        Exact privacy loss of the worst pair found, or a lower confidence bound on epsilon; ``inf`` when
        ``log_prob`` is no probability law.
    confidence : float or None
        Confidence of the statistical bound or of the exact audit's sampler check; ``None`` when neither ran.
    samples : int
        Mechanism calls made (both datasets).
    pair : str
        Description of the worst pair.
    verdict : {"refuted", "not refuted"}
        ``"refuted"`` exactly when ``epsilon_lower`` exceeds ``claimed_epsilon`` (an exact audit by more than
        float64 rounding), or the sampler disagrees with ``log_prob``.
    seed : int
        The seed the audit ran with.
    seconds : float
        Wall time of the audit.
    p_value : float or None
        A statistical audit's p-value of the claim at the worst pair, else ``None``.
    details : dict
        The counterexample pair and how it was found (search statistics, the sampler check, the event).
    compared_pairs : list or None
        A statistical audit's pairs in the order they competed.
    options : AuditOptions or None
        The options the audit ran with.

    Examples
    --------
    >>> from proofs_checks.audit.calibration import RandomizedResponse
    >>> rr = RandomizedResponse(true_eps=1.0)
    >>> res = audit(rr, epsilon=0.5, pairs=[rr.pair()], sampler_samples=0)
    >>> res.verdict, res.method, round(res.epsilon_lower, 12)
    ('refuted', 'exact', 1.0)
    >>> sorted(res.as_dict())[:4], res.options.epsilon
    (['algorithm', 'claimed_delta', 'claimed_epsilon', 'confidence'], 0.5)
    """

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
    #: The options the audit ran with (with the keywords given to :func:`audit`); not part of :meth:`as_dict`.
    options: AuditOptions | None = field(default=None, repr=False, compare=False)

    def summary(self) -> str:
        """A short text table of the audit: the claim, the verdict, the bound and how it was obtained.

        Returns
        -------
        str
            One ``field  value`` row per line (as ``statsmodels``' ``summary()``, in plain text).

        References
        ----------
        .. [1] [000 Def. 2], [002 Def. 1], [004 Def. 2.1]: the (epsilon, delta)-DP claims an audit judges.

        Examples
        --------
        >>> from proofs_checks.audit.calibration import RandomizedResponse
        >>> rr = RandomizedResponse(true_eps=1.0)
        >>> print(audit(rr, epsilon=0.5, pairs=[rr.pair()], sampler_samples=0).summary())  # doctest: +ELLIPSIS
        audit of RandomizedResponse
          claim           (0.5, 0)-DP
          verdict         refuted
          epsilon_lower   1
          method          exact
          ...
        """
        rows = [
            ("claim", f"({self.claimed_epsilon:g}, {self.claimed_delta:g})-DP"),
            ("verdict", self.verdict),
            ("epsilon_lower", f"{self.epsilon_lower:.6g}"),
            ("method", self.method),
        ]
        if self.confidence is not None:
            rows.append(("confidence", f"{self.confidence:g}"))
        if self.p_value is not None:
            rows.append(("p_value", f"{self.p_value:.3g}"))
        if self.samples:
            rows.append(("samples", f"{self.samples:,}"))
        rows += [("variant", str(self.variant)), ("pair", self.pair), ("seed", str(self.seed))]
        rows.append(("seconds", f"{self.seconds:.2f}"))
        width = max(len(name) for name, _ in rows)
        return "\n".join([f"audit of {self.algorithm}", *(f"  {name:<{width}}   {value}" for name, value in rows)])

    def as_dict(self) -> dict:
        """Plain JSON types; infinite floats become the strings "inf" / "-inf" (strict JSON)."""
        out = asdict(replace(self, compared_pairs=None, options=None))
        del out["compared_pairs"], out["options"]
        return to_jsonable(out)


class MechanismError(RuntimeError):
    """A user's mechanism raised during an audit; the message names the mechanism and what it raised.

    Examples
    --------
    >>> class Broken:
    ...     def sample(self, data, size, rng):
    ...         raise ZeroDivisionError("no")
    >>> audit(Broken(), epsilon=1.0, pairs=[([[0.0]], [[1.0]])], samples=1000)
    Traceback (most recent call last):
    ...
    proofs_checks.audit.api.MechanismError: mechanism Broken: sample() raised ZeroDivisionError: no
    """


class NoRunnablePair(MechanismError):
    """The mechanism cannot run on any of the neighbouring pairs the audit made: nothing was audited.

    Not a verdict on the mechanism's privacy (an adapter reports it as inconclusive), and not a
    bug of the auditor.

    Parameters
    ----------
    message : str
        What was tried and the first error.
    skipped : dict
        ``{"datasets": count, "first_errors": [...]}``: the datasets the mechanism could not run on and
        the first (at most three) errors; kept as the attribute ``skipped``.

    Examples
    --------
    >>> err = NoRunnablePair("mechanism M: cannot run on any pair", {"datasets": 4, "first_errors": ["bad"]})
    >>> isinstance(err, MechanismError), err.skipped["datasets"]
    (True, 4)
    """

    def __init__(self, message: str, skipped: dict) -> None:
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


def _collect_pairs(pairs, neighbours, any_pair, allow_nan=False):
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
        D, Dp = check_neighbouring(p[0], p[1], any_pair=any_pair, allow_nan=allow_nan)
        if D.size == 0:
            raise ValueError(f"D of pair {i} is empty")
        if np.array_equal(D, Dp, equal_nan=True):
            raise ValueError(f"pair {i}: D and D_prime are identical; a neighbouring pair differs in one record")
        desc = (
            p[2]
            if len(p) == 3
            else (
                f"user pair {i}"
                + (" (taken as given)" if any_pair else f" (rows differ: {differing_rows(D, Dp, allow_nan).tolist()})")
            )
        )
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


def audit(
    mechanism: Any = None,
    options: Optional[AuditOptions] = None,
    *,
    pairs: Union[tuple, Sequence[tuple], None] = None,
    neighbours: Union[Callable[[], Iterable[tuple]], Iterable[tuple], None] = None,
    data: Any = None,
    **fields: Any,
) -> AuditResult:
    """Audit "mechanism is (epsilon, delta)-DP"; return an :class:`AuditResult`.

    Parameters
    ----------
    mechanism : object
        ``sample(data, size, rng)``; optionally ``log_prob(data)`` (exact audit),
        ``log_density(data, outputs)``, ``score_terms``/``log_prob_from_terms``.
    options : AuditOptions, optional
        The settings (default ``AuditOptions()``): :class:`~proofs_checks.audit.options.AuditOptions` lists every
        one with its default and allowed values.
    pairs : (D, D_prime) or non-empty list of them, optional
        Neighbouring pairs to audit (a third item is the pair's description); checked to differ in one record
        unless ``any_pair``.
    neighbours : callable returning a non-empty iterable of (D, D_prime), or such an iterable, optional
        More pairs, audited with ``pairs``.  Without either, the audit searches pairs.
    data : array, optional
        Base dataset of the neighbour search (default: :func:`~proofs_checks.audit.datasets.default_dataset`),
        non-empty, 2-D.
    **fields
        Fields of :class:`~proofs_checks.audit.options.AuditOptions` given over ``options``:
        ``audit(m, epsilon=1.0, samples=10**6)`` is ``audit(m, AuditOptions(epsilon=1.0, samples=10**6))``.

    Returns
    -------
    AuditResult
        With :attr:`AuditResult.options` the options it ran with.

    Raises
    ------
    TypeError, ValueError
        Bad arguments (each names the parameter; an unknown keyword is a TypeError naming it), a missing
        ``epsilon``.
    MechanismError
        The mechanism raised (one line naming the mechanism and the exception); :class:`NoRunnablePair`
        when it cannot run on any pair the audit made.

    To audit a registered algorithm by its id, use
    :func:`proofs_checks.audit_claims.audit_algorithm`.

    Examples
    --------
    An exact audit (the mechanism gives ``log_prob``) of a randomized response whose true epsilon is 1,
    claimed 0.5 on the searched pairs, and a statistical audit of the Laplace mechanism at its own epsilon:

    >>> from proofs_checks.audit.calibration import LaplaceCount, RandomizedResponse
    >>> res = audit(RandomizedResponse(true_eps=1.0), epsilon=0.5, search_budget=200, sampler_samples=0)
    >>> res.method, res.verdict, round(res.epsilon_lower, 12)
    ('exact', 'refuted', 1.0)
    >>> lap = LaplaceCount(scale=1.0)
    >>> res = audit(lap, AuditOptions(epsilon=1.0, samples=20_000, seed=1), pairs=[lap.pair()])
    >>> res.method, res.verdict, res.samples, 0 < res.epsilon_lower < 1.0
    ('statistical', 'not refuted', 20000, True)
    """
    # the statistical audit is imported when it runs, not at module level: it pulls in statsmodels (~0.6 s of CPU),
    # which a process that only builds the registry (verify's parent, the CLI) need not pay
    start = time.perf_counter()
    opts = build_options(options, fields)
    _check_mechanism(mechanism)
    if opts.epsilon is None:
        raise ValueError("epsilon (the claimed privacy parameter) is required when auditing a mechanism object")
    delta = 0.0 if opts.delta is None else opts.delta
    name = opts.name or type(mechanism).__name__
    if data is not None:
        data = _check_data("data", data).astype(np.float64)
    # records holding NaN only where the mechanism declares its domain allows them
    given = _collect_pairs(pairs, neighbours, opts.any_pair, getattr(mechanism, "nan_records", False) is True)
    use_exact = opts.method == "exact" or (opts.method == "auto" and callable(getattr(mechanism, "log_prob", None)))
    if opts.method == "exact" and not callable(getattr(mechanism, "log_prob", None)):
        raise ValueError("method='exact' needs a mechanism with log_prob(data)")
    rng = np.random.default_rng(np.random.SeedSequence([int(opts.seed), 6]))
    mech = _Guarded(mechanism, name)
    progress = sys.stderr.isatty() if opts.progress is None else opts.progress
    try:
        if use_exact:
            if opts.search_budget is not None and opts.search_budget < 2:
                raise ValueError(
                    f"search_budget must be >= 2 for an exact audit (two datasets), got {opts.search_budget}"
                )
            res = _exact_audit(mech, name, opts, delta, given, data, rng, start)
        else:
            res = _statistical(mech, name, opts, delta, given, data, rng, progress, start)
        if opts.curve is not False and "counterexample" in res.details:
            from .curves import add_curve

            add_curve(
                res,
                mech,
                opts.curve if opts.curve is True else np.array(opts.curve),
                opts.samples,
                opts.confidence,
                opts.seed,
                opts.jobs,
                opts.statistic,
                progress,
            )
            res.seconds = time.perf_counter() - start
        res.options = opts
        return res
    except MechanismCannotRun as exc:
        raise MechanismError(str(exc)) from exc.__cause__


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


def _searched_pairs(mech, D, opts, delta):
    """The pair search of ``opts.pair_budget`` calls (:mod:`~proofs_checks.audit.pair_search`), or None."""
    if not opts.pair_budget:
        return None
    from .pair_search import search_pairs

    return search_pairs(mech, D, opts.pair_budget, delta, seed=int(opts.seed), project=domain_projector(mech))


def _statistical(mech, name, opts, delta, given, data, rng, progress, start):
    """Statistical audit of the given pairs or of :func:`black_box_pairs`; see :func:`audit`."""
    from .features import check_features

    searched = None
    if given:
        plist = [(D, Dp) for D, Dp, _ in given]
        descs = [d for _, _, d in given]
    else:
        D = _base_dataset(mech, name, rng) if data is None else data
        made = black_box_pairs(
            D,
            project=domain_projector(mech),
            budget=DEFAULT_PAIRS if opts.search_budget is None else opts.search_budget,
        )
        searched = _searched_pairs(mech, D, opts, delta)
        made, skipped = _runnable_pairs(mech, made + (searched.pairs if searched else []), rng)
        if not made:
            raise NoRunnablePair(
                f"mechanism {name}: cannot run on any of the {skipped['datasets']} black-box "
                f"pairs (first error: {skipped['first_errors'][0]})",
                skipped,
            )
        plist = [(a, b) for a, b, _ in made]
        descs = [d for _, _, d in made]
    from .statistical import statistical_audit

    rng_use = _guard_rng(mech, name, plist[0][0], opts)
    res = statistical_audit(
        mech,
        plist,
        opts.epsilon,
        delta,
        samples=opts.samples,
        confidence=opts.confidence,
        seed=int(opts.seed),
        jobs=opts.jobs if rng_use.reproducible else 1,
        statistic=opts.statistic,
        progress=progress,
        attack=opts.attack,
        features=check_features(opts.features),
        fixed_event_scoring=opts.fixed_event_scoring,
        threshold_scoring=opts.threshold_scoring,
        sequential_looks=opts.sequential_looks,
    )
    details = {
        k: v
        for k, v in res.as_dict().items()
        if k
        in (
            "direction",
            "statistic",
            "threshold",
            "counts",
            "p_low",
            "q_high",
            "selection_samples",
            "estimation_samples",
            "seconds_mechanism",
            "seconds_auditor",
            "extra",
        )
    }
    details["pairs_considered"] = len(plist)
    if not given and searched is not None:
        details["pair_search"] = searched.as_dict()
    details["pair_index"] = res.pair_index
    if not rng_use.reproducible:
        details["rng"] = {
            "kind": rng_use.kind,
            "reproducible": False,
            "note": rng_use.message + "; audited with allow_unseeded: every split drawn in its own calls in this "
            "process (jobs 1), so the splits stay independent, but the seed does not reproduce the result",
        }
    if not given:
        details["skipped"] = skipped
    D, Dp = plist[res.pair_index]
    details["counterexample"] = {
        "D": D,
        "D_prime": Dp,
        "event": details["extra"]["region"],
        "counts": details["counts"],
    }
    return AuditResult(
        name,
        opts.variant,
        opts.epsilon,
        delta,
        "statistical",
        res.epsilon_lower,
        opts.confidence,
        res.samples,
        descs[res.pair_index],
        res.verdict,
        int(opts.seed),
        time.perf_counter() - start,
        res.p_value,
        details,
        compared_pairs=list(plist),
    )


class InvalidLawError(MechanismError):
    """``log_prob`` returned something that is not a probability law: the audit stops with an error.

    A wrong law is a bug of the mechanism's code, not a verdict on its privacy; the message names the
    mechanism and what is wrong (the total, a NaN, an output listed twice).

    Examples
    --------
    >>> import numpy as np
    >>> class Short:
    ...     def log_prob(self, data):
    ...         return np.arange(2.0), np.log([0.5, 0.1])
    ...     def sample(self, data, size, rng):
    ...         return np.zeros((size, 1))
    >>> audit(Short(), epsilon=1.0, pairs=[([[0.0]], [[1.0]])], sampler_samples=0)
    Traceback (most recent call last):
    ...
    proofs_checks.audit.api.InvalidLawError: mechanism Short: log_prob(D) is not normalised: probabilities sum to 0.6 (tolerance 1e-06)
    """


def _checked_law(mech, name, D, where):
    """:func:`mechanism_law`, an invalid law raised as :class:`InvalidLawError`."""
    try:
        return mechanism_law(mech, D, where)
    except LawError as exc:
        raise InvalidLawError(f"mechanism {name}: {exc}") from None


def _unlisted_mass_decision(mech, name, candidates, delta, threshold, details):
    """The pair a refutation rests on once each law's unlisted mass is placed where it helps the mechanism most.

    ``candidates`` are ``(law epsilon or NaN, description, D, D')``, the worst pair first.  Returns the pair with
    the largest bound of :func:`~proofs_checks.audit.unlisted_mass.epsilon_with_unlisted_mass`, with the law's own
    epsilon when that bound exceeds ``threshold`` (the refutation holds for every completion of the laws; the bound
    when the law's epsilon is infinite), else with the bound (a loss above the claim that the unlisted mass could
    remove does not refute).
    """
    from .exact import privacy_profile
    from .unlisted_mass import epsilon_with_unlisted_mass, unlisted_mass

    best = None
    for eps, desc, D, Dp in candidates:
        law_a, law_b = _checked_law(mech, name, D, "D"), _checked_law(mech, name, Dp, "D_prime")
        _, lp, lq = align_laws(law_a, law_b)
        if math.isnan(eps):
            eps, direction = privacy_profile(lp, lq, delta)
            desc = f"{desc}; worst direction {direction}"
        masses = unlisted_mass(law_a[2]), unlisted_mass(law_b[2])
        bound, _ = epsilon_with_unlisted_mass(lp, lq, delta, *masses)
        if eps > threshold and (best is None or bound > best[0]):
            best = (bound, eps, desc, D, Dp, masses)
    bound, eps, desc, D, Dp, masses = best
    details["unlisted_mass"] = {
        "law_epsilon": eps,
        "epsilon_with_unlisted_mass": bound,
        "unlisted_mass_D": masses[0],
        "unlisted_mass_D_prime": masses[1],
        "note": "each law's unlisted mass (1 - total, plus 2^-52 per listed output for the rounding of the total) "
        "placed where it helps the mechanism most; a refutation needs this bound above the claim",
    }
    if bound > threshold:
        # the law's own loss when finite (the listed law taken as complete, as before); an infinite one rests on
        # outputs the other law does not list, so the bound that holds for every completion is reported
        return (eps, desc, D, Dp) if math.isfinite(eps) else (bound, desc + "; loss with unlisted mass", D, Dp)
    details["unlisted_mass"]["outcome"] = (
        f"the law's loss {eps:.6g} exceeds the claim only through outputs whose mass the other law may leave "
        f"unlisted (truncated support): not a refutation; epsilon_lower is the bound {bound:.6g}"
    )
    return bound, desc + "; loss with unlisted mass placed for the mechanism", D, Dp


def _sampler_bound_result(mech, name, opts, delta, pair, pair_desc, law_epsilon, details, calls, start):
    """The result of an exact audit whose sampler disagrees with ``log_prob``: the sampler's own loss decides.

    The law is then not the mechanism's, so its exact loss says nothing of what ``sample`` does; the sampler is
    audited as a black box on the worst pair (statistical audit with an estimated statistic, ``samples`` further
    calls, a seed stream apart from the check's), and its lower confidence bound is ``epsilon_lower`` and decides
    the verdict.  The law's exact loss is reported beside it in ``details.law``.
    """
    from .statistical import statistical_audit

    rng_use = _guard_rng(mech, name, pair[0], opts)
    res = statistical_audit(
        _WithoutLaw(mech),
        [pair],
        opts.epsilon,
        delta,
        samples=opts.samples,
        confidence=opts.confidence,
        seed=np.random.SeedSequence([int(opts.seed), 7]),
        jobs=opts.jobs if rng_use.reproducible else 1,
        statistic="estimate",
        attack=opts.attack,
        fixed_event_scoring=opts.fixed_event_scoring,
        threshold_scoring=opts.threshold_scoring,
    )
    details.pop("refuted_by", None)
    details["law"] = {
        "epsilon": law_epsilon,
        "rejected": details["sampler_check"]["reason"],
        "note": "the sampler disagrees with log_prob, so the law's exact loss is not the mechanism's; "
        "epsilon_lower is the sampler's own lower confidence bound on the worst pair of the law",
    }
    details["sampler_bound"] = {
        k: v
        for k, v in res.as_dict().items()
        if k in ("direction", "statistic", "threshold", "counts", "p_low", "q_high", "samples")
    }
    details["counterexample"]["event"] = res.extra.get("region")
    details["counterexample"]["counts"] = res.counts
    if res.verdict == "refuted":
        details["refuted_by"] = "privacy loss of the sampler (its law disagrees with log_prob)"
    return AuditResult(
        name,
        opts.variant,
        opts.epsilon,
        delta,
        "statistical",
        res.epsilon_lower,
        opts.confidence,
        calls + res.samples,
        pair_desc,
        res.verdict,
        int(opts.seed),
        time.perf_counter() - start,
        res.p_value,
        details,
    )


class _WithoutLaw:
    """The mechanism's ``sample`` alone: a black box for the audit of a sampler that disagrees with its law."""

    def __init__(self, mech):
        self.sample = mech.sample


class UnseededMechanismError(MechanismError):
    """The mechanism's ``sample`` ignores its ``rng`` (:mod:`~proofs_checks.audit.rng_guard`): no statistical audit.

    Raised for an own random source unless ``allow_unseeded`` (the audit then runs, marked non-reproducible),
    and always for a fixed internal stream (the estimation split would repeat the selection split).
    """


def _guard_rng(mech, name, data, opts):
    """:func:`~proofs_checks.audit.rng_guard.probe_rng_use` on ``data``; raise unless the audit can run."""
    from .rng_guard import probe_rng_use

    use = probe_rng_use(mech, data, seed=int(opts.seed))
    if use.kind == "fixed-stream" or (not use.reproducible and not opts.allow_unseeded):
        hint = "" if use.kind == "fixed-stream" else " (allow_unseeded / --allow-unseeded audits it, non-reproducibly)"
        raise UnseededMechanismError(f"mechanism {name}: {use.message}{hint}")
    return use


def _exact_audit(mech, name, opts, delta, given, data, rng, start):
    """Exact audit: law validation, worst pair (given or searched), sampler check; see :func:`audit`."""
    epsilon, seed = opts.epsilon, opts.seed
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
            search_budget = opts.search_budget
            if search_budget is None:
                search_budget = DEFAULT_SEARCH["expensive" if _expensive(mech) else "cheap"]
            res = search_exact(mech, D, delta, rng, max_evaluations=search_budget, refine_steps=opts.refine_steps)
            eps_found, pair_desc, Da, Db = res.epsilon, res.description, res.D, res.D_prime
            details.update(
                {
                    "candidates_evaluated": res.evaluated,
                    "search_budget": search_budget,
                    "dataset_rows": res.extra["rows"],
                    "duplicate_pairs_skipped": res.extra["duplicate_pairs_skipped"],
                    "incremental": res.extra["incremental"],
                    "worst_direction": res.direction,
                    "skipped": res.extra["skipped"],
                }
            )
    except LawError as exc:
        raise InvalidLawError(f"mechanism {name}: {exc}") from None
    threshold = epsilon * (1 + EXACT_RTOL) + EXACT_ATOL
    if eps_found > threshold:
        candidates = [(eps_found, pair_desc, Da, Db)]
        if given:
            candidates += [(math.nan, f"{desc}", D, Dp) for D, Dp, desc in given if D is not Da or Dp is not Db]
        eps_found, pair_desc, Da, Db = _unlisted_mass_decision(mech, name, candidates, delta, threshold, details)
    law_a, law_b = _checked_law(mech, name, Da, "D"), _checked_law(mech, name, Db, "D_prime")
    _, lp, lq = align_laws(law_a, law_b)
    details["counterexample"] = {"D": Da, "D_prime": Db, "outputs_compared": int(lp.size)}
    verdict = "refuted" if eps_found > threshold else "not refuted"
    if verdict == "refuted":
        details["refuted_by"] = "privacy loss of the law"
    calls = 0
    sampler_samples = opts.sampler_samples
    if sampler_samples > 0:
        try:
            check = sampler_check(
                mech,
                [Da, Db],
                [law_a, law_b],
                sampler_samples,
                rng,
                1.0 - opts.confidence if opts.sampler_alpha is None else opts.sampler_alpha,
            )
        except LawError as exc:
            raise InvalidLawError(f"mechanism {name}: {exc}") from None
        details["sampler_check"] = check
        calls = 2 * sampler_samples
        if not check["passed"]:
            return _sampler_bound_result(mech, name, opts, delta, (Da, Db), pair_desc, eps_found, details, calls, start)
    return AuditResult(
        name,
        opts.variant,
        epsilon,
        delta,
        "exact",
        float(eps_found),
        opts.confidence if sampler_samples > 0 else None,
        calls,
        pair_desc,
        verdict,
        int(seed),
        time.perf_counter() - start,
        None,
        details,
    )
