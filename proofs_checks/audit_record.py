"""What the audit claim ``audit.<algorithm id>.<variant>`` needs beyond the algorithm: its audit record.

A paper's package declares one :class:`AuditRecord` per auditable algorithm and variant, beside the
algorithm (e.g. ``proofs_checks/claim_sets/hu/audit_records.py``), and registers it with
``registry.add_audit_record``; :func:`proofs_checks.audit_claims.algorithm_audit_claims` reads the
records from the registry.  Adding an algorithm therefore touches its paper's package only.
:func:`audit_record_gaps` lists what is missing or stray (the completeness test runs it on the
default registry).

This module imports only the claim model (the registry and the adapter import it).
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field
from typing import Callable

from .model import PROFILES, SEED_POLICIES

__all__ = ["AuditRecord", "REACH_KEYS", "audit_record_gaps"]

#: The fields of a ``reach`` entry (see :class:`~proofs_checks.model.Mutant`).
REACH_KEYS = ("not_a_violation", "out_of_reach")


def _text(name, value, *, optional=False):
    """``value`` if it is a non-empty str (or None when ``optional``); TypeError / ValueError naming ``name``."""
    if value is None and optional:
        return value
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str{' or None' if optional else ''}, got {type(value).__name__}")
    if not value.strip():
        raise ValueError(f"{name} must not be empty")
    return value


def _multipliers(value):
    """``value`` as a non-empty tuple of finite positive reals (the tuple itself: nothing coerced)."""
    if not isinstance(value, tuple) or not value:
        raise TypeError(f"multipliers must be a non-empty tuple, got {value!r}")
    for m in value:
        if isinstance(m, bool) or not isinstance(m, numbers.Real) or not (m > 0 and math.isfinite(m)):
            raise ValueError(f"multipliers must be finite reals > 0, got {m!r} in {value!r}")
    return value


def _per_profile(name, value):
    """``value`` if it is None or a dict keyed by profile names; TypeError / ValueError naming ``name``."""
    if value is None:
        return value
    if not isinstance(value, dict):
        raise TypeError(f"{name} must be a dict {{profile: ...}} or None, got {type(value).__name__}")
    unknown = sorted(set(value) - set(PROFILES))
    if unknown:
        raise ValueError(f"{name} names profiles {unknown}; only {PROFILES} exist")
    return value


@dataclass(frozen=True, eq=False)
class AuditRecord:
    """The audit of one algorithm variant as the claim ``audit.<algorithm>.<variant>`` runs it.

    Attributes
    ----------
    algorithm, variant : str
        The registered algorithm's id and one of its variants.
    multipliers : tuple of float
        The power knob's multipliers, one mutant each (the algorithm built for ``m`` times the
        claimed epsilon; :func:`~proofs_checks.audit_claims.audit_mutants`); usually
        :data:`~proofs_checks.audit_claims.AUDIT_MULTIPLIERS`, larger ones where x2 is out of reach.
    power : str or None
        What the mutants show, measured, in words (put in the claim's ``evidence["power"]``); ``None``
        where no measurement is recorded.  Required: a record says which.
    reach : dict, optional
        Per multiplier, the mutant's ``not_a_violation`` proof or ``out_of_reach`` reason
        (``{2.0: {"not_a_violation": "..."}}``).
    pairs : list of (D, D_prime), optional
        Neighbouring pairs designed from the algorithm before any run (see
        :func:`~proofs_checks.audit_claims.privacy_audit_check`).
    features : callable, optional
        A module-level ``features(outputs) -> (samples, k)`` for a statistical audit of ``pairs``.
    samples : dict, optional
        ``{profile: mechanism calls}`` replacing the profile's size.
    profile_pairs : dict, optional
        ``{profile: pairs}`` replacing ``pairs`` at the profiles it names.
    seed_policy : {"several", "once"}
        The claim's :attr:`~proofs_checks.model.Claim.seed_policy` (``"once"``: one quick run costs seconds).

    Raises
    ------
    TypeError, ValueError
        Naming the field, for a missing or malformed one.

    Examples
    --------
    >>> r = AuditRecord("laplace", "standard", multipliers=(2.0, 1.25), power=None)
    >>> r.claim_id
    'audit.laplace.standard'
    >>> AuditRecord("laplace", "standard", multipliers=(2.0,), power=None, reach={4.0: {"out_of_reach": "x"}})
    Traceback (most recent call last):
    ...
    ValueError: reach names multipliers [4.0] that are not among multipliers (2.0,)
    """

    algorithm: str
    variant: str
    multipliers: tuple
    power: str | None
    reach: dict = field(default_factory=dict)
    pairs: list | None = None
    features: Callable | None = None
    samples: dict | None = None
    profile_pairs: dict | None = None
    seed_policy: str = "several"

    def __post_init__(self):
        _text("algorithm", self.algorithm)
        _text("variant", self.variant)
        _multipliers(self.multipliers)
        _text("power", self.power, optional=True)
        self._check_reach()
        if self.pairs is not None and (not isinstance(self.pairs, (list, tuple)) or not self.pairs):
            raise TypeError(f"pairs must be a non-empty list of (D, D_prime) or None, got {self.pairs!r}")
        if self.features is not None and not callable(self.features):
            raise TypeError(f"features must be callable or None, got {type(self.features).__name__}")
        _per_profile("samples", self.samples)
        _per_profile("profile_pairs", self.profile_pairs)
        if self.seed_policy not in SEED_POLICIES:
            raise ValueError(f"seed_policy must be one of {SEED_POLICIES}, got {self.seed_policy!r}")

    def _check_reach(self):
        if not isinstance(self.reach, dict):
            raise TypeError(f"reach must be a dict {{multiplier: {{...}}}}, got {type(self.reach).__name__}")
        unknown = sorted(set(map(float, self.reach)) - set(map(float, self.multipliers)))
        if unknown:
            raise ValueError(f"reach names multipliers {unknown} that are not among multipliers {self.multipliers}")
        for m, why in self.reach.items():
            if not isinstance(why, dict) or not why or set(why) - set(REACH_KEYS):
                raise ValueError(f"reach[{m:g}] must be a non-empty dict with keys among {REACH_KEYS}, got {why!r}")
            for key, text in why.items():
                _text(f"reach[{m:g}][{key!r}]", text)

    @property
    def claim_id(self) -> str:
        """``audit.<algorithm>.<variant>``: the id of the claim this record is for."""
        return f"audit.{self.algorithm}.{self.variant}"


def audit_record_gaps(registry, auditable=None) -> list:
    """What the registry's audit records miss or name wrongly, as sentences (empty when complete).

    Parameters
    ----------
    registry : Registry
        Its ``algorithms`` and ``audit_records``.
    auditable : callable, optional
        ``auditable(algorithm) -> bool``; default: the algorithm registers a ``mechanism`` factory.

    Returns
    -------
    list of str
        One sentence per auditable (algorithm, variant) without a record, and per record naming an
        unknown algorithm or a variant its algorithm does not have.

    Examples
    --------
    >>> from proofs_checks.model import Algorithm
    >>> from proofs_checks.registry import Registry
    >>> reg = Registry()
    >>> _ = reg.add_algorithm(Algorithm("toy", "[000 Alg. 1]", "toy", mechanism=lambda **kw: None))
    >>> audit_record_gaps(reg)
    ['audit.toy.standard: auditable, but no audit record is registered']
    """
    auditable = auditable or (lambda alg: alg.mechanism is not None)
    algorithms = {a.id: a for a in registry.algorithms}
    records = {r.claim_id for r in registry.audit_records}
    gaps = [
        f"audit.{a.id}.{v}: auditable, but no audit record is registered"
        for a in algorithms.values()
        if auditable(a)
        for v in a.variants
        if f"audit.{a.id}.{v}" not in records
    ]
    for r in registry.audit_records:
        if r.algorithm not in algorithms:
            gaps.append(f"{r.claim_id}: the record names an unknown algorithm {r.algorithm!r}")
        elif r.variant not in algorithms[r.algorithm].variants:
            gaps.append(
                f"{r.claim_id}: {r.algorithm!r} has no variant {r.variant!r} "
                f"(its variants: {algorithms[r.algorithm].variants})"
            )
        elif not auditable(algorithms[r.algorithm]):
            gaps.append(f"{r.claim_id}: {r.algorithm!r} registers no mechanism factory; nothing to audit")
    return gaps
