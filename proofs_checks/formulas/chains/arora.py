"""The excess-risk chain of Arora et al. (004), [004 Thm. 1] from its proof [004 App. D.2], written in sympy.

Notation (positive symbols): ``E = err(2 max(||w*||, 1))`` (the learner's accuracy, [004 Assumption 1]),
``Dl = Delta(2 max(||w*||, 1))`` (the loss bound of Assumption 2 at the largest guess the proof uses; Delta is
nondecreasing, so ``Delta(B_j') <= Dl``), ``Y`` the label bound (``l(0, (x, y)) <= Y^2``), ``lg = log(4K/beta)``,
``c1 = log(1 + 1/K)`` (so ``log(4(K+1)/beta) = lg + c1``: GEM chooses among the K + 1 pairs of [004 Alg. 1]) and
``c2 = log 2``.

The last display of [004 App. D.2] adds ``err``, ``2 tau_j'`` (``tau_j = Delta(B_j) lg / n + sqrt(4 Y^2 lg / n)``)
and GEM's error ``4 Delta(B_j') lg / (n eps)``, and states ``err + 4 sqrt(Y^2 lg / n) + 5 Delta lg / (n eps)``
(the conversion of the paper lost the radicals; the project reads them as in ``tau_j``, as
:mod:`proofs_checks.claim_sets.arora.excess_risk` does); [004 Thm. 1] states ``5 Delta / (n eps)`` without the log.
GEM's term is read three ways: as the proof prints it; re-derived from [004 App. D.1] at Alg. 1's parameters
(``eps/2``, ``beta/4``, ``K + 1`` pairs) with the scores' sensitivity ``2 Delta / n`` (a mean over ``|S_2| = n/2``);
and with the sensitivity ``Delta(B_j)`` Alg. 1 passes to GEM.

References
----------
.. [1] R. Arora, R. Bassily, C. Guzman, M. Menart, E. Ullah, "Differentially Private Generalized Linear Models
       Revisited": [004 Thm. 1], [004 Alg. 1], [004 App. D.1], [004 App. D.2].
"""

from __future__ import annotations

import sympy as sp

from .engine import Chain, Regime

__all__ = [
    "SYMBOLS",
    "GEM_READINGS",
    "D3_READINGS",
    "thm1_chain",
    "bernstein_chain",
    "boosting_bernstein_chain",
    "d3_chain",
]

n, eps, Y, Dl, lg, c1, c2, E, K = sp.symbols("n eps Y Dl lg c1 c2 E K", positive=True)
Vm, b, l2 = sp.symbols("Vm b l2", positive=True)
H, X, B, ls = sp.symbols("H X B ls", positive=True)

#: The symbols of the chains by name.
SYMBOLS = {s.name: s for s in (n, eps, Y, Dl, lg, c1, c2, E, K, Vm, b, l2, H, X, B, ls)}

#: GEM's error term per reading: the printed proof; [004 App. D.1] with the scores' sensitivity 2 Delta / n at
#: eps/2, beta/4 and K + 1 pairs; [004 App. D.1] with the sensitivity Delta(B_j) [004 Alg. 1] passes.
GEM_READINGS = {
    "as-printed": ("GEM as the proof writes it [004 App. D.2]", 4 * Dl * lg / (n * eps)),
    "scores-mean": (
        "[004 App. D.1] at eps/2, beta/4, K + 1 pairs, sensitivity 2 Delta / n of a mean over n/2 records",
        4 * (2 * Dl / n) * (lg + c1) / (eps / 2),
    ),
    "alg1-sensitivity": (
        "[004 App. D.1] at eps/2, beta/4, K + 1 pairs, sensitivity Delta(B_j) as [004 Alg. 1] passes it",
        4 * Dl * (lg + c1) / (eps / 2),
    ),
}


def _tau():
    return Dl * lg / n + sp.sqrt(4 * Y**2 * lg / n)


