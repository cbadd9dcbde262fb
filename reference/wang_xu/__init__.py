"""Wang & Xu (paper 000): differentially private l1-norm linear regression with heavy-tailed data.

Modules
-------
truncation
    The truncated loss psi of [000 eq. (6)] and [000 eq. (16)].
nets
    zeta-nets of the l2 ball, the box and the l1 ball, with the covering bound of [000 Lemma 2].
l1_regression
    [000 Alg. 1] and [000 Alg. 2]: the exponential mechanism over a zeta-net, with exact output laws.
baselines
    Non-private baselines (the truncated empirical risk minimiser over the net, least absolute deviations).
data
    Heavy-tailed linear models with known moments and population risk ([000 eq. (1)]).

This package imports only the shared parts of :mod:`reference` (mechanisms, losses,
records, validation), never another paper's package.
"""

from __future__ import annotations

#: the package re-exports nothing: its public API is what the modules listed above name in ``__all__``
__all__: list[str] = []
