"""Algorithms 1 and 2 of 002 (Hu, Ni, Xiao & Wang): private Frank-Wolfe over a polytope.

Algorithm 1 (Heavy-tailed DP-FW) selects, at each of ``T`` iterations, a vertex
of the polytope ``W = conv(V)`` by the exponential mechanism, scoring each
vertex with the coordinate-wise robust (smoothed Catoni) gradient of a fresh,
disjoint part of the data.  Algorithm 2 (Heavy-tailed private LASSO) shrinks
every entry of every record at ``K`` and runs the exponential-mechanism
Frank-Wolfe of Talwar, Thakurta and Zhang on the whole shrunken data, with a
per-iteration budget from advanced composition.

Both algorithms output a deterministic function of the sequence of selected
vertices, so their output law is finite: :func:`dp_fw_output_log_prob` and
:func:`private_lasso_output_log_prob` enumerate the ``|V|^T`` selection paths
for small instances and return the exact law of ``w^T``.

A dataset is a 2-D array of records ``[x_1, ..., x_d, y]``.

References
----------
.. [1] L. Hu, S. Ni, H. Xiao and D. Wang, ``002_6c597657f27a60c9.txt``: Algorithm 1, Theorem 1
       and its proof; Algorithm 2, Theorem 4 and its proof; Lemma 2; Section 6.2.
.. [2] K. Talwar, A. Thakurta and L. Zhang, "Nearly optimal private LASSO", NeurIPS 2015
       (ref. [50] of 002).

Layout (every name is importable from here; one subject a module):

* :mod:`reference.hu._fw_polytope`: the l1-ball vertices and the readings of ``||W||_1``;
* :mod:`reference.hu._fw_engine`: the step sizes, the sampled chains and the enumerated selection paths;
* :mod:`reference.hu._dp_fw`: Algorithm 1, its exact law and its mechanism-protocol objects;
* :mod:`reference.hu._private_lasso`: Algorithm 2, its exact law and its mechanism-protocol objects.
"""

from __future__ import annotations

from ._dp_fw import (
    GRAD_CAP,
    DPFWStep,
    HeavyTailedDPFW,
    data_split,
    dp_fw_output_log_prob,
    dp_fw_output_log_prob_batch,
    dp_fw_robust_gradients,
    dp_fw_selection_log_prob,
    dp_fw_sensitivity,
    heavy_tailed_dp_fw,
    robust_gradient_matrix,
)
from ._fw_engine import MAX_PATHS, STEP_SCHEDULES, fw_step_sizes
from ._fw_polytope import NORM_READINGS, l1_ball_vertices, polytope_l1_diameter, polytope_l1_norm, polytope_l1_radius
from ._private_lasso import (
    LASSO_VARIANTS,
    HeavyTailedPrivateLasso,
    PrivateLassoStep,
    heavy_tailed_private_lasso,
    lasso_epsilon_step,
    lasso_gradients,
    lasso_selection_log_prob,
    lasso_sensitivity,
    private_lasso_output_log_prob,
    private_lasso_output_log_prob_batch,
    shrink_records,
)

__all__ = [
    "l1_ball_vertices",
    "polytope_l1_radius",
    "polytope_l1_diameter",
    "polytope_l1_norm",
    "NORM_READINGS",
    "fw_step_sizes",
    "data_split",
    "shrink_records",
    "dp_fw_sensitivity",
    "dp_fw_robust_gradients",
    "robust_gradient_matrix",
    "GRAD_CAP",
    "dp_fw_selection_log_prob",
    "heavy_tailed_dp_fw",
    "dp_fw_output_log_prob",
    "dp_fw_output_log_prob_batch",
    "private_lasso_output_log_prob_batch",
    "lasso_epsilon_step",
    "lasso_sensitivity",
    "lasso_gradients",
    "lasso_selection_log_prob",
    "heavy_tailed_private_lasso",
    "private_lasso_output_log_prob",
    "HeavyTailedDPFW",
    "HeavyTailedPrivateLasso",
    "DPFWStep",
    "PrivateLassoStep",
    "MAX_PATHS",
    "STEP_SCHEDULES",
    "LASSO_VARIANTS",
]
