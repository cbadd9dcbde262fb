"""Formula and proof checks: closed forms against high-precision references, the inequalities and
sensitivity bounds the proofs rest on.  One module per subject."""

__all__: list[str] = []
