"""The rate engine: reproducible sweeps, honest verdicts, power against a slower rate."""

import functools

import numpy as np
import pytest

from proofs_checks.model import CheckContext
from proofs_checks.rates import fit_rate, run_sweep
from proofs_checks.rates.check import make_rate_check


def laplace_error(point, rng, power=1.0):
    """|Lap(1/(n eps)^power)|: error decays as (n eps)^(-power) exactly."""
    return abs(rng.laplace(0.0, (point["n"] * point["epsilon"]) ** -power))


GRID = [{"n": n, "epsilon": 1.0} for n in (100, 300, 1000, 3000, 10000)]
X = [p["n"] for p in GRID]


def test_sweep_identical_whatever_the_workers():
    a = run_sweep(laplace_error, GRID, 40, seed=3, jobs=1)
    b = run_sweep(laplace_error, GRID, 40, seed=3, jobs=2)
    c = run_sweep(laplace_error, GRID, 40, seed=3, jobs=2, chunk=7)
    assert np.array_equal(a.errors, b.errors) and np.array_equal(a.errors, c.errors)


def test_fit_consistent_for_the_true_rate():
    sweep = run_sweep(laplace_error, GRID, 200, seed=1)
    fit = fit_rate(X, sweep.errors, 1.0, quantile=0.9)
    assert fit.verdict == "consistent"
    assert fit.ci_low <= 1.0 <= fit.ci_high or fit.ci_low > 1.0


def test_fit_rejects_a_slower_rate():
    sweep = run_sweep(functools.partial(laplace_error, power=0.5), GRID, 200, seed=1)
    assert fit_rate(X, sweep.errors, 1.0).verdict == "slower"
    assert fit_rate(X, sweep.errors, 1.0, quantile=0.9).verdict == "slower"
    text = fit_rate(X, sweep.errors, 1.0, quantile=0.9).summary()
    assert "verdict             slower" in text and "stated_exponent     1" in text


def test_fit_inconclusive_when_too_few_repetitions_to_tell():
    sweep = run_sweep(laplace_error, GRID[:3], 2, seed=5)
    fit = fit_rate(X[:3], sweep.errors, 1.0, max_ci_width=0.05)
    assert fit.verdict in ("inconclusive", "slower")
    assert fit.verdict == "inconclusive" or fit.ci_low > 1.0


def test_rate_check_confirms_true_and_refutes_slower(tmp_path):
    grids = {"quick": GRID, "full": GRID}
    reps = {"quick": 150, "full": 150}
    ctx = CheckContext(seed=2, out_dir=tmp_path).for_claim("toy.rate")
    ok = make_rate_check("toy.rate", laplace_error, grids, lambda p: p["n"] * p["epsilon"], 1.0, repetitions=reps)(ctx)
    assert ok.verdict == "confirmed" and (tmp_path / ok.figures[0]).exists()
    assert ok.observed == ok.evidence["observed_exponent"] and ok.bound == 1.0 and ok.direction == "at_least"
    assert "quantile regression" in ok.method and ok.reading
    bad = make_rate_check(
        "toy.rate",
        functools.partial(laplace_error, power=0.5),
        grids,
        lambda p: p["n"] * p["epsilon"],
        1.0,
        repetitions=reps,
    )(ctx)
    assert bad.verdict == "refuted" and bad.margin < 0 and bad.evidence["rate_verdict"] == "slower"
    for key in ("stated_exponent", "observed_exponent", "ci_low", "ci_high"):
        assert key in ok.evidence


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(x=[1, 2], errors=[[1.0], [0.5]]), "at least 3"),
        (dict(x=[1, 2, 3], errors=[[1.0], [0.5]]), "one row per x"),
        (dict(x=[1, 2, 3], errors=[[1.0], [0.0], [0.5]]), "positive"),
        (dict(x=[1, 2, np.nan], errors=[[1.0], [1.0], [0.5]]), "x must be finite"),
    ],
)
def test_fit_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        fit_rate(stated_exponent=1.0, **kwargs)


def test_sweep_bad_input():
    with pytest.raises(ValueError, match="repetitions"):
        run_sweep(laplace_error, GRID, 0)
    with pytest.raises(ValueError, match="grid"):
        run_sweep(laplace_error, [], 3)


def test_rate_check_draws_the_claims_own_stream():
    grids = {"quick": GRID[:3], "full": GRID[:3]}
    reps = {"quick": 5, "full": 5}
    run = CheckContext(seed=2)
    same = [
        make_rate_check(cid, laplace_error, grids, lambda p: p["n"], 1.0, repetitions=reps)(run.for_claim("toy.a"))
        for cid in ("toy.a", None)
    ]
    other = make_rate_check("toy.a", laplace_error, grids, lambda p: p["n"], 1.0, repetitions=reps)(
        run.for_claim("toy.b")
    )
    assert same[0].evidence["mean_errors"].tolist() == same[1].evidence["mean_errors"].tolist()
    assert same[0].evidence["mean_errors"].tolist() != other.evidence["mean_errors"].tolist()


def test_rates_cli_prints_value_judged_rate_claims(capsys):
    from proofs_checks.cli import main

    assert main(["rates", "--algorithm", "arora-boosting"]) == 0
    assert "arora.boosting.excess-risk" in capsys.readouterr().out
