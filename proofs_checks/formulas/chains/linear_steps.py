"""One step of a proof that bounds nonnegative quantities (squared norms) linearly, checked coefficient by coefficient.

Proofs of iterative algorithms bound a line by the next one, where both lines are linear combinations of
nonnegative quantities (``||g_S||^2``, ``||g~ - g||^2``, the peeling noise ``W^t``) with coefficients in the step
size, the smoothness and a free Young parameter ``c``.  :class:`LinearStep` writes each quantity as a positive
symbol, the line above as the *premises* and the next line as the *stated* right-hand side, and declares the
inequalities the proof cites between quantities as *bounds* (``X <= expression``; an inner product bounded by
Cauchy-Schwarz and Young, a sum over a subset bounded by the sum over the set).  :func:`compare_linear_step`
substitutes every bound (only where the quantity's coefficient is nonnegative: an upper bound may only replace a
quantity counted with a plus sign) and then requires, for every quantity, ``stated coefficient - premises'
coefficient >= 0`` at every point of the parameter grid (exact rationals; 50 digits where a value is irrational).  That is the term-by-term reading: it is
sufficient for the step, and it is what the proof's "=" and "<=" between displays claim when the quantities are
independent (each can be made the only nonzero one, so a negative difference is a concrete counterexample).

Each quantity is reported ``covered`` (difference >= 0 everywhere), ``short`` (negative somewhere, with the point
and the value), ``missing`` (the statement has no such term while the premises count it positively) or
``extra``.  The report has the interface of :class:`~.engine.ChainReport`: the explicit verdict is judged; the
O-reading does not apply to an inequality between explicit displays (``"not-applicable"``).

Examples
--------
>>> import sympy as sp
>>> G, E, X, eta = sp.symbols("G E X eta", positive=True)
>>> step = LinearStep(
...     "young", "[002 eq. (49)]",
...     premises=(("identity", -eta * G + eta * X),),
...     stated=-eta * G / 2 + eta * E / 2,
...     quantities=(G, E, X),
...     bounds=(("X = <g - g~, g> <= (G + E)/2", X, (G + E) / 2),),
...     parameter_grid={eta: (sp.Rational(1, 2), 1)},
... )
>>> report = compare_linear_step(step)
>>> report.explicit_verdict, [(t.term, t.status) for t in report.terms]
('confirmed', [('E', 'covered'), ('G', 'covered')])
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Mapping

import sympy as sp

from .engine import DIGITS

__all__ = [
    "LinearStep",
    "CoefficientRow",
    "LinearStepReport",
    "compare_linear_step",
    "premises_after_bounds",
    "mutate_step",
]

#: Differences closer to 0 than this (at 50 digits) are zero: the expressions are rationals and powers of 2.
_ZERO = sp.Float("1e-40", DIGITS)


@dataclass(frozen=True)
class LinearStep:
    """A step between two displays, linear in nonnegative quantities.

    Parameters
    ----------
    name : str
        Short name (``"step53"``).
    citation : str
        Citation tags of the displays (``"[002 eq. (53)]"``).
    premises : tuple of (str, sympy.Expr)
        The line above (and any display the step adds to it), each with its label and citation tag.
    stated : sympy.Expr
        The next line's right-hand side.
    quantities : tuple of sympy.Symbol
        The nonnegative quantities (positive sympy symbols); every other symbol is a parameter of the grid.
    bounds : tuple of (str, sympy.Symbol, sympy.Expr)
        Inequalities the proof cites, ``quantity <= expression``, applied in order to the premises.
    parameter_grid : mapping of sympy.Symbol to tuple
        Values of the parameters (``c``, ``eta``, ``gamma``) at which the differences are decided.
    description : str
        The parameter range in words (``"c > 1, eta in [1/2, 1], gamma > 0"``).
    substitutions : mapping
        Settings applied to both sides before the bounds (``{eta: 2/3}``).

    Raises
    ------
    TypeError
        A quantity that is not a positive sympy Symbol.
    ValueError
        No premises, or an empty value list in the grid.
    """

    name: str
    citation: str
    premises: tuple
    stated: sp.Expr
    quantities: tuple
    bounds: tuple = ()
    parameter_grid: Mapping = field(default_factory=dict)
    description: str = ""
    substitutions: Mapping = field(default_factory=dict)

    def __post_init__(self):
        bad = [q for q in self.quantities if not (isinstance(q, sp.Symbol) and q.is_positive)]
        if bad:
            raise TypeError(f"quantities must be positive sympy Symbols, got {bad} (step {self.name})")
        if not self.premises:
            raise ValueError(f"premises must hold at least one premise, got {self.premises!r} (step {self.name})")
        for symbol, values in dict(self.parameter_grid).items():
            if not values:
                raise ValueError(f"parameter_grid[{symbol}] must hold at least one value, got {values!r}")

    def premise_sum(self) -> sp.Expr:
        """The premises added up, after the substitutions (the bounds not yet applied)."""
        return sp.Add(*(rhs for _, rhs in self.premises)).subs(dict(self.substitutions))

    def stated_bound(self) -> sp.Expr:
        """The stated right-hand side after the substitutions."""
        return sp.sympify(self.stated).subs(dict(self.substitutions))

    def points(self) -> list[dict]:
        """Every point of the parameter grid."""
        points: list[dict] = [{}]
        for symbol, values in dict(self.parameter_grid).items():
            points = [{**p, symbol: v} for p in points for v in values]
        return points


@dataclass(frozen=True)
class CoefficientRow:
    """One quantity of a linear step: both coefficients, their difference and its smallest value on the grid."""

    term: str
    status: str
    premise_coefficient: str
    stated_coefficient: str
    difference: str
    difference_min: float
    at: str = ""

    def as_row(self) -> dict:
        """The row as a JSON-ready dict (empty fields left out)."""
        return {k: v for k, v in self.__dict__.items() if v not in ("", None)}


@dataclass(frozen=True)
class LinearStepReport:
    """The comparison of a linear step, with the interface of :class:`~.engine.ChainReport`."""

    chain: str
    terms: tuple
    explicit_verdict: str
    explicit_failures: int
    regime: str
    o_verdict: str = "not-applicable"
    o_failures: int = 0
    smallest_ratio: float | None = None

    def witnesses(self, reading: str) -> list[str]:
        """The quantities whose stated coefficient falls short (``reading`` must be ``"explicit"``)."""
        if reading != "explicit":
            raise ValueError(f"reading must be 'explicit' for a linear step, got {reading!r}")
        return [t.term for t in self.terms if t.status in ("short", "missing")]


def _coefficients(expr: sp.Expr, quantities: tuple, what: str) -> dict:
    """``{quantity: coefficient}`` of an expression linear in the quantities (derivatives: the coefficients are
    not expanded, only compared at the end)."""
    expr = sp.sympify(expr)
    coefficients = {q: sp.diff(expr, q) for q in quantities if expr.has(q)}
    rest = sp.cancel(expr.xreplace({q: 0 for q in quantities}))
    if rest != 0 or any(c.has(*quantities) for c in coefficients.values()):
        raise ValueError(f"{what} must be linear in the quantities {quantities} with no constant term: {expr}")
    return {q: c for q, c in coefficients.items() if c != 0}


def _values(expr: sp.Expr, points: list[dict]) -> list:
    """``expr`` at every grid point, exactly (the coefficients are rational functions of rational parameters)."""
    out = []
    for point in points:
        value = sp.sympify(expr).xreplace({k: sp.Rational(v) for k, v in point.items()})
        out.append(value if value.is_Rational else sp.N(value, DIGITS))
    return out


def _apply_bounds(step: LinearStep, points: list[dict]) -> dict:
    """The premises' coefficients with each declared bound substituted, in order."""
    quantities = tuple(step.quantities)
    premises = _coefficients(step.premise_sum(), quantities, "the premises")
    for label, quantity, bound in step.bounds:
        coefficient = premises.pop(quantity, 0)
        if coefficient == 0:
            continue
        if any(v < -_ZERO for v in _values(coefficient, points)):
            raise ValueError(
                f"bound {label!r} replaces {quantity} whose coefficient {coefficient} is negative on the grid "
                f"(step {step.name}): an upper bound may only replace a quantity counted with a plus sign"
            )
        bound_terms = _coefficients(sp.sympify(bound).subs(dict(step.substitutions)), quantities, f"bound {label!r}")
        for q, c in bound_terms.items():
            premises[q] = premises.get(q, 0) + coefficient * c
    return premises


