"""Differential-privacy building blocks, shared by the three papers' packages.

Each mechanism exists once, here.  Every function is batched over leading
axes: per-candidate inputs have shape ``(..., K)`` (candidates on the last
axis, a single vector being a batch of one), samplers return one draw per row
(``size=None``) or ``(size, ...)`` draws, and exact laws come back with the
shape of the input (see :mod:`reference.mechanisms._batch`).

Every mechanism with a finite output set exposes both a vectorised sampler
and its exact output distribution (log-probabilities).  The adapter classes
follow the mechanism protocol used by the auditor in :mod:`proofs_checks`:

``sample(data, size, rng)``
    ``size`` outputs as rows (first axis of length ``size``).
``log_prob(data)``
    ``(outputs, log_probabilities)`` for a finite output set.
``log_density(data, outputs)``
    (continuous mechanisms) log-density of each output row.

Every sampler reports its draw to an active recorder (:mod:`reference.mechanisms.recorder`): one event
per call, with its data-dependent input, declared sensitivity, budget, exact law and public arguments,
for gray-box audits; with no recorder active nothing changes.
"""

from . import primitive_laws  # noqa: F401  (registers the built-in laws with the recorder)
from .composition import CompositionSplit, advanced_composition_epsilon, advanced_composition_split
from .exponential import (
    ExponentialMechanism,
    exponential_log_prob,
    exponential_sample,
    gumbel_max_sample,
    normalize_log_weights,
)
from .gaussian import (
    GaussianMechanism,
    gaussian_exact_delta,
    gaussian_log_density,
    gaussian_mechanism,
    gaussian_release,
    gaussian_sigma,
)
from .gem import GeneralizedExponentialMechanism, gem_log_prob, gem_normalized_scores, gem_sample, gem_threshold
from .laplace import LaplaceMechanism, laplace_log_density, laplace_mechanism, laplace_scale
from .peeling import Peeling, peeling, peeling_scale, peeling_selection_log_prob, peeling_support_log_prob
from .recorder import (
    ControlFlowDivergence,
    PrimitiveCall,
    PrimitiveLaw,
    Replay,
    Transcript,
    primitive,
    primitive_law,
    record_call,
    recorder_active,
    recording,
    register_primitive,
    registered_primitives,
    replaying,
    unregister_primitive,
    wrapped_primitive,
)
from .report_noisy_max import ReportNoisyMax, report_noisy_max, report_noisy_max_log_prob, report_noisy_max_scale

__all__ = [
    "CompositionSplit",
    "advanced_composition_epsilon",
    "advanced_composition_split",
    "ExponentialMechanism",
    "exponential_log_prob",
    "exponential_sample",
    "gumbel_max_sample",
    "normalize_log_weights",
    "GaussianMechanism",
    "gaussian_exact_delta",
    "gaussian_log_density",
    "gaussian_mechanism",
    "gaussian_release",
    "gaussian_sigma",
    "GeneralizedExponentialMechanism",
    "gem_log_prob",
    "gem_normalized_scores",
    "gem_sample",
    "gem_threshold",
    "LaplaceMechanism",
    "laplace_log_density",
    "laplace_mechanism",
    "laplace_scale",
    "Peeling",
    "peeling",
    "peeling_scale",
    "peeling_selection_log_prob",
    "peeling_support_log_prob",
    "ReportNoisyMax",
    "report_noisy_max",
    "report_noisy_max_log_prob",
    "report_noisy_max_scale",
    "ControlFlowDivergence",
    "PrimitiveCall",
    "PrimitiveLaw",
    "Replay",
    "Transcript",
    "primitive",
    "primitive_law",
    "record_call",
    "recorder_active",
    "recording",
    "register_primitive",
    "registered_primitives",
    "replaying",
    "unregister_primitive",
    "wrapped_primitive",
]
