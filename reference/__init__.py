"""Reference implementations of private learning algorithms for heavy-tailed data.

Each function mirrors a box of one of the papers in ``shared/papers``; docstrings cite the
place with a tag such as ``[000 eq. (16)]``, ``[002 Alg. 3 step 6]`` or ``[004 Lemma D.4]``
(paper number first, so a grep for one paper's equation finds its one place).  Where a
printed constant differs from what the paper's own analysis or the standard mechanism
needs, both are kept as named variants (``"printed"``, ``"standard"``); the checkers in
:mod:`proofs_checks` decide between them.

Packages and modules
--------------------
wang_xu
    Paper 000 (Wang & Xu): private l1 regression by the exponential mechanism over a zeta-net.
hu
    Paper 002 (Hu, Ni, Xiao & Wang): heavy-tailed DP Frank-Wolfe, LASSO, IHT and sparse optimisation.
arora
    Paper 004 (Arora, Bassily, Guzman, Menart & Ullah): Private Grid Search and Boosting for GLMs.
mechanisms
    The differential-privacy mechanisms, each once, batched over leading axes.
losses
    Loss functions, one module per family, with per-example values and gradients.
records
    Datasets as arrays of records ``[x, y]``: :func:`~reference.records.split_records`,
    :func:`~reference.records.partition_records`.
validation
    Parameter checks that raise ``ValueError`` / ``TypeError`` naming the parameter.
floating
    Ulps and the stated error of one elementary-function evaluation (the reproducibility contract).

The papers' packages import only the shared modules (mechanisms, losses, records,
validation, floating), never each other; this package never imports from :mod:`proofs_checks`.
"""

from __future__ import annotations

#: the package re-exports nothing: its public API is what the modules listed above name in ``__all__``
__all__: list[str] = []

__version__ = "0.1.0"
