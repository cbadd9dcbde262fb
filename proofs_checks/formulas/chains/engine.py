"""Term-by-term comparison of a proof's sum of premises with the bound it states, in exact symbolic arithmetic.

A proof derives a stated bound by adding up premises (earlier displays, lemmas) after substituting parameter
settings.  :func:`compare_chain` expands both sides into sums of monomials in the *order symbols* (``n``,
``eps``, ``iota``, log terms written as symbols, ...), groups the terms by monomial, and judges the statement
in two readings side by side:

* the **explicit reading** (the constants): every premise monomial must appear in the statement with a
  coefficient at least the premises' (coefficient ratio stated / premises >= 1);
* the **O-reading** (orders only): every premise monomial must be at most a constant times some stated monomial
  under the declared asymptotic regime (:class:`Regime`: each order symbol is ``large`` (>= 1, may grow),
  ``small`` (<= 1, may shrink), ``bounded`` (a constant the O hides) or ``free`` (any positive value, so its
  exponents must agree)).

Each term is reported as ``present`` (with the coefficient ratio), ``missing`` from the statement, ``extra`` in
the statement, or ``exponent-differs`` (the statement has a monomial in the same symbols with other exponents);
an undominated term of the O-reading names the symbols whose regime it needs.  Coefficients and exponents may
depend on *parameters* (such as ``theta``): their signs are decided at every point of the regime's declared
parameter grid by 50-digit evaluation (an exact zero is recognised symbolically first).

Examples
--------
>>> import sympy as sp
>>> n, eps = sp.symbols("n eps", positive=True)
>>> chain = Chain(
...     "toy", "[000 eq. (9)]",
...     premises=(("A", 1 / n), ("B", 2 / (n * eps))),
...     stated=3 / (n * eps),
...     order_symbols=(n, eps),
...     regime=Regime({n: "large", eps: "small"}, description="n >= 1, eps <= 1"),
... )
>>> report = compare_chain(chain)
>>> report.explicit_verdict, report.o_verdict
('refuted', 'confirmed')
>>> [(t.term, t.status) for t in report.terms]
[('1/n', 'missing'), ('1/(eps*n)', 'present')]
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Mapping

import sympy as sp

__all__ = [
    "DIRECTIONS",
    "Regime",
    "Chain",
    "TermReport",
    "ChainReport",
    "terms_of",
    "compare_chain",
    "ratio_at",
    "ratios_at",
    "mutate_stated",
]

#: How an order symbol may move in the asymptotic regime of an O-reading.
DIRECTIONS = ("large", "small", "bounded", "free")

#: Digits of the evaluations that decide a sign at a parameter point.
DIGITS = 50

_NEEDS = {
    "large": "it must stay bounded (the term grows faster in it than any stated term)",
    "small": "it must stay bounded away from 0 (the term shrinks slower in it than any stated term)",
    "free": "its exponents must agree, or it must be held in a range",
}


@dataclass(frozen=True)
class Regime:
    """The asymptotic regime of an O-reading and the parameter grid on which signs are decided.

    Parameters
    ----------
    directions : mapping of sympy.Symbol to str
        One of :data:`DIRECTIONS` per order symbol.
    parameter_grid : mapping of sympy.Symbol to tuple of sympy.Rational
        Values of each parameter (a symbol that is no order symbol, such as ``theta``) at which the signs of
        coefficient differences and exponent differences are decided; empty when nothing depends on one.
    description : str
        The regime in words (``"n -> inf, eps <= 1"``).

    Raises
    ------
    ValueError
        A direction outside :data:`DIRECTIONS` (the message names the symbol), or an empty grid.

    Examples
    --------
    >>> n = sp.Symbol("n", positive=True)
    >>> Regime({n: "large"}, description="n -> inf").directions[n]
    'large'
    """

    directions: Mapping[sp.Symbol, str]
    parameter_grid: Mapping[sp.Symbol, tuple] = field(default_factory=dict)
    description: str = ""

    def __post_init__(self):
        for symbol, direction in self.directions.items():
            if direction not in DIRECTIONS:
                raise ValueError(f"directions[{symbol}] must be one of {DIRECTIONS}, got {direction!r}")
        for symbol, values in self.parameter_grid.items():
            if not values:
                raise ValueError(f"parameter_grid[{symbol}] must hold at least one value, got {values!r}")

    def points(self) -> list[dict]:
        """Every point of the parameter grid (one empty point when there are no parameters)."""
        points: list[dict] = [{}]
        for symbol, values in self.parameter_grid.items():
            points = [{**p, symbol: v} for p in points for v in values]
        return points


@dataclass(frozen=True)
class Chain:
    """A stated bound and the premises its proof adds up.

    Parameters
    ----------
    name : str
        Short name (``"eq26"``).
    citation : str
        Citation tags of the statement and its premises (``"[000 eq. (26)]"``).
    premises : tuple of (str, sympy.Expr)
        Each premise's label (with its citation tag) and right-hand side, the terms it contributes to the sum.
    stated : sympy.Expr
        The stated right-hand side (its O removed for an O-statement).
    order_symbols : tuple of sympy.Symbol
        The symbols whose powers make the monomials; everything else is a coefficient.
    regime : Regime
        The O-reading's regime and the parameter grid.
    substitutions : mapping or tuple of mappings
        Parameter settings and premise bounds applied to both sides before expansion (``{zeta: 1/n}``); a tuple
        applies its mappings one after the other.
    explicit : bool
        False for an O-statement: it has no constants, so its explicit verdict is ``"not-applicable"``.

    Examples
    --------
    >>> n = sp.Symbol("n", positive=True)
    >>> Chain("c", "[000 eq. (7)]", (("p", 1 / n),), 1 / n, (n,), Regime({n: "large"})).name
    'c'
    """

    name: str
    citation: str
    premises: tuple
    stated: sp.Expr
    order_symbols: tuple
    regime: Regime
    substitutions: Mapping | tuple = field(default_factory=dict)
    explicit: bool = True

    def __post_init__(self):
        missing = [s for s in self.order_symbols if s not in self.regime.directions]
        if missing:
            raise ValueError(f"regime.directions has no direction for the order symbols {missing} (chain {self.name})")
        bad = [s for s in self.order_symbols if not (isinstance(s, sp.Symbol) and s.is_positive)]
        if bad:
            raise TypeError(f"order_symbols must be positive sympy Symbols, got {bad} (chain {self.name})")
        if not self.premises:
            raise ValueError(f"premises must hold at least one premise, got {self.premises!r} (chain {self.name})")

    def _substituted(self, expr: sp.Expr) -> sp.Expr:
        steps = self.substitutions if isinstance(self.substitutions, tuple) else (self.substitutions,)
        for step in steps:
            expr = expr.subs(dict(step))
        return expr

    def premise_sum(self) -> sp.Expr:
        """The sum of the premises' right-hand sides after the substitutions."""
        return self._substituted(sp.Add(*(rhs for _, rhs in self.premises)))

    def stated_bound(self) -> sp.Expr:
        """The stated right-hand side after the substitutions."""
        return self._substituted(sp.sympify(self.stated))


