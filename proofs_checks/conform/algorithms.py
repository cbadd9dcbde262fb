"""Whole-algorithm conformance: the port's algorithms run end to end, their outputs tested against the exact law.

[002 Alg. 1] (DP-FW), [002 Alg. 2] (private LASSO), [000 Alg. 1] and [000 Alg. 2] release one point of a finite
set (a Frank-Wolfe iterate reached by one of the ``|V|^T`` vertex paths, a net point), so their output law is
exact: the reference enumerates it (:func:`reference.hu.frank_wolfe.dp_fw_output_log_prob`,
:func:`reference.hu.frank_wolfe.private_lasso_output_log_prob`, :func:`reference.wang_xu.l1_regression.
wang_xu_log_prob`).  Each algorithm is run :data:`.samplers.SIZES` ``["algorithm"]`` times on a tiny fixed
instance (:data:`ALGORITHM_INSTANCES`), every output is matched to a point of the law (within 1e-9 relative) and
the counts are tested against the exact probabilities (:func:`.lawtests.counts_test`: per-outcome z-tests and a
chi-square, family-wise level :data:`.lawtests.ALPHA`).

The instances are chosen so that the slips a port makes move the law by a total variation of at least 0.05
(:data:`SLIPS`: a sensitivity 2x off, which is the noise 2x off, and the other reading of each algorithm's
printed constant); :func:`slip_power` measures each test's power against each slip by simulation, and
``tests/test_ports_algorithms.py`` runs the slipped algorithms through the kit.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

import numpy as np

from reference.hu import frank_wolfe as FW
from reference.wang_xu import l1_regression as WX
from reference.wang_xu import nets

from . import sequential
from .lawtests import ALPHA, counts_test

__all__ = [
    "ALGORITHM_INSTANCES",
    "ALGORITHM_CHECKS",
    "SLIPS",
    "exact_law",
    "match_outputs",
    "slip_power",
    "total_variation",
]

# Eight records in d = 2, written out (portable: no draws, no BLAS): responses of a linear model with heavy errors.
_X = np.array([[1.0, -0.5], [0.3, 2.0], [-1.2, 0.4], [2.5, -1.0], [0.7, 0.9], [-0.4, -1.5], [1.6, 0.2], [-2.0, 1.1]])
_Y = np.array([1.3, -1.12, 2.12, 2.1, 0.16, -4.84, 1.28, -1.44])
_DATA = np.column_stack([_X, _Y])
_NET = nets.L1BallNet(1.0, 0.5, 2).points()  # the 25 points of the 0.5-net of the unit l1 ball [000 Def. 4]

#: The instance of each whole algorithm (keyword arguments of the port function, ``size`` and ``rng`` aside).
ALGORITHM_INSTANCES: dict[str, dict[str, Any]] = {
    "dp_fw": {
        "data": _DATA,
        "loss": "squared",
        "w0": np.zeros(2),
        "s": 1.0,
        "T": 2,
        "beta": 0.5,  # not 1, where beta, sqrt(beta) and beta^2 coincide and a slip in its power would hide
        "epsilon": 2.0,
        "variant": "standard",
    },
    # epsilon = 20 makes the per-step budget of advanced composition 1.90 (at epsilon = 1 it is 0.095 and the
    # laws with the sensitivity and twice it are 0.011 apart in total variation: no test of a few thousand runs
    # could tell them apart)
    "private_lasso": {
        "data": _DATA,
        "w0": np.zeros(2),
        "K": 1.0,
        "T": 2,
        "epsilon": 20.0,
        "delta": 1e-3,
        "variant": "printed",
    },
    "wang_xu_algorithm1": {"X": _X, "y": _Y, "net": _NET, "epsilon": 1.0, "iota": 1.0, "variant": "printed"},
    "wang_xu_algorithm2": {
        "X": _X,
        "y": _Y,
        "net": _NET,
        "epsilon": 1.0,
        "iota": 1.0,
        "theta": 1.5,
        "variant": "printed",
    },
}


def _fw_law(name, inst, sensitivity_factor=1.0, **change):
    i = {**inst, **change}
    if name == "dp_fw":
        m = len(FW.data_split(i["data"].shape[0], i["T"])[0])
        sens = sensitivity_factor * FW.dp_fw_sensitivity(FW.l1_ball_vertices(i["w0"].size), i["s"], m)
        return FW.dp_fw_output_log_prob(
            i["data"],
            i["loss"],
            i["w0"],
            i["s"],
            i["T"],
            i["beta"],
            i["epsilon"],
            variant=i["variant"],
            sensitivity=sens,
        )
    sens = sensitivity_factor * FW.lasso_sensitivity(FW.l1_ball_vertices(i["w0"].size), i["K"], i["data"].shape[0])
    return FW.private_lasso_output_log_prob(
        i["data"], i["w0"], i["K"], i["T"], i["epsilon"], i["delta"], variant=i["variant"], sensitivity=sens
    )


def _wx_law(name, inst, sensitivity_factor=1.0, **change):
    i = {**inst, **change}
    theta = i.get("theta", 2.0)
    # the exponent is eps * k * (-n L-hat / log theta) with sensitivity log theta / (n iota): a sensitivity
    # factor c is the exponent divided by c, i.e. epsilon / c
    return WX.wang_xu_log_prob(
        i["X"], i["y"], i["net"], i["epsilon"] / sensitivity_factor, i["iota"], theta, i["variant"]
    )


def exact_law(name: str, sensitivity_factor: float = 1.0, **change: Any) -> tuple[np.ndarray, np.ndarray]:
    """The reference's exact output law of algorithm ``name`` on its instance: ``(outputs, log_probabilities)``.

    Parameters
    ----------
    name : str
        A key of :data:`ALGORITHM_INSTANCES`.
    sensitivity_factor : float
        Multiplies the algorithm's sensitivity (1: the law the port must follow; 2: a slip).
    **change
        Instance entries to replace (``variant="standard"``: the other reading).

    Returns
    -------
    outputs : numpy.ndarray
        The distinct outputs, one per row.
    log_probabilities : numpy.ndarray
        Their log-probabilities.

    Raises
    ------
    KeyError
        If ``name`` is not a whole algorithm of the kit.

    Examples
    --------
    >>> outputs, logp = exact_law("dp_fw")
    >>> outputs.shape, round(float(np.exp(logp).sum()), 12)
    ((16, 2), 1.0)
    """
    inst = ALGORITHM_INSTANCES[name]
    law = _fw_law if name in ("dp_fw", "private_lasso") else _wx_law
    outputs, logp = law(name, inst, sensitivity_factor, **change)[:2]
    return np.asarray(outputs, dtype=np.float64), np.asarray(logp, dtype=np.float64)


def match_outputs(draws: Any, outputs: np.ndarray, rtol: float = 1e-9) -> np.ndarray:
    """The index of each draw's output in ``outputs`` (-1 where none is within ``rtol`` relative).

    Examples
    --------
    >>> match_outputs([[0.0, 1.0], [0.5, 0.5], [0.0, 1.0 + 1e-13]], np.array([[0.0, 1.0], [1.0, 0.0]])).tolist()
    [0, -1, 0]
    """
    rows = np.asarray(draws, dtype=np.float64).reshape(-1, outputs.shape[1])
    out = np.full(rows.shape[0], -1, dtype=np.int64)
    limit = rtol * (1.0 + np.max(np.abs(outputs), axis=1))
    for k, point in enumerate(outputs):
        hit = np.max(np.abs(rows - point), axis=1) <= limit[k]
        out[hit & (out < 0)] = k
    return out


def total_variation(law_a: tuple[np.ndarray, np.ndarray], law_b: tuple[np.ndarray, np.ndarray]) -> float:
    """Total variation distance of two finite laws ``(outputs, log_probabilities)`` over matched outputs.

    Examples
    --------
    >>> a = (np.array([[0.0], [1.0]]), np.log([0.5, 0.5]))
    >>> b = (np.array([[1.0], [0.0]]), np.log([0.7, 0.3]))
    >>> round(total_variation(a, b), 12)
    0.2
    """
    pa, pb = np.exp(law_a[1]), np.exp(law_b[1])
    idx = match_outputs(law_b[0], law_a[0])
    moved = np.zeros_like(pa)
    np.add.at(moved, idx[idx >= 0], pb[idx >= 0])
    return float(0.5 * (np.abs(pa - moved).sum() + pb[idx < 0].sum()))


class _Unreleasable(Exception):
    """A port's output the algorithm cannot release on its instance (or of the wrong shape)."""


