"""Designed neighbouring pairs for the audits of 004's algorithms, and the closed forms of their reach.

The subjects live in four modules; this one re-exports their names so that the code and tests that import
them from here keep working:

* :mod:`.designed_pairs`: the pairs themselves (label flips at the edge of the domain, Boosting's validation
  flips and split models, noisy GD's long run), fixed before any draw;
* :mod:`.gaussian_reach`: the reach of an audit of a Gaussian output in closed form (exact epsilon, the best
  event's Clopper-Pearson bound, the largest shift of a base learner, noisy GD's exact shift);
* :mod:`.boosting_laws`: the law of Boosting's output on those pairs by quadrature, and the privacy numbers of
  two discrete laws;
* :mod:`.boosting_law_bounds`: guaranteed brackets of that law.
"""

from __future__ import annotations

from .boosting_law_bounds import _laplace_smoothed_cdf, boosting_law_bounds  # noqa: F401 (tests import the former)
from .boosting_laws import (
    boosting_output_law,
    boosting_split_index_law,
    boosting_split_law,
    law_epsilon,
    law_oracle,
    paper_sigma_tilde,
)
from .designed_pairs import (
    BOOSTING_CHUNK,
    BOOSTING_PAPER_CHUNK,
    BOOSTING_SPLIT_BAD,
    BOOSTING_SPLIT_CHUNK,
    DESIGN_ROWS,
    boosting_flip_pair,
    boosting_split_pair,
    boosting_validation_pair,
    label_flip_pair,
    noisy_gd_violation_pair,
)
from .gaussian_reach import (
    calls_for_oracle,
    gaussian_epsilon,
    gaussian_oracle,
    learner_mu_bound,
    noisy_gd_linear_output,
)

__all__ = [
    "DESIGN_ROWS",
    "label_flip_pair",
    "boosting_flip_pair",
    "learner_mu_bound",
    "gaussian_epsilon",
    "gaussian_oracle",
    "calls_for_oracle",
    "noisy_gd_violation_pair",
    "noisy_gd_linear_output",
    "BOOSTING_CHUNK",
    "boosting_validation_pair",
    "boosting_output_law",
    "law_epsilon",
    "law_oracle",
    "paper_sigma_tilde",
    "BOOSTING_PAPER_CHUNK",
    "boosting_law_bounds",
    "BOOSTING_SPLIT_CHUNK",
    "BOOSTING_SPLIT_BAD",
    "boosting_split_pair",
    "boosting_split_law",
    "boosting_split_index_law",
]
