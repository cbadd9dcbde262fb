"""[004 App. D.2]: the smallest guess containing ``w*``, ``B_(j') = 2^(j')``, against the arguments of ``err`` and
``Delta`` in the proof and in [004 Thm. 1].

The proof writes ``2^(j') <= max{2 ||w*||, 1}`` and puts ``max{2 ||w*||, 1}`` into ``Delta``; the statement puts
``2 max{||w*||, 1}`` into ``err`` and ``Delta``.  With the guesses ``B_j = 2^j``, ``j in [K] = {1, ..., K}``
([004 Alg. 1]; ``w_0 = 0`` is not a guess), ``j' >= 1`` and ``2^(j') >= 2``: for ``||w*|| < 1`` the proof's
inequality fails (``2 > max{2 ||w*||, 1}``), while ``2^(j') <= 2 max{||w*||, 1}`` holds for every ``||w*|| <= 2^K``
(``j' = max{1, ceil(log2 ||w*||)}``).  ``Delta`` and ``err`` are increasing in ``B``, so the statement's argument is
the right one and the proof's line is the slip.  Under the other reading ``[K] = {0, ..., K - 1}`` (``B_0 = 1``)
the proof's inequality holds.

All values are exact: ``||w*||`` on a grid of dyadic rationals and ``j'`` from exact comparisons with powers of 2.
"""

from __future__ import annotations

import functools
from fractions import Fraction

from ...model import Claim, Mutant, Result

__all__ = ["smallest_guess_exponent", "register"]

K = 6
#: ||w*|| on a dyadic grid of (0, 2^K]: 1/16, 2/16, ..., 2^K (exact rationals).
NORMS = tuple(Fraction(i, 16) for i in range(1, 16 * 2**K + 1))


def smallest_guess_exponent(norm, first=1):
    """``j' = min{j >= first: norm <= 2^j}`` for an exact ``norm`` in ``(0, 2^K]``.

    Parameters
    ----------
    norm : Fraction or int
        ``||w*||``, > 0.
    first : {1, 0}
        The first guess index (``[K] = {1, ..., K}`` or ``{0, ..., K - 1}``).

    Returns
    -------
    int

    Raises
    ------
    ValueError
        ``norm`` not positive or ``first`` not 0 or 1.

    References
    ----------
    [004 App. D.2] (the definition of ``j'``), [004 Alg. 1] (``B_j = 2^j``).

    Examples
    --------
    >>> smallest_guess_exponent(Fraction(1, 2)), smallest_guess_exponent(Fraction(1, 2), first=0)
    (1, 0)
    >>> smallest_guess_exponent(5)
    3
    """
    norm = Fraction(norm)
    if norm <= 0:
        raise ValueError(f"norm must be > 0, got {norm!r}")
    if first not in (0, 1):
        raise ValueError(f"first must be 0 or 1, got {first!r}")
    j = first
    while Fraction(2) ** j < norm:
        j += 1
    return j


@functools.cache
def _worst(which, first):
    """Largest ``2^(j') / bound(||w*||)`` over the grid and where."""
    bound = _BOUNDS[which][1]
    worst, at = Fraction(0), None
    for r in NORMS:
        ratio = Fraction(2) ** smallest_guess_exponent(r, first) / bound(r)
        if ratio > worst:
            worst, at = ratio, r
    return worst, at


_BOUNDS = {
    "proof": ("max{2 ||w*||, 1}", lambda r: max(2 * r, Fraction(1))),
    "statement": ("2 max{||w*||, 1}", lambda r: 2 * max(r, Fraction(1))),
    "statement without its 2": ("max{||w*||, 1}", lambda r: max(r, Fraction(1))),
}


def guess_bound_check(which="proof", first=1):
    """``2^(j') <= bound(||w*||)`` over the grid, exact: refuted when some ratio exceeds 1, else confirmed
    (``j'`` has a closed form, so the grid covers every case: ``||w*|| <= 1`` and each dyadic interval)."""

    def check(ctx):
        text = _BOUNDS[which][0]
        worst, at = _worst(which, first)
        readings = {
            f"[K] = {{{f}, ...}}; {name}": float(_worst(name, f)[0])
            for f in (1, 0)
            for name in _BOUNDS
            if name != "statement without its 2"
        }
        return Result(
            "refuted" if worst > 1 else "confirmed",
            observed=float(worst),
            bound=1.0,
            direction="at_most",
            method=f"exact rational arithmetic over ||w*|| in {{i/16: i = 1..{16 * 2**K}}} (K = {K}); j' by exact "
            "comparison with powers of 2",
            reading=f"[004 App. D.2]: 2^(j') <= {text}, j' = min{{j in [K]: ||w*|| <= 2^j}}, guesses B_j = 2^j "
            f"([004 Alg. 1]) with [K] = {{{first}, ..., {K if first else K - 1}}}; w_0 = 0 is not a guess",
            evidence={
                "worst_at": {"norm": str(at), "ratio": str(worst)},
                "settings": [{"reading": name, "worst_ratio": v} for name, v in readings.items()],
                "observed_is": "largest 2^(j') / bound over the grid",
            },
        )

    return check


def register(registry):
    """Add the claims on the guess bound of [004 App. D.2]."""

    def claim(*a, **k):
        registry.add_claim(Claim(*a, **k))

    claim(
        "arora.thm1.proof.guess-bound",
        "[004 App. D.2]",
        "2^(j') <= max{2 ||w*||, 1} for the smallest guess 2^(j') containing w* (the proof's argument of Delta).",
        "inequality",
        guess_bound_check("proof"),
        variant="printed",
        mutants=(
            Mutant(
                "[K] read as {0, ..., K - 1} (must be confirmed)",
                guess_bound_check("proof", 0),
                detected_by=("confirmed",),
            ),
        ),
    )
    claim(
        "arora.thm1.proof.guess-bound.statement",
        "[004 Thm. 1] [004 App. D.2]",
        "2^(j') <= 2 max{||w*||, 1} (the argument of err and Delta in the statement of Theorem 1).",
        "inequality",
        guess_bound_check("statement"),
        variant="standard",
        mutants=(Mutant("the factor 2 dropped: max{||w*||, 1}", guess_bound_check("statement without its 2")),),
    )
