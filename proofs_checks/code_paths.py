"""The floating-point code paths this process runs, and the environment of a second ("baseline") path.

The same Python code computes different last bits on different CPUs in four places, each chosen at run time
(``docs/reproducibility.md`` states what this means for every number the project produces):

* **numpy's SIMD loops.**  On a CPU with AVX-512, ``np.exp`` and ``np.log`` run numpy's own AVX-512F routines
  and ``np.log1p``, ``np.expm1``, ``np.power``, the trigonometric functions run Intel's SVML; elsewhere they
  call the C library.  ``NPY_DISABLE_CPU_FEATURES`` switches the dispatched paths off.
* **The C library's maths functions** (Python's ``math``, numba's kernels, numpy's random distributions,
  scipy's special functions).  glibc picks variants that use fused multiply-add on CPUs that have it;
  ``GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2,-FMA,-FMA4`` makes it pick the plain ones.
* **The BLAS kernels** (``@``, ``np.dot``, ``np.linalg``, ``scipy.linalg``, the optimisers that use them).
  OpenBLAS picks its kernels by CPU; ``OPENBLAS_CORETYPE`` forces one.
* **numba's target.**  Kernels are compiled for the host CPU; ``NUMBA_CPU_NAME=generic`` compiles them for
  any x86-64.  The kernels use no fast-math and no contraction, so this moves no bit (measured), but it is
  the path a CPU without AVX runs.  Where Intel's SVML is installed (``icc_rt``), numba vectorises
  elementary functions with it: :func:`numba_target` reports it; this project's dependencies do not install it.

:func:`describe` reports the four for this process (the provenance of a report or golden file records it);
:func:`baseline_environment` gives the environment variables that switch every one of them to the oldest
path, so that one machine can run the test suite on two code paths (``.ci/run`` does).

References
----------
.. [1] NumPy, "CPU build options" and "CPU/SIMD optimizations" (``NPY_DISABLE_CPU_FEATURES``).
.. [2] The GNU C Library, "Tunables", ``glibc.cpu.hwcaps``.
.. [3] OpenBLAS, ``OPENBLAS_CORETYPE`` (builds with ``DYNAMIC_ARCH``).
.. [4] Numba, "Environment variables", ``NUMBA_CPU_NAME``.
"""

from __future__ import annotations

import os
import platform
import shlex

__all__ = [
    "BASELINE_BLAS_CORE",
    "BASELINE_GLIBC_HWCAPS",
    "baseline_environment",
    "compare_reports",
    "describe",
    "shell_exports",
    "numpy_simd",
    "blas_kernels",
    "numba_target",
    "libm_variant",
]

#: OpenBLAS kernel set of the baseline path: SSE4.2, the instruction set of numpy's own x86-64 baseline.
BASELINE_BLAS_CORE = "Nehalem"
#: The kernel set used instead when the machine's own is already :data:`BASELINE_BLAS_CORE`.
_OTHER_BLAS_CORE = "Prescott"
#: glibc hardware capabilities masked on the baseline path: its maths functions then use no fused multiply-add.
BASELINE_GLIBC_HWCAPS = "-AVX2,-FMA,-FMA4"


def _numpy_cpu_tables():
    try:
        from numpy._core import _multiarray_umath as mu  # numpy >= 2
    except ImportError:  # pragma: no cover - numpy 1.x
        from numpy.core import _multiarray_umath as mu
    return list(mu.__cpu_baseline__), list(mu.__cpu_dispatch__), dict(mu.__cpu_features__)


def numpy_simd():
    """numpy's SIMD extensions: ``baseline`` (compiled in), ``dispatched`` (chosen at run time), ``in_use``.

    ``in_use`` lists the dispatched extensions this process runs (found on the CPU and not switched off by
    ``NPY_DISABLE_CPU_FEATURES``, which ``disabled_by_environment`` repeats).
    """
    baseline, dispatch, features = _numpy_cpu_tables()
    return {
        "baseline": baseline,
        "dispatched": dispatch,
        "in_use": [f for f in dispatch if features.get(f)],
        "disabled_by_environment": os.environ.get("NPY_DISABLE_CPU_FEATURES", ""),
    }


