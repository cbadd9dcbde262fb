"""Stated tolerances of the conformance kit, one per port function, each with its reason.

A tolerance is ``Tol(ulps, scale, why)``: ``|port - golden| <= ulps * ulp(scale)``, where ``ulp(x)`` is
the spacing of float64 at ``|x|`` (``numpy.spacing``) and ``scale`` names what sets the size of the
error: ``"value"`` (the expected value itself: a relative tolerance), ``"case"`` (the largest
``|expected|`` of the case: errors of sums and log-sum-exp are relative to their largest term), or a
number (an absolute tolerance expressed in ulps of that number, e.g. ``B = 2 sqrt(2)/3`` for
E[phi], whose reference is accurate in absolute terms), or a callable of the case's inputs.
``ulps = 0`` means bit-exact.  Laws compare log-probabilities with ``law_atol`` (absolute) after matching
outputs.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

__all__ = ["Tol", "TOLERANCES", "PHI_BOUND", "tolerance_for", "c_hat_scale"]

PHI_BOUND = 2.0 * math.sqrt(2.0) / 3.0


class Tol(NamedTuple):
    ulps: float
    scale: object  # "value" | "case" | float | callable(args, kwargs) -> array
    why: str
    law_atol: float = 0.0


def c_hat_scale(args, kwargs):
    """Size of the terms the printed C-hat cancels: ``|a|(1 + b^2/2) + |a|^3/6 + b^3 + B``."""
    a, b = (np.abs(np.asarray(x, dtype=np.float64)) for x in args[:2])
    with np.errstate(all="ignore"):
        return a * (1.0 + b * b / 2.0) + a ** 3 / 6.0 + b ** 3 + PHI_BOUND


def _printed_mean_scale(args, kwargs):
    x, s, beta = np.asarray(args[0], dtype=np.float64), float(args[1]), float(args[2])
    with np.errstate(all="ignore"):
        terms = c_hat_scale([x / s, np.abs(x) / (s * math.sqrt(beta))], {})
    return s * np.max(terms, axis=kwargs.get("axis", 0))


_SCALE_WHY = "one or two IEEE operations and a correctly rounded sqrt/log (libm log and pow within 1 ulp each)"

TOLERANCES = {
    "phi": Tol(2, "value", "x - x^3/6 has no cancellation on [-sqrt 2, sqrt 2] (x^3/6 <= x/3); 2 ulps allow "
                           "x*x*x versus pow(x, 3)"),
    "expected_phi": Tol(16, PHI_BOUND, "the reference is accurate to 1e-15 (9 ulps of B) in absolute terms against "
                                       "mpmath over the whole float64 range; a port of the same accuracy may differ "
                                       "by the sum of both errors. Not bit-exact: the batch and scalar paths of the "
                                       "reference itself may differ by 1 ulp"),
    "c_hat": Tol(64, c_hat_scale, "the printed form cancels terms of size |a|(1+b^2/2)+|a|^3/6 (+ b^3); its float64 "
                                  "value is only defined to a few ulps of that size; non-finite golden values "
                                  "(b = 0, overflow) are not compared"),
    "robust_mean": Tol(16, None, "standard: s times a mean of E[phi] terms, each within 16 ulps of B (absolute: "
                                 "16 ulps of s*B); printed: 64 ulps of s times the cancelling terms' size"),
    "robust_gradient": Tol(16, None, "as robust_mean"),
    "psi": Tol(4, "log_theta", "the golden values are mpmath's, correctly rounded; a float64 evaluation through "
                               "log1p is within a few ulps of log(theta), the range of psi and the scale on which "
                               "the scores of [000 Alg. 1-2] use it (numpy's AVX-512 log1p and the C library's "
                               "differ by 1 ulp)"),
    "net_points": Tol(2, 1.0, "grid coordinates k*h: one multiplication; rows compared as a set"),
    "truncated_empirical_risk": Tol(64, "case", "a mean of n psi terms: summation order changes the last bits"),
    "l1_loss": Tol(64, "case", "a mean of n absolute residuals"),
    "log_weights": Tol(64, "case", "scores times eps factor: sums of n terms"),
    "exponent_factor": Tol(4, "value", _SCALE_WHY),
    "wang_xu_log_prob": Tol(64, "case", "log-sum-exp normalisation of the log-weights", law_atol=0.0),
    "loss_value": Tol(64, "case", "a mean over records"),
    "loss_gradient": Tol(64, "case", "a mean over records"),
    "loss_gradient_batch": Tol(64, "case", "per-example gradients; logistic via a stable sigmoid"),
    "laplace_scale": Tol(0, "value", "one IEEE division (Delta/eps): correctly rounded, bit-exact"),
    "report_noisy_max_scale": Tol(0, "value", "2*Delta/eps: multiplication by 2 is exact, then one division"),
    "peeling_scale": Tol(4, "value", _SCALE_WHY),
    "gem_threshold": Tol(4, "value", _SCALE_WHY),
    "dp_fw_sensitivity": Tol(4, "value", _SCALE_WHY),
    "lasso_sensitivity": Tol(4, "value", _SCALE_WHY),
    "lasso_epsilon_step": Tol(4, "value", _SCALE_WHY),
    "advanced_composition_epsilon": Tol(4, "value", _SCALE_WHY),
    "advanced_composition_split": Tol(64, "value", "the standard split solves an equation numerically (root "
                                                   "found to full precision); printed: closed form"),
    "exponential_log_prob": Tol(64, "case", "log-sum-exp of eps*u/(2 Delta): errors relative to the largest term"),
    "gem_normalized_scores": Tol(8, "value", "a max of ratios of differences"),
    "gem_log_prob": Tol(64, "case", "log-sum-exp of the normalised scores"),
    "report_noisy_max_log_prob": Tol(0, "value", "fixed Gauss-Legendre panels for rows within 80 noise scales "
                                     "(7.1e-15 against mpmath), else adaptive quadrature at relative "
                                     "tolerance 1e-11",
                                     law_atol=1e-9),
    "peeling_support_log_prob": Tol(0, "value", "sums of report-noisy-max log-probabilities (quadrature); the "
                                                "golden values are the reference's float64 sums, which move by an "
                                                "ulp with the CPU's exp/log", law_atol=1e-9),
    "dp_fw_output_log_prob": Tol(0, "value", "exponential mechanism over enumerated paths; output points "
                                             "matched within 1e-12 relative. The golden log-probabilities are the "
                                             "reference's float64 log-sum-exp: they moved by 68 ulps (3.0e-14) "
                                             "between numpy's AVX-512 exp/log and the C library's, far inside "
                                             "law_atol", law_atol=1e-9),
    "private_lasso_output_log_prob": Tol(0, "value", "as dp_fw_output_log_prob", law_atol=1e-9),
}
for _name in ("theorem2_parameters", "theorem3_parameters", "theorem5_parameters", "theorem7_parameters",
              "theorem8_parameters", "theorem9_lower_bound", "section62_parameters"):
    TOLERANCES["hu_" + _name] = Tol(4, "value", "closed forms in pow/log/sqrt; integers (T, s, k) exact")
for _name in ("wang_xu_theorem1_parameters", "wang_xu_theorem2_parameters"):
    TOLERANCES[_name] = Tol(4, "value", "closed forms in pow/log/sqrt")


def tolerance_for(function, args, kwargs):
    """``(tol, scale_array_or_None)`` for a call; ``None`` scale means "the expected value itself"."""
    tol = TOLERANCES[function]
    if function in ("robust_mean", "robust_gradient"):
        s = float(args[1])
        if kwargs.get("variant", "standard") == "printed":
            return tol._replace(ulps=64), _printed_mean_scale(args, kwargs)
        return tol, s * PHI_BOUND
    if tol.scale == "log_theta":
        return tol, math.log(float(kwargs.get("theta", 2.0)))
    if callable(tol.scale):
        return tol, tol.scale(args, kwargs)
    if isinstance(tol.scale, (int, float)):
        return tol, float(tol.scale)
    return tol, tol.scale  # "value" / "case": resolved against the expected value


