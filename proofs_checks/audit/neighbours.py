"""Neighbouring datasets: the replace-one relation, adversarial replacements and loss-maximising search.

The papers' relation: ``D`` and ``D'`` are 2-D arrays of records (rows) of
the same shape that differ in at most one row.  This module

* checks the relation (:func:`check_neighbouring`, with an ``any_pair``
  escape for pairs taken as given, e.g. two vectors of query answers);
* builds a default dataset for a mechanism (:func:`default_dataset`);
* builds candidate replacement records from
  :func:`proofs_checks.adversarial.candidate_records` (huge ``|x|`` and ``|y|``
  in many sign patterns, values near 1e300 and the float64 limit, exact zeros,
  subnormals, Student-t draws) plus random records of random magnitude;
* searches, for mechanisms with an exact output law, the pair of replacements
  ``(a, b)`` of one row maximising the exact privacy loss: every pair of
  candidates, then a hill-climbing refinement of the best pairs (sign flips,
  rescaling, zeroing and saturating single coordinates).  Records placed to
  favour one output and disfavour another are found this way: the loss of a
  pair is largest exactly when ``a`` raises one output's weight and ``b``
  lowers it.

For exponential mechanisms whose log-weight is a sum over records
(``score_terms(records) -> (m, K)`` and ``log_prob_from_terms(total) -> (K,)``),
a candidate costs ``O(K d)``: the total of the other ``n - 1`` rows is computed
once, and only the replaced row's terms change.
"""

from __future__ import annotations

from .datasets import (
    CANNOT_RUN,
    black_box_pairs,
    check_neighbouring,
    default_dataset,
    differing_rows,
    domain_projector,
    exact_pair_epsilon,
    load_pair,
    mechanism_law,
    replace_row,
    replacement_candidates,
)
from .exact_search import ExactSearchResult, search_exact

__all__ = [
    "differing_rows",
    "check_neighbouring",
    "replace_row",
    "default_dataset",
    "replacement_candidates",
    "ExactSearchResult",
    "search_exact",
    "exact_pair_epsilon",
    "black_box_pairs",
    "load_pair",
    "mechanism_law",
    "CANNOT_RUN",
    "domain_projector",
]
