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
  :func:`proofs_checks.registry.default_registry`).

An algorithm given by id is looked up in the ``registry`` argument; this module never
imports the registry (the registry imports it).
"""

from __future__ import annotations

from .audit.api import AuditResult, MechanismError, NoRunnablePair, audit, profile_options
from .audit.neighbours import CANNOT_RUN
from .audit.primitive_mechanisms import PRIMITIVE_DEFAULTS, PRIMITIVE_FACTORIES
from .model import Algorithm, Claim, Result
from .verdicts import CONFIDENCE

__all__ = ["resolve_mechanism", "audit_algorithm", "audit_result", "privacy_audit_check",
           "algorithm_audit_claims"]


def _algorithm(algorithm, registry) -> Algorithm:
    """``algorithm`` itself, or the registered algorithm of that id (KeyError naming the auditable ids)."""
    if isinstance(algorithm, Algorithm):
        return algorithm
    if registry is None:
        raise TypeError(f"algorithm id {algorithm!r} needs registry= "
                        "(e.g. proofs_checks.registry.default_registry())")
    try:
        return registry.algorithm(algorithm)
    except KeyError:
        known = sorted({a.id for a in registry.algorithms if a.mechanism is not None} | set(PRIMITIVE_FACTORIES))
        raise KeyError(f"unknown algorithm id {algorithm!r}; auditable ids: {', '.join(known)}") from None


def resolve_mechanism(algorithm, variant=None, epsilon=None, delta=None, *, registry=None, **params):
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
    **params
        Passed to the mechanism factory.

    Returns
    -------
    (mechanism, algorithm, variant, epsilon, delta)
        With the defaults filled in.  Raises KeyError naming the auditable ids for an
        unknown id, and ValueError for a variant the algorithm does not have.
    """
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
    mech = factory(variant=variant, epsilon=epsilon, delta=delta, **params)
    return mech, alg, variant, float(epsilon), float(delta)


def audit_algorithm(algorithm, variant=None, epsilon=None, delta=None, *, registry=None, profile=None,
                    factory_params=None, **audit_options) -> AuditResult:
    """Audit the mechanism of an algorithm (or of its id in ``registry``) with :func:`~proofs_checks.audit.api.audit`.

    ``profile`` (``"quick"`` / ``"full"``) gives the sizes of a verify profile
    (:func:`~proofs_checks.audit.api.profile_options`); ``audit_options`` (``samples``,
    ``seed``, ``jobs``, ``pairs``, ...) are passed to ``audit`` and override them;
    ``factory_params`` go to the mechanism factory.
    """
    mech, alg, variant, epsilon, delta = resolve_mechanism(algorithm, variant, epsilon, delta, registry=registry,
                                                           **(factory_params or {}))
    options = profile_options(mech, profile) if profile is not None else {}
    options.update(audit_options)
    return audit(mech, epsilon=epsilon, delta=delta, variant=variant, name=alg.id, **options)


def _reading(alg: Algorithm, variant, epsilon, delta) -> str:
    claim = f"epsilon-DP with epsilon = {epsilon:g}" if delta == 0 else \
        f"(epsilon, delta)-DP with epsilon = {epsilon:g}, delta = {delta:g}"
    return f"{alg.source}: {alg.id} ({variant}) is {claim} over {alg.neighbouring} neighbouring datasets"


def _method(res: AuditResult) -> str:
    d = res.details
    if res.method == "exact":
        searched = (f"{d['pairs_evaluated']} given pairs" if "pairs_evaluated" in d
                    else f"adversarial search, {d.get('candidates_evaluated')} candidate pairs evaluated")
        at = "privacy loss" if res.claimed_delta == 0 else f"epsilon at delta={res.claimed_delta:g} (hockey-stick)"
        return f"exact audit: exact {at} of the worst replace-one neighbouring pair ({searched})"
    return (f"statistical audit: Clopper-Pearson lower confidence bound on epsilon at confidence {res.confidence}, "
            f"{res.samples} mechanism calls on {d.get('pairs_considered')} replace-one neighbouring pairs "
            f"({d.get('statistic')}); a lower bound can refute the claim, never confirm it")


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
    return Result(verdict, observed=res.epsilon_lower, bound=res.claimed_epsilon, direction="at_most",
                  method=_method(res), reading=_reading(alg, res.variant, res.claimed_epsilon, res.claimed_delta),
                  evidence=res.as_dict())


def privacy_audit_check(algorithm, variant=None, epsilon=None, delta=None, *, registry=None, **params):
    """A claim check ``check(ctx) -> Result`` auditing ``algorithm`` with the context's profile.

    The audit's seed is drawn from the claim's own seed sequence (``ctx.seed_sequence()``).
    A mechanism that raises is an ``error`` of the check (the runner records it), never a
    verdict; a neighbour search skips (and counts, in the evidence) the datasets on which the
    mechanism cannot run and goes on to those where it can.  See :func:`audit_result` for the verdict.
    """
    def check(ctx):
        seed = int(ctx.seed_sequence().generate_state(1)[0])
        alg = _algorithm(algorithm, registry)
        mech, alg, used_variant, eps, dlt = resolve_mechanism(alg, variant, epsilon, delta, **params)
        try:
            res = audit(mech, epsilon=eps, delta=dlt, variant=used_variant, name=alg.id, seed=seed, jobs=ctx.jobs,
                        confidence=CONFIDENCE, **profile_options(mech, ctx.profile))
        except NoRunnablePair as exc:
            return Result("inconclusive", bound=eps, direction="at_most",
                          method="nothing audited: the mechanism cannot run on any neighbouring pair the audit made",
                          reading=_reading(alg, used_variant, eps, dlt),
                          evidence={"reason": str(exc), "skipped": exc.skipped})
        except MechanismError as exc:
            # A registered algorithm that raises ValueError/ArithmeticError on some of its own draws (the
            # printed robust gradient's NaN at b = 0) cannot be audited: no verdict, the reason recorded.
            # Anything else it raises is a bug and propagates (the runner records an error).
            if not isinstance(exc.__cause__, CANNOT_RUN):
                raise
            return Result("inconclusive", bound=eps, direction="at_most",
                          method="audit stopped: the mechanism raised on one of its draws during the audit",
                          reading=_reading(alg, used_variant, eps, dlt), evidence={"reason": str(exc)})
        return audit_result(res, alg)

    return check


def algorithm_audit_claims(registry, *, skip=(), epsilon=None, delta=None):
    """One privacy claim per (auditable algorithm, variant) of ``registry``, judged by the auditor.

    An algorithm is auditable when it registers a ``mechanism`` factory (or is a
    primitive of :data:`~proofs_checks.audit.primitive_mechanisms.PRIMITIVE_FACTORIES`).
    Claim ids are ``audit.<algorithm id>.<variant>``; ids in ``skip`` (or already
    registered) are left out.  Meant to be called after every claim set has
    registered (as :func:`~proofs_checks.registry.default_registry` does)::

        for claim in algorithm_audit_claims(reg):
            reg.add_claim(claim)
    """
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
                             "privacy", privacy_audit_check(alg, variant, epsilon, delta),
                             algorithm=alg.id, variant=variant))
    return out
