import json

import numpy as np
import pytest

from proofs_checks.audit.api import EXACT_ATOL, EXACT_RTOL, audit
from proofs_checks.audit.neighbours import default_dataset
from proofs_checks.audit.primitive_mechanisms import PRIMITIVE_FACTORIES, RecordExponential
from proofs_checks.audit_claims import algorithm_audit_claims, audit_algorithm, privacy_audit_check, resolve_mechanism
from proofs_checks.cli import main
from proofs_checks.model import Algorithm, CheckContext
from proofs_checks.registry import Registry, default_registry
from proofs_checks.runner import run_claim
from proofs_checks.verdicts import ROUNDING_ATOL, ROUNDING_RTOL
from tests._audit_helpers import COIN, MECH, AdditiveExp, NoSample, coin_pairs

JSON_FIELDS = {
    "algorithm",
    "variant",
    "claimed_epsilon",
    "claimed_delta",
    "method",
    "epsilon_lower",
    "confidence",
    "samples",
    "pair",
    "verdict",
    "seed",
    "seconds",
}


def _primitives():
    """A registry of the primitives alone (their mechanisms come from PRIMITIVE_FACTORIES)."""
    reg = Registry()
    for alg_id in PRIMITIVE_FACTORIES:
        reg.add_algorithm(Algorithm(alg_id, "test", alg_id))
    return reg


def test_unknown_algorithm_id():
    with pytest.raises(KeyError, match="unknown algorithm id 'wang-xu-9'.*laplace"):
        resolve_mechanism("wang-xu-9", registry=_primitives())
    with pytest.raises(TypeError, match="registry"):
        resolve_mechanism("laplace")


def test_exact_tolerances_are_the_rounding_tolerances():
    assert (EXACT_RTOL, EXACT_ATOL) == (ROUNDING_RTOL, ROUNDING_ATOL)


def test_registry_factory_used_and_variants_checked():
    reg = Registry()
    reg.add_algorithm(
        Algorithm(
            "toy",
            "test",
            "toy",
            variants=("printed", "standard"),
            mechanism=lambda variant, epsilon, delta, **kw: AdditiveExp(
                epsilon / 2 if variant == "standard" else epsilon
            ),
        )
    )
    ok = audit_algorithm("toy", "standard", 1.0, registry=reg, seed=0, search_budget=400)
    bad = audit_algorithm("toy", "printed", 1.0, registry=reg, seed=0, search_budget=400)
    assert ok.method == "exact" and ok.verdict == "not refuted" and ok.algorithm == "toy"
    assert bad.verdict == "refuted" and bad.epsilon_lower > 1.0
    with pytest.raises(ValueError, match="variant"):
        audit_algorithm("toy", "other", 1.0, registry=reg)


def test_exact_user_pair_matches_analytic():
    # FiniteCoin: p0 = 0.3, p1 = 0.6 -> loss max(log 2, log(0.7/0.4)) = log 2.
    r = audit(COIN, epsilon=0.5, pairs=coin_pairs()[0])
    assert r.method == "exact" and r.epsilon_lower == pytest.approx(np.log(2), abs=1e-12) and r.verdict == "refuted"


def test_statistical_user_pair_and_errors():
    D = np.zeros((3, 1))
    Dp = D.copy()
    Dp[0] = 1
    r = audit(MECH, epsilon=1.0, pairs=[(D, Dp)], samples=20_000, seed=3)
    assert r.method == "statistical" and r.verdict == "refuted" and JSON_FIELDS <= set(r.as_dict())
    Dp[1] = 1
    with pytest.raises(ValueError, match="not neighbouring"):
        audit(MECH, epsilon=1.0, pairs=[(D, Dp)], samples=1000)
    r2 = audit(MECH, epsilon=1.0, pairs=[(D, Dp)], samples=20_000, any_pair=True)
    assert "taken as given" in r2.pair
    with pytest.raises(TypeError, match="sample"):
        audit(NoSample(), epsilon=1.0)
    with pytest.raises(ValueError, match="samples"):
        audit(MECH, epsilon=1.0, samples=50)
    with pytest.raises(ValueError, match="confidence"):
        audit(MECH, epsilon=1.0, confidence=1.0)
    with pytest.raises(ValueError, match="epsilon"):
        audit(MECH)


