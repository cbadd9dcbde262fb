"""Eps sweeps at fixed ``n`` of 002's rates under the reading "one O-constant for every eps" (uniform in eps).

[002 Thm. 2] and [002 Thm. 8] state their excess-risk bounds in ``n eps`` with hidden constants whose dependence
on eps the statements leave open.  Two readings, side by side:

* **eps = O(1)** (the constant may depend on a bound on eps): judged by the n-sweeps of :mod:`.rates` (full
  profile: ``n`` swept at ``eps = 1``) and by their quick eps-sweeps over a bounded range.
* **uniform in eps** (one constant for every ``eps > 0``): judged here, at fixed ``n`` with eps up to ``10^6``
  (Theorem 2) and ``10^8`` (Theorem 8).  At fixed ``n`` the error cannot fall below what the data allow, while
  ``(n eps)^(-a)`` goes to 0: the slope of the ``1 - zeta`` quantile over eps flattens.

Which reading the proofs support: both proofs rest on Lemma 4 of 002, whose deviation bound
``tau / (2 s) (1 / beta + 1) + (s / m) (beta / 2 + log(2 / zeta))`` carries a term growing with the estimator's scale
``s`` (``k`` in Algorithm 5), and the theorems set that scale proportional to ``sqrt(n eps)``: the term grows like
``sqrt(eps)`` at fixed ``n`` (in the proof of Theorem 8 it is ``s k^2 T^2 / n^2``, proportional to ``s eps / n``, and
its displayed bound drops it, which is exact only for bounded eps).  So the proofs give the eps = O(1) reading; a
refutation here says where the rates stop holding, not that the paper erred.
"""

from __future__ import annotations

import functools

from ...model import Claim, Mutant
from ...rates import trials_hu
from ...rates.check import make_rate_check
from .rate_settings import ZETA, n_epsilon

__all__ = [
    "EPS_SETTINGS",
    "blind_trial",
    "broken_mode_trial",
    "eps_grid",
    "eps_rate_check",
    "fixed_n_rate_check",
    "register",
]


def eps_grid(n, eps_values, **common):
    """Grid points at fixed ``n`` over ``eps_values``; ``ne_ref`` is the smallest ``n eps``."""
    pts = [dict(common, n=int(n), epsilon=float(e)) for e in eps_values]
    ref = min(n_epsilon(p) for p in pts)
    return [dict(p, ne_ref=ref) for p in pts]


_DECADES_2 = [10.0**k for k in range(0, 7, 2)]
_DECADES_8 = [10.0**k for k in range(0, 9, 2)]

#: Claim id -> settings (as :data:`.rate_settings.SETTINGS`); the stated exponents are those of the n-sweeps
#: (``T = floor(log n)`` is constant at fixed ``n``, so Theorem 8's ``n eps / T^2`` has the exponent of ``n eps``).
EPS_SETTINGS = {
    "rates.hu.thm2.rate-eps.uniform": dict(
        algorithm="hu-1",
        source="[002 Thm. 2], [002 eq. (6)], [002 Lemma 4]",
        statement="Algorithm 1 (squared loss, Theorem 2 parameters) at fixed n: excess population risk "
        "O~((n eps)^(-1/3)) with one O-constant for every eps > 0",
        trial=trials_hu.trial_theorem2,
        exponent=1 / 3,
        grids={
            "quick": eps_grid(500, _DECADES_2, d=4),
            "full": eps_grid(2000, [10.0**k for k in range(0, 7)], d=4),
        },
        repetitions={"quick": 24, "full": 48},
    ),
    "rates.hu.thm8.rate-eps.uniform": dict(
        algorithm="hu-5",
        source="[002 Thm. 8], [002 App. A], [002 Lemma 4]",
        statement="Algorithm 5 (Theorem 8 parameters, s = s* = 2) at fixed n: excess population risk "
        "O~(s*^(3/2) / (n eps)) with one O-constant for every eps > 0",
        trial=trials_hu.trial_theorem8,
        exponent=1.0,
        grids={
            "quick": eps_grid(600, _DECADES_8, d=6, s_star=2, delta=1e-5),
            "full": eps_grid(2000, [10.0**k for k in range(0, 9)], d=20, s_star=2, delta=1e-5),
        },
        repetitions={"quick": 48, "full": 96},
    ),
}


def _reading(st):
    top = max(p["epsilon"] for p in st["grids"]["quick"])
    return (
        f"{st['source']}: reading 'uniform in eps' (one O-constant for every eps > 0), judged on the {1 - ZETA:g} "
        f"quantile of the excess population risk at fixed n against n * epsilon, eps from 1 to {top:.0e} at quick "
        f"(stated exponent {st['exponent']:g}); the other reading, eps = O(1), is the one the n-sweeps "
        "rates.hu.thm2 / rates.hu.thm8 judge, and the one the proofs support (Lemma 4's s / m term grows like "
        "sqrt(eps) at fixed n with the theorems' s, k ~ sqrt(n eps)); eps beyond 1 is outside the privacy "
        "statements' range, which the utility statements do not repeat"
    )


def fixed_n_rate_check(claim_id, settings, reading, trial=None):
    """The rate check of an eps sweep at fixed ``n``: ``settings[claim_id]`` (a dict as in :data:`EPS_SETTINGS`)
    judged against ``n * epsilon`` with ``reading``; ``trial`` replaces the settings' trial (a mutant)."""
    st = settings[claim_id]
    return make_rate_check(
        claim_id,
        trial or st["trial"],
        st["grids"],
        n_epsilon,
        st["exponent"],
        repetitions=st["repetitions"],
        zeta=ZETA,
        xlabel="n * epsilon (n fixed)",
        reading=reading,
    )


def eps_rate_check(claim_id, trial=None):
    """The rate check of ``claim_id`` (a key of :data:`EPS_SETTINGS`), with an optional replacement trial."""
    return fixed_n_rate_check(claim_id, EPS_SETTINGS, _reading(EPS_SETTINGS[claim_id]), trial)


def _broken(trial, kind, point, rng):
    return trial(dict(point, broken=kind), rng)


def broken_mode_trial(trial, kind):
    """``trial`` run in the broken mode ``kind`` of :mod:`proofs_checks.rates.trials_hu` (a picklable partial)."""
    return functools.partial(_broken, trial, kind)


def blind_trial(claim_id):
    """The blind algorithm (output ignores the data) of ``claim_id``'s trial: the mutant of the eps sweeps."""
    return broken_mode_trial(EPS_SETTINGS[claim_id]["trial"], "ignore_data")


def register(registry):
    """Register the eps-sweep claims of :data:`EPS_SETTINGS`, each with the blind algorithm as its mutant."""
    for claim_id, st in EPS_SETTINGS.items():
        blind = blind_trial(claim_id)
        registry.add_claim(
            Claim(
                claim_id,
                st["source"],
                st["statement"],
                "rate",
                eps_rate_check(claim_id),
                algorithm=st["algorithm"],
                mutants=(Mutant("blind algorithm (output ignores the data)", eps_rate_check(claim_id, trial=blind)),),
                seed_policy="once",
                # Theorem 8 states its guarantees for 0 < eps < 1 only, so its sweep beyond 1 puts no statement of
                # the paper at stake; Theorem 2 names no range, so its uniform reading is one of the paper's
                scope="reproduction" if claim_id == "rates.hu.thm8.rate-eps.uniform" else "paper",
            )
        )