@dataclass(frozen=True)
class TermReport:
    """One monomial of the comparison.

    ``status`` is ``present``, ``missing``, ``extra`` or ``exponent-differs`` (explicit reading); ``ratio`` the
    stated coefficient over the premises' (a formula in the parameters) and ``ratio_min`` its smallest value on
    the grid; ``o_status`` is ``dominated`` or ``undominated`` for a premise term (empty for an extra term),
    ``dominated_by`` the stated monomial that absorbs it, ``needs`` the regime an undominated term requires.
    """

    term: str
    status: str
    premise_coefficient: str = ""
    stated_coefficient: str = ""
    ratio: str = ""
    ratio_min: float | None = None
    exponent_difference: str = ""
    o_status: str = ""
    dominated_by: str = ""
    needs: str = ""

    def as_row(self) -> dict:
        """The term as a JSON-ready row (empty fields left out)."""
        return {k: v for k, v in self.__dict__.items() if v not in ("", None)}


@dataclass(frozen=True)
class ChainReport:
    """The comparison of a chain: per-term rows and the two verdicts.

    ``explicit_failures`` counts premise terms not matched with a ratio >= 1; ``o_failures`` the premise terms
    no stated term dominates under the regime.
    """

    chain: str
    terms: tuple
    explicit_verdict: str
    o_verdict: str
    explicit_failures: int
    o_failures: int
    smallest_ratio: float | None
    regime: str

    def witnesses(self, reading: str) -> list[str]:
        """The terms that refute the statement in ``reading`` (``"explicit"`` or ``"o"``)."""
        if reading == "explicit":
            return [t.term for t in self.terms if t.status != "extra" and not _ratio_ok(t)]
        if reading == "o":
            return [t.term for t in self.terms if t.o_status == "undominated"]
        raise ValueError(f"reading must be 'explicit' or 'o', got {reading!r}")


