"""The statistical audit runs its arithmetic on one BLAS thread (proofs_checks/audit/_blas.py).

Before the pin, SVT3 and NoisyHist2 of the DP-Sniper suite at 2*10^6 calls (seed 0) gave thresholds differing in
their last digits with OPENBLAS_NUM_THREADS=1 and 2 (0.25139764634424927 against 0.2513976463441919;
4.224129251464773 against 4.224129251464406; measured on main 91837e0); with it, the same bits (slow test below).
"""

import json
import os
import subprocess
import sys

import numpy as np
import pytest
from threadpoolctl import threadpool_info

# private: _blas: the auditor's one-BLAS-thread pin is the subject
from proofs_checks.audit._blas import one_blas_thread
from proofs_checks.audit.statistical import statistical_audit


def _blas_threads():
    return {lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"}


def test_one_blas_thread_limits_and_restores():
    before = _blas_threads()
    with one_blas_thread():
        assert _blas_threads() == {1}
    assert _blas_threads() == before


class _Recorder:
    """A Laplace mechanism that records the BLAS thread counts it was sampled under."""

    def __init__(self):
        self.seen = set()

    def sample(self, data, size, rng):
        self.seen |= _blas_threads()
        return float(np.asarray(data).ravel()[0]) + rng.laplace(size=(size, 2))


def test_audit_samples_and_selects_on_one_blas_thread():
    mech = _Recorder()
    before = _blas_threads()
    res = statistical_audit(mech, [(np.array([[0.0]]), np.array([[1.0]]))], 1.0, samples=4000, seed=3)
    assert mech.seen == {1}
    assert _blas_threads() == before
    assert np.isfinite(res.threshold)


_RUN = (
    "import json, sys; from proofs_checks.benchmarks.dpsniper_suite import main; "
    "sys.argv = ['x', '--calls', '2e6', '--only', 'SVT3', 'NoisyHist2', '--seed', '0', '--json']; main()"
)


@pytest.mark.slow
def test_thresholds_identical_for_one_and_two_blas_threads():
    out = []
    for threads in ("1", "2"):
        env = dict(os.environ, OPENBLAS_NUM_THREADS=threads)
        proc = subprocess.run([sys.executable, "-c", _RUN], env=env, capture_output=True, text=True, check=True)
        out.append([(r["mechanism"], repr(r["threshold"]), r["counts"]) for r in json.loads(proc.stdout)])
    assert out[0] == out[1]
