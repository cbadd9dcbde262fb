"""The runner: claim-scoped streams, the seed it records, and checks that raise."""

import numpy as np
import pytest

from proofs_checks.model import CheckContext, Claim, Result, claim_key
from proofs_checks.runner import run_claim, run_claims


def _claim(check, cid="demo.claim"):
    return Claim(cid, "[002 Thm. 1]", "demo", "privacy", check)


def test_check_draws_from_its_own_claim_stream():
    seen = {}

    def check(ctx):
        seen["x"] = ctx.rng().random()
        return Result("confirmed", observed=0.5, bound=1.0, direction="at_most", method="m")

    res = run_claim(_claim(check), CheckContext(seed=7))
    expected = np.random.default_rng(np.random.SeedSequence([7, claim_key("demo.claim")])).random()
    assert seen["x"] == expected
    assert res.seed == [7, claim_key("demo.claim")]
    assert res.margin == 0.5


def test_a_check_that_raises_is_an_error_not_a_verdict():
    def check(ctx):
        raise ValueError("nan at b = 0")

    res = run_claim(_claim(check), CheckContext())
    assert res.verdict == "error"
    assert "ValueError: nan at b = 0" in res.evidence["exception"]
    assert "Traceback" in res.evidence["traceback"]


def test_a_check_returning_something_else_is_an_error():
    res = run_claim(_claim(lambda ctx: "confirmed"), CheckContext())
    assert res.verdict == "error" and "not Result" in res.evidence["exception"]


def test_run_claims_goes_on_after_an_error():
    ok = _claim(lambda ctx: Result("confirmed"), "b.ok")
    bad = _claim(lambda ctx: 1 / 0, "a.bad")
    out = run_claims([bad, ok], CheckContext())
    assert [r.verdict for _, r in out] == ["error", "confirmed"]


def test_keyboard_interrupt_propagates():
    def check(ctx):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_claim(_claim(check), CheckContext())


@pytest.mark.parametrize(
    "bad",
    [
        dict(verdict="not refuted"),
        dict(verdict="confirmed", direction="below"),
        dict(verdict="confirmed", observed=float("nan")),
    ],
)
def test_result_rejects_bad_fields(bad):
    with pytest.raises((ValueError, TypeError)):
        Result(**bad)


def test_randomised_claims_run_on_several_seeds_and_disagreement_is_inconclusive():
    from proofs_checks.stability import extra_seeds, run_claim_across_seeds

    def coin(ctx):
        x = ctx.rng().random()
        return Result("confirmed" if x < 0.5 else "refuted", observed=x)

    seeds = [20261121] + extra_seeds(20261121, 4)
    draws = [np.random.default_rng(np.random.SeedSequence([s, claim_key("demo.claim")])).random() for s in seeds]
    res = run_claim_across_seeds(_claim(coin), CheckContext(), 5)
    assert [e["observed"] for e in res.evidence["seeds"]] == draws
    agree = len({d < 0.5 for d in draws}) == 1
    assert res.verdict == (("confirmed" if draws[0] < 0.5 else "refuted") if agree else "inconclusive")


def test_deterministic_claims_run_once():
    from proofs_checks.stability import run_claim_across_seeds

    calls = []

    def det(ctx):
        calls.append(1)
        return Result("confirmed", observed=1.0)

    res = run_claim_across_seeds(_claim(det), CheckContext(), 5)
    assert calls == [1] and "seeds" not in res.evidence


def test_agreeing_seeds_keep_the_verdict():
    from proofs_checks.stability import run_claim_across_seeds

    res = run_claim_across_seeds(
        _claim(lambda ctx: Result("refuted", observed=ctx.rng().random() + 2)), CheckContext(), 3
    )
    assert res.verdict == "refuted" and len(res.evidence["seeds"]) == 3


def test_privacy_tally_rows_equal_the_pairwise_losses():
    # The vectorised add_rows must give exactly the loss of max_privacy_loss row by row.
    from proofs_checks.audit.exact import max_privacy_loss
    from proofs_checks.builders import PrivacyTally

    rng = np.random.default_rng(0)
    lp = np.log(rng.dirichlet(np.ones(6), size=9))
    lp[4, 2] = -np.inf  # support that moves: infinite loss
    t = PrivacyTally().add_rows(lp, 0.7, where_of=lambda j: j)
    expected = [max_privacy_loss(lp[0], lp[b]) / 0.7 for b in range(1, 9)]
    assert t.worst.value == max(expected) == np.inf and t.worst.where == 3 and t.pairs == 8
    lp[4, 2] = np.log(0.1)
    t = PrivacyTally().add_rows(lp, 0.7, where_of=lambda j: j)
    expected = [max_privacy_loss(lp[0], lp[b]) / 0.7 for b in range(1, 9)]
    assert t.worst.value == max(expected) and t.worst.where == int(np.argmax(expected))