def thm1_chain(gem: str = "as-printed", stated: str = "last-line", logs: str = "kept") -> Chain:
    """[004 Thm. 1]'s excess-risk bound (its second entry of the min) from the steps of [004 App. D.2].

    Parameters
    ----------
    gem : {"as-printed", "scores-mean", "alg1-sensitivity"}
        GEM's error term (:data:`GEM_READINGS`).
    stated : {"last-line", "statement"}
        The proof's last line (``5 Delta lg / (n eps)``) or [004 Thm. 1] as stated (``5 Delta / (n eps)``).
    logs : {"kept", "hidden"}
        Whether the O-reading keeps ``lg`` (``>= 1``, may grow) or hides it (a constant).

    Returns
    -------
    Chain
        Premises ``err``, ``2 tau_j'`` and GEM's term; regime n -> inf, eps <= 1 ([004 Thm. 1] takes eps in
        [0, 1]), Y, Delta and err free.

    Raises
    ------
    ValueError
        An unknown reading (the message names the parameter).

    Examples
    --------
    >>> from .engine import compare_chain
    >>> report = compare_chain(thm1_chain())
    >>> report.explicit_verdict, report.o_verdict, report.witnesses("explicit")
    ('refuted', 'confirmed', ['Dl*lg/n'])
    """
    if gem not in GEM_READINGS:
        raise ValueError(f"gem must be one of {tuple(GEM_READINGS)}, got {gem!r}")
    bounds = {
        "last-line": E + 4 * sp.sqrt(Y**2 * lg / n) + 5 * Dl * lg / (n * eps),
        "statement": E + 4 * sp.sqrt(Y**2 * lg / n) + 5 * Dl / (n * eps),
    }
    if stated not in bounds:
        raise ValueError(f"stated must be one of {tuple(bounds)}, got {stated!r}")
    if logs not in ("kept", "hidden"):
        raise ValueError(f"logs must be 'kept' or 'hidden', got {logs!r}")
    label, gem_term = GEM_READINGS[gem]
    premises = (
        ("[004 Assumption 1] err(2^j') <= err(2 max(||w*||, 1))", E),
        ("2 tau_j' of [004 App. D.2] (the estimate's deviation, counted twice)", 2 * _tau()),
        (label, gem_term),
    )
    regime = Regime(
        {
            n: "large",
            eps: "small",
            Y: "free",
            Dl: "free",
            lg: "large" if logs == "kept" else "bounded",
            c1: "bounded",
            E: "free",
        },
        description="n -> inf, eps <= 1, Y, Delta and err free, log(1 + 1/K) <= log 2; log(4K/beta) "
        + ("kept" if logs == "kept" else "hidden (O-tilde)"),
    )
    return Chain("thm1", "[004 Thm. 1] [004 App. D.2]", premises, bounds[stated], (n, eps, Y, Dl, lg, c1, E), regime)


def bernstein_chain(tail: str = "printed") -> Chain:
    """``t = tau_j`` makes the deviation tail of [004 App. D.2] at most ``beta/(4K)``: ``n t^2`` against what it needs.

    Parameters
    ----------
    tail : {"printed", "textbook"}
        ``"printed"``: the proof's ``exp(-t^2 n^2 / (Delta t n + 4 n Y^2))``, so ``n t^2 >= lg (Delta t + 4 Y^2)``
        is needed.  ``"textbook"``: Bernstein's two-sided inequality for the mean of ``n/2`` records with variance
        ``<= 4 Y^2`` and range ``Delta``, ``2 exp(-(n/2) t^2 / (2 (4 Y^2) + 2 Delta t / 3))``, so
        ``n t^2 >= (lg + log 2) (16 Y^2 + (4/3) Delta t)``.

    Returns
    -------
    Chain
        Premises: the needed right-hand side at ``t = tau_j``; stated: ``n tau_j^2``.

    Raises
    ------
    ValueError
        An unknown ``tail``.

    Examples
    --------
    >>> from .engine import compare_chain
    >>> compare_chain(bernstein_chain()).explicit_verdict, compare_chain(bernstein_chain("textbook")).explicit_verdict
    ('confirmed', 'refuted')
    """
    t = _tau()
    needs = {
        "printed": ("the printed tail [004 App. D.2]", lg * (Dl * t + 4 * Y**2)),
        "textbook": ("Bernstein, n/2 records, variance 4 Y^2, range Delta", (lg + c2) * (16 * Y**2 + 4 * Dl * t / 3)),
    }
    if tail not in needs:
        raise ValueError(f"tail must be one of {tuple(needs)}, got {tail!r}")
    regime = Regime(
        {n: "large", Y: "free", Dl: "free", lg: "large", c2: "bounded"},
        description="n -> inf, Y and Delta free, log(4K/beta) >= 1",
    )
    return Chain("bernstein", "[004 App. D.2]", (needs[tail],), sp.expand(n * t**2), (n, Y, Dl, lg, c2), regime)


