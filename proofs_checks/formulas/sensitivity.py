"""Generic search for the largest change of ``f(D)`` between neighbouring datasets.

A privacy proof states a sensitivity ``Delta = sup_{D ~ D'} ||f(D) - f(D')||``
for some function ``f`` of the dataset (a score, a robust gradient, a clipped
mean).  :func:`search_sensitivity` takes the function exactly as the code
computes it in float64, a base dataset (2-D array of records) and the stated
``Delta``, and searches neighbours ``D'`` that replace one record:

1. **candidates**: extreme and heavy-tailed records from
   :func:`proofs_checks.adversarial.candidate_records`, the negated and
   duplicated records of the base dataset, at several replaced indices;
2. **random**: records with log-uniform magnitudes over the float64 range and
   random signs, and Student-t records scaled like the data;
3. **hill-climbing**: coordinate-wise moves (scale a magnitude by 10, 2, 1/2,
   1/10, flip a sign, set to 0 or to an extreme) from the best pairs found,
   then the best record tried at every replaced index (or a sample of them).

The search itself never produces NaN: differences that overflow are ``inf``
(a true change beyond the float64 range), norms are computed with scaling.
When ``f`` returns a non-finite value on a neighbour (or on the base), that is
reported as a refutation with the pair: no finite sensitivity covers it.

Tolerance.  ``f`` is evaluated in float64, so two evaluations differ from
exact arithmetic by rounding: for an average of ``n`` bounded terms with
pairwise summation the error is at most about ``log2(n) u`` times the terms'
scale, i.e. ``n log2(n) u`` relative to a sensitivity of order ``1/n``
(``u = 2^-53``: about 2e-10 at ``n = 1e5`` and 2e-9 at ``n = 1e6``).
:func:`search_sensitivity` reports every excess by default (``rtol = atol = 0``):
a mechanism calibrated to the stated sensitivity adds noise for that value, and a
change computed in float64 beyond it is beyond it, however small (a sequential
float sum of 1e5 records in [0, 1] changes by 1 + 2^-36 = 1 + 1.46e-11 when one record
moves from 0 to 1: its sensitivity 1 is refuted at rtol 0, relative excess 1.46e-11;
tests/test_auditor_float_sensitivity.py).  The result says by how much (:attr:`SensitivityResult.excess`,
:attr:`SensitivityResult.relative_excess`), so a reader can tell a rounding-level
excess from a wrong proof.  The float64 rounding tolerances of
:mod:`proofs_checks.verdicts` (``rtol = ROUNDING_RTOL = 1e-9``, ``atol =
ROUNDING_ATOL = 1e-12``; :data:`CLAIM_RTOL`, :data:`CLAIM_ATOL`), which cover
datasets up to about half a million records, stay available as arguments and are
what :func:`sensitivity_check` uses for the registered claims (which are about the
real-arithmetic proofs); a pair is a refutation when ``observed > stated * (1 + rtol) + atol``
(:func:`proofs_checks.verdicts.within`).  Larger datasets, and functions with other
error amplification (a division by a small number, a long recursion), need their own ``rtol``.

References
----------
.. [1] C. Dwork and A. Roth, "The algorithmic foundations of differential privacy", Def. 3.1
       (sensitivity over neighbouring datasets).
.. [2] N. J. Higham, "Accuracy and stability of numerical algorithms", 2nd ed., Section 4.2
       (error of pairwise summation).
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field
from typing import Callable, NamedTuple

import numpy as np

from reference.validation import as_generator, check_finite_array, check_integer, check_positive

from ..model import Result
from ..verdicts import ROUNDING_ATOL, ROUNDING_RTOL, within
from .sensitivity_phases import _BIG, _candidates_phase, _hill_climb_phase, _random_phase, _replaced_rows

__all__ = [
    "NORMS",
    "SensitivityResult",
    "SensitivityCase",
    "norm_of_difference",
    "search_sensitivity",
    "CLAIM_RTOL",
    "CLAIM_ATOL",
    "sensitivity_check",
    "hypothesis_search",
]

NORMS = ("l1", "l2", "sup", "abs")
#: Tolerances of the registered sensitivity claims (:func:`sensitivity_check`): float64 rounding is not judged.
CLAIM_RTOL, CLAIM_ATOL = ROUNDING_RTOL, ROUNDING_ATOL


@dataclass
class SensitivityResult:
    """Outcome of a sensitivity search.

    Attributes
    ----------
    observed : float
        Largest ``||f(D) - f(D')||`` found (``inf`` when ``f`` was non-finite or the
        difference exceeds the float64 range).
    stated : float
        The sensitivity under test.
    ratio : float
        ``observed / stated`` (``< 1``: the stated value is loose by that factor).
    index : int or None
        Replaced row of the worst pair (``None`` when ``f(base)`` itself is non-finite).
    record : numpy.ndarray or None
        The replacement record of the worst pair.
    evaluations : int
        Calls of ``f`` on neighbours (the base evaluation excluded).
    verdict : {"confirmed", "refuted"}
    norm : str
    tolerance : float
        The refutation threshold minus ``stated``: ``stated * rtol + atol``.
    nonfinite : bool
        ``f`` returned NaN or inf on the worst pair.
    phases : dict
        Best value found by each search phase.
    """

    observed: float
    stated: float
    ratio: float
    index: int | None
    record: np.ndarray | None
    evaluations: int
    verdict: str
    norm: str
    tolerance: float
    nonfinite: bool = False
    phases: dict = field(default_factory=dict)

    @property
    def excess(self):
        """``observed - stated``: how far the largest change found exceeds the stated sensitivity (<= 0: it
        does not)."""
        return self.observed - self.stated

    @property
    def relative_excess(self):
        """``(observed - stated) / stated``.

        Examples
        --------
        >>> r = SensitivityResult(1.5, 1.0, 1.5, 0, None, 1, "refuted", "abs", 0.0)
        >>> r.excess, r.relative_excess
        (0.5, 0.5)
        """
        return self.excess / self.stated

    def as_evidence(self):
        """JSON-serialisable summary for the evidence of a :class:`proofs_checks.model.Result`."""
        return {
            "observed_max_change": _json_float(self.observed),
            "stated_sensitivity": self.stated,
            "observed_over_stated": _json_float(self.ratio),
            "norm": self.norm,
            "worst_index": self.index,
            "worst_record": None if self.record is None else [_json_float(v) for v in self.record],
            "evaluations": self.evaluations,
            "tolerance": self.tolerance,
            "excess_over_stated": _json_float(self.excess),
            "relative_excess": _json_float(self.relative_excess),
            "nonfinite_output": self.nonfinite,
            "best_per_phase": {k: _json_float(v) for k, v in self.phases.items()},
        }


def _json_float(x):
    x = float(x)
    return x if math.isfinite(x) else repr(x)


def norm_of_difference(a, b, norm="sup"):
    """``||a - b||`` for finite float64 arrays, without NaN: overflow gives ``inf``.

    ``"abs"`` requires scalars (size-1 arrays), ``"l2"`` is computed with
    scaling by the largest entry so that neither overflow nor underflow of the
    squares spoils it.
    """
    a = np.asarray(a, dtype=np.float64).ravel()
    b = np.asarray(b, dtype=np.float64).ravel()
    if a.shape != b.shape:
        raise ValueError(f"outputs must have equal shapes, got {a.shape} and {b.shape}")
    with np.errstate(over="ignore"):
        d = np.abs(a - b)  # finite inputs: |a - b| is finite or +inf, never NaN
    if norm == "abs":
        if d.size != 1:
            raise ValueError(f"norm 'abs' needs a scalar output, got {d.size} values")
        return float(d[0])
    if d.size == 0:
        return 0.0
    if norm == "sup":
        return float(np.max(d))
    if norm == "l1":
        with np.errstate(over="ignore"):
            return float(np.sum(d))
    if norm == "l2":
        m = float(np.max(d))
        if m == 0.0 or math.isinf(m):
            return m
        with np.errstate(over="ignore"):
            return m * float(np.sqrt(np.sum((d / m) ** 2)))
    raise ValueError(f"norm must be one of {NORMS}, got {norm!r}")


class _Search:
    """State of one search: the best pair, the evaluation count, early stop on non-finite output."""

    def __init__(self, f, base, f0, norm, budget, vectorized):
        self.f, self.base, self.f0, self.norm = f, base, f0, norm
        self.budget, self.vectorized = budget, vectorized
        self.evaluations = 0
        self.best = -1.0
        self.best_pair = (None, None)
        self.nonfinite = False

    @property
    def exhausted(self):
        return self.nonfinite or self.evaluations >= self.budget

    def _outputs(self, indices, records):
        with np.errstate(all="ignore"):  # f's own overflow is judged by its output, not warned about
            return self._call(indices, records)

    def _call(self, indices, records):
        if self.vectorized:
            stack = np.broadcast_to(self.base, (len(indices),) + self.base.shape).copy()
            stack[np.arange(len(indices)), indices] = records
            out = np.asarray(self.f(stack), dtype=np.float64)
            return [out[k] for k in range(len(indices))]
        outs = []
        for i, r in zip(indices, records):
            data = self.base.copy()
            data[i] = r
            outs.append(np.asarray(self.f(data), dtype=np.float64))
        return outs

    def evaluate(self, indices, records):
        """Evaluate pairs (at most the remaining budget); return their distances (-1 if skipped)."""
        indices = np.asarray(indices, dtype=np.intp)
        records = np.asarray(records, dtype=np.float64).reshape(len(indices), -1)
        room = max(self.budget - self.evaluations, 0)
        dist = np.full(len(indices), -1.0)
        if self.nonfinite or room == 0:
            return dist
        take = min(room, len(indices))
        outs = self._outputs(indices[:take], records[:take])
        self.evaluations += take
        for k, out in enumerate(outs):
            if out.shape != self.f0.shape:
                raise ValueError(f"f returned shape {out.shape} on a neighbour but {self.f0.shape} on the base")
            if not np.all(np.isfinite(out)):
                self.nonfinite = True
                self.best, self.best_pair = math.inf, (int(indices[k]), records[k].copy())
                dist[k] = math.inf
                return dist
            dist[k] = norm_of_difference(out, self.f0, self.norm)
            if dist[k] > self.best:
                self.best, self.best_pair = dist[k], (int(indices[k]), records[k].copy())
        return dist


def _check_search_arguments(f, base, stated, norm, budget, max_indices, rtol, atol):
    """The validated ``(base, stated, budget, max_indices)`` of :func:`search_sensitivity`."""
    if not callable(f):
        raise TypeError(f"f must be callable, got {type(f).__name__}")
    base = check_finite_array("base", base, ndim=2)
    stated = check_positive("stated", stated)
    if norm not in NORMS:
        raise ValueError(f"norm must be one of {NORMS}, got {norm!r}")
    budget = check_integer("budget", budget, minimum=1)
    max_indices = check_integer("max_indices", max_indices, minimum=1)
    for name, v in (("rtol", rtol), ("atol", atol)):
        if isinstance(v, bool) or not isinstance(v, numbers.Real) or not (0 <= v < math.inf):
            raise ValueError(f"{name} must be a finite number >= 0, got {v!r}")
    return base, stated, budget, max_indices


def _base_output(f, base, norm, vectorized):
    """``f(base)`` as a float64 array (the first row of a stack of one when ``vectorized``)."""
    with np.errstate(all="ignore"):
        f0 = np.asarray(f(base[None]) if vectorized else f(base), dtype=np.float64)
    if vectorized:
        f0 = f0[0]
    if norm == "abs" and f0.size != 1:
        raise ValueError(f"norm 'abs' needs a scalar output, got shape {f0.shape}")
    return f0


def search_sensitivity(
    f: Callable,
    base,
    stated,
    norm="sup",
    rng=None,
    budget=2000,
    *,
    rtol=0.0,
    atol=0.0,
    indices=None,
    extra_records=None,
    vectorized=False,
    max_indices=8,
):
    """Largest ``||f(D) - f(D')||`` over neighbours ``D'`` of ``base`` that replace one record.

    Parameters
    ----------
    f : callable
        ``f(dataset) -> array`` (or scalar), computed exactly as the code does, in float64.
        With ``vectorized=True``, ``f`` takes a stack ``(k, n, width)`` and returns ``(k, ...)``.
    base : array_like, shape (n, width)
        Base dataset (finite).
    stated : float
        The sensitivity the proof claims (> 0).
    norm : {"sup", "l1", "l2", "abs"}
        ``"abs"`` for scalar outputs.
    rng : Generator, int or None
    budget : int
        Maximum number of evaluations of ``f`` on neighbours.
    rtol, atol : float, default 0
        Refutation threshold ``stated * (1 + rtol) + atol``: by default any excess refutes, however small
        (the result's ``excess`` and ``relative_excess`` say how large); :data:`CLAIM_RTOL`, :data:`CLAIM_ATOL`
        (the float64 rounding tolerances, formerly the default) tolerate rounding (module notes).
    indices : array_like of int, optional
        Rows to try replacing; default: the ends, the rows extreme in each
        column and in magnitude, and random rows, ``max_indices`` in all.
    extra_records : array_like, shape (m, width), optional
        Records to try first (e.g. a known worst case).

    Returns
    -------
    SensitivityResult

    Raises
    ------
    TypeError
        If ``f`` is not callable.
    ValueError
        If ``base`` is not a finite 2-d array, ``stated`` not positive, ``norm`` unknown, ``budget`` or
        ``max_indices`` below 1, ``rtol`` or ``atol`` not a finite number >= 0, ``indices`` not row numbers
        of ``base``, or ``f`` returns outputs of different shapes.

    Examples
    --------
    >>> import numpy as np
    >>> base = np.linspace(-2, 2, 20).reshape(10, 2)
    >>> res = search_sensitivity(lambda d: np.clip(d, -1, 1).mean(axis=0), base, 2 / 10, rng=0, budget=300)
    >>> res.verdict, round(float(res.ratio), 12)
    ('confirmed', 1.0)
    """
    base, stated, budget, max_indices = _check_search_arguments(f, base, stated, norm, budget, max_indices, rtol, atol)
    gen = as_generator(rng)
    tolerance = stated * rtol + atol
    f0 = _base_output(f, base, norm, vectorized)
    if not np.all(np.isfinite(f0)):
        return SensitivityResult(
            math.inf, stated, math.inf, None, None, 0, "refuted", norm, tolerance, True, {"base": math.inf}
        )
    idx = _replaced_rows(indices, base, gen, max_indices)
    with np.errstate(over="ignore"):
        scale = float(np.max(np.abs(base)))
    scale = scale if 0.0 < scale < math.inf else 1.0

    s = _Search(f, base, f0, norm, budget, vectorized)
    phases = {}
    _candidates_phase(s, idx, gen, extra_records)
    phases["candidates"] = s.best
    _random_phase(s, idx, scale, gen)
    phases["random"] = s.best
    _hill_climb_phase(s, scale, gen, max_indices)
    phases["hill-climb"] = s.best

    observed = max(s.best, 0.0)
    verdict = "refuted" if (s.nonfinite or not within(observed, stated, rtol=rtol, atol=atol)) else "confirmed"
    i_best, r_best = s.best_pair
    return SensitivityResult(
        observed,
        stated,
        observed / stated,
        i_best,
        r_best,
        s.evaluations,
        verdict,
        norm,
        tolerance,
        s.nonfinite,
        phases,
    )


class SensitivityCase(NamedTuple):
    """One function to search, for :func:`sensitivity_check`.

    ``make_base(rng) -> (n, width) array`` draws the base dataset; ``stated`` is the
    sensitivity the proof claims; ``vectorized`` as in :func:`search_sensitivity`.
    """

    label: str
    f: Callable
    make_base: Callable
    stated: float
    norm: str = "sup"
    vectorized: bool = False


def sensitivity_check(cases, stated_factor=1.0, quick_budget=1500, full_budget=20000, *, reading=""):
    """A claim check (``check(ctx) -> Result``) running :func:`search_sensitivity` on each case.

    The ready-made way to register a sensitivity claim::

        registry.add_claim(Claim("...", "[002 Thm. 1]", "...", "sensitivity",
                                 sensitivity_check([SensitivityCase("d=3", f, make, stated)])))

    Each case gets its own random stream, a child of the claim's seed sequence
    (``ctx.seed_sequence()``), so its base dataset does not depend on the profile.  ``stated_factor``
    multiplies every stated value (tests pass 0.5: a halved sensitivity must be
    refuted).  Verdict: ``refuted`` if any case is.  The result's ``observed`` is the
    largest ratio of the change found to the stated sensitivity over the cases, against
    the bound 1 (direction ``"at_most"``).
    """
    cases = [c if isinstance(c, SensitivityCase) else SensitivityCase(*c) for c in cases]

    def check(ctx):
        streams = ctx.seed_sequence().spawn(len(cases))
        budget = quick_budget if ctx.profile == "quick" else full_budget
        per_case, verdicts, ratios = {}, [], []
        for case, seq in zip(cases, streams):
            rng = np.random.default_rng(seq)
            res = search_sensitivity(
                case.f,
                case.make_base(rng),
                case.stated * stated_factor,
                norm=case.norm,
                rng=rng,
                budget=budget,
                vectorized=case.vectorized,
                rtol=CLAIM_RTOL,
                atol=CLAIM_ATOL,
            )
            per_case[case.label] = res.as_evidence()
            verdicts.append(res.verdict)
            ratios.append(res.ratio)
        verdict = "refuted" if "refuted" in verdicts else "confirmed"
        method = (
            f"adversarial neighbour search (candidates, random, hill-climbing), float64 as computed, "
            f"{budget} evaluations per case, {len(cases)} case(s); observed is the largest change over the "
            f"stated sensitivity, refuted beyond rtol {ROUNDING_RTOL:g} + atol {ROUNDING_ATOL:g}"
        )
        return Result(
            verdict,
            observed=max(ratios),
            bound=1.0,
            direction="at_most",
            method=method,
            reading=reading or "sensitivity: sup of ||f(D) - f(D')|| over replace-one neighbours D ~ D'",
            evidence={
                "budget_per_case": budget,
                "max_observed_over_stated": _json_float(max(ratios)),
                "cases": per_case,
            },
        )

    return check


def hypothesis_search(
    f, base, stated, norm="sup", *, max_examples=200, rtol=ROUNDING_RTOL, atol=ROUNDING_ATOL, index=None
):
    """Hypothesis-driven search: ``target()``-guided replacement records over the whole float64 range.

    For tests (needs the ``hypothesis`` package, imported here only).  Each
    example replaces row ``index`` (drawn by hypothesis when ``None``) with a
    record of arbitrary finite floats; ``hypothesis.target`` steers towards
    larger changes.  Returns a :class:`SensitivityResult` of the best pair.
    """
    from hypothesis import HealthCheck, given, settings, target
    from hypothesis import strategies as st

    base = check_finite_array("base", base, ndim=2)
    stated = check_positive("stated", stated)
    n, width = base.shape
    f0 = np.asarray(f(base), dtype=np.float64)
    best = {"d": -1.0, "pair": (None, None), "n": 0, "nonfinite": False}
    rec = st.lists(st.floats(allow_nan=False, allow_infinity=False), min_size=width, max_size=width)
    row = st.just(index) if index is not None else st.integers(0, n - 1)

    @settings(
        max_examples=max_examples,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(row, rec)
    def probe(i, r):
        data = base.copy()
        data[i] = r
        with np.errstate(all="ignore"):
            out = np.asarray(f(data), dtype=np.float64)
        best["n"] += 1
        if not np.all(np.isfinite(out)):
            d, nonfinite = math.inf, True
        else:
            d, nonfinite = norm_of_difference(out, f0, norm), False
        if d > best["d"]:
            best.update(d=d, pair=(int(i), np.array(r, dtype=np.float64)), nonfinite=nonfinite)
        with np.errstate(over="ignore"):
            score = d / stated
        target(float(min(score, _BIG)))

    probe()
    tolerance = stated * rtol + atol
    observed = max(best["d"], 0.0)
    verdict = "refuted" if (best["nonfinite"] or not within(observed, stated, rtol=rtol, atol=atol)) else "confirmed"
    return SensitivityResult(
        observed,
        stated,
        observed / stated,
        best["pair"][0],
        best["pair"][1],
        best["n"],
        verdict,
        norm,
        tolerance,
        best["nonfinite"],
        {"hypothesis": observed},
    )
