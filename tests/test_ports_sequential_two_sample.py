"""Sequential stopping of the continuous whole algorithms' two-sample tests (proofs_checks/conform/
sequential_two_sample.py): a correct port passes early, a slipped one fails early naming the look, the level holds
and the early pass gives up at most FUTILITY of the power against a slip at the stated distance."""

from __future__ import annotations

import types

import numpy as np
import pytest
from scipy import stats

from proofs_checks.conform import algorithms_sparse as S
from proofs_checks.conform import reference_port, sequential
from proofs_checks.conform.sequential_two_sample import dkw_margin, sequential_two_sample_test

_N = 20_000  # the default size of the continuous algorithms


def _slipped(name, slip):
    change = dict(S.SLIPS[name][slip])
    mod = types.ModuleType("slipped_port")
    setattr(mod, name, lambda size=None, rng=None, **inst: S.reference_draws(name, size, rng, **change))
    return mod


def _check(name, port, seed=7, sequential_on=True):
    token = sequential.ENABLED.set(sequential_on)
    try:
        return S.SPARSE_CHECKS[name][1](port, _N, np.random.default_rng(seed))
    finally:
        sequential.ENABLED.reset(token)


def test_correct_port_passes_early():
    ok, msg, detail = _check("output_perturbation", reference_port)
    assert ok and msg is None
    assert detail["stopped"] == "clearly right" and detail["draws_used"] < _N


def test_slipped_port_fails_early_naming_the_look():
    ok, msg, detail = _check(
        "output_perturbation", _slipped("output_perturbation", next(iter(S.SLIPS["output_perturbation"])))
    )
    assert not ok and detail["stopped"] == "clearly wrong" and detail["look"] == 1
    assert msg.startswith("output_perturbation: whole-algorithm law (two-sample against the reference), ")
    assert msg.endswith(f"[stopped early at look 1 of 3, 1250 of {_N} runs]")


def test_no_sequential_draws_everything():
    ok, _, detail = _check("output_perturbation", reference_port, sequential_on=False)
    assert ok and detail["draws_used"] == _N and detail["stopped"] == "final"


def _normal_test(shift, runs, seed):
    """``runs`` sequential tests of N(shift, 1) against N(0, 1) in two coordinates, with min_distance 0.1."""
    out = []
    for gen in (np.random.default_rng(s) for s in np.random.SeedSequence([seed, 31]).spawn(runs)):
        port = lambda m: gen.normal(0.0, 1.0, (m, 2)) + [shift, 0.0]  # noqa: B023, E731 (called at once)
        ref = lambda m: gen.normal(0.0, 1.0, (m, 2))  # noqa: B023, E731
        out.append(sequential_two_sample_test(port, ref, _N, S.two_sample_test, 0.1))
    return out


def test_sequential_level_holds():
    """False alarms over 40 correct pairs at level 1e-3 (error spending 0.05/0.05/0.9): none expected."""
    results = _normal_test(0.0, 40, 1)
    assert sum(not ok for ok, _, _ in results) <= 1
    assert all(detail["stopped"] == "clearly right" for _, _, detail in results)


def test_early_pass_keeps_the_power_against_a_slip_at_the_stated_distance():
    """A shift whose KS distance is exactly 0.1 (mu = 2 Phi^-1(0.55)): an early pass at most FUTILITY per look
    (two looks: 0.01; 100 runs: at most 1 + 3 sd = 2 early passes)."""
    mu = 2.0 * stats.norm.ppf(0.55)
    results = _normal_test(mu, 100, 2)
    assert sum(detail["stopped"] == "clearly right" for _, _, detail in results) <= 2
    assert all(not ok for ok, _, _ in results)


def test_dkw_margin_is_the_stated_one():
    assert dkw_margin(5_000) == pytest.approx(np.sqrt(np.log(4 / sequential.FUTILITY) / 10_000), rel=1e-15)
    with pytest.raises(ValueError, match="m must be"):
        dkw_margin(0)


@pytest.mark.slow
@pytest.mark.parametrize("name, slip", [(n, s) for n in S.SLIPS for s in S.SLIPS[n]])
def test_every_stated_slip_is_protected_by_the_early_pass(name, slip):
    """Each slip moves its law by at least its algorithm's EARLY_PASS_DISTANCE (with the estimate's margin)."""
    assert S.slip_distance(name, slip, 20_000) - 2.0 * dkw_margin(20_000) >= S.EARLY_PASS_DISTANCE[name] - 1e-3
