"""The reference itself as a port (the kit's self-test): every kit name mapped to ``reference``.

This module is also the specification of the names and signatures a port provides
(``docs/porting.md`` lists them with their tolerances).
"""

from __future__ import annotations

from reference.hu import parameters as _hp
from reference.hu.catoni import c_hat, expected_phi, phi, robust_gradient, robust_mean  # noqa: F401
from reference.hu.frank_wolfe import (dp_fw_output_log_prob, dp_fw_sensitivity, lasso_epsilon_step,  # noqa: F401
                                      lasso_sensitivity, private_lasso_output_log_prob)
from reference.losses import get_loss as _get_loss
from reference.mechanisms import (advanced_composition_epsilon, advanced_composition_split,  # noqa: F401
                                  exponential_log_prob, exponential_sample, gem_log_prob, gem_normalized_scores,
                                  gem_sample, gem_threshold, laplace_mechanism, laplace_scale, peeling,
                                  peeling_scale, peeling_support_log_prob, report_noisy_max,
                                  report_noisy_max_log_prob, report_noisy_max_scale)
from reference.wang_xu import nets as _nets
from reference.wang_xu.l1_regression import (exponent_factor, l1_loss, log_weights,  # noqa: F401
                                             truncated_empirical_risk, wang_xu_log_prob)
from reference.wang_xu.l1_regression import theorem1_parameters as wang_xu_theorem1_parameters  # noqa: F401
from reference.wang_xu.l1_regression import theorem2_parameters as wang_xu_theorem2_parameters  # noqa: F401
from reference.wang_xu.truncation import psi  # noqa: F401

hu_theorem2_parameters = _hp.theorem2_parameters
hu_theorem3_parameters = _hp.theorem3_parameters
hu_theorem5_parameters = _hp.theorem5_parameters
hu_theorem7_parameters = _hp.theorem7_parameters
hu_theorem8_parameters = _hp.theorem8_parameters
hu_theorem9_lower_bound = _hp.theorem9_lower_bound
hu_section62_parameters = _hp.section62_parameters


def net_points(kind, radius, zeta, dim):
    """Points of the zeta-net of the l1 (``kind="l1"``) or l2 ball of ``radius`` in ``dim`` dimensions."""
    cls = {"l1": _nets.L1BallNet, "l2": _nets.L2BallNet}[kind]
    return cls(radius, zeta, dim).points()


def loss_value(loss, w, X, y):
    return _get_loss(loss).value(w, X, y)


def loss_gradient(loss, w, X, y):
    return _get_loss(loss).gradient(w, X, y)


def loss_gradient_batch(loss, W, X, y):
    return _get_loss(loss).gradient_batch(W, X, y)