def _ratio_ok(t: TermReport) -> bool:
    return t.status == "present" and t.ratio_min is not None and t.ratio_min >= 1


def _key(monomial: sp.Expr, order_symbols) -> tuple:
    """The monomial as a sorted tuple of (symbol name, exponent), its identity when grouping."""
    powers: dict = {}
    for factor in sp.Mul.make_args(sp.expand_power_base(monomial, force=True)):
        if factor == 1:
            continue
        base, exponent = factor.as_base_exp()
        if base not in order_symbols:
            raise ValueError(
                f"monomial factor {factor} has base {base}, which is not an order symbol {tuple(order_symbols)}: "
                "write log terms and compound quantities as symbols"
            )
        powers[base.name] = sp.expand(powers.get(base.name, 0) + exponent)
    return tuple(sorted((name, e) for name, e in powers.items() if e != 0))


def _monomial(key: tuple) -> sp.Expr:
    return sp.Mul(*(sp.Symbol(name, positive=True) ** e for name, e in key))


def terms_of(expr: sp.Expr, order_symbols) -> dict:
    """The expanded ``expr`` as ``{monomial key: coefficient}``, like terms added.

    Parameters
    ----------
    expr : sympy.Expr
        A sum of products of powers of the order symbols with coefficients free of them.
    order_symbols : tuple of sympy.Symbol

    Returns
    -------
    dict
        Keys are sorted tuples ``(symbol name, exponent)``; values the summed coefficients (nonzero).

    Raises
    ------
    ValueError
        A term that is not a monomial in the order symbols (say ``log(n)`` not written as a symbol).

    Examples
    --------
    >>> n, iota, theta = sp.symbols("n iota theta", positive=True)
    >>> terms = terms_of((2 * iota) ** (theta - 1) + 1 / n + 2 / n, (n, iota))
    >>> terms[(("n", -1),)], terms[(("iota", theta - 1),)]
    (3, 2**theta/2)
    """
    expanded = sp.expand(sp.expand_power_base(sp.sympify(expr), force=False), power_base=True, log=False)
    grouped: dict = {}
    for term in sp.Add.make_args(expanded):
        coefficient, monomial = term.as_independent(*order_symbols, as_Add=False)
        key = _key(monomial, order_symbols)
        grouped[key] = grouped.get(key, 0) + coefficient
    # expand decides zero for these coefficients (sums of powers of 2, logs and rationals in the parameters)
    return {k: sp.together(sp.expand(c)) for k, c in grouped.items() if sp.expand(c) != 0}


def _values(expr: sp.Expr, points: list[dict]) -> list:
    """``expr`` at every grid point, to :data:`DIGITS` digits (exact zeros recognised first)."""
    if sp.expand(expr) == 0:
        return [sp.Integer(0)] * len(points)
    out = []
    for point in points:
        value = sp.N(sp.sympify(expr).subs(point), DIGITS)
        if not value.is_real:
            raise ValueError(f"{expr} is not real at the parameter point {point}: {value}")
        out.append(value)
    return out


