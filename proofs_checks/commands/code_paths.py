"""``python -m proofs_checks code-paths``: the floating-point code paths of this machine, and the baseline path."""

from __future__ import annotations

NAME = "code-paths"
HELP = ("show which floating-point code paths this process runs (numpy SIMD, libm, BLAS kernels, numba "
        "target) or the environment of the baseline path (docs/reproducibility.md)")
EPILOG = """\
examples:
  python -m proofs_checks code-paths
  python -m proofs_checks code-paths --json
  eval "$(python -m proofs_checks code-paths --baseline-env)" && python -m pytest   # the suite on the baseline path
"""


def add_arguments(parser):
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--json", action="store_true", help="print the description as JSON")
    group.add_argument("--baseline-env", action="store_true",
                       help="print `export NAME=value` lines that put later commands on the baseline path")


def run(args):
    import json

    from ..code_paths import baseline_environment, describe, shell_exports

    if args.baseline_env:
        print(shell_exports(baseline_environment()))
        return 0
    info = describe()
    if args.json:
        print(json.dumps(info, indent=2))
        return 0
    simd = info["numpy_simd"]
    libm = info["libm"]
    fma = {True: "yes", False: "no", None: "unknown"}[libm["fma_variants"]]
    rows = [("machine", info["machine"]),
            ("numpy SIMD baseline", " ".join(simd["baseline"]) or "-"),
            ("numpy SIMD in use", " ".join(simd["in_use"]) or "none (baseline only)"),
            ("libm", f"{libm['libc']}; fused multiply-add variants: {fma}"),
            ("BLAS kernels", "; ".join(f"{b['library']} {b['version']} {b['architecture']}" for b in info["blas"])
             or "-"),
            ("numba target", info["numba"].get("target", "numba not available"))]
    width = max(len(k) for k, _ in rows)
    print(f"{'path':<{width}}  in this process")
    for k, v in rows:
        print(f"{k:<{width}}  {v}")
    return 0
