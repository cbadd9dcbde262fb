"""The algorithms of the three papers report every privacy primitive they call (reference.mechanisms.recorder).

Per single-run entry point: the sequence of primitives recorded on a small run, with their sites; recording
changes neither the output nor the random stream; replaying the transcript on the same data forces the same
output, and on a neighbour completes without a control-flow divergence (the public arguments do not depend on
the data).  Each selection's declared scores and weight describe the log-weights it sampled from.
"""

from __future__ import annotations

import numpy as np
import pytest

from reference.arora.data import make_problem, sample_records
from reference.arora.learners import OutputPerturbation, noisy_gd, output_perturbation
from reference.arora.model_selection import boosting, private_grid_search
from reference.hu.frank_wolfe import heavy_tailed_dp_fw, heavy_tailed_private_lasso
from reference.hu.sparse import heavy_tailed_sparse_linear_regression, heavy_tailed_sparse_optimization
from reference.mechanisms import normalize_log_weights, peeling, primitive_law, recording, replaying
from reference.wang_xu.l1_regression import algorithm1, algorithm2

_rng = np.random.default_rng(0)
HEAVY = np.column_stack([_rng.standard_t(3, size=(40, 3)), _rng.standard_t(3, size=40)])
HEAVY_NEIGHBOUR = HEAVY.copy()
HEAVY_NEIGHBOUR[5] = [3.0, -2.0, 1.0, 4.0]
BOUNDED = sample_records(make_problem("squared", [0.5, -0.5]), 60, rng=0)
BOUNDED_NEIGHBOUR = BOUNDED.copy()
BOUNDED_NEIGHBOUR[3] = BOUNDED[7]
NET = np.linspace(-1.0, 1.0, 9)[:, None]
LEARNER = OutputPerturbation("squared", 1.0, 2.0)

OP = "[004 Alg. 1] base learner (output perturbation)"
# entry point -> (run(data, rng), data, neighbour, expected [(primitive, site)])
ENTRY_POINTS = {
    "DP-FW [002 Alg. 1]": (
        lambda d, rng: heavy_tailed_dp_fw(d, "squared", np.zeros(3), s=5.0, T=4, beta=1.0, epsilon=1.0, rng=rng),
        HEAVY,
        HEAVY_NEIGHBOUR,
        [("categorical", "[002 Alg. 1 step 6]")] * 4,
    ),
    "private LASSO [002 Alg. 2]": (
        lambda d, rng: heavy_tailed_private_lasso(d, np.zeros(3), K=2.0, T=3, epsilon=1.0, delta=1e-5, rng=rng),
        HEAVY,
        HEAVY_NEIGHBOUR,
        [("categorical", "[002 Alg. 2 step 4]")] * 3,
    ),
    "DP-IHT [002 Alg. 3] with Peeling [002 Alg. 4]": (
        lambda d, rng: heavy_tailed_sparse_linear_regression(
            d, np.zeros(3), K=2.0, T=2, eta0=0.5, s=2, epsilon=1.0, delta=1e-5, rng=rng
        ),
        HEAVY,
        HEAVY_NEIGHBOUR,
        [("peeling", "[002 Alg. 3 step 6]")] * 2,
    ),
    "[002 Alg. 5]": (
        lambda d, rng: heavy_tailed_sparse_optimization(
            d, "squared", np.zeros(3), s=2, beta=1.0, k=5.0, T=2, eta=0.5, epsilon=1.0, delta=1e-5, rng=rng
        ),
        HEAVY,
        HEAVY_NEIGHBOUR,
        [("peeling", "[002 Alg. 5 step 7]")] * 2,
    ),
    "Peeling [002 Alg. 4]": (
        lambda d, rng: peeling(d[:, 0], 3, 1.0, 1e-5, 0.5, rng=rng),
        HEAVY,
        HEAVY_NEIGHBOUR,
        [("peeling", "[002 Alg. 4]")],
    ),
    "Boosting [004 App. E]": (
        lambda d, rng: boosting(d, LEARNER, 1.0, 2, 1.0, 1e-5, sigma_tilde=0.5, rng=rng),
        BOUNDED,
        BOUNDED_NEIGHBOUR,
        [("gaussian", OP)] * 2 + [("report_noisy_max", "[004 App. E step 3]")],
    ),
    "Private Grid Search [004 Alg. 1]": (
        lambda d, rng: private_grid_search(d, LEARNER, 3, 1.0, 1e-5, 0.1, rng=rng),
        BOUNDED,
        BOUNDED_NEIGHBOUR,
        [("gaussian", OP)] * 3 + [("gem", "[004 Alg. 1 step 8]")],
    ),
    "output perturbation (004's learner)": (
        lambda d, rng: output_perturbation(d, "squared", 1.0, 0.5, 1e-5, x_bound=1.0, y_bound=2.0, rng=rng),
        BOUNDED,
        BOUNDED_NEIGHBOUR,
        [("gaussian", OP)],
    ),
    "noisy GD (004's learner)": (
        lambda d, rng: noisy_gd(d, "squared", 1.0, 0.5, 1e-5, x_bound=1.0, y_bound=2.0, steps=3, rng=rng),
        BOUNDED,
        BOUNDED_NEIGHBOUR,
        [("gaussian", "[004 Alg. 1] base learner (noisy gradient descent step)")] * 3,
    ),
    "Wang & Xu [000 Alg. 1]": (
        lambda d, rng: algorithm1(d[:, :1], d[:, -1], NET, epsilon=1.0, iota=1.0, rng=rng),
        HEAVY,
        HEAVY_NEIGHBOUR,
        [("categorical", "[000 Alg. 1 step 2]")],
    ),
    "Wang & Xu [000 Alg. 2]": (
        lambda d, rng: algorithm2(d[:, :1], d[:, -1], NET, epsilon=1.0, iota=1.0, theta=1.5, rng=rng),
        HEAVY,
        HEAVY_NEIGHBOUR,
        [("categorical", "[000 Alg. 2 step 2]")],
    ),
}