def _dominates(premise_key, stated_key, regime: Regime, points) -> list[str]:
    """The symbols whose exponent difference (premise - stated) breaks the regime (empty: dominated)."""
    premise, stated = dict(premise_key), dict(stated_key)
    broken = []
    for symbol, direction in regime.directions.items():
        diff = sp.expand(premise.get(symbol.name, 0) - stated.get(symbol.name, 0))
        if direction == "bounded" or diff == 0:
            continue
        values = _values(diff, points)
        if direction == "free" and any(v != 0 for v in values):
            broken.append(symbol.name)
        elif direction == "large" and any(v > 0 for v in values):
            broken.append(symbol.name)
        elif direction == "small" and any(v < 0 for v in values):
            broken.append(symbol.name)
    return broken


def _difference(premise_key, stated_key) -> str:
    premise, stated = dict(premise_key), dict(stated_key)
    names = sorted(set(premise) | set(stated))
    parts = [f"{n}: {premise.get(n, 0)} vs {stated.get(n, 0)}" for n in names if premise.get(n, 0) != stated.get(n, 0)]
    return "; ".join(parts)


def compare_chain(chain: Chain) -> ChainReport:
    """Compare a chain's stated bound with its premises' sum term by term, in both readings.

    Parameters
    ----------
    chain : Chain

    Returns
    -------
    ChainReport
        Per-term rows (premise terms first, in the order sympy sorts their monomials, then the extra terms) and
        the verdicts: ``confirmed`` when no premise term fails, else ``refuted``.

    Raises
    ------
    TypeError
        ``chain`` is not a :class:`Chain`.
    ValueError
        A side that is not a sum of monomials in the order symbols, or a value that is not real on the grid.
    """
    if not isinstance(chain, Chain):
        raise TypeError(f"chain must be a Chain, got {type(chain).__name__}")
    symbols = tuple(chain.order_symbols)
    premise_terms = terms_of(chain.premise_sum(), symbols)
    stated_terms = terms_of(chain.stated_bound(), symbols)
    points = chain.regime.points()
    rows, explicit_failures, o_failures, ratios = [], 0, 0, []
    for key in sorted(premise_terms, key=lambda k: sp.default_sort_key(_monomial(k))):
        coefficient = premise_terms[key]
        if any(v <= 0 for v in _values(coefficient, points)):
            raise ValueError(
                f"the premises' coefficient {coefficient} of {_monomial(key)} is not positive on the parameter grid "
                f"(chain {chain.name}): move terms common to both sides out of the chain"
            )
        row: dict = {"term": str(_monomial(key)), "premise_coefficient": str(coefficient)}
        if key in stated_terms:
            ratio = sp.simplify(stated_terms[key] / coefficient)
            smallest = float(min(_values(ratio, points)))
            ratios.append(smallest)
            row.update(status="present", stated_coefficient=str(stated_terms[key]), ratio=str(ratio))
            row["ratio_min"] = smallest
            if smallest < 1:
                explicit_failures += 1
        else:
            explicit_failures += 1
            same_symbols = [k for k in stated_terms if {n for n, _ in k} == {n for n, _ in key}]
            if same_symbols:
                row.update(status="exponent-differs", exponent_difference=_difference(key, same_symbols[0]))
            else:
                row["status"] = "missing"
        candidates = [(k, _dominates(key, k, chain.regime, points)) for k in stated_terms]
        dominating = [k for k, broken in candidates if not broken]
        if dominating:
            row.update(o_status="dominated", dominated_by=str(_monomial(dominating[0])))
        else:
            o_failures += 1
            closest, broken = min(candidates, key=lambda kb: len(kb[1])) if candidates else ((), ["(no stated term)"])
            needs = "; ".join(
                f"{name} ({chain.regime.directions[sp.Symbol(name, positive=True)]}): "
                f"{_NEEDS[chain.regime.directions[sp.Symbol(name, positive=True)]]}"
                for name in broken
                if sp.Symbol(name, positive=True) in chain.regime.directions
            )
            row.update(
                o_status="undominated",
                dominated_by="",
                needs=f"closest stated term {_monomial(closest)}: {needs or broken}",
            )
        rows.append(TermReport(**row))
    for key in sorted(set(stated_terms) - set(premise_terms), key=lambda k: sp.default_sort_key(_monomial(k))):
        rows.append(TermReport(term=str(_monomial(key)), status="extra", stated_coefficient=str(stated_terms[key])))
    return ChainReport(
        chain=chain.name,
        terms=tuple(rows),
        explicit_verdict=("confirmed" if explicit_failures == 0 else "refuted") if chain.explicit else "not-applicable",
        o_verdict="confirmed" if o_failures == 0 else "refuted",
        explicit_failures=explicit_failures,
        o_failures=o_failures,
        smallest_ratio=min(ratios) if ratios else None,
        regime=chain.regime.description,
    )


