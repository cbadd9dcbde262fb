"""Audits as claims: the adapter between the auditor (:mod:`proofs_checks.audit`) and the claim model.

The auditor judges mechanism objects and knows nothing of claims.  This module

* builds the mechanism of a registered :class:`~proofs_checks.model.Algorithm`
  (:func:`resolve_mechanism`) and audits it (:func:`audit_algorithm`, used by the CLI's
  ``audit ALGORITHM_ID``);
* turns an audit into a claim's :class:`~proofs_checks.model.Result`
  (:func:`audit_result`, :func:`privacy_audit_check`): ``observed`` is the audit's
  ``epsilon_lower``, ``bound`` the claimed epsilon, direction ``"at_most"``;
* makes one privacy claim ``audit.<algorithm id>.<variant>`` per auditable algorithm
  and variant (:func:`algorithm_audit_claims`, called by
  :func:`proofs_checks.registry.default_registry`), each with its mutants: the same
  algorithm built for ``m`` times the claimed epsilon (``privacy_multiplier``, the generic
  power knob; ``Algorithm.privacy_knob`` says what it scales: a noise scale x1/m, a
  log-weight x m), audited against the claimed epsilon, so that ``power`` can show each audit
  catches an over-spend.

What is particular to one algorithm (its designed pairs, multipliers, the proofs and reasons of its
mutants, its measured power) is its :class:`~proofs_checks.audit_record.AuditRecord`, declared in the
algorithm's paper package and read from the registry; this module holds none.  An algorithm given by id
is looked up in the ``registry`` argument; this module never imports the registry (the registry imports it).
"""

from __future__ import annotations

import math
import numbers

from reference.validation import check_integer

from .audit.api import AuditResult, MechanismError, NoRunnablePair, audit, profile_options
from .audit.neighbours import CANNOT_RUN
from .audit.primitive_mechanisms import PRIMITIVE_DEFAULTS, PRIMITIVE_FACTORIES
from .audit_record import audit_record_gaps
from .builders import with_power_note as _with_power
from .model import PROFILES, Algorithm, Claim, Mutant, Result
from .verdicts import CONFIDENCE

#: Error of the exact audits' sampler check in the registered claims.  At ``1 - CONFIDENCE`` each
#: of some 20 exact audit claims, run on several seeds, would be refuted by a correct sampler one
#: time in twenty; at 1e-4 the whole battery keeps below about 1% (Bonferroni).
SAMPLER_ALPHA = 1e-4

#: Budget multipliers an audit claim is usually run against by ``power``: 2 is the 2x over-spend every
#: privacy claim must catch at the quick profile, 1.25 the one it should reach at the full profile.
#: Each :class:`~proofs_checks.audit_record.AuditRecord` states its own (larger ones where x2 is out of reach).
AUDIT_MULTIPLIERS = (2.0, 1.25)

__all__ = [
    "resolve_mechanism",
    "audit_algorithm",
    "audit_result",
    "privacy_audit_check",
    "algorithm_audit_claims",
    "audit_mutants",
    "auditable",
    "AUDIT_MULTIPLIERS",
    "SAMPLER_ALPHA",
]


def auditable(alg: Algorithm) -> bool:
    """True when the adapter can build ``alg``'s mechanism (a ``mechanism`` factory or a primitive's)."""
    return alg.mechanism is not None or alg.id in PRIMITIVE_FACTORIES


def _algorithm(algorithm, registry) -> Algorithm:
    """``algorithm`` itself, or the registered algorithm of that id (KeyError naming the auditable ids)."""
    if isinstance(algorithm, Algorithm):
        return algorithm
    if registry is None:
        raise TypeError(f"algorithm id {algorithm!r} needs registry= (e.g. proofs_checks.registry.default_registry())")
    try:
        return registry.algorithm(algorithm)
    except KeyError:
        known = sorted({a.id for a in registry.algorithms if a.mechanism is not None} | set(PRIMITIVE_FACTORIES))
        raise KeyError(f"unknown algorithm id {algorithm!r}; auditable ids: {', '.join(known)}") from None


