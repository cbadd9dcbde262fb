"""The exact laws of the built-in privacy primitives, registered with the recorder at import.

One :class:`~reference.mechanisms.recorder.PrimitiveLaw` per primitive the algorithms of the three papers
call, built on the exact log-probability functions of the mechanism modules (nothing is re-derived here).
Each law reads a recorded call's ``law`` mapping, the keys of which are listed below with the public keys
its accounting reads.

========================  ====================================  ========================================
name (norm)               ``law`` keys                          accounting (declared sensitivity D)
========================  ====================================  ========================================
``laplace`` (l1)          ``center``, ``scale``                 ``("laplace", scale / D)``
``gaussian`` (l2)         ``center``, ``sigma``                 ``("gaussian", sigma / D)``
``categorical`` (linf)    ``log_weights`` (what Gumbel-max      ``("pure", 2 |weight| D)`` with
                          consumed)                             ``public["weight"]``, the factor of the
                                                                scores in the log-weights
``report_noisy_max``      ``scores``, ``scale``                 ``("pure", 2 D / scale)``
(linf)
``gem`` (linf)            ``log_weights`` (what Gumbel-max      ``("pure", public["epsilon"])`` given the
                          consumed)                             per-candidate ``public["sensitivities"]``
``peeling`` (linf)        ``v``, ``s``, ``scale``               ``("pure", 3 s D / scale)``; its
                                                                ``components``: ``s`` times
                                                                ``("pure", 2 D / scale)`` and ``s`` times
                                                                ``("laplace", scale / D)``
========================  ====================================  ========================================

A call recorded with a batch (``public["batch"]``, a leading run axis) holds one output per run; the
log-probabilities below sum over the runs, which is the joint law of independent runs.

References
----------
.. [1] C. Dwork and A. Roth, "The algorithmic foundations of differential privacy", 2014 (Laplace, Gaussian,
       report-noisy-max Claim 3.9); F. McSherry and K. Talwar, FOCS 2007 (exponential mechanism);
       S. Raskhodnikova and A. Smith, FOCS 2016 and [004 App. D.1] (GEM); [002 Alg. 4] (Peeling).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from .exponential import normalize_log_weights
from .gaussian import gaussian_log_density
from .laplace import laplace_log_density
from .peeling import _selection_log_prob_row
from .recorder import PrimitiveCall, PrimitiveLaw, register_primitive
from .report_noisy_max import report_noisy_max_log_prob

__all__ = ["BUILTIN_LAWS"]


def _ratio(numerator: float, denominator: float) -> float:
    """``numerator / denominator`` with a zero denominator giving ``inf`` (a declared sensitivity of 0)."""
    return math.inf if denominator == 0.0 else float(numerator) / float(denominator)


def _with_non_finite_centre(center: Any, output: Any, log_density) -> float:
    """``log_density(output, center)`` where a non-finite centre coordinate is an atom at itself.

    Adding finite noise to a NaN or infinite centre gives that centre back (``nan + z`` is NaN, ``inf + z`` is
    inf), so such a coordinate's law is a point mass there: log-probability 0 when the output coordinate equals
    it (NaN for NaN), ``-inf`` otherwise; the finite coordinates keep their density.  A replay whose query
    answer became NaN on the neighbour (a NaN record) therefore has an infinite loss against a finite recorded
    release, rather than raising.
    """
    c = np.asarray(center, dtype=np.float64)
    x = np.asarray(output, dtype=np.float64)
    if np.isfinite(c).all() and not np.isnan(x).any():
        return float(np.sum(log_density(x, c)))
    c, x = np.broadcast_arrays(c, x)
    atom = ~np.isfinite(c)
    hit = np.where(np.isnan(c), np.isnan(x), x == c)
    finite = ~atom
    if not hit[atom].all() or np.isnan(x[finite]).any():  # a NaN output is impossible around a finite centre
        return -math.inf
    return float(np.sum(log_density(x[finite], c[finite]))) if finite.any() else 0.0


def _noise_of_finite_centres(center: Any, output: Any, scale: float) -> np.ndarray:
    """The standardised noise ``(output - center) / scale`` of the coordinates with a finite centre (an atom at a
    non-finite centre carries no noise to test)."""
    c, x = np.broadcast_arrays(np.asarray(center, dtype=np.float64), np.asarray(output, dtype=np.float64))
    finite = np.isfinite(c)
    return (x[finite] - c[finite]) / scale  # boolean indexing flattens in C order, as ravel did


def _laplace_log_prob(law: Mapping[str, Any], output: Any) -> float:
    return _with_non_finite_centre(law["center"], output, lambda x, c: laplace_log_density(x, c, law["scale"], 1.0))


def _laplace_noise(law: Mapping[str, Any], output: Any) -> np.ndarray:
    return _noise_of_finite_centres(law["center"], output, law["scale"])


def _gaussian_log_prob(law: Mapping[str, Any], output: Any) -> float:
    return _with_non_finite_centre(law["center"], output, lambda x, c: gaussian_log_density(x, c, law["sigma"]))


def _gaussian_noise(law: Mapping[str, Any], output: Any) -> np.ndarray:
    return _noise_of_finite_centres(law["center"], output, law["sigma"])


def _selected_log_prob(log_probabilities: np.ndarray, output: Any) -> float:
    """Sum of ``log_probabilities[..., output]`` over every draw (the last axis runs over candidates)."""
    lp = np.asarray(log_probabilities, dtype=np.float64)
    picks = np.asarray(output)
    if not np.issubdtype(picks.dtype, np.integer):
        raise ValueError(f"output must be integer indices, got {output!r}")
    if (picks < 0).any() or (picks >= lp.shape[-1]).any():
        return -math.inf
    rows = np.broadcast_to(lp, picks.shape + lp.shape[-1:])
    return float(np.sum(np.take_along_axis(rows, picks[..., None], axis=-1)))


def _categorical_log_prob(law: Mapping[str, Any], output: Any) -> float:
    return _selected_log_prob(normalize_log_weights(law["log_weights"]), output)


def _categorical_accounting(call: PrimitiveCall) -> tuple[str, float]:
    weight = call.public.get("weight")
    if weight is None:
        raise ValueError(f"categorical call {call.index} ({call.site}) declares no public['weight']")
    return ("pure", 2.0 * abs(float(weight)) * call.sensitivity if call.sensitivity > 0 else 0.0)


def _report_noisy_max_log_prob(law: Mapping[str, Any], output: Any) -> float:
    return _selected_log_prob(report_noisy_max_log_prob(law["scores"], law["scale"]), output)


def _report_noisy_max_accounting(call: PrimitiveCall) -> tuple[str, float]:
    return ("pure", _ratio(2.0 * call.sensitivity, call.law["scale"]) if call.sensitivity > 0 else 0.0)


def _gem_accounting(call: PrimitiveCall) -> tuple[str, float]:
    return ("pure", float(call.public["epsilon"]))


def _peeling_log_prob(law: Mapping[str, Any], output: Any) -> float:
    """Ordered selection (report-noisy-max on ``|v|`` over the remaining coordinates, one per round) plus the
    Laplace release of the selected coordinates; zero outside the support."""
    values, selected = (np.asarray(part) for part in output)
    v = np.asarray(law["v"], dtype=np.float64)
    b = float(law["scale"])
    d = v.shape[-1]
    v_rows = np.broadcast_to(v, values.shape).reshape(-1, d)
    total = 0.0
    for v_row, value_row, picks in zip(v_rows, values.reshape(-1, d), selected.reshape(-1, selected.shape[-1])):
        support = np.zeros(d, dtype=bool)
        support[picks] = True
        if (value_row[~support] != 0.0).any():
            return -math.inf
        total += _selection_log_prob_row(v_row, [int(j) for j in picks], b)
        total += float(np.sum(laplace_log_density(value_row[picks], v_row[picks], b, 1.0)))
    return total


def _peeling_noise(law: Mapping[str, Any], output: Any) -> np.ndarray:
    values, selected = (np.asarray(part) for part in output)
    v = np.broadcast_to(np.asarray(law["v"], dtype=np.float64), values.shape)
    picks = selected.reshape(-1, selected.shape[-1])
    rows = np.arange(picks.shape[0])[:, None]
    d = values.shape[-1]
    released = values.reshape(-1, d)[rows, picks]
    centers = v.reshape(-1, d)[rows, picks]
    return np.ravel((released - centers) / law["scale"])


def _peeling_accounting(call: PrimitiveCall) -> tuple[str, float]:
    s = int(call.law["s"])
    return ("pure", 3.0 * s * _ratio(call.sensitivity, call.law["scale"]) if call.sensitivity > 0 else 0.0)


def _peeling_components(call: PrimitiveCall) -> tuple[tuple[str, float], ...]:
    s = int(call.law["s"])
    b, lam = float(call.law["scale"]), call.sensitivity
    selection = ("pure", _ratio(2.0 * lam, b) if lam > 0 else 0.0)
    release = ("laplace", _ratio(b, lam))
    return (selection,) * s + (release,) * s


#: The built-in laws, registered when :mod:`reference.mechanisms` is imported.
BUILTIN_LAWS: tuple[PrimitiveLaw, ...] = (
    PrimitiveLaw(
        "laplace",
        _laplace_log_prob,
        "l1",
        lambda call: ("laplace", _ratio(call.law["scale"], call.sensitivity)),
        _laplace_noise,
        "center + Lap(scale) per coordinate [002 Def. 2]; noise (output - center) / scale ~ Lap(1) i.i.d.",
    ),
    PrimitiveLaw(
        "gaussian",
        _gaussian_log_prob,
        "l2",
        lambda call: ("gaussian", _ratio(call.law["sigma"], call.sensitivity)),
        _gaussian_noise,
        "center + N(0, sigma^2 I) (Dwork & Roth Thm. 3.22); noise (output - center) / sigma ~ N(0, 1) i.i.d.",
    ),
    PrimitiveLaw(
        "categorical",
        _categorical_log_prob,
        "linf",
        _categorical_accounting,
        None,
        "index drawn with probabilities softmax(log_weights) (exponential mechanism by Gumbel-max, "
        "[000 Def. 2], [002 Def. 3]); log_weights = weight * scores + constant",
    ),
    PrimitiveLaw(
        "report_noisy_max",
        _report_noisy_max_log_prob,
        "linf",
        _report_noisy_max_accounting,
        None,
        "argmax_j scores_j + Lap(scale) (Dwork & Roth Claim 3.9, [004 App. E]); exact law by quadrature",
    ),
    PrimitiveLaw(
        "gem",
        _categorical_log_prob,
        "linf",
        _gem_accounting,
        None,
        "index drawn with probabilities softmax(log_weights), log_weights = -epsilon s / 2 on GEM's normalised "
        "scores s ([004 App. D.1]); data = the scores q, public['sensitivities'] their per-candidate bounds",
    ),
    PrimitiveLaw(
        "peeling",
        _peeling_log_prob,
        "linf",
        _peeling_accounting,
        _peeling_noise,
        "[002 Alg. 4]: s rounds of report-noisy-max on |v| over the remaining coordinates, then v_S + Lap(scale) "
        "on the selected ones; noise of the released values ~ Lap(1) i.i.d.",
        _peeling_components,
    ),
)

for _law in BUILTIN_LAWS:
    register_primitive(_law)
