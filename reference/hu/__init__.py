"""Hu, Ni, Xiao & Wang (paper 002): high-dimensional DP stochastic optimisation with heavy-tailed data.

Modules
-------
catoni
    The smoothed Catoni estimator: phi, C-hat of [002 eq. (5)], ``expected_phi``, robust mean and gradient.
frank_wolfe
    [002 Alg. 1] heavy-tailed DP Frank-Wolfe and [002 Alg. 2] private LASSO, with exact output laws.
sparse
    [002 Alg. 3] DP-IHT with Peeling ([002 Alg. 4]) and [002 Alg. 5] sparse optimisation.
parameters
    The parameter settings of [002 Thm. 2]-[002 Thm. 8] and [002 Sec. 6.2], and the [002 Thm. 9] lower bound.
lower_bound
    The pieces of [002 Lemma 3] and of the proof of [002 Thm. 9]: closed form, the proof's p, a packing.
data
    The data of [002 Sec. 6.1] and a CSV/NPZ loader.

This package imports only the shared parts of :mod:`reference` (mechanisms, losses,
records, validation), never another paper's package.
"""

from __future__ import annotations

#: the package re-exports nothing: its public API is what the modules listed above name in ``__all__``
__all__: list[str] = []
