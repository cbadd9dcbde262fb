"""Claims on derivation chains: a proof's premises added up and compared with its stated bound term by term.

* ``chains.000.*`` (:mod:`.wang_xu`): the chains of Wang & Xu (000), [000 Thm. 1] and [000 Thm. 2].
* ``chains.002.*`` (:mod:`.hu`): the chain of [002 Thm. 2] ([002 eq. (28)], [002 eq. (29)]);
  ``chains.002.thm3.*`` to ``chains.002.thm5.*`` (:mod:`.hu_frank_wolfe`): the Frank-Wolfe theorems;
  ``chains.002.thm6.*`` to ``chains.002.thm8.*`` (:mod:`.hu_sparse`): [002 Thm. 6], [002 Thm. 7] step by step,
  [002 Thm. 8].
* ``chains.004.*`` (:mod:`.arora`): the excess-risk chain of [004 Thm. 1] ([004 App. D.2]).

The engine and the chains themselves are in :mod:`proofs_checks.formulas.chains`.
"""

from __future__ import annotations

from . import arora, hu, hu_frank_wolfe, hu_sparse, wang_xu

__all__ = ["register"]


def register(registry):
    """Register the derivation-chain claims of every paper written so far."""
    wang_xu.register(registry)
    hu.register(registry)
    hu_frank_wolfe.register(registry)
    hu_sparse.register(registry)
    arora.register(registry)