def _check_multiplier(value):
    """``privacy_multiplier`` as a float in (0, inf); TypeError / ValueError naming it otherwise."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"privacy_multiplier must be a real number, got {type(value).__name__}")
    m = float(value)
    if not (m > 0 and math.isfinite(m)):
        raise ValueError(f"privacy_multiplier must be finite and > 0, got {value!r}")
    return m


def resolve_mechanism(
    algorithm, variant=None, epsilon=None, delta=None, *, registry=None, privacy_multiplier=1.0, **params
):
    """Build the mechanism of an algorithm (its factory first, then the primitives' fallback).

    Parameters
    ----------
    algorithm : Algorithm or str
        An algorithm, or its id in ``registry``.
    variant : str, optional
        Default ``"standard"`` when the algorithm has it, else its first variant.
    epsilon, delta : float, optional
        Default: the primitive's defaults, else epsilon 1 and the algorithm's ``default_delta`` (or 0).
    registry : Registry, optional
        Where an algorithm id is looked up.
    privacy_multiplier : float, default 1
        The power knob (a mutant for the power sweep): the mechanism is built for ``privacy_multiplier * epsilon``
        while the returned (claimed) epsilon stays ``epsilon``; 2 is a 2x over-spend (what
        that scales in each algorithm: ``Algorithm.privacy_knob``).
    **params
        Passed to the mechanism factory.

    Returns
    -------
    (mechanism, algorithm, variant, epsilon, delta)
        With the defaults filled in (``epsilon`` the claimed one).  Raises KeyError naming the
        auditable ids for an unknown id, and ValueError for a variant the algorithm does not have.

    Examples
    --------
    >>> from proofs_checks.model import Algorithm
    >>> from proofs_checks.audit.primitive_mechanisms import laplace_factory
    >>> lap = Algorithm("laplace", "[002 Def. 2]", "Laplace", mechanism=laplace_factory,
    ...                 privacy_knob=("Laplace scale", -1.0))
    >>> mech, _, _, eps, _ = resolve_mechanism(lap, epsilon=1.0, privacy_multiplier=2.0)
    >>> eps, mech.inner.epsilon         # claimed epsilon 1; Laplace noise of a 2-DP mechanism
    (1.0, 2.0)
    """
    m = _check_multiplier(privacy_multiplier)
    alg = _algorithm(algorithm, registry)
    factory = alg.mechanism or PRIMITIVE_FACTORIES.get(alg.id)
    if factory is None:
        raise ValueError(f"algorithm {alg.id!r} registers no mechanism factory; nothing to audit")
    if variant is None:
        variant = "standard" if "standard" in alg.variants else alg.variants[0]
    if variant not in alg.variants:
        raise ValueError(f"variant {variant!r} not available for {alg.id!r}; choose from {alg.variants}")
    d_eps, d_delta = PRIMITIVE_DEFAULTS.get(alg.id, (1.0, alg.default_delta or 0.0))
    epsilon = d_eps if epsilon is None else epsilon
    delta = d_delta if delta is None else delta
    mech = factory(variant=variant, epsilon=epsilon * m if m != 1.0 else epsilon, delta=delta, **params)
    return mech, alg, variant, float(epsilon), float(delta)


def audit_algorithm(
    algorithm,
    variant=None,
    epsilon=None,
    delta=None,
    *,
    registry=None,
    profile=None,
    factory_params=None,
    **audit_options,
) -> AuditResult:
    """Audit the mechanism of an algorithm (or of its id in ``registry``) with :func:`~proofs_checks.audit.api.audit`.

    ``profile`` (``"quick"`` / ``"full"``) gives the sizes of a verify profile
    (:func:`~proofs_checks.audit.api.profile_options`); ``audit_options`` (``samples``,
    ``seed``, ``jobs``, ``pairs``, ...) are passed to ``audit`` and override them;
    ``factory_params`` go to the mechanism factory.
    """
    mech, alg, variant, epsilon, delta = resolve_mechanism(
        algorithm, variant, epsilon, delta, registry=registry, **(factory_params or {})
    )
    options = profile_options(mech, profile) if profile is not None else {}
    options.update(audit_options)
    return audit(mech, epsilon=epsilon, delta=delta, variant=variant, name=alg.id, **options)


def _reading(alg: Algorithm, variant, epsilon, delta) -> str:
    claim = (
        f"epsilon-DP with epsilon = {epsilon:g}"
        if delta == 0
        else f"(epsilon, delta)-DP with epsilon = {epsilon:g}, delta = {delta:g}"
    )
    return f"{alg.source}: {alg.id} ({variant}) is {claim} over {alg.neighbouring} neighbouring datasets"


def _method(res: AuditResult) -> str:
    d = res.details
    if res.method == "exact":
        searched = (
            f"{d['pairs_evaluated']} given pairs"
            if "pairs_evaluated" in d
            else f"adversarial search, {d.get('candidates_evaluated')} candidate pairs evaluated"
        )
        at = "privacy loss" if res.claimed_delta == 0 else f"epsilon at delta={res.claimed_delta:g} (hockey-stick)"
        return f"exact audit: exact {at} of the worst replace-one neighbouring pair ({searched})"
    return (
        f"statistical audit: Clopper-Pearson lower confidence bound on epsilon at confidence {res.confidence}, "
        f"{res.samples} mechanism calls on {d.get('pairs_considered')} replace-one neighbouring pairs "
        f"({d.get('statistic')}); a lower bound can refute the claim, never confirm it"
    )


def audit_result(res: AuditResult, alg: Algorithm) -> Result:
    """The claim's :class:`~proofs_checks.model.Result` of an audit of ``alg``.

    ``refuted`` when the audit refutes the claim.  Otherwise an exact audit gives
    ``confirmed`` (the exact privacy loss of every neighbouring pair the adversarial
    search visited is within epsilon, the standard of the other exact checks), and a
    statistical audit ``inconclusive``: a lower confidence bound can refute a claim,
    never establish it.
    """
    if res.verdict == "refuted":
        verdict = "refuted"
    else:
        verdict = "confirmed" if res.method == "exact" else "inconclusive"
    return Result(
        verdict,
        observed=res.epsilon_lower,
        bound=res.claimed_epsilon,
        direction="at_most",
        method=_method(res),
        reading=_reading(alg, res.variant, res.claimed_epsilon, res.claimed_delta),
        evidence=res.as_dict(),
    )


def _per_profile(name, mapping, check_value=lambda key, value: value):
    """``mapping`` (``{profile: value}``, or None) as a dict with checked values; ValueError naming ``name``."""
    mapping = {k: check_value(f"{name}[{k!r}]", v) for k, v in (mapping or {}).items()}
    unknown = sorted(set(mapping) - set(PROFILES))
    if unknown:
        raise ValueError(f"{name} names profiles {unknown}; only 'quick' and 'full' exist")
    return mapping


def _inconclusive(method, alg, variant, eps, dlt, evidence):
    """The Result of an audit that could not run (no verdict on the paper; the reason in the evidence)."""
    return Result(
        "inconclusive",
        bound=eps,
        direction="at_most",
        method=method,
        reading=_reading(alg, variant, eps, dlt),
        evidence=evidence,
    )


def _audit_or_reason(mech, alg, variant, eps, dlt, **options):
    """``audit(mech, ...)``, or an ``inconclusive`` Result where the mechanism cannot run.

    A neighbour search that finds no pair the mechanism runs on, or a registered algorithm that raises
    ValueError / ArithmeticError on some of its own draws (the printed robust gradient's NaN at b = 0),
    cannot be audited: no verdict, the reason recorded.  Anything else it raises is a bug and propagates
    (the runner records an error).
    """
    try:
        return audit(
            mech,
            epsilon=eps,
            delta=dlt,
            variant=variant,
            name=alg.id,
            confidence=CONFIDENCE,
            sampler_alpha=SAMPLER_ALPHA,
            **options,
        )
    except NoRunnablePair as exc:
        return _inconclusive(
            "nothing audited: the mechanism cannot run on any neighbouring pair the audit made",
            alg,
            variant,
            eps,
            dlt,
            {"reason": str(exc), "skipped": exc.skipped},
        )
    except MechanismError as exc:
        if not isinstance(exc.__cause__, CANNOT_RUN):
            raise
        return _inconclusive(
            "audit stopped: the mechanism raised on one of its draws during the audit",
            alg,
            variant,
            eps,
            dlt,
            {"reason": str(exc)},
        )


def _designed_instead_of_search(res, alg, pairs, features):
    """The Result of a statistical audit of designed ``pairs`` (run instead of the search)."""
    out = audit_result(res, alg)
    out.method += f"; on {len(pairs)} designed pair(s) instead of the search"
    out.evidence = {
        **out.evidence,
        "designed_pairs": {
            "pairs": len(pairs),
            "features": getattr(features, "__name__", None),
            "epsilon_lower": res.epsilon_lower,
            "verdict": res.verdict,
        },
    }
    return out


def _designed_beside_search(res, designed, alg, pairs):
    """The Result of an exact search and an exact audit of designed ``pairs``: the pair with the larger loss."""
    worse = max((res, designed), key=lambda r: (r.verdict == "refuted", r.epsilon_lower))
    out = audit_result(worse, alg)
    out.method += (
        f"; beside the search, {len(pairs)} designed pair(s) (epsilon lower "
        f"{designed.epsilon_lower:.4g}; search {res.epsilon_lower:.4g})"
    )
    out.evidence = {
        **out.evidence,
        "designed_pairs": {"pairs": len(pairs), "epsilon_lower": designed.epsilon_lower, "verdict": designed.verdict},
        "search": {"epsilon_lower": res.epsilon_lower, "verdict": res.verdict},
    }
    return out


def privacy_audit_check(
    algorithm,
    variant=None,
    epsilon=None,
    delta=None,
    *,
    registry=None,
    privacy_multiplier=1.0,
    pairs=None,
    features=None,
    samples=None,
    profile_pairs=None,
    **params,
):
    """A claim check ``check(ctx) -> Result`` auditing ``algorithm`` with the context's profile.

    ``privacy_multiplier`` builds the mechanism for that multiple of the claimed epsilon (a
    mutant for the power sweep, see :func:`resolve_mechanism`); the evidence records it.

    ``pairs`` (optional, a list of replace-one ``(D, D_prime)``) are neighbouring pairs designed
    from the algorithm before any run (e.g. the scores moving by the full sensitivity in opposite
    directions): an exact audit of them runs beside the adversarial search and the verdict is that
    of the pair with the larger loss (a refutation by either refutes; for an exact audit
    "confirmed" then covers the searched and the designed pairs).  A statistical audit (a
    mechanism without ``log_prob``) audits the designed pairs instead of its search, on
    ``features`` (a module-level ``features(outputs) -> (samples, k)``; a second statistical
    bound beside the search's would need its confidence split).

    ``samples`` (optional, ``{profile: calls}``) replaces the profile's number of mechanism calls for
    this claim, e.g. where the claim's violation needs more calls than the profile gives every audit;
    profiles it does not name keep their size.  ``profile_pairs`` (optional, ``{profile: pairs}``)
    replaces ``pairs`` at the profiles it names, e.g. a pair too costly to sample at quick (both are
    fields of the algorithm's :class:`~proofs_checks.audit_record.AuditRecord`).

    The audit's seed is drawn from the claim's own seed sequence (``ctx.seed_sequence()``).
    A mechanism that raises is an ``error`` of the check (the runner records it), never a
    verdict; a neighbour search skips (and counts, in the evidence) the datasets on which the
    mechanism cannot run and goes on to those where it can.  See :func:`audit_result` for the verdict.
    """
    m = _check_multiplier(privacy_multiplier)
    samples = _per_profile("samples", samples, lambda key, v: check_integer(key, v, minimum=1))
    profile_pairs = _per_profile("profile_pairs", profile_pairs)

    def sizes(mech, profile):
        options = profile_options(mech, profile)
        if profile in samples:
            options["samples"] = samples[profile]
        return options

    def check(ctx):
        res = _audit_check(ctx)
        if m != 1.0:
            res.evidence = {**res.evidence, "privacy_multiplier": m}
        return res

    def _audit_check(ctx):
        seed = int(ctx.seed_sequence().generate_state(1)[0])
        alg = _algorithm(algorithm, registry)
        mech, alg, used_variant, eps, dlt = resolve_mechanism(
            alg, variant, epsilon, delta, privacy_multiplier=m, **params
        )
        # Designed pairs come from the claim (``pairs=``) or from the mechanism built for it
        # (``audit_design() -> {"pairs": ..., "features": ...}``, where the pair depends on the
        # mechanism's domain, e.g. 004's learners); either way they take the one path below.
        design = getattr(mech, "audit_design", None)
        design = design() if callable(design) else {}
        at_profile = profile_pairs.get(ctx.profile, pairs)
        designed_pairs = at_profile if at_profile is not None else design.get("pairs")
        designed_features = features if features is not None else design.get("features")
        options = sizes(mech, ctx.profile)
        statistical_design = designed_pairs is not None and not callable(getattr(mech, "log_prob", None))
        if statistical_design:
            # designed pairs replace the search (two statistical bounds would need the confidence split)
            options = {k: v for k, v in options.items() if k != "search_budget"}
            options.update(pairs=list(designed_pairs), features=designed_features)
        res = _audit_or_reason(mech, alg, used_variant, eps, dlt, seed=seed, jobs=ctx.jobs, **options)
        if isinstance(res, Result):
            return res
        if statistical_design:
            return _designed_instead_of_search(res, alg, designed_pairs, designed_features)
        if designed_pairs is None or res.method != "exact":
            return audit_result(res, alg)
        designed = audit(
            mech,
            epsilon=eps,
            delta=dlt,
            variant=used_variant,
            name=alg.id,
            seed=seed,
            jobs=ctx.jobs,
            confidence=CONFIDENCE,
            sampler_alpha=SAMPLER_ALPHA,
            pairs=list(designed_pairs),
            method="exact",
            **{k: v for k, v in sizes(mech, ctx.profile).items() if k != "search_budget"},
        )
        return _designed_beside_search(res, designed, alg, designed_pairs)

    return check


def audit_mutants(
    alg: Algorithm,
    variant,
    epsilon=None,
    delta=None,
    multipliers=AUDIT_MULTIPLIERS,
    reach=None,
    pairs=None,
    features=None,
    samples=None,
    profile_pairs=None,
):
    """The mutants of ``audit.<alg.id>.<variant>``: the algorithm built for ``m`` times its epsilon, per multiplier.

    Each is named by what the multiplier scales (``alg.privacy_knob``), e.g. ``"Laplace scale x0.5
    (2x over-spend)"``, with that scale as its ``factor``.  ``reach`` maps a multiplier to the
    :class:`~proofs_checks.model.Mutant` fields ``not_a_violation`` (the proof that the mutant
    still satisfies the claim on every neighbouring pair) and ``out_of_reach`` (why no check at the
    profile's budget can show its violation), e.g. ``{2.0: {"not_a_violation": "..."}}`` (the
    ``reach`` of an :class:`~proofs_checks.audit_record.AuditRecord`); other keys are a TypeError.
    ``pairs``, ``features``: designed neighbouring pairs and the statistical audit's features, ``samples``
    the claim's calls per profile, ``profile_pairs`` its pairs per profile (see :func:`privacy_audit_check`).

    Examples
    --------
    >>> from proofs_checks.model import Algorithm
    >>> from proofs_checks.audit.primitive_mechanisms import laplace_factory
    >>> lap = Algorithm("laplace", "[002 Def. 2]", "Laplace", mechanism=laplace_factory,
    ...                 privacy_knob=("Laplace scale", -1.0))
    >>> ms = audit_mutants(lap, "standard", multipliers=(2.0, 1.25),
    ...                    reach={1.25: {"out_of_reach": "oracle bound 0.9 eps"}})
    >>> [(m.name, m.out_of_reach) for m in ms]
    [('Laplace scale x0.5 (2x over-spend)', ''), ('Laplace scale x0.8 (1.25x over-spend)', 'oracle bound 0.9 eps')]
    """
    label, exponent = alg.privacy_knob
    reach = {float(k): v for k, v in (reach or {}).items()}
    unknown = sorted(set(reach) - {float(m) for m in multipliers})
    if unknown:
        raise ValueError(f"reach names multipliers {unknown} that are not among multipliers {tuple(multipliers)}")
    out = []
    for m in multipliers:
        f = float(m) ** float(exponent)
        why = reach.get(float(m), {})
        bad = set(why) - {"not_a_violation", "out_of_reach"}
        if bad:
            raise TypeError(f"reach[{m:g}] accepts only not_a_violation / out_of_reach, got {sorted(bad)}")
        out.append(
            Mutant(
                f"{label} x{f:.3g} ({m:g}x over-spend)",
                privacy_audit_check(
                    alg,
                    variant,
                    epsilon,
                    delta,
                    privacy_multiplier=m,
                    pairs=pairs,
                    features=features,
                    samples=samples,
                    profile_pairs=profile_pairs,
                ),
                factor=f,
                not_a_violation=why.get("not_a_violation", ""),
                out_of_reach=why.get("out_of_reach", ""),
            )
        )
    return tuple(out)


def _neighbours(record):
    """How an audit claim's neighbouring pairs are made, for its statement."""
    if record is None or record.pairs is None:
        return "adversarial neighbours"
    return "designed neighbours" if record.features is not None else "adversarial and designed neighbours"


def algorithm_audit_claims(registry, *, skip=(), epsilon=None, delta=None, require_records=False):
    """One privacy claim per (auditable algorithm, variant) of ``registry``, judged by the auditor.

    Parameters
    ----------
    registry : Registry
        Its ``algorithms`` and the ``audit_records`` its claim sets registered beside them.
    skip : iterable of str
        Claim ids to leave out (ids already registered are left out too).
    epsilon, delta : float, optional
        As :func:`resolve_mechanism`.
    require_records : bool, default False
        Raise ValueError when an auditable variant has no audit record or a record names an unknown
        algorithm or variant (:func:`~proofs_checks.audit_record.audit_record_gaps`); otherwise a variant
        without a record is audited with :data:`AUDIT_MULTIPLIERS`, no designed pairs and no power note.

    Returns
    -------
    list of Claim
        Ids ``audit.<algorithm id>.<variant>``, each with the mutants of its record's multipliers
        (:func:`audit_mutants`) and the record's ``seed_policy``.  An algorithm is auditable when it
        registers a ``mechanism`` factory (or is a primitive of
        :data:`~proofs_checks.audit.primitive_mechanisms.PRIMITIVE_FACTORIES`).  Meant to be called after
        every claim set has registered (as :func:`~proofs_checks.registry.registry_of` does).

    Examples
    --------
    >>> from proofs_checks.audit.primitive_mechanisms import laplace_factory
    >>> from proofs_checks.audit_record import AuditRecord
    >>> from proofs_checks.registry import Registry
    >>> reg = Registry()
    >>> _ = reg.add_algorithm(Algorithm("lap", "[002 Def. 2]", "Laplace", mechanism=laplace_factory,
    ...                                 privacy_knob=("Laplace scale", -1.0)))
    >>> _ = reg.add_audit_record(AuditRecord("lap", "standard", multipliers=(2.0,), power="detects x2"))
    >>> [(c.id, [m.name for m in c.mutants]) for c in algorithm_audit_claims(reg, require_records=True)]
    [('audit.lap.standard', ['Laplace scale x0.5 (2x over-spend)'])]
    """
    gaps = audit_record_gaps(registry, auditable) if require_records else []
    if gaps:
        raise ValueError("incomplete audit records (declare them in the algorithm's paper package): " + "; ".join(gaps))
    existing = {c.id for c in getattr(registry, "claims", [])}
    out = []
    for alg in registry.algorithms:
        if not auditable(alg):
            continue
        for variant in alg.variants:
            cid = f"audit.{alg.id}.{variant}"
            if cid in skip or cid in existing:
                continue
            out.append(_audit_claim(alg, variant, registry.audit_record(alg.id, variant), epsilon, delta))
    return out


def _audit_claim(alg, variant, record, epsilon, delta):
    """The claim ``audit.<alg.id>.<variant>`` of ``record`` (None: the defaults, see :func:`algorithm_audit_claims`)."""
    design = (
        {}
        if record is None
        else dict(
            pairs=record.pairs, features=record.features, samples=record.samples, profile_pairs=record.profile_pairs
        )
    )
    check = privacy_audit_check(alg, variant, epsilon, delta, **design)
    if record is not None and record.power is not None:
        check = _with_power(check, record.power)
    mutants = audit_mutants(
        alg,
        variant,
        epsilon,
        delta,
        AUDIT_MULTIPLIERS if record is None else record.multipliers,
        None if record is None else record.reach,
        **design,
    )
    return Claim(
        f"audit.{alg.id}.{variant}",
        alg.source,
        f"{alg.id} ({variant}) is DP at its claimed parameters (auditor, {_neighbours(record)}).",
        "privacy",
        check,
        algorithm=alg.id,
        variant=variant,
        mutants=mutants,
        seed_policy="several" if record is None else record.seed_policy,
    )
