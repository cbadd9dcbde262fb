"""Units checks of 000's privacy statements and stated sensitivities: rescale by ``k`` and compare with ``k = 1``.

[000 Alg. 1] / [000 Alg. 2] output a net point of the ball of radius ``R`` by the exponential mechanism on the
truncated empirical risk ``L-hat_iota(w) = (1/(n iota)) sum_i psi(iota (<w, x_i> - y_i))`` [000 eq. (2)] (``psi``
of [000 eq. (6)] or [000 eq. (16)]).  ``iota`` is the inverse of a residual's unit: multiplying the radius, the
net's spacing ``zeta`` and the labels by ``k`` and dividing ``iota`` by ``k`` (features fixed) multiplies every
residual by ``k``, leaves every ``psi`` term unchanged, and multiplies ``L-hat`` and each stated sensitivity
(``2 log 2/(n iota)`` and the two of ``psi`` (16)) by ``k``.  The output law on the rescaled net, hence the privacy
loss, must not change; a sensitivity must scale like ``L-hat`` (exponent 1).
"""

from __future__ import annotations

import math

import numpy as np

from reference.wang_xu.l1_regression import make_mechanism

from ...model import Claim, Mutant, Result
from .sensitivity import stated_sensitivity_eq6, stated_sensitivity_eq16_proof, stated_sensitivity_eq16_text

__all__ = ["privacy_loss_in_units", "register"]

#: Unit factors compared with k = 1 (powers of 2: the net and the records rescale exactly in float64).
FACTORS = (8.0, 1024.0)
#: Relative tolerance of a privacy loss through exp/log and of an exponent (docs/reproducibility.md).
RTOL = 1e-9
#: One fixed replace-one pair in d = 2 at k = 1 (records [x_1, x_2, y]; the last row replaced), not drawn.
_D = np.array([[0.5, -1.0, 0.3], [2.0, 0.5, -0.4], [-1.5, 0.2, 0.8], [0.1, 1.2, -0.6], [0.7, -0.3, 0.1]])
_REPLACEMENT = np.array([3.0, -3.0, 5.0])


def privacy_loss_in_units(k, algorithm=1, variant="printed", exponent_unit_power=0.0):
    """Largest ``|log P_D(w) - log P_D'(w)|`` over the net, in units ``k`` (``R = k``, ``zeta = k/2``,
    labels times ``k``, ``iota = 1/k``, ``epsilon = 1``; ``theta = 1.5`` for Algorithm 2).

    Parameters
    ----------
    k : float
        The unit, finite and > 0.
    algorithm : {1, 2}
    variant : {"printed", "standard", "calibrated"}
        The exponent of [000 Alg. 1] step 2 (see :func:`reference.wang_xu.l1_regression.make_mechanism`).
    exponent_unit_power : float, default 0.0
        The log-weights are multiplied by ``(1/iota)^p``; 0 is the paper's, 1 a mutant whose exponent is built on
        ``n L-hat`` instead of ``n iota L-hat`` (a quantity in the residual's units).

    Returns
    -------
    float

    Raises
    ------
    ValueError
        ``k`` not finite and positive.

    References
    ----------
    [000 Alg. 1], [000 Alg. 2], [000 eq. (2)], [000 Thm. 1], [000 Thm. 2].

    Examples
    --------
    >>> a, b = privacy_loss_in_units(1.0), privacy_loss_in_units(8.0)
    >>> abs(a - b) <= 1e-9 * a
    True
    """
    if not (math.isfinite(k) and k > 0):
        raise ValueError(f"k must be finite and > 0, got {k!r}")
    iota = 1.0 / k
    kw = {} if algorithm == 1 else {"theta": 1.5}
    mech = make_mechanism(algorithm, variant=variant, epsilon=1.0, dim=2, radius=k, zeta=0.5 * k, iota=iota, **kw)
    scale = np.array([1.0, 1.0, k])
    D = _D * scale
    Dp = D.copy()
    Dp[-1] = _REPLACEMENT * scale
    factor = (1.0 / iota) ** exponent_unit_power
    logp = mech.log_prob_from_terms(factor * mech.score_terms(D).sum(axis=0))
    logq = mech.log_prob_from_terms(factor * mech.score_terms(Dp).sum(axis=0))
    return float(np.max(np.abs(logp - logq)))


