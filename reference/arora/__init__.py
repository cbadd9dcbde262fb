"""Arora, Bassily, Guzman, Menart & Ullah (paper 004): DP generalized linear models revisited.

Modules
-------
model_selection
    [004 Alg. 1] Private Grid Search with the Generalized Exponential Mechanism ([004 App. D.1]) and
    Boosting with report-noisy-max ([004 App. E]).
learners
    DP base learners for GLMs (output perturbation, noisy projected gradient descent).
data
    Heavy-tailed GLM data with known w*.

This package imports only the shared parts of :mod:`reference` (mechanisms, losses,
records, validation), never another paper's package.
"""

from __future__ import annotations

#: the package re-exports nothing: its public API is what the modules listed above name in ``__all__``
__all__: list[str] = []