@pytest.mark.parametrize("alg_id", ["laplace", "gaussian", "exponential", "report-noisy-max", "gem"])
def test_primitives_not_refuted(alg_id):
    r = audit_algorithm(alg_id, registry=_primitives(), profile="quick", seed=1)
    assert r.verdict == "not refuted", r.as_dict()


def test_privacy_check_rejects_broken_primitive():
    reg = Registry()
    reg.add_algorithm(
        Algorithm(
            "exponential",
            "x",
            "broken",
            mechanism=lambda variant, epsilon, delta, **kw: RecordExponential(epsilon, 4, 1.0),
        )
    )
    ctx = CheckContext(seed=1).for_claim("audit.exponential.standard")
    check = privacy_audit_check(reg.algorithm("exponential"), epsilon=1.0)
    bad = check(ctx)
    assert bad.verdict == "refuted" and bad.observed > bad.bound == 1.0 and bad.margin < 0
    good = privacy_audit_check("exponential", registry=_primitives())(ctx)
    assert good.verdict == "confirmed" and good.direction == "at_most" and 0 < good.observed <= good.bound
    assert good.method.startswith("exact audit") and "replace-one neighbouring datasets" in good.reading
    assert good.evidence["epsilon_lower"] == good.observed


def _cli(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_cli_json_and_jobs_invariance(capsys):
    args = ["audit", "laplace", "--samples", "20000", "--seed", "4", "--json"]
    code, out, _ = _cli(capsys, *args)
    assert code == 0
    a = json.loads(out)
    assert JSON_FIELDS <= set(a) and a["method"] == "statistical" and a["verdict"] in ("refuted", "not refuted")
    code, out, _ = _cli(capsys, *args, "--jobs", "2")
    b = json.loads(out)
    assert a["epsilon_lower"] == b["epsilon_lower"] and a["pair"] == b["pair"]


def test_cli_user_mechanism(capsys, tmp_path):
    D = np.zeros((3, 1))
    Dp = D.copy()
    Dp[0] = 1
    np.savez(tmp_path / "pair.npz", D=D, D_prime=Dp)
    code, out, _ = _cli(
        capsys,
        "audit",
        "--mechanism",
        "tests._audit_helpers:MECH",
        "--pair",
        str(tmp_path / "pair.npz"),
        "--epsilon",
        "1",
        "--samples",
        "20000",
        "--json",
    )
    assert code == 0 and json.loads(out)["verdict"] == "refuted"
    code, out, _ = _cli(
        capsys,
        "audit",
        "--mechanism",
        "tests._audit_helpers:COIN",
        "--neighbours",
        "tests._audit_helpers:coin_pairs",
        "--epsilon",
        "1",
        "--json",
    )
    assert code == 0 and json.loads(out)["method"] == "exact"
    Dp[1] = 1
    np.savez(tmp_path / "far.npz", D=D, D_prime=Dp)
    code, _, err = _cli(
        capsys,
        "audit",
        "--mechanism",
        "tests._audit_helpers:MECH",
        "--pair",
        str(tmp_path / "far.npz"),
        "--epsilon",
        "1",
        "--samples",
        "2000",
    )
    assert code == 2 and "any-pair" in err
    code, _, _ = _cli(
        capsys,
        "audit",
        "--mechanism",
        "tests._audit_helpers:MECH",
        "--pair",
        str(tmp_path / "far.npz"),
        "--epsilon",
        "1",
        "--samples",
        "2000",
        "--any-pair",
    )
    assert code == 0


@pytest.mark.parametrize(
    "argv, msg",
    [
        (["audit", "no-such-id"], "unknown algorithm id"),
        (["audit", "laplace", "--samples", "10"], "samples"),
        (["audit", "laplace", "--confidence", "1.2"], "confidence"),
        (["audit", "--mechanism", "tests._audit_helpers:NoSample", "--epsilon", "1"], "sample"),
        (["audit", "--mechanism", "tests._audit_helpers:MECH"], "--epsilon"),
        (["audit", "--mechanism", "nomodule_xyz:M", "--epsilon", "1"], "cannot import"),
        (["audit"], "exactly one"),
    ],
)
def test_cli_bad_input(capsys, argv, msg):
    code, _, err = _cli(capsys, *argv)
    assert code == 2 and msg in err


def test_every_primitive_has_a_factory():
    assert set(PRIMITIVE_FACTORIES) == {"laplace", "gaussian", "exponential", "report-noisy-max", "gem", "peeling"}


def test_algorithm_audit_claims_cover_variants():
    reg = Registry()
    reg.add_algorithm(
        Algorithm(
            "toy",
            "test",
            "toy",
            variants=("printed", "standard"),
            mechanism=lambda variant, epsilon, delta, **kw: _Wide(epsilon / 2 if variant == "standard" else epsilon),
        )
    )
    reg.add_algorithm(Algorithm("no-mech", "test", "nothing to audit"))
    claims = algorithm_audit_claims(reg)
    assert [c.id for c in claims] == ["audit.toy.printed", "audit.toy.standard"]
    results = {c.variant: run_claim(c, CheckContext(seed=3)) for c in claims}
    assert {v: r.verdict for v, r in results.items()} == {"printed": "refuted", "standard": "confirmed"}
    # the audit's seed is drawn from the claim's own stream, and the result records that stream
    for claim in claims:
        ctx = CheckContext(seed=3).for_claim(claim.id)
        assert results[claim.variant].seed == ctx.seed_entropy()
        assert results[claim.variant].evidence["seed"] == int(ctx.seed_sequence().generate_state(1)[0])


def test_cli_audits_every_registered_variant(capsys, tmp_path):
    # verify audits hu-2's variant lemma2: the CLI accepts it too (its choices come from the registry).
    # One given neighbouring pair and a small sampler check keep the exact audit short (the default
    # 2,000,000 draws per dataset of Frank-Wolfe made this test take 40 s, now 2 s; the flag is what is tested).
    mech = resolve_mechanism("hu-2", "lemma2", registry=default_registry())[0]
    D = default_dataset(mech, np.random.default_rng(0))
    D_prime = D.copy()
    D_prime[0] = -D_prime[0]
    np.savez(tmp_path / "pair.npz", D=D, D_prime=D_prime)
    code, out, err = _cli(
        capsys,
        "audit",
        "hu-2",
        "--variant",
        "lemma2",
        "--pair",
        str(tmp_path / "pair.npz"),
        "--sampler-samples",
        "20000",
        "--json",
    )
    assert code == 0, err
    res = json.loads(out)
    assert res["variant"] == "lemma2" and res["method"] == "exact" and res["details"]["pairs_evaluated"] == 1
    code, _, err = _cli(capsys, "audit", "laplace", "--variant", "lemma2")
    assert code == 2 and "lemma2" in err and "laplace" in err


def test_cli_rejects_an_unregistered_variant(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["audit", "laplace", "--variant", "no-such-variant"])
    assert exc.value.code == 2 and "invalid choice" in capsys.readouterr().err
    assert "lemma2" in {v for a in default_registry().algorithms for v in a.variants}


class _Wide(AdditiveExp):
    def __init__(self, factor):
        super().__init__(factor, k=3)


def test_sampler_alpha_sets_the_sampler_checks_error_and_is_validated():
    mech = PRIMITIVE_FACTORIES["exponential"](epsilon=1.0)
    res = audit(mech, epsilon=1.0, sampler_samples=2_000, sampler_alpha=1e-4, seed=1, search_budget=20)
    assert res.method == "exact" and res.details["sampler_check"]["alpha"] == 1e-4
    default = audit(mech, epsilon=1.0, sampler_samples=2_000, seed=1, search_budget=20, confidence=0.9)
    assert default.details["sampler_check"]["alpha"] == pytest.approx(0.1)
    for bad in (0.0, 1.0, "0.01", True):
        with pytest.raises(ValueError, match="sampler_alpha"):
            audit(mech, epsilon=1.0, sampler_alpha=bad, search_budget=20)
