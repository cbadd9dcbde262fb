"""Check (c): the recorded outputs follow the laws the calls recorded.

The privacy loss (check d) and the composition (check e) read each call's recorded ``law``; both are only as
good as the draw really following it.  Over all sampled paths (both directions), per primitive:

* a law with a ``noise`` function: its standardised noise, pooled over calls and paths, against the noise's
  standard law (:data:`STANDARD_NOISE`; i.i.d. given the past on every path, so the pooled values are i.i.d.),
  with the Kolmogorov-Smirnov test;
* an index-valued selection whose law gives the probabilities of every candidate (``log_weights``, or the
  report-noisy-max scores and scale): the randomised probability integral transform
  ``F(k - 1) + V p(k)``, ``V ~ U(0, 1)``, exactly uniform under the law, against U(0, 1) with the same test.

The threshold is fixed before the run: error ``1 - confidence``, Bonferroni over the primitives tested.
A draw whose real scale differs from the recorded one is refuted.

References
----------
.. [1] A. N. Kolmogorov (1933); N. Smirnov (1948): the one-sample test, as :func:`scipy.stats.kstest`.
.. [2] C. Czado, T. Gneiting and L. Held, "Predictive model assessment for count data", Biometrics 65 (2009)
   (the randomised probability integral transform).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from .check_result import NO_VIOLATION, REFUTED, TRANSCRIPT, VACUOUS, GrayBoxCheck

__all__ = ["STANDARD_NOISE", "SELECTION_PROBABILITIES", "standard_noise_cdf", "conformance_check"]

#: The law of the standardised noise of each built-in primitive with a ``noise`` function (a scipy.stats
#: distribution name with its default location 0 and scale 1).  A user's primitive names its own through the
#: ``noise_laws`` argument of :func:`~.audit.gray_box_audit`.
STANDARD_NOISE = {"laplace": "laplace", "gaussian": "norm", "peeling": "laplace"}


def _softmax_probabilities(law: Mapping) -> np.ndarray:
    lw = np.asarray(law["log_weights"], dtype=np.float64)
    top = np.max(lw)
    weights = np.exp(lw - top)
    return weights / weights.sum()


def _report_noisy_max_probabilities(law: Mapping) -> np.ndarray:
    from reference.mechanisms.report_noisy_max import report_noisy_max_log_prob

    return np.exp(report_noisy_max_log_prob(law["scores"], law["scale"]))


#: Index-valued selections whose law gives every candidate's probability: name -> ``law -> probabilities``.
SELECTION_PROBABILITIES: dict[str, Callable[[Mapping], np.ndarray]] = {
    "categorical": _softmax_probabilities,
    "gem": _softmax_probabilities,
    "report_noisy_max": _report_noisy_max_probabilities,
}


def standard_noise_cdf(spec) -> Callable[[np.ndarray], np.ndarray]:
    """The cdf of a standard noise law: a scipy.stats distribution name (``"laplace"``, ``"norm"``, ...) or a cdf.

    Raises
    ------
    ValueError
        If ``spec`` names no scipy.stats distribution.

    Examples
    --------
    >>> float(standard_noise_cdf("laplace")(np.array([0.0]))[0])
    0.5
    """
    if callable(spec):
        return spec
    from scipy import stats

    distribution = getattr(stats, str(spec), None)
    if distribution is None or not hasattr(distribution, "cdf"):
        raise ValueError(f"noise law must be a scipy.stats distribution name or a cdf, got {spec!r}")
    return distribution.cdf


def _randomised_pit(probabilities: np.ndarray, output, uniform: float) -> float:
    k = int(np.ravel(output)[0])
    below = float(np.sum(probabilities[:k]))
    return min(1.0, below + uniform * float(probabilities[k]))


def _pooled_values(calls: Sequence, noise_laws: Mapping, rng: np.random.Generator):
    """``{primitive: (values, cdf)}`` and the names of primitives left untested."""
    from reference.mechanisms.recorder import primitive_law

    pooled: dict[str, list] = {}
    cdfs: dict[str, Any] = {}
    untested = set()
    for call in calls:
        name = call.primitive
        law = primitive_law(name)
        reference = noise_laws.get(name, STANDARD_NOISE.get(name))
        if law.noise is not None and reference is not None:
            cdfs.setdefault(name, standard_noise_cdf(reference))
            pooled.setdefault(name, []).append(np.ravel(np.asarray(law.noise(call.law, call.output), dtype=float)))
        elif name in SELECTION_PROBABILITIES and np.size(call.output) == 1:  # one draw (possibly a row of one)
            probabilities = np.ravel(SELECTION_PROBABILITIES[name](call.law))
            cdfs.setdefault(name, lambda u: np.clip(u, 0.0, 1.0))
            pit = _randomised_pit(probabilities, call.output, float(rng.random()))
            pooled.setdefault(name, []).append(np.array([pit]))
        else:
            untested.add(name)
    values = {name: np.concatenate(parts) for name, parts in pooled.items()}
    values = {name: sample for name, sample in values.items() if sample.size}  # only atoms: nothing to test
    return values, cdfs, sorted((untested | set(pooled)) - set(values))


def conformance_check(
    calls: Sequence, *, confidence: float, noise_laws: Mapping | None = None, rng: np.random.Generator
) -> GrayBoxCheck:
    """Verdict of check (c) from every recorded call of every path.

    Parameters
    ----------
    calls : sequence of PrimitiveCall
        The recorded calls (first runs of both directions).
    confidence : float
        The check's level; each primitive is tested at error ``(1 - confidence) / primitives``.
    noise_laws : mapping, optional
        ``{primitive: scipy.stats name or cdf}``: the standard law of a user's primitive's ``noise``.
    rng : numpy.random.Generator
        The uniforms of the randomised probability integral transform.

    Returns
    -------
    GrayBoxCheck
        ``refuted`` naming the primitive of smallest p-value below its threshold; ``vacuous`` when no
        primitive could be tested.
    """
    from scipy import stats

    values, cdfs, untested = _pooled_values(calls, dict(noise_laws or {}), rng)
    if not values:
        return GrayBoxCheck(
            "law_conformance",
            VACUOUS,
            f"no call with a testable law (untested: {untested})",
            TRANSCRIPT,
            {"untested": untested},
        )
    alpha = (1.0 - confidence) / len(values)
    impossible = {name: int(np.sum(~np.isfinite(sample))) for name, sample in values.items()}
    worst_impossible = max(impossible, key=lambda k: impossible[k])
    if impossible[worst_impossible]:
        # a finite centre and scale never give a non-finite standardised value: no test is needed
        return GrayBoxCheck(
            "law_conformance",
            REFUTED,
            f"{worst_impossible}: {impossible[worst_impossible]} of {values[worst_impossible].size} standardised values "
            "are not finite, which the recorded law cannot give",
            TRANSCRIPT,
            {"non_finite_values": impossible, "untested": untested, "worst": worst_impossible},
        )
    tests = {}
    for name, sample in values.items():
        result = stats.kstest(sample, cdfs[name])
        tests[name] = {
            "values": int(sample.size),
            "ks_statistic": float(result.statistic),
            "p_value": float(result.pvalue),
        }
    worst = min(tests, key=lambda k: tests[k]["p_value"])
    witness = {"alpha_per_primitive": alpha, "tests": tests, "untested": untested, "worst": worst}
    numbers = (
        f"{worst}: Kolmogorov-Smirnov p = {tests[worst]['p_value']:.3g} on {tests[worst]['values']} standardised "
        f"values (threshold {alpha:.3g}, Bonferroni over {len(values)} primitive(s))"
    )
    if tests[worst]["p_value"] < alpha and not math.isnan(tests[worst]["p_value"]):
        return GrayBoxCheck(
            "law_conformance", REFUTED, f"{numbers}: the draws do not follow the recorded law", TRANSCRIPT, witness
        )
    return GrayBoxCheck("law_conformance", NO_VIOLATION, numbers, TRANSCRIPT, witness)
