"""Eps sweeps at fixed ``n`` of [002 Thm. 3], [002 Thm. 5] and [002 Thm. 7] under the reading "uniform in eps".

The companions of :mod:`.rate_eps` (Theorems 2 and 8) for the three other rate theorems of 002, so that every
n-eps rate of the paper has a sweep at fixed ``n`` with eps far above 1.  Two readings, side by side:

* **eps = O(1)** (the O-constant may depend on a bound on eps): judged by the n-sweeps and their quick eps
  sweeps over a bounded range (``rates.hu.thm3.pseudo-huber``: eps in [1/16, 4] at n = 2000;
  ``rates.hu.thm5``: eps in [64, 16384] at n = 4000; ``rates.hu.thm7``: n swept at eps = 1600).
* **uniform in eps** (one O-constant for every eps): judged here, at fixed ``n`` up to the largest eps at which
  the theorem's own parameters are feasible.  Algorithms 1 and 2 need ``T <= n`` (Algorithm 1 splits the data
  into ``T`` parts; Algorithm 2's implementation requires it), and the theorems set ``T`` growing with ``n eps``
  (Theorem 3: ``T ~ sqrt(n eps / log(d / zeta))``, so eps up to about ``n log(d / zeta)``); Algorithm 3 has
  ``T = log n``, so eps is free.

Theorem 3 runs on the pseudo-Huber loss (inside [002 Assumption 2] as printed,
:mod:`.rate_thm3_pseudo_huber`).  Each claim's mutant is the blind algorithm (output ignores the data); the
Theorem 5 claim, which the measurement confirms, also carries the noise that does not shrink with eps.
"""

from __future__ import annotations

from ...model import Claim, Mutant
from ...rates import trials_hu, trials_hu_pseudo_huber
from .rate_eps import broken_mode_trial, eps_grid, fixed_n_rate_check
from .rate_settings import ZETA

__all__ = ["EPS_SETTINGS", "eps_reading", "eps_rate_check", "broken_trial", "register"]

_THM3_BLIND = (
    "a real violation of the uniform reading that the quick sweep cannot show: 13 runs per point at n = 50 (kept "
    "cheap) leave the stated algorithm inconclusive there (-0.007 [-0.305, 0.291], 0.075 [-0.174, 0.325], 0.199 "
    "[-0.041, 0.438] at seeds 20261121, 1, 2), so no mutant can be told apart; the full profile (n = 1000, 96 "
    "runs) refutes the stated algorithm, 0.089 [0.057, 0.122] (0.9 quantiles 0.068, 0.033, 0.029, 0.030, 0.032 at "
    "eps = 1, 10, 100, 1000, 3000), and the blind one alike, 0.089 [0.074, 0.104] (seed 20261121)"
)

