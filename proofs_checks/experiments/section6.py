"""Section 6 of 002 (Hu, Ni, Xiao & Wang): the synthetic experiments of Figures 1, 2, 5-11.

Each figure has three panels, as its caption says: (a) error against ``epsilon`` at
fixed ``n``, one curve per dimension ``d``; (b) error against ``n`` at ``epsilon = 1``;
(c) private against non-private (Figures 1, 2, 5, 6) or error against the sparsity
``s*`` (Figures 7-11).  Data are those of Section 6.1 (:func:`reference.hu.data.figure_dataset`,
the laws named in Sections 6.3-6.5), parameters those of Section 6.2
(:func:`reference.hu.parameters.section62_parameters`, ``delta = n^-1.1``, Algorithm 3 with
``c = 2``, Algorithm 5 with ``c2 = 1`` and the l2-regularised logistic loss).

Measurement.  Section 6.2 measures ``L(w) - L(w*)`` with ``w*`` the generating vector.
For the linear models the excess population risk is computed exactly:
``(w - w*)^T E[x x^T] (w - w*)`` (``x`` has i.i.d. entries, the noise is independent of
``x`` and ``E x = 0`` or the noise has zero mean; for the log-logistic noise of Figure 8,
whose mean is infinite, this is the excess risk of the noise-free part).  For the logistic
models it is estimated on an independent test sample (the standard error is reported).
Figures 3 and 4 use UCI data that cannot be downloaded here; they are listed but not run
(:func:`reference.hu.data.load_dataset` reads a user's copy).

The axis values of the figures are not printed in 002; the values below follow the
captions and the text (n = 10^4 for panel (a) of Figures 1, 5; ``n`` up to ``9 x 10^4`` in
Figure 1(b); n = 5 x 10^4 and s* = 20 for Figures 7-9; n = 8000 for Figures 10-11; d = 200,
400, 800 from the text of Section 6.3; d = 400 in 1(c), 200 in 5(c)); the other values are
our choice.  The paper repeats each setting at least 20 times; the full profile does 20.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from reference.hu.data import FIGURES, figure_dataset, initial_polytope, initial_sparse, logistic_data
from reference.hu.frank_wolfe import fw_step_sizes, heavy_tailed_dp_fw, heavy_tailed_private_lasso, l1_ball_vertices
from reference.hu.parameters import section62_parameters
from reference.hu.sparse import heavy_tailed_sparse_linear_regression, heavy_tailed_sparse_optimization
from reference.losses import get_loss
from reference.records import split_records
from reference.validation import as_generator

from ..rates.blind_walk import blind_walk_distance2
from ..rates.sweep import run_sweep

__all__ = [
    "Panel",
    "PANELS",
    "FIGURE_ALGORITHM",
    "PAPER_NUMBERS",
    "panels_for",
    "second_moment",
    "excess_risk",
    "nonprivate_frank_wolfe",
    "blind_walk_level",
    "run_cell",
    "run_panel",
]

#: Algorithm and loss of each synthetic figure (Figures 3 and 4 are real data, not run).
FIGURE_ALGORITHM = {
    1: (1, "squared"),
    2: (1, "logistic"),
    5: (2, "squared"),
    6: (2, "squared"),
    7: (3, "squared"),
    8: (3, "squared"),
    9: (3, "squared"),
    10: (5, "logistic_l2"),
    11: (5, "logistic_l2"),
}

#: Numbers and statements the text of Section 6 gives (our values are put beside them by the CLI).
PAPER_NUMBERS = {
    1: [
        {
            "panel": "b",
            "epsilon": 1.0,
            "n": 10_000,
            "excess_risk": 0.14,
            "source": "Section 6.3: error decreases from 0.14 to 0.03 as n goes from 10^4 to 9 x 10^4",
        },
        {"panel": "b", "epsilon": 1.0, "n": 90_000, "excess_risk": 0.03, "source": "same sentence"},
        {"panel": "a/b", "statement": "errors almost the same for d = 200 and d = 800 at the same eps and n"},
    ],
    5: [{"statement": "errors of Figure 5 greater than those of Figure 1 in the same setting (Section 6.4)"}],
    7: [
        {
            "statement": "larger s* gives a larger error, not logarithmically; d affects the error lightly "
            "(Section 6.5, for Figures 7-11)"
        }
    ],
}

_GRADIENT_BLOCK_ROWS = 4096

REAL_DATA_FIGURES = {
    3: "Algorithm 1, linear regression on Blog Feedback, Twitter, Winnipeg, Year Prediction",
    4: "Algorithm 1, logistic regression on the same UCI sets",
}


@dataclass(frozen=True)
class Panel:
    """One panel: vary ``vary`` over ``values``, one curve per ``d`` in ``dims``.

    ``vary`` is ``"epsilon"``, ``"n"``, ``"s_star"`` or ``"n_private"`` (panel (c) of
    Figures 1, 2, 5, 6: private and non-private error against ``n``).
    """

    figure: int
    panel: str
    vary: str
    values: tuple
    dims: tuple
    fixed: dict = field(default_factory=dict)
    repetitions: int = 20

    @property
    def algorithm(self):
        return FIGURE_ALGORITHM[self.figure][0]


def _panels(figure, profile):
    alg = FIGURE_ALGORITHM[figure][0]
    quick = profile == "quick"
    reps = 2 if quick else 20
    if alg in (1, 2):
        dims = (5,) if quick else (200, 400, 800)
        d_c = (5,) if quick else ((400,) if figure in (1, 2) else (200,))
        n_a = 500 if quick else 10_000
        eps_vals = (0.5, 2.0) if quick else (0.1, 0.5, 1.0, 2.0, 4.0)
        n_vals = (500, 1500) if quick else (10_000, 30_000, 50_000, 70_000, 90_000)
        return [
            Panel(figure, "a", "epsilon", eps_vals, dims, {"n": n_a}, reps),
            Panel(figure, "b", "n", n_vals, dims, {"epsilon": 1.0}, reps),
            Panel(figure, "c", "n_private", n_vals, d_c, {"epsilon": 1.0}, reps),
        ]
    dims = (20,) if quick else (200, 400, 800)
    s_star = 2 if quick else 20
    if alg == 3:
        n_fix = 2000 if quick else 50_000
        n_vals = (2000, 6000) if quick else (10_000, 30_000, 50_000, 70_000, 90_000)
    else:
        n_fix = 500 if quick else 8000
        n_vals = (500, 1500) if quick else (2000, 4000, 8000, 16000)
    eps_vals = (0.5, 2.0) if quick else (0.1, 0.5, 1.0, 2.0, 4.0)
    s_vals = (1, 4) if quick else (5, 10, 20, 40)
    return [
        Panel(figure, "a", "epsilon", eps_vals, dims, {"n": n_fix, "s_star": s_star}, reps),
        Panel(figure, "b", "n", n_vals, dims, {"epsilon": 1.0, "s_star": s_star}, reps),
        Panel(figure, "c", "s_star", s_vals, dims, {"epsilon": 1.0, "n": n_fix}, reps),
    ]


#: The table of experiment specs: ``PANELS[profile]`` lists every panel of every synthetic figure.
PANELS = {p: [panel for f in sorted(FIGURE_ALGORITHM) for panel in _panels(f, p)] for p in ("quick", "full")}


def panels_for(profile, figure=None):
    """Panels of ``profile`` (``"quick"`` / ``"full"``), optionally of one figure."""
    if profile not in PANELS:
        raise ValueError(f"profile must be 'quick' or 'full', got {profile!r}")
    if figure is not None and figure not in FIGURE_ALGORITHM:
        if figure in REAL_DATA_FIGURES:
            raise ValueError(f"figure {figure} uses UCI data ({REAL_DATA_FIGURES[figure]}), not available here")
        raise ValueError(f"figure must be one of {sorted(FIGURE_ALGORITHM)}, got {figure!r}")
    return [p for p in PANELS[profile] if figure in (None, p.figure)]


# --------------------------------------------------------------------------- measurement


def second_moment(figure, d):
    """``E[x x^T]`` of the feature law of ``figure`` (i.i.d. entries), as ``(diag, offdiag)``."""
    law, params = FIGURES[figure][2], FIGURES[figure][3]
    if law == "lognormal":
        v = params["var"]
        return math.exp(2 * v), math.exp(v)
    if law == "student_t":
        df = params["df"]
        return df / (df - 2.0), 0.0
    if law == "normal":
        return params["var"], 0.0
    if law == "laplace":
        return 2.0 * params["scale"] ** 2, 0.0
    raise ValueError(f"no closed-form second moment for {law!r}")


def excess_risk(figure, w, w_star, rng=None, *, test_size=20_000):
    """Excess population risk of ``w`` against the generating ``w*`` (exact for linear models,
    a test-sample estimate for logistic ones).  Returns ``(value, standard_error)``."""
    model = FIGURES[figure][0]
    diff = np.asarray(w, dtype=float) - w_star
    if model == "linear":
        diag, off = second_moment(figure, w_star.size)
        val = (diag - off) * float(diff @ diff) + off * float(diff.sum()) ** 2
        return val, 0.0
    _, _, xl, xp, nl, npar = FIGURES[figure]
    test = logistic_data(test_size, w_star, xl, nl, as_generator(rng), x_params=xp, noise_params=npar)
    X, y = split_records(test)
    loss = get_loss(FIGURE_ALGORITHM[figure][1])
    delta = loss.value(np.asarray(w, dtype=float), X, y) - loss.value(w_star, X, y)
    return float(delta.mean()), float(delta.std(ddof=1) / math.sqrt(delta.size))


def nonprivate_frank_wolfe(data, loss, w0, T, step_size="section6"):
    """Non-private Frank-Wolfe over the unit l1 ball: exact empirical gradient on all the data, the
    best vertex at every step, the Section 6.2 step sizes (the baseline of panels (c))."""
    from reference.hu.frank_wolfe import fw_step_sizes

    X, y = split_records(data)
    loss = get_loss(loss)
    V = l1_ball_vertices(X.shape[1])
    w = np.asarray(w0, dtype=float).copy()
    for eta in fw_step_sizes(T, step_size):
        g = _mean_gradient(loss, w, X, y)
        w = (1 - eta) * w + eta * V[int(np.argmin(V @ g))]
    return w


def _mean_gradient(loss, w, X, y):
    """Mean per-example gradient.  Squared loss: ``2 X^T (X w - y) / n`` by two matrix-vector products
    (the per-example form costs several passes over an ``(n, d)`` array per iteration, minutes at
    ``n d = 3.6e7``); other losses: per-example gradients summed in row blocks."""
    n = X.shape[0]
    if loss.name == "squared":
        return 2.0 * (X.T @ (X @ w - y)) / n
    return (
        sum(
            loss.gradient(w, X[i : i + _GRADIENT_BLOCK_ROWS], y[i : i + _GRADIENT_BLOCK_ROWS]).sum(axis=0)
            for i in range(0, n, _GRADIENT_BLOCK_ROWS)
        )
        / n
    )


def run_cell(cell, rng):
    """One run of one setting: ``cell`` has ``figure, n, d, epsilon`` (``s_star``, ``private``).

    Returns the excess risk (a float, for :func:`proofs_checks.rates.sweep.run_sweep`).
    """
    fig, n, d, eps = cell["figure"], int(cell["n"]), int(cell["d"]), float(cell["epsilon"])
    alg, loss = FIGURE_ALGORITHM[fig]
    s_star = cell.get("s_star")
    data, w_star = figure_dataset(fig, n, d, rng, s_star=s_star)
    if alg in (1, 2):
        w0 = initial_polytope(d, rng)
        p = section62_parameters(alg, n, eps)
        if not cell.get("private", True):
            w = nonprivate_frank_wolfe(data, loss, w0, p["T"], p["step_size"])
        elif alg == 1:
            w = heavy_tailed_dp_fw(data, loss, w0, p["s"], p["T"], p["beta"], eps, rng=rng, step_size=p["step_size"])
        else:
            w = heavy_tailed_private_lasso(data, w0, p["K"], p["T"], eps, p["delta"], rng=rng, step_size=p["step_size"])
    else:
        p = section62_parameters(alg, n, eps, s_star=s_star)
        w1 = initial_sparse(d, s_star, rng)
        if alg == 3:
            w = heavy_tailed_sparse_linear_regression(
                data, w1, p["K"], p["T"], p["eta0"], p["s"], eps, p["delta"], rng=rng
            )
        else:
            w = heavy_tailed_sparse_optimization(
                data, loss, w1, p["s"], p["beta"], p["k"], p["T"], p["eta"], eps, p["delta"], rng=rng
            )
    return excess_risk(fig, w, w_star, rng, test_size=cell.get("test_size", 2000 if n <= 2000 else 20_000))[0]


def blind_walk_level(cell):
    """Mean excess risk of the Frank-Wolfe run of ``cell`` (Figures 1, 5, 6: Algorithms 1 and 2, linear model)
    if its vertex choices were uniform over the ``2d`` vertices, i.e. if it learned nothing from the data.

    ``E[x x^T] = a I + b 11^T`` with ``a + b`` the diagonal entry (:func:`second_moment`), ``w^0``, ``w*`` as
    Section 6.2 draws them: :func:`proofs_checks.rates.blind_walk.blind_walk_distance2` times the diagonal
    entry.  ``None`` for the other figures and for the non-private runs.
    """
    fig = cell["figure"]
    alg = FIGURE_ALGORITHM[fig][0]
    if alg not in (1, 2) or FIGURES[fig][0] != "linear" or not cell.get("private", True):
        return None
    p = section62_parameters(alg, int(cell["n"]), float(cell["epsilon"]))
    diag, _ = second_moment(fig, int(cell["d"]))
    return diag * blind_walk_distance2(fw_step_sizes(p["T"], p["step_size"]), int(cell["d"]))


def _cells(panel):
    cells = []
    for d in panel.dims:
        for v in panel.values:
            base = dict(panel.fixed, figure=panel.figure, d=d)
            if panel.vary == "n_private":
                cells += [dict(base, n=v, private=True), dict(base, n=v, private=False)]
            else:
                cells.append(dict(base, **{panel.vary: v}))
    return cells


def run_panel(panel, *, seed=20261121, jobs=1):
    """Run every setting of ``panel`` ``panel.repetitions`` times (reproducible whatever ``jobs``).

    Returns
    -------
    list of dict
        One row per setting: the setting, ``mean``, ``se`` (over repetitions), ``q90`` and
        ``blind_walk_level`` (:func:`blind_walk_level`; ``None`` where it does not apply).
    """
    cells = _cells(panel)
    key = int.from_bytes(f"fig{panel.figure}{panel.panel}".encode(), "little")
    sweep = run_sweep(run_cell, cells, panel.repetitions, seed=np.random.SeedSequence([seed, key]), jobs=jobs)
    rows = []
    for cell, errs in zip(cells, sweep.errors):
        rows.append(
            dict(
                cell,
                mean=float(errs.mean()),
                se=float(errs.std(ddof=1) / math.sqrt(errs.size)) if errs.size > 1 else float("nan"),
                q90=float(np.quantile(errs, 0.9)),
                repetitions=int(errs.size),
                blind_walk_level=blind_walk_level(cell),
            )
        )
    return rows
