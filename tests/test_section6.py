"""Section 6 of 002: the experiment table, the exact excess risk, reproducibility, the CLI."""

import json
import math

import numpy as np
import pytest

from proofs_checks.experiments import section6 as s6
from reference.hu.data import figure_dataset, linear_data, w_star_polytope


def test_every_synthetic_figure_has_its_three_panels():
    for profile in ("quick", "full"):
        for f in s6.FIGURE_ALGORITHM:
            panels = s6.panels_for(profile, f)
            assert [p.panel for p in panels] == ["a", "b", "c"]
            assert all(len(p.values) >= 2 and p.repetitions >= 2 for p in panels)


def test_full_profile_uses_the_settings_the_text_gives():
    full = {(p.figure, p.panel): p for p in s6.PANELS["full"]}
    assert full[1, "a"].fixed["n"] == 10_000 and full[5, "a"].fixed["n"] == 10_000
    assert {10_000, 90_000} <= set(full[1, "b"].values) and full[1, "b"].fixed["epsilon"] == 1.0
    assert full[1, "c"].dims == (400,) and full[5, "c"].dims == (200,)
    assert {200, 800} <= set(full[1, "a"].dims)
    for f in (7, 8, 9):
        assert full[f, "a"].fixed == {"n": 50_000, "s_star": 20} and full[f, "c"].vary == "s_star"
    for f in (10, 11):
        assert full[f, "a"].fixed["n"] == 8000
    assert all(p.repetitions >= 20 for p in s6.PANELS["full"])  # "repeated for at least 20 times"


def test_real_data_figures_and_bad_arguments_are_errors():
    with pytest.raises(ValueError, match="UCI"):
        s6.panels_for("quick", 3)
    with pytest.raises(ValueError, match="figure"):
        s6.panels_for("quick", 12)
    with pytest.raises(ValueError, match="profile"):
        s6.panels_for("medium")


def test_second_moment_of_the_lognormal_features():
    # E x^2 = e^{2v}, E x_j x_k = e^{v} for Lognormal(0, v) with v the variance of the log; checked by Monte Carlo
    diag, off = s6.second_moment(1, 3)
    x = np.random.default_rng(0).lognormal(0.0, math.sqrt(0.6), size=(2_000_000, 2))
    assert abs(np.mean(x[:, 0] ** 2) / diag - 1) < 0.01
    assert abs(np.mean(x[:, 0] * x[:, 1]) / off - 1) < 0.01


@pytest.mark.parametrize("figure", [1, 6, 7])
def test_exact_excess_risk_matches_a_large_sample(figure):
    rng = np.random.default_rng(1)
    d = 5
    data, w_star = figure_dataset(figure, 400_000, d, rng, s_star=2)
    w = w_star + rng.normal(0, 0.2, size=d)
    exact, se = s6.excess_risk(figure, w, w_star)
    X, y = data[:, :-1], data[:, -1]
    diff = (X @ w - y) ** 2 - (X @ w_star - y) ** 2
    mc, mc_se = diff.mean(), diff.std() / math.sqrt(diff.size)
    assert se == 0.0 and abs(mc - exact) < 5 * mc_se + 1e-3 * exact


def test_logistic_excess_risk_has_a_standard_error():
    rng = np.random.default_rng(2)
    _, w_star = figure_dataset(2, 10, 4, rng)
    val, se = s6.excess_risk(2, w_star, w_star, rng, test_size=1000)
    assert val == 0.0 and se == 0.0
    val, se = s6.excess_risk(2, -w_star, w_star, rng, test_size=1000)
    assert val > 0 and se > 0


def test_nonprivate_frank_wolfe_approaches_w_star():
    rng = np.random.default_rng(3)
    w_star = w_star_polytope(4, rng)
    data = linear_data(5000, w_star, "student_t", "normal", rng, x_params={"df": 10.0}, noise_params={"var": 0.1})
    w = s6.nonprivate_frank_wolfe(data, "squared", np.zeros(4), 200)
    assert np.abs(w).sum() <= 1 + 1e-12 and np.linalg.norm(w - w_star) < 0.1


def test_panel_results_identical_whatever_the_workers():
    panel = s6.panels_for("quick", 5)[0]
    a = s6.run_panel(panel, seed=4, jobs=1)
    b = s6.run_panel(panel, seed=4, jobs=2)
    assert [r["mean"] for r in a] == [r["mean"] for r in b]
    assert all(np.isfinite(r["mean"]) for r in a)


