"""Audit records live beside their algorithms, in the paper's package, and every auditable algorithm has one.

* Completeness: every auditable variant of the default registry has an :class:`AuditRecord` with every required
  field, no record names an unknown algorithm or variant, and each audit claim is built from its record; broken
  copies (a record dropped, a stray record, an incomplete record) are caught.
* Extension in one place: a toy paper package (written to a temporary folder, so no module of the project is
  edited) registers an algorithm and its audit record, and the registry gives its audit claim with the record's
  mutants, proofs, designed pair, power note and seed policy.
"""

from __future__ import annotations

import dataclasses
import importlib
import sys
import textwrap

import numpy as np
import pytest

from proofs_checks.audit_claims import algorithm_audit_claims, auditable
from proofs_checks.audit_record import AuditRecord, audit_record_gaps
from proofs_checks.model import CheckContext
from proofs_checks.registry import Registry, default_registry, registry_of
from proofs_checks.runner import run_claim
from tests._fake_registry import fake_registry

REQUIRED = [
    f.name
    for f in dataclasses.fields(AuditRecord)
    if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
]


@pytest.fixture(scope="module")
def registry():
    return default_registry()


def _copy(registry, records):
    """A registry with ``registry``'s algorithms and the given records (no claims)."""
    reg = Registry()
    for alg in registry.algorithms:
        reg.add_algorithm(alg)
    for record in records:
        reg.add_audit_record(record)
    return reg


# ------------------------------------------------------------------------------------------- completeness


def test_required_fields_are_the_ones_every_record_must_state():
    assert REQUIRED == ["algorithm", "variant", "multipliers", "power"]


def test_every_auditable_variant_has_a_complete_record_and_no_record_is_stray(registry):
    assert audit_record_gaps(registry, auditable) == []
    variants = {f"audit.{a.id}.{v}" for a in registry.algorithms if auditable(a) for v in a.variants}
    assert {r.claim_id for r in registry.audit_records} == variants
    assert len(variants) == 28
    for record in registry.audit_records:
        for name in REQUIRED[:3]:
            assert getattr(record, name), (record.claim_id, name)
        assert record.power is None or record.power.strip(), record.claim_id
        claim = registry.claim(record.claim_id)
        assert len(claim.mutants) == len(record.multipliers)
        assert claim.seed_policy == record.seed_policy
        for m, why in record.reach.items():
            (mutant,) = [x for x in claim.mutants if f"({m:g}x over-spend)" in x.name]
            assert (mutant.not_a_violation, mutant.out_of_reach) == (
                why.get("not_a_violation", ""),
                why.get("out_of_reach", ""),
            )


def test_a_dropped_record_is_caught(registry):
    records = [r for r in registry.audit_records if r.claim_id != "audit.gem.standard"]
    broken = _copy(registry, records)
    assert audit_record_gaps(broken, auditable) == ["audit.gem.standard: auditable, but no audit record is registered"]
    with pytest.raises(ValueError, match="audit.gem.standard: auditable, but no audit record"):
        algorithm_audit_claims(broken, require_records=True)


def test_a_record_of_an_unknown_algorithm_or_variant_is_caught(registry):
    stray = [
        AuditRecord("no-such-algorithm", "standard", multipliers=(2.0,), power=None),
        AuditRecord("gem", "printed", multipliers=(2.0,), power=None),
        AuditRecord("advanced-composition", "printed", multipliers=(2.0,), power=None),
    ]
    broken = _copy(registry, registry.audit_records + stray)
    gaps = audit_record_gaps(broken, auditable)
    assert gaps == [
        "audit.no-such-algorithm.standard: the record names an unknown algorithm 'no-such-algorithm'",
        "audit.gem.printed: 'gem' has no variant 'printed' (its variants: ('standard',))",
        "audit.advanced-composition.printed: 'advanced-composition' registers no mechanism factory; nothing to audit",
    ]
    with pytest.raises(ValueError, match="unknown algorithm 'no-such-algorithm'"):
        algorithm_audit_claims(broken, require_records=True)


def test_an_incomplete_record_is_refused(registry):
    gem = next(r for r in registry.audit_records if r.claim_id == "audit.gem.standard")
    with pytest.raises(TypeError, match="power"):
        AuditRecord("gem", "standard", multipliers=(2.0, 1.25))  # a required field left out
    with pytest.raises(TypeError, match="multipliers must be a non-empty tuple"):
        dataclasses.replace(gem, multipliers=())
    with pytest.raises(ValueError, match="multipliers must be finite reals > 0"):
        dataclasses.replace(gem, multipliers=(2.0, 0.0))
    with pytest.raises(ValueError, match="power must not be empty"):
        dataclasses.replace(gem, power=" ")
    with pytest.raises(ValueError, match="reach names multipliers \\[4.0\\]"):
        dataclasses.replace(gem, reach={4.0: {"out_of_reach": "x"}})
    with pytest.raises(ValueError, match="reach\\[1.25\\] must be a non-empty dict"):
        dataclasses.replace(gem, reach={1.25: {"proof": "x"}})
    with pytest.raises(ValueError, match="reach\\[1.25\\]\\['not_a_violation'\\] must not be empty"):
        dataclasses.replace(gem, reach={1.25: {"not_a_violation": ""}})
    with pytest.raises(TypeError, match="pairs must be a non-empty list"):
        dataclasses.replace(gem, pairs=[])
    with pytest.raises(TypeError, match="features must be callable"):
        dataclasses.replace(gem, features="sum")
    with pytest.raises(ValueError, match="samples names profiles \\['fast'\\]"):
        dataclasses.replace(gem, samples={"fast": 10})
    with pytest.raises(ValueError, match="seed_policy must be one of"):
        dataclasses.replace(gem, seed_policy="twice")


