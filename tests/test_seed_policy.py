"""The seed policy is declared by each claim (``Claim.seed_policy``), not inferred from its id.

Before the declaration, ``proofs_checks/stability.py`` kept a table of claim-id prefixes (``EXPENSIVE``) whose
claims ran on one seed; :data:`OLD_EXPENSIVE_PREFIXES` is that table, frozen here, so that the test shows the
declarations moved no claim from one policy to the other.
"""

from __future__ import annotations

import pytest

from proofs_checks.model import SEED_POLICIES, CheckContext, Claim, Result
from proofs_checks.registry import default_registry
from proofs_checks.stability import DEFAULT_SEEDS, default_seeds, run_claim_across_seeds

#: The prefixes of the former ``stability.EXPENSIVE`` (one quick run of about 2 s or more when measured).
OLD_EXPENSIVE_PREFIXES = (
    "wang-xu.alg2.error-split",
    "wang-xu.alg1.error-split",
    "wang-xu.alg1.rate.",
    "wang-xu.alg2.rate.",
    "rates.hu.",
    "wang-xu.lemma4.",
    "wang-xu.lemma5.",
    "wang-xu.lemma7.",
    "wang-xu.lemma8.",
    "wang-xu.lemma10.",
    "audit.hu-1.",
    "audit.calibration.power",
    "proofs.002.lemma2.exact-rr.printed",
    "proofs.002.kl-identity-18",
    "catoni.identity5.float64",
    "wang-xu.lemma9.concentration",
    "audit.calibration.verdicts",
    "hu.thm1.privacy.printed",
)


@pytest.fixture(scope="module")
def registry():
    return default_registry()


def _old_policy(claim_id):
    return "once" if claim_id.startswith(OLD_EXPENSIVE_PREFIXES) else "several"


def test_every_claim_declares_the_policy_the_old_prefix_table_gave(registry):
    moved = {c.id: (c.seed_policy, _old_policy(c.id)) for c in registry.claims if c.seed_policy != _old_policy(c.id)}
    assert not moved, moved
    assert all(c.seed_policy in SEED_POLICIES for c in registry.claims)
    # 49 claim-set claims (000's leverage designs, 002's pseudo-Huber Theorem 3, eps sweeps, thm8.asymmetric the latest)
    # + audit.hu-1.*
    assert sum(c.seed_policy == "once" for c in registry.claims) == 55
    # every old prefix still names a registered claim (none went stale unnoticed)
    assert all(any(c.id.startswith(p) for c in registry.claims) for p in OLD_EXPENSIVE_PREFIXES)


def test_default_seeds_reads_the_declaration_not_the_id():
    check = lambda ctx: Result("confirmed")  # noqa: E731
    cheap = Claim("rates.hu.toy", "[002 Thm. 2]", "s", "rate", check)  # an old expensive prefix, declared cheap
    expensive = Claim("toy.cheap-name", "[002 Thm. 2]", "s", "rate", check, seed_policy="once")
    assert default_seeds(cheap, "quick") == (DEFAULT_SEEDS["quick"], None)
    n, why = default_seeds(expensive, "full")
    assert n == 1 and "seed_policy 'once'" in why
    with pytest.raises(TypeError, match="claim must be a Claim"):
        default_seeds("rates.hu.thm2", "quick")


def test_claim_rejects_an_unknown_seed_policy():
    with pytest.raises(ValueError, match="seed_policy must be one of"):
        Claim("toy", "[002 Thm. 2]", "s", "rate", lambda ctx: None, seed_policy="expensive")


def test_an_expensive_randomised_claim_runs_once_and_says_so():
    calls = []

    def check(ctx):
        calls.append(ctx.seed)
        ctx.rng().random()
        return Result("confirmed")

    res = run_claim_across_seeds(
        Claim("toy.sweep", "[000 Thm. 1]", "s", "rate", check, seed_policy="once"), CheckContext(seed=5)
    )
    assert calls == [5] and "seed_policy 'once'" in res.evidence["seed_policy"]
    calls.clear()
    res = run_claim_across_seeds(Claim("toy.sweep", "[000 Thm. 1]", "s", "rate", check), CheckContext(seed=5))
    assert len(calls) == DEFAULT_SEEDS["quick"] and "seed_policy" not in res.evidence
