"""Exact audits of laws users bring: invalid laws are errors, truncated supports never refute, a sampler
that disagrees with its law is judged by its own measured loss, and `samples` counts the sampler check."""

import math
import subprocess
import sys

import numpy as np
import pytest

from proofs_checks.audit.api import InvalidLawError, audit
from proofs_checks.audit.unlisted_mass import epsilon_with_unlisted_mass, unlisted_mass

ONE_VS_TWO = (np.array([[0.0], [1.0]]), np.array([[1.0], [1.0]]))  # counts 1 and 2


class TruncatedGeometric:
    """Two-sided geometric count, epsilon-DP; ``log_prob`` lists the outputs within ``width`` of the count.

    At width 200 and epsilon 1 the unlisted mass is 2 e^-201 / (1 + e^-1) ~ 1e-87: the supports of two
    neighbouring counts differ at their edges.  ``sample_epsilon`` draws with another epsilon (a mutant
    sampler beside a correct law).
    """

    record_width = 1

    def __init__(self, epsilon=1.0, width=200, sample_epsilon=None, law_epsilon=None):
        self.epsilon, self.width = epsilon, width
        self.sample_epsilon = epsilon if sample_epsilon is None else sample_epsilon
        self.law_epsilon = epsilon if law_epsilon is None else law_epsilon

    def _count(self, data):
        return int(np.sum(np.asarray(data)[:, 0] > 0.5))

    def log_prob(self, data):
        k = np.arange(-self.width, self.width + 1)
        a = math.exp(-self.law_epsilon)
        return (self._count(data) + k).astype(float), math.log((1 - a) / (1 + a)) - self.law_epsilon * np.abs(k)

    def sample(self, data, size, rng):
        a = math.exp(-self.sample_epsilon)
        z = rng.geometric(1 - a, size) - rng.geometric(1 - a, size)
        return (self._count(data) + z).astype(float)[:, None]


class LawSumming(TruncatedGeometric):
    """A law whose probabilities are scaled to sum to ``total``, or hold a NaN."""

    def __init__(self, total=None, nan=False):
        super().__init__()
        self.total, self.nan = total, nan

    def log_prob(self, data):
        outs, lp = super().log_prob(data)
        if self.nan:
            lp = lp.copy()
            lp[3] = np.nan
        if self.total is not None:
            lp = lp - np.logaddexp.reduce(lp) + math.log(self.total)
        return outs, lp


def test_truncated_support_does_not_refute_a_correct_mechanism():
    res = audit(TruncatedGeometric(), epsilon=1.0, pairs=[ONE_VS_TWO], sampler_samples=20_000, seed=0)
    um = res.details["unlisted_mass"]
    assert um["law_epsilon"] == math.inf  # before: "refuted, epsilon_lower inf"
    assert res.verdict == "not refuted" and res.epsilon_lower == pytest.approx(1.0, rel=1e-9)
    assert res.details["sampler_check"]["passed"]


def test_truncated_support_searched_does_not_refute():
    res = audit(TruncatedGeometric(), epsilon=1.0, search_budget=300, sampler_samples=0, seed=1)
    assert res.verdict == "not refuted" and res.epsilon_lower == pytest.approx(1.0, rel=1e-9)


def test_truncated_support_still_refutes_a_claim_below_the_true_loss():
    # power: the true epsilon 1 against claims 0.9 and 0.99 (a 1% error); the bound, not inf, is reported
    for claim in (0.9, 0.99):
        res = audit(TruncatedGeometric(), epsilon=claim, pairs=[ONE_VS_TWO], sampler_samples=0)
        assert res.verdict == "refuted" and res.epsilon_lower == pytest.approx(1.0, rel=1e-9)
        assert res.details["unlisted_mass"]["law_epsilon"] == math.inf
    # a mutant law of epsilon 1.05 whose sampler agrees with it is refuted at claim 1
    res = audit(TruncatedGeometric(epsilon=1.05), epsilon=1.0, pairs=[ONE_VS_TWO], sampler_samples=20_000)
    assert res.verdict == "refuted" and res.epsilon_lower == pytest.approx(1.05, rel=1e-9)


