"""[002 Thm. 3] on a loss inside [002 Assumption 2] as printed: the pseudo-Huber loss.

``rates.hu.thm3`` runs on Tukey's biweight, the example the paper names, which breaks item 2 of Assumption 2 as
printed (``psi' = 0`` beyond its tuning constant; finding ``002.assumption-examples``).  The claim here,
``rates.hu.thm3.pseudo-huber``, is the headline check of the theorem inside its assumption: the same algorithm,
data and parameters (:func:`proofs_checks.rates.trials_hu_pseudo_huber.trial_theorem3_pseudo_huber`) with
``psi(r) = sqrt(1 + r^2) - 1`` (``delta = 1``), for which ``psi'`` is odd, positive on ``r > 0`` and at most 1,
``psi''`` is in ``(0, 1]`` (``C_psi = 1``) and ``h'(0) = E (1 + xi^2)^(-3/2) = 0.511`` for the t(3) noise
(``c_psi``).  The biweight run stays as the labelled extra (its reading names the departure).  The pseudo-Huber
loss is convex, a special case of the theorem's "not necessarily convex" setting.  It is the loss of
``hu.assumption2.pseudo-huber`` and ``hu.lemma7.pseudo-huber``; Lemma 7's failure for it (finding
``002.proof-lemmas``) is a constant-level slip, which leaves the rate at stake.
"""

from __future__ import annotations

import functools

from ...model import Claim, Mutant
from ...rates import trials_hu_pseudo_huber
from ...rates.check import make_rate_check
from .rate_settings import ZETA, n_epsilon, ne_grid

__all__ = ["CLAIM_ID", "SETTING", "MUTANTS", "H_PRIME_0", "thm3_pseudo_huber_check", "broken_trial", "register"]

CLAIM_ID = "rates.hu.thm3.pseudo-huber"

#: ``h'(0) = E psi''(xi) = E (1 + xi^2)^(-3/2)`` for ``xi ~ t(3)`` (scipy quad in the claim's test).
H_PRIME_0 = 0.5107

SETTING = dict(
    algorithm="hu-1",
    source="[002 Thm. 3], [002 eq. (8)], [002 Assumption 2]",
    statement="Algorithm 1 (pseudo-Huber loss, Theorem 3 parameters, constant step 1/sqrt(T)): excess population "
    "risk O~((n eps)^(-1/4)) with probability 1 - zeta",
    exponent=1 / 4,
    grids={
        "quick": ne_grid([2000], [0.0625, 0.25, 1.0, 4.0], d=4),
        "full": ne_grid([2000, 4000, 8000, 16000, 32000, 64000], [1.0], d=10),
    },
    repetitions={"quick": 48, "full": 60},
)

_READING = (
    "[002 Thm. 3] under [002 Assumption 2] as printed: the loss is pseudo-Huber, psi(r) = sqrt(1 + r^2) - 1, with "
    "psi' odd, positive for r > 0 and at most 1, psi'' in (0, 1] (C_psi = 1) and h'(0) = E psi''(xi) = "
    f"{H_PRIME_0:g} > 0 for the Student t(3) noise (c_psi); x ~ N(0, I_d) (lambda_max(E x x^T) = 1), "
    "||w*||_1 = 0.5; judged on the 0.9 quantile of the exact excess population risk (Gauss-Hermite x "
    "Gauss-Legendre quadrature, checked against mpmath) against n * epsilon (stated exponent 0.25); only the "
    "exponent is judged, never the level (O~ hides C_psi, c_psi and logs).  The biweight run rates.hu.thm3 is the "
    "paper's named example, outside item 2 as printed (psi' = 0 beyond c), kept as an extra"
)


def thm3_pseudo_huber_check(trial=None):
    """The rate check of ``rates.hu.thm3.pseudo-huber`` with an optional replacement trial (tests pass mutants)."""
    return make_rate_check(
        CLAIM_ID,
        trial or trials_hu_pseudo_huber.trial_theorem3_pseudo_huber,
        SETTING["grids"],
        n_epsilon,
        SETTING["exponent"],
        repetitions=SETTING["repetitions"],
        zeta=ZETA,
        reading=_READING,
    )


def _broken(kind, extra, point, rng):
    return trials_hu_pseudo_huber.trial_theorem3_pseudo_huber(dict(point, broken=kind, **extra), rng)


def broken_trial(kind, **extra):
    """The pseudo-Huber trial in the broken mode ``kind`` of :mod:`proofs_checks.rates.trials_hu`."""
    return functools.partial(_broken, kind, extra)


_X20 = (
    "a constant factor on the noise scale changes only the O-constant of a rate whose constants are hidden: in "
    "Algorithm 1 the sensitivity of the exponential mechanism's score enters the utility of each step linearly "
    "([002 Lemma 1]: the selection's loss is at most 2 sensitivity log(|V| T / zeta) / eps), so x20 multiplies that "
    "term's constant by 20 and leaves (n eps)^(-1/4) intact (and the mutant is 20 times more private).  Measured "
    "at quick: 0.200 [0.133, 0.268], 0.175 [0.114, 0.236], 0.205 [0.126, 0.284] at seeds 20261121, 1, 2 (1 of 3 "
    "refuted: the pre-asymptotic slope of a 20-fold noise, not a violation)"
)

#: Broken mode -> (mutant name, extra point fields, label).  Measured at quick, seeds 20261121, 1, 2 (exponent
#: [0.95 CI], stated 1/4): blind 0.111 [0.039, 0.182], 0.052 [-0.026, 0.129], 0.080 [0.023, 0.138]; noise not
#: shrinking with n eps 0.151 [0.084, 0.218], 0.125 [0.059, 0.191], 0.143 [0.067, 0.218]; output noise sigma = 0.3
#: 0.038 [-0.051, 0.126], 0.144 [0.075, 0.213], 0.092 [-0.004, 0.189]: all refuted.  The stated algorithm: 0.388
#: [0.319, 0.456], 0.296 [0.208, 0.385], 0.345 [0.283, 0.408], confirmed.
MUTANTS = {
    "ignore_data": ("blind algorithm (output ignores the data)", {}, {}),
    "fixed_noise": ("privacy noise that does not shrink with n eps", {}, {}),
    "noise_x20": ("privacy noise scale x20", {}, {"not_a_violation": _X20}),
    "output_noise": ("output noise N(0, sigma^2) added to w (sigma = 0.3)", {"output_sigma": 0.3}, {}),
}


def register(registry):
    """Register ``rates.hu.thm3.pseudo-huber`` with the mutants of :data:`MUTANTS`."""
    registry.add_claim(
        Claim(
            CLAIM_ID,
            SETTING["source"],
            SETTING["statement"],
            "rate",
            thm3_pseudo_huber_check(),
            algorithm=SETTING["algorithm"],
            mutants=tuple(
                Mutant(name, thm3_pseudo_huber_check(broken_trial(kind, **extra)), **label)
                for kind, (name, extra, label) in MUTANTS.items()
            ),
            seed_policy="once",
        )
    )
