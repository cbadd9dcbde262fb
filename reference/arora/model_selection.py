"""Private model selection of 004: Private Grid Search ([004 Alg. 1]) and Boosting ([004 App. E]).

Paper: Arora, Bassily, Guzman, Menart & Ullah, ``004_2b354816f00c2aef.txt``.

Private Grid Search has two variants (``"printed"``, ``"standard"``), Boosting three (``"printed"``,
``"standard"``, ``"calibrated"``); their module docstrings say what each reads.

Layout (every name is importable from here; one subject a module):

* :mod:`reference.arora._grid_search`: [004 Alg. 1], its steps, its exact GEM law and protocol objects;
* :mod:`reference.arora._boosting`: [004 App. E], its scale readings and protocol objects;
* :mod:`reference.arora._subgaussian`: condition 2 of the theorem of [004 App. E].

References
----------
.. [1] R. Arora, R. Bassily, C. Guzman, M. Menart and E. Ullah, ``004_2b354816f00c2aef.txt``: [004 Alg. 1],
       [004 Thm. 1], [004 App. D], [004 App. E].
"""

from __future__ import annotations

from ._boosting import (
    BOOSTING_VARIANTS,
    BoostingMechanism,
    BoostingSelection,
    boosting,
    boosting_laplace_scale,
    boosting_n0,
    boosting_scores,
    boosting_sigma_tilde,
    calibrated_laplace_scale,
)
from ._grid_search import (
    VARIANTS,
    GridSearchMechanism,
    GridSearchSelection,
    check_learner_output,
    fit_candidates,
    grid_guesses,
    grid_search_pairs,
    grid_search_selection_log_prob,
    private_grid_search,
    split_in_two,
)
from ._subgaussian import (
    bounded_output_subgaussian_constant,
    gaussian_output_subgaussian_constant,
    subgaussian_mgf,
    subgaussian_mgf_estimate,
)

__all__ = [
    "grid_guesses",
    "split_in_two",
    "check_learner_output",
    "fit_candidates",
    "grid_search_pairs",
    "grid_search_selection_log_prob",
    "private_grid_search",
    "GridSearchMechanism",
    "GridSearchSelection",
    "boosting_sigma_tilde",
    "boosting_laplace_scale",
    "boosting_n0",
    "boosting_scores",
    "boosting",
    "BOOSTING_VARIANTS",
    "calibrated_laplace_scale",
    "BoostingMechanism",
    "BoostingSelection",
    "gaussian_output_subgaussian_constant",
    "bounded_output_subgaussian_constant",
    "subgaussian_mgf",
    "subgaussian_mgf_estimate",
    "VARIANTS",
]
