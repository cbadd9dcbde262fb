"""The claim model: the data types every part of :mod:`proofs_checks` exchanges.

A :class:`Claim` names a statement of one of the papers (its place, tagged
``[002 Thm. 4]``), its kind, and the check that judges it.  A check takes a
:class:`CheckContext` and returns a :class:`Result`: the verdict, the measured
quantity against the paper's bound, the method and the reading of the paper the
check used, and free evidence.

This module imports nothing else from the project (a test keeps it so): the
registry (:mod:`proofs_checks.registry`), the runner (:mod:`proofs_checks.runner`),
the verdict rules (:mod:`proofs_checks.verdicts`) and every claim set build on it.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable

import numpy as np

__all__ = [
    "KINDS",
    "VERDICTS",
    "PROFILES",
    "DIRECTIONS",
    "SCOPES",
    "Claim",
    "Algorithm",
    "Result",
    "CheckContext",
    "Mutant",
    "Finding",
    "claim_key",
]

KINDS = ("privacy", "formula", "inequality", "sensitivity", "rate")
#: The one set of verdict words.  Rates keep their detail (``consistent``, ``slower``) in the evidence.
#: ``vacuous``: the bound holds, but no implementation could break it (the check has no power);
#: ``error``: the check raised (a bug of the check or of the code under test, never a finding);
#: the runner records it with the traceback in the evidence.
VERDICTS = ("confirmed", "refuted", "inconclusive", "vacuous", "error")
PROFILES = ("quick", "full")
#: What a claim is about: a statement of a ``paper``; a ``reproduction`` check of the project's own
#: premises about a paper's experiments (its settings, figures), which is no statement of the paper;
#: or a ``self-test`` of the project's tools (the auditor's calibration).
SCOPES = ("paper", "reproduction", "self-test")
#: How ``observed`` must relate to ``bound`` for the claim to hold.
#: ``at_most``: observed <= bound; ``at_least``: observed >= bound; ``equal``: observed == bound
#: (within the tolerance the check names in ``method``); ``None``: no single number is compared.
DIRECTIONS = ("at_most", "at_least", "equal", None)


def claim_key(claim_id: str) -> int:
    """64-bit key of a claim id: the second word of the claim's seed sequence.

    Parameters
    ----------
    claim_id : str
        A claim id (or ``claim_id/stream`` for a named sub-stream).

    Returns
    -------
    int
        The first 8 bytes of the id's SHA-256, little-endian: the same on every machine and in every run.

    Examples
    --------
    >>> claim_key("toy.claim") == claim_key("toy.claim") != claim_key("toy.claim/diagnostics")
    True
    >>> 0 <= claim_key("toy.claim") < 2 ** 64
    True
    """
    return int.from_bytes(hashlib.sha256(claim_id.encode()).digest()[:8], "little")


def _finite_or_none(name, value):
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"Result.{name} must be a real number or None, got {type(value).__name__}")
    value = float(value)
    if math.isnan(value):
        raise ValueError(f"Result.{name} must not be NaN")
    return value


@dataclass
class Result:
    """Outcome of one check.

    Checked when made: a verdict or direction outside its words is a ValueError, ``observed``, ``bound`` and
    ``margin`` must be real numbers or None (NaN is a ValueError), ``evidence`` a dict.

    Parameters
    ----------
    verdict : {"confirmed", "refuted", "inconclusive", "vacuous", "error"}
        The verdict (:data:`VERDICTS`).
    observed : float or None
        The measured quantity (for example the largest privacy loss over epsilon found).
    bound : float or None
        What the paper states for it, or the reference value.
    direction : {"at_most", "at_least", "equal", None}
        How ``observed`` must compare with ``bound`` for the claim to hold.
    margin : float or None
        Signed distance to the bound, positive when the claim holds: ``bound - observed``
        (``at_most``), ``observed - bound`` (``at_least``), ``-|observed - bound|`` (``equal``).
        Filled in from ``observed``, ``bound`` and ``direction`` when not given.
    method : str
        How the number was obtained ("exact, all selection paths enumerated", "Clopper-Pearson
        0.95 on 2000 simulations", ...).
    reading : str
        The place in the paper and the reading of it that the check used (definitions relied on,
        the neighbouring relation for privacy claims).
    evidence : dict
        JSON-serialisable detail: sample sizes, confidence, the worst instance; its keys are those
        its record declares (``evidence_kind``).
    figures : list of str
        Paths (relative to the report folder) of figures the check wrote.
    seed : list of int or None
        The claim-scoped seed the check drew from: the entropy ``[run seed, claim key]`` of its
        ``SeedSequence`` (filled in by the runner).
    seconds : float
        Wall time of the check (filled in by the runner).
    evidence_kind : str or None
        The evidence record ``evidence`` follows (:data:`proofs_checks.evidence.RECORDS`: its keys,
        their types and meanings), e.g. ``"bound_search"``; set by the builders.  ``None``: inferred
        from the claim when the report is written (:func:`proofs_checks.evidence.evidence_kind_of`).

    Raises
    ------
    ValueError
        An unknown verdict or direction, or a NaN number.
    TypeError
        A number that is not real, evidence that is not a dict, or an empty ``evidence_kind``.

    Examples
    --------
    >>> res = Result("confirmed", observed=0.25, bound=0.5, direction="at_most", method="exact")
    >>> res.margin
    0.25
    >>> Result("refuted", observed=2.0, bound=1.0, direction="at_least").margin
    1.0
    >>> Result("holds")
    Traceback (most recent call last):
    ...
    ValueError: verdict must be one of ('confirmed', 'refuted', 'inconclusive', 'vacuous', 'error'), got 'holds'
    """

    verdict: str
    observed: float | None = None
    bound: float | None = None
    direction: str | None = None
    margin: float | None = None
    method: str = ""
    reading: str = ""
    evidence: dict = field(default_factory=dict)
    figures: list = field(default_factory=list)
    seed: list | None = None
    seconds: float = 0.0
    evidence_kind: str | None = None

    def __post_init__(self):
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {VERDICTS}, got {self.verdict!r}")
        if self.direction not in DIRECTIONS:
            raise ValueError(f"direction must be one of {DIRECTIONS}, got {self.direction!r}")
        if not isinstance(self.evidence, dict):
            raise TypeError(f"evidence must be a dict, got {type(self.evidence).__name__}")
        if self.evidence_kind is not None and (not isinstance(self.evidence_kind, str) or not self.evidence_kind):
            raise TypeError(f"evidence_kind must be a non-empty string or None, got {self.evidence_kind!r}")
        self.observed = _finite_or_none("observed", self.observed)
        self.bound = _finite_or_none("bound", self.bound)
        self.margin = _finite_or_none("margin", self.margin)
        if self.margin is None and None not in (self.observed, self.bound, self.direction):
            o, b = self.observed, self.bound
            if math.isfinite(o) and math.isfinite(b):
                self.margin = {"at_most": b - o, "at_least": o - b, "equal": -abs(o - b)}[self.direction]
            elif self.direction == "at_most":
                self.margin = b - o if not (math.isinf(o) and math.isinf(b) and o == b) else 0.0
            elif self.direction == "at_least":
                self.margin = o - b if not (math.isinf(o) and math.isinf(b) and o == b) else 0.0


@dataclass(frozen=True)
class CheckContext:
    """What a check may use: the profile, its claim-scoped randomness, workers and a folder for figures.

    The runner hands each check a context whose ``claim_id`` is the claim's id, so
    :meth:`rng` and :meth:`seed_sequence` without arguments give the claim's own stream:
    a ``SeedSequence([seed, claim_key(claim_id)])``, the same whatever other claims run
    and in whatever order.  ``rng("name")`` gives an independent named sub-stream
    (``claim_id + "/" + name``).

    Parameters
    ----------
    profile : {"quick", "full"}
        The verify profile: the sizes a check uses.
    seed : int
        The run seed (>= 0), the first word of every claim's seed sequence.
    jobs : int
        Workers a check may use (>= 1); results do not depend on it.
    out_dir : pathlib.Path or None
        Folder for the check's figures (None: draw none).
    claim_id : str or None
        The claim the context is scoped to (set by :meth:`for_claim`).

    Raises
    ------
    ValueError
        An unknown profile, a negative seed or a jobs count below 1.

    Examples
    --------
    >>> ctx = CheckContext(profile="quick", seed=7).for_claim("toy.claim")
    >>> ctx.seed_entropy() == [7, claim_key("toy.claim")]
    True
    >>> a, b = ctx.rng().random(), ctx.for_claim("toy.claim").rng().random()
    >>> a == b, ctx.randomised
    (True, True)
    """

    profile: str = "quick"
    seed: int = 20261121
    jobs: int = 1
    out_dir: Path | None = None
    claim_id: str | None = None
    #: Streams handed out so far (names; None for the claim's own): lets the runner tell a
    #: randomised check from a deterministic one.  Not part of the context's identity.
    streams_used: list = field(default_factory=list, init=False, compare=False, repr=False)

    def __post_init__(self):
        if self.profile not in PROFILES:
            raise ValueError(f"profile must be one of {PROFILES}, got {self.profile!r}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, (int, np.integer)) or self.seed < 0:
            raise ValueError(f"seed must be a non-negative integer, got {self.seed!r}")
        if isinstance(self.jobs, bool) or not isinstance(self.jobs, (int, np.integer)) or self.jobs < 1:
            raise ValueError(f"jobs must be a positive integer, got {self.jobs!r}")

    def for_claim(self, claim_id: str) -> "CheckContext":
        """This context scoped to ``claim_id`` (what the runner hands the claim's check); itself if it is."""
        return self if self.claim_id == claim_id else replace(self, claim_id=claim_id)

    def stream_id(self, stream: str | None = None) -> str:
        """The id keyed into the seed sequence: the claim's id, or ``claim_id/stream`` for a named sub-stream."""
        if self.claim_id is None:
            raise RuntimeError("this CheckContext is not scoped to a claim; use ctx.for_claim(claim_id)")
        return self.claim_id if stream is None else f"{self.claim_id}/{stream}"

    def seed_entropy(self, stream: str | None = None) -> list:
        """``[run seed, claim key]``: the entropy of the claim's (or sub-stream's) seed sequence."""
        return [int(self.seed), claim_key(self.stream_id(stream))]

    @property
    def randomised(self) -> bool:
        """True once a check has drawn a stream from this context (see :meth:`seed_sequence`)."""
        return bool(self.streams_used)

    def seed_sequence(self, stream: str | None = None) -> np.random.SeedSequence:
        """The claim's seed sequence, or that of its named sub-stream."""
        self.streams_used.append(stream)
        return np.random.SeedSequence(self.seed_entropy(stream))

    def rng(self, stream: str | None = None) -> np.random.Generator:
        """A generator on the claim's seed sequence, or on that of its named sub-stream."""
        return np.random.default_rng(self.seed_sequence(stream))


#: How many run seeds a randomised claim gets by default (:func:`proofs_checks.stability.default_seeds`):
#: ``"several"`` for a cheap claim (its verdict stands only where the seeds agree), ``"once"`` for an
#: expensive one, whose single quick run costs about 2 s or more (measured; never decided by a run's own time).
SEED_POLICIES = ("several", "once")


@dataclass(frozen=True)
class Claim:
    """One statement of a paper, and the check that judges it.

    Parameters
    ----------
    id : str
        Stable identifier, e.g. ``"primitives.exponential.privacy"``.
    source : str
        The place in the paper as a citation tag, e.g. ``"[002 Thm. 4]"``.
    statement : str
        One line: what the paper claims.
    kind : {"privacy", "formula", "inequality", "sensitivity", "rate"}
    check : callable
        ``check(ctx: CheckContext) -> Result``.
    algorithm : str or None
        Algorithm id the claim is about (see :class:`Algorithm`).
    variant : str or None
        ``"printed"`` / ``"standard"`` where the claim concerns one variant.
    scope : {"paper", "reproduction", "self-test"}
        Whether the claim is a statement of the paper (default), a check of the project's
        premises about a paper's experiments, or a self-test of the project's tools.
    mutants : tuple of Mutant
        Deliberately broken versions of the check that a check with power must refute
        (see :class:`Mutant`); ``python -m proofs_checks power`` runs them.
    seed_policy : {"several", "once"}
        Declared by the claim set: ``"several"`` (default, a cheap claim) runs a randomised check on
        several run seeds by default, ``"once"`` (an expensive claim) on one (see :data:`SEED_POLICIES`).

    Raises
    ------
    ValueError
        An unknown kind, scope or seed policy (the message names the claim).
    TypeError
        A mutant that is not a :class:`Mutant`.

    Examples
    --------
    >>> def check(ctx):
    ...     return Result("confirmed", observed=0.5, bound=1.0, direction="at_most", method="exact")
    >>> claim = Claim("toy.bound", "[000 Lemma 1]", "x <= 1 for every input", "inequality", check)
    >>> claim.check(CheckContext().for_claim(claim.id)).verdict, claim.scope, claim.seed_policy
    ('confirmed', 'paper', 'several')
    """

    id: str
    source: str
    statement: str
    kind: str
    check: Callable[[CheckContext], Result]
    algorithm: str | None = None
    variant: str | None = None
    scope: str = "paper"
    mutants: tuple = ()
    seed_policy: str = "several"

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, got {self.kind!r} (claim {self.id})")
        if self.scope not in SCOPES:
            raise ValueError(f"scope must be one of {SCOPES}, got {self.scope!r} (claim {self.id})")
        if not all(isinstance(m, Mutant) for m in self.mutants):
            raise TypeError(f"mutants must be Mutant objects (claim {self.id})")
        if self.seed_policy not in SEED_POLICIES:
            raise ValueError(f"seed_policy must be one of {SEED_POLICIES}, got {self.seed_policy!r} (claim {self.id})")


@dataclass(frozen=True)
class Mutant:
    """A deliberately broken implementation a claim's check must catch.

    Parameters
    ----------
    name : str
        What is broken, in words: ``"sensitivity x2"``, ``"Peeling without its factor 2"``,
        ``"net that does not refine"``.
    check : callable
        The claim's check built by its factory with the broken argument
        (``check(ctx) -> Result``); it runs with the claim's own context.
    factor : float or None
        The scale of a scaled constant (``0.5`` for a halved noise scale), else ``None``.
    detected_by : tuple of str
        Verdicts that count as catching the mutant (default: ``("refuted",)``).
    not_a_violation : str
        Non-empty when the mutant provably still satisfies the claim on the instance the check
        runs (an equivalent mutant, in mutation-testing terms): the proof in words, with its
        numbers (e.g. "still (0.62 eps, delta)-DP by exact PLD accounting of its T steps").  No
        sound check can catch it, so ``power`` lists it apart and does not count it as a miss.
    proof_profiles : tuple of str
        The profiles whose instances ``not_a_violation`` covers (default: both).  A proof shown only on
        the quick profile's instances does not excuse the mutant at the full profile, where it counts
        as a miss again.
    proof_seeds : tuple of int or None
        The run seeds whose instances ``not_a_violation`` covers, where the check's instances are drawn at
        random (a proof computed on the drawn datasets); ``None`` (default) when the instances do not depend on
        the seed.  At any other run seed the mutant counts as a miss again.
    out_of_reach : str
        Non-empty when the mutant violates the claim but no check at this profile's budget can
        show it (e.g. the best event's Clopper-Pearson bound at the profile's sample size stays
        below the claimed epsilon): the reason with its numbers.  Still counted as a miss.

    Examples
    --------
    >>> m = Mutant("bound x0.5", lambda ctx: Result("confirmed"), factor=0.5,
    ...            not_a_violation="still holds: the bound is loose by 3x", proof_profiles=("quick",))
    >>> m.proof_at("quick"), m.proof_at("full")
    ('still holds: the bound is loose by 3x', '')
    """

    name: str
    check: Callable[[CheckContext], Result]
    factor: float | None = None
    detected_by: tuple = ("refuted",)
    not_a_violation: str = ""
    out_of_reach: str = ""
    proof_profiles: tuple = ("quick", "full")
    proof_seeds: tuple | None = None

    def proof_at(self, profile: str, seed: int | None = None) -> str:
        """``not_a_violation`` where its proof covers the instances of ``profile`` (at run ``seed``), else ``""``."""
        if profile not in self.proof_profiles:
            return ""
        if self.proof_seeds is not None and seed not in self.proof_seeds:
            return ""
        return self.not_a_violation


@dataclass(frozen=True)
class Finding:
    """A headline result about a paper, backed by claims.

    Parameters
    ----------
    id : str
        Stable identifier, e.g. ``"000.printed-weight"``.
    paper : str
        ``"000"``, ``"002"`` or ``"004"``.
    title : str
        One line.
    claims : tuple of str
        The claim ids whose verdicts carry the finding.
    reading : str
        The place in the paper, the definitions and the reading used; where readings differ,
        each reading and its result ("refuted under reading A, holds under B").
    summary : str
        The finding with its numbers, in a few sentences.

    Examples
    --------
    >>> f = Finding("000.toy", "000", "A toy finding", ("toy.bound",), "[000 Lemma 1] as printed",
    ...             "The bound holds with margin 0.5.")
    >>> f.paper, f.claims
    ('000', ('toy.bound',))
    """

    id: str
    paper: str
    title: str
    claims: tuple
    reading: str
    summary: str


@dataclass(frozen=True)
class Algorithm:
    """An algorithm (or primitive) the project implements, listed by ``proofs_checks list``.

    ``mechanism`` optionally builds a mechanism-protocol object for the auditor:
    ``mechanism(variant=..., epsilon=..., delta=...)``.  ``default_delta`` is the
    delta the auditor uses when none is given: ``None`` for pure-DP algorithms.
    ``neighbouring`` names the neighbouring relation the paper's privacy claim uses.
    ``privacy_knob`` ``(label, exponent)`` says what the audit adapter's generic power knob does
    to this algorithm: the mechanism is built for ``m`` times the claimed epsilon (the claim
    keeps its own), which scales ``label`` by ``m ** exponent`` (``("Laplace scale", -1)``:
    a 2x over-spend is the Laplace scale x0.5); see :func:`proofs_checks.audit_claims.resolve_mechanism`.

    Parameters
    ----------
    id : str
        Stable identifier, e.g. ``"hu-1"``; claims and audit records name it.
    source : str
        The place in the paper as a citation tag, e.g. ``"[002 Alg. 1]"``.
    summary : str
        One line: what the algorithm does.
    variants : tuple of str
        The variants implemented (``"printed"``, ``"standard"``, ...).
    mechanism : callable or None
        ``mechanism(variant=..., epsilon=..., delta=...)``: a mechanism-protocol object for the auditor.
    default_delta : float or None
        The delta of an (eps, delta) algorithm's audit; None for pure DP.
    neighbouring : str
        The neighbouring relation of the paper's privacy claim.
    privacy_knob : (str, float)
        ``(label, exponent)``: what the audit's power multiplier scales, and how.

    Examples
    --------
    >>> alg = Algorithm("toy-laplace", "[002 Def. 2]", "Laplace mechanism on a count",
    ...                 privacy_knob=("Laplace scale", -1.0))
    >>> alg.variants, alg.default_delta, alg.neighbouring
    (('standard',), None, 'replace-one')
    """

    id: str
    source: str
    summary: str
    variants: tuple = ("standard",)
    mechanism: Callable[..., Any] | None = None
    default_delta: float | None = None
    neighbouring: str = "replace-one"
    privacy_knob: tuple = ("epsilon", 1.0)
