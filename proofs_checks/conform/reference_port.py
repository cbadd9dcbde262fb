"""The reference itself as a port (the kit's self-test): every declared port function bound to its reference.

The names, their signatures and what each maps to are declared once in :mod:`.functions`; this module only
exposes them, so ``python -m proofs_checks conform --port proofs_checks.conform.reference_port`` checks the
reference against its own golden vectors, laws and audits.

Examples
--------
>>> from proofs_checks.conform import reference_port
>>> float(reference_port.laplace_scale(1.0, 0.5))
2.0
"""

from __future__ import annotations

from .functions import FUNCTIONS

__all__ = [f.name for f in FUNCTIONS]

globals().update({f.name: f.reference for f in FUNCTIONS})
