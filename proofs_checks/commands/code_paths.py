"""``python -m proofs_checks code-paths``: the floating-point code paths of this machine, the baseline path, and
what moved between two verify reports (docs/reproducibility.md)."""

from __future__ import annotations

from . import UsageError

__all__ = ["NAME", "HELP", "EPILOG", "add_arguments", "run"]

NAME = "code-paths"
HELP = (
    "show which floating-point code paths this process runs (numpy SIMD, libm, BLAS kernels, numba "
    "target), the environment of the baseline path, or compare two verify reports (docs/reproducibility.md)"
)
EPILOG = """\
examples:
  python -m proofs_checks code-paths
  python -m proofs_checks code-paths --json
  eval "$(python -m proofs_checks code-paths --baseline-env)" && python -m pytest   # the suite on the baseline path
  python -m proofs_checks code-paths --compare native/report.json baseline/report.json   # exit 1 if a verdict moved
"""


def add_arguments(parser):
    group = parser.add_mutually_exclusive_group()
    group.add_argument(
        "--baseline-env",
        action="store_true",
        help="print `export NAME=value` lines that put later commands on the baseline path",
    )
    group.add_argument(
        "--compare",
        nargs=2,
        metavar=("FIRST", "SECOND"),
        help="compare two report.json files of verify claim by claim: verdicts (exit 1 when one "
        "differs or a claim is missing) and the observed values, bounds and margins that moved",
    )
    parser.add_argument("--json", action="store_true", help="print the description or the comparison as JSON")


def _load(path):
    import json
    from pathlib import Path

    p = Path(path)
    if p.is_dir():
        p = p / "report.json"
    try:
        doc = json.loads(p.read_text(encoding="utf-8"))
    except OSError as exc:
        raise UsageError(f"--compare: cannot read {str(p)!r}: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise UsageError(f"--compare: {str(p)!r} is not JSON: {exc}") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("claims"), list):
        raise UsageError(f"--compare: {str(p)!r} is not a report.json of verify (no list 'claims')")
    return doc


def _print_comparison(result):
    print(
        f"claims in both: {result['claims']}; verdicts that differ: {len(result['verdict_changes'])}; "
        f"only in the first: {len(result['only_in_first'])}; only in the second: {len(result['only_in_second'])}; "
        f"values that moved: {len(result['moved'])}"
    )
    for cid, a, b in result["verdict_changes"]:
        print(f"VERDICT {cid}: {a} -> {b}")
    for cid in result["only_in_first"]:
        print(f"only in the first: {cid}")
    for cid in result["only_in_second"]:
        print(f"only in the second: {cid}")
    if result["moved"]:
        width = max(len(r[0]) + len(r[1]) + 1 for r in result["moved"])
        print(f"{'claim.field':<{width}}  {'first':>24}  {'second':>24}  relative change")
        for cid, field, a, b, rel in result["moved"]:
            print(f"{cid + '.' + field:<{width}}  {a!r:>24}  {b!r:>24}  {rel:.3g}")


def run(args):
    import json

    from ..code_paths import baseline_environment, compare_reports, describe, shell_exports

    if args.baseline_env:
        if args.json:
            print(json.dumps(baseline_environment(), indent=2, sort_keys=True))
        else:
            print(shell_exports(baseline_environment()))
        return 0
    if args.compare:
        result = compare_reports(_load(args.compare[0]), _load(args.compare[1]))
        if args.json:
            print(json.dumps(result, indent=2))
        else:
            _print_comparison(result)
        return 0 if result["same_verdicts"] else 1
    info = describe()
    if args.json:
        print(json.dumps(info, indent=2))
        return 0
    simd = info["numpy_simd"]
    libm = info["libm"]
    fma = {True: "yes", False: "no", None: "unknown"}[libm["fma_variants"]]
    rows = [
        ("machine", info["machine"]),
        ("numpy SIMD baseline", " ".join(simd["baseline"]) or "-"),
        ("numpy SIMD in use", " ".join(simd["in_use"]) or "none (baseline only)"),
        ("libm", f"{libm['libc']}; fused multiply-add variants: {fma}"),
        ("BLAS kernels", "; ".join(f"{b['library']} {b['version']} {b['architecture']}" for b in info["blas"]) or "-"),
        (
            "numba target",
            info["numba"].get("target", "numba not available")
            + ("; vectorises with Intel SVML" if info["numba"].get("svml") else ""),
        ),
    ]
    width = max(len(k) for k, _ in rows)
    print(f"{'path':<{width}}  in this process")
    for k, v in rows:
        print(f"{k:<{width}}  {v}")
    return 0