def test_a_record_is_registered_once():
    reg = Registry()
    record = AuditRecord("toy", "standard", multipliers=(2.0,), power=None)
    reg.add_audit_record(record)
    with pytest.raises(ValueError, match="registered twice"):
        reg.add_audit_record(record)
    with pytest.raises(TypeError, match="record must be an AuditRecord"):
        reg.add_audit_record({"algorithm": "toy"})
    assert reg.audit_record("toy", "standard") is record and reg.audit_record("toy", "printed") is None


# ------------------------------------------------------------------------------ extension in one place

TOY_PAPER = '''
"""A toy paper package: its algorithm, and beside it the algorithm's audit record (nothing else is edited)."""
import math

import numpy as np

from proofs_checks.audit_record import AuditRecord
from proofs_checks.model import Algorithm


class RandomisedResponse:
    """Reports record 0's bit (clipped to 0/1) truthfully with probability e^eps / (1 + e^eps): eps-DP exactly."""

    finite_output = True

    def __init__(self, epsilon):
        self.epsilon = epsilon

    def log_prob(self, data):
        keep = -math.log1p(math.exp(-self.epsilon))
        flip = -math.log1p(math.exp(self.epsilon))
        bit = float(np.asarray(data)[0, 0]) > 0.5
        return np.arange(2), np.array([flip, keep] if bit else [keep, flip])

    def sample(self, data, size, rng):
        outputs, logp = self.log_prob(data)
        return (rng.random(size) < math.exp(logp[1])).astype(np.int64)


def mechanism(variant="standard", epsilon=1.0, delta=0.0):
    return RandomisedResponse(epsilon)


PAIR = (np.zeros((4, 1)), np.vstack([[1.0], np.zeros((3, 1))]))


def register(registry):
    registry.add_algorithm(Algorithm("toy-rr", "[000 Def. 1]", "randomised response on record 0",
                                     mechanism=mechanism, privacy_knob=("log-odds", 1.0)))
    registry.add_audit_record(AuditRecord(
        "toy-rr", "standard", multipliers=(2.0, 1.25), power="detects x2 and x1.25 (the designed pair attains eps)",
        reach={1.25: {"out_of_reach": "a reason with its numbers"}}, pairs=[PAIR], seed_policy="once"))
'''


@pytest.fixture
def toy_paper(tmp_path, monkeypatch):
    package = tmp_path / "toy_paper_pkg"
    package.mkdir()
    (package / "__init__.py").write_text(textwrap.dedent(TOY_PAPER))
    monkeypatch.syspath_prepend(str(tmp_path))
    yield importlib.import_module("toy_paper_pkg")
    sys.modules.pop("toy_paper_pkg", None)


def test_a_new_algorithm_with_its_record_gets_its_audit_claim_from_its_own_package(toy_paper):
    reg = fake_registry()
    toy_paper.register(reg)  # the one place a new algorithm touches: its paper's package
    (claim,) = algorithm_audit_claims(reg, require_records=True)
    assert claim.id == "audit.toy-rr.standard" and claim.algorithm == "toy-rr" and claim.seed_policy == "once"
    assert claim.statement == (
        "toy-rr (standard) is DP at its claimed parameters (auditor, adversarial and designed neighbours)."
    )
    assert [(m.name, m.factor, m.out_of_reach) for m in claim.mutants] == [
        ("log-odds x2 (2x over-spend)", 2.0, ""),
        ("log-odds x1.25 (1.25x over-spend)", 1.25, "a reason with its numbers"),
    ]
    ctx = CheckContext(seed=3)
    res = run_claim(claim, ctx)
    assert res.verdict == "confirmed" and res.observed == pytest.approx(1.0, rel=1e-9)
    assert res.evidence["power"].startswith("detects x2") and res.evidence["designed_pairs"]["pairs"] == 1
    broken = run_claim(dataclasses.replace(claim, check=claim.mutants[0].check, mutants=()), ctx)  # x2 over-spend
    assert broken.verdict == "refuted" and broken.evidence["designed_pairs"]["epsilon_lower"] == pytest.approx(2.0)


def toy_paper_algorithm(toy_paper):
    """The toy package's algorithm, as it registers it."""
    reg = Registry()
    toy_paper.register(reg)
    return reg.algorithm("toy-rr")


def test_registry_of_assembles_claim_sets_and_requires_their_records(toy_paper):
    reg = registry_of([toy_paper])
    assert [c.id for c in reg.claims] == ["audit.toy-rr.standard"]
    without_record = type(
        "NoRecord",
        (),
        {
            "register": staticmethod(
                lambda r: r.add_algorithm(dataclasses.replace(toy_paper_algorithm(toy_paper), id="toy-bare"))
            )
        },
    )
    with pytest.raises(ValueError, match="audit.toy-bare.standard: auditable, but no audit record"):
        registry_of([toy_paper, without_record])
    assert [c.id for c in registry_of([without_record], require_audit_records=False).claims] == [
        "audit.toy-bare.standard"
    ]


def test_designed_pair_of_the_toy_record_attains_epsilon(toy_paper):
    mech = toy_paper.mechanism(epsilon=1.0)
    D, Dp = toy_paper.PAIR
    loss = np.max(np.abs(mech.log_prob(D)[1] - mech.log_prob(Dp)[1]))
    assert loss == pytest.approx(1.0, rel=1e-12)