#: Claim id -> settings (as :data:`.rate_eps.EPS_SETTINGS`) plus ``mutants`` (broken mode -> label) and ``why``
#: (what bounds the sweep at fixed n).  Theorem 7's stated exponent is that of ``n eps / T`` (``T = floor(log n)``
#: is constant at fixed ``n``).
EPS_SETTINGS = {
    "rates.hu.thm3.pseudo-huber.rate-eps.uniform": dict(
        algorithm="hu-1",
        source="[002 Thm. 3], [002 eq. (8)], [002 Assumption 2], [002 Lemma 4]",
        statement="Algorithm 1 (pseudo-Huber loss, Theorem 3 parameters) at fixed n: excess population risk "
        "O~((n eps)^(-1/4)) with one O-constant for every eps > 0",
        trial=trials_hu_pseudo_huber.trial_theorem3_pseudo_huber,
        exponent=1 / 4,
        grids={
            "quick": eps_grid(50, [10.0, 25.0, 60.0, 180.0], d=4),
            "full": eps_grid(1000, [1.0, 10.0, 100.0, 1000.0, 3000.0], d=4),
        },
        repetitions={"quick": 13, "full": 96},
        why="T = sqrt(n eps / log(d / zeta)) must stay <= n (eps <= 180 at n = 50, 3000 at n = 1000)",
        scope="paper",
        mutants={"ignore_data": {"out_of_reach": _THM3_BLIND}},
    ),
    "rates.hu.thm5.rate-eps.uniform": dict(
        algorithm="hu-2",
        source="[002 Thm. 5], [002 eq. (9)], [002 Assumption 3]",
        statement="Algorithm 2 (Theorem 5 parameters, delta = 1e-5) at fixed n: excess population risk "
        "O~((n eps)^(-2/5)) with one O-constant for every eps > 0",
        trial=trials_hu.trial_theorem5,
        exponent=2 / 5,
        grids={
            "quick": eps_grid(200, [64.0, 1e3, 1e4, 1e5, 1e6], d=10, delta=1e-5),
            "full": eps_grid(1000, [64.0, 1e3, 1e4, 1e5, 1e6, 1e7], d=10, delta=1e-5),
        },
        repetitions={"quick": 16, "full": 64},
        why="T ~ (n eps)^(2/5) must stay <= n (eps <= 1e6 at n = 200, 1e7 at n = 1000)",
        scope="paper",
        mutants={"ignore_data": {}, "fixed_noise": {}},
    ),
    "rates.hu.thm7.rate-eps.uniform": dict(
        algorithm="hu-3",
        source="[002 Thm. 7], [002 Assumption 3]",
        statement="Algorithm 3 (Theorem 7 parameters, gamma = mu = 1, s = 2 s*, s* = 2) at fixed n: excess "
        "population risk O~(s*^2 / (n eps)) with one O-constant for every eps > 0",
        trial=trials_hu.trial_theorem7,
        exponent=1.0,
        grids={
            "quick": eps_grid(1000, [1600.0, 1e4, 1e5, 1e6, 1e7, 1e8], d=20, s_star=2, c_s=2.0, delta=1e-5),
            "full": eps_grid(4000, [400.0, 1600.0, 1e4, 1e5, 1e6, 1e7, 1e8], d=50, s_star=2, c_s=2.0, delta=1e-5),
        },
        repetitions={"quick": 32, "full": 96},
        why="T = floor(log n) does not grow with eps; the non-private error of T steps on n / T records each stays",
        scope="paper",
        mutants={"ignore_data": {}},
    ),
}


def eps_reading(claim_id):
    """The reading of ``claim_id`` (a key of :data:`EPS_SETTINGS`): "uniform in eps", beside "eps = O(1)"."""
    st = EPS_SETTINGS[claim_id]
    q = st["grids"]["quick"]
    eps = sorted(p["epsilon"] for p in q)
    return (
        f"{st['source']}: reading 'uniform in eps' (one O-constant for every eps > 0), judged on the {1 - ZETA:g} "
        f"quantile of the excess population risk at fixed n = {q[0]['n']} (quick) against n * epsilon, eps from "
        f"{eps[0]:g} to {eps[-1]:g} (stated exponent {st['exponent']:g}); the range ends where {st['why']}.  "
        "The other reading, eps = O(1), is judged by the n-sweep of the same theorem; the utility statement names "
        "no eps range, the privacy theorem of the algorithm (Theorems 1, 4, 6) does"
        + ("" if st["scope"] == "paper" else " (0 < eps < 1: eps beyond 1 puts no statement of the paper at stake)")
    )


def eps_rate_check(claim_id, trial=None):
    """The rate check of ``claim_id`` (a key of :data:`EPS_SETTINGS`), with an optional replacement trial."""
    return fixed_n_rate_check(claim_id, EPS_SETTINGS, eps_reading(claim_id), trial)


def broken_trial(claim_id, kind):
    """``claim_id``'s trial in the broken mode ``kind`` of :mod:`proofs_checks.rates.trials_hu`."""
    return broken_mode_trial(EPS_SETTINGS[claim_id]["trial"], kind)


_NAMES = {
    "ignore_data": "blind algorithm (output ignores the data)",
    "fixed_noise": "privacy noise that does not shrink with eps (scale of the smallest n eps at every point)",
}


def register(registry):
    """Register the eps-sweep claims of :data:`EPS_SETTINGS` with their mutants."""
    for claim_id, st in EPS_SETTINGS.items():
        registry.add_claim(
            Claim(
                claim_id,
                st["source"],
                st["statement"],
                "rate",
                eps_rate_check(claim_id),
                algorithm=st["algorithm"],
                mutants=tuple(
                    Mutant(_NAMES[kind], eps_rate_check(claim_id, trial=broken_trial(claim_id, kind)), **label)
                    for kind, label in st["mutants"].items()
                ),
                seed_policy="once",
                scope=st["scope"],
            )
        )