def premises_after_bounds(step: LinearStep) -> sp.Expr:
    """The premises' sum with every declared bound applied (the line the step can reach; a repaired statement).

    Raises
    ------
    ValueError
        A bound applied against a negative coefficient.
    """
    return sp.Add(*(c * q for q, c in _apply_bounds(step, step.points()).items()))


def compare_linear_step(step: LinearStep) -> LinearStepReport:
    """Compare a step's stated line with its premises quantity by quantity (differences on the grid).

    Parameters
    ----------
    step : LinearStep

    Returns
    -------
    LinearStepReport
        One row per quantity with a nonzero coefficient on either side (sorted by name); ``confirmed`` when no
        quantity is ``short`` or ``missing``, else ``refuted``.

    Raises
    ------
    TypeError
        ``step`` is not a :class:`LinearStep`.
    ValueError
        A side that is not linear in the quantities, or a bound applied against a negative coefficient.
    """
    if not isinstance(step, LinearStep):
        raise TypeError(f"step must be a LinearStep, got {type(step).__name__}")
    points = step.points()
    quantities = tuple(step.quantities)
    premises = {q: sp.cancel(c) for q, c in _apply_bounds(step, points).items()}
    stated = {q: sp.cancel(c) for q, c in _coefficients(step.stated_bound(), quantities, "the stated line").items()}
    rows, failures = [], 0
    for quantity in sorted(set(premises) | set(stated), key=lambda q: q.name):
        p, s = premises.get(quantity, sp.Integer(0)), stated.get(quantity, sp.Integer(0))
        difference = sp.factor(s - p)
        if difference == 0 and p == 0:
            continue
        values = _values(difference, points)
        worst = min(range(len(values)), key=lambda i: values[i])
        smallest = values[worst]
        ok = smallest >= -_ZERO
        if ok:
            status = "covered"
        elif s == 0:
            status = "missing"
        else:
            status = "short"
        failures += not ok
        at = ", ".join(f"{k}={v}" for k, v in points[worst].items()) if not ok else ""
        rows.append(CoefficientRow(str(quantity), status, str(p), str(s), str(difference), float(smallest), at))
    return LinearStepReport(
        chain=step.name,
        terms=tuple(rows),
        explicit_verdict="confirmed" if failures == 0 else "refuted",
        explicit_failures=failures,
        regime=step.description,
    )


