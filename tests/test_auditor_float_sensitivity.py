"""search_sensitivity judges at rtol 0 by default and says how large an excess is; claims keep the old tolerance."""

import numpy as np

from proofs_checks.formulas.sensitivity import CLAIM_ATOL, CLAIM_RTOL, search_sensitivity


def _sequential_sum(d):
    return np.cumsum(np.clip(d[:, 0], 0.0, 1.0))[-1:]


def _base():
    # 10^5 uniform records, row 0 set to 0: replacing it by a record >= 1 moves the exact sum by exactly 1;
    # the sequential float sum crosses 2^15 one step earlier on D' and ends 2^-36 = 1.46e-11 further (seed 170)
    b = np.random.default_rng(170).random((100_000, 1))
    b[0] = 0.0
    return b


def test_a_rounding_level_excess_refutes_by_default_and_says_how_large():
    res = search_sensitivity(_sequential_sum, _base(), 1.0, norm="abs", rng=0, budget=40, indices=[0])
    assert res.verdict == "refuted" and res.index == 0
    assert res.excess == 2.0**-36 and res.relative_excess == 2.0**-36  # sensitivity 1: the same number
    ev = res.as_evidence()
    assert ev["excess_over_stated"] == 2.0**-36 and ev["relative_excess"] == 2.0**-36 and ev["tolerance"] == 0.0


def test_the_rounding_tolerance_stays_available():
    res = search_sensitivity(
        _sequential_sum, _base(), 1.0, norm="abs", rng=0, budget=40, indices=[0], rtol=CLAIM_RTOL, atol=CLAIM_ATOL
    )
    assert res.verdict == "confirmed" and res.excess == 2.0**-36 and res.tolerance == CLAIM_RTOL + CLAIM_ATOL


def test_an_exact_sum_is_confirmed_at_rtol_0():
    # integer records: every partial sum exact, no excess (false-refutation control)
    base = np.random.default_rng(0).integers(0, 2, (1000, 1)).astype(float)
    res = search_sensitivity(_sequential_sum, base, 1.0, norm="abs", rng=0, budget=200)
    assert res.verdict == "confirmed" and res.excess == 0.0 and res.relative_excess == 0.0