def _same(a, b):
    if isinstance(a, tuple):
        return all(_same(x, y) for x, y in zip(a, b, strict=True))
    return np.array_equal(a, b) and np.asarray(a).dtype == np.asarray(b).dtype


@pytest.mark.parametrize("name", sorted(ENTRY_POINTS))
def test_single_run_transcript_replay_and_neighbour(name):
    run, data, neighbour, expected = ENTRY_POINTS[name]
    plain_rng = np.random.default_rng(11)
    plain = run(data, plain_rng)
    rng = np.random.default_rng(11)
    with recording() as transcript:
        recorded = run(data, rng)
    assert _same(plain, recorded)
    assert rng.bit_generator.state == plain_rng.bit_generator.state
    assert [(call.primitive, call.site) for call in transcript.calls] == expected
    for call in transcript.calls:
        assert call.norm == primitive_law(call.primitive).norm
        assert np.prod(call.public.get("batch", (1,))) == 1  # one run (a learner called for one run: batch (1,))
    with replaying(transcript) as same:
        forced = run(data, np.random.default_rng(11))
    assert same.complete and _same(forced, plain)
    with replaying(transcript) as other:  # raises ControlFlowDivergence if a public argument read the data
        run(neighbour, np.random.default_rng(11))
    assert other.complete
    assert all(_same(a.output, b.output) for a, b in zip(other.calls, transcript.calls, strict=True))


@pytest.mark.parametrize("name", sorted(ENTRY_POINTS))
def test_declared_scores_and_weight_describe_the_sampled_log_weights(name):
    run, data, _, _ = ENTRY_POINTS[name]
    with recording() as transcript:
        run(data, np.random.default_rng(5))
    for call in transcript.calls:
        if call.primitive == "categorical":
            declared = normalize_log_weights(call.public["weight"] * call.data)
            sampled = normalize_log_weights(call.law["log_weights"])
            np.testing.assert_allclose(declared, sampled, rtol=1e-9, atol=1e-9)
            if call.site.startswith("[002"):  # 000: the printed exponent (k = 1) spends 2 epsilon
                assert primitive_law("categorical").accounting(call) == (
                    "pure",
                    pytest.approx(call.privacy["epsilon"]),
                )
        elif call.primitive in ("laplace", "gaussian"):
            np.testing.assert_array_equal(call.law["center"], call.data)
        elif call.primitive == "peeling":
            np.testing.assert_array_equal(call.law["v"], call.data)
        elif call.primitive == "report_noisy_max":
            np.testing.assert_array_equal(call.law["scores"], call.data)
        assert np.isfinite(primitive_law(call.primitive).log_prob(call.law, call.output))


def test_batched_paths_record_their_batch():
    with recording() as transcript:
        heavy_tailed_dp_fw(HEAVY, "squared", np.zeros(3), s=5.0, T=2, beta=1.0, epsilon=1.0, rng=0, size=3)
        heavy_tailed_sparse_linear_regression(
            HEAVY, np.zeros(3), K=2.0, T=1, eta0=0.5, s=1, epsilon=1.0, delta=1e-5, rng=0, size=4
        )
        algorithm1(HEAVY[:, :1], HEAVY[:, -1], NET, epsilon=1.0, iota=1.0, size=5, rng=0)
        boosting(BOUNDED, LEARNER, 1.0, 2, 1.0, 1e-5, sigma_tilde=0.5, rng=0, size=2)
    assert [call.public["batch"] for call in transcript.calls] == [(3,), (3,), (4,), (5,), (2,), (2,), (2,)]