def test_unlisted_mass_bound_is_below_every_completion():
    # hand-made laws on outputs {0, 1, 2, 3}: P lists {0, 1, 2}, Q lists {1, 2, 3}, each leaving mass m unlisted;
    # completing each law by putting m on an output it does not list (or on a fifth output, listed by
    # neither) never gives a smaller epsilon than the bound; exact arithmetic in float64
    m = 1e-3
    p = np.log([0.3, 0.4, 0.3 - m, 1.0]) + np.array([0, 0, 0, -np.inf])  # -inf: not listed
    q = np.log([1.0, 0.3, 0.5, 0.2 - m]) + np.array([-np.inf, 0, 0, 0])
    bound, _ = epsilon_with_unlisted_mass(p, q, 0.0, m, m)
    for i in (3, 4):
        for j in (0, 4):
            pc, qc = np.append(np.exp(p), 0.0), np.append(np.exp(q), 0.0)
            pc[i] += m
            qc[j] += m
            pos = (pc > 0) | (qc > 0)
            with np.errstate(divide="ignore"):
                true = np.max(np.abs(np.log(pc[pos]) - np.log(qc[pos])))
            assert bound <= true + 1e-12
    # attained: Q's mass on output 0 makes the event {0} give log(0.3 / m) forward (backward, P's mass on output
    # 3 gives the event {3} log((0.2 - m) / m), smaller)
    assert bound == pytest.approx(math.log(0.3 / m), rel=1e-12)
    # laws listing the same outputs get the epsilon of the listed laws, whatever the masses
    same, _ = epsilon_with_unlisted_mass(np.log([0.25, 0.75]), np.log([0.5, 0.5]), 0.0, 1e-6, 1e-6)
    assert same == pytest.approx(math.log(2), rel=1e-15)


def test_unlisted_mass_counts_the_rounding_of_the_total():
    assert unlisted_mass(np.log([0.25] * 4)) == 4 * 2.0**-52
    assert unlisted_mass(np.log([0.5, 0.49])) == pytest.approx(0.01 + 2 * 2.0**-52, rel=1e-9)


@pytest.mark.parametrize(
    "mech, match",
    [
        (LawSumming(total=0.6), "sum to 0.6"),
        (LawSumming(total=1.01), "sum to 1.01"),
        (LawSumming(nan=True), "NaN"),
    ],
)
def test_invalid_law_is_an_error_naming_what_is_wrong(mech, match):
    with pytest.raises(InvalidLawError, match=match):
        audit(mech, epsilon=1.0, pairs=[ONE_VS_TWO], sampler_samples=0)
    with pytest.raises(InvalidLawError, match=match):
        audit(mech, epsilon=1.0, search_budget=50, sampler_samples=0)


def test_law_within_the_tolerance_is_accepted():
    res = audit(LawSumming(total=1 - 5e-7), epsilon=1.0, pairs=[ONE_VS_TWO], sampler_samples=0)
    assert res.verdict == "not refuted"


def test_failed_sampler_check_reports_the_samplers_own_bound():
    # a correct law beside a sampler of epsilon 1.5 (the mutant): the sampler's bound refutes claim 1
    mech = TruncatedGeometric(sample_epsilon=1.5)
    res = audit(mech, epsilon=1.0, pairs=[ONE_VS_TWO], sampler_samples=20_000, samples=200_000, seed=2)
    assert not res.details["sampler_check"]["passed"]
    assert res.details["law"]["epsilon"] == pytest.approx(1.0, rel=1e-9)
    assert res.method == "statistical" and res.confidence == 0.95 and res.p_value is not None
    assert res.verdict == "refuted" and 1.0 < res.epsilon_lower <= 1.5
    assert res.samples == 2 * 20_000 + 200_000
    # the same law and a sampler that is private but disagrees with it (epsilon 0.5 < 1): not refuted
    mech = TruncatedGeometric(sample_epsilon=0.5)
    res = audit(mech, epsilon=1.0, pairs=[ONE_VS_TWO], sampler_samples=20_000, samples=200_000, seed=2)
    assert not res.details["sampler_check"]["passed"]
    assert res.verdict == "not refuted" and res.epsilon_lower < 0.5


def test_a_law_above_the_claim_beside_a_private_sampler_is_judged_by_the_sampler():
    mech = TruncatedGeometric(law_epsilon=2.0, sample_epsilon=0.5)
    res = audit(mech, epsilon=1.0, pairs=[ONE_VS_TWO], sampler_samples=20_000, samples=200_000, seed=3)
    assert res.details["law"]["epsilon"] == pytest.approx(2.0, rel=1e-9)
    assert res.verdict == "not refuted" and res.epsilon_lower < 1.0


def test_samples_counts_the_sampler_check_draws():
    res = audit(TruncatedGeometric(), epsilon=1.0, pairs=[ONE_VS_TWO], sampler_samples=5_000)
    assert res.samples == 10_000
    res = audit(TruncatedGeometric(), epsilon=1.0, pairs=[ONE_VS_TWO], sampler_samples=0)
    assert res.samples == 0 and res.confidence is None


def test_cli_invalid_law_exits_1_with_one_line(tmp_path):
    (tmp_path / "badlaw.py").write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(__import__('pathlib').Path(__file__).parent)!r})\n"
        "from test_auditor_exact_semantics import LawSumming\n"
        "MECH = LawSumming(total=0.6)\n"
    )
    out = subprocess.run(
        [sys.executable, "-m", "proofs_checks", "audit", "--mechanism", "badlaw:MECH", "--epsilon", "1", "--json"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 1, out.stderr
    assert out.stderr.strip().startswith("error: mechanism badlaw:MECH: log_prob(")
    assert "sum to 0.6" in out.stderr and out.stdout == ""
