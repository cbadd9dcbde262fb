"""numba for the kernel of ``E[phi(a + b Z)]`` (:mod:`reference.hu._ephi_kernel`): the compiler options,
the external ``erf`` and the files compiled together.

The kernel is compiled with numba when numba is importable (no ``fastmath``: IEEE operations in source
order, no FMA contraction) and otherwise runs as plain Python with the same special functions, hence the
same bits, only slower.  Its compiled functions live in the files of :data:`KERNEL_FILES` and call one
another across them; they are cached on disk under one stamp of all those files
(:class:`reference.hu._kernel_cache.KernelGroup`), so an edit of any of them recompiles every kernel.
A compiled function of the kernel reads compiled functions and constants from these files only
(``tests/test_kernel_cache.py`` checks it): a new kernel file goes into :data:`KERNEL_FILES`.

References
----------
.. [1] L. Hu, S. Ni, H. Xiao and D. Wang, ``002_6c597657f27a60c9.txt``: [002 eq. (2)], [002 eq. (4)],
       [002 eq. (5)] (the value the kernel computes).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from scipy import special

from ._kernel_cache import KernelGroup

try:  # pragma: no cover - exercised by whichever environment runs the tests
    import numba
    from llvmlite import binding as llvm_binding
    from numba.extending import get_cython_function_address

    #: True when the kernel is compiled (numba importable and NUMBA_DISABLE_JIT unset).
    HAVE_NUMBA = not numba.config.DISABLE_JIT
except ImportError:  # pragma: no cover
    numba = None  # type: ignore[assignment]  # the optional-import idiom: None when numba is not installed
    HAVE_NUMBA = False

__all__ = ["HAVE_NUMBA", "KERNEL_FILES", "KERNEL_GROUP"]

#: The files whose compiled functions and module-level constants the compiled kernel reads: its cache stamp
#: is the digest of all of them (the tables of _mills_table.py included: numba freezes them into the code).
KERNEL_FILES = (
    "_mills_table.py",
    "_ephi_numba.py",
    "_ephi_special.py",
    "_ephi_regions.py",
    "_ephi_loops.py",
    "_ephi_curve.py",
    "_ephi_colsum.py",
)
KERNEL_GROUP = KernelGroup(Path(__file__).parent, KERNEL_FILES)

if HAVE_NUMBA:
    # a named external symbol (not a ctypes pointer) so that the compiled code can be cached
    llvm_binding.add_symbol(
        "heavytail_dp_erf", get_cython_function_address("scipy.special.cython_special", "__pyx_fuse_1erf")
    )
    # typed Any: an external function is called only inside compiled code, the fallback below is a Python function
    _erf: Any = numba.types.ExternalFunction("heavytail_dp_erf", numba.types.float64(numba.types.float64))
    _jit = KERNEL_GROUP.jit(nogil=True, error_model="numpy")
    # inlined at numba's level, so that the loops calling them can be vectorised
    _jit_inline = KERNEL_GROUP.jit(nogil=True, error_model="numpy", inline="always")
    _jit_parallel = KERNEL_GROUP.jit(parallel=True, nogil=True, error_model="numpy")
    _to_i32: Callable[[Any], Any] = numba.int32
else:  # pragma: no cover

    def _erf(x):
        return float(special.erf(x))

    def _jit(fn):
        return fn

    _jit_inline = _jit
    _jit_parallel = None
    _to_i32 = int