def blas_kernels():
    """The BLAS libraries numpy and scipy loaded, with the kernel set (``architecture``) each picked."""
    import numpy  # noqa: F401  (loads numpy's OpenBLAS)
    import scipy.linalg  # noqa: F401  (loads scipy's)
    from threadpoolctl import threadpool_info

    return [
        {
            "library": i.get("prefix"),
            "internal_api": i.get("internal_api"),
            "version": i.get("version"),
            "architecture": i.get("architecture"),
        }
        for i in threadpool_info()
        if i.get("user_api") == "blas"
    ]


def numba_target():
    """The CPU numba compiles for (``NUMBA_CPU_NAME`` or the host's), the host CPU's name, and whether numba
    vectorises elementary functions with Intel's SVML (``svml``: then the kernels' bits depend on it too)."""
    try:
        import llvmlite.binding as ll
    except ImportError:  # pragma: no cover - numba is a run-time dependency
        return {"available": False}
    host = ll.get_host_cpu_name()
    try:  # with Intel's SVML installed (icc_rt / intel-cmplr-lib-rt) numba's vectorised loops call it
        import numba

        svml = bool(numba.config.USING_SVML)
    except ImportError:  # pragma: no cover
        svml = False
    return {"available": True, "host": host, "target": os.environ.get("NUMBA_CPU_NAME") or host, "svml": svml}


def _cpu_flags():
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as fh:
            for line in fh:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def libm_variant():
    """The C library and whether its maths functions run their fused multiply-add variants.

    glibc selects them when the CPU has FMA (and AVX2) unless ``GLIBC_TUNABLES`` masks those capabilities.
    ``fma_variants`` is ``None`` where this cannot be told (another C library, or no ``/proc/cpuinfo``).
    """
    lib, version = platform.libc_ver()
    tunables = os.environ.get("GLIBC_TUNABLES", "")
    flags = _cpu_flags()
    if lib != "glibc" or not flags:
        fma = None
    else:
        masked = "-FMA" in tunables or "-AVX2" in tunables
        fma = "fma" in flags and "avx2" in flags and not masked
    return {"libc": f"{lib} {version}".strip() or "unknown", "fma_variants": fma, "glibc_tunables": tunables}


def describe():
    """The four code paths of this process (a JSON-ready mapping; see the module docstring)."""
    return {
        "machine": platform.machine(),
        "numpy_simd": numpy_simd(),
        "blas": blas_kernels(),
        "numba": numba_target(),
        "libm": libm_variant(),
    }


def _merge_tunables(existing):
    parts = [p for p in existing.split(":") if p]
    for i, p in enumerate(parts):
        if p.startswith("glibc.cpu.hwcaps="):
            parts[i] = p + "," + BASELINE_GLIBC_HWCAPS
            break
    else:
        parts.append("glibc.cpu.hwcaps=" + BASELINE_GLIBC_HWCAPS)
    return ":".join(parts)


