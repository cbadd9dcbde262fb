"""Units check of [002 Alg. 3]'s Peeling step: verdict, power and the exactness of the rescaling.

Reference: rescaling by powers of 2 is exact in float64, so v and lambda agree bit for bit across units; the
mutant's lambda changes by k^-1 exactly (closed form).
"""

from __future__ import annotations

import numpy as np
import pytest

from proofs_checks.model import CheckContext
from proofs_checks.registry import default_registry


def test_verdict_and_power():
    claim = next(c for c in default_registry().claims if c.id == "hu.units.iht-peeling")
    ctx = CheckContext(profile="quick", seed=20261121).for_claim(claim.id)
    assert claim.check(ctx).verdict == "confirmed"
    for mutant in claim.mutants:
        assert mutant.check(ctx).verdict in mutant.detected_by


def test_rescaling_is_exact_and_the_mutant_scales_like_one_over_k():
    from proofs_checks.claim_sets.hu.units_sparse import peeling_inputs

    v1, lam1 = peeling_inputs(1.0)
    for k in (8.0, 1024.0):
        v, lam = peeling_inputs(k)
        assert np.array_equal(v, v1) and lam == lam1
        assert peeling_inputs(k, lambda_power=1.0)[1] == pytest.approx(lam1 / k, rel=1e-15)
