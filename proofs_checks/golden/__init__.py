"""Golden vectors: outputs of the reference (or their exact values, correctly rounded) at fixed inputs, for ports.

:mod:`.encoding` writes and reads the language-neutral JSON format (documented in
``docs/porting.md``, schema in ``golden/schema.json``); the ``*_cases`` modules build the
cases of one file each; :mod:`.generate` writes every file with its provenance block.
"""

__all__: list[str] = []
