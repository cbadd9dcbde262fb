"""Single steps of the proofs of Wang & Xu (000), each checked exactly (rationals or mpmath, 50 digits).

* [000 eq. (26)]: the coefficient ``2 b`` of ``M = sup_w E|y - <x, w>|^theta`` against the ``2 a + b`` its premises
  add up to (``a = iota^(theta-1)/theta``, ``b = (2 iota)^(theta-1)/theta``; :mod:`.bounds`).  The ratio is
  ``2^theta / (2 + 2^(theta-1))``, below 1 for every theta in (1, 2): (26)'s M term is too small, besides the
  dropped ``4 log(N/eta)/(n iota)`` and the doubled mechanism term the derivation claim reports.
* The display closing the proof of [000 Thm. 1]: ``sup_w E(y - <x, w>)^2 <= E(y - <x, w*>)^2
  + 2 E||x||^2 sup_w ||w - w*||^2``.  With ``xi = y - <x, w*>`` and ``v = w - w*``,
  ``E(xi - <x, v>)^2 = E xi^2 - 2 E[xi <x, v>] + E<x, v>^2``: the display needs the cross term to vanish (noise
  uncorrelated with x) or a factor 2 on ``E xi^2`` (``(a + b)^2 <= 2 a^2 + 2 b^2``).  ``w*`` minimises the l1 risk,
  which makes ``E[sign(xi) x] = 0``, not ``E[xi x] = 0``.  Checked exactly on two-point covariate laws.
* [000 eq. (39)] in the proof of [000 Lemma 10]: the line before it has ``+ iota zeta E||x||``, (39) drops it.
  Per record (the n-th root of both sides) the step claims ``1 - iota L + iota zeta E||x|| + (iota^theta/theta)
  E| |r| - zeta ||x|| |^theta <= exp(-iota L + (2^(theta-1) iota^theta/theta)(E|r|^theta + zeta^theta
  E||x||^theta))``; it fails when ``iota zeta ||x||`` dominates (a point mass with ``r = 0``).  Kept in the exponent
  (as Lemma 10's statement does with its ``zeta tau``), the step follows from ``1 + u <= e^u``.
* [000 Thm. 1]'s display writes ``log(N(W, zeta)/zeta)`` where (14) has ``log(N(W, zeta)/eta)``; read literally it
  is not O of (14) as ``eta -> 0`` at fixed n (the ratio grows like ``log(1/eta)``).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import mpmath

from ...model import Claim, Mutant, Result

__all__ = [
    "eq26_m_coefficient_check",
    "display_after_14_check",
    "step39_check",
    "log_eta_check",
    "display_after_14_values",
    "register",
]

_THETAS = ("1.01", "1.1", "1.25", "1.5", "1.75", "1.9", "1.99")


def eq26_m_coefficient_check(coefficient="printed", scale=1):
    """Check factory: (26)'s coefficient on M is at least the premises' ``2a + b``, for theta in (1, 2).

    ``coefficient``: ``"printed"`` (``2b``) or ``"premises"`` (``2a + b``, a mutant that must be confirmed);
    ``scale`` multiplies it (a mutant).  Exact in mpmath at 50 digits; ``iota`` cancels from the ratio.
    """

    def check(ctx):
        rows = []
        with mpmath.workdps(50):
            for th in _THETAS:
                t = mpmath.mpf(th)
                a, b = 1 / t, 2 ** (t - 1) / t  # the factor iota^(theta-1) is common to both
                coef = (2 * b if coefficient == "printed" else 2 * a + b) * mpmath.mpf(scale)
                rows.append({"theta": float(t), "ratio": float(coef / (2 * a + b))})
        worst = min(rows, key=lambda r: r["ratio"])
        holds = worst["ratio"] >= 1 - 1e-12
        return Result(
            "confirmed" if holds else "refuted",
            observed=worst["ratio"],
            bound=1.0,
            direction="at_least",
            method="mpmath at 50 digits: (coefficient of M in (26)) / (2a + b) = 2^theta / (2 + 2^(theta-1)) "
            f"at theta in {list(map(float, _THETAS))}",
            reading="[000 eq. (26)] term by term against the sum of [000 eq. (20)], [000 Lemma 7], [000 eq. (23)] "
            "and [000 eq. (24)]: Lemma 7 and (23) each carry a M, (24) b M (a = iota^(theta-1)/theta, "
            "b = (2 iota)^(theta-1)/theta); observed = smallest ratio",
            evidence={"rows": rows, "worst_at": {"theta": worst["theta"]}},
            evidence_kind="formula",
        )

    return check


def display_after_14_values(p, c, s, t, v):
    """``(LHS, RHS printed, RHS with a factor 2 on E xi^2)`` of the display after (14), exactly.

    The law: ``x = 1`` with probability ``p`` and ``xi = 0``; ``x = c`` with probability ``1 - p`` and ``xi = s`` or
    ``-t`` with probability 1/2 each (``s, t > 0``: ``w*`` minimises ``E|xi - x v|`` at ``v = 0``, the subgradient
    ``p [-1, 1]`` contains 0).  ``W = [w* - v, w* + v]``; LHS is the sup over W (at an end: convex in v).

    >>> lhs, rhs, rhs2 = display_after_14_values(Fraction(1, 2), 2, 3, 1, Fraction(2, 5))
    >>> lhs, rhs, lhs > rhs, lhs <= rhs2
    (Fraction(37, 10), Fraction(33, 10), True, True)
    """
    p, c, s, t, v = (Fraction(z) for z in (p, c, s, t, v))
    q = 1 - p

    def second_moment(u):
        return p * u * u + q / 2 * ((s - c * u) ** 2 + (t + c * u) ** 2)

    lhs = max(second_moment(v), second_moment(-v))
    e_xi2, e_x2 = q * (s * s + t * t) / 2, p + q * c * c
    return lhs, e_xi2 + 2 * e_x2 * v * v, 2 * e_xi2 + 2 * e_x2 * v * v


def _display_grid(uncorrelated):
    ps = [Fraction(k, 4) for k in (1, 2, 3)]
    cs = [Fraction(k, 2) for k in (1, 3, 4, 6, 10)]
    sts = [Fraction(k, 2) for k in (1, 2, 6, 12)]
    vs = [Fraction(k, 10) for k in (1, 2, 4, 8, 16)]
    for p, c, s, t, v in itertools.product(ps, cs, sts, sts, vs):
        if uncorrelated and s != t:
            continue
        yield p, c, s, t, v


def display_after_14_check(reading="printed", scale=1):
    """Check factory: the display after (14) on two-point covariate laws, exactly (rationals).

    ``reading``: ``"printed"`` (the l1 minimiser ``w*``, noise possibly correlated with x), ``"uncorrelated"``
    (``E[xi x] = 0``: ``s = t``) or ``"factor-2"`` (``2 E xi^2`` on the right).  ``scale`` multiplies the right-hand
    side (a mutant).  ``observed`` is the largest LHS / RHS over the grid.
    """

    def check(ctx):
        best, where = Fraction(0), None
        for p, c, s, t, v in _display_grid(reading == "uncorrelated"):
            lhs, rhs, rhs2 = display_after_14_values(p, c, s, t, v)
            ratio = lhs / ((rhs2 if reading == "factor-2" else rhs) * Fraction(scale))
            if ratio > best:
                best, where = ratio, (p, c, s, t, v)
        p, c, s, t, v = where
        lhs, rhs, rhs2 = display_after_14_values(p, c, s, t, v)
        return Result(
            "confirmed" if best <= 1 else "refuted",
            observed=float(best),
            bound=1.0,
            direction="at_most",
            method="exact rationals over a grid of laws: x = 1 (prob. p, xi = 0) or c (xi = s or -t), W = [w* - v, "
            "w* + v]; p in {1/4, 1/2, 3/4}, c in {1/2 .. 5}, s, t in {1/2 .. 6}, v in {0.1 .. 1.6}",
            reading=f"the display closing the proof of [000 Thm. 1] (before the proof of (8)), reading {reading!r}: "
            "w* minimises L_D over W ([000 Def. 3]), xi = y - <x, w*>; 'printed' allows E[xi x] != 0, "
            "'uncorrelated' imposes it, 'factor-2' puts 2 E xi^2 on the right",
            evidence={
                "worst_at": {
                    "p": str(p),
                    "c": str(c),
                    "s": str(s),
                    "t": str(t),
                    "v": str(v),
                    "lhs": str(lhs),
                    "rhs_printed": str(rhs),
                    "rhs_factor_2": str(rhs2),
                    "e_xi_x": str((1 - p) * c * (s - t) / 2),
                },
            },
            evidence_kind="bound_search",
        )

    return check


def _step39_sides(iota, zeta, theta, atoms, keep_term):
    """Per-record sides of the step to (39): ``atoms`` are ``(prob, |r|, ||x||)``; mpmath numbers."""
    L = sum(q * r for q, r, _ in atoms)
    ex = sum(q * x for q, _, x in atoms)
    left = (
        1 - iota * L + iota * zeta * ex + iota**theta / theta * sum(q * abs(r - zeta * x) ** theta for q, r, x in atoms)
    )
    c = 2 ** (theta - 1) * iota**theta / theta
    expo = (
        -iota * L
        + c * sum(q * r**theta for q, r, _ in atoms)
        + c * zeta**theta * sum(q * x**theta for q, _, x in atoms)
    )
    if keep_term:
        expo += iota * zeta * ex
    return left, mpmath.exp(expo)


def step39_check(keep_term=False, scale=1):
    """Check factory: the step to [000 eq. (39)], per record, on point masses and two-point laws (mpmath, 50 digits).

    ``keep_term``: keep ``iota zeta E||x||`` in the exponent (the corrected step; must be confirmed); ``scale``
    multiplies the right-hand side (a mutant).  ``observed`` is the largest left / right.
    """

    def check(ctx):
        worst, where = mpmath.mpf(0), None
        with mpmath.workdps(50):
            for theta, iota, zeta in itertools.product(
                ("1.1", "1.5", "1.9"), ("0.01", "1", "10"), ("0.001", "0.01", "1")
            ):
                th, io, ze = mpmath.mpf(theta), mpmath.mpf(iota), mpmath.mpf(zeta)
                for r1, x1, r2, x2 in itertools.product(("0", "3"), ("1", "20"), ("0", "0.5"), ("0", "5")):
                    for laws in ([(1, r1, x1)], [("0.5", r1, x1), ("0.5", r2, x2)]):
                        atoms = [(mpmath.mpf(q), mpmath.mpf(r), mpmath.mpf(x)) for q, r, x in laws]
                        left, right = _step39_sides(io, ze, th, atoms, keep_term)
                        ratio = left / (right * mpmath.mpf(scale))
                        if ratio > worst:
                            worst, where = ratio, {"theta": theta, "iota": iota, "zeta": zeta, "law": laws}
                            sides = (left, right)
        return Result(
            "confirmed" if worst <= 1 else "refuted",
            observed=float(worst),
            bound=1.0,
            direction="at_most",
            method="mpmath at 50 digits over theta in {1.1, 1.5, 1.9}, iota in {0.01, 1, 10}, zeta in {0.001, 0.01, 1} "
            "and point masses / two-point laws of (|r|, ||x||)",
            reading="[000 eq. (39)] in the proof of [000 Lemma 10], per record (n-th roots): the line before it "
            "against the exponential of (39)'s exponent"
            + (" with iota zeta E||x|| kept" if keep_term else " as printed (without iota zeta E||x||)")
            + "; L = E|r|; observed = largest left / right",
            evidence={"worst_at": {**where, "left": float(sides[0]), "right": float(sides[1])}},
            evidence_kind="bound_search",
        )

    return check


def log_eta_check(reading="printed"):
    """Check factory: Theorem 1's display term ``log(N/zeta)/(n iota eps)`` against (14)'s ``log(N/eta)`` as eta -> 0.

    ``reading``: ``"printed"`` (``log(N/zeta)``, zeta = 1/n), ``"eta"`` (the typo read as ``log(N/eta)``) or
    ``"log-n-only"`` (``log N``, a mutant that must be refuted).  At n = 1e4, d = 1, N = 2n + 1: the slope of
    log(ratio) against log(log(1/eta)) over eta in [1e-300, 1e-100] must be at most 0.05 (a bounded ratio).
    """

    def check(ctx):
        with mpmath.workdps(50):
            n = mpmath.mpf(10_000)
            N = 2 * n + 1
            denom = {"printed": lambda eta: mpmath.log(N * n), "eta": lambda eta: mpmath.log(N / eta)}.get(
                reading, lambda eta: mpmath.log(N)
            )
            etas = [mpmath.mpf(10) ** (-k) for k in (100, 150, 200, 250, 300)]
            xs = [mpmath.log(mpmath.log(1 / e)) for e in etas]
            ys = [mpmath.log(4 * mpmath.log(2) * mpmath.log(N / e) / denom(e)) for e in etas]
            slope = (ys[-1] - ys[0]) / (xs[-1] - xs[0])
        return Result(
            "confirmed" if slope <= 0.05 else "refuted",
            observed=float(slope),
            bound=0.05,
            direction="at_most",
            method="mpmath at 50 digits: slope of log((14)'s 4 log 2 log(N/eta) / (display's log term)) against "
            "log log(1/eta), eta from 1e-100 to 1e-300, n = 1e4, d = 1, N = 2n + 1 (the interval's net at zeta = 1/n)",
            reading=f"[000 Thm. 1]'s display, last term log(N(W, zeta)/zeta)/(n iota eps), reading {reading!r}, as "
            "O of [000 eq. (14)]'s 4 log 2 log(N/eta)/(n iota eps) (the factor 1/(n iota eps) cancels)",
            evidence={"note": f"reading {reading}; slope {float(slope)!r}"},
            evidence_kind="formula",
        )

    return check


def register(registry):
    """Register the proof-step claims (one per statement and reading)."""
    add = registry.add_claim
    add(
        Claim(
            "wang-xu.thm2.eq26.m-coefficient",
            "[000 Thm. 2] [000 eq. (26)]",
            "Eq. (26)'s coefficient 2 (2 iota)^(theta-1)/theta on sup_w E|y - <x, w>|^theta is at least the sum of "
            "its premises' coefficients, (2 iota^(theta-1) + (2 iota)^(theta-1))/theta.",
            "formula",
            eq26_m_coefficient_check(),
            algorithm="wang-xu-2",
            mutants=(
                Mutant(
                    "coefficient 2a + b (the premises' sum; must be confirmed)",
                    eq26_m_coefficient_check("premises"),
                    detected_by=("confirmed",),
                ),
                Mutant("coefficient (2a + b) x 0.99", eq26_m_coefficient_check("premises", 0.99), factor=0.99),
            ),
        )
    )
    for reading, verdict_note in (("printed", ""), ("uncorrelated", ".uncorrelated"), ("factor-2", ".factor-2")):
        mutants = (
            Mutant(
                "reading factor-2 (must be confirmed)", display_after_14_check("factor-2"), detected_by=("confirmed",)
            ),
        )
        if reading != "printed":
            mutants = (Mutant("right-hand side x 0.6", display_after_14_check(reading, Fraction(3, 5)), factor=0.6),)
        add(
            Claim(
                f"wang-xu.thm1.sup-moment-display{verdict_note}",
                "[000 Thm. 1]",
                "sup_w E(y - <x, w>)^2 <= E(y - <x, w*>)^2 + 2 E||x||^2 sup_w ||w - w*||^2 (the display closing the "
                "proof of Theorem 1)"
                + {
                    "printed": ".",
                    "uncorrelated": ", for noise uncorrelated with x.",
                    "factor-2": ", with 2 E(y - <x, w*>)^2 on the right.",
                }[reading],
                "inequality",
                display_after_14_check(reading),
                algorithm="wang-xu-1",
                mutants=mutants,
            )
        )
    for keep, suffix in ((False, ""), (True, ".term-kept")):
        add(
            Claim(
                f"wang-xu.eq39.follows{suffix}",
                "[000 Lemma 10] [000 eq. (39)]",
                "In the proof of Lemma 10, the line before (39) is at most exp of (39)'s exponent"
                + (" with iota zeta E||x|| kept." if keep else " (as printed, iota zeta E||x|| dropped)."),
                "inequality",
                step39_check(keep),
                mutants=(Mutant("right-hand side x 0.5", step39_check(keep, mpmath.mpf("0.5")), factor=0.5),)
                if keep
                else (Mutant("the term kept (must be confirmed)", step39_check(True), detected_by=("confirmed",)),),
            )
        )
    for reading, suffix in (("printed", ""), ("eta", ".eta")):
        add(
            Claim(
                f"wang-xu.thm1.display.log-term{suffix}",
                "[000 Thm. 1] [000 eq. (14)]",
                "Theorem 1's display is O of (14): its last term "
                + (
                    "log(N(W, zeta)/zeta)/(n iota eps), as printed"
                    if reading == "printed"
                    else "read as log(N(W, zeta)/eta)/(n iota eps)"
                )
                + ", bounds (14)'s 4 log 2 log(N/eta)/(n iota eps) up to a constant.",
                "formula",
                log_eta_check(reading),
                algorithm="wang-xu-1",
                mutants=(Mutant("log N only (eta dropped)", log_eta_check("log-n-only")),)
                if reading == "eta"
                else (
                    Mutant("read as log(N/eta) (must be confirmed)", log_eta_check("eta"), detected_by=("confirmed",)),
                ),
            )
        )
