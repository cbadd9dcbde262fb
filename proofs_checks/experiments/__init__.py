"""Reproductions of the papers' experiments (``python -m proofs_checks experiments``)."""

__all__: list[str] = []
