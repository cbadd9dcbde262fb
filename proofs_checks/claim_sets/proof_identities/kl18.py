"""The KL identity [002 eq. (18)] of the proof of [002 Lemma 4], line by line at high precision."""

from __future__ import annotations

import numpy as np

from ...builders import compare_result
from ...formulas import kl_identity

__all__ = ["kl_identity_check"]


def kl_identity_check(closed_form=None, dps=kl_identity.DEFAULT_DPS, betas=None):
    """Check factory: each printed line of (18) against the KL divergence by quadrature, over beta.

    ``closed_form(beta)`` replaces the last line (default ``beta/2``; the tests pass wrong ones).
    ``betas`` overrides the grid (log-spaced over [1e-12, 1e12] plus random log-uniform points;
    about 0.7 s per point).  ``observed`` is the largest relative error over the lines and betas.
    """

    def check(ctx):
        rng = ctx.rng()
        if betas is not None:
            grid, extra = list(betas), []
        elif ctx.profile == "quick":
            grid = [1e-12, 1.0, 1e12]
            extra = 10.0 ** rng.uniform(-12, 12, size=1)
        else:
            grid = list(10.0 ** np.arange(-12.0, 12.5, 1.0))
            extra = 10.0 ** rng.uniform(-12, 12, size=20)
        grid = [float(b) for b in list(grid) + list(extra)]
        rep = kl_identity.check_identity18(grid, closed_form, dps=dps)
        return compare_result(
            max(rep.max_rel_error.values()),
            rep.tolerance,
            "at_most",
            rtol=0.0,
            atol=0.0,
            method=f"mpmath quadrature at {dps} digits, split at 0 +- 4^k/sqrt(beta), of each printed line and of "
            f"the KL divergence by definition, at {rep.points} values of beta in "
            f"[{min(grid):g}, {max(grid):g}]; "
            "observed = largest relative error, bound = the high-precision tolerance",
            reading="[002 eq. (18)] in the proof of [002 Lemma 4]: K(v, v0) of [002 eq. (14)] for v = N(0, 1/beta), "
            "v0 = N(1, 1/beta) equals beta/2 (each printed line). Definition (14) states the absolute-"
            "continuity condition as v0 << v; the KL needs v << v0 (immaterial here: both Gaussians are "
            "mutually absolutely continuous)",
            evidence={
                "beta_range": [min(grid), max(grid)],
                "max_rel_error_per_line": rep.max_rel_error,
                "worst_beta_per_line": rep.worst_beta,
            },
        )

    return check
