"""High-precision reference for ``E[phi(a + b Z)]`` ([002 eq. (2)], [002 eq. (5)]) and the accuracy report.

Layout (every name is importable from here; one subject a module):

* :mod:`proofs_checks.formulas.catoni_reference`: the mpmath references (split quadrature, identity (5)
  with the printed ``C-hat``, and the naive quadrature that misses the spike);
* :mod:`proofs_checks.formulas.catoni_points`: the grid, special and random points and their cached
  reference values;
* :mod:`proofs_checks.formulas.catoni_accuracy`: the accuracy report, the accurate region, the accuracy
  map and ``load_callable`` (a port's function by ``MODULE:NAME``).

References
----------
.. [1] L. Hu, S. Ni, H. Xiao and D. Wang, ``002_6c597657f27a60c9.txt``: [002 eq. (2)], [002 eq. (5)],
       [002 App. A].
"""

from __future__ import annotations

from .catoni_accuracy import (
    REGIONS,
    TOLERANCE,
    AccuracyReport,
    accuracy_map_figure,
    accuracy_report,
    accurate_region,
    load_callable,
)
from .catoni_points import REFERENCES, grid_points, random_points, reference_values, special_points
from .catoni_reference import DPS, c_hat_mp, expected_phi_closed_mp, expected_phi_mp, naive_expected_phi_mp, phi_mp

__all__ = [
    "TOLERANCE",
    "phi_mp",
    "expected_phi_mp",
    "expected_phi_closed_mp",
    "c_hat_mp",
    "naive_expected_phi_mp",
    "grid_points",
    "special_points",
    "random_points",
    "reference_values",
    "accuracy_report",
    "AccuracyReport",
    "accuracy_map_figure",
    "load_callable",
    "DPS",
    "REFERENCES",
    "REGIONS",
    "accurate_region",
]
