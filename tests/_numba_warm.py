"""Compile (or load from numba's cache) every numba kernel the test suite calls, once.

Run by ``tests/conftest.py`` as one background process when the suite runs under xdist: with an
empty numba cache (a clean clone, as in CI) each worker would otherwise compile the same kernels
itself, about 29 s of CPU each for ``reference/hu/_ephi_kernel.py`` alone.  This process writes
numba's on-disk cache (``cache=True``) while the workers collect and run other tests; a worker that
reaches an uncompiled kernel first waits for this process to end, then loads the kernel from the
cache.  The calls below give the kernels the argument types the library's wrappers always pass
(C-contiguous float64 arrays, read-only curve tables), on inputs that take both the serial and the
parallel paths, with and without a curve table.

Examples
--------
``python -m tests._numba_warm [DONE_FILE]``: nothing is printed; ``DONE_FILE`` is created at the end.
"""

import numpy as np


def warm():
    """Call every compiled entry point once on small inputs of each argument-type combination."""
    # private: _ephi_kernel, _powers, _score_kernel, _risk_kernel and _PARALLEL_MIN: the compiled kernels (and the size
    #   where they go parallel) are what this process compiles
    from reference.hu import _ephi_kernel as K
    from reference.wang_xu import _powers as P
    from reference.wang_xu import _score_kernel as S

    if not K.HAVE_NUMBA:  # pragma: no cover - nothing to compile
        return
    rng = np.random.default_rng(0)
    x = rng.standard_t(2.5, (K._PARALLEL_MIN // 8 + 1, 8))
    for beta in (1.0, K.CURVE_BETA_MAX * 4):  # with and without a curve table
        K.standard_terms(x[:4].ravel(), 1.0, beta)  # serial path
        K.standard_terms(x.ravel(), 1.0, beta)  # parallel path (>= _PARALLEL_MIN entries)
        K.standard_column_sums(x[:4], 1.0, beta)  # serial path (below _PARALLEL_MIN entries)
        K.standard_column_sums(x, 1.0, beta)
    K.ephi_array(x[:4].ravel(), np.abs(x[:4].ravel()))
    K.ephi_array(x.ravel(), np.abs(x.ravel()))
    K.ephi(0.5, 0.5)
    Xs, ys, s = x[:16, :2].copy(), x[:16, 2].copy(), np.ones(16)
    W = x[16:20, :2]
    S.psi_terms(S.dot_products(Xs, W), ys, s, 1.0, 2.0, -1.0)
    S.log_weights(Xs, ys, s, W, 1.0, 2.0, -1.0)
    S.log_weights(Xs, ys, s, W, 1.0, 1.3, -1.0)  # the same kernel; mode 2 inlines _powers.pow_unit
    P.pow_unit_compiled(np.abs(ys) / (1.0 + np.abs(ys)), 1.3)
    S.psi_column_sums(Xs[:, 0], ys, W[:, 0], 1.0, 2.0)
    S.psi_column_sums(Xs[:, 0], ys, W[:, 0], 1.0, 2.0, shift=s)
    S.psi_of_residuals(Xs[:, 0], ys, W[:, 0], 1.0, 2.0)
    from reference.wang_xu import _risk_kernel as RK

    RK.risk_column_sums(Xs, ys, s, W, 1.0, 2.0)
    RK.risk_column_sums(Xs, ys, s, W, 1.0, 1.5)


if __name__ == "__main__":
    import sys
    from pathlib import Path

    try:
        warm()
    finally:
        if len(sys.argv) > 1:
            Path(sys.argv[1]).touch()  # tells waiting workers to go on, whether or not warm() succeeded