_DEVIATIONS = {"printed": 1, "sqrt2": 2}


def boosting_bernstein_chain(deviation: str = "printed") -> Chain:
    """The Bernstein step of the concentration lemma of [004 App. E]: the deviation it states against its tail.

    The proof conditions on every loss being at most ``b`` (the lemma's bound on the loss) and applies
    ``P[|L(w; D) - L^(w; S)| > t] <= exp(-3 n t^2 / (6 n Vm + 2 b t))`` with ``Vm = E[(L(w; D) - L^(w; S))^2]``
    (the variance of the mean); the tail is at most ``beta/2`` iff ``3 n t^2 >= l2 (6 n Vm + 2 b t)``,
    ``l2 = log(2/beta)``.  The lemma states ``t = b l2/n + sqrt(Vm l2)`` (the conversion of the paper lost the
    radical; it is restored over ``Vm l2``, without a factor).

    Parameters
    ----------
    deviation : {"printed", "sqrt2"}
        ``"printed"``: ``t = b l2/n + sqrt(Vm l2)``; ``"sqrt2"``: ``t = b l2/n + sqrt(2 Vm l2)`` (what the tail
        needs when ``b`` is negligible).

    Returns
    -------
    Chain
        Premises: the tail's right-hand side ``l2 (6 n Vm + 2 b t)`` at the stated ``t``; stated: ``3 n t^2``.

    Raises
    ------
    ValueError
        An unknown ``deviation``.

    Examples
    --------
    >>> from .engine import compare_chain
    >>> report = compare_chain(boosting_bernstein_chain())
    >>> report.explicit_verdict, report.o_verdict, report.witnesses("explicit")
    ('refuted', 'confirmed', ['Vm*l2*n'])
    """
    if deviation not in _DEVIATIONS:
        raise ValueError(f"deviation must be one of {tuple(_DEVIATIONS)}, got {deviation!r}")
    t = b * l2 / n + sp.sqrt(_DEVIATIONS[deviation] * Vm * l2)
    return Chain(
        "boosting-bernstein",
        "[004 App. E]",
        (
            (
                "the tail exp(-3 n t^2/(6 n Vm + 2 b t)) <= beta/2 needs l2 (6 n Vm + 2 b t)",
                l2 * (6 * n * Vm + 2 * b * t),
            ),
        ),
        sp.expand(3 * n * t**2),
        (n, Vm, b, l2),
        Regime(
            {n: "large", Vm: "free", b: "free", l2: "large"}, description="n -> inf, Vm and b free, log(2/beta) >= 1"
        ),
    )