# ------------------------------------------------------------------ claims in worker processes


def _draws_registry():
    """Module-level factory (it must pickle): claims whose results are their streams' first draws."""
    from proofs_checks.registry import Registry

    def check(ctx):
        return Result("confirmed", observed=float(ctx.rng().random()), bound=1.0, direction="at_most", method="m")

    reg = Registry()
    for i in range(6):
        reg.add_claim(Claim(f"demo.claim{i}", "[002 Thm. 1]", "demo", "inequality", check))
    return reg


def test_claims_in_workers_give_the_sequential_results_in_order():
    from proofs_checks.runner import iter_claims_in_workers

    claims = _draws_registry().claims
    ctx = CheckContext(seed=11, jobs=2)
    after = _record_jobs
    one = list(iter_claims_in_workers(claims, ctx, 1, registry_factory=_draws_registry, after=after))
    two = list(iter_claims_in_workers(claims, ctx, 2, registry_factory=_draws_registry, after=after))
    assert [c.id for c, _, _ in two] == [c.id for c in claims]
    assert [(r.observed, r.seed, r.verdict) for _, r, _ in one] == [(r.observed, r.seed, r.verdict) for _, r, _ in two]
    # the workers fill the cores: each claim inside one runs with jobs = 1
    assert {x for _, _, x in one} == {2} and {x for _, _, x in two} == {1}


def _record_jobs(claim, ctx, result):
    return ctx.jobs


def test_longest_claims_start_first_and_results_keep_claim_order(monkeypatch):
    # LPT schedule from the static cost table; the results are still handed on in claim order.
    from proofs_checks import claim_costs
    from proofs_checks.runner import iter_claims_in_workers, longest_first

    claims = _draws_registry().claims
    monkeypatch.setattr(claim_costs, "QUICK_SECONDS", {"demo.claim4": 9.0, "demo.claim1": 5.0})
    assert longest_first(claims) == [4, 1, 0, 2, 3, 5]
    ctx = CheckContext(seed=11, jobs=2)
    two = list(iter_claims_in_workers(claims, ctx, 2, registry_factory=_draws_registry))
    assert [c.id for c, _, _ in two] == [c.id for c in claims]
    one = list(iter_claims_in_workers(claims, ctx, 1, registry_factory=_draws_registry))
    assert [r.observed for _, r, _ in one] == [r.observed for _, r, _ in two]


def test_only_the_default_seed_draws_figures(tmp_path):
    # The report's figure must be the default seed's (the result it sits beside), not the last seed's.
    from proofs_checks.stability import run_claim_across_seeds

    drawn = []

    def plotting(ctx):
        drawn.append(ctx.out_dir)
        return Result("confirmed", observed=ctx.rng().random())

    res = run_claim_across_seeds(_claim(plotting), CheckContext(out_dir=tmp_path), 3)
    assert len(res.evidence["seeds"]) == 3 and drawn == [tmp_path, None, None]


def _pid_registry():
    """Module-level factory: one claim whose observed value is the worker's process id."""
    import os

    from proofs_checks.registry import Registry

    reg = Registry()
    for i in range(4):
        reg.add_claim(
            Claim(
                f"demo.pid{i}",
                "[002 Thm. 1]",
                "demo",
                "inequality",
                lambda ctx: Result(
                    "confirmed", observed=float(os.getpid()), bound=1e12, direction="at_most", method="m"
                ),
            )
        )
    return reg


def test_started_workers_are_the_ones_that_run_the_claims_and_change_no_result():
    import os

    from proofs_checks.runner import iter_claims_in_workers, start_workers

    assert start_workers(1, registry_factory=_draws_registry) is None  # one worker: nothing started
    assert start_workers(2, registry_factory=lambda: _draws_registry()) is None  # does not pickle: nothing
    claims = _draws_registry().claims
    ctx = CheckContext(seed=11, jobs=2)
    cold = list(iter_claims_in_workers(claims, ctx, 2, registry_factory=_draws_registry))
    start_workers(2, registry_factory=_draws_registry).join()
    warm = list(iter_claims_in_workers(claims, ctx, 2, registry_factory=_draws_registry))
    assert [(c.id, r.observed, r.seed) for c, r, _ in warm] == [(c.id, r.observed, r.seed) for c, r, _ in cold]
    # the same (reused) worker processes, not this one
    start_workers(2, registry_factory=_pid_registry).join()
    pids = {
        r.observed for _, r, _ in iter_claims_in_workers(_pid_registry().claims, ctx, 2, registry_factory=_pid_registry)
    }
    assert float(os.getpid()) not in pids and 1 <= len(pids) <= 2
