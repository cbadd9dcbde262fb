"""The assumptions of 002 checked against the examples the paper gives for them.

- ``hu.assumption2.biweight``: the text before [002 Assumption 2] says the assumption includes Tukey's biweight
  (footnote to [002 Thm. 3]); item 2 asks ``psi'(s) > 0`` for every ``s > 0``, and the biweight's ``psi'``
  vanishes for ``|s| >= c``.
- ``hu.remark2.assumption1-implies-3``: [002 Remark 2] says Assumption 3 is weaker than Assumption 1 (its argument
  bounds ``E (x_j x_k)^2`` only; Assumption 3 also bounds ``E y^4``).  Witness: ``d = 1``, ``x ~ N(0, 1)``
  independent of ``y ~ t(3)``: ``E[x^2 (w x - y)^2] = 3 w^2 + 3 <= 6`` on the unit ball and ``L`` is 2-smooth
  (Assumption 1 holds), while ``E y^4 = inf`` (Assumption 3 fails).
"""

from __future__ import annotations

import math

import mpmath
import numpy as np

from ...builders import compare_result
from ...model import Claim, Mutant
from .lemmas import biweight, pseudo_huber

__all__ = ["assumption2_check", "truncated_fourth_moment", "remark2_check", "register"]


def assumption2_check(loss=biweight, name="Tukey's biweight (c = 4.685)"):
    """Items 1 and 2 of [002 Assumption 2] on a grid of ``s`` in [-50, 50] (closed forms of ``psi'``, ``psi''``)."""

    def check(ctx):
        s = np.linspace(-50.0, 50.0, 100001)
        d1 = np.array([loss(float(v))[1] for v in s])
        d2 = np.array([loss(float(v))[2] for v in s])
        positive = s > 0
        not_positive = int(np.sum(d1[positive] <= 0.0))
        first = float(s[positive][d1[positive] <= 0.0][0]) if not_positive else None
        items = {
            "item1_sup_psi_prime_and_second": float(max(d1.max(), d2.max())),
            "item2_psi_prime_odd_max_error": float(np.max(np.abs(d1 + d1[::-1]))),
            "item2_points_s_positive_with_psi_prime_not_positive": not_positive,
            "item2_first_such_s": first,
            "item2_h_prime_0_noise_free": float(loss(0.0)[2]),
        }
        return compare_result(
            float(not_positive),
            0.0,
            "at_most",
            method=f"closed forms of psi' and psi'' of {name} at 100001 points of [-50, 50]; observed: the number "
            "of points s > 0 where psi'(s) <= 0 (item 2 asks none)",
            reading="[002 Assumption 2] (file line 184) items 1-2, as the text before it (line 182) says the "
            "assumption includes the biweight loss of its footnote (defined with |s| <= c where it prints |t|); "
            "h'(0) = E psi''(xi) evaluated noise-free (xi = 0)",
            evidence={"rows": [items], "worst": {"first_s_with_psi_prime_not_positive": first}},
            evidence_kind="formula",
        )

    return check


def truncated_fourth_moment(nu: float, R: float, dps: int = 30) -> float:
    """``E[y^4 ; |y| <= R]`` for Student's t with ``nu`` degrees of freedom (mpmath quadrature).

    Examples
    --------
    >>> round(truncated_fourth_moment(5.0, 1e6), 3)  # E y^4 = 3 nu^2 / ((nu - 2)(nu - 4)) = 25
    25.0
    """
    with mpmath.workdps(dps):
        nu_ = mpmath.mpf(nu)
        c = mpmath.gamma((nu_ + 1) / 2) / (mpmath.sqrt(nu_ * mpmath.pi) * mpmath.gamma(nu_ / 2))
        f = lambda y: y**4 * c * (1 + y * y / nu_) ** (-(nu_ + 1) / 2)  # noqa: E731
        points = [0] + [mpmath.mpf(10) ** k for k in range(0, int(math.log10(R)) + 1)]
        return float(2 * mpmath.quad(f, points))


def remark2_check(nu=3.0, constant=1000.0):
    """[002 Remark 2]'s 'Assumption 3 is weaker than Assumption 1' at ``x ~ N(0, 1)`` independent of ``y ~ t(nu)``."""

    def check(ctx):
        second = nu / (nu - 2.0)  # E y^2 of t(nu), nu > 2
        tau = 3.0 + second  # sup_{|w| <= 1} E[x^2 (w x - y)^2] = 3 w^2 + E y^2
        rows = [{"R": R, "E_y4_truncated": truncated_fourth_moment(nu, R)} for R in (1e2, 1e4, 1e6)]
        observed = rows[-1]["E_y4_truncated"]
        return compare_result(
            observed,
            constant * tau,
            "at_most",
            method=f"closed forms for Assumption 1 (E x^4 = 3, E y^2 = {second:g}: tau = {tau:g}, L(w) = w^2 + "
            f"{second:g} is 2-smooth) and mpmath quadrature (30 digits) of E[y^4; |y| <= R] for t({nu:g}) at R = "
            f"1e2, 1e4, 1e6; observed: the last, against M = {constant:g} tau (any M = O(tau) fails: the "
            "truncated moment grows like R when nu = 3)",
            reading="[002 Remark 2] (file line 226): Assumption 1 (line 116: alpha-smooth L, E[(grad_j l)^2] <= tau "
            "on W) implies E (x_j x_k)^2 <= O(tau), hence 'Assumption 3 is weaker'; [002 Assumption 3] (line 222) "
            "also asks E y^4 <= M.  Witness d = 1, W = [-1, 1], squared loss, x ~ N(0, 1) independent of "
            f"y ~ t({nu:g})",
            evidence={"rows": rows, "worst": rows[-1], "note": f"tau = {tau:g}; E x^4 = 3"},
            evidence_kind="formula",
        )

    return check


def register(registry):
    claim = registry.add_claim
    claim(
        Claim(
            "hu.assumption2.biweight",
            "[002 Assumption 2], [002 Thm. 3]",
            "Tukey's biweight meets items 1-2 of Assumption 2 (psi' odd, psi'(s) > 0 for s > 0, bounded psi', psi'').",
            "inequality",
            assumption2_check(),
            algorithm="hu-1",
            mutants=(
                Mutant(
                    "the pseudo-Huber loss sqrt(1 + s^2) - 1 (meets the items; must be confirmed)",
                    assumption2_check(pseudo_huber, "pseudo-Huber"),
                    detected_by=("confirmed",),
                ),
            ),
        )
    )
    claim(
        Claim(
            "hu.remark2.assumption1-implies-3",
            "[002 Remark 2], [002 Assumption 1], [002 Assumption 3]",
            "A distribution meeting Assumption 1 meets Assumption 3 with M = O(tau) (x ~ N(0, 1), y ~ t(3)).",
            "inequality",
            remark2_check(),
            mutants=(
                Mutant(
                    "y ~ t(5), whose fourth moment is 25 (must be confirmed)",
                    remark2_check(nu=5.0),
                    detected_by=("confirmed",),
                ),
            ),
        )
    )