def privacy_units_check(exponent_unit_power=0.0):
    """The privacy loss on the pair must be the same in every unit, for both algorithms and the three exponents."""

    def check(ctx):
        rows, worst = [], 0.0
        for algorithm in (1, 2):
            for variant in ("printed", "standard", "calibrated"):
                base = privacy_loss_in_units(1.0, algorithm, variant, exponent_unit_power)
                for k in FACTORS:
                    loss = privacy_loss_in_units(k, algorithm, variant, exponent_unit_power)
                    rows.append({"algorithm": algorithm, "variant": variant, "k": k, "loss": loss, "loss_at_k_1": base})
                    worst = max(worst, abs(loss / base - 1.0))
        return Result(
            "refuted" if worst > RTOL else "confirmed",
            observed=worst,
            bound=RTOL,
            direction="at_most",
            method="exact output law over the whole net (the mechanism's score_terms and log-sum-exp) on one fixed "
            f"replace-one pair in d = 2, at k = 1 and k = {', '.join(f'{k:g}' for k in FACTORS)}",
            reading="[000 Alg. 1] and [000 Alg. 2] (theta = 1.5) at eps = 1, exponents printed, standard and "
            "calibrated; radius, net spacing and labels times k, iota divided by k, features fixed: every residual "
            "times k and every psi term unchanged"
            + ("" if exponent_unit_power == 0.0 else "; mutant: log-weights built on n L-hat (no iota)"),
            evidence={"rows": rows, "observed_is": "largest |loss(k)/loss(1) - 1|"},
            evidence_kind="formula",
        )

    return check


_STATED = {
    "eq. (6): 2 log 2/(n iota)": lambda n, iota: stated_sensitivity_eq6(n, iota),
    "eq. (16) text: 2 log theta/(2 n iota)": lambda n, iota: stated_sensitivity_eq16_text(n, iota, 1.5),
    "eq. (16) proof: 2 log theta/(n iota)": lambda n, iota: stated_sensitivity_eq16_proof(n, iota, 1.5),
}


def sensitivity_units_check(drop_iota=False):
    """Each stated sensitivity of ``L-hat`` must scale like ``L-hat`` (exponent 1 in ``k`` as ``iota = 1/k``)."""

    def check(ctx):
        rows, worst = [], 0.0
        for name, f in _STATED.items():
            for k in FACTORS:

                def value(u, f=f):
                    return f(10, 1.0) if drop_iota else f(10, 1.0 / u)

                e = math.log(value(k) / value(1.0)) / math.log(k)
                rows.append({"stated": name, "k": k, "exponent": e})
                worst = max(worst, abs(e - 1.0))
        return Result(
            "refuted" if worst > RTOL else "confirmed",
            observed=worst,
            bound=RTOL,
            direction="at_most",
            method="exponent log(S(k)/S(1))/log k of the stated sensitivities (n = 10, theta = 1.5) at k = "
            + ", ".join(f"{k:g}" for k in FACTORS),
            reading="[000 eq. (6)] text, [000 Thm. 1] proof, [000 Sec. IV-B] text and [000 Thm. 2] proof: the "
            "sensitivity of L-hat_iota, which is in the units of a residual (1/iota)"
            + ("; mutant: 1/iota dropped" if drop_iota else ""),
            evidence={"rows": rows, "observed_is": "largest |exponent - 1|"},
        )

    return check


def register(registry):
    """Add the units checks of 000."""

    def claim(*a, **k):
        registry.add_claim(Claim(*a, **k))

    claim(
        "wang-xu.units.privacy",
        "[000 Thm. 1] [000 Thm. 2]",
        "The privacy loss of Algorithms 1-2 does not depend on the units of radius and labels (iota in 1/units).",
        "privacy",
        privacy_units_check(),
        mutants=(Mutant("log-weights on n L-hat instead of n iota L-hat", privacy_units_check(1.0)),),
    )
    claim(
        "wang-xu.units.sensitivity",
        "[000 eq. (6)] [000 Thm. 1] [000 Thm. 2]",
        "The stated sensitivities of L-hat_iota scale like L-hat_iota (1/iota) under a change of units.",
        "formula",
        sensitivity_units_check(),
        mutants=(Mutant("1/iota dropped: 2 log 2 / n", sensitivity_units_check(True)),),
    )
