"""The generic part of the derivation-chain claims: build a paper's chain, mutate it, judge it in one reading.

A paper's claim module (:mod:`.wang_xu`, :mod:`.hu`, :mod:`.arora`) lists its claims as rows of ``CHAIN_CLAIMS``
``(suffix, chain function, keyword pairs, reading, statement, mutations)`` and its numeric ``WITNESS_POINTS``;
:func:`register_chain_claims` turns them into claims ``chains.<paper>.<suffix>``.  A mutation is
``("drop", term)``, ``("scale", term, factor)``, ``("shift", term, symbol, shift in sympy syntax)`` or
``("repair",)`` (the stated bound replaced by the premises' sum, which must be confirmed).  sympy is imported when
a check runs, not when the claim set loads (the CLI's start-up stays light).
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import re
from fractions import Fraction

from ...builders import compare_result
from ...model import Claim, Mutant

__all__ = ["CHAIN_MODULES", "chain_check", "register_chain_claims"]


#: The papers' chain modules under :mod:`proofs_checks.formulas.chains`.
CHAIN_MODULES = ("wang_xu", "hu", "hu_frank_wolfe", "hu_thm7", "hu_thm8", "arora")


def _check_module(module: str) -> None:
    if module not in CHAIN_MODULES:
        raise ValueError(f"module must be one of {CHAIN_MODULES}, got {module!r}")


def _chains(module: str):
    """The chain module of a paper, imported when a check runs (it imports sympy, about 2 s)."""
    _check_module(module)
    return importlib.import_module(f"proofs_checks.formulas.chains.{module}")


@functools.lru_cache(maxsize=None)
def _witness_rows(module: str, factory: str, kwargs: tuple, mutation: tuple, points: tuple) -> tuple:
    """``premises / stated`` at each of ``points`` (pairs of symbol name and value; cached like the report)."""
    import sympy as sp

    from ...formulas.chains import engine

    chains = _chains(module)
    chain, _ = _report(module, factory, kwargs, mutation)
    values = [{chains.SYMBOLS[k]: sp.sympify(v) for k, v in point} for point in points]
    ratios = engine.ratios_at(chain, values)
    return tuple({"point": dict(point), "premises_over_stated": r} for point, r in zip(points, ratios))


@functools.lru_cache(maxsize=None)
def _report(module: str, factory: str, kwargs: tuple, mutation: tuple):
    """The chain's comparison (cached: the explicit and the O claims of one chain share it)."""
    import sympy as sp

    from ...formulas.chains import engine, linear_steps

    chains = _chains(module)

    chain = getattr(chains, factory)(**dict(kwargs))
    # a step between explicit displays (linear in squared norms) is compared coefficient by coefficient
    linear = isinstance(chain, linear_steps.LinearStep)
    mutate = linear_steps.mutate_step if linear else engine.mutate_stated
    if mutation:
        kind, *args = mutation
        if kind == "drop":
            chain = mutate(chain, args[0], factor=0)
        elif kind == "scale":
            chain = mutate(chain, args[0], factor=sp.Rational(args[1]))
        elif kind == "shift":
            shift = sp.sympify(args[2], locals=chains.SYMBOLS)
            chain = mutate(chain, args[0], exponent_shift={chains.SYMBOLS[args[1]]: shift})
        elif kind == "repair":
            repaired = linear_steps.premises_after_bounds(chain) if linear else chain.premise_sum()
            chain = dataclasses.replace(chain, name=f"{chain.name} [repaired]", stated=repaired)
        else:
            raise ValueError(f"mutation kind must be drop, scale, shift or repair, got {kind!r}")
    report = linear_steps.compare_linear_step(chain) if linear else engine.compare_chain(chain)
    return chain, report


