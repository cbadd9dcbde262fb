"""The claim registry: every claim the project audits, with its source, its check and a verdict.

A :class:`Claim` names a statement of one of the papers (file, theorem /
lemma / equation), its kind, and the check that judges it.  A check takes a
:class:`CheckContext` and returns a :class:`Result` carrying the verdict and
the evidence (numbers, sample sizes, confidence).

Claims are contributed by the modules of :mod:`proofs_checks.claim_sets`,
discovered automatically: each module defines ``register(registry)``.
"""

from __future__ import annotations

import hashlib
import importlib
import pkgutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np

__all__ = ["KINDS", "VERDICTS", "Claim", "Algorithm", "Result", "CheckContext", "Registry",
           "default_registry", "run_claim", "run_claims"]

KINDS = ("privacy", "formula", "inequality", "sensitivity", "rate")
VERDICTS = ("confirmed", "refuted", "inconclusive")
PROFILES = ("quick", "full")


@dataclass
class Result:
    """Outcome of one check.

    Attributes
    ----------
    verdict : {"confirmed", "refuted", "inconclusive"}
    evidence : dict
        JSON-serialisable numbers: what was measured, sample sizes, confidence.
    figures : list of str
        Paths (relative to the report folder) of figures the check wrote.
    seed : int or None
        Entropy of the seed sequence the check drew its randomness from.
    seconds : float
        Wall time of the check (filled in by :func:`run_claim`).
    """

    verdict: str
    evidence: dict = field(default_factory=dict)
    figures: list = field(default_factory=list)
    seed: int | None = None
    seconds: float = 0.0

    def __post_init__(self):
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {VERDICTS}, got {self.verdict!r}")


@dataclass(frozen=True)
class CheckContext:
    """What a check may use: the profile, a reproducible seed, workers and a folder for figures."""

    profile: str = "quick"
    seed: int = 20261121
    jobs: int = 1
    out_dir: Path | None = None

    def __post_init__(self):
        if self.profile not in PROFILES:
            raise ValueError(f"profile must be one of {PROFILES}, got {self.profile!r}")

    def seed_sequence(self, claim_id: str) -> np.random.SeedSequence:
        """A seed sequence of the run seed and the claim id: independent of run order."""
        key = int.from_bytes(hashlib.sha256(claim_id.encode()).digest()[:8], "little")
        return np.random.SeedSequence([self.seed, key])

    def rng(self, claim_id: str) -> np.random.Generator:
        return np.random.default_rng(self.seed_sequence(claim_id))


@dataclass(frozen=True)
class Claim:
    """One statement of a paper, and the check that judges it.

    Attributes
    ----------
    id : str
        Stable identifier, e.g. ``"primitives.exponential.privacy"``.
    source : str
        Paper file and location, e.g. ``"002, Definition 3"``.
    statement : str
        One line: what the paper claims.
    kind : {"privacy", "formula", "inequality", "sensitivity", "rate"}
    check : callable
        ``check(ctx: CheckContext) -> Result``.
    algorithm : str or None
        Algorithm id the claim is about (see :class:`Algorithm`).
    variant : str or None
        ``"printed"`` / ``"standard"`` where the claim concerns one variant.
    """

    id: str
    source: str
    statement: str
    kind: str
    check: Callable[[CheckContext], Result]
    algorithm: str | None = None
    variant: str | None = None

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, got {self.kind!r} (claim {self.id})")


@dataclass(frozen=True)
class Algorithm:
    """An algorithm (or primitive) the project implements, listed by ``proofs_checks list``.

    ``mechanism`` optionally builds a mechanism-protocol object for the auditor:
    ``mechanism(variant=..., epsilon=..., delta=...)``.  ``default_delta`` is the
    delta the auditor uses when none is given: ``None`` for pure-DP algorithms.
    """

    id: str
    source: str
    summary: str
    variants: tuple = ("standard",)
    mechanism: Callable[..., Any] | None = None
    default_delta: float | None = None


class Registry:
    """Claims and algorithms, in registration order; ids are unique."""

    def __init__(self):
        self._claims: dict[str, Claim] = {}
        self._algorithms: dict[str, Algorithm] = {}

    def add_claim(self, claim: Claim) -> Claim:
        if claim.id in self._claims:
            raise ValueError(f"claim id {claim.id!r} registered twice")
        self._claims[claim.id] = claim
        return claim

    def add_algorithm(self, algorithm: Algorithm) -> Algorithm:
        if algorithm.id in self._algorithms:
            raise ValueError(f"algorithm id {algorithm.id!r} registered twice")
        self._algorithms[algorithm.id] = algorithm
        return algorithm

    @property
    def claims(self) -> list[Claim]:
        return list(self._claims.values())

    @property
    def algorithms(self) -> list[Algorithm]:
        return list(self._algorithms.values())

    def claim(self, claim_id: str) -> Claim:
        try:
            return self._claims[claim_id]
        except KeyError:
            raise KeyError(f"unknown claim id {claim_id!r}") from None

    def algorithm(self, algorithm_id: str) -> Algorithm:
        try:
            return self._algorithms[algorithm_id]
        except KeyError:
            known = ", ".join(self._algorithms)
            raise KeyError(f"unknown algorithm id {algorithm_id!r}; known: {known}") from None

    def select(self, patterns=None) -> list[Claim]:
        """Claims whose id starts with one of ``patterns`` (all when ``None``)."""
        if not patterns:
            return self.claims
        return [c for c in self.claims if any(c.id.startswith(p) for p in patterns)]


def default_registry() -> Registry:
    """Import every module of :mod:`proofs_checks.claim_sets`, let it register, then add the audits.

    The audits are one claim ``audit.<algorithm id>.<variant>`` per algorithm
    with a mechanism factory and per variant, judged by :mod:`proofs_checks.audit`.
    """
    from . import claim_sets

    from .audit.api import algorithm_audit_claims

    reg = Registry()
    for info in sorted(pkgutil.iter_modules(claim_sets.__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{claim_sets.__name__}.{info.name}")
        module.register(reg)
    # Every algorithm with a mechanism factory gets an auditor-judged privacy claim per
    # variant; this runs last so that it sees the algorithms of every claim set.
    for claim in algorithm_audit_claims(reg):
        reg.add_claim(claim)
    return reg


def run_claim(claim: Claim, ctx: CheckContext) -> Result:
    """Run one check, timing it.  A check that raises is a bug: the exception propagates."""
    start = time.perf_counter()
    result = claim.check(ctx)
    if not isinstance(result, Result):
        raise TypeError(f"check of claim {claim.id} returned {type(result).__name__}, not Result")
    result.seconds = time.perf_counter() - start
    if result.seed is None:
        result.seed = ctx.seed
    return result


def run_claims(claims, ctx: CheckContext, progress=None):
    """Run ``claims`` in order; return ``[(claim, result), ...]``.

    ``progress`` (a text stream such as ``sys.stderr``) receives one line per
    claim, ``[i/N] id ... verdict (seconds)``; data never goes there.
    """
    out = []
    for i, claim in enumerate(claims, 1):
        if progress is not None:
            print(f"[{i}/{len(claims)}] {claim.id} ...", file=progress, end=" ", flush=True)
        result = run_claim(claim, ctx)
        if progress is not None:
            print(f"{result.verdict} ({result.seconds:.1f} s)", file=progress, flush=True)
        out.append((claim, result))
    return out