#: Readings of [004 App. D.3] (the proof of [004 Thm. 2] from [004 Thm. 1]): per reading, the words, the last term
#: of the boosted output-perturbation display, what ``max{Y, 1}`` of the statement becomes, and the regime of
#: ``H``, ``X``, ``Y``, ``B`` and the logs.
D3_READINGS = {
    "units-free": (
        "H, X, Y free (the O~ read as uniform in the displayed H, X, Y), B = B* >= 2 may grow, max{Y, 1} = Y, the "
        "display's last term (Y + sqrt(H) B X)/n as printed, logs hidden; the split reconstruction "
        "sqrt(H) B X Y/sqrt(n) + Y^2/n of the garbled first terms",
        "printed",
        "Y",
        {H: "free", X: "free", Y: "free", B: "large"},
        "bounded",
        "split",
    ),
    "units-free.layout": (
        "H and X free, Y >= 1 may grow (max{Y, 1} = Y), B = B* >= 2 may grow, the last term as printed, logs hidden; "
        "the garbled first terms read as one fraction (sqrt(H) B X Y + Y^2)/sqrt(n), as the converted layout "
        "writes a b for a/b and no denominator follows the first term",
        "printed",
        "Y",
        {H: "free", X: "free", Y: "large", B: "large"},
        "bounded",
        "layout",
    ),
    "units-free.layout.y-small": (
        "as units-free.layout with Y <= 1 free to shrink (max{Y, 1} = 1)",
        "printed",
        "1",
        {H: "free", X: "free", Y: "small", B: "large"},
        "bounded",
        "layout",
    ),
    "units-free.last-term-squared": (
        "as units-free, the display's last term read (Y + sqrt(H) B X)^2/n (in the loss's units)",
        "squared",
        "Y",
        {H: "free", X: "free", Y: "free", B: "large"},
        "bounded",
        "split",
    ),
    "normalised.y-large": (
        "H and X constants (normalised features), Y >= 1 may grow so max{Y, 1} = Y, B = B* >= 2 may grow, the "
        "last term as printed, logs hidden",
        "printed",
        "Y",
        {H: "bounded", X: "bounded", Y: "large", B: "large"},
        "bounded",
        "split",
    ),
    "normalised.y-small": (
        "H and X constants, Y <= 1 may shrink so max{Y, 1} = 1, B = B* >= 2 may grow, the last term as printed, "
        "logs hidden",
        "printed",
        "1",
        {H: "bounded", X: "bounded", Y: "small", B: "large"},
        "bounded",
        "split",
    ),
    "normalised.y-large.deviation-y2": (
        "as normalised.y-large with [004 Thm. 1]'s deviation term read 4 Y^2 sqrt(lg/n) (the radical over lg/n "
        "only: the loss's units, since l(0, (x, y)) <= Y^2)",
        "printed",
        "Y",
        {H: "bounded", X: "bounded", Y: "large", B: "large"},
        "bounded",
        "split",
    ),
    "normalised.y-large.deviation-y2.layout": (
        "as normalised.y-large.deviation-y2 with the first terms read as one fraction (as units-free.layout)",
        "printed",
        "Y",
        {H: "bounded", X: "bounded", Y: "large", B: "large"},
        "bounded",
        "layout",
    ),
    "normalised.logs-kept": (
        "as normalised.y-large with the logs kept: K = Theta(log ...) (the learner runs at eps/K), "
        "log(4K/beta) and log(K/min(beta, delta)) may grow",
        "printed",
        "Y",
        {H: "bounded", X: "bounded", Y: "large", B: "large"},
        "large",
        "split",
    ),
}