def chain_check(
    module: str,
    factory: str,
    kwargs: tuple = (),
    reading: str = "explicit",
    mutation: tuple = (),
    witness_points: tuple = (),
):
    """Check factory: the chain ``factory(**kwargs)`` judged in ``reading``, its stated bound changed by ``mutation``.

    Parameters
    ----------
    module : {"wang_xu", "hu", "hu_frank_wolfe", "hu_thm7", "hu_thm8", "arora"}
        The paper's chain module under :mod:`proofs_checks.formulas.chains`.
    factory : str
        A chain function of that module (``"eq26_chain"``).
    kwargs : tuple of (str, str)
        Its keyword arguments, as pairs (hashable: the comparison is cached).
    reading : {"explicit", "o"}
    mutation : tuple
        Empty, or one mutation (see the module docstring).
    witness_points : tuple of dict
        Points (a paper's ``WITNESS_POINTS``) at which the premises' sum over the stated bound is reported.

    Returns
    -------
    callable
        ``check(ctx) -> Result`` with ``observed`` the number of premise terms the statement fails to cover.

    Raises
    ------
    ValueError
        An unknown reading or module.
    """
    _check_module(module)
    if reading not in ("explicit", "o"):
        raise ValueError(f"reading must be 'explicit' or 'o', got {reading!r}")

    def check(ctx):
        chain, report = _report(module, factory, tuple(kwargs), tuple(mutation))
        failures = report.explicit_failures if reading == "explicit" else report.o_failures
        witnesses = report.witnesses(reading)
        points = tuple(tuple(sorted(p.items())) for p in witness_points)
        numbers = list(_witness_rows(module, factory, tuple(kwargs), tuple(mutation), points)) if points else []
        short = [t.as_row() for t in report.terms if getattr(t, "difference_min", 0) < 0]
        premises = "; ".join(label for label, _ in chain.premises)
        what = (
            "explicit reading: every premise term must appear in the statement with coefficient ratio >= 1"
            if reading == "explicit"
            else f"O-reading: every premise term must be dominated by a stated term under the regime {report.regime}"
        )
        return compare_result(
            float(failures),
            0.0,
            "at_most",
            rtol=0.0,
            atol=0.0,
            method="sympy: both sides expanded into monomials in the order symbols and grouped; coefficients and "
            "exponents depending on theta compared at theta in {1.01, 1.1, 1.25, 1.5, 1.75, 1.9, 1.99} to 50 digits",
            reading=f"{chain.citation} from {premises}; {what}",
            evidence={
                "rows": [t.as_row() for t in report.terms],
                "rule": report.regime,
                "analysis": f"witnesses ({reading} reading): {', '.join(witnesses) or 'none'}; explicit verdict "
                f"{report.explicit_verdict}, O verdict {report.o_verdict} (side by side)",
                "observed_is": "premise terms the statement does not cover in this reading",
                **(
                    {
                        "worst": max(numbers, key=lambda r: r["premises_over_stated"]),
                        "note": "premises' sum / stated bound at numeric points: "
                        + "; ".join(f"{r['point']} -> {r['premises_over_stated']:.6g}" for r in numbers),
                    }
                    if numbers
                    else {}
                ),
                **(
                    {
                        "worst": min(short, key=lambda r: r["difference_min"]),
                        "note": "stated minus premises' coefficient per quantity on the grid: with that quantity the "
                        "only nonzero one (= 1) the stated line is below the premises by -difference_min; "
                        + "; ".join(f"{r['term']}: {r['difference_min']:.6g} at {r['at']}" for r in short),
                    }
                    if short
                    else {}
                ),
                **({"ratio": report.smallest_ratio} if report.smallest_ratio is not None else {}),
            },
            evidence_kind="formula",
        )

    return check


def _mutant(module, factory, kwargs, reading, mutation) -> Mutant:
    kind = mutation[0]
    if kind == "repair":
        return Mutant(
            "stated bound replaced by the premises' sum (must be confirmed: the check is not stuck at refuted)",
            chain_check(module, factory, kwargs, reading, mutation),
            detected_by=("confirmed",),
        )
    names = {
        "drop": lambda: f"stated term {mutation[1]} dropped",
        "scale": lambda: f"stated term {mutation[1]} x{mutation[2]}",
        "shift": lambda: f"stated term {mutation[1]} with the exponent of {mutation[2]} shifted by {mutation[3]}",
    }
    factor = float(Fraction(mutation[2])) if kind == "scale" else None
    return Mutant(names[kind](), chain_check(module, factory, kwargs, reading, mutation), factor=factor)


def register_chain_claims(registry, paper: str, module: str, chain_claims: tuple, witness_points: dict) -> None:
    """Register ``chains.<paper>.<suffix>`` for every row of ``chain_claims`` (one claim per reading and regime).

    Parameters
    ----------
    registry : Registry
    paper : str
        The paper's number in the claim ids and citation tags (``"000"``).
    module : {"wang_xu", "hu", "hu_frank_wolfe", "hu_thm7", "hu_thm8", "arora"}
    chain_claims : tuple
        Rows ``(suffix, chain function, keyword pairs, reading, statement, mutations)``.
    witness_points : dict
        Numeric points per suffix (may be empty).
    """
    for suffix, factory, kwargs, reading, statement, mutations in chain_claims:
        registry.add_claim(
            Claim(
                f"chains.{paper}.{suffix}",
                re.search(r"\[[^\]]*\]", statement).group(0),
                statement,
                "formula",
                chain_check(module, factory, kwargs, reading, witness_points=tuple(witness_points.get(suffix, ()))),
                mutants=tuple(_mutant(module, factory, kwargs, reading, m) for m in mutations),
                # deterministic and cheap (the comparison is cached): the default seed policy costs little
            )
        )