def _check(name: str) -> Callable:
    def check(port, n, rng):
        inst = dict(ALGORITHM_INSTANCES[name])
        variant = inst.pop("variant")
        outputs, logp = exact_law(name)

        def draw(m):
            draws = np.asarray(getattr(port, name)(**inst, size=m, rng=rng, variant=variant))
            if draws.shape != (m, outputs.shape[1]):
                raise _Unreleasable(
                    f"{name}: expected {m} outputs of dimension {outputs.shape[1]}, got shape {draws.shape}"
                )
            idx = match_outputs(draws, outputs)
            if (idx < 0).any():
                bad = draws[int(np.flatnonzero(idx < 0)[0])].tolist()
                raise _Unreleasable(
                    f"{name}: whole-algorithm law, the output {bad} is not one the algorithm can release on its "
                    "instance"
                )
            return idx

        try:
            if sequential.ENABLED.get():
                ok, msg, detail = sequential.sequential_counts_test(draw, np.exp(logp), n)
            else:
                ok, msg, detail = counts_test(np.bincount(draw(n), minlength=outputs.shape[0]), np.exp(logp))
        except _Unreleasable as exc:
            return False, str(exc), {}
        return ok, (f"{name}: whole-algorithm law, {msg}" if msg else None), detail

    check.__name__ = f"_check_{name}"
    return check