def mutate_step(step: LinearStep, term: str, *, factor=1, exponent_shift: Mapping | None = None) -> LinearStep:
    """``step`` with the stated coefficient of one quantity scaled (``0`` drops it) or multiplied by powers.

    Parameters
    ----------
    step : LinearStep
    term : str
        The quantity's name.
    factor : number
        Multiplies the stated coefficient.
    exponent_shift : mapping of sympy.Symbol to sympy.Expr, optional
        The coefficient is multiplied by ``symbol**shift`` for each entry (an exponent off).

    Returns
    -------
    LinearStep
        The mutant, named ``"<name> [mutant]"``.

    Raises
    ------
    ValueError
        ``term`` is not a quantity of the stated line.
    """
    quantities = {q.name: q for q in step.quantities}
    stated = _coefficients(step.stated_bound(), tuple(step.quantities), "the stated line")
    names = sorted(q.name for q in stated)
    if term not in names:
        raise ValueError(f"term must be one of the stated quantities {names}, got {term!r}")
    quantity = quantities[term]
    coefficient = factor * stated[quantity]
    for symbol, shift in dict(exponent_shift or {}).items():
        coefficient = coefficient * symbol**shift
    new = sp.Add(*(c * q for q, c in stated.items() if q != quantity), coefficient * quantity)
    return replace(step, name=f"{step.name} [mutant]", stated=new)
