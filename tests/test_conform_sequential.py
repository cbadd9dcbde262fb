"""Sequential stopping of the counts tests: the error spending keeps the false-failure rate, the early pass keeps the
stated power, slipped ports stop early naming the look, and the kit can draw everything instead."""

from __future__ import annotations

import types

import numpy as np
import pytest
from scipy import stats

import examples.numpy_port as good
from proofs_checks.conform import samplers as S
from proofs_checks.conform import sequential as Q

_LAW = np.array([0.05, 0.15, 0.3, 0.5])


def _drawer(rng, probs):
    """``draw(m)``: m outcome indices of the law ``probs`` (multinomial counts, order irrelevant to the test)."""
    return lambda m: np.repeat(np.arange(probs.size), rng.multinomial(m, probs))


def _slipped(probs, outcome=0, rel=0.1):
    out = probs.copy()
    out[outcome] *= 1 + rel
    rest = np.arange(out.size) != outcome
    out[rest] *= (1 - out[outcome]) / out[rest].sum()
    return out


def test_looks_and_spending():
    assert Q.look_sizes(200_000) == [12_500, 50_000, 200_000]
    assert sum(Q.SPENDING) == pytest.approx(1.0) and len(Q.SPENDING) == len(Q.LOOKS)


def test_a_correct_law_stops_early_and_rarely_fails():
    """False failures: 400 simulated correct samplers at the CI size, at most 2 fail (alpha 1e-3 overall)."""
    rng = np.random.default_rng(31)
    runs = [Q.sequential_counts_test(_drawer(rng, _LAW), _LAW, 200_000) for _ in range(400)]
    assert sum(not ok for ok, _, _ in runs) <= 2
    # at the second look (50,000 draws) every outcome already excludes a 10% error in most runs
    early = [d["draws_used"] for ok, _, d in runs if ok and d["stopped"] == "clearly right"]
    assert len(early) >= 0.8 * len(runs) and max(early) <= 50_000


def test_a_slipped_law_stops_at_the_first_look_naming_it():
    rng = np.random.default_rng(32)
    ok, msg, detail = Q.sequential_counts_test(_drawer(rng, _slipped(_LAW, rel=0.4)), _LAW, 200_000)
    assert not ok and detail["stopped"] == "clearly wrong" and detail["draws_used"] == 12_500
    assert "stopped early at look 1 of 3, 12500 of 200000 draws" in msg


def test_the_early_pass_gives_up_at_most_futility_against_the_stated_slip():
    # at n = 30,400 draws an outcome of probability 0.05 moved by the stated 10% has z about 4: the early-pass bound
    # sits FUTILITY of the slipped z's spread below it, so about 0.5% of slipped samples pass early
    rng = np.random.default_rng(33)
    n, law = 30_400, np.array([0.05, 0.95])
    slipped = _slipped(law)
    passes = sum(Q.clearly_right(rng.multinomial(n, slipped), law) for _ in range(4000))
    limit = 4000 * Q.FUTILITY + 3 * np.sqrt(4000 * Q.FUTILITY)
    assert passes <= limit
    # power: a rule that ignores the slipped spread and spends 5% per look gives up visibly more
    z = stats.norm.isf(0.05)
    loose = sum(
        np.all(np.abs((c - n * law) / np.sqrt(n * law * (1 - law))) <= 0.1 * np.sqrt(n * law / (1 - law)) - z)
        for c in (rng.multinomial(n, slipped) for _ in range(4000))
    )
    assert loose > limit


def _port(**overrides):
    mod = types.ModuleType("port")
    mod.__dict__.update({k: v for k, v in vars(good).items() if not k.startswith("__")})
    mod.__dict__.update(overrides)
    return mod


def test_the_kit_reports_the_draws_used_and_can_draw_everything():
    slipped = _port(
        report_noisy_max=lambda scores, scale, size=None, rng=None: good.report_noisy_max(
            scores, 0.8 * scale, size, rng
        )
    )
    (early,) = S.run_samplers(slipped, size="small", only={"report_noisy_max"})
    (full,) = S.run_samplers(slipped, size="small", only={"report_noisy_max"}, sequential_stopping=False)
    assert early["status"] == full["status"] == "failed"
    assert early["detail"]["draws_used"] == 12_500 and "stopped early at look 1 of 3" in early["message"]
    assert full["detail"]["draws"] == 200_000 and "stopped early" not in full["message"]
    (right,) = S.run_samplers(good, size="default", only={"report_noisy_max"})
    assert right["status"] == "passed" and right["detail"]["stopped"] == "clearly right"
    assert right["detail"]["draws_used"] == 250_000  # of 4,000,000


def test_stated_power_accounts_for_the_looks():
    seq, full = S.stated_power(), S.stated_power(sequential_stopping=False)
    assert 0.95 < seq["outcome_probability"] < full["outcome_probability"]


@pytest.mark.slow
def test_sequential_power_and_false_alarms_by_simulation_at_the_default_size():
    """The stated scenario (20 outcomes, one of probability 1e-3 moved 10%) through the sequential test: detected
    in >= 90% of 100 runs; 200 correct runs fail at most twice."""
    rng = np.random.default_rng(34)
    probs = np.full(20, (1 - 1e-3) / 19)
    probs[0] = 1e-3
    n = S.SIZES["default"]["finite"]
    detected = sum(not Q.sequential_counts_test(_drawer(rng, _slipped(probs)), probs, n)[0] for _ in range(100))
    alarms = sum(not Q.sequential_counts_test(_drawer(rng, probs), probs, n)[0] for _ in range(200))
    assert detected >= 90 and alarms <= 2
