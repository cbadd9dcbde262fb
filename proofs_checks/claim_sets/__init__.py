"""Claim sets, one module per paper or subject; each defines ``register(registry)``.

Modules here are discovered automatically by :func:`proofs_checks.registry.default_registry`,
so adding a paper's claims never touches a shared file.
"""

__all__: list[str] = []