#: ``{algorithm: (size kind, check)}``, merged into :data:`.samplers.SAMPLER_CHECKS`.
ALGORITHM_CHECKS = {name: ("algorithm", _check(name)) for name in ALGORITHM_INSTANCES}

#: The slips each instance is built to catch: ``{algorithm: {slip: (sensitivity factor, instance changes)}}``.
SLIPS: dict[str, dict[str, tuple[float, Mapping[str, Any]]]] = {
    "dp_fw": {
        "sensitivity 2x [002 Alg. 1 step 6]": (2.0, {}),
        "beta squared: b = |g|/(s beta) [002 Alg. 1 step 4]": (1.0, {"beta": 0.25}),
    },
    "private_lasso": {
        "sensitivity 2x [002 Alg. 2 step 4]": (2.0, {}),
        "standard per-step budget for the printed one [002 Lemma 2]": (1.0, {"variant": "standard"}),
    },
    "wang_xu_algorithm1": {
        "sensitivity 2x [000 Alg. 1 step 2]": (2.0, {}),
        "standard exponent for the printed one [000 Alg. 1 step 2]": (1.0, {"variant": "standard"}),
    },
    "wang_xu_algorithm2": {
        "sensitivity 2x [000 Alg. 2 step 2]": (2.0, {}),
        "psi of theta = 2 for theta = 1.5 [000 eq. (16)]": (1.0, {"theta": 2.0}),
    },
}


def slip_power(name: str, slip: str, draws: int, runs: int = 200, seed: int = 0) -> dict[str, float]:
    """The measured power of the whole-algorithm test of ``name`` against one of its :data:`SLIPS`.

    ``runs`` seeded slipped ports are simulated by drawing ``draws`` outputs from the slipped law (what a port
    with that slip releases) and testing the counts against the exact law; the fraction rejected is the power.

    Parameters
    ----------
    name : str
        A key of :data:`ALGORITHM_INSTANCES`.
    slip : str
        A key of ``SLIPS[name]``.
    draws : int
        Runs of the algorithm per test.
    runs : int
        Simulated slipped ports.
    seed : int
        Seed of the simulation.

    Returns
    -------
    dict
        ``power`` (fraction rejected), ``total_variation`` (of the slipped law from the exact one), ``draws``,
        ``runs`` and ``alpha``.

    Examples
    --------
    >>> p = slip_power("wang_xu_algorithm1", "sensitivity 2x [000 Alg. 1 step 2]", 2_000, runs=20)
    >>> p["power"], round(p["total_variation"], 2)
    (1.0, 0.25)
    """
    factor, change = SLIPS[name][slip]
    exact = exact_law(name)
    slipped = exact_law(name, factor, **change)
    probs = np.exp(exact[1])
    idx = match_outputs(slipped[0], exact[0])
    q = np.zeros_like(probs)
    np.add.at(q, idx[idx >= 0], np.exp(slipped[1][idx >= 0]))
    q = q / q.sum()
    rng = np.random.default_rng(np.random.SeedSequence([int(seed), 17]))
    rejected = sum(not counts_test(rng.multinomial(draws, q), probs)[0] for _ in range(runs))
    return {
        "power": rejected / runs,
        "total_variation": total_variation(exact, slipped),
        "draws": draws,
        "runs": runs,
        "alpha": ALPHA,
    }