def ratio_at(chain: Chain, point: Mapping) -> float:
    """The premises' sum over the stated bound at one numeric point (50 digits), a witness in numbers.

    Parameters
    ----------
    chain : Chain
    point : mapping of sympy.Symbol to number
        A value for every symbol left after the substitutions.

    Returns
    -------
    float
        ``premise_sum / stated``; above 1 where the stated bound is below the premises' sum.

    Raises
    ------
    ValueError
        A symbol without a value (the ratio is not a number).

    Examples
    --------
    >>> n = sp.Symbol("n", positive=True)
    >>> chain = Chain("c", "[000 eq. (7)]", (("p", 2 / n),), 1 / n, (n,), Regime({n: "large"}))
    >>> ratio_at(chain, {n: 10})
    2.0
    """
    return ratios_at(chain, (point,))[0]


def ratios_at(chain: Chain, points) -> list[float]:
    """:func:`ratio_at` at each of ``points``, the ratio built once (values put in by ``xreplace``, no rewriting)."""
    ratio = chain.premise_sum() / chain.stated_bound()
    out = []
    for point in points:
        value = sp.N(ratio.xreplace({k: sp.sympify(v) for k, v in dict(point).items()}), DIGITS)
        if not value.is_number:
            raise ValueError(f"point must give every symbol a value; left: {sorted(map(str, value.free_symbols))}")
        out.append(float(value))
    return out


def mutate_stated(chain: Chain, term: str, *, factor=1, exponent_shift: Mapping | None = None) -> Chain:
    """``chain`` with one term of its stated bound changed: scaled by ``factor`` (0 drops it) or re-exponentiated.

    Parameters
    ----------
    chain : Chain
    term : str
        The stated term's monomial as :class:`TermReport` spells it (``"1/(eps*n)"``).
    factor : number
        Multiplies the term's coefficient (``0``: the term is dropped; ``1/2``: a factor 2 lost).
    exponent_shift : mapping of sympy.Symbol to sympy.Expr, optional
        Added to the term's exponents (``{n: 1/theta}``).

    Returns
    -------
    Chain
        The mutant, named ``"<name> [mutant]"``; the premises are unchanged.

    Raises
    ------
    ValueError
        ``term`` is not a term of the stated bound (the message lists them).

    Examples
    --------
    >>> n = sp.Symbol("n", positive=True)
    >>> chain = Chain("c", "[000 eq. (7)]", (("p", 1 / n),), 1 / n + n, (n,), Regime({n: "large"}))
    >>> mutate_stated(chain, "n", factor=0).stated
    1/n
    """
    symbols = tuple(chain.order_symbols)
    stated = terms_of(chain.stated_bound(), symbols)
    names = {str(_monomial(k)): k for k in stated}
    if term not in names:
        raise ValueError(f"term must be one of the stated terms {sorted(names)}, got {term!r}")
    key = names[term]
    monomial = _monomial(key)
    for symbol, shift in dict(exponent_shift or {}).items():
        monomial = monomial * symbol**shift
    new = sp.Add(*(c * _monomial(k) for k, c in stated.items() if k != key), factor * stated[key] * monomial)
    return replace(chain, name=f"{chain.name} [mutant]", stated=new)