def baseline_environment(environ=None):
    """Environment variables that put a new process on the baseline code path of this machine.

    numpy's dispatched SIMD extensions switched off (every one this numpy dispatches; naming one the CPU
    lacks is harmless), glibc's maths functions without fused multiply-add, OpenBLAS on
    :data:`BASELINE_BLAS_CORE` kernels (or an older set where the machine's own is that one) and numba
    compiling for a generic x86-64.  Only the x86-64 settings are given on x86-64; elsewhere numpy's and
    numba's switches alone.

    Parameters
    ----------
    environ : mapping, optional
        The environment to extend (default ``os.environ``); existing ``GLIBC_TUNABLES`` are kept.

    Returns
    -------
    dict of str to str
        The variables to set, e.g. ``{"NPY_DISABLE_CPU_FEATURES": "X86_V3 X86_V4 ...", ...}``.

    Examples
    --------
    >>> env = baseline_environment({})
    >>> env["NUMBA_CPU_NAME"]
    'generic'
    """
    environ = os.environ if environ is None else environ
    _, dispatch, _ = _numpy_cpu_tables()
    env = {"NPY_DISABLE_CPU_FEATURES": " ".join(dispatch), "NUMBA_CPU_NAME": "generic"}
    if platform.machine().lower() in ("x86_64", "amd64"):
        if environ.get("OPENBLAS_CORETYPE"):  # already forced (a process on the baseline path): keep it
            env["OPENBLAS_CORETYPE"] = environ["OPENBLAS_CORETYPE"]
        else:
            cores = {str(k.get("architecture", "")).lower() for k in blas_kernels()}
            env["OPENBLAS_CORETYPE"] = _OTHER_BLAS_CORE if BASELINE_BLAS_CORE.lower() in cores else BASELINE_BLAS_CORE
        if platform.libc_ver()[0] == "glibc":
            env["GLIBC_TUNABLES"] = _merge_tunables(environ.get("GLIBC_TUNABLES", ""))
    return env


def shell_exports(env):
    """``export NAME=value`` lines (POSIX shell quoting) for ``eval`` in a script."""
    return "\n".join(f"export {k}={shlex.quote(v)}" for k, v in sorted(env.items()))


def _relative_change(a, b):
    if a == b:
        return 0.0
    if not (isinstance(a, (int, float)) and isinstance(b, (int, float))) or isinstance(a, bool) or isinstance(b, bool):
        return float("inf")
    scale = max(abs(a), abs(b))
    return abs(a - b) / scale if scale > 0 and scale != float("inf") else float("inf")


def compare_reports(first, second):
    """Compare two ``report.json`` documents of ``verify`` claim by claim (e.g. one machine against another).

    Parameters
    ----------
    first, second : dict
        Parsed ``report.json`` files.

    Returns
    -------
    dict
        ``claims`` (the number in both), ``only_in_first`` / ``only_in_second`` (claim ids),
        ``verdict_changes`` (``[id, first, second]`` rows), ``moved`` (``[id, field, first, second,
        relative change]`` rows for ``observed``, ``bound`` and ``margin``, largest change first) and
        ``same_verdicts`` (True when every claim is in both with the same verdict).

    Examples
    --------
    >>> a = {"claims": [{"id": "x", "verdict": "confirmed", "observed": 1.0, "bound": 2.0, "margin": 1.0}]}
    >>> b = {"claims": [{"id": "x", "verdict": "confirmed", "observed": 1.0 + 2**-52, "bound": 2.0, "margin": 1.0}]}
    >>> r = compare_reports(a, b)
    >>> r["same_verdicts"], [row[:2] for row in r["moved"]]
    (True, [['x', 'observed']])
    """
    ca = {c["id"]: c for c in first["claims"]}
    cb = {c["id"]: c for c in second["claims"]}
    common = [k for k in ca if k in cb]
    changes = [[k, ca[k]["verdict"], cb[k]["verdict"]] for k in common if ca[k]["verdict"] != cb[k]["verdict"]]
    moved = []
    for k in common:
        for field in ("observed", "bound", "margin"):
            x, y = ca[k].get(field), cb[k].get(field)
            if x != y:
                moved.append([k, field, x, y, _relative_change(x, y)])
    moved.sort(key=lambda row: -row[4])
    only_a = sorted(set(ca) - set(cb))
    only_b = sorted(set(cb) - set(ca))
    return {
        "claims": len(common),
        "only_in_first": only_a,
        "only_in_second": only_b,
        "verdict_changes": changes,
        "moved": moved,
        "same_verdicts": not changes and not only_a and not only_b,
    }
