"""Theorem 8's n-sweep on right-skewed data, where the robust estimator's bias shows ([002 Thm. 8], [002 Lemma 4]).

The n-sweeps of :mod:`.rates` draw data symmetric about the optimum (Student t), where a robust mean of a symmetric
gradient is unbiased at any truncation level, so a truncation level frozen at the grid's smallest ``n eps`` (the
``frozen_truncation`` mutant) only lowers the noise and is out of reach there.  Here ``x = mu + (exp(Z) - e^(1/2))``
(right-skewed, variance ``e (e - 1) = 4.67``): the robust mean of ``2 (w - x)`` with scale ``k`` is biased by an
amount that shrinks as ``k`` grows (Lemma 4's ``tau / k`` term), and the stated ``k = c_k sqrt(n eps tau)`` grows
with ``n eps`` while the frozen one does not.  ``c_k = 0.01`` (the theorem's ``k = O~(sqrt(n eps tau))`` leaves the
constant open) puts the frozen level at about twice the data's scale, where the bias is large enough to be seen;
``tau = 24`` bounds ``E[(grad_j l(w, x))^2] = 4 (e (e - 1) + (w_j - mu_j)^2)`` wherever ``|w_j - mu_j| <= 1.06``
(at the start ``w = 0``: ``|mu_j| = 0.71``), and ``E x_j^2 = 4.67 + mu_j^2 <= tau`` as the paper's mean-estimation
example asks [002 Sec. 5.2].  Measured numbers: ``docs/rates.md``, "002: an asymmetric design for the truncation
mutant".
"""

from __future__ import annotations

import functools

from ...model import Claim, Mutant
from ...rates import trials_hu
from ...rates.check import make_rate_check
from .rate_settings import SETTINGS, ZETA, ne_grid

__all__ = ["ASYMMETRIC_SETTINGS", "asymmetric_rate_check", "asymmetric_mutants", "register"]

_CLAIM = "rates.hu.thm8.asymmetric"
_DATA = dict(d=6, s_star=2, delta=1e-5, mu_shape="flat", x_law="lognormal", tau=24.0, c_k=0.01)

#: Claim id -> settings (as :data:`.rate_settings.SETTINGS`); the rate variable is that of ``rates.hu.thm8``.
ASYMMETRIC_SETTINGS = {
    _CLAIM: dict(
        algorithm="hu-5",
        source="[002 Thm. 8], [002 Lemma 4], [002 Sec. 5.2]",
        statement="Algorithm 5 (Theorem 8 parameters, gamma_r = mu_r = 2, s = s* = 2, k = 0.01 sqrt(n eps tau)) on "
        "right-skewed data: excess population risk O~(s*^(3/2) / (n eps)) with probability 1 - zeta",
        trial=trials_hu.trial_theorem8,
        exponent=1.0,
        grids={
            "quick": ne_grid([500, 1000, 2000, 4000, 8000, 16000], [64.0], **_DATA),
            "full": ne_grid([500, 1000, 2000, 4000, 8000, 16000, 32000, 64000], [64.0], **_DATA),
        },
        repetitions={"quick": 32, "full": 64},
    ),
}


def _reading():
    st, base = ASYMMETRIC_SETTINGS[_CLAIM], SETTINGS["rates.hu.thm8"]
    return (
        f"{st['source']}: {st['statement']}; judged on the {1 - ZETA:g} quantile against {base['xlabel']} (stated "
        f"exponent 1), only the exponent, never the level; x - mu = exp(Z) - e^(1/2) (mean 0, right-skewed), flat "
        "mu (entries +-1/sqrt(2)), d = 6, eps = 64, tau = 24; the hidden constant of k = O~(sqrt(n eps tau)) is "
        "set to c_k = 0.01 so that the robust estimator's bias (Lemma 4's tau / k term) is of the order of the "
        "error at the grid's smallest n eps: the design that lets a truncation level frozen there be seen"
    )


def asymmetric_rate_check(claim_id=_CLAIM, trial=None):
    """The rate check of ``claim_id`` (a key of :data:`ASYMMETRIC_SETTINGS`), with an optional replacement trial."""
    st, base = ASYMMETRIC_SETTINGS[claim_id], SETTINGS["rates.hu.thm8"]
    return make_rate_check(
        claim_id,
        trial or st["trial"],
        st["grids"],
        base["x"],
        st["exponent"],
        repetitions=st["repetitions"],
        zeta=ZETA,
        xlabel=base["xlabel"],
        reading=_reading(),
    )


#: The broken modes this claim must refute (no label: each is a violation the grid shows).
_KINDS = {
    "frozen_truncation": "truncation level of the robust estimator frozen at the grid's smallest n eps",
    "ignore_data": "blind algorithm (output ignores the data)",
    "fixed_noise": "privacy noise that does not shrink with n eps",
}


def _broken(kind, point, rng):
    return trials_hu.trial_theorem8(dict(point, broken=kind), rng)


def asymmetric_mutants(claim_id=_CLAIM):
    """:class:`~proofs_checks.model.Mutant` of each broken mode in ``_KINDS`` (the frozen truncation level first)."""
    return tuple(
        Mutant(name, asymmetric_rate_check(claim_id, trial=functools.partial(_broken, kind)))
        for kind, name in _KINDS.items()
    )


def register(registry):
    """Register the claims of :data:`ASYMMETRIC_SETTINGS` with their mutants."""
    for claim_id, st in ASYMMETRIC_SETTINGS.items():
        registry.add_claim(
            Claim(
                claim_id,
                st["source"],
                st["statement"],
                "rate",
                asymmetric_rate_check(claim_id),
                algorithm=st["algorithm"],
                mutants=asymmetric_mutants(claim_id),
                seed_policy="once",
            )
        )
