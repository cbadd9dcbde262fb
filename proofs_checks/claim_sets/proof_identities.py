"""Claims on identities and lemmas the proofs of 002 rest on, checked exactly or at high precision.

* ``proofs.002.kl-identity-18``: the KL divergence (18) of the proof of Lemma 4.
* ``proofs.002.lemma2.exact-*``: Lemma 2 (advanced composition) against the exact
  composition of pure-DP mechanisms (randomized response, Laplace).
* ``proofs.sensitivity.*``: demonstrations of the generic sensitivity search
  of :mod:`proofs_checks.formulas.sensitivity` on functions with known sensitivity.

Every check is built by a factory whose arguments default to the printed
formula / the implementation; the tests pass deliberately wrong ones.
"""

from __future__ import annotations

import numpy as np

from ..claims import Claim, Result
from ..formulas import kl_identity


def kl_identity_check(closed_form=None, dps=kl_identity.DEFAULT_DPS, betas=None):
    """Identity (18) of 002 line by line against the KL divergence by quadrature, over beta.

    ``betas`` overrides the grid (log-spaced over [1e-12, 1e12] plus random
    log-uniform points; about 0.7 s per point).
    """

    def check(ctx):
        rng = ctx.rng("proofs.002.kl-identity-18")
        if betas is not None:
            grid, extra = list(betas), []
        elif ctx.profile == "quick":
            grid = [1e-12, 1.0, 1e12]
            extra = 10.0 ** rng.uniform(-12, 12, size=1)
        else:
            grid = list(10.0 ** np.arange(-12.0, 12.5, 0.5))
            extra = 10.0 ** rng.uniform(-12, 12, size=40)
        grid = [float(b) for b in list(grid) + list(extra)]
        rep = kl_identity.check_identity18(grid, closed_form, dps=dps)
        return Result(rep.verdict, {
            "method": f"mpmath quad at {dps} digits, split at 0 +- 2^k/sqrt(beta), vs KL by definition (14)",
            "beta_range": [min(grid), max(grid)], "points": rep.points,
            "max_rel_error_per_line": rep.max_rel_error, "worst_beta_per_line": rep.worst_beta,
            "tolerance": rep.tolerance,
            "note": "K(N(0,1/beta) || N(1,1/beta)) = beta/2. Definition (14) states the absolute-"
                    "continuity condition as v0 << v; the KL needs v << v0 (immaterial here: both "
                    "Gaussians are mutually absolutely continuous)."})

    return check


def register(registry):
    claim = registry.add_claim
    claim(Claim("proofs.002.kl-identity-18", "002, appendix, proof of Lemma 4, eq. (18)",
                "K(v, v0) for v = N(0, 1/beta), v0 = N(1, 1/beta) equals beta/2 (each printed line of (18)).",
                "formula", kl_identity_check()))
