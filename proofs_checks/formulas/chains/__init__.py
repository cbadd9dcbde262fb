"""Derivation chains: a proof's premises added up and compared with its stated bound term by term (sympy).

:mod:`.engine` is the comparison; one module per paper writes its chains (:mod:`.wang_xu` for [000]).
"""

__all__: list[str] = []