def d3_chain(reading: str = "units-free") -> Chain:
    """[004 Thm. 2]'s excess-risk bound (its second entry of the min) from [004 Thm. 1] as [004 App. D.3] argues.

    The proof substitutes into [004 Thm. 1]'s last line ``err(B*) + 4 sqrt(Y^2 lg / n) + 5 Delta(B*) lg / (n eps)``
    (radicals restored as :func:`thm1_chain` reads them; ``B* = 2 max{||w*||, 1}``) the boosted
    output-perturbation bound of its display for ``err(B*)``, at the learner's budget ``eps / K``
    ([004 Thm. 2] runs it at ``(eps/K, delta/K)``), and Lemma D.4's
    ``Delta(B) = Y^2 + H X^2 sigma^2 log(K/min(beta, delta)) + H B^2 X^2`` with ``H X^2 sigma^2 = O~(Y^2)``
    (written ``Y^2 ls``, ``ls`` the hidden log factor).  The conversion lost the display's radicals and fraction
    bars; they are restored as the boosting paragraph of the paper writes its rate (``sqrt(H) B X Y / sqrt(n)``):
    ``sqrt(H) B X Y / sqrt(n) + Y^2/n + ((sqrt(H) B X)^(4/3) Y^(2/3) + H B^2 X^2) / (n eps)^(2/3) +
    (Y^2 + H B^2 X^2) / (n eps) + last``, ``last`` = ``(Y + sqrt(H) B X)/n`` as printed or its square.
    The statement: ``(sqrt(H) B X)^(4/3) Y^(2/3) / (n eps)^(2/3) + H B^2 X^2 / (n eps)^(2/3) +
    sqrt(H) B X max{Y, 1} / sqrt(n) + Y^2/n + (Y^2 + H B^2 X^2) / (n eps)``.

    Parameters
    ----------
    reading : str
        A key of :data:`D3_READINGS`.

    Returns
    -------
    Chain
        Premises: the boosted display at ``eps/K``, Theorem 1's deviation term and its ``5 Delta lg/(n eps)``;
        stated: [004 Thm. 2]'s second entry; regime n -> inf, eps <= 1 (Theorem 1's range).

    Raises
    ------
    ValueError
        An unknown ``reading``.

    References
    ----------
    [004 App. D.3], [004 Thm. 2], [004 Thm. 1], [004 Lemma D.4].

    Examples
    --------
    >>> from .engine import compare_chain
    >>> report = compare_chain(d3_chain("units-free"))
    >>> report.o_verdict, sorted(report.witnesses("o"))
    ('refuted', ['B*sqrt(H)*X/n', 'Y*sqrt(lg)/sqrt(n)', 'Y/n'])
    >>> compare_chain(d3_chain("normalised.y-large")).o_verdict
    'confirmed'
    """
    if reading not in D3_READINGS:
        raise ValueError(f"reading must be one of {tuple(D3_READINGS)}, got {reading!r}")
    words, last, max_y, directions, logs, fraction = D3_READINGS[reading]
    deviation = 4 * Y**2 * sp.sqrt(lg / n) if "deviation-y2" in reading else 4 * sp.sqrt(Y**2 * lg / n)
    m = n * eps / K  # the learner's n eps' at eps' = eps / K
    root = sp.sqrt(H) * B * X
    last_term = (Y + root) / n if last == "printed" else sp.expand((Y + root) ** 2) / n
    first = (root * Y + Y**2) / sp.sqrt(n) if fraction == "layout" else root * Y / sp.sqrt(n) + Y**2 / n
    err = (
        first
        + (root ** sp.Rational(4, 3) * Y ** sp.Rational(2, 3) + root**2) / m ** sp.Rational(2, 3)
        + (Y**2 + root**2) / m
        + last_term
    )
    delta_b = Y**2 + Y**2 * ls + root**2
    premises = (
        ("the boosted output-perturbation display of [004 App. D.3] at B*, eps' = eps/K", sp.expand(err)),
        ("[004 Thm. 1]'s deviation term 4 sqrt(Y^2 lg / n) (or 4 Y^2 sqrt(lg / n))", deviation),
        ("[004 Thm. 1]'s 5 Delta(B*) lg/(n eps), Delta from [004 Lemma D.4]", sp.expand(5 * delta_b * lg / (n * eps))),
    )
    max_term = Y if max_y == "Y" else sp.Integer(1)
    stated = (
        root ** sp.Rational(4, 3) * Y ** sp.Rational(2, 3) / (n * eps) ** sp.Rational(2, 3)
        + root**2 / (n * eps) ** sp.Rational(2, 3)
        + ((root * max_term + Y**2) / sp.sqrt(n) if fraction == "layout" else root * max_term / sp.sqrt(n) + Y**2 / n)
        + (Y**2 + root**2) / (n * eps)
    )
    regime = Regime(
        {n: "large", eps: "small", **directions, K: logs, lg: logs, ls: logs},
        description="n -> inf, eps <= 1; " + words,
    )
    return Chain(
        f"d3.{reading}",
        "[004 Thm. 2] [004 App. D.3]",
        premises,
        sp.expand(stated),
        (n, eps, Y, H, X, B, K, lg, ls),
        regime,
    )