def test_cli_runs_one_figure(tmp_path, capsys):
    # in-process (a subprocess re-imported numpy, scipy and the package: 4.7 s of CPU, most of the test)
    from proofs_checks.cli import main

    assert main(["experiments", "--figure", "6", "--json", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr()
    rep = json.loads(out.out)
    assert [f["figure"] for f in rep["figures"]] == [6]
    assert (tmp_path / "figures" / "section6_figure6.png").exists()
    assert "figure 6(a)" in out.err
    rows = rep["figures"][0]["panels"][2]["rows"]
    assert {r["private"] for r in rows} == {True, False}
    saved = json.loads((tmp_path / "section6_quick_figure6.json").read_text())
    assert saved["finished"] is True and saved["figures"] == rep["figures"]


@pytest.mark.parametrize("figure", [1, 2, 8])
def test_mean_gradient_matches_the_per_example_gradients(figure):
    # The matrix-vector shortcut (squared loss) and the row-block sum agree with the plain mean of
    # reference.losses' per-example gradients, including Figure 8's log-logistic noise (|y| up to ~1e150).
    data, _ = s6.figure_dataset(figure, 9000, 7, np.random.default_rng(figure), s_star=3)
    X, y = data[:, :-1], data[:, -1]
    loss = s6.get_loss(s6.FIGURE_ALGORITHM[figure][1])
    w = np.random.default_rng(0).uniform(-0.2, 0.2, 7)
    expected = loss.gradient(w, X, y).mean(axis=0)
    # private: _mean_gradient: the experiment's fast mean gradient is tested against the per-example one
    got = s6._mean_gradient(loss, w, X, y)
    assert np.all(np.isfinite(got))
    np.testing.assert_allclose(got, expected, rtol=1e-9, atol=1e-12 * np.abs(expected).max())


def test_resume_reuses_saved_panels_and_refuses_another_seed(tmp_path, monkeypatch):
    from proofs_checks.cli import main
    from proofs_checks.commands import experiments as cmd

    args = ["experiments", "--figure", "7", "--out", str(tmp_path), "--json"]
    assert main(args) == 0
    path = tmp_path / "section6_quick_figure7.json"
    first = json.loads(path.read_text())
    # an interrupted run: only panel (a) on disk
    partial = dict(first, finished=False)
    partial["figures"] = [dict(first["figures"][0], panels=first["figures"][0]["panels"][:1])]
    path.write_text(json.dumps(partial))
    calls = []
    real = cmd.run_panel

    def counting(panel, **kw):
        calls.append(panel.panel)
        return real(panel, **kw)

    monkeypatch.setattr(cmd, "run_panel", counting)
    assert main(args + ["--resume"]) == 0
    assert calls == ["b", "c"]  # panel (a) came from disk
    again = json.loads(path.read_text())
    assert again["finished"] is True and again["figures"][0]["resumed_panels"] == ["a"]
    assert [p["rows"] for p in again["figures"][0]["panels"]] == [p["rows"] for p in first["figures"][0]["panels"]]
    with pytest.raises(ValueError, match="seed=1"):
        cmd.saved_panels(path, "quick", 1)


@pytest.mark.parametrize("figure", [1, 5, 6])
def test_blind_walk_level_matches_a_simulated_blind_walk(figure):
    # Frank-Wolfe with the Section 6.2 steps and uniformly chosen vertices +-e_j, w^0 and w* drawn as in
    # Section 6.2, excess risk by the module's own exact formula: 3000 simulated walks (Monte Carlo,
    # 4 standard errors).
    from reference.hu.data import initial_polytope, w_star_polytope
    from reference.hu.frank_wolfe import fw_step_sizes
    from reference.hu.parameters import section62_parameters

    cell = dict(figure=figure, n=2000, d=12, epsilon=1.0)
    alg = s6.FIGURE_ALGORITHM[figure][0]
    p = section62_parameters(alg, 2000, 1.0)
    rng = np.random.default_rng(11)
    vals = []
    for _ in range(3000):
        w, w_star = initial_polytope(12, rng), w_star_polytope(12, rng)
        for eta in fw_step_sizes(p["T"], p["step_size"]):
            v = np.zeros(12)
            v[rng.integers(12)] = rng.choice([-1.0, 1.0])
            w = (1 - eta) * w + eta * v
        vals.append(s6.excess_risk(figure, w, w_star)[0])
    vals = np.array(vals)
    level = s6.blind_walk_level(cell)
    assert abs(level - vals.mean()) < 4 * vals.std(ddof=1) / np.sqrt(vals.size)
    assert s6.blind_walk_level(dict(cell, private=False)) is None
    assert s6.blind_walk_level(dict(figure=7, n=2000, d=12, epsilon=1.0, s_star=2)) is None


def test_blind_walk_level_is_wrong_for_a_walk_that_learns():
    # power: a walk that always steps towards w*'s largest coordinate ends far below the blind level
    from reference.hu.data import initial_polytope, w_star_polytope
    from reference.hu.frank_wolfe import fw_step_sizes
    from reference.hu.parameters import section62_parameters

    p = section62_parameters(1, 2000, 1.0)
    rng = np.random.default_rng(12)
    vals = []
    for _ in range(500):
        w, w_star = initial_polytope(12, rng), w_star_polytope(12, rng)
        for eta in fw_step_sizes(p["T"], p["step_size"]):
            j = int(np.argmax(np.abs(w_star - w)))
            v = np.zeros(12)
            v[j] = np.sign(w_star[j] - w[j])
            w = (1 - eta) * w + eta * v
        vals.append(s6.excess_risk(1, w, w_star)[0])
    assert np.mean(vals) < 0.5 * s6.blind_walk_level(dict(figure=1, n=2000, d=12, epsilon=1.0))


def test_figure_plot_draws_blind_walk_and_paper_numbers(tmp_path, monkeypatch):
    import matplotlib

    matplotlib.use("Agg")
    from proofs_checks.commands import experiments as cmd

    drawn = {}
    real_save = cmd.save_figure

    def spy(fig, path):
        drawn["labels"] = [t.get_text() for ax in fig.axes for t in ax.get_legend().get_texts()]
        return real_save(fig, path)

    panel = next(p for p in s6.panels_for("full", 1) if p.panel == "b")
    rows = [
        dict(
            figure=1,
            d=200,
            n=n,
            epsilon=1.0,
            mean=0.2,
            se=0.01,
            q90=0.3,
            repetitions=20,
            blind_walk_level=s6.blind_walk_level(dict(figure=1, d=200, n=n, epsilon=1.0)),
        )
        for n in panel.values
    ]
    monkeypatch.setattr(cmd, "save_figure", spy)
    path = cmd.plot_figure(tmp_path / "f1.png", 1, [(panel, rows)])
    assert path.exists()
    assert "d=200 blind walk" in drawn["labels"] and "paper (text)" in drawn["labels"]
