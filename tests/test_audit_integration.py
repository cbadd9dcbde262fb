"""verify's audit claims: generated per algorithm and variant, honest verdict mapping, domain hook."""

import numpy as np

from proofs_checks.audit.neighbours import black_box_pairs, domain_projector, search_exact
from proofs_checks.audit_claims import privacy_audit_check
from proofs_checks.model import Algorithm, CheckContext
from proofs_checks.registry import default_registry
from proofs_checks.runner import run_claim

CTX = CheckContext(seed=4)


def test_every_algorithm_with_a_factory_gets_one_audit_claim_per_variant():
    reg = default_registry()
    ids = {c.id for c in reg.claims}
    for alg in reg.algorithms:
        if alg.mechanism is not None:
            for v in alg.variants:
                assert f"audit.{alg.id}.{v}" in ids


def test_exact_audit_refutes_the_printed_wang_xu_exponent():
    reg = default_registry()
    printed = run_claim(reg.claim("audit.wang-xu-1.printed"), CTX)
    assert printed.verdict == "refuted" and printed.observed > printed.bound
    assert run_claim(reg.claim("audit.wang-xu-1.standard"), CTX).verdict == "confirmed"


class _Raises:
    def sample(self, data, size, rng=None):
        raise ValueError("printed formula gave NaN")


class _Bounded:
    """Releases the mean of records clipped to [-1, 1]: only in-domain records are allowed."""

    record_width = 1

    def project_records(self, records):
        return np.clip(records, -1.0, 1.0)

    def sample(self, data, size, rng=None):
        data = np.asarray(data)
        assert np.all(np.abs(data) <= 1.0), "out-of-domain record reached the mechanism"
        return np.random.default_rng(rng).laplace(data.mean(), 2.0 / len(data), size=(size, 1))

    def log_prob(self, data):
        data = np.asarray(data)
        assert np.all(np.abs(data) <= 1.0), "out-of-domain record reached the mechanism"
        outputs = np.array([0, 1])
        p = 1 / (1 + np.exp(-data.mean()))
        return outputs, np.log([1 - p, p])


def test_mechanism_that_cannot_run_is_no_verdict():
    # ValueError on every dataset (the printed formula's NaN): nothing audited, inconclusive with the reason.
    alg = Algorithm("raises", "test", "raises", mechanism=lambda **kw: _Raises())
    res = privacy_audit_check(alg, "standard", 1.0, 0.0)(CTX.for_claim("audit.raises.standard"))
    assert res.verdict == "inconclusive" and "NaN" in res.evidence["reason"]


def test_domain_hook_keeps_every_candidate_in_the_domain():
    mech = _Bounded()
    D = np.zeros((5, 1))
    search_exact(mech, D, 0.0, rng=0, max_evaluations=50)  # asserts inside the mechanism
    project = domain_projector(mech)
    for a, b, _ in black_box_pairs(D, project=project):
        assert np.all(np.abs(a) <= 1) and np.all(np.abs(b) <= 1)


def test_statistical_non_refutation_is_inconclusive():
    alg = Algorithm(
        "bounded",
        "test",
        "bounded",
        mechanism=lambda **kw: type(
            "M", (), {"record_width": 1, "project_records": _Bounded.project_records, "sample": _Bounded.sample}
        )(),
    )
    res = privacy_audit_check(alg, "standard", 1.0, 0.0)(CTX.for_claim("audit.bounded.standard"))
    assert res.verdict == "inconclusive" and res.evidence["method"] == "statistical"
    assert res.observed == res.evidence["epsilon_lower"] and res.method.startswith("statistical audit")


class _RaisesGiven:
    """A mechanism that cannot run anywhere (as the printed robust gradient at b = 0), or that has a bug."""

    def __init__(self, exc):
        self.exc = exc

    def sample(self, data, size, rng):
        raise self.exc


def _raising_algorithm(exc):
    from proofs_checks.model import Algorithm

    return Algorithm(
        "raises",
        "[002 Alg. 5]",
        "raises",
        variants=("printed",),
        mechanism=lambda variant, epsilon, delta: _RaisesGiven(exc),
    )


def test_a_registered_mechanism_that_cannot_run_is_inconclusive_not_a_verdict():
    from proofs_checks.audit_claims import privacy_audit_check
    from proofs_checks.model import CheckContext, Claim
    from proofs_checks.runner import run_claim

    check = privacy_audit_check(_raising_algorithm(ValueError("non-finite values")), "printed", epsilon=1.0)
    res = run_claim(Claim("audit.raises.printed", "[002 Alg. 5]", "s", "privacy", check), CheckContext())
    assert res.verdict == "inconclusive"
    assert "cannot run" in res.method or "raised" in res.method


def test_a_registered_mechanism_with_a_bug_is_an_error():
    from proofs_checks.audit_claims import privacy_audit_check
    from proofs_checks.model import CheckContext, Claim
    from proofs_checks.runner import run_claim

    check = privacy_audit_check(_raising_algorithm(RuntimeError("bug")), "printed", epsilon=1.0)
    res = run_claim(Claim("audit.raises.printed", "[002 Alg. 5]", "s", "privacy", check), CheckContext())
    assert res.verdict == "error"
