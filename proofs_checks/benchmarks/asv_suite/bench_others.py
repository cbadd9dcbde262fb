"""Speed of the robust estimator of 002 against ``np.mean``; GEM over 200,000 rows.

Ratios to a baseline timed in the same run.  No target for GEM (its ratio is reported);
the robust estimator's target is 10.

References
----------
.. [1] ``002``: the noise-smoothed Catoni mean [002 eq. (4)].
.. [2] ``004``: GEM [004 App. D.1].
"""

from __future__ import annotations

import numpy as np

from reference.hu.catoni import robust_mean
from reference.mechanisms.gem import gem_log_prob

from ._timing import ratio

__all__ = ["RobustMean", "GEM"]


class RobustMean:
    """``robust_mean`` on a (10^5, 100) array / ``np.mean`` of it (target <= 10).

    Cases: Student-t(2.5) at ``s = 3`` (most entries in the kernel's short expressions); Student-t(3)
    at ``s = 1`` (90% in the ``|U| < 9`` region, 39% of them with ``b >= 1``); ``|a|`` uniform in
    ``[0.16, 1)`` (every entry in the ``|U| < 9`` region).  ``beta = 1``.
    """

    params = ["t2.5,s=3", "t3,s=1", "all-hard"]
    param_names = ["case"]
    timeout = 900

    def setup(self, case):
        rng = np.random.default_rng(17)
        if case == "t2.5,s=3":
            self.x, self.s = rng.standard_t(2.5, (100_000, 100)), 3.0
        elif case == "t3,s=1":
            self.x, self.s = rng.standard_t(3.0, (100_000, 100)), 1.0
        else:
            self.x = rng.choice([-1.0, 1.0], (100_000, 100)) * rng.uniform(0.16, 1.0, (100_000, 100))
            self.s = 1.0
        robust_mean(self.x[:10], self.s, 1.0, axis=0)  # compile / load the kernel and the table

    def track_robust_mean_over_np_mean(self, case):
        return ratio(lambda: robust_mean(self.x, self.s, 1.0, axis=0), lambda: np.mean(self.x, axis=0), repeat=3)

    track_robust_mean_over_np_mean.unit = "ratio"


class GEM:
    """``gem_log_prob`` for 200,000 rows of 11 candidates / a bare pairwise max of the same (200000, 11, 11) shape."""

    timeout = 300

    def setup(self):
        rng = np.random.default_rng(17)
        self.q = rng.uniform(0.0, 1.0, (200_000, 11))
        self.g = np.linspace(0.01, 0.1, 11)

    def track_gem_over_pairwise_max(self):
        q = self.q
        return ratio(
            lambda: gem_log_prob(self.g, q, 1.0, 0.1), lambda: np.max(q[:, :, None] - q[:, None, :], axis=-1), repeat=3
        )

    track_gem_over_pairwise_max.unit = "ratio"
